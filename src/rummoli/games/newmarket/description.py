"""Newmarket (Horses): four horses from another pack on which each player places his chips
as he likes, a kitty everyone stakes, a dummy hand the dealer may take; the lowest club
leads, and after a stop the lowest card of the other colour; the first player out takes
the kitty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, INT, HouseRule
from rummoli.games.stops import layout as lay
from rummoli.games.stops.common import (
    chips_rules,
    family_layout,
    run_rules,
    settlement_rules,
    widow_rules,
)
from rummoli.games.stops.describe import family_description
from rummoli.games.stops.game import FamilyGame, declared_game
from rummoli.games.stops.layout import Space

#: The horses: ace of hearts, king of clubs, queen of diamonds, jack of spades.
HORSES = ("AH", "KC", "QD", "JS")
#: The suit whose lowest card leads, by house rule: clubs (0) or diamonds (1).
LEAD_SUITS = {"lowest_club": (0,), "lowest_diamond": (1,)}

HOUSE_RULES = (
    *chips_rules(),
    HouseRule(
        "horse_chips",
        4,
        INT,
        "chips each player places on the horses before the deal, each on a horse of his choice",
        minimum=1,
        maximum=20,
    ),
    HouseRule(
        "horse_stake",
        "chosen",
        CHOICE,
        "'chosen': each player places his horse chips as he likes; 'each': he puts "
        "horse_chips on every horse",
        choices=("chosen", "each"),
    ),
    HouseRule("kitty_stake", 1, INT, "chips each player puts on the kitty", minimum=1, maximum=20),
    *widow_rules("exchange_only", False, "spare hand"),
    HouseRule(
        "first_lead",
        "lowest_club",
        CHOICE,
        "who leads the first run: the holder of the 'lowest_club' (or, with no club out, of "
        "the lowest card of the next suit), or of the 'lowest_diamond' (the Guardian's 2 of "
        "diamonds)",
        choices=tuple(LEAD_SUITS),
    ),
    # The first lead is first_lead's: the family's lead rule is not one of Newmarket's.
    *run_rules(
        switch="lowest_of_colour",
        switches=(
            "lowest_of_colour",
            "any_suit_of_colour",
            "any_other_suit",
            "lowest_of_other_suits",
        ),
        without=("lead",),
    ),
    HouseRule(
        "pay_per_card",
        False,
        BOOL,
        "the first player out is also paid 1 chip per card left by each other player",
    ),
    *settlement_rules(),
)


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    """Newmarket under ``values``."""
    chosen = values["horse_stake"] == "chosen"
    chips = values["horse_chips"]
    spaces = [Space(name, (name,), stake=0 if chosen else chips, chosen=chosen) for name in HORSES]
    spaces.append(Space("kitty", role=lay.KITTY, stake=values["kitty_stake"]))
    return family_layout(
        game,
        values,
        spaces=tuple(spaces),
        spare=lay.AFTER_DEALER,
        chosen_stake=chips if chosen else 0,
        leader=lay.LOWEST_OF_SUIT,
        lead_suits=LEAD_SUITS[values["first_lead"]],
        going_out=lay.PER_CARD if values["pay_per_card"] else lay.NONE,
    )


#: Its name, seats, board, summary and presets: ``game.toml``.
GAME = declared_game(__package__, HOUSE_RULES, make_layout)

DESCRIPTION = family_description(GAME)
