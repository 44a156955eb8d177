"""Rummoli's board and play as the family's data: its :class:`Layout` for a set of rules.

The board of the rulebook (RULES.md): ``poker``, the five single pay cards, ``AKD`` (the
king then the ace of diamonds, laid one after the other by one player), ``789`` (the 7,
8 and 9 of one suit, likewise) and the centre, ``rummoli``; house rule ``ace_of_spades``
off removes ``AS``. Everyone stakes a chip a space. The widow is dealt after the dealer
in each pass; a poker stage; the poker winner leads his lowest card; after a stop, the
other colour. Everything else a house rule says is copied into the layout by name.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from rummoli.cards import ACE, SPADES, make_card
from rummoli.games.stops.layout import (
    CONTINUE,
    END_ROUND,
    HOUSE_RULE_FIELDS,
    KITTY,
    OCTAGON,
    POKER,
    POKER_WINNER,
    Layout,
    Space,
)
from rummoli.games.stops.tables import BoardTables, board_tables, holds_pay_card

if TYPE_CHECKING:
    from rummoli.games.rummoli.rules import Rules

ALL_SPACES: Final = ("poker", "10S", "JD", "QC", "KH", "AS", "AKD", "789", "rummoli")
ACE_SPADES: Final = make_card(ACE, SPADES)

#: Rummoli's spaces, in board order (the order antes are paid in).
SPACES: Final = (
    Space("poker", role=POKER),
    Space("10S", ("10S",)),
    Space("JD", ("JD",)),
    Space("QC", ("QC",)),
    Space("KH", ("KH",)),
    Space("AS", ("AS",)),
    Space("AKD", ("KD", "AD")),
    Space("789", ("7*", "8*", "9*")),
    Space("rummoli", role=KITTY),
)


def space_names(ace_of_spades: bool) -> tuple[str, ...]:
    """The board's spaces in board order (the order antes are paid in)."""
    if ace_of_spades:
        return ALL_SPACES
    return tuple(s for s in ALL_SPACES if s != "AS")


#: Each rules object's layout, by the object itself (its id, the object kept with it):
#: asked at every new state, and hashing a rules object's fields to find it in the
#: cache below cost a new state a tenth of its time.
_BY_RULES: Final[dict[int, tuple[Rules, Layout]]] = {}


def rummoli_layout(rules: Rules) -> Layout:
    """Rummoli under ``rules``: the family's engine plays this (one layout for equal
    rules objects, so their board's tables are made once)."""
    entry = _BY_RULES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    layout = _layout_of(rules)
    if len(_BY_RULES) > 4096:
        _BY_RULES.clear()
    _BY_RULES[id(rules)] = (rules, layout)
    return layout


@lru_cache(maxsize=64)
def _layout_of(rules: Rules) -> Layout:
    spaces = tuple(s for s in SPACES if rules.ace_of_spades or s.name != "AS")
    return Layout(
        game="rummoli",
        spaces=spaces,
        title="Rummoli",
        min_players=2,
        max_players=8,
        rules_version=rules.rules_version,
        auction_optional=rules.auction_optional,
        leader=POKER_WINNER,
        deadlock=CONTINUE if rules.deadlock == "any_colour" else END_ROUND,
        winner_key="rummoli_winner",
        play_phase="the Rummoli phase",
        board_shape=OCTAGON,
        **{name: getattr(rules, name) for name in HOUSE_RULE_FIELDS},
    )


def pay_card_mask(ace_of_spades: bool) -> int:
    """The single pay cards (10S JD QC KH, and AS when the board has that space)."""
    return _plain_tables(ace_of_spades).pay_cards


def rummoli_holds_pay_card(hand: int, ace_of_spades: bool) -> bool:
    """Whether a hand "contains a pay card" (``pay_card_blocks_exchange``): a single pay
    card, both AD and KD, or the 7, 8 and 9 of one suit."""
    tables = _plain_tables(ace_of_spades)
    return holds_pay_card(hand, tables.pay_cards, tables.pay_combos)


def _plain_tables(ace_of_spades: bool) -> BoardTables:
    from rummoli.games.rummoli.rules import Rules

    return board_tables(rummoli_layout(Rules(ace_of_spades=ace_of_spades)))
