"""The Stops family's part of the simulator (every game of the family, by its spec): the
compiled play loop and tally (:mod:`.play`), its statistics (:mod:`.stats`), figures
(:mod:`.figures`), report (:mod:`.report`) and charts (:mod:`.plots`); :mod:`.tables`
compares several saved runs for ``docs/analysis.md``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rummoli.sim.game import SimulationPart
from rummoli.sim.spec import SimSpec
from rummoli.sim.stops.figures import summarize
from rummoli.sim.stops.play import play_chunk
from rummoli.sim.stops.report import print_report
from rummoli.sim.stops.stats import SimStats


def _empty(spec: SimSpec) -> SimStats:
    return SimStats.empty(spec.seats, spec.rules.layout().names, spec.levels)


def _plots(figures: dict[str, Any], directory: Path) -> list[Path]:
    from rummoli.sim.stops.plots import write_plots  # matplotlib only when asked

    return write_plots(figures, directory)


SIMULATION = SimulationPart(
    empty_stats=_empty,
    play_chunk=play_chunk,
    summarize=summarize,
    print_report=print_report,
    chunk_rounds=2000,
    chunk_games=10,
    full_table=True,
    write_plots=_plots,
)
