"""The environments' own chance: a deal's cards and every other chance outcome drawn by
the project's compiled generator, and the seed a round's engine gets from the history.

Why: an environment's ``reset`` draws a whole deal (all 52 cards for Rummoli, whose
rounds are a few decisions long), and ``random.Random`` spent four microseconds a reset
on its seed and as many on the deal's draws. :class:`~rummoli.engine.rng.SeededRandom`
(xoshiro128++, compiled) seeds from one hash and draws a card in a few nanoseconds, the
same numbers on every Python version. Standard library and the engine only, so that
mypyc compiles this module (:mod:`rummoli.compiled`).
"""

from __future__ import annotations

import hashlib
import os
from array import array

from rummoli.engine.rng import SeededRandom

#: The purpose of an environment's generator (see :mod:`rummoli.engine.rng`): "env".
PURPOSE_ENV = 0x656E76


def chance_generator(seed: int | None) -> SeededRandom:
    """The generator of an environment's chance from ``seed`` (None: from entropy)."""
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    return SeededRandom(seed, PURPOSE_ENV)


def deal(rng: SeededRandom, population: list[int], k: int) -> list[int]:
    """``k`` cards of ``population`` in a uniformly random order, each ordered draw
    equally likely (the first ``k`` steps of a Fisher-Yates shuffle of a copy)."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError(f"cannot deal {k} cards from {n}")
    pool = population[:]
    for i in range(k):
        j = i + rng.below(n - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def history_seed(history: list[int]) -> int:
    """The engine seed of a round: a function of the table's history, so that replaying
    the history (``deserialize``) rebuilds the same game, and different deals differ
    (the BLAKE2b digest of the history as 64-bit integers)."""
    data = array("q", history).tobytes()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
