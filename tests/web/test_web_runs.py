"""Runs shown card by card with the engine's own views: the patches frames carry, the
table's frames of whole games, the replay's frames, and a page that reloads mid-run.

The frames' ``parts`` must give, at every laid card, exactly the engine's view of the
game at that card (checked against the reference of ``e2e.rummoli_truth``, which lays
card by card apart from the server's code), and no hidden card.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from webtools import connect, create_table, drive, join, server
from webtools import people as host_of

from conftest import check_rummoli_frames
from e2e.rummoli_truth import expanded, shown_reference
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.view import events_for
from rummoli.web.patch import apply, diff

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "5H"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["s", "d", "p", "n", "i", "x", "1"]), inner, max_size=4)
    ),
    max_leaves=25,
)
DICTS = st.dictionaries(st.sampled_from(["s", "d", "p", "n", "i", "x", "laid"]), JSON, max_size=5)


@settings(max_examples=400, deadline=None)
@given(a=DICTS, b=DICTS)
def test_a_patch_makes_the_other_value_and_changes_nothing_else(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    copy = repr(a)
    assert apply(a, diff(a, b)) == b
    assert repr(a) == copy  # the value patched is not changed
    assert diff(a, a) == {} and diff(b, b) == {}


def _reference_patchable(a: Any, b: Any) -> bool:
    if type(a) is dict and type(b) is dict:
        return True
    if type(a) is list and type(b) is list and len(b) <= len(a):
        return all(x == y or _reference_patchable(x, y) for x, y in zip(a, b, strict=False))
    return False


def _reference_diff(a: Any, b: Any) -> dict[str, Any]:
    """:func:`diff` as it was written before issue 27 made it one pass: the frames' patches
    must stay byte for byte what they were."""
    if type(a) is list:
        items = {
            str(i): _reference_diff(x, y)
            for i, (x, y) in enumerate(zip(a, b, strict=False))
            if x != y
        }
        patch: dict[str, Any] = {}
        if len(b) < len(a):
            patch["n"] = len(b)
        if items:
            patch["i"] = items
        return patch
    differ = [k for k, v in b.items() if k in a and a[k] != v]
    changed = {k: b[k] for k in b if k not in a}
    changed.update((k, b[k]) for k in differ if not _reference_patchable(a[k], b[k]))
    nested = {k: _reference_diff(a[k], b[k]) for k in differ if _reference_patchable(a[k], b[k])}
    deleted = [k for k in a if k not in b]
    patch = {}
    if changed:
        patch["s"] = changed
    if deleted:
        patch["d"] = deleted
    if nested:
        patch["p"] = nested
    return patch


@settings(max_examples=600, deadline=None)
@given(a=DICTS, b=DICTS)
def test_the_one_pass_diff_gives_the_patch_the_former_one_gave_key_for_key(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    # Compared as JSON text: the order of the keys is part of a frame's bytes.
    assert json.dumps(diff(a, b)) == json.dumps(_reference_diff(a, b))
    # A small change of ``a`` (a key gone, a list cut, a value changed) too.
    for key in list(a)[:2]:
        c = dict(a)
        value = c.pop(key)
        assert json.dumps(diff(a, c)) == json.dumps(_reference_diff(a, c))
        if type(value) is list and value:
            c[key] = value[:-1]
            assert json.dumps(diff(a, c)) == json.dumps(_reference_diff(a, c))


def test_a_step_of_a_run_is_a_small_patch_of_the_final_view() -> None:
    # The views a run goes through: each laid card's view, against the round's last.
    checked = 0
    for seed in range(20):
        state = RummoliState.new_game(["Ann", "Bob", "Cy"], Rules(), seed)
        rng = random.Random(seed)
        while state.view(0)["phase"] != "play" and not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        before = state.view(0)
        if before["phase"] != "play":
            continue  # the game ended first (players out of chips)
        checked += 1
        while state.view(0)["phase"] == "play":
            state.apply(state.legal_actions()[0])
        after = state.view(0)
        patch = diff(after, before)
        assert apply(after, patch) == before
        # The laid cards only grew: the patch cuts the list instead of sending it again.
        assert patch["p"]["laid"] == {"n": len(before["laid"])}
    assert checked >= 10


def _game(client: Any, seats: list[str], rules: dict[str, Any], seed: int) -> dict[str, Any]:
    """A whole game of people (driven at random) and computer players; every frame."""
    table = create_table(client, seats, rules=rules, turn_timer=0)
    people = [join(client, table, f"P{i}") for i, kind in enumerate(seats) if kind == "human"]
    with ExitStack() as stack:
        spectator = stack.enter_context(connect(client, table))
        conns = [stack.enter_context(connect(client, table, p["token"])) for p in people]
        drive([*conns, spectator], random.Random(seed))
        frames = {c.seat: c.frames for c in conns} | {None: spectator.frames}
    record = client.get(f"/api/games/{table}/record", headers=host_of(table)).json()
    return {"table": table, "frames": frames, "record": record}


def test_every_laid_card_of_whole_games_is_the_engines_view_at_that_card(tmp_path: Path) -> None:
    checked_parts = 0
    with server(tmp_path / "t.db") as client:
        for seats, rules, seed in (
            (["human", "random", "random"], {"rounds": 2}, 1),
            (["human", "human", "random", "basic", "random"], {"rounds": 1}, 2),
            (["human", "random"], {"rounds": 2, "deadlock": "any_colour", "cant_lead_fine": 2}, 3),
            (["human", "random", "random", "random"], {"rounds": 1, "poker": "showdown"}, 4),
            (["human", "random", "random"], {"rounds": 1, "must_claim": True}, 5),
        ):
            game = _game(client, seats, rules, seed)
            states, events = shown_reference(game["record"])
            for seat, frames in game["frames"].items():
                assert check_rummoli_frames(expanded(frames), seat, states, events) > 0
                checked_parts += sum(len(f.get("parts", [])) for f in frames)
            replay = client.get(
                f"/api/games/{game['table']}/replay",
                params={"seat": 0},
                headers=host_of(game["table"]),
            ).json()
            assert len(replay["frames"]) == len(game["record"]["actions"]) + 1
    # The check had runs to look at (each run: a part per laid card).
    assert checked_parts > 100


def test_the_replay_shows_every_laid_card_with_its_views(tmp_path: Path) -> None:
    from webtools import reference

    from conftest import check_run_parts
    from e2e.rummoli_truth import Shown, card_steps

    with server(tmp_path / "t.db") as client:
        game = _game(client, ["human", "random", "random"], {"rounds": 2}, 11)
        table = game["table"]
        replays = {
            seat: client.get(
                f"/api/games/{table}/replay", params=params, headers=host_of(table)
            ).json()
            for seat, params in ((0, {"seat": 0}), (None, {}))
        }
    record = game["record"]
    # The replay is the real game, action by action (forced passes are not turns there).
    states, events = reference(record)
    with_runs = 0
    for seat, replay in replays.items():
        for step, frame in enumerate(replay["frames"]):
            assert expanded(frame["view"]) == states[step].view(seat)
            assert frame["events"] == events_for(events[step], seat, states[0].names)
            if step == 0:
                continue
            steps = card_steps(states[step - 1], record["actions"][step - 1])
            truth = Shown(states[step], None, steps[:-1] if len(steps) > 1 else [])
            check_run_parts(frame, truth, seat, states[0].names)
            with_runs += bool(truth.steps)
    assert with_runs >= 4


def test_a_page_back_mid_run_goes_on_from_the_card_it_had_shown(tmp_path: Path) -> None:
    from webtools import Conn

    from rummoli.web.protocol import MAX_PACE_MS
    from rummoli.web.room import Timing

    watching = Timing(bot_delay=0.0, round_pause=0.0, watch=True)
    with server(tmp_path / "t.db", watching) as client:
        for _attempt in range(30):
            table = create_table(client, ["human", "random", "random"], rules={"rounds": 1})
            ann = join(client, table, "Ann")
            with connect(client, table, ann["token"]) as a:
                # A slow page: the table waits for it to show each run.
                a.send({"type": "watching", "pace": MAX_PACE_MS, "seen": a.step})
                run = None
                while run is None and a.view is not None and a.view["phase"] != "over":
                    frame = a.recv()
                    if frame["type"] == "update" and len(frame.get("parts", [])) >= 3:
                        run = frame
                    elif a.my_turn():
                        a.act(a.view["legal_actions"][0]["action"])
            if run is None:
                continue
            # The page reloads having shown the run's second card (the table waits for
            # it: at the slowest pace, seconds a card).
            with client.websocket_connect(f"/ws/{table}") as ws:
                back = Conn(ws)
                shown_at = {"step": run["step"], "part": 1}
                back.send({"type": "hello", "token": ann["token"], "shown": shown_at})
                state = back.until(lambda f: f["type"] == "state")
            resume = state["resume"]
            assert resume["from"] == 1 and resume["after"] == []
            assert {k: resume["update"][k] for k in ("parts", "events", "view", "step")} == {
                k: run[k] for k in ("parts", "events", "view", "step")
            }
            # The log is what Ann's page had logged up to the run's second card.
            shown = sum(part[0] for part in run["parts"][:2])
            earlier = a.frames[: a.frames.index(run)]
            last_state = max(i for i, f in enumerate(earlier) if f["type"] == "state")
            logged = list(earlier[last_state]["log"])
            for f in earlier[last_state + 1 :]:
                logged += f["events"] if f["type"] == "update" else []
            assert state["log"] == [*logged, *run["events"][:shown]]
            # A page that had shown the whole run, or another step, starts from the table.
            for stale in (
                {"step": run["step"], "part": len(run["parts"]) - 1},
                {"step": 0, "part": 0},
            ):
                with client.websocket_connect(f"/ws/{table}") as ws:
                    other = Conn(ws)
                    other.send({"type": "hello", "token": ann["token"], "shown": stale})
                    assert "resume" not in other.until(lambda f: f["type"] == "state")
            return
    raise AssertionError("no deal of 30 laid a run of three cards")


def test_a_hello_with_a_bad_shown_is_refused() -> None:
    import pytest

    from rummoli.web.protocol import Hello, ProtocolError, parse_message

    ok = parse_message('{"type": "hello", "shown": {"step": 12, "part": 3}}')
    assert ok == Hello(None, None, None, (12, 3))
    for bad in ('{"step": 1}', '{"step": -1, "part": 0}', '{"step": 1, "part": 99}', '[1, 2]',
                '{"step": 1, "part": 0, "x": 1}', '{"step": "1", "part": 0}'):  # fmt: skip
        with pytest.raises(ProtocolError) as refused:
            parse_message(f'{{"type": "hello", "shown": {bad}}}')
        assert refused.value.code == "bad_message" and "shown" in str(refused.value)
