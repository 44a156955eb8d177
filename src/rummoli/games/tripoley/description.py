"""Tripoley (Cadaco, 1932): nine sections staked by everyone, paid to the cards held at the
deal; a round of poker for the Pot, opened by the dealer; then Michigan's runs, the first
player out taking the Kitty and a chip a card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, HouseRule
from rummoli.games.stops import layout as lay
from rummoli.games.stops.common import (
    chips_rules,
    family_layout,
    poker_rules,
    run_rules,
    settlement_rules,
    single_card_spaces,
    widow_rules,
)
from rummoli.games.stops.describe import family_description
from rummoli.games.stops.game import FamilyGame, declared_game
from rummoli.games.stops.layout import Space

#: The pay sections, in board order: the hearts, K-Q of hearts, 8-9-10 of one suit.
SECTIONS = (
    *single_card_spaces("AH", "KH", "QH", "JH", "10H"),
    ("KQH", ("QH", "KH")),
    ("8910", ("8*", "9*", "10*")),
)
#: The deluxe board's corners: the other three aces.
CORNERS = single_card_spaces("AC", "AD", "AS")

HOUSE_RULES = (
    *chips_rules(),
    HouseRule(
        "pay_when",
        "held",
        CHOICE,
        "'held': a section pays the player who holds its cards at the deal (Cadaco); "
        "'played': it pays when they are played in the runs (the home reading)",
        choices=("held", "played"),
    ),
    HouseRule(
        "split_8910",
        False,
        BOOL,
        "8-9-10 held in several suits: the holders share the section (else the first from "
        "the dealer's left takes it)",
    ),
    HouseRule("aces", False, BOOL, "the deluxe board: the other three aces at the corners"),
    *widow_rules("none", True, "dead hand"),
    *poker_rules("betting"),
    HouseRule(
        "leader",
        "dealer",
        CHOICE,
        "who leads the runs: the 'dealer' (Cadaco) or the 'poker_winner'",
        choices=("dealer", "poker_winner"),
    ),
    *run_rules(),
    *settlement_rules("one_poker_hand", betting=True),
)


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    """Tripoley under ``values``."""
    when = lay.HELD if values["pay_when"] == "held" else lay.PLAYED
    cards = SECTIONS + (CORNERS if values["aces"] else ())
    spaces = [Space("pot", role=lay.POKER)]
    for name, way in cards:
        spaces.append(Space(name, way, when=when, split=name == "8910" and values["split_8910"]))
    spaces.append(Space("kitty", role=lay.KITTY))
    return family_layout(
        game,
        values,
        spaces=tuple(spaces),
        spare=lay.AFTER_DEALER,
        poker_opener=lay.DEALER,
        leader=lay.DEALER if values["leader"] == "dealer" else lay.POKER_WINNER,
    )


#: Its name, seats, board, summary and presets: ``game.toml``.
GAME = declared_game(__package__, HOUSE_RULES, make_layout)

DESCRIPTION = family_description(GAME)
