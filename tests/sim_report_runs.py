"""A few fixed-seed simulations and their reports, for the report's language tests.

``tests/sim_reports/<run>.en.txt`` holds each report as the English code printed it
before the report was translated; ``tests/test_sim_languages.py`` checks the English
report is still exactly that, and that French and Russian leave no English. To see them
again (only when a report is meant to change in English):

    RUMMOLI_PURE=1 PYTHONPATH=src python tests/sim_report_runs.py tests/sim_reports
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from rummoli.sim import generic
from rummoli.sim.command import build_spec
from rummoli.sim.game import SimulationPart, simulation_part
from rummoli.sim.runner import Merger, play_indexed
from rummoli.sim.spec import SimSpec

#: Report width when printed to a file or a pipe (``sim.command.REPORT_WIDTH``).
WIDTH = 110
#: How a run went, fixed (a real run's time changes from one run to the next).
TIMED = {
    "backend": "local",
    "jobs": 2,
    "where": "2 local processes",
    "seconds": 2.46,
    "rounds_per_second": 1234.5,
    "interrupted": False,
    "compiled": False,
}
ONE_JOB = {**TIMED, "jobs": 1, "seconds": 0.25, "rounds_per_second": 1.2, "compiled": True}

#: name: (build_spec's options, the part that plays it (None: the game's), run, complete)
RUNS: dict[str, tuple[dict[str, Any], SimulationPart | None, dict[str, Any], bool]] = {
    "rummoli": (
        {"bots": "random,basic,random", "rounds": 150, "seed": 7, "rotate": True},
        None,
        TIMED,
        True,
    ),
    "rummoli_rules": (
        {
            "bots": "random,random,random,basic",
            "games": 2,
            "seed": 2,
            "full_table": True,
            "rules": ["widow=exchange_only", "poker=showdown"],
        },
        None,
        ONE_JOB,
        False,
    ),
    "rummy": (
        {"game": "rummy", "bots": "basic,random", "rounds": 12, "seed": 3},
        None,
        TIMED,
        True,
    ),
    "generic": (
        {"game": "rummy", "bots": "random,basic,random", "games": 2, "seed": 5},
        generic.GENERIC,
        {},
        True,
    ),
}


def figures(name: str) -> tuple[dict[str, Any], dict[str, Any], SimulationPart]:
    """One run's figures (played here, chunk by chunk), how it went, and its part."""
    options, part, run, complete = RUNS[name]
    spec: SimSpec = build_spec(
        bots=options["bots"],
        rounds=options.get("rounds"),
        games=options.get("games"),
        rules=options.get("rules", []),
        preset=None,
        seed=options["seed"],
        rotate=options.get("rotate", False),
        full_table=options.get("full_table", False),
        game=options.get("game"),
    )
    part = part or simulation_part(spec.game)
    merger = Merger(spec)
    stats = part.empty_stats(spec)
    for chunk in spec.chunks():
        if part is generic.GENERIC:
            stats.merge(part.play_chunk(chunk))
        else:
            merger.add(*play_indexed(chunk))
    if part is not generic.GENERIC:
        stats = merger.result()
    result = part.summarize(stats, spec)
    if not complete:
        result = {**result, "complete": False}
    return result, run, part


def report(name: str, width: int = WIDTH) -> str:
    """One run's report as printed to a file ``width`` columns wide."""
    result, run, part = figures(name)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False)
    part.print_report(console, result, run)
    return out.getvalue()


if __name__ == "__main__":
    directory = Path(sys.argv[1])
    for run_name in RUNS:
        (directory / f"{run_name}.en.txt").write_text(report(run_name), encoding="utf-8")
