"""Chips placed by choice before the deal: Newmarket's horses.

Newmarket's players put a chip on the kitty (the ante, :mod:`.deal`) and place their
other chips on the four horses as each likes, before the cards are dealt. Each player in
turn from the dealer's left places ``chosen_stake`` chips one at a time, each on a space
of his choice among those the layout marks ``chosen`` (the codec's STAKE actions); then
the cards are dealt (:func:`.deal.deal`). A player left with fewer chips places what he
has. A choice between equal spaces before anyone has seen a card is a real choice only
in how it spreads the chips; it is asked all the same, as at the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.engine.base import Event
from rummoli.games.stops.constants import STAKE

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState


def start_stakes(state: StopsState, events: list[Event]) -> None:
    """Everyone dealt in places his chosen chips, from the dealer's left."""
    state._stakers = [s for s in state.in_round if state.chips[s]]
    state.phase = STAKE
    _next_staker(state, events)


def _next_staker(state: StopsState, events: list[Event]) -> None:
    from rummoli.games.stops.deal import deal

    while state._stakers:
        seat = state._stakers[0]
        if state.stake_left == 0:
            state.stake_left = min(state.plan.chosen_stake, state.chips[seat])
        if state.stake_left:
            state.to_move = seat
            codec = state.codec
            state.options = [codec.stake(i) for i in range(len(codec.stake_spaces))]
            return
        state._stakers.pop(0)
    deal(state, events)


def place_stake(state: StopsState, seat: int, action: int, events: list[Event]) -> None:
    """``seat`` puts a chip on the space it chose."""
    name = state.codec.stake_spaces[action - state.codec.stake_base]
    space = state.space_index[name]
    state.chips[seat] -= 1
    state.board[space] += 1
    events.append(("stake", seat, name))
    state.stake_left -= 1
    if not state.stake_left:
        state._stakers.pop(0)
    _next_staker(state, events)
