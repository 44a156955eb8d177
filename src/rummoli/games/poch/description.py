"""Poch (Poque; German, 15th century onwards): eight pools round a centre, staked by
everyone; five cards each from a 32-card pack and a talon whose top card is turned for
trumps; the trump honours, Marriage and Sequence paid to the cards held, the Pochen (a
betting round opened only with a set, sets ranked by size, rank and trump), then
Michigan's runs, the first player out taking the centre and a chip a card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, HouseRule
from rummoli.games.stops import layout as lay
from rummoli.games.stops.common import (
    betting_rules,
    chips_rules,
    family_layout,
    run_rules,
    settlement_rules,
)
from rummoli.games.stops.describe import family_description
from rummoli.games.stops.game import FamilyGame, declared_game
from rummoli.games.stops.layout import Space

#: The pools paid to the trumps held, in board order: the five honours, Marriage (king
#: and queen of trumps), Sequence (7, 8 and 9 of trumps).
POOLS = (
    ("ace", ("A+",)),
    ("king", ("K+",)),
    ("queen", ("Q+",)),
    ("jack", ("J+",)),
    ("ten", ("10+",)),
    ("marriage", ("K+", "Q+")),
    ("sequence", ("7+", "8+", "9+")),
)
#: Five cards each, for every number of players the table may come down to.
FIVE_EACH = tuple((players, 5) for players in range(2, 7))

HOUSE_RULES = (
    *chips_rules(),
    HouseRule(
        "deal",
        "five",
        CHOICE,
        "'five': five cards each and a talon, its top card turned for trumps; "
        "'whole_pack': every card dealt but the last, turned for trumps",
        choices=("five", "whole_pack"),
    ),
    HouseRule(
        "unopened_showdown",
        False,
        BOOL,
        "nobody opens the Pochen: everyone shows and the best set takes the Poch pool "
        "(else it stays for the next deal)",
    ),
    *betting_rules(),
    HouseRule(
        "leader",
        "poker_winner",
        CHOICE,
        "who leads the runs: the 'poker_winner' (the Pochen's winner; the dealer's left "
        "when nobody won it) or the 'left_of_dealer'",
        choices=("poker_winner", "left_of_dealer"),
    ),
    # Every pool is paid to the cards held: nothing is claimed as it is laid.
    *run_rules(
        leads=("lowest_of_any_suit", "any_card"),
        switches=("any_other_suit", "any_card"),
        without=("must_claim",),
    ),
    *settlement_rules(),
)


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    """Poch under ``values``."""
    spaces = [Space("poch", role=lay.POKER)]
    spaces += [Space(name, cards, when=lay.HELD) for name, cards in POOLS]
    spaces.append(Space("centre", role=lay.KITTY))
    five = values["deal"] == "five"
    return family_layout(
        game,
        values,
        spaces=tuple(spaces),
        deck=32,
        deal=lay.TABLE if five else lay.ALL,
        deal_counts=FIVE_EACH if five else (),
        spare=lay.NONE,
        trump=lay.TALON_TOP if five else lay.KEPT_BACK,
        poker=lay.BETTING,
        hands=lay.SETS,
        open_with_set=True,
        unopened_showdown=values["unopened_showdown"],
        leader=lay.POKER_WINNER if values["leader"] == "poker_winner" else lay.LEFT,
    )


#: Its name, seats, board, summary and presets: ``game.toml``.
GAME = declared_game(__package__, HOUSE_RULES, make_layout)

DESCRIPTION = family_description(GAME)
