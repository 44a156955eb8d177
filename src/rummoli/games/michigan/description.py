"""Michigan (Boodle, Stops): four boodle cards from another pack, the dealer staking two
chips on each, a dead spare hand, runs in suit with a new suit after each stop; the first
player out is paid a chip a card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, HouseRule
from rummoli.games.rummoli.board import SPACES
from rummoli.games.stops import layout as lay
from rummoli.games.stops.common import (
    chips_rules,
    family_layout,
    run_rules,
    settlement_rules,
    single_card_spaces,
    widow_rules,
)
from rummoli.games.stops.describe import family_description
from rummoli.games.stops.game import FamilyGame, declared_game
from rummoli.games.stops.layout import Space

#: The boodle cards: ace of hearts, king of clubs, queen of diamonds, jack of spades.
BOODLES = ("AH", "KC", "QD", "JS")
#: "Michigan Kitty": Rummoli's money cards (its board's pay spaces: no poker space, no
#: centre).
MONEY_CARDS = tuple((space.name, space.cards) for space in SPACES if space.role == lay.PAY)

HOUSE_RULES = (
    *chips_rules(),
    HouseRule(
        "board",
        "boodles",
        CHOICE,
        "'boodles': the four boodle cards AH KC QD JS; 'money_cards': Rummoli's seven "
        "money cards and a kitty (Michigan Kitty)",
        choices=("boodles", "money_cards"),
    ),
    HouseRule(
        "dealer_stake",
        "double",
        CHOICE,
        "'double': the dealer stakes 2 chips on each boodle, the others 1; 'single': "
        "everyone stakes 1",
        choices=("double", "single"),
    ),
    HouseRule("kitty", False, BOOL, "a kitty everyone stakes 1 on, taken by the first player out"),
    *widow_rules("none", False, "spare hand"),
    *run_rules(),
    *settlement_rules(),
)


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    """Michigan under ``values``."""
    extra = 1 if values["dealer_stake"] == "double" else 0
    cards = single_card_spaces(*BOODLES) if values["board"] == "boodles" else MONEY_CARDS
    spaces = [Space(name, way, dealer_stake=extra) for name, way in cards]
    if values["kitty"] or values["board"] == "money_cards":
        spaces.append(Space("kitty", role=lay.KITTY))
    return family_layout(game, values, spaces=tuple(spaces), spare=lay.FIRST, leader=lay.LEFT)


#: Its name, seats, board, summary and presets: ``game.toml``.
GAME = declared_game(__package__, HOUSE_RULES, make_layout)

DESCRIPTION = family_description(GAME)
