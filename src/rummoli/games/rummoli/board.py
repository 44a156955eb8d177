"""The Rummoli board: its spaces, and which cards are pay cards."""

from __future__ import annotations

from typing import Final

from rummoli.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    SPADES,
    TEN,
    make_card,
)

ALL_SPACES: Final = ("poker", "10S", "JD", "QC", "KH", "AS", "AKD", "789", "rummoli")

TEN_SPADES: Final = make_card(TEN, SPADES)
JACK_DIAMONDS: Final = make_card(JACK, DIAMONDS)
QUEEN_CLUBS: Final = make_card(QUEEN, CLUBS)
KING_HEARTS: Final = make_card(KING, HEARTS)
ACE_SPADES: Final = make_card(ACE, SPADES)
KING_DIAMONDS: Final = make_card(KING, DIAMONDS)
ACE_DIAMONDS: Final = make_card(ACE, DIAMONDS)
SEVEN, EIGHT, NINE = 5, 6, 7  # rank indexes of 7, 8, 9

#: A deadlock/"no space" marker for the space-index tables below.
NO_SPACE: Final = -1


def space_names(ace_of_spades: bool) -> tuple[str, ...]:
    """The board's spaces in board order (the order antes are paid in)."""
    if ace_of_spades:
        return ALL_SPACES
    return tuple(s for s in ALL_SPACES if s != "AS")


def single_card_spaces(names: tuple[str, ...]) -> list[int]:
    """For each card, the index of the space its laying wins outright, or NO_SPACE."""
    table = [NO_SPACE] * 52
    for card, name in (
        (TEN_SPADES, "10S"),
        (JACK_DIAMONDS, "JD"),
        (QUEEN_CLUBS, "QC"),
        (KING_HEARTS, "KH"),
        (ACE_SPADES, "AS"),
    ):
        if name in names:
            table[card] = names.index(name)
    return table


def pay_card_mask(ace_of_spades: bool) -> int:
    """The single pay cards (10S JD QC KH, and AS when the board has that space)."""
    mask = 0
    for card in (TEN_SPADES, JACK_DIAMONDS, QUEEN_CLUBS, KING_HEARTS):
        mask |= 1 << card
    if ace_of_spades:
        mask |= 1 << ACE_SPADES
    return mask


_AKD: Final = (1 << KING_DIAMONDS) | (1 << ACE_DIAMONDS)
_789: Final = tuple(
    (1 << make_card(SEVEN, s)) | (1 << make_card(EIGHT, s)) | (1 << make_card(NINE, s))
    for s in range(4)
)


def holds_pay_card(hand: int, single_pay_cards: int) -> bool:
    """Whether a hand "contains a pay card" in the sense of ``pay_card_blocks_exchange``:
    a single pay card, both AD and KD, or the 7, 8 and 9 of one suit."""
    if hand & single_pay_cards or hand & _AKD == _AKD:
        return True
    # Written out, not any() over a generator (its own object): asked for each seat a deal.
    c, d, h, s = _789
    return hand & c == c or hand & d == d or hand & h == h or hand & s == s
