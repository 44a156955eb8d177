"""Cheap measures of a hand that every computer player shares.

Two questions decide almost everything in a round of Rummoli: how good is this hand at
poker (the poker space, and who leads), and how fast can it be laid out (the rummoli
space and one chip per card from every other player). Both must be answered in about a
microsecond, because the strong bot asks them for every hand of every sampled deal.

Poker strength is a percentile: the share of random hands *of the same size* that this
hand's best five beats or ties. Hand size matters a lot in Rummoli (a 17-card hand of a
two-player table almost always holds a flush; a 6-card hand of an eight-player table
rarely holds two pair), so a key alone says little. The percentile tables are sampled
once per hand size, lazily, from a fixed seed of the project's own generator
(:mod:`rummoli.engine.rng`), so every bot on every machine and Python version gets the
same tables and the same decisions whatever order it asks in.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

from rummoli.cards import NUM_RANKS
from rummoli.engine.rng import shuffled_deck
from rummoli.poker import hand_key

#: Random hands sampled per hand size for the percentile tables (about 25 ms per size).
TABLE_SAMPLES: Final = 2000
#: The seed of the percentile tables: hand ``i`` of ``size`` cards is the first ``size``
#: cards of the project's deck ``(TABLE_SEED, size, i)``, the same on every machine.
TABLE_SEED: Final = 7919
MIN_POKER_CARDS: Final = 5

#: Bits of the four twos: the cards with no lower card of their suit.
_RANK0: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
_NOT_RANK0: Final = ((1 << 52) - 1) ^ _RANK0

_key_tables: Final[dict[int, list[int]]] = {}

#: ``key * 64 + size`` -> :func:`poker_percentile` of that key among ``size``-card hands
#: (``size`` is below 64), remembered because betting asks the same few keys again and
#: again: the same floats, found with one dictionary lookup instead of a bisection.
_percentiles: Final[dict[int, float]] = {}
#: Entries the percentile cache holds before it starts again (bounds its memory).
_PERCENTILE_CACHE_LIMIT: Final = 1 << 16


def _keys_for(size: int) -> list[int]:
    """Sorted hand keys of random hands of ``size`` cards (sampled once, fixed seed)."""
    table = _key_tables.get(size)
    if table is None:
        keys = []
        for i in range(TABLE_SAMPLES):
            mask = 0
            for card in shuffled_deck(TABLE_SEED, size, i)[:size]:
                mask |= 1 << card
            keys.append(hand_key(mask))
        keys.sort()
        table = _key_tables[size] = keys
    return table


def poker_percentile(key: int, size: int) -> float:
    """Share of random ``size``-card hands whose best five this key beats or ties."""
    size = min(max(size, MIN_POKER_CARDS), 52 - MIN_POKER_CARDS)
    keys = _keys_for(size)
    return bisect_right(keys, key) / len(keys)


def win_chance(key: int, size: int, opponent_sizes: list[int]) -> float:
    """Chance that a hand with ``key`` beats every opponent (hands treated as independent).

    An opponent's hand of ``m`` cards beats ours with chance ``1 - percentile`` of our key
    among ``m``-card hands; independence ignores card removal, which is small next to the
    uncertainty a bot has anyway.
    """
    chance = 1.0
    cache = _percentiles
    base = key << 6
    for m in opponent_sizes:
        percentile = cache.get(base + m)
        if percentile is None:
            percentile = poker_percentile(key, m)
            if len(cache) >= _PERCENTILE_CACHE_LIMIT:
                cache.clear()
            cache[base + m] = percentile
        chance *= percentile
    return chance


def run_starts(hand: int) -> int:
    """How many runs (maximal sequences of one suit) a hand holds.

    Each run is a stop to get past: a run ends when the next card is elsewhere, and the
    hand goes out sooner the fewer runs it has. Cheap: one shift, two ANDs, a bit count.
    """
    return (hand & ~((hand << 1) & _NOT_RANK0)).bit_count()


def own_run_length(hand: int, card: int) -> int:
    """How many cards from ``card`` up (same suit, no gap) lie in ``hand``, ``card`` included."""
    length = 1
    rank = card % NUM_RANKS
    while rank < NUM_RANKS - 1 and hand >> (card + length) & 1:
        length += 1
        rank += 1
    return length
