"""Simulation speed: rounds per second of ``rummoli simulate``, on one core and on two.

Three figures, each the best of several interleaved runs (the machine is shared, so the
best run is the one least disturbed by other work), in rounds per wall-clock second and
per CPU second (the CPU time of this process and of its pool workers: the figure other
programs on the machine disturb least; the overhead column compares those):

- **bare loop**: the least any simulation must do: new games, and per decision one
  observation, the bot's choice and ``apply``; no statistics at all. The simulator can
  only be slower than this; the difference is its own overhead.
- **simulate, 1 job**: the simulator in this process (``--jobs 1``): chunks, the event
  tally, merging.
- **simulate, 2 jobs**: the same on a pool of two worker processes (``--jobs 2``),
  start-up and merging included.

    python bench/bench_sim.py                       # 4 seats, basic bots, 20,000 rounds
    python bench/bench_sim.py --bots random --seats 4 6 8 --rounds 10000
    python bench/bench_sim.py --quick
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from rummoli.bots import LEVELS, make_bot
from rummoli.engine.base import CHANCE_ACTION, TERMINAL
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.view import build_observation
from rummoli.sim.runner import run
from rummoli.sim.spec import SimSpec


class Timing:
    """Wall-clock and CPU seconds of one run, this process and its pool workers."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()
        self.children = _children_cpu()

    def done(self, rounds: int) -> tuple[float, float]:
        """(rounds per wall-clock second, rounds per CPU second of every process)."""
        wall = time.perf_counter() - self.wall
        cpu = time.process_time() - self.cpu + _children_cpu() - self.children
        return rounds / wall, rounds / cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bare_loop(spec: SimSpec) -> tuple[float, float]:
    """The minimal loop (same games, same bots, no statistics): rounds per wall-clock
    and per CPU second."""
    chunk = spec.chunks()[0]
    names = [f"P{i + 1}" for i in range(spec.seats)]
    bots = [make_bot(level, chunk.bot_seed(i)) for i, level in enumerate(spec.bots)]
    rounds = 0
    game = 0
    timing = Timing()
    while rounds < spec.total:
        state = RummoliState.new_game(names, spec.rules, chunk.game_seed(game))
        game += 1
        while state.to_move != TERMINAL and rounds < spec.total:
            state.apply(CHANCE_ACTION)
            while state.to_move >= 0:
                seat = state.to_move
                legal = state.legal_actions()
                state.apply(bots[seat].choose(build_observation(state, seat), legal).action)
            if state.to_move != TERMINAL:
                rounds += 1
    return timing.done(rounds)


def simulated(spec: SimSpec, jobs: int) -> tuple[float, float]:
    timing = Timing()
    stats = run(spec, jobs=jobs)
    return timing.done(stats.rounds)


def _best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return max(r[0] for r in runs), max(r[1] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_level = "basic" if "basic" in LEVELS else "random"
    parser.add_argument("--bots", default=default_level, help="bot level in every seat")
    parser.add_argument("--seats", type=int, nargs="*", default=[4])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--full-table", action="store_true", help="count full tables only")
    parser.add_argument("--quick", action="store_true", help="4,000 rounds, 2 repeats")
    args = parser.parse_args()
    rounds, repeats = (4_000, 2) if args.quick else (args.rounds, args.repeats)
    print(
        f"bots: {args.bots}; rounds per run: {rounds:,}; best of {repeats} runs; "
        f"load average before: {os.getloadavg()[0]:.2f}"
    )
    print("| seats | bare loop | simulate, 1 job | overhead | simulate, 2 jobs | 2 jobs / 1 job |")
    print("|---:|---:|---:|---:|---:|---:|")
    for seats in args.seats:
        spec = SimSpec(
            (args.bots,) * seats, Rules(), total=rounds, seed=1, full_table=args.full_table
        )
        bare: list[tuple[float, float]] = []
        one: list[tuple[float, float]] = []
        two: list[tuple[float, float]] = []
        for _ in range(repeats):
            bare.append(bare_loop(spec))
            one.append(simulated(spec, 1))
            two.append(simulated(spec, 2))
        (bare_wall, bare_cpu), (one_wall, one_cpu), (two_wall, two_cpu) = (
            _best(bare),
            _best(one),
            _best(two),
        )
        print(
            f"| {seats} | {bare_wall:,.0f} ({bare_cpu:,.0f} per CPU s) "
            f"| {one_wall:,.0f} ({one_cpu:,.0f} per CPU s) "
            f"| {100 * (bare_cpu / one_cpu - 1):.0f}% "
            f"| {two_wall:,.0f} ({two_cpu:,.0f} per CPU s) | {two_wall / one_wall:.2f}x |"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
