"""Basic Rummy's part of the simulator: the play loop and tally (:mod:`.play`), its
statistics (:mod:`.stats`), figures (:mod:`.figures`) and report (:mod:`.report`). A round
is a hand and a game a match."""

from __future__ import annotations

from rummoli.i18n import NPN_
from rummoli.sim.game import SimulationPart
from rummoli.sim.rummy.figures import summarize_rummy
from rummoli.sim.rummy.play import play_rummy_chunk
from rummoli.sim.rummy.report import RATE, print_rummy_report
from rummoli.sim.rummy.stats import RummyStats
from rummoli.sim.spec import SimSpec


def _empty(spec: SimSpec) -> RummyStats:
    return RummyStats.empty(spec.seats, spec.levels)


SIMULATION = SimulationPart(
    empty_stats=_empty,
    play_chunk=play_rummy_chunk,
    summarize=summarize_rummy,
    print_report=print_rummy_report,
    round_nouns=NPN_("simulation, after a number", "hand", "hands"),
    game_nouns=NPN_("simulation, after a number", "match", "matches"),
    rate=RATE,
    # A hand between strong bots takes tens of milliseconds: 200 keep the bar moving
    # and give batch-means intervals enough chunks.
    chunk_rounds=200,
    chunk_games=5,
)
