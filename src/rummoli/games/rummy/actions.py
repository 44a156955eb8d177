"""The integer action space of Basic Rummy, and actions as text.

The space is fixed, the same for every state and table size, so learning environments and
fast simulations can index arrays by it. Numeric order is the canonical order, chosen so
that the first legal action is a sensible default: draw from the stock before taking the
discard; then meld (the catalogue's order: sets before runs, lowest first, the longest
first), then lay off (lowest card first, lowest meld slot first), and only then discard,
the highest card first (kings before queens ... before aces; suits C < D < H < S), because
a player who must keep cards is better off keeping the cheap ones.

==================  =================================================================
value               meaning
==================  =================================================================
0                   chance: deal (or cut, or reshuffle the discard pile into the stock)
1                   DRAW_STOCK: take the top card of the stock
2                   DRAW_DISCARD: take the top card of the discard pile
3 + m               MELD catalogue meld m (0..328, see :mod:`.melds`)
332 + 17*k + s      LAY_OFF the card of low key k (A=0..K=12 by 4, suits C D H S) on the
                    meld in table slot s (0..16)
1216 + j            DISCARD: j = (12 - low rank) * 4 + suit, so KC is 0 and AS is 51
==================  =================================================================

Texts: ``deal``, ``stock``, ``discard`` (draw the discard pile's top), ``meld 7C 7D 7H``
(any order of the cards), ``layoff 8H 2`` (card, meld slot), ``discard 9S``.
"""

from __future__ import annotations

from typing import Final

from rummoli.cards import CardError, card_str, parse_card
from rummoli.engine.base import CHANCE_ACTION, IllegalActionError
from rummoli.games.rummy.melds import (
    CATALOGUE,
    MAX_MELDS,
    MELD_INDEX,
    NUM_MELDS,
    NUM_SUITS,
    card_at,
    card_from_low_key,
    low_key,
    low_rank,
    meld_cards,
)

DRAW_STOCK: Final = 1
DRAW_DISCARD: Final = 2
MELD_BASE: Final = 3
LAYOFF_BASE: Final = MELD_BASE + NUM_MELDS
DISCARD_BASE: Final = LAYOFF_BASE + 52 * MAX_MELDS
NUM_ACTIONS: Final = DISCARD_BASE + 52


def meld_action(index: int) -> int:
    return MELD_BASE + index


def layoff_action(card: int, slot: int) -> int:
    return LAYOFF_BASE + low_key(card) * MAX_MELDS + slot


def discard_action(card: int) -> int:
    return DISCARD_BASE + (12 - low_rank(card)) * NUM_SUITS + card // 13


def is_meld_action(action: int) -> bool:
    return MELD_BASE <= action < LAYOFF_BASE


def is_layoff_action(action: int) -> bool:
    return LAYOFF_BASE <= action < DISCARD_BASE


def is_discard_action(action: int) -> bool:
    return DISCARD_BASE <= action < NUM_ACTIONS


def meld_of(action: int) -> int:
    """The card mask of a MELD action."""
    return CATALOGUE[action - MELD_BASE]


def layoff_of(action: int) -> tuple[int, int]:
    """(card, meld slot) of a LAY_OFF action."""
    key, slot = divmod(action - LAYOFF_BASE, MAX_MELDS)
    return card_from_low_key(key), slot


