"""The table by key position on any keyboard, for screen readers, and in a new language
without a reload (issue 20).

- A whole round is played with shortcuts alone on a Russian and on a French keyboard:
  the keys are sent as Chromium gets them from such a keyboard (the key's position, and
  the letter that layout prints: "с" on the Russian key of C; on a French one the key
  of A is where Q is on an English one), through the DevTools protocol.
- The accessibility tree: every player is a group named with units ("Bot 2, dealer,
  Casual, 91 chips, 10 cards"), every card of the hand is named whether it can be laid
  or not, and the replay has a live region that says each step.
- The language is changed in the middle of a run: the page is not reloaded, its words
  change, and the run goes on card by card to its end.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import rummoli.web.hub
from e2e.conftest import LiveServer
from e2e.pages import NO_GUIDE, game_over, play_first_choices, run_shown, take_first_seat

LAPTOP = {"width": 1366, "height": 768}

#: What each layout's keys type: (the key's position, the character it types, the
#: Windows virtual key code Chromium reports for that position).
RUSSIAN = {
    "KeyC": ("с", 67), "KeyP": ("з", 80), "KeyL": ("д", 76), "KeyK": ("л", 75), "KeyQ": ("й", 81),
}  # fmt: skip
#: (AZERTY: the key where an English keyboard has Q types "a", and A's types "q".)
FRENCH = {
    "KeyC": ("c", 67), "KeyP": ("p", 80), "KeyL": ("l", 76), "KeyK": ("k", 75), "KeyQ": ("a", 81),
}  # fmt: skip


@contextlib.contextmanager
def _laptop_page(browser: Browser, monkeypatch: pytest.MonkeyPatch, seed: int) -> Iterator[Page]:
    """A page at a laptop's size, without the guide, at tables dealt from ``seed``."""
    monkeypatch.setattr(rummoli.web.hub, "new_seed", lambda: seed)
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(NO_GUIDE)
    try:
        yield context.new_page()
    finally:
        context.close()


def _sit(
    server: LiveServer, page: Page, rules: dict[str, Any], pace: str = "instant", bots: int = 2
) -> str:
    seats = ["human"] + ["basic"] * bots
    body = {"seats": seats, "public": True, "name": "Ann", "rules": rules}
    table = take_first_seat(page, server.url, body, pace)
    page.goto(f"{server.url}/table/{table}")
    return table


def _press(page: Page, cdp: Any, code: str, layout: dict[str, tuple[str, int]]) -> None:
    """A key pressed on a keyboard of ``layout``, as the browser gets it from the OS."""
    text, vk = layout[code]
    for kind in ("keyDown", "keyUp"):
        event = {"type": kind, "code": code, "key": text, "windowsVirtualKeyCode": vk}
        if kind == "keyDown":
            event["text"] = text
        cdp.send("Input.dispatchKeyEvent", event)


