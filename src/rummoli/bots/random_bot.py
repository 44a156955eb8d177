"""The random bot: a uniform choice among the legal actions.

It is the baseline every other level must beat, and a cheap opponent for tests that need
whole games: its own seeded generator makes each game repeatable.
"""

from __future__ import annotations

from typing import Any

from rummoli.bots import Decision
from rummoli.engine.rng import SeededRandom


class RandomBot:
    """Chooses uniformly among the legal actions, with its own generator
    (:class:`~rummoli.engine.rng.SeededRandom`: a seed's choices are the same on every
    Python version)."""

    level = "random"

    def __init__(self, seed: int) -> None:
        self._rng = SeededRandom(seed)

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        """Any legal action, each equally likely (the observation is not even read)."""
        if not legal:
            raise ValueError("no legal action to choose from")
        return Decision(self._rng.choice(legal), "random")