def discard_of(action: int) -> int:
    """The card of a DISCARD action."""
    index = action - DISCARD_BASE
    return card_at(index % NUM_SUITS, 12 - index // NUM_SUITS)


def action_to_text(action: int) -> str:
    """Short text of an action: ``stock``, ``meld 7C 7D 7H``, ``layoff 8H 2``, ``discard 9S``."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"{action!r} is not an action of Basic Rummy")
    if action == CHANCE_ACTION:
        return "deal"
    if action == DRAW_STOCK:
        return "stock"
    if action == DRAW_DISCARD:
        return "discard"
    if is_meld_action(action):
        return "meld " + " ".join(card_str(c) for c in meld_cards(meld_of(action)))
    if is_layoff_action(action):
        card, slot = layoff_of(action)
        return f"layoff {card_str(card)} {slot}"
    return f"discard {card_str(discard_of(action))}"


def _card(text: str, whole: str) -> int:
    try:
        return parse_card(text)
    except CardError as error:
        raise IllegalActionError(f"unknown action {whole!r}: {error}") from None


def action_from_text(text: object) -> int:
    """Parse the text of :func:`action_to_text`; also accepted: ``draw stock``, ``draw
    discard`` and ``take`` (the discard pile's top), ``lay off 8H 2``, ``chance`` or
    ``shuffle`` for the chance step."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be text, not {text!r}")
    words = text.strip().lower().split()
    if not words:
        raise IllegalActionError("an empty text is not an action")
    if words[:1] == ["draw"] and len(words) == 2 and words[1] in ("stock", "discard"):
        words = words[1:]
    if words[:2] == ["lay", "off"]:
        words = ["layoff", *words[2:]]
    if len(words) == 1:
        single = {"deal": CHANCE_ACTION, "chance": CHANCE_ACTION, "shuffle": CHANCE_ACTION}
        single |= {"stock": DRAW_STOCK, "discard": DRAW_DISCARD, "take": DRAW_DISCARD}
        if words[0] in single:
            return single[words[0]]
    elif words[0] == "discard" and len(words) == 2:
        return discard_action(_card(words[1], text))
    elif words[0] == "layoff" and len(words) == 3:
        card = _card(words[1], text)
        if not words[2].isdigit() or not 0 <= int(words[2]) < MAX_MELDS:
            raise IllegalActionError(
                f"{text!r}: the meld slot must be a whole number 0..{MAX_MELDS - 1}"
            )
        return layoff_action(card, int(words[2]))
    elif words[0] == "meld":
        mask = 0
        for word in words[1:]:
            card = _card(word, text)
            if mask >> card & 1:
                raise IllegalActionError(f"{text!r}: {card_str(card)} is named twice")
            mask |= 1 << card
        index = MELD_INDEX.get(mask)
        if index is None:
            raise IllegalActionError(
                f"{text!r} is not a meld: a meld is 3 or 4 cards of one rank, or 3 or more "
                "cards of one suit in sequence with aces low (A-2-3 is a run, Q-K-A is not)"
            )
        return meld_action(index)
    raise IllegalActionError(
        f"unknown action {text!r}; actions are stock, discard, meld CARDS, "
        "layoff CARD SLOT, discard CARD"
    )


def _spread_table(first: int, count: int) -> tuple[int, ...]:
    """For each field of ``count`` ranks from rank bit ``first`` of one suit (clubs): the
    mask of those cards' DISCARD actions (bit ``i``: action ``DISCARD_BASE + i``)."""
    table = []
    for field in range(1 << count):
        spread = 0
        for rank in range(count):
            if field >> rank & 1:
                spread |= 1 << (discard_action(first + rank) - DISCARD_BASE)
        table.append(spread)
    return tuple(table)


#: A suit's cards as DISCARD action bits, its 13 rank bits looked up in two halves; the
#: other suits' actions are the clubs' shifted by the suit (kings first ... aces last,
#: each rank's four suits together).
_SPREAD_LOW: Final = _spread_table(0, 7)
_SPREAD_HIGH: Final = _spread_table(7, 6)


def discard_mask(cards: int) -> int:
    """``cards`` as a mask of DISCARD actions (bit ``i``: action ``DISCARD_BASE + i``),
    so that the move generator lists a hand's discards in action order by its set bits,
    not by a loop over the 52 cards after every draw."""
    out = 0
    for suit in range(4):
        field = (cards >> (13 * suit)) & 0x1FFF
        out |= (_SPREAD_LOW[field & 0x7F] | _SPREAD_HIGH[field >> 7]) << suit
    return out
