"""What the simulator asks of each game: its own tally, figures and report.

``rummoli simulate`` is written once: options, chunks, backends, the progress bar, the
JSON file. What a game counts and how it reports it is that game's simulation part
(``sim/stops``, ``sim/rummy``), named in its description and found here. A game that
has none (a new game, or one written outside the project) is simulated by the generic
part (:mod:`rummoli.sim.generic`): whole games, each bot's final amount and wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from rummoli.engine.description import SIMULATION, GameDescription
from rummoli.games.registry import describe
from rummoli.i18n import NPN_

if TYPE_CHECKING:
    from rummoli.sim.spec import Chunk, SimSpec


@dataclass(frozen=True, slots=True)
class SimulationPart:
    """One game's part of the simulator.

    ``stats`` objects are the game's own; the runner only moves and merges them. They
    must have ``rounds`` and ``games_started`` (the progress bar reads them) and
    ``merge(other)``, exact in any order, so that the figures do not depend on how many
    workers ran the chunks.
    """

    #: ``empty_stats(spec)``: statistics of no chunk, to merge finished chunks into.
    empty_stats: Callable[[SimSpec], Any]
    #: ``play_chunk(chunk)``: play one chunk to its quota and return its statistics.
    play_chunk: Callable[[Chunk], Any]
    #: ``summarize(stats, spec)``: every figure as JSON-ready data.
    summarize: Callable[[Any, SimSpec], dict[str, Any]]
    #: ``print_report(console, figures, run)``: the figures as tables for people.
    print_report: Callable[[Console, dict[str, Any], dict[str, Any]], None]
    #: What the progress bar calls a round and a game after a count (``400/400 rounds``)
    #: and the speed (``1,234 rounds/s``): plural messages, translated where shown.
    round_nouns: tuple[str, str] = NPN_("simulation, after a number", "round", "rounds")
    game_nouns: tuple[str, str] = NPN_("simulation, after a number", "game", "games")
    rate: tuple[str, str] = NPN_("simulation", "{n} rounds/s", "{n} rounds/s")
    #: Rounds (or games) per chunk unless the user says: see ``sim/spec.py``.
    chunk_rounds: int = 2000
    chunk_games: int = 10
    #: Whether ``--full-table`` means anything (a table that can shrink).
    full_table: bool = False
    #: ``write_plots(figures, directory)``: PNG charts, if the game draws any.
    write_plots: Callable[[dict[str, Any], Path], list[Path]] | None = None


def simulation_part(game: str | GameDescription) -> SimulationPart:
    """The simulation part of ``game``: its own, else the generic one."""
    description = game if isinstance(game, GameDescription) else describe(game)
    part = description.part(SIMULATION)
    if part is None:
        from rummoli.sim.generic import GENERIC

        return GENERIC
    if not isinstance(part, SimulationPart):
        raise TypeError(f"{description.name}'s simulation part is not a SimulationPart")
    return part
