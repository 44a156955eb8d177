"""The Rummoli phase as a family follows it: a run of forced cards appears one card at a
time at the default pace and all at once at "instant" (remembered by the browser), each
stop says why, and the replay of the finished game steps through every laid card."""

from __future__ import annotations

import itertools
import time

from playwright.sync_api import Browser, Page

from e2e.conftest import LiveServer
from e2e.pages import DESKTOP, TIMEOUT_MS, get_json, post_json

#: The number of laid cards shown, recorded at every change of the page (a mutation
#: observer runs after each task that changed the page, however slow the machine).
SAMPLER = """() => {
  window.__laid = [];
  const count = () => document.querySelectorAll('[data-testid="laid"] .laid-cell.on').length;
  new MutationObserver(() => window.__laid.push(count())).observe(document.body, {
    childList: true, subtree: true,
  });
}"""


#: The same, as a script that runs when a page starts, before the page's own scripts (a
#: table whose round needs nobody to decide can be over before a later evaluate runs).
#: It observes the document itself: the element it starts with is replaced by the page's.
SAMPLER_FROM_START = """
window.__laid = [];
new MutationObserver(() => window.__laid.push(
  document.querySelectorAll('[data-testid="laid"] .laid-cell.on').length,
)).observe(document, {childList: true, subtree: true});
"""


#: Click "Skip" if a run is being laid; then whether the page still plays a run.
SKIP = """() => {
  const skip = document.querySelector('[data-testid="skip"]');
  if (skip.hidden) return null;
  skip.click();
  return {playing: document.querySelector('#table').dataset.playing, skip_hidden: skip.hidden};
}"""


def _table(live_server: LiveServer, page: Page) -> str:
    """A public table: Ann (this page) and three computer players, no widow and a plain
    betting round, so the round waits for Ann's first bet (the page is open by then)."""
    created = post_json(
        live_server.url + "/api/tables",
        {
            "seats": ["human", "basic", "basic", "basic"],
            "public": True,
            "name": "Ann",
            "rules": {"rounds": 1, "widow": "none", "poker": "betting"},
        },
    )
    page.goto(live_server.url + "/")
    page.evaluate(
        "([id, seat]) => localStorage.setItem(`rummoli.seat.${id}`, JSON.stringify(seat))",
        [created["id"], created["seat"]],
    )
    return str(created["id"])


def _play_along(page: Page, seconds: float, until: str = "over") -> None:
    """Ann takes the first choice offered whenever it is her turn, until the phase."""
    deadline = time.monotonic() + seconds
    while page.get_by_test_id("table").get_attribute("data-phase") != until:
        assert time.monotonic() < deadline, "the game did not get there in time"
        button = page.locator('[data-testid="actions"] button').first
        if button.count() and button.is_visible():
            button.click()
        page.wait_for_timeout(60)


def _increments(samples: list[int]) -> list[int]:
    return [b - a for a, b in itertools.pairwise(samples) if b > a]


def test_a_run_is_shown_card_by_card_then_at_once_and_the_replay_steps_each_card(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        table = _table(live_server, page)
        page.goto(f"{live_server.url}/table/{table}")
        page.evaluate(SAMPLER)
        assert page.get_by_test_id("pace").input_value() == "normal"
        # At the default pace, the first laid cards come one at a time.
        deadline = time.monotonic() + 60
        while sum(_increments(page.evaluate("window.__laid"))) < 10:
            assert time.monotonic() < deadline, (
                "no run was laid",
                page.get_by_test_id("status").inner_text(),
                page.evaluate("window.__laid.slice(-3)"),
            )
            button = page.locator('[data-testid="actions"] button').first
            if button.count() and button.is_visible():
                button.click()
            page.wait_for_timeout(100)
        steps = _increments(page.evaluate("window.__laid"))
        assert steps and max(steps) == 1, steps
        # A stop says why the run ended.
        page.locator('[data-testid="log"] li.stop').first.wait_for()
        stop = page.locator('[data-testid="log"] li.stop').first.inner_text()
        reasons = ("an ace ends its suit", "was laid before", "is in the widow")
        assert stop.startswith("Stop at") and any(why in stop for why in reasons), stop

        # "Skip" (shown only while a run is being laid) shows the rest of it at once: a
        # click in the page's own task, so the run cannot end between a look and a click.
        skipped = None
        deadline = time.monotonic() + 60
        while skipped is None:
            assert time.monotonic() < deadline, "no run was being laid to skip"
            skipped = page.evaluate(SKIP)
            button = page.locator('[data-testid="actions"] button').first
            if skipped is None and button.count() and button.is_visible():
                button.click()
            page.wait_for_timeout(50)
        assert skipped == {"playing": "false", "skip_hidden": True}, skipped

        _play_along(page, 90)  # the rest of the game, at the default pace

        # "Instant", chosen once, is remembered: at the next table a run arrives at once
        # (counted from the page's start: if the computers fold before Ann's bet, nothing
        # waits for her, and the round can be over before the page is first looked at).
        page.get_by_test_id("pace").select_option("instant")
        second = _table(live_server, page)
        page.add_init_script(script=SAMPLER_FROM_START)
        page.goto(f"{live_server.url}/table/{second}")
        assert page.get_by_test_id("pace").input_value() == "instant"
        _play_along(page, 60)
        laid = page.evaluate("window.__laid")
        jumps = _increments(laid)
        assert jumps and max(jumps) > 1, (len(laid), laid[-20:])
        record = get_json(f"{live_server.url}/api/games/{table}/record")
        assert record["actions"]
    finally:
        context.close()

    # The replay: a step for every laid card of the round.
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{live_server.url}/replay/{table}?seat=0")
        page.wait_for_function(
            "() => /of [1-9]/.test(document.querySelector('#counter').textContent)"
        )
        total = int(page.locator("#counter").inner_text().rsplit(" ", 1)[1])
        seen = []
        for step in range(total + 1):
            page.locator("#slider").evaluate(
                "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", step
            )
            seen.append(page.locator("#laid .laid-cell.on").count())
        jumps = _increments(seen)
        assert jumps and max(jumps) == 1, jumps  # never two laid cards in one step
        assert max(seen) >= 10
    finally:
        context.close()
