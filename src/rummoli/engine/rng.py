"""Seeded randomness: every random draw of a game comes from its own seed.

Each draw is derived from ``(seed, purpose, index)`` by BLAKE2b, so a game shares no
generator with anything else, a clone copies no generator state, and the same settings,
seed and actions give the same cards on every machine and Python version.

A shuffle reads one 512-bit digest as a number below 52! (draws at or above the largest
multiple of 52! below 2**512 are rejected and redrawn, so every order of the deck is
exactly equally likely) and decodes it as a Lehmer code. That is one hash and about fifty
small divisions: faster than ``random.shuffle``, which matters when a simulation deals
millions of decks.

The computer players draw far more often (the strong bot thousands of times per
decision), too often for a hash per draw, so they use :class:`SeededRandom`: a small
generator (xoshiro128++) whose state is seeded from one such digest. Python's
``random.Random`` guarantees only its ``random()`` sequence across versions (``choice``,
``randrange``, ``sample`` and ``shuffle`` have changed before), so no figure of the project
depends on it: a seed gives the same bot choices, and so the same simulation figures, on
every Python version and every node of a cluster, compiled or not.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from math import factorial
from typing import Final, TypeVar

T = TypeVar("T")

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
    """A ``random.Random`` seeded from one draw, for code outside the project's figures.

    Only its ``random()`` sequence is the same on every Python version: bots and
    simulations use :class:`SeededRandom` instead.
    """
    return random.Random(_digest(seed, purpose, index, 0))


#: The purpose of a computer player's generator (the deal's purposes are the games').
PURPOSE_BOT: Final = 0x626F74
_MASK32: Final = 0xFFFFFFFF
#: Below this bound :meth:`SeededRandom.below` multiplies one 32-bit draw by the bound:
#: the product stays a small integer (under 2**62), which compiled code keeps unboxed.
_SMALL_BOUND: Final = 1 << 30
_TWO_POW_26: Final = 67108864.0
_TWO_POW_53: Final = 9007199254740992.0


class SeededRandom:
    """A fast seeded generator whose every draw is defined here, in integers.

    The state is xoshiro128++ (four 32-bit words; Blackman and Vigna), seeded from the
    BLAKE2b digest of ``(seed, purpose, index)`` like every other draw of the project.
    Each method is written in plain integer arithmetic masked to 32 bits, so the
    compiled module and the plain one, and every Python version, give the same numbers.
    Statistical quality is far beyond what choosing among cards needs.
    """

    __slots__ = ("_s0", "_s1", "_s2", "_s3")

    def __init__(self, seed: int, purpose: int = PURPOSE_BOT, index: int = 0) -> None:
        digest = _digest(seed, purpose, index, 0)
        self._s0 = digest & _MASK32
        self._s1 = (digest >> 32) & _MASK32
        self._s2 = (digest >> 64) & _MASK32
        self._s3 = (digest >> 96) & _MASK32
        if not (self._s0 | self._s1 | self._s2 | self._s3):
            self._s0 = 1  # the one state xoshiro never leaves (odds 2**-128)

    def next32(self) -> int:
        """The next 32 random bits, as a whole number below 2**32."""
        s0 = self._s0
        s1 = self._s1
        s2 = self._s2
        s3 = self._s3
        total = (s0 + s3) & _MASK32
        result = ((((total << 7) & _MASK32) | (total >> 25)) + s0) & _MASK32
        t = (s1 << 9) & _MASK32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s0 = s0
        self._s1 = s1
        self._s2 = s2
        self._s3 = ((s3 << 11) & _MASK32) | (s3 >> 21)
        return result

    def below(self, bound: int) -> int:
        """A uniformly random whole number in ``range(bound)``.

        Small bounds (nearly all) take Lemire's method: one multiplication, and a redraw
        only for the few products that would make some results likelier than others.
        Larger bounds draw as many bits as the bound needs and reject those past it.
        """
        if bound <= 0:
            raise ValueError(f"the bound must be at least 1, not {bound}")
        if bound < _SMALL_BOUND:
            product = self.next32() * bound
            low = product & _MASK32
            if low < bound:
                threshold = (_MASK32 + 1 - bound) % bound
                while low < threshold:
                    product = self.next32() * bound
                    low = product & _MASK32
            return product >> 32
        bits = (bound - 1).bit_length()
        while True:
            value = self.bits(bits)
            if value < bound:
                return value

    def bits(self, count: int) -> int:
        """A whole number of ``count`` random bits (the high bits of the draws)."""
        value = 0
        left = count
        while left > 0:
            word = self.next32()
            if left < 32:
                word >>= 32 - left
                value = (value << left) | word
            else:
                value = (value << 32) | word
            left -= 32
        return value

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits (as CPython's ``random()`` builds it)."""
        high = self.next32() >> 5
        low = self.next32() >> 6
        return (high * _TWO_POW_26 + low) / _TWO_POW_53

    def randrange(self, start: int, stop: int) -> int:
        """A uniformly random whole number in ``range(start, stop)``."""
        if stop <= start:
            raise ValueError(f"empty range({start}, {stop})")
        return start + self.below(stop - start)

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, each equally likely."""
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Put ``items`` in a uniformly random order, in place (Fisher and Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
