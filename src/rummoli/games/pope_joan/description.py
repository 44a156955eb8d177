"""Pope Joan: a round board of eight pools dressed by the dealer, the 8 of diamonds out of
the pack, the last card turned for trumps; runs up to the king, any card led after a
stop; the Pope (9 of diamonds) and the trump honours win their pools when played, the
first player out takes the Game and a counter a card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, HouseRule
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

#: The pools round the board, with their cards ("+": of trumps) and the dealer's
#: dressing (fifteen counters: six on the Pope, two each on Matrimony and Intrigue).
POOLS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("pope", ("9D",), 6),
    ("matrimony", ("Q+", "K+"), 2),
    ("intrigue", ("J+", "Q+"), 2),
    ("ace", ("A+",), 1),
    ("king", ("K+",), 1),
    ("queen", ("Q+",), 1),
    ("jack", ("J+",), 1),
)

HOUSE_RULES = (
    *chips_rules(),
    HouseRule(
        "dressing",
        "dealer",
        CHOICE,
        "who dresses the board: the 'dealer' (15 counters: 6 on the Pope, 2 on Matrimony "
        "and Intrigue, 1 on each other pool) or 'everyone' (1 counter on each pool)",
        choices=("dealer", "everyone"),
    ),
    HouseRule(
        "ace_high", False, BOOL, "aces are high (Parlett): the ace, not the king, ends a run"
    ),
    HouseRule(
        "turned_pope_ends",
        False,
        BOOL,
        "the Pope turned for trumps also gives the dealer the Game pool and ends the deal",
    ),
    *widow_rules("none", False, "spare hand"),
    *run_rules(
        "any_card",
        ("any_card", "lowest_in_hand"),
        "any_card",
        ("any_card", "lowest_of_colour"),
        without=("deadlock",),
    ),
    *settlement_rules(),
)


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    """Pope Joan under ``values``."""
    dealer = values["dressing"] == "dealer"
    spaces = [
        Space(
            name,
            cards,
            stake=0 if dealer else 1,
            dealer_stake=counters if dealer else 0,
            # (One player holding both cards of a pair lays them one after the other:
            # the run forces the second; "in a row" and "in the deal" are one rule.)
            together=lay.SAME_PLAYER,
        )
        for name, cards, counters in POOLS
    ]
    spaces.append(
        Space("game", role=lay.KITTY, stake=0 if dealer else 1, dealer_stake=1 if dealer else 0)
    )
    return family_layout(
        game,
        values,
        spaces=tuple(spaces),
        deck=51,
        ace_low=not values["ace_high"],
        spare=lay.AFTER_DEALER,
        trump=lay.KEPT_BACK,
        turned_pays_dealer=True,
        turned_ends_deal=("pope",) if values["turned_pope_ends"] else (),
        leader=lay.LEFT,
        deadlock=lay.CONTINUE,
    )


#: Its name, seats, board, summary and presets: ``game.toml``.
GAME = declared_game(__package__, HOUSE_RULES, make_layout)

DESCRIPTION = family_description(GAME)