@pytest.mark.parametrize("layout", [RUSSIAN, FRENCH], ids=["russian", "french"])
def test_a_whole_round_by_shortcuts_on_a_russian_or_french_keyboard(
    browser: Browser,
    live_server: LiveServer,
    layout: dict[str, tuple[str, int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with _laptop_page(browser, monkeypatch, seed=4) as page:
        cdp = page.context.new_cdp_session(page)
        # (Seed 4 with three computers: Ann bets twice, then leads: see test_browser_access.)
        _sit(live_server, page, {"rounds": 1, "widow": "none"}, bots=3)
        table = page.get_by_test_id("table")
        used: set[str] = set()
        deadline = time.monotonic() + 120
        while table.get_attribute("data-phase") != "over":
            assert time.monotonic() < deadline, "the round did not end by shortcuts"
            if (
                table.get_attribute("data-my-turn") != "true"
                or table.get_attribute("data-playing") == "true"
            ):
                page.wait_for_timeout(50)
                continue
            step = table.get_attribute("data-step")
            ids = page.eval_on_selector_all(
                "#actions [data-testid]", "l => l.map((n) => n.dataset.testid)"
            )
            # Keep, check or call, pass, lay: each by its key (a lay with a choice goes
            # to the first card: Enter lays it).
            if "raise-max" in ids and "KeyQ" not in used:
                # The key of Q (a French keyboard types "a" there) is no shortcut: the
                # all-in of A is by its position, so nothing happens.
                page.locator("body").click(position={"x": 5, "y": 5})
                _press(page, cdp, "KeyQ", layout)
                page.wait_for_timeout(300)
                assert table.get_attribute("data-step") == step
                used.add("KeyQ")
            if "action-keep" in ids:
                code = "KeyK"
            elif "action-check" in ids or "action-call" in ids:
                code = "KeyC"
            elif "action-pass" in ids:
                code = "KeyP"
            else:
                code = "KeyL"
            page.locator("body").click(position={"x": 5, "y": 5})  # nothing focused
            _press(page, cdp, code, layout)
            if code == "KeyL" and table.get_attribute("data-step") == step:
                page.keyboard.press("Enter")
            used.add(code)
            page.wait_for_function(
                "(s) => { const t = document.querySelector('#table');"
                " return t.dataset.step !== s || t.dataset.phase === 'over'; }",
                arg=step,
            )
        # (Keep and pass: when the deal gives them.)
        assert {"KeyQ", "KeyC", "KeyL"} <= used, used
        # The list of keys shows the letters this keyboard prints (Chromium's layout map
        # is the machine's, here English: the same positions).
        page.keyboard.press("?")
        shown = page.locator("[data-testid=keys-help] kbd").all_inner_texts()
        assert "C" in shown and "L" in shown
        assert page.locator("[data-testid=keys-help] dl").is_visible()


def test_players_and_cards_have_names_with_units_and_the_replay_speaks(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _laptop_page(browser, monkeypatch, seed=4) as page:
        table_id = _sit(live_server, page, {"rounds": 1, "widow": "none"})
        page.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'true'")
        tree = page.locator("#players").aria_snapshot()
        groups = re.findall(r'- group "([^"]+)"', tree)
        assert len(groups) == 3, tree
        view = page.evaluate("() => window.rummoliTable.state.view")
        for group, player in zip(groups, view["players"], strict=True):
            assert group.startswith(player["name"]), group
            assert f"{player['chips']} chips" in group and f"{player['cards']} cards" in group
        assert "dealer" in " ".join(groups) and "Casual" in " ".join(groups)
        assert ", you," in groups[0]
        # Every card of the hand is named, a button to lay it or an image of it.
        hand = page.locator("#hand").aria_snapshot()
        names = re.findall(r'- (?:img|button) "([^"]+)"', hand)
        assert len(names) == len(view["hand"]), hand
        rank = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
        assert all(
            re.fullmatch(rf"(Lay )?({rank}) of (clubs|diamonds|hearts|spades)", n) for n in names
        )
        # Play on to the end, then the replay: a live region says each step's lines.
        page.evaluate("localStorage.setItem('rummoli.pace', 'instant')")
        play_first_choices(page, lambda: game_over(page), 120, "the game did not end", 50)
        page.goto(f"{live_server.url}/replay/{table_id}?seat=0")
        page.wait_for_function("() => Number(document.querySelector('#slider').max) > 5")
        page.get_by_test_id("replay-next").click()
        page.get_by_test_id("replay-next").click()
        region = page.get_by_test_id("announcer")
        assert region.get_attribute("aria-live") == "polite"
        said = region.inner_text()
        log = page.locator("[data-testid=log] li.new").all_inner_texts()
        assert log and all(line in said for line in log), (said, log)


def test_the_language_changes_mid_run_without_a_reload(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _laptop_page(browser, monkeypatch, seed=4) as page:
        _sit(live_server, page, {"rounds": 1, "widow": "none"}, pace="slow")
        play_first_choices(page, lambda: run_shown(page, 2), 120, "no run was shown")
        page.evaluate("window.__same_page = true")
        before = page.locator("#laid .laid-cell.on").count()
        page.get_by_test_id("language").select_option("fr")
        page.wait_for_function("() => document.documentElement.lang === 'fr'")
        # The same page (no reload), its words in French, the run going on from its card.
        assert page.evaluate("window.__same_page") is True
        assert page.get_by_test_id("nav-history").inner_text() == "Historique"
        assert page.get_by_test_id("phase").inner_text() == "Rummoli"
        assert page.locator("#laid .laid-head span").first.inner_text() != "Laid this round"
        assert page.locator("#laid .laid-cell.on").count() >= before
        page.wait_for_function(
            "(n) => document.querySelectorAll('#laid .laid-cell.on').length > n", arg=before + 1
        )
        assert page.evaluate("window.__same_page") is True
        log = " ".join(page.locator("[data-testid=log] li").all_inner_texts()[-5:])
        assert re.search(r"\b(pose|entame|Arrêt)\b", log), log


def test_a_rummy_hint_outlines_the_cards_its_move_is_made_with(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _laptop_page(browser, monkeypatch, seed=3) as page:
        body = {"game": "rummy", "seats": ["human", "basic"], "public": True, "name": "Ann"}
        table_id = take_first_seat(page, live_server.url, body)
        page.goto(f"{live_server.url}/table/{table_id}")
        table = page.get_by_test_id("table")
        seen: set[str] = set()
        deadline = time.monotonic() + 90
        # At each of Ann's turns: the hint, what it outlines, then its move (the stock
        # or the pile; after the draw, the hinted cards' move by the page's own buttons).
        while "hand-card" not in seen and time.monotonic() < deadline:
            page.wait_for_function(
                "() => document.querySelector('#table').dataset.myTurn === 'true'"
            )
            step = table.get_attribute("data-step")
            page.get_by_test_id("hint-button").click()
            text = page.get_by_test_id("hint-text")
            text.wait_for()
            outlined = page.eval_on_selector_all(".hinted", "l => l.map((n) => n.dataset.testid)")
            assert outlined, text.inner_text()
            action = int(text.get_attribute("data-action") or "-1")
            kind = page.evaluate(
                "(a) => window.rummoliTable.state.view.legal_actions"
                ".find((x) => x.action === a).text.split(' ')[0]",
                action,
            )
            if kind in ("meld", "layoff") or (
                kind == "discard" and len(outlined) == 1 and outlined[0] != "action-take"
            ):
                # A move made by choosing cards: the cards are outlined, not a button.
                assert all(o.startswith(("hand-card-", "meld-")) for o in outlined), outlined
                seen.add("hand-card")
                break
            page.locator(f'[data-testid="{outlined[0]}"]').click()
            page.wait_for_function(
                "(s) => document.querySelector('#table').dataset.step !== s", arg=step
            )
        assert "hand-card" in seen, "no hint to discard, meld or lay off came"
