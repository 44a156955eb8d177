"""Why a lead is what it is, what a space pays, and why the showdown's winner won (issue
11). At a Rummoli-phase lead with a choice of cards, the prompt says why these cards: the
first lead of the phase is the lowest card; after a stop the lead switches to the other
colour than the card the run stopped at, and every card offered is of that colour. Each pay
space says what it pays; each hand shown is named, and the winner's line says why."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page

import rummoli.web.hub
from e2e.conftest import LiveServer
from e2e.pages import desktop_page, take_first_seat

#: The cards offered to lead, when Ann has a choice (else an empty list).
LEADS = """() => {
  const table = document.querySelector('#table');
  if (table.dataset.myTurn !== 'true' || table.dataset.playing === 'true') return [];
  return [...document.querySelectorAll('#actions [data-testid^=lay-]')]
    .map((b) => b.dataset.testid.slice(4));
}"""
#: The showdown panel, when shown: its lines, the hands named, and why the winner won.
SHOWDOWN = """() => {
  const box = document.querySelector('#showdown');
  if (!box || box.hidden || !box.querySelector('.shown-line')) return null;
  return {
    lines: box.querySelectorAll('.shown-line').length,
    named: box.querySelectorAll('.shown-line .hand-name').length,
    why: box.querySelector('[data-testid=why-won]')?.textContent ?? '',
  };
}"""
SWITCH = re.compile(r"The run stopped at (\S+): the lead switches to (red|black)")


def _red(card: str) -> bool:
    return card[-1] in "DH"


def _play_round(page: Page, url: str) -> dict[str, list[str]]:
    """Ann takes the first choice of every decision; the prompts of her leads with a
    choice, by kind ("first", "switch"), each with the cards offered."""
    rules = {"rounds": 1, "widow": "none", "poker": "showdown"}
    body = {"seats": ["human", "basic", "basic"], "name": "Ann", "public": True, "rules": rules}
    table = take_first_seat(page, url, body, "instant")
    page.goto(f"{url}/table/{table}")
    # Each pay space says what it pays and when.
    page.get_by_test_id("space-AKD").wait_for()
    assert "ten of spades" in (page.get_by_test_id("space-10S").get_attribute("title") or "")
    akd = page.get_by_test_id("space-AKD").get_attribute("title") or ""
    assert "King and ace of diamonds" in akd and "one after the other" in akd
    seen: dict[str, list[str]] = {}
    deadline = time.monotonic() + 60
    while page.get_by_test_id("table").get_attribute("data-phase") != "over":
        assert time.monotonic() < deadline, "the round did not end in time"
        showdown = page.evaluate(SHOWDOWN)
        if showdown is not None:
            # Every hand shown is named, and the winner's line says why he won.
            assert showdown["lines"] and showdown["named"] == showdown["lines"], showdown
            assert re.search(
                r"wins? the poker pot: .+ (beats|with higher cards)|tie with", showdown["why"]
            ), showdown
            seen.setdefault("showdown", []).append(showdown["why"])
        leads = page.evaluate(LEADS)
        if len(leads) > 1:
            prompt = page.get_by_test_id("prompt").inner_text()
            switch = SWITCH.search(prompt)
            if switch:
                stopped, colour = switch.groups()
                # The other colour than the stop card's, and only cards of it offered.
                assert (colour == "red") != _red(stopped.replace("10", "T")), prompt
                assert all(_red(card) == (colour == "red") for card in leads), (prompt, leads)
                seen.setdefault("switch", []).append(prompt)
            elif "You lead first" in prompt:
                seen.setdefault("first", []).append(prompt)
            else:
                raise AssertionError(f"a lead with no reason: {prompt!r} {leads}")
        button = page.locator('[data-testid="actions"] button').first
        if button.count() and button.is_visible():
            button.click()
        page.wait_for_timeout(40)
    return seen


def test_a_lead_says_why_its_cards(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    kinds: set[str] = set()
    with desktop_page(browser) as page:
        for seed in range(1, 13):
            monkeypatch.setattr(rummoli.web.hub, "new_seed", lambda seed=seed: seed)
            kinds |= set(_play_round(page, live_server.url))
            if kinds == {"first", "switch", "showdown"}:
                return
    raise AssertionError(f"twelve deals gave Ann only these leads with a choice: {kinds}")
