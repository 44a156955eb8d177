"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` with rank 0..12 for 2..A and suit 0..3 for C, D, H, S.
That layout puts each suit's ranks in one 13-bit field of a hand mask, so the poker
evaluator and the Rummoli run logic read "which ranks of this suit" with one shift
and one AND, and "the next card of the same suit" is simply ``card + 1`` (unless the
card is an ace).

Text form: rank ``2``-``9``, ``T`` (or ``10``), ``J Q K A``, then suit ``C D H S``,
case-insensitive, the suit symbols ``♣ ♦ ♥ ♠`` (and their white forms) accepted too.
Output always uses the two-letter form (``TS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "CDHS"
NUM_RANKS: Final = 13
NUM_SUITS: Final = 4
NUM_CARDS: Final = 52
FULL_DECK: Final = (1 << NUM_CARDS) - 1
SUIT_FIELD: Final = (1 << NUM_RANKS) - 1

ACE: Final = 12
KING: Final = 11
QUEEN: Final = 10
JACK: Final = 9
TEN: Final = 8

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

_SUIT_SYMBOLS: Final = {
    "♣": "C",
    "♧": "C",
    "♦": "D",
    "♢": "D",
    "♥": "H",
    "♡": "H",
    "♠": "S",
    "♤": "S",
}


class CardError(ValueError):
    """Raised for card text that names no card, or a list of cards that is not a valid hand."""


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = two .. 12 = ace) and ``suit`` (0 = clubs .. 3 = spades)."""
    return suit * NUM_RANKS + rank


def rank_of(card: int) -> int:
    return card % NUM_RANKS


def suit_of(card: int) -> int:
    return card // NUM_RANKS


def is_red(card: int) -> bool:
    """Diamonds and hearts are red; clubs and spades are black."""
    suit = card // NUM_RANKS
    return suit in (DIAMONDS, HEARTS)


def order_key(card: int) -> int:
    """Canonical order: by rank, then suit C < D < H < S (so ``2C < 2D < ... < AS``)."""
    return (card % NUM_RANKS) * NUM_SUITS + card // NUM_RANKS


def card_from_order_key(key: int) -> int:
    return (key % NUM_SUITS) * NUM_RANKS + key // NUM_SUITS


def card_str(card: int) -> str:
    """Two-letter text of a card, e.g. ``TS`` for the ten of spades."""
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"no card has the number {card}")
    return RANKS[card % NUM_RANKS] + SUITS[card // NUM_RANKS]


def parse_card(text: object) -> int:
    """Parse one card's text; raise :class:`CardError` naming the text if it is not a card."""
    if not isinstance(text, str):
        raise CardError(f"a card must be text such as 'TS', not {text!r}")
    raw = text.strip()
    if not raw:
        raise CardError("empty card text")
    suit_char = _SUIT_SYMBOLS.get(raw[-1], raw[-1].upper())
    rank_text = raw[:-1].upper()
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit_char not in SUITS:
        raise CardError(f"unknown card {text!r}")
    return make_card(RANKS.index(rank_text), SUITS.index(suit_char))


def parse_cards(texts: Iterable[object], *, what: str = "cards") -> list[int]:
    """Parse several cards, refusing duplicates (a deck has each card once)."""
    if isinstance(texts, str) or not isinstance(texts, Iterable):
        raise CardError(f"{what} must be a list of cards")
    cards: list[int] = []
    seen = 0
    for text in texts:
        card = parse_card(text)
        if seen >> card & 1:
            raise CardError(f"duplicate card {card_str(card)} in {what}")
        seen |= 1 << card
        cards.append(card)
    return cards


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in card-number order (suit by suit)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def sorted_by_rank(cards: Iterable[int]) -> list[int]:
    """Cards in canonical order: lowest rank first, then suit C < D < H < S."""
    return sorted(cards, key=order_key)


def sorted_by_suit(cards: Iterable[int]) -> list[int]:
    """Cards grouped by suit (C, D, H, S), each suit low to high: how players hold them."""
    return sorted(cards)


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def suit_ranks(mask: int, suit: int) -> int:
    """The 13-bit rank mask of one suit in a hand mask."""
    return (mask >> (suit * NUM_RANKS)) & SUIT_FIELD


RED_MASK: Final = (SUIT_FIELD << (DIAMONDS * NUM_RANKS)) | (SUIT_FIELD << (HEARTS * NUM_RANKS))
BLACK_MASK: Final = FULL_DECK ^ RED_MASK


def colour_mask(red: bool) -> int:
    return RED_MASK if red else BLACK_MASK
