"""Benchmark of :func:`rummoli.poker.hand_key`: hands per second by hand size.

Run ``python bench/bench_poker.py`` (or ``--quick`` for a rough figure in a few seconds).
It prints a markdown table: ``hand_key`` at n = 5, 7, 13, 18, 26 cards, beside brute
force over every five-card subset (scored with ``hand_key`` itself on five cards) and
beside ``treys`` for n <= 7, if treys is installed.

Each figure is the best of several timed repeats over the same pre-generated random
hands: on a shared machine the best run is the one least disturbed by other processes,
which is the figure that says what the code can do.  The loop overhead (``for m in
masks: f(m)``) is included, as it would be in any caller.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import timeit
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb

from rummoli.cards import cards_of
from rummoli.poker import hand_key

SIZES = (5, 7, 13, 18, 26)


def random_masks(n: int, count: int, rng: random.Random) -> list[int]:
    masks = []
    for _ in range(count):
        mask = 0
        for card in rng.sample(range(52), n):
            mask |= 1 << card
        masks.append(mask)
    return masks


def best_rate(run: Callable[[], object], items: int, repeats: int) -> float:
    """Items per second of the fastest of ``repeats`` runs (timeit turns off the GC)."""
    run()  # warm up: specialise the bytecode, fault in the tables
    best = min(timeit.repeat(run, number=1, repeat=repeats))
    return items / best


def bench_hand_key(masks_by_n: dict[int, list[int]], repeats: int) -> dict[int, float]:
    """Hands per second of ``hand_key`` for each hand size.

    The repeats go round the sizes in turn rather than size after size, so a burst of
    load from other processes on the machine hurts one sample of every size instead of
    every sample of one size.
    """
    key = hand_key
    runs = {}
    for n, masks in masks_by_n.items():

        def run(masks: list[int] = masks) -> None:
            for m in masks:
                key(m)

        run()  # warm up: specialise the bytecode, fault in the tables
        runs[n] = run
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for n, run in runs.items():
            best[n] = min(best[n], timeit.timeit(run, number=1))
    return {n: len(masks_by_n[n]) / best[n] for n in runs}


def brute_force_key(mask: int) -> int:
    """Best key over all five-card subsets: the obvious method, for comparison."""
    key = hand_key
    bits = [1 << c for c in cards_of(mask)]
    return max(key(a | b | c | d | e) for a, b, c, d, e in combinations(bits, 5))


def bench_brute_force(masks: Sequence[int], repeats: int) -> float:
    def run() -> None:
        for m in masks:
            brute_force_key(m)

    return best_rate(run, len(masks), repeats)


def bench_treys(masks: Sequence[int], repeats: int) -> float | None:
    try:
        from treys import Card, Evaluator
    except ImportError:
        return None
    evaluator = Evaluator()
    hands = []
    for mask in masks:
        cards = [Card.new("23456789TJQKA"[c % 13] + "cdhs"[c // 13]) for c in cards_of(mask)]
        hands.append((cards[:2], cards[2:]))  # treys wants (hole cards, board)
    evaluate = evaluator.evaluate

    def run() -> None:
        for hole, board in hands:
            evaluate(hole, board)

    return best_rate(run, len(hands), repeats)


def fmt_rate(rate: float | None) -> str:
    if rate is None:
        return "n/a"
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k/s"
    return f"{rate:.1f} /s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer hands and repeats")
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands, repeats = (5_000, 5) if args.quick else (20_000, 40)
    masks_by_n = {n: random_masks(n, hands, rng) for n in SIZES}
    fast_by_n = bench_hand_key(masks_by_n, repeats)
    treys_missing = False
    rows = []
    for n, masks in masks_by_n.items():
        # Brute force tries C(n, 5) subsets per hand: keep its total work bounded.
        budget = 200_000 if args.quick else 2_000_000
        brute_hands = max(3, min(hands // 10, budget // comb(n, 5)))
        brute_masks = masks[:brute_hands]
        if [brute_force_key(m) for m in brute_masks] != [hand_key(m) for m in brute_masks]:
            print(f"error: hand_key disagrees with brute force at n={n}", file=sys.stderr)
            return 1
        brute = bench_brute_force(brute_masks, 3 if n <= 13 else 1)
        slow: float | None = None
        if n <= 7:
            slow = bench_treys(masks, 3 if args.quick else 7)
            treys_missing = treys_missing or slow is None
        rows.append((n, fast_by_n[n], brute, brute_hands, slow))

    print(
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs (one used); hand_key: best of {repeats} runs of {hands:,} "
        "random hands per size; brute force and treys: fewer hands and runs."
    )
    print()
    print("| n | `hand_key` | brute force over C(n,5) subsets | treys | `hand_key` / brute |")
    print("|---:|---:|---:|---:|---:|")
    for n, fast, brute, brute_hands, slow in rows:
        treys_cell = fmt_rate(slow) if n <= 7 else "-"
        print(
            f"| {n} | {fmt_rate(fast)} | {fmt_rate(brute)} ({comb(n, 5):,} per hand, "
            f"{brute_hands:,} hands) | {treys_cell} | {fast / brute:,.0f}x |"
        )
    if treys_missing:
        print("\ntreys is not installed (pip install treys), so its column is n/a.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
