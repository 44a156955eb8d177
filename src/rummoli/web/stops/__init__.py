"""The Stops family's part of the web table (every game of the family: a description
names ``rummoli.web.stops.parts:<game>``, :mod:`.parts`): its players' statistics, its
frames' views (bids and raises offered as ranges), its forced passes shown as turns
(:mod:`.forced`), and its runs laid card by card (:mod:`rummoli.games.stops.steps`).

The family's statistics are counted from what is stored when a game ends (each seat's final
chips), so they need no replay. A win is finishing with the most chips (tied players each
count one); "chips won" is final chips less starting chips, so losses count too. Rummoli
has no draws or stalemates: a game always ends with a count of chips.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rummoli.games.stops.steps import card_by_card
from rummoli.i18n import N_
from rummoli.web.games import WebPart
from rummoli.web.history import amount_stats
from rummoli.web.stops.forced import may_unfold, unfold
from rummoli.web.stops.steps import StepPatches
from rummoli.web.stops.views import board_layout, seat_view, seat_views


def _starting_chips(rules: Mapping[str, Any]) -> int:
    return int(rules.get("starting_chips", 0))


#: Each game's line in the lobby (the interface's words for it: per-game presentation).
INTROS = {
    "rummoli": N_(
        "Rummoli: a board of pay spaces, a widow to take or auction, a round of poker, "
        "then a race to lay out your cards."
    ),
    "michigan": N_(
        "Michigan: four boodle cards to win by playing them, then a race to lay out your "
        "cards in runs of a suit."
    ),
    "tripoley": N_(
        "Tripoley: nine sections paid to the cards you hold, a round of poker for the pot, "
        "then Michigan's race to go out."
    ),
    "newmarket": N_(
        "Newmarket: place your chips on the four horses, then race to lay out your cards in "
        "runs of a suit; playing a horse wins the chips on it."
    ),
    "pope_joan": N_(
        "Pope Joan: a round board of eight pools, trumps turned from the pack; lay the Pope "
        "and the trump honours to win their pools, then race to go out."
    ),
}


@cache
def web_part(game: str) -> WebPart:
    """The web table's part for the family's game ``game``."""
    return WebPart(
        player_stats=amount_stats,
        starting_amount=_starting_chips,
        intro=INTROS.get(game, ""),
        view=seat_view,
        views=seat_views,
        may_unfold=may_unfold,
        unfold=unfold,
        paced=frozenset({"lay"}),
        steps=card_by_card,
        step_patches=StepPatches,
    )


#: Rummoli's part.
WEB = web_part("rummoli")

__all__ = ["INTROS", "WEB", "board_layout", "seat_view", "seat_views", "web_part"]
