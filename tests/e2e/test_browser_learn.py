"""Learning to play at the web table: the guided first round (shown to a newcomer,
advanced, skipped, and remembered off), the expert's hint at a decision, the rules in
force at the table and in the lobby's list, and computer players named for people.
Then a reconnect in the middle of a run: the page shows the current position at once."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket

from e2e.conftest import LiveServer
from e2e.pages import (
    NO_GUIDE,
    PHONE,
    SHOT_SIZES,
    TIMEOUT_MS,
    Shots,
    game_over,
    play_first_choices,
    run_shown,
    take_first_seat,
)

SHOTS = Shots()


def _table(live_server: LiveServer, page: Page, rules: dict[str, Any]) -> str:
    """A public table of Ann (this page) and three Casual computer players."""
    seats = ["human", "basic", "basic", "basic"]
    body = {"seats": seats, "public": True, "name": "Ann", "rules": rules}
    return take_first_seat(page, live_server.url, body)


def test_guide_hint_rules_in_force_and_levels(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=SHOT_SIZES["desktop"])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        # No widow and a plain betting round: the round waits for Ann's first bet.
        table = _table(live_server, page, {"rounds": 1, "widow": "none", "poker": "betting"})
        # The lobby's open tables say the rules in force and how they differ.
        page.goto(live_server.url + "/")
        line = page.get_by_test_id(f"table-rules-{table}")
        line.wait_for()
        page.wait_for_function(
            "id => document.querySelector(`[data-testid=table-rules-${id}]`).textContent"
            ".includes('default')",
            arg=table,
        )
        text = line.inner_text()
        assert "Widow: No widow (default Exchange or auction)" in text, text
        # How long the table plays is a setting, said as such: not a house rule.
        assert text.startswith("1 round.") and "Rounds" not in text, text
        # The computer levels are named for people, with what each does.
        levels = page.get_by_test_id("level-help").inner_text()
        assert "Beginner" in levels and "Casual" in levels and "Expert" in levels
        assert "Casual" in page.get_by_test_id("seat-kind-1").inner_text()
        if SHOTS.want("lobby-house-rules"):
            page.locator("details.rules summary").click()
            SHOTS.take_sizes(page, "lobby-house-rules", "[data-testid=preset]")
            page.goto(f"{live_server.url}/rules")
            page.locator("h1").first.wait_for()
            SHOTS.take_sizes(page, "rules-page")

        page.goto(f"{live_server.url}/table/{table}")
        # A newcomer gets the guide: the board first.
        tour = page.get_by_test_id("tour")
        tour.wait_for()
        assert tour.get_attribute("data-step") == "board"
        assert "pay space" in page.get_by_test_id("tour-text").inner_text()
        assert page.locator("#board.tour-target").count() == 1
        # The rules in force at the table; the computer players' level by its label.
        assert "Widow: No widow" in page.get_by_test_id("rules-line").inner_text()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=player-1] .badge.bot')"
            ".textContent === 'Casual'"
        )
        # Advancing: the next step due now (Ann is to bet: the poker hand).
        page.get_by_test_id("tour-next").click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=tour]')?.dataset.step === 'poker'"
        )
        # The hint at Ann's decision: the expert's suggestion and its reason.
        page.get_by_test_id("hint-button").click()
        hint = page.get_by_test_id("hint-text")
        hint.wait_for()
        words = hint.inner_text()
        assert words.startswith("Expert's hint: "), words
        assert "{" not in words  # every field filled in
        assert page.locator("#actions .hinted").count() == 1
        assert page.get_by_test_id("hint-button").is_disabled()  # asked at this step
        SHOTS.take_sizes(page, "hint", "[data-testid=hint-text]")
        # Skipped: gone, and it stays off after a reload.
        page.get_by_test_id("tour-skip").click()
        assert page.get_by_test_id("tour").count() == 0
        assert json.loads(page.evaluate("localStorage.getItem('rummoli.tour')"))["off"] is True
        page.reload()
        page.get_by_test_id("board").wait_for()
        page.wait_for_timeout(300)
        assert page.get_by_test_id("tour").count() == 0
    finally:
        context.close()


#: Each render's laid cards and whether a run was being played back, from the first
#: frame on (installed before the page's scripts run).
RECORDER = """
window.__renders = [];
document.addEventListener('DOMContentLoaded', () => {
  const root = document.querySelector('[data-testid=table]');
  const look = () => window.__renders.push({
    laid: document.querySelectorAll('#laid .laid-cell.on').length,
    playing: root.dataset.playing || '',
    step: root.dataset.step || '',
  });
  new MutationObserver(look).observe(root, { childList: true, subtree: true, attributes: true });
});
"""


def test_a_reload_mid_run_goes_on_from_the_card_it_had_shown(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(NO_GUIDE)
    # The slowest pace: a reload takes less than a card's time.
    context.add_init_script("localStorage.setItem('rummoli.pace', 'slow')")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        table = _table(live_server, page, {"rounds": 1, "widow": "none", "poker": "betting"})
        page.goto(f"{live_server.url}/table/{table}")
        # Ann plays along until a run is being shown card by card, a few cards into it.
        play_first_choices(page, lambda: run_shown(page, 3), 90, "no run was played back")
        shown = page.locator("#laid .laid-cell.on").count()
        SHOTS.take_sizes(page, "run-laid", "#laid")
        # The page reloads mid-run (a family member presses F5, or changes tabs on a phone).
        frames: list[dict[str, Any]] = []

        def on_socket(ws: WebSocket) -> None:
            ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

        page.on("websocket", on_socket)
        page.add_init_script(RECORDER)
        page.reload()
        page.wait_for_function("() => window.__renders.some((r) => r.step !== '')")
        snapshot = next(f for f in frames if f["type"] == "state")
        view = snapshot["view"]
        total = len(view["laid"])
        assert total > shown  # the server is ahead of the page: the rest of the run
        # The run goes on from the card the page had shown, not from the round's end,
        # nor from the run's first card: then one card at a time to the position now.
        assert "resume" in snapshot, snapshot.keys()
        # (At the slowest pace a long run takes a while: a second a card.)
        page.wait_for_function(
            "n => document.querySelectorAll('#laid .laid-cell.on').length === n",
            arg=total,
            timeout=120_000,
        )
        laid = [r["laid"] for r in page.evaluate("window.__renders") if r["step"] != ""]
        first = laid[0]
        assert shown <= first < total, (shown, first, total)
        steps = [b - a for a, b in itertools.pairwise(laid) if b != a]
        assert steps and max(steps) == 1, laid
        # The grid and the counts are those of the position now.
        for seat, player in enumerate(view["players"]):
            if page.evaluate("() => window.rummoliTable.state.step") == snapshot["step"]:
                count = page.get_by_test_id(f"player-cards-{seat}")
                assert count.inner_text() == str(player["cards"])
        if SHOTS.dir is not None:
            _stop_and_replay_shots(page, live_server, table)
    finally:
        context.close()


def _stop_and_replay_shots(page: Page, live_server: LiveServer, table: str) -> None:
    """The README's pictures of a stop and its reason, and of the replay (screenshots
    only: the behaviour is asserted by test_browser_runs.py)."""
    stop = page.locator('[data-testid="log"] li.stop').first
    deadline = time.monotonic() + 180
    play_first_choices(page, lambda: stop.count() > 0, 90, "no stop came", 60)
    SHOTS.take_sizes(page, "stop-reason", '[data-testid="log"] li.stop')
    page.get_by_test_id("pace").select_option("instant")
    left = deadline - time.monotonic()
    play_first_choices(page, lambda: game_over(page), left, "the game did not end", 60)
    page.goto(f"{live_server.url}/replay/{table}?seat=0")
    page.wait_for_function("() => /of [1-9]/.test(document.querySelector('#counter').textContent)")
    total = int(page.locator("#counter").inner_text().rsplit(" ", 1)[1])
    page.locator("#slider").evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", total * 2 // 3
    )
    SHOTS.take_sizes(page, "replay")
