"""The Rummoli phase at the terminal, card by card: a run is printed one card at a time,
``pace`` seconds apart, Enter skips to the end, and the words are the same either way."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from rummoli.bots import make_bot
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.tui.stops.play import play_game


def play(pace: float, wait: object = None) -> str:
    state = RummoliState.new_game(["You", "Bea", "Cy"], Rules(rounds=1), seed=11)
    bots = {s: make_bot("basic", s, "rummoli") for s in (1, 2)}
    out = StringIO()
    console = Console(file=out, width=100, highlight=False, color_system=None)
    hint = make_bot("basic", 0, "rummoli")

    def human(prompt: str) -> str:
        if prompt.startswith(">"):  # a decision: take the basic bot's choice
            return "1"
        return ""

    play_game(state, console, human, bots, pace=pace, wait=wait, hint_bot=hint)  # type: ignore[arg-type]
    return out.getvalue()


def test_a_run_is_shown_card_by_card_and_reads_the_same() -> None:
    waits: list[float] = []

    def wait(seconds: float) -> bool:
        waits.append(seconds)
        return False

    paced = play(0.2, wait)
    assert play(0.0) == paced  # the same words, whatever the pace
    laid = paced.count("♣") + paced.count("♦") + paced.count("♥") + paced.count("♠")
    assert waits and set(waits) == {0.2}
    assert len(waits) < laid  # a wait between the cards of a line, not after the last


def test_enter_skips_to_the_end_of_what_happened() -> None:
    calls: list[float] = []

    def skip_at_once(seconds: float) -> bool:
        calls.append(seconds)
        return True

    waits: list[float] = []
    play(0.2, lambda s: waits.append(s) is not None)
    skipped = play(0.2, skip_at_once)
    assert skipped == play(0.0)
    assert 0 < len(calls) < len(waits)  # one wait per decision's flush, then no more
