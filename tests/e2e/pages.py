"""What the browser tests share: window sizes, time limits, screenshots, JSON over HTTP,
a table's first seat for a page, and the whole-game tests' pages and their course."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket

Frame = dict[str, Any]

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


#: Run in a page of the site: its browser holds ``seat`` of table ``id`` (as the lobby
#: keeps it after creating a table), and watches runs at ``pace`` (none: the default).
TAKE_SEAT = """([id, seat, pace]) => {
  localStorage.setItem(`rummoli.seat.${id}`, JSON.stringify(seat));
  if (pace) localStorage.setItem('rummoli.pace', pace);
}"""


def take_first_seat(page: Page, base: str, body: dict[str, Any], pace: str | None = None) -> str:
    """A table made through the API (``body``, as the lobby sends it), whose creator's seat
    this page's browser then holds: the tests that need one person at a table, without the
    lobby's clicks. The table's id; the page is left on the rules page."""
    created = post_json(base + "/api/tables", body)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(base + "/rules")
    page.evaluate(TAKE_SEAT, [created["id"], created["seat"], pace])
    return str(created["id"])


def play_first_choices(
    page: Page, done: Callable[[], bool], seconds: float, failure: str, pause_ms: int = 40
) -> None:
    """This page's person takes the first choice whenever it offers one, until ``done()``;
    fails with ``failure`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, failure
        button = page.locator('[data-testid="actions"] button').first
        if button.count() and button.is_visible():
            button.click()
        page.wait_for_timeout(pause_ms)


def game_over(page: Page) -> bool:
    return page.get_by_test_id("table").get_attribute("data-phase") == "over"


def run_shown(page: Page, cards: int) -> bool:
    """A run is being shown card by card, at least ``cards`` cards of the round laid."""
    playing = page.get_by_test_id("table").get_attribute("data-playing") == "true"
    return playing and page.locator("#laid .laid-cell.on").count() >= cards


@contextmanager
def desktop_page(browser: Browser) -> Iterator[Page]:
    """A laptop's page without the guided round, closed after the block."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NO_GUIDE)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        yield page
    finally:
        context.close()


def fill_lobby(page: Page, fields: dict[str, str | bool]) -> None:
    """Fill the lobby's form, in order: each test id gets its value (a list its option, a
    box its text, a check box ticked or not)."""
    for testid, value in fields.items():
        field = page.get_by_test_id(testid)
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def create_in_lobby(page: Page, fields: dict[str, str | bool]) -> str:
    """Fill the lobby's form (:func:`fill_lobby`) and create the table; its id, once its
    page is open."""
    fill_lobby(page, fields)
    page.get_by_test_id("create-submit").click()
    page.wait_for_url("**/table/*")
    return page.url.rsplit("/", 1)[1]


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


def _kebab(name: str) -> str:
    """``myTurn`` or ``my_turn`` -> ``my-turn`` (a dataset key as its ``data-`` attribute)."""
    return re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), name).replace("_", "-")


class Browsing:
    """One person's (or the spectator's) page, every WebSocket frame it received and every
    script error it met (there must be none)."""

    def __init__(self, context: BrowserContext, name: str) -> None:
        self.name = name
        self.page: Page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        #: Every frame received, by connection (a reload or a reconnect opens a new one).
        self.sockets: list[list[Frame]] = []
        self.page.on("websocket", self._socket)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _socket(self, ws: WebSocket) -> None:
        frames: list[Frame] = []
        self.sockets.append(frames)
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    def connections(self) -> list[tuple[int | None, list[Frame]]]:
        """Each connection that got anything: its seat (from the snapshot after the hello;
        None: watching) and its frames."""
        return [
            (next(f["seat"] for f in frames if f["type"] == "state"), frames)
            for frames in self.sockets
            if frames
        ]

    def seats(self) -> list[int | None]:
        return [seat for seat, _ in self.connections()]

    def data(self) -> dict[str, str]:
        found: dict[str, str] = self.page.eval_on_selector("#table", "t => ({...t.dataset})")
        return found

    def step(self) -> int:
        return int(self.data()["step"])

    def view(self) -> Frame:
        """The view this page drew last (what the server sent it, nothing more)."""
        found: Frame = self.page.evaluate("() => window.rummoliTable.state.view")
        return found

    def hand(self) -> list[str]:
        ids: list[str] = self.page.eval_on_selector_all(
            "[data-testid^=hand-card-]", "cards => cards.map(c => c.dataset.testid.slice(10))"
        )
        return ids

    def wait_table(self, **expected: str) -> None:
        """Wait until the table root's ``data-*`` attributes have these values."""
        selector = "#table" + "".join(
            f'[data-{_kebab(key)}="{value}"]' for key, value in expected.items()
        )
        self.page.wait_for_selector(selector, state="attached")

    def test_id(self, testid: str) -> Any:
        return self.page.get_by_test_id(testid)


@contextmanager
def whole_game_pages(browser: Browser, names: list[str]) -> Iterator[list[Browsing]]:
    """The pages of :func:`two_people_and_a_watcher`'s three browsers, by ``names``;
    the browsers are closed after the block."""
    contexts = two_people_and_a_watcher(browser)
    try:
        yield [Browsing(context, name) for context, name in zip(contexts, names, strict=True)]
    finally:
        for context in contexts:
            context.close()


#: The next thing to wait for, on the spectator's page: the end, or a person to move at a
#: step after the last one a person acted at.
NEXT_DECISION = """([acted, humans]) => {
  const t = document.querySelector('#table');
  return t.dataset.phase === 'over'
    || (Number(t.dataset.step) > acted && humans.includes(t.dataset.toMove));
}"""


class WholeGame:
    """A whole game in three browsers, as the whole-game tests play it: Ann
    (``pages[0]``, a laptop) makes the table, Bea (``pages[1]``, a phone) joins with the
    invitation, the spectator (``pages[2]``) watches; the site at ``base``; screenshots
    for the docs when asked for; the time since the start."""

    def __init__(self, base: str, pages: list[Browsing]) -> None:
        self.base = base
        self.pages = pages
        self.shots = Shots()
        self.started = time.monotonic()

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def seat_bea_and_the_spectator(
        self, table_id: str, bea_name: str, in_lobby: Callable[[Page], None]
    ) -> None:
        """Once Ann has made a public table: the spectator finds it in the lobby (where
        ``in_lobby`` checks his page), opens it and gets no seat; Bea opens Ann's
        invitation and takes the last seat, and the game starts for everyone."""
        ann, bea, spectator = self.pages
        invite = ann.page.get_by_test_id("invite-link").input_value()
        assert invite.startswith(f"{self.base}/table/{table_id}#invite=")
        spectator.page.goto(self.base + "/")
        row = spectator.page.get_by_test_id(f"table-row-{table_id}")
        row.wait_for()
        in_lobby(spectator.page)
        row.get_by_role("link").click()
        spectator.wait_table(status="waiting", seat="")
        bea.page.goto(invite)
        bea.page.get_by_test_id("join-name").fill(bea_name)
        bea.page.get_by_test_id("join-submit").click()
        for who, seat in zip(self.pages, ["0", "1", ""], strict=True):
            who.wait_table(status="playing", seat=seat)

    def next_decision(self, acted: int) -> dict[str, str] | None:
        """The table's data (the spectator's page) at the next person's decision after
        step ``acted``; None once the game is over. Fails past :data:`GAME_SECONDS`."""
        assert self.seconds() < GAME_SECONDS, "the game took too long"
        spectator = self.pages[2]
        spectator.page.wait_for_function(NEXT_DECISION, arg=[acted, list(HUMANS)])
        data = spectator.data()
        return None if data["phase"] == "over" else data

    def check_every_connection(self, check: Callable[[list[Frame], int | None], int]) -> int:
        """``check(frames, seat)`` (the game's frame check against the engine) on every
        connection of every page, none of which the server refused anything; how many
        game frames were checked in all."""
        checked = 0
        for who in self.pages:
            for seen_as, frames in who.connections():
                checked += check(frames, seen_as)
                refused = [f for f in frames if f["type"] == "error"]
                assert not refused, f"{who.name}: the server refused a click: {refused}"
        return checked


@contextmanager
def whole_game(browser: Browser, base: str, names: list[str]) -> Iterator[WholeGame]:
    """A :class:`WholeGame` on :func:`whole_game_pages` named ``names``."""
    with whole_game_pages(browser, names) as pages:
        yield WholeGame(base, pages)
