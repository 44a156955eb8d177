"""Poker hand strength for hands of 5 to 26 (in fact up to 52) cards, in pure Python.

Rummoli's poker pot goes to the best five-card poker hand a player can make from the
cards they hold, and players hold far more than seven cards, so the usual seven-card
evaluators do not fit.  Trying all five-card subsets is hopeless (26 cards have 65,780 of
them), so this module reads the answer straight off the hand mask instead.

How :func:`hand_key` works
--------------------------
A hand is a 52-bit mask with one 13-bit rank field per suit (see :mod:`rummoli.cards`).
From the four suit fields ``c, d, h, s`` a handful of bitwise operations give the
*multiplicity masks*: the ranks held at least twice (``p2``), three times (``p3``) and four
times (``p4``).  The best hand then follows from a few 8192-entry tables indexed by a
13-bit rank mask (highest one/two/three/five ranks, straight in a rank mask, flush value
of a suit), with the common hands decided after only a few dozen bytecodes.  Nothing is
allocated per call except the small ints the arithmetic produces.

Keys
----
A key is ``category << 26 | primary << 13 | secondary`` where ``primary`` and
``secondary`` are 13-bit rank masks (bit ``r`` = rank ``r``):

=================  ========================  ==========================
category           primary                   secondary
=================  ========================  ==========================
0 high card        --                        the five ranks
1 pair             the pair's rank           the three kickers
2 two pair         the two pairs' ranks      the kicker
3 three of a kind  the trips' rank           the two kickers
4 straight         --                        bit of the top rank
5 flush            --                        the five ranks
6 full house       the trips' rank           the pair's rank
7 four of a kind   the quads' rank           the kicker
8 straight flush   --                        bit of the top rank
=================  ========================  ==========================

Two masks with the same number of bits compare, as integers, exactly as their ranks
compare high card by high card, so plain integer comparison of keys ranks hands, and two
keys are equal exactly when the hands tie (suits never break ties).  The wheel
(A-2-3-4-5) has top rank five, so it is the lowest straight; Q-K-A-2-3 is not a straight.

:func:`hand_key` does not check its argument: a mask of fewer than five cards gives a
meaningless key, and a mask with bits above 51 (or a negative one) raises ``IndexError``
or gives a meaningless key.  Checking would cost about a tenth of a call, and callers
pass real hands; :func:`evaluate`, :func:`best_five` and :func:`checked_hand_key` check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from rummoli.cards import NUM_CARDS, NUM_RANKS, RANKS

__all__ = [
    "CATEGORY_NAMES",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "PAIR",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "HandValue",
    "best_five",
    "category_name",
    "category_of",
    "checked_hand_key",
    "describe",
    "evaluate",
    "hand_key",
]

HIGH_CARD: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8

CATEGORY_NAMES: Final[tuple[str, ...]] = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

_CATEGORY_SHIFT: Final = 26
_PRIMARY_SHIFT: Final = NUM_RANKS
_FIELD: Final = (1 << NUM_RANKS) - 1
_TABLE_SIZE: Final = 1 << NUM_RANKS
_WHEEL: Final = 0b1_0000_0000_1111  # A, 5, 4, 3, 2
_FIVE_HIGH: Final = 3  # rank index of the five, the top card of the wheel


def _top_tables(size: int, deepest: int) -> list[list[int]]:
    """``tables[k][m]`` = the ``k`` highest set bits of rank mask ``m``, for k <= deepest.

    Built by recurrence on the highest bit (``top_k(m) = high | top_(k-1)(m - high)``),
    which keeps the import fast: about a list comprehension per table.
    """
    high = [0] + [1 << (m.bit_length() - 1) for m in range(1, size)]
    tables = [[0] * size]
    for _ in range(deepest):
        prev = tables[-1]
        tables.append([h + prev[m - h] for m, h in enumerate(high)])
    return tables


def _straight_top_bit(ranks: int) -> int:
    """One-hot bit of the highest straight's top rank in a rank mask, or 0 for none."""
    starts = ranks & ranks >> 1 & ranks >> 2 & ranks >> 3 & ranks >> 4  # bit i: run i..i+4
    if starts:
        return 1 << (starts.bit_length() + 3)
    return 1 << _FIVE_HIGH if ranks & _WHEEL == _WHEEL else 0


