"""Seeded randomness: every random draw of a game comes from its own seed.

Each draw is derived from ``(seed, purpose, index)`` by BLAKE2b, so a game shares no
generator with anything else, a clone copies no generator state, and the same settings,
seed and actions give the same cards on every machine and Python version.

A shuffle reads one 512-bit digest as a number below 52! (draws at or above the largest
multiple of 52! below 2**512 are rejected and redrawn, so every order of the deck is
exactly equally likely) and decodes it as a Lehmer code. That is one hash and about fifty
small divisions: faster than ``random.shuffle``, which matters when a simulation deals
millions of decks.
"""

from __future__ import annotations

import hashlib
import random
from math import factorial
from typing import Final

_DECK_SIZE: Final = 52
_PERMUTATIONS: Final = factorial(_DECK_SIZE)
_BITS: Final = 512
_LIMIT: Final = (1 << _BITS) - ((1 << _BITS) % _PERMUTATIONS)


def _radix_chunks() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Group the radices 52, 51, ..., 2 so that each group's product fits in 63 bits:
    the digits of a group are then decoded with small-integer divisions."""
    chunks: list[tuple[int, tuple[int, ...]]] = []
    radix = _DECK_SIZE
    while radix > 1:
        group: list[int] = []
        product = 1
        while radix > 1 and product * radix < 1 << 63:
            group.append(radix)
            product *= radix
            radix -= 1
        chunks.append((product, tuple(group)))
    return tuple(chunks)


_CHUNKS: Final = _radix_chunks()


def _digest(seed: int, purpose: int, index: int, attempt: int) -> int:
    text = f"rummoli:{seed}:{purpose}:{index}:{attempt}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=64).digest(), "little")


def random_below(seed: int, purpose: int, index: int, bound: int) -> int:
    """A uniformly random whole number in ``range(bound)`` for one draw of one game."""
    limit = (1 << _BITS) - ((1 << _BITS) % bound)
    attempt = 0
    value = _digest(seed, purpose, index, attempt)
    while value >= limit:
        attempt += 1
        value = _digest(seed, purpose, index, attempt)
    return value % bound


def shuffled_deck(seed: int, purpose: int, index: int) -> list[int]:
    """A uniformly random order of the 52 cards for one draw of one game."""
    value = random_below(seed, purpose, index, _PERMUTATIONS)
    pool = list(range(_DECK_SIZE))
    deck: list[int] = []
    take = deck.append
    pop = pool.pop
    for product, radices in _CHUNKS:
        value, digits = divmod(value, product)
        for radix in radices:
            digits, pick = divmod(digits, radix)
            take(pop(pick))
    take(pool[0])
    return deck


def derived_random(seed: int, purpose: int, index: int) -> random.Random:
    """A general generator for draws that are not shuffles (bots, simulations)."""
    return random.Random(_digest(seed, purpose, index, 0))
