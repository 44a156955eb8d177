"""One action as a table shows it: a step for each laid card, each with its own view.

The engine lays every forced card of a run inside the one action that started it: a
single ``apply`` can lay thirty cards, win pay spaces, stop, fine a player who cannot
lead, end the round and pay its winner. A table shows that run one card at a time, and
what it shows at each card (every player's chips and cards, the board, the centre) must
be what the game was at that card, not the end of the round with some cards taken back.

So the action is played again on a copy that lays card by card
(``StopsState.card_by_card``): the copy stops before each forced card
(:func:`.stops.pause_before`), and each stop is a step whose state is the engine's own.
The copy's events, step after step, are the real action's events in the same order,
and after its last step the copy is where the real game is (tests check both, over
random games of every house rule).
"""

from __future__ import annotations

from collections.abc import Iterator

from rummoli.engine.base import Event
from rummoli.games.stops.state import StopsState


def card_by_card(before: StopsState, action: int) -> Iterator[tuple[list[Event], StopsState]]:
    """The steps of ``before --action-->``: each step's events, and the state after them.

    The state yielded is one copy, changed in place by the next step: read what you need
    of it (its views) before asking for the next. A step that lays no card is the whole
    action, as the engine makes it.
    """
    state = before.clone()
    state.card_by_card = True
    yield state.apply(action), state
    while state.paused:
        yield state.apply(state.options[0]), state


__all__ = ["card_by_card"]
