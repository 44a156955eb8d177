"""The resampler's scan: ``resample_from_infostate`` at 10,000 random positions of every
house-rule set of every game with a learning environment (docs/performance.md has the
figures it gave).

    python setup.py build_ext --inplace      # compiled (else plain Python, slower)
    PYTHONPATH=src .venv/bin/python bench/resample_scan.py --positions 10000

Each position is a random decision of a random game (random chance, random legal
actions), resampled for a random seat (:func:`rummoli.envs.resample_scan.scan`): a
failure is a resample that raised or that the seat could tell from the real table (its
information state string or tensor, the player to move, its legal actions). The house-rule
sets are :func:`rummoli.envs.resample_scan.house_rule_sets`: the defaults, every other
value of every house rule one at a time, every table size, the presets and a whole game.
Printed for each set: where the resamples came from (the game's sampler; the fallback's
walk; the real deal itself), how many changed the deal, the failures, the slowest
resample and the set's time.
"""

from __future__ import annotations

import argparse
import time

from rummoli.envs.adapters import games_with_adapters
from rummoli.envs.resample_scan import house_rule_sets, scan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--positions", type=int, default=10_000, help="per house-rule set")
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        help="a game (repeatable; default: every game with an environment)",
    )
    args = parser.parse_args()
    games = args.game or games_with_adapters()
    total = failures = walks = same = 0
    start = time.perf_counter()
    print(
        f"{'game':8s} {'settings':58s} {'sampler':>8s} {'walk':>5s} {'same':>5s} "
        f"{'changed':>8s} {'failed':>6s} {'slowest':>8s} {'time':>6s}"
    )
    for game in games:
        for index, params in enumerate(house_rule_sets(game)):
            result = scan(game, params, args.positions, seed=index)
            total += result.positions
            failures += len(result.failures)
            walks += result.sources["walk"]
            same += result.sources["same"]
            print(
                f"{game:8s} {str(params)[:58]:58s} {result.sources['sampler']:8d} "
                f"{result.sources['walk']:5d} {result.sources['same']:5d} {result.changed:8d} "
                f"{len(result.failures):6d} {result.slowest:7.3f}s {result.seconds:5.0f}s",
                flush=True,
            )
            for failure in result.failures[:3]:
                print(f"    {failure}")
    print(
        f"\n{total:,} positions, {failures} failures (rate {failures / max(total, 1):.4%}); "
        f"{walks:,} from the fallback's walk ({walks / max(total, 1):.2%}), {same} the real "
        f"deal itself; {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
