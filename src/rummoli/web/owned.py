"""The writes a table's owner makes to its rows: seats, settings, its start and its end.

Apart from :mod:`.storage` (which this is the base of) because they share one rule the
rest of the storage has no use for: each is *fenced*. A process that stops without dying
(a long pause) and wakes up after another process took its table over still believes it
owns it; every write here takes the epoch of the lease its writer holds (``fence``:
table id to epoch, :mod:`.leases`) and checks it in the write's own transaction. A stale
owner's write raises :class:`.leases.StaleOwner` and stores nothing, so a seat, a
setting, the start or the end of a table is only ever written by its owner of the moment,
as its actions are (:meth:`.storage.Storage.append_rows`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import Update, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from rummoli.web.leases import check_fence
from rummoli.web.schema import EXPIRED, FINISHED, PLAYING, WAITING, GameRow, SeatRow

#: The tables whose owner writes, each with its lease's epoch (:mod:`.leases`).
Fence = Mapping[str, int] | None

#: The table's own columns :meth:`OwnedWrites.set_game` may change.
SETTINGS = frozenset(
    {"public", "invite_hash", "watch_hash", "players_chat_public", "rematch_id", "status", "banned"}
)


def _game(game_id: str) -> Update:
    return update(GameRow).where(GameRow.id == game_id)


def _seat(game_id: str, seat: int) -> Update:
    return update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)


class OwnedWrites:
    """The fenced writes of a table's rows (the base of :class:`.storage.Storage`)."""

    engine: Engine

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine) as session, session.begin():
            yield session

    def _write(self, fence: Fence, first: Update, *more: Update) -> None:
        """One transaction of a table's owner: ``first``, then the fence checked, then
        ``more``; a stale owner's raises :class:`.leases.StaleOwner` and nothing is
        stored. The check comes after a write, never before: on SQLite the first write
        is what takes the writer's lock (a read alone runs outside any transaction), so
        no takeover can come between the check and the commit."""
        with self.engine.begin() as connection:
            connection.execute(first)
            if fence:
                check_fence(connection, fence)
            for statement in more:
                connection.execute(statement)

    def take_seat(
        self, game_id: str, seat: int, name: str, token_hash: str, fence: Fence = None
    ) -> None:
        """A person sits (a join, a rematch's player back in his seat)."""
        self._write(fence, _seat(game_id, seat).values(name=name, token_hash=token_hash))

    def release_seat(self, game_id: str, seat: int, fence: Fence = None) -> None:
        """A person's seat is free again (the host took it back before the start)."""
        self._write(fence, _seat(game_id, seat).values(name=None, token_hash=None))

    def set_bot(self, game_id: str, seat: int, name: str, level: str, fence: Fence = None) -> None:
        """An empty seat gets a computer player (the host starts early)."""
        self._write(fence, _seat(game_id, seat).values(name=name, bot=level, token_hash=None))

    def set_game(self, game_id: str, fence: Fence = None, **values: Any) -> None:
        """Change the table's own columns (:data:`SETTINGS`: public, secrets, the chat
        switch, the rematch's id, the host's bans)."""
        unknown = set(values) - SETTINGS
        if unknown:
            raise ValueError(f"not a table setting: {', '.join(sorted(unknown))}")
        self._write(fence, _game(game_id).values(**values))

    def request_end(self, game_id: str, after: int, fence: Fence = None) -> None:
        """The round being played is the last (replayed at the same action)."""
        self._write(fence, _game(game_id).values(end_requested_after=after))

    def start_game(
        self, game_id: str, setup: dict[str, Any], started_at: datetime, fence: Fence = None
    ) -> None:
        """The game starts: its setup (the names) is stored."""
        values = {"status": PLAYING, "setup": setup, "started_at": started_at}
        self._write(fence, _game(game_id).values(**values))

    def finish_game(
        self,
        game_id: str,
        chips: Sequence[int],
        finished_at: datetime,
        status: str = FINISHED,
        rounds_played: int | None = None,
        fence: Fence = None,
    ) -> None:
        """The game is over (``status``: finished, or abandoned), with each seat's amount
        and the rounds it played, once the fence is checked: a stale owner cannot end a
        game another process runs. Its lease stays with its owner, who keeps the game
        over while people look at it (:meth:`.hub.Hub.room`) and lets it go after."""
        values = {"status": status, "finished_at": finished_at, "rounds_played": rounds_played}
        self._write(
            fence,
            _game(game_id).values(**values),
            *(_seat(game_id, seat).values(final_chips=n) for seat, n in enumerate(chips)),
        )

    def expire_waiting(
        self, created_before: datetime, among: Collection[str] | None = None, fence: Fence = None
    ) -> list[str]:
        """Waiting tables created before that moment expire; returns their ids. With
        ``among``, only those tables (a process sharing the database expires its own);
        those of ``fence`` only while it still owns them (else nothing expires)."""
        with self.engine.begin() as connection:
            query = select(GameRow.id).where(
                GameRow.status == WAITING, GameRow.created_at < created_before
            )
            if among is not None:
                query = query.where(GameRow.id.in_(list(among)))
            ids = list(connection.scalars(query))
            if ids:
                connection.execute(
                    update(GameRow).where(GameRow.id.in_(ids)).values(status=EXPIRED)
                )
                if fence:
                    check_fence(connection, {i: fence[i] for i in ids if i in fence})
            return ids


__all__ = ["SETTINGS", "Fence", "OwnedWrites"]
