"""What both browser tests share: window sizes, time limits, screenshots, JSON over HTTP."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

#: The seats the people sit in; the other two are computer players.
HUMANS = ("0", "1")
TIMEOUT_MS = 30_000
#: A whole game takes well under this here; past it something is stuck.
GAME_SECONDS = 150
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: The README's screenshots: a common laptop, and a phone.
SHOT_SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": PHONE}


#: Whole-game tests watch runs at once ("instant"): the card-by-card pace has its own
#: test (test_browser_runs.py), and at the default pace a page follows the server seconds
#: behind, which a test of the whole game need not wait for.
INSTANT_PACE = (
    "localStorage.getItem('rummoli.pace') || localStorage.setItem('rummoli.pace', 'instant')"
)

#: Tests of other things (and their screenshots) do without the first-round guide, which
#: a newcomer's browser shows (test_browser_learn.py tests it).
NO_GUIDE = "localStorage.setItem('rummoli.tour', JSON.stringify({seen: [], off: true}))"


def get_json(url: str) -> Any:
    """GET ``url`` (the loopback test server) and parse the JSON answer."""
    with urllib.request.urlopen(url, timeout=10) as response:  # loopback only
        return json.load(response)


def post_json(url: str, body: dict[str, Any]) -> Any:
    """POST ``body`` as JSON to ``url`` (the loopback test server); the JSON answer."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # loopback only
        return json.load(response)


class Shots:
    """Screenshots for the docs, only when ``RUMMOLI_SCREENSHOTS`` names a directory."""

    def __init__(self) -> None:
        where = os.environ.get("RUMMOLI_SCREENSHOTS")
        self.dir = Path(where) if where else None
        self.taken: set[str] = set()

    def want(self, name: str) -> bool:
        return self.dir is not None and name not in self.taken

    def take(self, page: Page, name: str) -> None:
        if self.dir is None:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(self.dir / f"{name}.png"), animations="disabled")
        self.taken.add(name)

    def take_sizes(self, page: Page, name: str, focus: str | None = None) -> None:
        """``name-desktop.png`` and ``name-phone.png`` (:data:`SHOT_SIZES`), with
        ``focus`` scrolled to the middle; the page's own size is put back after."""
        if not self.want(name):
            return
        before = page.viewport_size
        for size, viewport in SHOT_SIZES.items():
            page.set_viewport_size(viewport)
            if focus is not None:
                page.locator(focus).first.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(150)
            self.take(page, f"{name}-{size}")
        if before is not None:
            page.set_viewport_size(before)
        self.taken.add(name)


def two_people_and_a_watcher(browser: Browser) -> list[BrowserContext]:
    """The whole-game tests' three browsers: a laptop, a phone (touch) and a laptop,
    each watching runs at once and with the guided round turned off."""
    contexts = [
        browser.new_context(viewport=DESKTOP),
        browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
        browser.new_context(viewport=DESKTOP),
    ]
    for context in contexts:
        context.add_init_script(INSTANT_PACE)
        context.add_init_script(NO_GUIDE)
    return contexts