def _key(category: int, primary: int, secondary: int) -> int:
    return category << _CATEGORY_SHIFT | primary << _PRIMARY_SHIFT | secondary


#: ``_TOPS[n]``: the highest n ranks of each 13-bit rank mask (n = 0 to 5).
_TOPS: Final = _top_tables(_TABLE_SIZE, 5)
#: The one-hot bit of each rank mask's highest straight's top rank (0: none). Tops are
#: one-hot bits, not rank numbers, so the straight flushes of several suits combine with
#: ``|`` and the best one is just the highest bit: that saves a ``max`` over the suits on
#: the hot path.
_STRAIGHT_BIT: Final = [_straight_top_bit(m) for m in range(_TABLE_SIZE)]
#: One suit's rank mask -> its flush key (a straight flush's if the suit has a straight),
#: 0 below five cards: :func:`hand_key` and :func:`five_of` read it.
_FLUSH: Final = [
    (_key(STRAIGHT_FLUSH, 0, b) if b else _key(FLUSH, 0, t5)) if m.bit_count() >= 5 else 0
    for m, b, t5 in zip(range(_TABLE_SIZE), _STRAIGHT_BIT, _TOPS[5], strict=True)
]


def _make_hand_key() -> Callable[[int], int]:
    """Build :func:`hand_key` as a closure over its lookup tables, each indexed by a
    13-bit rank mask.

    The tables are built here as locals, so they become closure cells (``LOAD_DEREF``,
    about as cheap as a local) instead of default arguments, which keeps the public
    signature honest at no measurable cost.
    """
    _, top1, top2, top3, _, top5 = _TOPS
    flush = _FLUSH
    straight = [_key(STRAIGHT, 0, b) if b else 0 for b in _STRAIGHT_BIT]
    # Straight if there is one, else the high-card key: all a no-pair hand needs.
    straight_or_high = [s or t5 for s, t5 in zip(straight, top5, strict=True)]
    # A straight within one suit is a straight flush.
    sf_bit = _STRAIGHT_BIT
    sf_key = [_key(STRAIGHT_FLUSH, 0, 0) | t if t else 0 for t in top1]
    quads_key = [_key(FOUR_OF_A_KIND, 0, 0) | t << _PRIMARY_SHIFT for t in top1]
    full_house_key = [_key(FULL_HOUSE, 0, 0) | t << _PRIMARY_SHIFT for t in top1]
    trips_key = [_key(THREE_OF_A_KIND, 0, 0) | t << _PRIMARY_SHIFT for t in top1]
    # Pairs mask -> (key without kickers, ranks used by the pairs).  One pair keeps
    # three kickers, two or more pairs keep the best two pairs and one kicker.
    single = [m.bit_count() == 1 for m in range(_TABLE_SIZE)]
    pairs_key = [
        _key(PAIR, m, 0) if one else _key(TWO_PAIR, t2, 0)
        for m, one, t2 in zip(range(_TABLE_SIZE), single, top2, strict=True)
    ]
    pairs_used = [
        m if one else t2 for m, one, t2 in zip(range(_TABLE_SIZE), single, top2, strict=True)
    ]
    # Kicker table per pairs mask: three kickers for one pair, one for two pairs.
    pair_kickers = [top3 if m.bit_count() == 1 else top1 for m in range(_TABLE_SIZE)]
    # One suit's flush key is below 9 << 26 (written as a literal below, since constants
    # load faster than closure cells); two or more flush suits sum to at least that.
    assert _key(STRAIGHT_FLUSH, 0, 1 << 12) < 0x24000000 == _key(9, 0, 0) <= 2 * _key(FLUSH, 0, 0)
    max_ = max

    def hand_key(mask: int) -> int:
        """Strength key of the best five cards in ``mask``: higher is better, equal ties.

        Works for any 5..52 cards.  Does not validate (see the module docstring).
        """
        # Each operation costs about 20 ns here, so the code below counts them.  Only the
        # first two touch the two-digit 52-bit int; the rest work on one-digit ints.
        # ``+`` and ``-`` replace ``|`` and ``^`` wherever the bits are disjoint or a
        # subset, because CPython specialises int addition and subtraction but not
        # bitwise operators.
        low = mask & 0x3FFFFFF
        high = mask >> 26
        c = low & 8191
        d = low >> 13
        h = high & 8191
        s = high >> 13
        cd = c & d
        hs = h & s
        cd_any = c | d
        hs_any = h | s
        trips = (cd & hs_any) | (hs & cd_any)
        if trips:
            # Full house and quads are possible, and only a straight flush beats them.
            sf = sf_bit[c] | sf_bit[d] | sf_bit[h] | sf_bit[s]
            if sf:
                return sf_key[sf]
            quads = cd & hs
            if quads:
                return quads_key[quads] + top1[(cd_any | hs_any) - top1[quads]]
            # A second trips counts as the pair of a full house.
            rest = (cd | hs | (cd_any & hs_any)) - top1[trips]
            if rest:
                return full_house_key[trips] + top1[rest]
            # Exactly one trips and no pair: a flush or straight would beat it.
            f = flush[c] + flush[d] + flush[h] + flush[s]
            if f:
                if f >= 0x24000000:
                    return max_(flush[c], flush[d], flush[h], flush[s])
                return f
            ranks = cd_any | hs_any
            return straight[ranks] or trips_key[trips] + top2[ranks - trips]
        # No trips: a flush (or straight flush) beats everything left.  The sum is the
        # flush key when at most one suit has five cards, always so for up to 9 cards.
        f = flush[c] + flush[d] + flush[h] + flush[s]
        if f:
            if f >= 0x24000000:
                return max_(flush[c], flush[d], flush[h], flush[s])
            return f
        ranks = cd_any | hs_any
        pairs = cd | hs | (cd_any & hs_any)
        if pairs:
            return straight[ranks] or (
                pairs_key[pairs] + pair_kickers[pairs][ranks - pairs_used[pairs]]
            )
        return straight_or_high[ranks]

    return hand_key


