"""Melds of Basic Rummy: validity, the fixed catalogue of every possible meld, and lay-off fit.

Cards are the project's ints (``suit * 13 + rank``, rank 0..12 for 2..A, see
:mod:`rummoli.cards`), where the ace is the *top* of each suit's 13-bit field. Rummy plays
aces **low** with no wrap-around, so this module works with a "low rank" (A=0, 2=1, ...,
K=12) and, per suit, a low-rank field in which a run is simply a block of adjacent bits.

The catalogue lists every meld a deck allows, once: for each rank (ace first) the set of
four and the four sets of three (65 sets), then for each suit (C D H S) every run of 3 to
13 cards, by lowest card (ace first) and, from one lowest card, longest first (4 x 66 runs).
Its order is the canonical order of the MELD actions, chosen so that the first meld a hand
can make is the one that sheds most cards among those starting lowest. Every valid meld is
in the catalogue, so "is this a meld" is one dictionary lookup of its card mask.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rummoli.cards import FULL_DECK, NUM_RANKS, SUIT_FIELD, cards_of

NUM_SUITS: Final = 4
#: Low rank of the king, the top of a suit when aces are low.
KING_LOW: Final = 12
#: The highest number of melds a table can hold: 52 cards in melds of at least 3.
MAX_MELDS: Final = 17

_BIT: Final = tuple(1 << card for card in range(52))


def low_rank(card: int) -> int:
    """The card's rank with aces low: A=0, 2=1, ..., K=12."""
    return (card % NUM_RANKS + 1) % NUM_RANKS


def card_at(suit: int, low: int) -> int:
    """The card of ``suit`` whose low rank is ``low``."""
    return suit * NUM_RANKS + (low + NUM_RANKS - 1) % NUM_RANKS


def low_key(card: int) -> int:
    """Order of cards for actions and melds: by low rank (A first), then suit C < D < H < S."""
    return low_rank(card) * NUM_SUITS + card // NUM_RANKS


