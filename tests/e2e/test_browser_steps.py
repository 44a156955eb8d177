"""The page equals the engine at every shown step, at the table and in the replay.

Twenty fixed-seed games (both games, 2 to 8 seats, house rules with a deadlock of each
kind, a widow auction, fines, betting limits, eliminations and every settlement) play on
the real server, each with one person whose page (in Chromium, at the default "normal"
pace) is read from the DOM every time it shows a step or a card of a run: every player's
chips (or points) and cards, every board space with the centre and the poker pot, the
laid cards and the hand. Each reading is compared with the engine's view of that seat
at that step, rebuilt from the game's record apart from the server's code
(``e2e.rummoli_truth``, laying card by card). Then each game's replay page is stepped
through and read the same way. No difference is allowed.

The person is away from the start (her turn timer runs out at her first decision and
the computer plays for her; her page stays open), so each game is decided by its seed
alone: the games that must show a deadlock, an auction, a fine or an elimination are
found by playing the same tables in-process first (instant timing), a seed at a time.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from e2e.conftest import LiveServer
from e2e.pages import DESKTOP, NO_GUIDE, TIMEOUT_MS, get_json, post_json
from e2e.rummoli_truth import Shown, card_steps, shown_reference
from e2e.rummy_truth import rummy_reference
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.setup import setup_from_dict


@dataclass
class Table:
    game: str
    seats: list[str]
    rules: dict[str, Any]
    #: An event kind the game must show (found by trying seeds), or None.
    wanted: str | None = None
    seed: int = 0
    id: str = ""


def rummoli(bots: list[str], wanted: str | None = None, **rules: Any) -> Table:
    """A Rummoli table: seat 0 is the person, the others the computer players ``bots``."""
    return Table("rummoli", ["human", *bots], rules, wanted)


def rummy(bots: list[str], **rules: Any) -> Table:
    return Table("rummy", ["human", *bots], {"target": 10, **rules})


TABLES = [
    rummoli(["basic"], rounds=2),
    rummoli(["basic", "random"], "deadlock", rounds=1),
    rummoli(["random"] * 3, "deadlock_continue", rounds=1, deadlock="any_colour", cant_lead_fine=2),
    rummoli(["basic"] * 3, "bought", rounds=1),
    rummoli(["random"] * 2, "duty_passes", rounds=1, cant_lead_fine=3),
    rummoli(["random"] * 4, "raise", rounds=1, bet_limit="pot_limit"),
    rummoli(["random", "basic"], "raise", rounds=1, bet_limit=5),
    rummoli(["random"] * 5, "out", rounds=3, starting_chips=12),
    rummoli(["basic"] * 2, "settled", rounds=2, settlement="poker_per_pot"),
    rummoli(["basic"], "settle_cut", rounds=1, settlement="high_card"),
    rummoli(["random"] * 7, rounds=1),
    rummoli(["basic"] * 6, rounds=1, poker="showdown"),
    rummoli(["random"] * 2, rounds=1, must_claim=True),
    rummoli(["basic"] * 2, rounds=1, widow="none", lead="lowest_of_any_suit"),
    rummoli(
        ["random", "random", "basic"],
        rounds=1,
        switch_lead="any_suit_of_colour",
        short_ante="pay_what_you_can",
        starting_chips=15,
    ),
    rummoli(["basic", "random"], preset="rulebook_method_1", rounds=1),
    rummy(["basic"]),
    rummy(["basic", "random"]),
    rummy(["random", "basic", "random"]),
    rummy(["basic"], one_meld_per_turn=True),
]

#: Read the page each time it shows a step (the page says so: ``rummoli:shown``).
RECORDER = """
window.__samples = [];
const digits = (node) => node ? Number(node.textContent.replace(/[^0-9-]/g, "")) : null;
document.addEventListener("rummoli:shown", (event) => {
  const players = [...document.querySelectorAll('[data-testid^="player-name-"]')].map((_, i) => ({
    chips: digits(document.querySelector(`[data-testid="player-chips-${i}"]`)),
    score: digits(document.querySelector(`[data-testid="player-score-${i}"]`)),
    cards: digits(document.querySelector(`[data-testid="player-cards-${i}"]`)),
  }));
  const board = {};
  for (const space of document.querySelectorAll('[data-testid^="space-"]')) {
    board[space.dataset.testid.slice(6)] = digits(space.querySelector(".space-chips"));
  }
  window.__samples.push({
    ...event.detail,
    status: document.querySelector("#table").dataset.status,
    seat: document.querySelector("#table").dataset.seat,
    players,
    board,
    laid: document.querySelectorAll('[data-testid="laid"] .laid-cell.on').length,
    hand: document.querySelectorAll('#hand [data-testid^="hand-card-"]').length,
    stock: digits(document.querySelector('[data-testid="stock"] .back-count')),
    pile: (document.querySelector('[data-testid="discard-pile"]') || {dataset: {}}).dataset.count,
  });
});
"""


#: A public table; Ann, its one person, is away from her first turn (her timer runs out).
SETTINGS = {"public": True, "turn_timer": 0.5}


def _create(url: str, table: Table) -> str:
    """The table, waiting for Ann: its invitation link."""
    body = {"game": table.game, "seats": table.seats, "rules": table.rules, **SETTINGS}
    created = post_json(url + "/api/tables", body)
    table.id = str(created["id"])
    return str(created["invite_url"])


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[int, int]:
    """For each table that must show an event, the first seed whose game shows it,
    played in-process as the browser test plays it (Ann away from her first turn)."""
    from fastapi.testclient import TestClient

    from rummoli.web.app import create_app
    from rummoli.web.limits import Limits
    from rummoli.web.room import Timing

    found: dict[int, int] = {}
    db = tmp_path_factory.mktemp("seeds") / "seeds.db"
    timing = Timing(0.0, 0.0, watch=False)
    many = Limits(tables_per_minute=10_000, connects_per_minute=10_000)
    app = create_app(f"sqlite:///{db}", timing=timing, allowed_hosts=["testserver"], limits=many)
    with pytest.MonkeyPatch.context() as patch, TestClient(app) as client:
        for index, table in enumerate(TABLES):
            if table.wanted is None:
                continue
            for seed in range(60):
                patch.setattr("rummoli.web.hub.new_seed", lambda seed=seed: seed)
                body = {"game": table.game, "seats": table.seats, "rules": table.rules}
                created = client.post("/api/tables", json={**body, **SETTINGS}).json()
                ann = {"name": "Ann", "invite": created["invite"]}
                seat = client.post(f"/api/tables/{created['id']}/join", json=ann).json()
                with client.websocket_connect(f"/ws/{created['id']}") as ws:
                    ws.send_json({"type": "hello", "token": seat["token"]})
                    the_room = app.state.hub.rooms[created["id"]]
                    deadline = time.monotonic() + 120
                    while the_room.status != "finished":
                        assert time.monotonic() < deadline, "an in-process game did not end"
                        ws.receive_json()  # read what the table sends, as a page does
                    kinds = {event[0] for event in the_room.events}
                if table.wanted in kinds:
                    found[index] = seed
                    break
            assert index in found, f"no seed of 60 shows {table.wanted} at {table.rules}"
    return found


def _reference(table: Table, record: dict[str, Any]) -> list[Any]:
    """The table's shown steps (Rummoli's with their card-by-card parts)."""
    if table.game == "rummoli":
        return shown_reference(record)[0]
    return rummy_reference(record)[0]


def _check_table(table: Table, samples: list[dict[str, Any]], record: dict[str, Any]) -> int:
    """Every reading of the table's page against the engine: how many were compared
    in the middle of a run (a card before the run's last)."""
    shown = _reference(table, record)
    # Before the game starts the page shows the waiting table, no game.
    samples = [sample for sample in samples if sample["status"] != "waiting"]
    for sample in samples:
        truth = shown[sample["step"]]
        steps = getattr(truth, "steps", [])
        part = sample["part"]
        if sample["of"] > 1:
            assert sample["of"] == len(steps) + 1, (table.rules, sample["step"])
        mid_run = sample["of"] > 1 and part < len(steps)
        # The page watches until Ann's seat is hers (her join reconnects it).
        seat = None if sample["seat"] == "" else int(sample["seat"])
        _compare(table, sample, truth.step_view(part, seat) if mid_run else truth.view(seat))
    return sum(1 for sample in samples if sample["part"] < sample["of"] - 1)


def _check_replay(table: Table, samples: list[dict[str, Any]], record: dict[str, Any]) -> int:
    """Every frame of the replay page (seat 0) against the engine, action by action
    (the replay shows the real game: a forced pass is not a turn there)."""
    if table.game == "rummoli":
        rules = Rules.from_dict(record["rules"])
        state = RummoliState(
            rules, setup_from_dict(record["setup"], rules.starting_chips), record["seed"]
        )
        states, runs = [state.clone()], [[]]
        for action in record["actions"]:
            steps = card_steps(state, action)
            state.apply(action)
            states.append(state.clone())
            runs.append(steps[:-1] if len(steps) > 1 else [])
    else:
        states = rummy_reference(record)[0]
        runs = [[] for _ in states]
    assert [s["step"] for s in samples][-1] == len(states) - 1
    for sample in samples:
        steps = runs[sample["step"]]
        part = sample["part"]
        if part < len(steps):
            view = Shown(steps[part][1], None, steps).step_view(part, 0)
        else:
            view = states[sample["step"]].view(0)
        _compare(table, sample, view)
    return len(samples)


def _compare(table: Table, sample: dict[str, Any], view: dict[str, Any]) -> None:
    where = (table.game, table.rules, sample["step"], sample["part"])
    players = view["players"]
    assert len(sample["players"]) == len(players), where
    for shown, truth in zip(sample["players"], players, strict=True):
        assert shown["cards"] == truth["cards"], where
        if table.game == "rummoli":
            assert shown["chips"] == truth["chips"], (where, sample["players"], players)
        else:
            assert shown["score"] == truth["score"], where
    if table.game == "rummoli":
        assert sample["board"] == view["board"], (where, sample["board"], view["board"])
        assert sample["laid"] == len(view["laid"]), where
    else:
        assert sample["stock"] == view["stock"], where
        assert int(sample["pile"]) == len(view["discard"]), where
    assert sample["hand"] == len(view.get("hand", [])), where


#: Step the replay page through every frame, in the page's own task (one call).
STEP_THROUGH = """() => {
  const slider = document.querySelector("#slider");
  window.__samples = [];
  for (let i = 0; i <= Number(slider.max); i++) {
    slider.value = String(i);
    slider.dispatchEvent(new Event("input"));
  }
  return window.__samples;
}"""


def test_the_page_equals_the_engine_at_every_shown_step(
    browser: Browser,
    live_server: LiveServer,
    seeds: dict[int, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pages: list[tuple[Table, Page]] = []
    with ExitStack() as contexts:
        for index, table in enumerate(TABLES):
            table.seed = seeds.get(index, 100 + index)
            monkeypatch.setattr("rummoli.web.hub.new_seed", lambda seed=table.seed: seed)
            invite = _create(live_server.url, table)
            context = browser.new_context(viewport=DESKTOP)
            contexts.callback(context.close)
            context.add_init_script(NO_GUIDE)
            context.add_init_script(RECORDER)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            # Ann opens the invitation and takes the free seat: the game starts.
            page.goto(live_server.url + invite)
            page.get_by_test_id("join-name").fill("Ann")
            page.get_by_test_id("join-submit").click()
            pages.append((table, page))
        # Every page shows its game to the end at the default pace (the table waits for
        # Ann's page to show each run).
        deadline = time.monotonic() + 900
        waiting = list(pages)
        while waiting:
            assert time.monotonic() < deadline, [t.rules for t, _ in waiting]
            time.sleep(1.0)
            waiting = [
                (t, p)
                for t, p in waiting
                if p.get_by_test_id("table").get_attribute("data-phase") != "over"
                or p.get_by_test_id("table").get_attribute("data-playing") == "true"
            ]
        compared = mid_run = replayed = 0
        for table, page in pages:
            assert page.get_by_test_id("pace").input_value() == "normal"
            record = get_json(f"{live_server.url}/api/games/{table.id}/record")
            samples = page.evaluate("window.__samples")
            assert samples, table.rules
            compared += len(samples)
            mid_run += _check_table(table, samples, record)
            page.goto(f"{live_server.url}/replay/{table.id}?seat=0")
            page.wait_for_function("() => Number(document.querySelector('#slider').max) > 0")
            replayed += _check_replay(table, page.evaluate(STEP_THROUGH), record)
    print(f"compared {compared} table readings ({mid_run} mid-run), {replayed} replay frames")
    assert compared > 500 and replayed > 500 and mid_run > 200, (compared, replayed, mid_run)
