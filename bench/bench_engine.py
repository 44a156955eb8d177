"""Complete Rummoli rounds per second with random players, through the public API.

Each game starts with the default 100 chips and plays until it ends (eliminations); the
figure counts every round played. Random players pick uniformly among the legal actions,
so the numbers include ``legal_actions()`` and ``apply()`` of every real decision; forced
card plays run inside the engine.

    python bench/bench_engine.py            # 2, 4 and 8 seats, default rules
    python bench/bench_engine.py --quick    # a shorter run
"""

from __future__ import annotations

import argparse
import random
import time

from rummoli.engine.base import TERMINAL
from rummoli.games.rummoli import Rules, RummoliState


def play_rounds(seats: int, target_rounds: int, rules: Rules, seed: int) -> tuple[int, float]:
    """Play whole games until ``target_rounds`` rounds are done; returns (rounds, seconds)."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(seats)]
    rounds = 0
    game = 0
    start = time.perf_counter()
    while rounds < target_rounds:
        state = RummoliState.new_game(names, rules, seed * 1_000_003 + game)
        game += 1
        choice = rng.choice
        while state.to_move != TERMINAL:
            state.apply(choice(state.legal_actions()))
        rounds += state.round_no
    return rounds, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 4, 8])
    parser.add_argument("--poker", choices=["betting", "showdown"], default="betting")
    args = parser.parse_args()
    target = 2_000 if args.quick else 20_000
    rules = Rules(poker=args.poker)
    print(f"| seats | rounds | seconds | rounds/s |  (poker={args.poker})")
    print("|---:|---:|---:|---:|")
    for seats in args.seats:
        best = 0.0
        for repeat in range(3):
            rounds, seconds = play_rounds(seats, target, rules, seed=repeat + 1)
            best = max(best, rounds / seconds)
        print(f"| {seats} | {rounds} | {seconds:.2f} | {best:,.0f} |")


if __name__ == "__main__":
    main()
