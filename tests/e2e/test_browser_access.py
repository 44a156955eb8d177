"""The web table for everyone (issue 11): sound, the turn alert in a background tab,
reduced motion, the keyboard, screen readers, four-colour suits, contrast and the layout.

Each test opens a table of Ann (this page) and three computer players, one round, no
widow and a plain betting round, on a fixed deal: the server's secret seed is replaced
(the server runs in this process), so the same decisions come every time. With seed 4
and Ann taking the first choice, Ann calls, calls again, then leads the Rummoli phase
(7♦ or 7♥): two poker decisions and a Rummoli one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import rummoli.web.hub
from e2e.conftest import LiveServer
from e2e.pages import NO_GUIDE, PHONE, take_first_seat
from rummoli.web.room import Timing

SEED = 4
LAPTOP = {"width": 1366, "height": 768}
TITLE = "Rummoli table"
ALERT = "● Your turn — Rummoli"

#: A decision of Ann's, at a step after ``after``.
MY_DECISION = """(after) => {
  const t = document.querySelector('#table');
  return t.dataset.myTurn === 'true' && Number(t.dataset.step) > after
    && document.querySelector('#actions button, #actions input') !== null;
}"""

#: document.hidden and visibilityState as the test says (window.__hidden), so a
#: background tab can be played out in a headless browser.
HIDDEN_SWITCH = """
window.__hidden = false;
Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.__hidden });
Object.defineProperty(document, 'visibilityState', {
  configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible'),
});
window.__setHidden = (hidden) => {
  window.__hidden = hidden;
  document.dispatchEvent(new Event('visibilitychange'));
};
"""

#: The contrast check run in the page (its failures, and how many texts it checked).
CONTRAST = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table gets the same secret seed, so the same cards and the same decisions."""
    monkeypatch.setattr(rummoli.web.hub, "new_seed", lambda: SEED)


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[LiveServer]:
    """Computer players who take their time: a person's next turn comes well after her
    last choice, so what she does in between (typing in the chat) comes first."""
    server = LiveServer(tmp_path / "slow.db", Timing(bot_delay=0.7, round_pause=0.2))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(NO_GUIDE)  # the guided first round has its own test
    try:
        yield context
    finally:
        context.close()


def _sit(server: LiveServer, page: Page, pace: str = "instant", seats: int = 3) -> str:
    """A table for Ann (this page's browser holds her seat) and computer players; the
    round waits for her first decision, so nothing is missed before the page opens."""
    rules = {"rounds": 1, "widow": "none", "poker": "betting"}
    body = {"seats": ["human"] + ["basic"] * seats, "public": True, "name": "Ann", "rules": rules}
    return take_first_seat(page, server.url, body, pace)


def _open(server: LiveServer, page: Page, pace: str = "instant") -> int:
    """Ann's table, open at her first decision; returns its step."""
    table = _sit(server, page, pace)
    page.goto(f"{server.url}/table/{table}")
    return _decision(page, -1)


def _decision(page: Page, after: int) -> int:
    page.wait_for_function(MY_DECISION, arg=after)
    return int(page.get_attribute("#table", "data-step") or "0")


def _focused(page: Page) -> str | None:
    found: str | None = page.evaluate("() => document.activeElement?.dataset.testid ?? null")
    return found


def _played(page: Page) -> list[str]:
    found: list[str] = page.evaluate("() => [...window.rummoliSound.played]")
    return found


