"""A round of Michigan, Tripoley, Poch and Nain Jaune in a real browser, from the lobby.

Ann chooses the game in the lobby, seats three computers, one round, and creates the
table; she plays the round as a person does (the first button offered: check, call,
lay a card). At each of her turns the page's board is the view's: its shape is the one
the game's layout declares, each space drawn with the view's chips, and no space that
the game does not have. Every WebSocket frame she received is then checked against the
engine, rebuilt from the stored record: exactly her view at that step (the board's
layout aside, which is the game's data), so no card she may not see.

``RUMMOLI_SCREENSHOTS=docs/img`` also saves ``michigan-table.png`` and
``tripoley-table.png`` (her first turn of the runs).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocket

from e2e.conftest import LiveServer
from e2e.pages import DESKTOP, INSTANT_PACE, NO_GUIDE, TIMEOUT_MS, Shots, get_json
from e2e.rummoli_truth import expanded
from rummoli.games import registry

Frame = dict[str, Any]

MY_TURN_OR_OVER = """(step) => {
  const t = document.querySelector('#table');
  if (t.dataset.phase === 'over') return true;
  return t.dataset.myTurn === 'true' && Number(t.dataset.step) >= step
    && document.querySelector('[data-testid=actions] button') !== null
    && !document.querySelector('[data-testid=actions]').classList.contains('pending');
}"""
MOVED_ON = """(step) => Number(document.querySelector('#table').dataset.step) > step
  || document.querySelector('#table').dataset.phase === 'over'"""
VIEW = "() => window.rummoliTable.state.view"
BOARD = """() => [...document.querySelectorAll('[data-testid=board-family] .space')]
  .map(s => [s.dataset.testid.slice(6), Number(s.dataset.chips),
    s.querySelector('.space-label').textContent, s.title])"""


@pytest.mark.parametrize(
    ("game", "shape", "spare", "labels"),
    [
        # Michigan's boodle cards, in its board's order (pagat.com); its spare hand.
        ("michigan", "row", "spare hand", ["A♥", "K♣", "Q♦", "J♠"]),
        # Tripoley's pay sections (Cadaco), then its pot and kitty.
        (
            "tripoley",
            "sections",
            "dead hand",
            ["A♥", "K♥", "Q♥", "J♥", "10♥", "Q-K♥", "8-9-10", "Pot", "Kitty"],
        ),
        # Newmarket's horses (the Guardian) and its kitty; Ann places her horse chips.
        ("newmarket", "row", "spare hand", ["A♥", "K♣", "Q♦", "J♠", "Kitty"]),
        # Pope Joan's round board (Parlett): the Pope, the pairs and honours of trumps,
        # the Game (its kitty), each pool under its own name.
        (
            "pope_joan",
            "round",
            "spare hand",
            [
                "9♦",
                "Q-K of trumps",
                "J-Q of trumps",
                "A of trumps",
                "K of trumps",
                "Q of trumps",
                "J of trumps",
                "Game",
            ],
        ),
        # Poch's pools of trumps round the centre (pagat.com), then the Poch and centre
        # pools under their own names; the rest of its deal is a talon.
        (
            "poch",
            "round",
            "talon",
            [
                "A of trumps",
                "K of trumps",
                "Q of trumps",
                "J of trumps",
                "10 of trumps",
                "K-Q of trumps",
                "7-8-9 of trumps",
                "Poch",
                "Centre",
            ],
        ),
        # Nain Jaune's four corners and the yellow dwarf (regledujeu.fr); a talon.
        ("nain_jaune", "corners", "talon", ["10♦", "J♣", "Q♠", "K♥", "7♦"]),
    ],
)
def test_a_round_from_the_lobby_draws_the_games_board(
    live_server: LiveServer, browser: Browser, game: str, shape: str, spare: str, labels: list[str]
) -> None:
    base = live_server.url
    shots = Shots()
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(INSTANT_PACE)
    context.add_init_script(NO_GUIDE)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sockets: list[list[Frame]] = []

        def socket(ws: WebSocket) -> None:
            frames: list[Frame] = []
            sockets.append(frames)
            ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

        page.on("websocket", socket)
        page.goto(base + "/")
        page.get_by_test_id("game").select_option(game)
        page.get_by_test_id("rounds").wait_for()
        page.get_by_test_id("create-name").fill("Ann")
        for seat in (1, 2, 3):
            page.get_by_test_id(f"seat-kind-{seat}").select_option("basic")
        # Three rounds: at Michigan every card but a lead is forced (and played for
        # her), so in one round Ann may never have a choice to make.
        page.get_by_test_id("rounds").fill("3")
        page.get_by_test_id("turn-timer").fill("0")
        page.get_by_test_id("public").check()  # its record may be read
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/table/*")
        table_id = page.url.rsplit("/", 1)[1]

        step, turns = 0, 0
        while True:
            page.wait_for_function(MY_TURN_OR_OVER, arg=step)
            view: Frame = page.evaluate(VIEW)
            drawn = page.evaluate(BOARD)
            assert page.get_by_test_id("board-family").get_attribute("data-shape") == shape
            # Every space of the view, drawn with its chips, and nothing else.
            assert {name: chips for name, chips, *_ in drawn} == view["board"]
            assert [label for _, _, label, _ in drawn] == labels
            # What a space pays (shown on hover, read by screen readers) names it as
            # its label does.
            assert all(title.startswith(f"{label}: ") for _, _, label, title in drawn), drawn
            assert page.get_by_test_id("space-rummoli").count() == 0
            if view["phase"] == "over":
                break
            if view["phase"] == "play" and shots.want(f"{game}-table"):
                shots.take(page, f"{game}-table")
            step = int(page.eval_on_selector("#table", "t => t.dataset.step"))
            turns += 1
            page.locator("[data-testid=actions] .buttons button").first.click()
            page.wait_for_function(MOVED_ON, arg=step)
        assert turns > 0 and not errors, errors
        # The log tells the deal in the game's words: its spare hand, never a widow;
        # the runs, never Rummoli's phase.
        log = page.get_by_test_id("log").inner_text()
        assert f"the {spare} gets" in log and "widow" not in log.lower()
        assert "Rummoli" not in log

        # The truth: the stored record, replayed by the engine.
        record = get_json(f"{base}/api/games/{table_id}/record")
        state = registry.describe(game).stored_game(
            record["rules"], record["setup"], record["seed"]
        )
        states = [state.clone()]
        for action in record["actions"]:
            state.apply(action)
            states.append(state.clone())
        assert state.is_terminal()
        checked = 0
        for frames in sockets:
            for frame in frames:
                if frame["type"] not in ("state", "update") or frame.get("view") is None:
                    continue
                shown = expanded(frame["view"])
                layout = shown.pop("layout")
                assert layout["shape"] == shape
                assert [s["name"] for s in layout["spaces"]] == list(shown["board"])
                truth = states[frame["step"]].view(0)
                assert shown == truth, f"step {frame['step']}: Ann's view differs"
                checked += 1
        assert checked > turns
    finally:
        context.close()
