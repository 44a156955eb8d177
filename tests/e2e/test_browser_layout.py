"""Every page laid out for every screen, in every language (issue 20).

On each page (the lobby with every house-rule group open, for both games; the table at
a decision and during a run; the rules; the history; a player's page; the replay), in
English, French and Russian, at 1366x768, 1280x720, 390x844 and 360x640:

- nothing is wider than the window (no horizontal scrolling);
- no two of the lobby's house-rule groups or controls overlap, nor the chat's controls;
- during a run, the story's newest line and the last laid card are on the first screen
  (as the page opens, unscrolled), so a family follows the run on any device;
- at a decision, its first control is on the first screen (but on the smallest phone,
  which scrolls to it: the focus goes there when the turn begins).

Screenshots of the table during a run, in each language, go to ``docs/img/`` when
``RUMMOLI_SCREENSHOTS`` names the folder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import rummoli.web.hub
from e2e.conftest import LiveServer
from e2e.pages import NO_GUIDE, TIMEOUT_MS, Shots, game_over, play_first_choices, take_first_seat

VIEWPORTS = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
}
LANGUAGES = ("en", "fr", "ru")
#: The sizes at which a decision's controls are on the first screen (a 360x640 phone
#: scrolls to them: the focus goes there when the turn begins).
DECISION_SIZES = ("1366x768", "1280x720", "390x844")
SHOTS = Shots()

#: What overflows the window, and which of the given groups of boxes overlap.
MEASURE = (Path(__file__).parent / "layout.js").read_text(encoding="utf-8")

#: Whether an element is on the first screen: inside the window with the page unscrolled.
ON_FIRST_SCREEN = """(selector) => {
  const e = document.querySelector(selector);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  const top = r.top + scrollY;
  return top >= 0 && top + r.height <= innerHeight && r.left >= 0 && r.right <= innerWidth;
}"""

LOBBY_GROUPS = [
    "details.rules .rule-group",
    "details.rules input, details.rules select, details.rules button",
    "#create-form .field input, #create-form .field select, #create-form select",
]
CHAT_GROUPS = ["#chat-panel input, #chat-panel button, #chat-panel select, #chat-panel textarea"]


def _check(page: Page, where: str, groups: list[str]) -> None:
    found: dict[str, Any] = page.evaluate(MEASURE, groups)
    assert not found["wide"], (where, "wider than the window", found["width"], found["window"])
    assert not found["overlaps"], (where, found["overlaps"])


def _each_size(page: Page, where: str, groups: list[str]) -> None:
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(60)
        _check(page, f"{where} {size}", groups)


def _context(browser: Browser, lang: str) -> Any:
    context = browser.new_context(viewport=VIEWPORTS["1366x768"], locale=lang)
    context.add_init_script(NO_GUIDE)
    context.add_init_script(f"localStorage.setItem('rummoli.lang', '{lang}')")
    return context


def _finished_game(live_server: LiveServer, page: Page) -> str:
    """A short game of Ann's played to its end at once: for the history, the players'
    page and the replay."""
    body = {"seats": ["human", "basic"], "name": "Ann", "public": True, "rules": {"rounds": 1}}
    table = take_first_seat(page, live_server.url, body, "instant")
    page.goto(f"{live_server.url}/table/{table}")
    _play_until(page, lambda: game_over(page))
    page.evaluate("localStorage.removeItem('rummoli.pace')")
    return table


def _play_until(page: Page, done: Callable[[], bool], seconds: float = 120) -> None:
    play_first_choices(page, done, seconds, "the table did not get there in time", 50)


def _table_checks(live_server: LiveServer, page: Page, lang: str) -> None:
    """A table of Ann's and three computers at the slowest pace: every size checked at
    one of her decisions, and (resized while a run is shown) during runs."""
    seats = ["human", "basic", "basic", "basic"]
    body = {"seats": seats, "name": "Ann", "public": True, "rules": {"rounds": 2, "widow": "none"}}
    table_id = take_first_seat(page, live_server.url, body, "slow")
    page.goto(f"{live_server.url}/table/{table_id}")
    table = page.get_by_test_id("table")
    page.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'true'")
    # A chat line reads as one line: the text right after the name (it was spread in
    # columns over the width).
    page.get_by_test_id("chat-input").fill("hello")
    page.get_by_test_id("chat-send").click()
    page.locator(".chat-line .chat-text").first.wait_for()
    gap = page.evaluate(
        "() => { const l = document.querySelector('.chat-line');"
        " return l.querySelector('.chat-text').getBoundingClientRect().left"
        " - l.querySelector('.chat-name').getBoundingClientRect().right; }"
    )
    assert 0 <= gap < 20, gap
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(60)
        _check(page, f"table at a decision, {lang} {size}", CHAT_GROUPS)
        if size in DECISION_SIZES:
            first = page.evaluate(ON_FIRST_SCREEN, "#actions button, #actions input")
            assert first, (lang, size, "the decision is not on the first screen")
    # During runs: each size while a card of a run is shown (a run may end first: the
    # sizes left are checked at the next).
    left = list(VIEWPORTS)
    deadline = time.monotonic() + 240
    while left:
        assert time.monotonic() < deadline, ("no run long enough", lang, left)
        if (
            table.get_attribute("data-playing") == "true"
            and page.locator("[data-testid=story] li.new").count()
        ):
            size = left[0]
            page.set_viewport_size(VIEWPORTS[size])
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(60)
            if (
                table.get_attribute("data-playing") != "true"
                or not page.locator("#laid .laid-cell.last").count()
            ):
                continue
            _check(page, f"table during a run, {lang} {size}", CHAT_GROUPS)
            for what in ("[data-testid=story] li.new", "#laid .laid-cell.last"):
                shown = page.evaluate(ON_FIRST_SCREEN, what)
                if not shown:
                    page.screenshot(path=f"/tmp/run-{lang}-{size}.png")
                assert shown, (lang, size, what, "not on the first screen")
            if size in ("1366x768", "390x844") and SHOTS.want(f"run-story-{lang}-{size}"):
                SHOTS.take(page, f"run-story-{lang}-{size.split('x')[0]}")
            left.pop(0)
            continue
        button = page.locator('[data-testid="actions"] button').first
        if button.count() and button.is_visible():
            button.click()
        page.wait_for_timeout(80)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_fits_every_screen(
    browser: Browser, live_server: LiveServer, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rummoli.web.hub, "new_seed", lambda: 7)
    context = _context(browser, lang)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        game = _finished_game(live_server, page)
        # The lobby, every house-rule group open, for each game.
        page.goto(live_server.url + "/")
        page.get_by_test_id("create-form").wait_for()
        for name in ("rummoli", "rummy"):
            page.get_by_test_id("game").select_option(name)
            page.locator("details.rules").evaluate("d => { d.open = true; }")
            _each_size(page, f"lobby ({name}), {lang}", LOBBY_GROUPS)
        for path in ("/rules", "/history", "/player?name=Ann", f"/replay/{game}?seat=0"):
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            _each_size(page, f"{path}, {lang}", [])
        _table_checks(live_server, page, lang)
    finally:
        context.close()