def card_from_low_key(key: int) -> int:
    return card_at(key % NUM_SUITS, key // NUM_SUITS)


def hand_order(card: int) -> int:
    """Order of cards in a hand shown to a player: by suit, then low rank (ace first)."""
    return card // NUM_RANKS * NUM_RANKS + low_rank(card)


def sorted_hand(cards: Iterable[int]) -> list[int]:
    return sorted(cards, key=hand_order)


def card_points(card: int) -> int:
    """What a card left in a loser's hand is worth: face cards 10, aces 1, others their rank."""
    rank = card % NUM_RANKS
    if rank == 12:
        return 1
    return 10 if rank >= 9 else rank + 2


_POINTS: Final = tuple(card_points(card) for card in range(52))


def hand_points(mask: int) -> int:
    """The points of the cards of a hand mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += _POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def suit_field_low(mask: int, suit: int) -> int:
    """The 13-bit field of ``suit`` in ``mask`` with aces low (bit 0 = ace, bit 12 = king)."""
    field = (mask >> (suit * NUM_RANKS)) & SUIT_FIELD
    return ((field << 1) & SUIT_FIELD) | (field >> 12)


def _mask_low(suit: int, low_field: int) -> int:
    """The card mask of the low ranks of ``low_field`` in ``suit`` (inverse of the above)."""
    field = (low_field >> 1) | ((low_field & 1) << 12)
    return field << (suit * NUM_RANKS)


# --------------------------------------------------------------------------- catalogue

_SET_SUITS: Final = ((0, 1, 2, 3), (0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))


def _build_catalogue() -> tuple[tuple[int, ...], dict[tuple[int, int], int]]:
    melds: list[int] = []
    sets_by_rank: dict[tuple[int, int], int] = {}
    for low in range(NUM_RANKS):
        for pattern, suits in enumerate(_SET_SUITS):
            sets_by_rank[(low, pattern)] = len(melds)
            melds.append(sum(_BIT[card_at(s, low)] for s in suits))
    for suit in range(NUM_SUITS):
        for start in range(NUM_RANKS - 2):
            for length in range(NUM_RANKS - start, 2, -1):
                melds.append(_mask_low(suit, ((1 << length) - 1) << start))
    return tuple(melds), sets_by_rank


_CATALOGUE_AND_SETS: Final = _build_catalogue()
#: Every meld a deck allows, as card masks, in the canonical order of the MELD actions.
CATALOGUE: Final = _CATALOGUE_AND_SETS[0]
_SET_INDEX: Final = _CATALOGUE_AND_SETS[1]
NUM_MELDS: Final = len(CATALOGUE)
#: The catalogue index of every valid meld, by its card mask.
MELD_INDEX: Final[dict[int, int]] = {mask: index for index, mask in enumerate(CATALOGUE)}
_FIRST_RUN: Final = 13 * len(_SET_SUITS)
_RUNS_PER_SUIT: Final = (NUM_RANKS - 2) * (NUM_RANKS - 1) // 2


def _run_index(suit: int, start: int, length: int) -> int:
    """Catalogue index of the run of ``suit`` from low rank ``start`` with ``length`` cards."""
    before = sum(NUM_RANKS - s - 2 for s in range(start))  # runs of lower starts
    return _FIRST_RUN + suit * _RUNS_PER_SUIT + before + (NUM_RANKS - start - length)


assert NUM_MELDS == 65 + 4 * 66
assert all(
    CATALOGUE[_run_index(suit, start, length)] == _mask_low(suit, ((1 << length) - 1) << start)
    for suit in range(4)
    for start in range(11)
    for length in range(3, 14 - start)
)


def is_meld(mask: int) -> bool:
    """Whether the cards of ``mask`` form one meld: a set of 3 or 4 cards of one rank, or a
    run of 3 or more cards of one suit in sequence, aces low (A-2-3 yes, Q-K-A no)."""
    return mask in MELD_INDEX


def is_set(mask: int) -> bool:
    """Whether a meld is a set (all its cards of one rank) rather than a run."""
    rank = (mask & -mask).bit_length() - 1
    column = 0
    for suit in range(NUM_SUITS):
        column |= _BIT[suit * NUM_RANKS + rank % NUM_RANKS]
    return mask & ~column == 0


def meld_cards(mask: int) -> list[int]:
    """A meld's cards in the order players read them: a set by suit, a run low to high."""
    return sorted(cards_of(mask), key=low_key)


#: ``_SET_AT[low * 5 + pattern]``: the catalogue index of the set of low rank ``low`` and
#: suits ``_SET_SUITS[pattern]`` (a flat table: the move generator reads it at every draw).
_SET_AT: Final = tuple(
    _SET_INDEX[(low, p)] for low in range(NUM_RANKS) for p in range(len(_SET_SUITS))
)
#: ``_RUN_AT[(suit * 13 + start) * 14 + length]``: the catalogue index of that run (-1:
#: none), read instead of :func:`_run_index`'s sum at every draw.
_RUN_AT: Final = tuple(
    _run_index(suit, start, length) if 3 <= length <= NUM_RANKS - start else -1
    for suit in range(NUM_SUITS)
    for start in range(NUM_RANKS)
    for length in range(NUM_RANKS + 1)
)


def melds_in(hand: int) -> list[int]:
    """Catalogue indexes of every meld made of cards of ``hand``, ascending.

    Called after every draw and every meld or lay-off (the player's options), so it
    answers a hand without a meld, the usual case, with a few mask operations: the ranks
    held in three suits or more (the sets), and each suit's aces-low field shifted onto
    itself (the runs). The tables ``_SET_AT`` and ``_RUN_AT`` replace the catalogue
    arithmetic.
    """
    c = hand & SUIT_FIELD
    d = (hand >> 13) & SUIT_FIELD
    h = (hand >> 26) & SUIT_FIELD
    s = (hand >> 39) & SUIT_FIELD
    threes = (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s)
    # Aces low: the ace (bit 12) becomes bit 0, the two (bit 0) bit 1, and so on.
    low_c = ((c << 1) & SUIT_FIELD) | (c >> 12)
    low_d = ((d << 1) & SUIT_FIELD) | (d >> 12)
    low_h = ((h << 1) & SUIT_FIELD) | (h >> 12)
    low_s = ((s << 1) & SUIT_FIELD) | (s >> 12)
    runs = (
        (low_c & (low_c >> 1) & (low_c >> 2)) != 0,
        (low_d & (low_d >> 1) & (low_d >> 2)) != 0,
        (low_h & (low_h >> 1) & (low_h >> 2)) != 0,
        (low_s & (low_s >> 1) & (low_s >> 2)) != 0,
    )
    found: list[int] = []
    if not threes and not (runs[0] or runs[1] or runs[2] or runs[3]):
        return found
    fours = c & d & h & s
    while threes:
        bit = threes & -threes
        threes ^= bit
        low = bit.bit_length() % NUM_RANKS  # the rank's low rank: (rank + 1) % 13
        if fours & bit:
            base = low * 5
            found.extend(_SET_AT[base : base + 5])
        else:
            # The pattern is 4 - the missing suit (see _SET_SUITS).
            missing = 0 if not c & bit else 1 if not d & bit else 2 if not h & bit else 3
            found.append(_SET_AT[low * 5 + 4 - missing])
    fields = (low_c, low_d, low_h, low_s)
    for suit in range(NUM_SUITS):
        if not runs[suit]:
            continue
        low_field = fields[suit]
        start = 0
        while start < NUM_RANKS - 2:
            if (low_field >> start) & 7 != 7:
                start += 1
                continue
            end = start + 3
            while end < NUM_RANKS and low_field >> end & 1:
                end += 1
            # Every start within the block [start, end) with room for three cards: each
            # start's runs, longest first (the catalogue's order, hence ascending).
            for first in range(start, end - 2):
                base = (suit * NUM_RANKS + first) * (NUM_RANKS + 1)
                for length in range(end - first, 2, -1):
                    found.append(_RUN_AT[base + length])
            start = end
    if len(found) > 1:
        found.sort()
    return found


def fit_mask(meld: int) -> int:
    """The cards that can be laid off on ``meld``: the missing fourth card of a set of three,
    the cards just below and just above a run (none below an ace, none above a king)."""
    if is_set(meld):
        if meld.bit_count() == NUM_SUITS:
            return 0
        rank = ((meld & -meld).bit_length() - 1) % NUM_RANKS
        column = sum(_BIT[s * NUM_RANKS + rank] for s in range(NUM_SUITS))
        return column & ~meld
    suit = ((meld & -meld).bit_length() - 1) // NUM_RANKS
    low_field = suit_field_low(meld, suit)
    lowest = (low_field & -low_field).bit_length() - 1
    highest = low_field.bit_length() - 1
    fit = 0
    if lowest > 0:
        fit |= _BIT[card_at(suit, lowest - 1)]
    if highest < KING_LOW:
        fit |= _BIT[card_at(suit, highest + 1)]
    return fit


def can_form_meld(mask: int) -> bool:
    """Whether any three cards of ``mask`` form a meld (three of a rank, or three in
    sequence in one suit, aces low). Asked at the start of every turn (the stalemate
    check), so written out as mask operations."""
    c = mask & SUIT_FIELD
    d = (mask >> 13) & SUIT_FIELD
    h = (mask >> 26) & SUIT_FIELD
    s = (mask >> 39) & SUIT_FIELD
    if (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s):
        return True
    for field in (c, d, h, s):
        low_field = ((field << 1) & SUIT_FIELD) | (field >> 12)
        if low_field & (low_field >> 1) & (low_field >> 2):
            return True
    return False


def outside_melds(melds: Iterable[int]) -> int:
    """The cards not in any of ``melds`` (in hands, the stock or the discard pile)."""
    table = 0
    for meld in melds:
        table |= meld
    return FULL_DECK & ~table