hand_key: Final = _make_hand_key()


def _check_mask(mask: int) -> None:
    if not isinstance(mask, int) or mask < 0 or mask >> NUM_CARDS:
        raise ValueError(f"not a hand mask: {mask!r}")
    if mask.bit_count() < 5:
        raise ValueError(f"a poker hand needs at least 5 cards, got {mask.bit_count()}")


def checked_hand_key(mask: int) -> int:
    """:func:`hand_key` after checking that ``mask`` is a hand of at least five cards."""
    _check_mask(mask)
    return hand_key(mask)


def category_of(key: int) -> int:
    """The category number (0 = high card .. 8 = straight flush) of a key."""
    return key >> _CATEGORY_SHIFT


def category_name(key: int) -> str:
    """The category name of a key, e.g. ``"full house"``."""
    return CATEGORY_NAMES[key >> _CATEGORY_SHIFT]


#: The ranks of every 13-bit rank mask, highest first.
_RANKS_DESC: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(r for r in range(NUM_RANKS - 1, -1, -1) if ranks >> r & 1) for ranks in range(1 << 13)
)
#: For a 4-bit pattern of the suits holding one rank (bit s = suit s), the suits high to low.
_SUITS_DESC: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(s for s in range(3, -1, -1) if pattern >> s & 1) for pattern in range(16)
)
#: How many cards of each primary rank a category's best five holds (0: no primary).
_PRIMARY_SIZE: Final = (0, 2, 2, 3, 0, 0, 3, 4, 0)


def _ranks_desc(ranks: int) -> list[int]:
    return list(_RANKS_DESC[ranks])


def _straight_ranks(top_bit: int) -> list[int]:
    """The five ranks of the straight with top-rank bit ``top_bit``, top card first."""
    top = top_bit.bit_length() - 1
    return [(top - i) % NUM_RANKS for i in range(5)]  # the wheel wraps to the ace last


