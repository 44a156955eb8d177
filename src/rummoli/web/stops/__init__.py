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

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rummoli.games.stops import layout as lay
from rummoli.games.stops.actions import BID_BASE
from rummoli.games.stops.layout import Layout
from rummoli.games.stops.state import StopsState
from rummoli.games.stops.steps import card_by_card
from rummoli.games.stops.view import build_observation, observation_to_view, seat_view_for
from rummoli.i18n import N_
from rummoli.web.choices import offered_blocks
from rummoli.web.games import WebPart
from rummoli.web.history import amount_stats
from rummoli.web.stops.forced import may_unfold, unfold


def _starting_chips(rules: Mapping[str, Any]) -> int:
    return int(rules.get("starting_chips", 0))


def seat_view(state: StopsState, seat: int | None, only: int | None) -> dict[str, Any]:
    """The engine's view of ``seat`` with bids and raises as ranges (:mod:`..choices`).

    Built from the engine's own observation and view functions, with the legal actions
    put in afterwards: the view's list of one item per chip is never made (at the largest
    settings a bidder may bid any of 8,000 amounts).
    """
    obs = build_observation(state, seat)
    legal = obs.legal if only is None else ((only,) if obs.legal else ())
    obs.legal = ()
    return _finish(state, observation_to_view(obs), legal)


def seat_views(
    state: StopsState,
    seats: Sequence[int | None],
    only: Sequence[int | None],
    choices: bool = True,
) -> list[dict[str, Any]]:
    """:func:`seat_view` of each of ``seats`` (``only``: each one's forced action, or
    None), the same views, made at once: the part every seat sees alike is built once
    and shared by the views (:func:`~rummoli.games.stops.view.seat_view_for`), which
    halves what the views of a table's frames cost. Read them; never change their parts.
    ``choices`` False: without legal actions (a run's step offers none)."""
    public_obs = build_observation(state, None)
    public_obs.legal = ()
    public = observation_to_view(public_obs)
    views = []
    for seat, forced in zip(seats, only, strict=True):
        if seat is None:
            views.append(_finish(state, dict(public), ()))
            continue
        view, legal = seat_view_for(public, public_obs, state, seat)
        if forced is not None:
            legal = (forced,) if legal else ()
        views.append(_finish(state, view, legal if choices else ()))
    return views


def _finish(state: StopsState, view: dict[str, Any], legal: Sequence[int]) -> dict[str, Any]:
    """A view with its legal actions as frames offer them, and its board's layout."""
    if legal:
        codec = state.codec
        # Bids, then raises (the stakes follow the raises): amounts of one choice each.
        bids = (BID_BASE, codec.raise_base, "bid")
        blocks = (bids, (codec.raise_base, codec.stake_base, "raise"))
        view["legal_actions"] = offered_blocks(legal, blocks, codec.to_text)
    if state.plan.board_shape != lay.OCTAGON:
        # (Rummoli's octagon is the page's own drawing: its frames stay the engine's
        # views as they were, byte for byte.)
        view["layout"] = board_layout(state.plan)
    return view


@cache
def board_layout(plan: Layout) -> dict[str, Any]:
    """How the page draws this game's board, from its layout's data: the shape, each
    space's cards (its label: the page writes them as the rules do) and role, when its
    cards pay, what the game calls its spare hand and its play of the runs, and whether
    there is a poker stage. The page names no game: a board is what this says."""
    return {
        "shape": plan.board_shape,
        "spare": plan.spare_word,
        "poker": plan.poker != lay.NONE,
        "spaces": [
            {"name": s.name, "cards": list(s.cards), "role": s.role, "when": s.when}
            for s in plan.spaces
        ],
    }


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
    )


#: Rummoli's part.
WEB = web_part("rummoli")
