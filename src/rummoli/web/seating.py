"""A table's seats and its pace: who sits where, and how fast the computer moves.

Plain data that the room (:mod:`.room`), the commands, the storage and the tests share;
apart from the room so that its owner task is read without them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class BaseSeat:
    """A seat and who holds it: what a stored table (:class:`.storage.StoredSeat`) and
    a live one (:class:`Seat`) both know of each seat."""

    seat: int
    name: str | None = None
    #: The hash of the person's seat token (never the token itself).
    token_hash: str | None = None
    #: A computer player's level; None for a person's seat.
    bot: str | None = None


@dataclass(slots=True)
class Seat(BaseSeat):
    """A seat at the table: who sits there, and whether he is here."""

    #: Away past the turn timer: a computer plays for him until he is back.
    away: bool = False
    connections: int = 0
    #: Where the table's log stood when he went away: what the computer did for him is
    #: told him when he is back (:func:`.commands.handle`).
    away_since: int = 0


@dataclass(slots=True)
class Timing:
    """How fast the computer moves: a pause before each bot move (so people can follow),
    and before the next round's deal (so the last cards can be seen). Tests use zero."""

    bot_delay: float = 0.8
    round_pause: float = 2.5
    #: Wait for the seated people's pages to show a run card by card (:meth:`Room.watch_time`).
    watch: bool = True
