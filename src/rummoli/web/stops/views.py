"""The Stops family's views as the web table's frames send them: the engine's views,
with bids and raises offered as ranges (:mod:`rummoli.web.choices`) and the board's
layout for the games whose board the page draws from data; every seat's view of one
state made at once (:func:`seat_views`). A run's steps: :mod:`.steps`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from rummoli.games.stops import layout as lay
from rummoli.games.stops.actions import BID_BASE
from rummoli.games.stops.layout import Layout
from rummoli.games.stops.state import StopsState
from rummoli.games.stops.view import build_observation, observation_to_view, seat_view_for
from rummoli.web.choices import offered_blocks


def seat_view(state: StopsState, seat: int | None, only: int | None) -> dict[str, Any]:
    """The engine's view of ``seat`` with bids and raises as ranges (:mod:`..choices`).

    Built from the engine's own observation and view functions, with the legal actions
    put in afterwards: the view's list of one item per chip is never made (at the largest
    settings a bidder may bid any of 8,000 amounts).
    """
    obs = build_observation(state, seat)
    legal = obs.legal if only is None else ((only,) if obs.legal else ())
    obs.legal = ()
    return finish(state, observation_to_view(obs), legal)


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
            views.append(finish(state, dict(public), ()))
            continue
        view, legal = seat_view_for(public, public_obs, state, seat)
        if forced is not None:
            legal = (forced,) if legal else ()
        views.append(finish(state, view, legal if choices else ()))
    return views


def finish(state: StopsState, view: dict[str, Any], legal: Sequence[int]) -> dict[str, Any]:
    """A view with its legal actions as frames offer them, and its board's layout."""
    if legal:
        codec = state.codec
        # Bids, then raises (the stakes follow the raises): amounts of one choice each.
        bids = (BID_BASE, codec.raise_base, "bid")
        blocks = (bids, (codec.raise_base, codec.stake_base, "raise"))
        view["legal_actions"] = offered_blocks(legal, blocks, codec.to_text)
    plan = state.plan
    if plan.board_shape != lay.OCTAGON:
        # (Rummoli's octagon is the page's own drawing: its frames stay the engine's
        # views as they were, byte for byte.)
        known = _LAYOUTS.get(id(plan))
        if known is None or known[0] is not plan:
            if len(_LAYOUTS) >= _LAYOUTS_KEPT:
                _LAYOUTS.clear()
            known = _LAYOUTS[id(plan)] = (plan, board_layout(plan))
        view["layout"] = known[1]
    return view


#: :func:`board_layout` by the layout's identity: a layout is a frozen dataclass of many
#: fields, hashed afresh at each look-up of the cache (a few microseconds for every
#: seat's view of every step of a run). Each table's house rules make a layout of their
#: own, so the memory is emptied when it holds :data:`_LAYOUTS_KEPT` (and holds them
#: alive meanwhile: an identity is never another layout's while it is kept).
_LAYOUTS: dict[int, tuple[Layout, dict[str, Any]]] = {}
_LAYOUTS_KEPT = 256


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


__all__ = ["board_layout", "finish", "seat_view", "seat_views"]
