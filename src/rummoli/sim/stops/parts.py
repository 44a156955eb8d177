"""Each family game's simulation part by its name: ``rummoli.sim.stops.parts:<game>``
(one part serves the family: it reads the game from the spec; PEP 562's module
``__getattr__``, so a game added to the family needs no line here)."""

from __future__ import annotations

from rummoli.sim.game import SimulationPart
from rummoli.sim.stops import SIMULATION


def __getattr__(game: str) -> SimulationPart:
    if game.startswith("__"):
        raise AttributeError(game)
    return SIMULATION
