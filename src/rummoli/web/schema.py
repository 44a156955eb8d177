"""The web server's tables as SQLAlchemy models (what :mod:`.storage` reads and writes,
and what the Alembic migrations of ``web/migrations/`` make).

Besides a game's own rows (games, seats, actions, chat) there are two tables of the
server's processes (:mod:`.leases`): ``leases``, which process owns which unfinished
table and until when, with the lease's epoch (the fencing token every write of the
table's actions is checked against); and ``workers``, the processes alive, with their
address and load (where new tables go, and where a client is sent).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, MappedColumn, mapped_column

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"
#: A started game whose people all left and did not come back in time
#: (:attr:`.limits.Limits.abandon_after`): it is over, kept for the history (marked so),
#: and counted in nobody's statistics.
ABANDONED = "abandoned"
#: The statuses of a game that is over: its record and replay are available.
OVER = (FINISHED, ABANDONED)
#: A waiting table nobody completed in time (:attr:`.limits.Limits.waiting_ttl`): it is
#: no longer loaded, listed or joinable.
EXPIRED = "expired"


def utcnow() -> datetime:
    """Now, in UTC without a zone (SQLite keeps no zones; every time stored is UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


def _game_key() -> MappedColumn[str]:
    """``game_id``: the game a row is part of (seats, actions, chat, lease), the first
    part of the row's primary key; the row is deleted with its game."""
    return mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), default="rummoli")
    status: Mapped[str] = mapped_column(String(12), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    turn_timer: Mapped[float] = mapped_column(Float, default=0.0)
    time_limit: Mapped[int] = mapped_column(Integer, default=0)
    end_requested_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    #: Listed in the lobby, anyone may sit; else only through the invitation.
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: SHA-256 of the secrets of the invitation (a seat), the spectator link and the host.
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    watch_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Whether spectators may read the players' chat (the host opens it).
    players_chat_public: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false()
    )
    #: The rematch of this table, once asked for; and the table this one is a rematch of.
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: The rounds (Rummy: hands) the game played, once it is over; None before, and for
    #: games that ended before it was kept (their history says no number).
    rounds_played: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: What the host removed (:class:`.people.Bans`): names, seat tokens' and browsers'
    #: hashes; None: nobody.
    banned: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = _game_key()
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    final_chips: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = _game_key()
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: 64 bits: an action's number grows with the chips in the game (a 32-bit column
    #: overflowed on PostgreSQL at about 10**9 chips).
    action: Mapped[int] = mapped_column(BigInteger)


class ChatRow(Base):
    __tablename__ = "chat"

    game_id: Mapped[str] = _game_key()
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    #: ``players`` or ``spectators``.
    channel: Mapped[str] = mapped_column(String(12))
    #: The sender: a seat's number as text, or a spectator's ``s`` and number.
    sender: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))
    #: ``text`` or ``emote``.
    kind: Mapped[str] = mapped_column(String(8))
    text: Mapped[str] = mapped_column(String(1200))
    #: The game's step when it was said (where the replay shows it).
    step: Mapped[int] = mapped_column(Integer, default=0)


class LeaseRow(Base):
    """Which process owns an unfinished table: its owner, until when, and the epoch.

    The epoch grows by one every time the table changes hands; an owner writes the
    table's rows only while the stored epoch is the one it took (:mod:`.leases`)."""

    __tablename__ = "leases"

    game_id: Mapped[str] = _game_key()
    owner: Mapped[str] = mapped_column(String(64), index=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)


class WorkerRow(Base):
    """One server process alive (or lately): its id, the address its clients reach it
    at, how many tables it owns, and when it last said so."""

    __tablename__ = "workers"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(200))
    tables: Mapped[int] = mapped_column(Integer, default=0)
    seen_at: Mapped[datetime] = mapped_column(DateTime, index=True)


__all__ = [
    "ABANDONED",
    "EXPIRED",
    "FINISHED",
    "OVER",
    "PLAYING",
    "WAITING",
    "ActionRow",
    "Base",
    "ChatRow",
    "GameRow",
    "LeaseRow",
    "SeatRow",
    "WorkerRow",
    "utcnow",
]
