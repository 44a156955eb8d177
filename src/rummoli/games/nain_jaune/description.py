"""Nain Jaune (France): four corners and the yellow dwarf staked one to five chips, the pack
dealt by a table with a talon, runs by rank across the suits ("sans" the rank one lacks),
the first player out paid the points left in the others' hands. Its runs by rank are the
engine's second mode (:mod:`rummoli.games.stops.ranks`), not a case of this game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.description import BOOL, CHOICE, HouseRule
from rummoli.games.stops import layout as lay
from rummoli.games.stops.common import chips_rules, claim_rule, family_layout, settlement_rules
from rummoli.games.stops.describe import family_description
from rummoli.games.stops.game import FamilyGame, declared_game
from rummoli.games.stops.layout import Space

#: The board: the four corners, then the yellow dwarf in the centre, each with the chips
#: every player stakes on it before the deal (10 of diamonds 1 ... the dwarf 5).
BOARD = (("10D", 1), ("JC", 2), ("QS", 3), ("KH", 4), ("7D", 5))
#: Cards each player is dealt, by the number of players; the rest is the talon.
DEAL_COUNTS = ((3, 15), (4, 12), (5, 9), (6, 8), (7, 7), (8, 6))

HOUSE_RULES = (
    *chips_rules(),
    HouseRule(
        "missing_rank",
        "next_rank",
        CHOICE,
        "nobody holds the next rank: 'next_rank' (the last player goes on from the rank "
        "after) or 'new_sequence' (he starts a new sequence with any card)",
        choices=("next_rank", "new_sequence"),
    ),
    HouseRule(
        "held_board_cards",
        "none",
        CHOICE,
        "a board card still in hand when a player goes out: 'none', 'stake' (its holder "
        "pays that space its stake) or 'double' (as many chips as lie on it)",
        choices=("none", "stake", "double"),
    ),
    HouseRule(
        "grand_opera",
        False,
        BOOL,
        "going out before anyone else has laid a card (grand opera) takes the whole board",
    ),
    claim_rule(),
    *settlement_rules(),
)


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    """Nain Jaune under ``values``."""
    spaces = tuple(Space(name, (name,), stake=stake) for name, stake in BOARD)
    missing = lay.NEW_SEQUENCE if values["missing_rank"] == "new_sequence" else lay.NEXT_RANK
    held = {"none": lay.NONE, "stake": lay.STAKE, "double": lay.DOUBLE}
    return family_layout(
        game,
        values,
        spaces=spaces,
        ace_low=True,
        deal=lay.TABLE,
        deal_counts=DEAL_COUNTS,
        spare=lay.NONE,
        leader=lay.LEFT,
        lead=lay.ANY_CARD,
        play=lay.RANK,
        missing_rank=missing,
        going_out=lay.PER_POINT,
        held_board_cards=held[values["held_board_cards"]],
        grand_opera=values["grand_opera"],
    )


#: Its name, seats, board, summary and presets: ``game.toml``.
GAME = declared_game(__package__, HOUSE_RULES, make_layout)

DESCRIPTION = family_description(GAME)
