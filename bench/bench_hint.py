"""The web table's hint: what one costs the server, per game.

    python bench/bench_hint.py --games 3

Whole games of basic bots (Rummoli at 4 seats, Basic Rummy at 2); at every real decision
of seat 0 the hint is worked out as ``web/hints.py`` does it: the seat's observation, the
strongest level's choice (one bot per seat, kept across the game, as the table keeps it),
and the reason structured for the page. Wall time per hint, median, p90 and max (the
table's owner never waits for it: it runs in a worker thread, one per table at a time).
"""

from __future__ import annotations

import argparse
import time

from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games import registry
from rummoli.games.registry import describe
from rummoli.web.hints import structured
from spread import spread


def _times(game: str, games: int) -> list[float]:
    about = describe(game)
    seats = about.default_players
    times = []
    for seed in range(games):
        state = about.new_game([f"P{i}" for i in range(seats)], about.rules({}), seed)
        hinter = make_bot(about.hint_level(), seed * 10, game)
        players = [make_bot("basic", seed * 31 + s, game) for s in range(seats)]
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(CHANCE_ACTION)
                continue
            if seat == 0 and len(state.legal_actions()) > 1:
                start = time.perf_counter()
                decision = hinter.choose(state.observation(0), list(state.legal_actions()))
                structured(decision.reason)
                times.append(time.perf_counter() - start)
            state.apply(ask_bot(players[seat], state, seat).action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    for game in registry.names():
        hints, median, p90, most = spread(1000 * t for t in _times(game, args.games))
        print(
            f"{game:8} {hints:5} hints  median {median:6.2f} ms"
            f"  p90 {p90:6.2f} ms  max {most:6.2f} ms"
        )


if __name__ == "__main__":
    main()