def test_sounds_wait_for_a_gesture_play_on_events_and_their_toggle_is_remembered(
    live_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    step = _open(live_server, page)
    # Ann's turn came before she touched the page: nothing may play yet.
    assert _played(page) == []
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "true"
    page.keyboard.press("c")  # a gesture, and her call
    step = _decision(page, step)
    assert "turn" in _played(page), _played(page)
    page.keyboard.press("c")
    page.wait_for_function("() => window.rummoliSound.played.includes('card')")
    page.wait_for_function("() => window.rummoliSound.played.includes('chip')")
    # Synthesised: no sound file was asked for, from this server or any other.
    assert all(u.startswith(live_server.url) for u in requests), requests
    assert not [u for u in requests if re.search(r"\.(mp3|ogg|wav|m4a|webm)\b", u)]

    # Off with one click, remembered at the next table; then nothing plays.
    page.get_by_test_id("sound-toggle").click()
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "false"
    _open(live_server, page)
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "false"
    page.keyboard.press("c")
    step = _decision(page, int(page.get_attribute("#table", "data-step") or "0"))
    page.keyboard.press("c")
    page.wait_for_selector('#table[data-phase="play"]', state="attached")
    page.wait_for_selector("#laid .laid-cell.on", state="attached")
    assert _played(page) == []


def test_a_turn_in_a_background_tab_changes_the_title_and_plays_the_turn_sound(
    live_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    context.add_init_script(HIDDEN_SWITCH)
    page = context.new_page()
    step = _open(live_server, page)
    assert page.title() == TITLE  # a visible tab keeps its title
    page.locator("#laid").click()  # Ann has touched the page (so sound may play)
    page.evaluate("() => window.__setHidden(true)")
    page.keyboard.press("c")  # she calls, and goes to another tab
    assert _played(page) == []
    step = _decision(page, step)
    assert page.title() == ALERT
    assert _played(page)[-1] == "turn"
    page.evaluate("() => window.__setHidden(false)")  # and comes back
    assert page.title() == TITLE


def test_every_decision_can_be_made_from_the_keyboard_without_taking_the_chat(
    slow_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    page = context.new_page()
    step = _open(slow_server, page)
    # The focus is on the decision at once, with a visible ring; Tab walks its controls.
    assert _focused(page) == "action-call"
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid"
    walked = [_focused(page)]
    for _ in range(3):
        page.keyboard.press("Tab")
        walked.append(_focused(page))
    assert walked == ["action-call", "action-fold", "raise-amount", "raise-submit"], walked
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert _focused(page) == "action-call"
    # The shortcuts are listed in the help.
    page.keyboard.press("?")
    help_text = page.get_by_test_id("keys-help").inner_text()
    assert "Check or call" in help_text and "Fold" in help_text, help_text
    page.keyboard.press("?")

    # Ann types in the chat; her next turn comes and leaves her typing alone, and a
    # letter typed there is chat, never a shortcut.
    page.keyboard.press("Enter")  # she calls with Enter on the focused button
    page.wait_for_selector('#table[data-my-turn="false"]', state="attached")
    chat = page.get_by_test_id("chat-input")
    chat.focus()
    page.keyboard.type("good luck c")
    assert page.get_attribute("#table", "data-my-turn") == "false"  # the turn comes later
    step = _decision(page, step)
    assert _focused(page) == "chat-input" and chat.input_value() == "good luck c"
    assert int(page.get_attribute("#table", "data-step") or "0") == step
    # Out of the chat, the shortcut works from anywhere on the page.
    page.locator("#laid").click()
    page.keyboard.press("c")
    step = _decision(page, step)
    assert page.get_attribute("#table", "data-phase") == "play"
    assert (_focused(page) or "").startswith("lay-"), _focused(page)
    # The Rummoli lead: L goes to the first card (a choice is not made for Ann), Tab to
    # the second, Space lays it.
    choice = page.locator("#actions [data-testid^=lay-]")
    assert choice.count() == 2
    first, second = (choice.nth(i).get_attribute("data-testid") or "" for i in (0, 1))
    page.locator("#laid").click()
    page.keyboard.press("l")
    assert _focused(page) == first
    assert page.get_attribute("#table", "data-my-turn") == "true"
    page.keyboard.press("Tab")
    assert _focused(page) == second
    page.keyboard.press("Space")
    card = second.removeprefix("lay-")
    page.wait_for_selector("#laid .laid-cell.on")
    _wait_logged(page, "lay", card, "Ann")


def _wait_logged(page: Page, kind: str, card: str, player: str | None = None) -> None:
    """Wait until the table's log has an event of ``kind`` with ``card`` (by ``player``,
    when one is named): the move a key made has reached the server and come back."""
    page.wait_for_function(
        "([kind, card, player]) => window.rummoliTable.state.log.some((e) => e.type === kind"
        " && e.card === card && (player === null || e.player === player))",
        arg=[kind, card, player],
    )


def test_a_rummy_turn_from_the_keyboard(
    live_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    """The same hooks serve Basic Rummy: a whole turn (draw, choose a card, discard) with
    Tab, Space and Enter only."""
    page = context.new_page()
    body = {"game": "rummy", "seats": ["human", "basic"], "public": True, "name": "Ann"}
    table = take_first_seat(page, live_server.url, body)
    page.goto(f"{live_server.url}/table/{table}")
    step = _decision(page, -1)
    assert page.get_attribute("#table", "data-phase") == "draw"
    assert _focused(page) == "action-stock"
    page.keyboard.press("Enter")  # draw from the stock
    step = _decision(page, step)
    hand = page.eval_on_selector_all("#hand .card", "l => l.map(c => c.dataset.card)")
    # Nothing is chosen yet, so the focus is on the first enabled control: a meld held,
    # or the hand's first card.
    first = _focused(page) or ""
    assert first.startswith(("meld-option-", "hand-card-")), first
    while not (_focused(page) or "").startswith("hand-card-"):
        page.keyboard.press("Tab")
    card = (_focused(page) or "").removeprefix("hand-card-")
    page.keyboard.press("Space")  # choose it
    assert page.get_by_test_id(f"hand-card-{card}").get_attribute("aria-pressed") == "true"
    label = page.get_by_test_id(f"hand-card-{card}").get_attribute("aria-label") or ""
    assert re.fullmatch(r"\w+ of (clubs|diamonds|hearts|spades)", label), label
    for _ in range(len(hand) + 12):
        if _focused(page) == "action-discard":
            break
        page.keyboard.press("Tab")
    assert _focused(page) == "action-discard"
    page.keyboard.press("Enter")
    _wait_logged(page, "discard", card)


def test_the_live_region_says_each_line_at_the_pace_of_the_cards_and_motion_can_be_reduced(
    live_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    step = _open(live_server, page, pace="fast")
    # One polite live region for the events; the log (redrawn at every update) is not one.
    regions = page.eval_on_selector_all(
        "[aria-live]", "l => l.map(e => [e.dataset.testid, e.getAttribute('aria-live')])"
    )
    assert regions == [["announcer", "polite"]], regions
    assert "Your turn" in page.get_by_test_id("announcer").inner_text()
    box = page.get_by_test_id("announcer").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    # Reduced motion: the turn's pill does not pulse.
    pill = page.get_by_test_id("turn")
    assert pill.evaluate("p => getComputedStyle(p).animationName") == "none"
    page.evaluate("""() => {
      window.__said = [];
      new MutationObserver((records) => window.__said.push(records.flatMap(
        (r) => [...r.addedNodes].map((n) => n.textContent)))).observe(
        document.querySelector('[data-testid=announcer]'), { childList: true });
    }""")
    page.keyboard.press("c")
    step = _decision(page, step)
    page.keyboard.press("c")
    lay = re.compile(r"^(You|Bot \d) (lays?|leads?) (10|[2-9JQKA])[♣♦♥♠]")
    deadline = time.monotonic() + 30
    while sum(1 for batch in page.evaluate("window.__said") for t in batch if lay.match(t)) < 6:
        assert time.monotonic() < deadline, page.evaluate("window.__said")
        page.wait_for_timeout(100)
    batches: list[list[str]] = page.evaluate("window.__said")
    # The pace still applies with reduced motion: one laid card said at a time...
    assert max(sum(1 for t in batch if lay.match(t)) for batch in batches) == 1, batches
    # ... the cards just appear, without the laid card's movement.
    last = page.locator("#laid .laid-cell.last")
    assert last.evaluate("c => getComputedStyle(c).animationName") == "none"
    # Every line said is a line of the log, in the same order.
    said = [t for batch in batches for t in batch if t != "Your turn"]
    log = page.locator("[data-testid=log] li").all_inner_texts()
    assert said and " | ".join(said) in " | ".join(log), (said, log[-len(said) :])
    # Cards have names for screen readers.
    labels = page.eval_on_selector_all(
        "#hand .card", "l => l.map(c => c.getAttribute('aria-label'))"
    )
    rank = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
    named = re.compile(rf"(Lay )?({rank}) of (clubs|diamonds|hearts|spades)")
    assert labels and all(named.fullmatch(x or "") for x in labels), labels


def test_the_laid_card_moves_when_motion_is_not_reduced(
    live_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    page = context.new_page()
    step = _open(live_server, page)
    assert page.get_by_test_id("turn").evaluate("p => getComputedStyle(p).animationName") == "pulse"
    page.keyboard.press("c")
    _decision(page, step)
    page.keyboard.press("c")
    last = page.locator("#laid .laid-cell.last")
    last.wait_for(state="attached")
    assert last.evaluate("c => getComputedStyle(c).animationName") == "lay-in"


def test_four_colour_suits_are_a_remembered_choice_and_every_text_meets_wcag_aa(
    live_server: LiveServer, context: BrowserContext, seeded: None
) -> None:
    page = context.new_page()
    _open(live_server, page)
    colour = "s => getComputedStyle(document.querySelector(s)).color"
    assert page.evaluate(colour, ".laid-row.suit-C") == "rgb(29, 36, 33)"  # black
    assert page.evaluate(colour, ".laid-row.suit-D") == "rgb(201, 42, 42)"  # red
    two = page.evaluate(CONTRAST)
    assert two["checked"] > 50, two
    assert not two["failures"], "\n".join(two["failures"])
    toggle = page.get_by_test_id("suits-toggle")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    _decision(page, -1)
    assert page.get_by_test_id("suits-toggle").get_attribute("aria-pressed") == "true"
    assert page.evaluate(colour, ".laid-row.suit-C") == "rgb(30, 123, 52)"  # green
    assert page.evaluate(colour, ".laid-row.suit-D") == "rgb(28, 95, 196)"  # blue
    assert page.evaluate(colour, ".laid-row.suit-H") == "rgb(201, 42, 42)"
    diamond = page.locator("#hand .card.suit-D").first  # Ann holds diamonds in this deal
    assert diamond.evaluate("c => getComputedStyle(c).color") == "rgb(28, 95, 196)"
    four = page.evaluate(CONTRAST)
    assert not four["failures"], "\n".join(four["failures"])
    # The lobby and the rules page too.
    for address, ready in (("/", "[data-testid=create-submit]"), ("/rules", "table.house-rules")):
        page.goto(live_server.url + address)
        page.wait_for_selector(ready)
        other = page.evaluate(CONTRAST)
        assert other["checked"] > 20, (address, other)
        assert not other["failures"], "\n".join([address, *other["failures"]])


def _controls_inside(page: Page, size: dict[str, int]) -> list[str]:
    """The decision's controls, each inside the first screen (the page not scrolled)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes: list[list[Any]] = page.eval_on_selector_all(
        "#actions button, #actions input, #hint button",
        "l => l.map(e => [e.dataset.testid || e.className, e.getBoundingClientRect().toJSON()])",
    )
    assert boxes
    outside = [
        f"{name} {box}"
        for name, box in boxes
        if box["top"] < 0
        or box["left"] < 0
        or box["bottom"] > size["height"]
        or box["right"] > size["width"]
    ]
    assert not outside, (size, outside)
    return [name for name, _ in boxes]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_a_decisions_controls_fit_the_first_screen_and_the_standings_come_first(
    live_server: LiveServer, browser: Browser, seeded: None, size: dict[str, int]
) -> None:
    context = browser.new_context(viewport=size, is_mobile=size is PHONE, has_touch=size is PHONE)
    context.add_init_script(NO_GUIDE)
    try:
        page = context.new_page()
        step = _open(live_server, page)
        first = _controls_inside(page, size)
        wanted = {"action-call", "action-fold", "raise-amount", "raise-submit", "raise-max"}
        assert wanted <= set(first), first
        page.get_by_test_id("action-call").click()
        step = _decision(page, step)
        page.get_by_test_id("action-call").click()
        step = _decision(page, step)
        assert page.get_attribute("#table", "data-phase") == "play"
        lead = _controls_inside(page, size)
        assert len([n for n in lead if n.startswith("lay-")]) == 2, lead
        while True:  # Ann takes the first choice until the game is over
            page.locator("#actions button").first.click()
            page.wait_for_function(
                f"(after) => document.querySelector('#table').dataset.phase"
                f" === 'over' || ({MY_DECISION})(after)",
                arg=step,
            )
            if page.get_attribute("#table", "data-phase") == "over":
                break
            step = int(page.get_attribute("#table", "data-step") or "0")
        standings = page.get_by_test_id("final").bounding_box()
        assert standings is not None
        for other in ("#me", "#board", "#laid"):
            box = page.locator(other).bounding_box()
            assert box is not None and standings["y"] < box["y"], (other, standings, box)
    finally:
        context.close()
