"""Who owns a table: leases in the database, with a fencing token, and the processes alive.

With several server processes on one database (``rummoli serve --workers N``, or the
same command on several machines sharing PostgreSQL), each unfinished table has exactly
one owner at a time: the process whose room runs it. Ownership is a row of ``leases``
(:class:`.schema.LeaseRow`): the owner's id, an expiry the owner pushes forward while it
lives (:meth:`Leases.renew`, a few times per lease), and an *epoch*.

Why an epoch as well as an expiry: a process can stop without dying (a long pause, a
machine cut off from the database for a while) and come back believing it still owns
its tables after another process took them over. The expiry alone cannot stop its
writes; the epoch does. Every takeover adds one to it (:meth:`Leases.acquire`), and
every write of a table's rows by its owner (its actions and chat,
:meth:`.storage.Storage.append_rows`; its seats, settings, start and end, :mod:`.owned`)
checks, in the same transaction, that the stored epoch is still the one the writer took
(:func:`check_fence`). A stale owner's write is refused
(:class:`StaleOwner`) and changes nothing, so the table's actions are always those of
one owner after the other, never two owners' interleaved. The check locks the lease row
for share (PostgreSQL) or runs under the database's single writer (SQLite), so a
takeover waits for a write under way and a write after the takeover sees the new epoch.

A game over is *kept* the same way while people look at it: the process that loads it
(its last owner, or the first asked once nobody keeps it) holds its lease until it
unloads it and releases it (:meth:`Leases.release`; the row stays, so its epoch only
grows and a keeper paused since cannot write under an epoch given again). So every page
of a finished table reaches one room: its rematch is made once and its host's removals
hold for everyone. Only unfinished tables are taken over (:meth:`Leases.orphans`).

Times are the processes' clocks in UTC (SQLite has no server clock): machines that
share a database keep their clocks in step (NTP), as they do for the games' times.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from rummoli.web.commit_sql import statements_for
from rummoli.web.schema import EXPIRED, OVER, PLAYING, WAITING, GameRow, LeaseRow, WorkerRow, utcnow

#: How far :meth:`Leases.keeper` follows a game over's rematches (a rematch of a rematch...).
REMATCH_HOPS = 8
#: A lease's expiry when released: long past, so anyone may take the table at once.
RELEASED = datetime(1970, 1, 1)
#: The statuses of a table someone must own, and take over when its owner dies (a game
#: over is only kept while it is loaded, and loaded again by whoever is asked for it).
UNFINISHED = (WAITING, PLAYING)


class StaleOwner(RuntimeError):
    """A write of a table's rows by a process that no longer owns it (its lease's epoch
    is not the stored one): refused, nothing written."""

    def __init__(self, game_ids: Collection[str]) -> None:
        self.game_ids = sorted(game_ids)
        super().__init__(
            f"this process no longer owns table(s) {', '.join(self.game_ids)}: "
            f"another process took them over; the write is refused"
        )


@dataclass(frozen=True, slots=True)
class Lease:
    game_id: str
    owner: str
    epoch: int
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Worker:
    """A server process alive: where its clients reach it, and its load."""

    id: str
    address: str
    tables: int
    seen_at: datetime


def check_fence(connection: Connection, fence: Mapping[str, int]) -> None:
    """Raise :class:`StaleOwner` unless every table of ``fence`` (id: the epoch the
    writer holds) still has that epoch; run it inside the write's own transaction,
    after its inserts (on SQLite the insert takes the write lock first). The read is
    compiled once per dialect (:mod:`.commit_sql`): it is in every group commit."""
    if not fence:
        return
    stored = statements_for(connection.dialect).epochs(connection, list(fence))
    stale = [game_id for game_id, epoch in fence.items() if stored.get(game_id) != epoch]
    if stale:
        raise StaleOwner(stale)


class Leases:
    """The leases of one process (``owner``) on one database; plain blocking calls, run
    on the hub's storage thread."""

    def __init__(self, engine: Engine, owner: str, ttl: float = 10.0) -> None:
        if ttl <= 0:
            raise ValueError(f"a lease lasts a positive number of seconds, not {ttl}")
        self.engine = engine
        self.owner = owner
        self.ttl = ttl

    def _until(self) -> datetime:
        return utcnow() + timedelta(seconds=self.ttl)

    def acquire(self, game_ids: Collection[str], force: bool = False) -> dict[str, int]:
        """Take the tables whose lease is free (none yet, expired, released, or already
        ours); with ``force``, take them whoever holds them (the only server on its
        database, restarted after a crash, need not wait for its own old leases).
        Returns the tables taken, each with its new epoch (one more than before)."""
        won: dict[str, int] = {}
        if not game_ids:
            return won
        until = self._until()
        with self.engine.begin() as connection:
            now = utcnow()
            for game_id in game_ids:
                free = LeaseRow.game_id == game_id
                if not force:
                    free = free & or_(LeaseRow.expires_at < now, LeaseRow.owner == self.owner)
                taken = connection.execute(
                    update(LeaseRow)
                    .where(free)
                    .values(owner=self.owner, epoch=LeaseRow.epoch + 1, expires_at=until)
                    .returning(LeaseRow.epoch)
                ).scalar_one_or_none()
                if taken is not None:
                    won[game_id] = int(taken)
                    continue
                exists = connection.execute(
                    select(LeaseRow.epoch).where(LeaseRow.game_id == game_id)
                ).first()
                if exists is not None:
                    continue  # someone else's, alive
                try:
                    with connection.begin_nested():
                        connection.execute(
                            insert(LeaseRow).values(
                                game_id=game_id, owner=self.owner, epoch=1, expires_at=until
                            )
                        )
                except IntegrityError:
                    continue  # another process made it first (or there is no such game)
                won[game_id] = 1
        return won

    def renew(self, held: Mapping[str, int]) -> set[str]:
        """Push the expiry of the leases this process holds (id: epoch) forward; returns
        those it still holds. The others were taken over: their rooms must stop."""
        if not held:
            return set()
        ids = list(held)
        with self.engine.begin() as connection:
            connection.execute(
                update(LeaseRow)
                .where(LeaseRow.owner == self.owner, LeaseRow.game_id.in_(ids))
                .values(expires_at=self._until())
            )
            rows = connection.execute(
                select(LeaseRow.game_id, LeaseRow.epoch).where(
                    LeaseRow.owner == self.owner, LeaseRow.game_id.in_(ids)
                )
            ).all()
        return {game_id for game_id, epoch in rows if held.get(game_id) == epoch}

    def release(self, held: Mapping[str, int]) -> None:
        """Give the tables up (a clean stop): another process may take them at once."""
        if not held:
            return
        with self.engine.begin() as connection:
            for game_id, epoch in held.items():
                connection.execute(
                    update(LeaseRow)
                    .where(
                        LeaseRow.game_id == game_id,
                        LeaseRow.owner == self.owner,
                        LeaseRow.epoch == epoch,
                    )
                    .values(expires_at=RELEASED)
                )

    def lease(self, game_id: str) -> Lease | None:
        """The table's lease as stored (None: nobody has taken it yet)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(LeaseRow.owner, LeaseRow.epoch, LeaseRow.expires_at).where(
                    LeaseRow.game_id == game_id
                )
            ).first()
        return None if row is None else Lease(game_id, row.owner, int(row.epoch), row.expires_at)

    def keeper(self, game_id: str) -> str | None:
        """The process that runs the table now (the owner of its lease, unexpired), or
        for a game over nobody keeps, the one that runs or keeps its rematch, and so on
        (at most :data:`REMATCH_HOPS`); None: nobody, and whoever is asked may take it.

        Why a game over goes where its rematch is: the rematch is asked for and accepted
        at the finished table (a player is seated in the rematch's room by that room's
        process), so the two must be in one process; a page of the finished table then
        reaches the process that can seat it."""
        now = utcnow()
        with self.engine.connect() as connection:
            for _ in range(REMATCH_HOPS):
                game = connection.execute(
                    select(GameRow.status, GameRow.rematch_id).where(GameRow.id == game_id)
                ).first()
                if game is None or game.status == EXPIRED:
                    return None  # gone (its lease may outlive it by a few seconds)
                lease = connection.execute(
                    select(LeaseRow.owner, LeaseRow.expires_at).where(LeaseRow.game_id == game_id)
                ).first()
                if lease is not None and lease.expires_at > now:
                    return str(lease.owner)
                if game.status not in OVER or game.rematch_id is None:
                    return None
                game_id = game.rematch_id
        return None

    def orphans(self, limit: int = 500) -> list[str]:
        """Unfinished tables nobody owns now (no lease, or an expired or released one):
        what a live process takes over (the oldest first)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(GameRow.id)
                .outerjoin(LeaseRow, LeaseRow.game_id == GameRow.id)
                .where(
                    GameRow.status.in_(UNFINISHED),
                    or_(LeaseRow.game_id.is_(None), LeaseRow.expires_at < utcnow()),
                )
                .order_by(GameRow.created_at)
                .limit(limit)
            ).all()
        return [row[0] for row in rows]

    # ------------------------------------------------------------------ processes

    def heartbeat(self, address: str, tables: int) -> None:
        """Say this process is alive, where it is reached and how many tables it owns."""
        with self.engine.begin() as connection:
            values = {"address": address, "tables": tables, "seen_at": utcnow()}
            done = connection.execute(
                update(WorkerRow).where(WorkerRow.id == self.owner).values(**values)
            )
            if done.rowcount == 0:
                connection.execute(insert(WorkerRow).values(id=self.owner, **values))
            # Processes killed long ago (they never said goodbye) are forgotten.
            forgotten = utcnow() - timedelta(seconds=max(3600.0, 10 * self.ttl))
            connection.execute(delete(WorkerRow).where(WorkerRow.seen_at < forgotten))

    def workers(self) -> list[Worker]:
        """The processes seen within a lease's time, the least loaded first."""
        since = utcnow() - timedelta(seconds=self.ttl)
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(WorkerRow.id, WorkerRow.address, WorkerRow.tables, WorkerRow.seen_at)
                .where(WorkerRow.seen_at >= since)
                .order_by(WorkerRow.tables, WorkerRow.id)
            ).all()
        return [Worker(r.id, r.address, int(r.tables), r.seen_at) for r in rows]

    def leave(self) -> None:
        """This process stops: it is no longer a place for tables."""
        with self.engine.begin() as connection:
            connection.execute(delete(WorkerRow).where(WorkerRow.id == self.owner))


__all__ = [
    "RELEASED",
    "Lease",
    "Leases",
    "StaleOwner",
    "Worker",
    "check_fence",
]