def _rank_groups(key: int) -> list[tuple[int, int]]:
    """(rank, how many cards of it) of a non-flush key's best five, most important first."""
    category = key >> _CATEGORY_SHIFT
    secondary = key & _FIELD
    if category == STRAIGHT:
        return [(r, 1) for r in _straight_ranks(secondary)]
    size = _PRIMARY_SIZE[category]
    groups = [(r, size) for r in _RANKS_DESC[key >> _PRIMARY_SHIFT & _FIELD]]
    second_size = 2 if category == FULL_HOUSE else 1
    groups += [(r, second_size) for r in _RANKS_DESC[secondary]]
    return groups


def best_five(mask: int) -> list[int]:
    """One best five-card selection from ``mask``, most important cards first.

    Deterministic tie rule: when several five-card choices give the same key, take each
    needed rank from the highest suits held (spades, hearts, diamonds, clubs), and for a
    flush or straight flush the highest suit among those giving the best one.  Order:
    the larger groups first (quads, trips, pairs, each highest rank first, suits high to
    low), then kickers high to low; straights from the top card down (the wheel's ace
    last).  Raises ``ValueError`` for fewer than five cards.
    """
    _check_mask(mask)
    return five_of(mask, hand_key(mask))


def five_of(mask: int, key: int) -> list[int]:
    """The best five cards of ``mask`` whose :func:`hand_key` is ``key`` (unchecked: for
    callers that already hold the key, such as a showdown that also ranks the hands)."""
    category = key >> _CATEGORY_SHIFT
    if category in (FLUSH, STRAIGHT_FLUSH):
        for suit in range(3, -1, -1):
            if _FLUSH[mask >> (NUM_RANKS * suit) & _FIELD] == key:
                break
        else:  # pragma: no cover - hand_key found this flush, so some suit has it
            raise AssertionError("flush key without a flush suit")
        secondary = key & _FIELD
        ranks = _straight_ranks(secondary) if category == STRAIGHT_FLUSH else _ranks_desc(secondary)
        return [suit * NUM_RANKS + r for r in ranks]
    cards: list[int] = []
    for rank, count in _rank_groups(key):
        column = mask >> rank
        pattern = (column & 1) | (column >> 12 & 2) | (column >> 24 & 4) | (column >> 36 & 8)
        cards += [s * NUM_RANKS + rank for s in _SUITS_DESC[pattern][:count]]
    return cards


class HandValue(NamedTuple):
    """A hand's key, its category name, and the best five cards (most important first)."""

    key: int
    category: str
    cards: tuple[int, ...]


def evaluate(mask: int) -> HandValue:
    """Key, category name and best five cards of a hand; ``ValueError`` below five cards."""
    cards = best_five(mask)
    key = hand_key(mask)
    return HandValue(key, CATEGORY_NAMES[key >> _CATEGORY_SHIFT], tuple(cards))


_RANK_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)


def _plural(rank: int) -> str:
    return "sixes" if rank == 4 else _RANK_NAMES[rank] + "s"


def _join(ranks: list[int]) -> str:
    return "-".join(RANKS[r] for r in ranks)


def describe(key: int) -> str:
    """A hand key in words, e.g. ``"full house, kings over sevens"``."""
    category = key >> _CATEGORY_SHIFT
    primary = _ranks_desc(key >> _PRIMARY_SHIFT & _FIELD)
    secondary = _ranks_desc(key & _FIELD)
    name = CATEGORY_NAMES[category]
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        top = secondary[0]
        if category == STRAIGHT_FLUSH and top == NUM_RANKS - 1:
            return "straight flush, ace high (royal flush)"
        return f"{name}, {_RANK_NAMES[top]} high"
    if category in (HIGH_CARD, FLUSH):
        return f"{name}, {_RANK_NAMES[secondary[0]]} high ({_join(secondary)})"
    if category == FULL_HOUSE:
        return f"{name}, {_plural(primary[0])} over {_plural(secondary[0])}"
    if category == TWO_PAIR:
        first, second = primary
        return f"{name}, {_plural(first)} and {_plural(second)}, {_RANK_NAMES[secondary[0]]} kicker"
    kickers = "kicker" if len(secondary) == 1 else "kickers"
    return f"{name}, {_plural(primary[0])}, {kickers} {_join(secondary)}"
