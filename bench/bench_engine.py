"""Complete Rummoli rounds per second with random players, through the public API.

Each game starts with the default 100 chips and plays until it ends (eliminations); the
figure counts every round played. Random players pick uniformly among the legal actions,
so the numbers include ``legal_actions()`` and ``apply()`` of every real decision; forced
card plays run inside the engine. Each figure is the best of three runs, in rounds per
wall-clock second and per CPU second of this process (``time.process_time``: the figure
other programs on a shared machine disturb least).

    python bench/bench_engine.py            # 2, 4 and 8 seats, default rules
    python bench/bench_engine.py --quick    # a shorter run
"""

from __future__ import annotations

import argparse
import random
import time

from rummoli.engine.base import TERMINAL
from rummoli.games.rummoli import Rules, RummoliState


def play_rounds(
    seats: int, target_rounds: int, rules: Rules, seed: int
) -> tuple[int, float, float]:
    """Play whole games until ``target_rounds`` rounds are done; returns (rounds,
    wall-clock seconds, CPU seconds)."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(seats)]
    rounds = 0
    game = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while rounds < target_rounds:
        state = RummoliState.new_game(names, rules, seed * 1_000_003 + game)
        game += 1
        choice = rng.choice
        while state.to_move != TERMINAL:
            state.apply(choice(state.legal_actions()))
        rounds += state.round_no
    return rounds, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 4, 8])
    parser.add_argument("--poker", choices=["betting", "showdown"], default="betting")
    args = parser.parse_args()
    target = 2_000 if args.quick else 20_000
    rules = Rules(poker=args.poker)
    print(f"| seats | rounds | rounds/s | rounds per CPU s |  (poker={args.poker})")
    print("|---:|---:|---:|---:|")
    for seats in args.seats:
        best_wall = best_cpu = 0.0
        for repeat in range(3):
            rounds, wall, cpu = play_rounds(seats, target, rules, seed=repeat + 1)
            best_wall = max(best_wall, rounds / wall)
            best_cpu = max(best_cpu, rounds / cpu)
        print(f"| {seats} | {rounds} | {best_wall:,.0f} | {best_cpu:,.0f} |")


if __name__ == "__main__":
    main()
