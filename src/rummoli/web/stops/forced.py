"""Rummoli's forced passes, shown at the table as turns of their own (the pay-card side
channel of issue 12).

With ``pay_card_blocks_exchange`` (the default), a dealer who holds a pay card may not
exchange, and a bidder who holds one may not bid: the engine makes the dealer's "keep"
and the bidder's "pass" itself, inside the step before. Its event log says only "keep"
and "pass" to the others (the ``blocked`` event is the blocked player's own), but the
*table* gave it away: a chosen pass comes after that player's turn (a frame showing him
to move, then his time to think), a forced one came with the previous player's move, so
a spectator could tell who held a pay card every time.

Here each such step is shown as it would have gone had the blocked player chosen: a copy
of the game with the rule off asks every seat (the same views, the same events in the
same order, as a chosen pass), the blocked seat takes its turn (a person is offered only
"pass"; a computer player thinks as usual, then passes), and then the copy is where the
real game is. The engine is not changed: the real game made the same moves already;
the copy only says when to show them.
"""

from __future__ import annotations

from dataclasses import replace

from rummoli.engine.base import CHANCE, Event
from rummoli.games.stops import actions as act
from rummoli.games.stops.constants import AUCTION, WIDOW
from rummoli.games.stops.state import StopsState

BLOCKED = "blocked"


class ForcedPasses:
    """One step's forced keeps and passes, shown as turns (see the module's doc)."""

    def __init__(self, shown: StopsState, events: list[Event], blocked: list[Event]) -> None:
        self.state = shown
        #: Each blocked seat's own ``blocked`` event goes with the frame that starts its
        #: turn (only that seat sees it: the engine's events_for decides).
        self._blocked = blocked
        self.events = events
        self._skip_public()
        if self._blocked:
            self.events.append(self._blocked[0])

    def _skip_public(self) -> None:
        # A blocked bidder who could not outbid anyway passes for a public reason (his
        # chips are no more than the high bid), in the copy too: not a turn of his. The
        # copy may then have left the widow and the auction altogether, and the same seat
        # may be the next to move in the poker or the Rummoli phase: that is not his
        # forced turn either.
        while self._blocked and not (
            self.state.phase in (WIDOW, AUCTION)
            and self.state.current_player() == self._blocked[0][1]
        ):
            self._blocked.pop(0)

    def next(self) -> tuple[int, int] | None:
        if not self._blocked:
            return None
        seat = self._blocked[0][1]
        return seat, act.KEEP if self.state.phase == WIDOW else act.PASS

    def play(self) -> list[Event]:
        turn = self.next()
        assert turn is not None
        self._blocked.pop(0)
        events = self.state.apply(turn[1])
        self._skip_public()
        if self._blocked:
            events.append(self._blocked[0])
        return events


def may_unfold(state: StopsState) -> bool:
    """Whether the next action may force a blocked keep or pass: a deal, the dealer's
    choice or a bid, with the house rule on."""
    plan = state.plan
    if not plan.pay_card_blocks_exchange or plan.widow == "none":
        return False
    return state.current_player() == CHANCE or state.phase in (WIDOW, AUCTION)


def unfold(before: StopsState, action: int, events: list[Event]) -> ForcedPasses | None:
    """The step ``before --action--> events`` as the table shows it, if it forced a
    blocked seat's keep or pass (else None: shown as it is)."""
    blocked = [event for event in events if event[0] == BLOCKED]
    if not blocked:
        return None
    shown = before.clone()
    shown.plan = replace(before.plan, pay_card_blocks_exchange=False)
    first = shown.apply(action)
    return ForcedPasses(shown, first, blocked)
