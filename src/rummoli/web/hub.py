"""The hub: every room of the server, the storage, and the one thread that talks to it.

The hub creates, loads and resumes rooms (:mod:`.room`), drops a finished one nobody
watches, expires waiting tables nobody completed (a sweep, :meth:`Hub.sweep`), keeps the
per-address limits (:mod:`.limits`), and runs every storage call on its single storage
thread (SQLite's one writer).
It also owns the group commit (:meth:`Hub.store_action`): the actions all rooms accept
at about the same time go to storage in one transaction, and each room still waits for
its own row to be committed before it applies and sends it (stored before sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Collection, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from rummoli.i18n import N_
from rummoli.web.broadcast import summary
from rummoli.web.commands import MOVING, Join, refuse_waiting
from rummoli.web.leases import Leases, StaleOwner
from rummoli.web.limits import Addresses, Limits
from rummoli.web.metrics import Metrics
from rummoli.web.protocol import error_message
from rummoli.web.room import Room
from rummoli.web.seating import Timing
from rummoli.web.security import hash_token, new_secret, new_seed, new_table_id
from rummoli.web.settings import TableSettings, bot_name
from rummoli.web.storage import (
    EXPIRED,
    FINISHED,
    OVER,
    PLAYING,
    WAITING,
    ChatLine,
    Storage,
    StoredGame,
    StoredSeat,
    utcnow,
)
from rummoli.web.wording import Refused

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")
#: A row of the group commit: an action ``(game, index, action)`` or a chat line.
Row = tuple[str, int, int] | tuple[str, ChatLine]


def _fence(rows: Iterable[tuple[str, int | None]]) -> dict[str, int]:
    """The epochs a commit's rows were made under, by table (a row made with no lease,
    such as a game over's chat, is written unchecked). Two epochs of one table in one
    batch: the older, so the batch is refused and each row is tried alone with its own."""
    fence: dict[str, int] = {}
    for game_id, epoch in rows:
        if epoch is not None:
            fence[game_id] = min(epoch, fence.get(game_id, epoch))
    return fence


class Hub:
    """Every room of the server, the storage, and the one thread that talks to it."""

    def __init__(
        self,
        storage: Storage,
        timing: Timing | None = None,
        limits: Limits | None = None,
        shared: bool = False,
        address: str = "",
    ) -> None:
        self.storage = storage
        self.timing = timing or Timing()
        self.limits = limits or Limits()
        self.addresses = Addresses(self.limits)
        self.rooms: dict[str, Room] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="rummoli-db")
        #: Rows waiting for the next group commit (an action ``(game, index, action)``,
        #: or a chat line ``(game, line)``), each with its room's future.
        #: Each with the lease's epoch the hub held when the row was made (None: none).
        self._pending: list[tuple[Row, int | None, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        #: The server is stopping (:func:`.ops.drain`): no new table, seat or change.
        self.draining = False
        self.metrics = Metrics(self)
        #: This process among those sharing the database (:mod:`.leases`): unique per
        #: start, so a restarted process is a new owner.
        self.owner = f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(4)}"
        self.leases = Leases(storage.engine, self.owner, self.limits.lease_seconds)
        #: The tables this process owns: id -> the lease's epoch (the fencing token);
        #: the games over it keeps loaded too (:meth:`room`).
        self.held: dict[str, int] = {}
        #: Games over unloaded since the last renewal: their leases are released then.
        self._unloaded: dict[str, int] = {}
        #: Other processes share the database: take only the tables nobody owns. Alone
        #: (the default), the process takes every unfinished table, whoever held it
        #: last (its own previous run, killed, need not be waited for).
        self.shared = shared
        #: Where people's browsers reach this process (``http://host:port``; shared only).
        self.address = address
        self._renewer: asyncio.Task[None] | None = None

    async def db(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a storage call on the storage thread (one writer: SQLite's own rule)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args, **kwargs))

    async def store_action(self, game_id: str, index: int, action: int) -> None:
        """Store one accepted action; return once it is committed (or raise why not).

        Group commit: the actions every room accepts while a commit is running (or in
        the same event-loop turn) wait, and go together in the next one. Each room still
        waits for its own row before it applies and broadcasts, so "stored before sent"
        holds; what the rooms share is the transaction and the hop to the storage
        thread, which cost a third of the server's work when every action had its own.
        """
        await self._store((game_id, index, action))

    async def store_chat(self, game_id: str, line: ChatLine) -> None:
        """Store one chat line, in the same group commit as the actions (a chat flood
        costs no commit of its own), before anyone reads it."""
        await self._store((game_id, line))

    async def _store(self, row: Row) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        # The epoch now, not at the commit: a row made before the table was lost is
        # checked against the epoch it was made under, and refused.
        self._pending.append((row, self.held.get(row[0]), future))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush_actions(), name="rummoli-commit")
        await future

    async def _flush_actions(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                errors: list[Exception | None] = [None] * len(batch)
                actions = [row for row, _, _ in batch if len(row) == 3]
                chat = [row for row, _, _ in batch if len(row) == 2]
                fence = _fence((row[0], epoch) for row, epoch, _ in batch)
                try:
                    await self.db(
                        self.metrics.timed_commit, self.storage.append_rows, actions, chat, fence
                    )
                except Exception:  # one refused row must not fail the others: each alone
                    for i, (row, epoch, _) in enumerate(batch):
                        try:
                            alone = ([row], []) if len(row) == 3 else ([], [row])
                            await self.db(
                                self.storage.append_rows, *alone, _fence([(row[0], epoch)])
                            )
                        except StaleOwner as stale:
                            errors[i] = stale
                            self.drop_taken_over(stale)
                        except Exception as refused:
                            errors[i] = refused
                for (_, _, future), error in zip(batch, errors, strict=True):
                    if future.done():  # its room was stopped meanwhile
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
        finally:
            self._flusher = None

    # ------------------------------------------------------------------ ownership

    async def write(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A fenced write of a table's rows by its owner (a seat, a setting, the start,
        the end: :class:`.owned.OwnedWrites`, given its room's ``fence``), on the storage
        thread; a stale owner's is refused, and the table dropped (:meth:`drop_taken_over`)."""
        try:
            return await self.db(fn, *args, **kwargs)
        except StaleOwner as stale:
            self.drop_taken_over(stale)
            raise

    async def take(self, game_ids: Collection[str]) -> dict[str, int]:
        """Take the leases of these tables (all of them when alone on the database;
        when shared, those nobody owns); returns the ones taken, with their epochs."""
        won = await self.db(self.leases.acquire, game_ids, not self.shared)
        self.held.update(won)
        for game_id in won:
            self._unloaded.pop(game_id, None)
        return won

    def drop_taken_over(self, stale: StaleOwner) -> None:
        """A write was refused: other processes took these tables over. The one place
        that turns a refusal (of an action, a chat line, a seat, a setting, the start or
        the end) into dropping the tables: their rooms stop, from outside the room's own
        step, which is waiting for the refused write."""
        for game_id in stale.game_ids:
            if self.held.pop(game_id, None) is not None or game_id in self.rooms:
                asyncio.get_running_loop().create_task(self.lose(game_id), name=f"lose-{game_id}")

    async def lose(self, game_id: str) -> None:
        """This process no longer owns the table: its room stops and its clients are
        disconnected (they reconnect, and are sent to the new owner)."""
        self.held.pop(game_id, None)
        room = self.rooms.get(game_id)
        if room is None:
            return
        # A game over too: another process keeps it now, and its pages go there (one
        # rematch, one host's removals).
        del self.rooms[game_id]
        log.warning("table taken over by another process", extra={"table": game_id})
        await room.stop()
        refuse_waiting(room, Refused(503, MOVING))

    async def renew(self) -> None:
        """Renew this process's leases; stop the rooms of those it lost; release those
        of the games over it unloaded."""
        unloaded, self._unloaded = self._unloaded, {}
        await self.db(self.leases.release, unloaded)
        held = dict(self.held)
        kept = await self.db(self.leases.renew, held)
        for game_id in set(held) - kept:
            if self.held.get(game_id) == held[game_id]:
                await self.lose(game_id)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.lease_seconds / 3)
            try:
                await self.renew()
                if self.shared and not self.draining:
                    await self.heartbeat()
                    await self.adopt()
            except Exception:
                log.exception("renewing the leases failed")

    async def committed(self) -> None:
        """Return once the group commit under way (if any) is done."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)

    async def start(self) -> None:
        """Resume every unfinished table this process owns exactly where it was (alone
        on the database: every one; shared: those nobody owns)."""
        if self.shared:
            await self.heartbeat()
            await self.adopt()
        else:
            resumed = await self.db(self.storage.load_unfinished)
            await self.take([stored.id for stored in resumed])
            await self._resume(resumed)
        log.info("%d unfinished tables resumed", len(self.rooms))
        await self.sweep()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    async def adopt(self) -> int:
        """Take over the unfinished tables nobody owns (their owner died, or stopped and
        released them), rebuilt from their stored actions; returns how many."""
        # (A table of its own whose lease lapsed unrenewed, after a pause, is renewed,
        # not taken again: taking it would refuse the rows it is writing.)
        orphans = [g for g in await self.db(self.leases.orphans) if g not in self.held]
        won = await self.take(orphans)
        if not won:
            return 0
        stored = await self.db(self.storage.load_games, list(won))
        resumed = await self._resume(stored)
        if resumed:
            log.info("%d tables taken over", resumed)
        return resumed

    async def heartbeat(self) -> None:
        """Say this process is alive, where it is reached and how many tables it owns."""
        await self.db(self.leases.heartbeat, self.address, self.tables_run())

    def tables_run(self) -> int:
        """How many unfinished tables this process owns: its load, by which the
        siblings place new tables (the games over it keeps cost next to nothing)."""
        return sum(
            1 for g in self.held if (room := self.rooms.get(g)) is None or room.status not in OVER
        )

    async def _resume(self, games: list[StoredGame]) -> int:
        resumed = 0
        for stored in games:
            if stored.id not in self.held or stored.id in self.rooms:
                continue
            try:
                room = Room(self, stored)
            except Exception:
                log.exception(
                    "game %s cannot be resumed; it is left as stored",
                    stored.id,
                    extra={"table": stored.id},
                )
                continue
            if room.state is not None and room.state.is_terminal():
                # Its last action was stored, and the server stopped before it could say
                # the game was over (a kill, a crash): it is over now.
                await room.finish(FINISHED)
                continue
            self.rooms[room.id] = room
            room.start()
            resumed += 1
        return resumed

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep failed")

    async def sweep(self) -> None:
        """Expire waiting tables past their time; unload finished games nobody looks at."""
        cutoff = utcnow() - timedelta(seconds=self.limits.waiting_ttl)
        # Shared, a process expires its own tables only (another's room is its own).
        await self.expire(cutoff, list(self.held) if self.shared else None)
        idle = time.monotonic() - self.limits.idle_unload
        for room in list(self.rooms.values()):
            if room.status in OVER and not room.clients and room.last_active <= idle:
                self.forget_if_idle(room)
        self.addresses.sweep()

    async def expire(self, created_before: datetime, among: list[str] | None) -> None:
        """Waiting tables created before that moment (``among`` these, if given) expire:
        their rooms stop, and the people at them are told why."""
        try:
            expired = await self.write(
                self.storage.expire_waiting, created_before, among, fence=dict(self.held)
            )
        except StaleOwner:
            expired = []  # those taken over are dropped; the others expire at the next sweep
        for table_id in expired:
            self.held.pop(table_id, None)
            room = self.rooms.pop(table_id, None)
            if room is not None:
                room.status = EXPIRED
                for client in list(room.clients):
                    client.send(
                        error_message("expired", N_("this table waited too long: it is gone"))
                    )
                await room.stop()

    async def stop(self) -> None:
        for task in (self._sweeper, self._renewer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
        if self._flusher is not None:
            await self._flusher
        # A clean stop: the others may take these tables at once, not after the expiry.
        try:
            await self.db(self.leases.release, {**self._unloaded, **self.held})
        except Exception:
            log.exception("releasing the leases failed; they expire by themselves")
        self.held.clear()
        if self.shared:
            with contextlib.suppress(Exception):
                await self.db(self.leases.leave)
        self._executor.shutdown(wait=True)

    async def create(
        self,
        settings: TableSettings,
        *,
        host_hash: str | None = None,
        rematch_of: str | None = None,
    ) -> tuple[Room, str, str]:
        """A new table; returns it, its invitation secret and its host secret (shown
        once, to the creator: only their hashes are kept)."""
        seats = [
            StoredSeat(i, None if level is None else bot_name(i), None, level)
            for i, level in enumerate(settings.seats)
        ]
        invite, host = new_secret(), new_secret()
        stored = StoredGame(
            id=new_table_id(),
            status=WAITING,
            rules=settings.rules.to_dict(),
            seed=new_seed(),
            seats=seats,
            turn_timer=settings.turn_timer,
            time_limit=settings.time_limit,
            game=settings.game,
            public=settings.public,
            invite_hash=hash_token(invite),
            host_hash=host_hash or hash_token(host),
            rematch_of=rematch_of,
        )
        until = utcnow() + timedelta(seconds=self.limits.lease_seconds)
        await self.db(self.storage.create_game, stored, self.owner, until)
        self.held[stored.id] = 1
        if self.shared:
            # Said at once, not at the next renewal: the siblings place new tables by
            # these counts, and a burst of tables within one renewal would otherwise all
            # go to the process whose count was read before it (cluster.least_loaded).
            await self.heartbeat()
        room = Room(self, stored)
        self.rooms[room.id] = room
        room.start()
        log.info("table created: %s, %d seats", settings.game, len(seats), extra={"table": room.id})
        return room, invite, host

    async def rematch_of(self, room: Room) -> Room | None:
        """The rematch of a finished table (made on the first ask): the same settings
        and computer players, private, the same host; each person takes his old seat.
        None if another process runs the rematch: the finished table is handed over to
        it (:meth:`hand_over`), and its pages ask again there."""
        if room.rematch_id is not None:
            found = await self.room(room.rematch_id)
            if found is not None:
                return found
            if await self.kept_elsewhere(room.rematch_id) is not None:
                await self.hand_over(room)
                return None
        settings = TableSettings(
            seats=tuple(s.bot for s in room.seats),
            rules=room.rules,
            turn_timer=room.turn_timer,
            time_limit=room.time_limit,
            game=room.game,
            public=False,
        )
        new, _, _ = await self.create(settings, host_hash=room.host_hash, rematch_of=room.id)
        try:
            await self.write(self.storage.set_game, room.id, fence=room.fence, rematch_id=new.id)
        except StaleOwner:
            # Another process keeps the game over now: no page can reach the rematch
            # made here, so it goes at once rather than waiting out ``waiting_ttl``.
            await self.expire(utcnow() + timedelta(seconds=1), [new.id])
            raise
        room.rematch_id = new.id
        return new

    async def kept_elsewhere(self, table_id: str) -> str | None:
        """The other process that runs the table or keeps it (:meth:`.leases.Leases.keeper`:
        a game over with its rematch), if it is not this one."""
        keeper = await self.db(self.leases.keeper, table_id)
        return None if keeper == self.owner else keeper

    async def hand_over(self, room: Room) -> None:
        """Let a game over go (its lease released first, so that its pages, which
        reconnect, are sent to the process its rematch is at: :meth:`.leases.Leases.keeper`);
        its room stops from outside its own step, which may be the caller."""
        epoch = self.held.pop(room.id, None)
        if epoch is not None:
            await self.db(self.leases.release, {room.id: epoch})
        asyncio.get_running_loop().create_task(self.lose(room.id), name=f"lose-{room.id}")

    async def room(self, table_id: str) -> Room | None:
        """The room of a table; a finished game is loaded from storage when asked for
        (and unloaded once nobody looks: :meth:`sweep`)."""
        room = self.rooms.get(table_id)
        if room is not None:
            room.last_active = time.monotonic()
            return room
        stored = await self.db(self.storage.load_game, table_id)
        if stored is None or stored.status == EXPIRED:
            return None
        if table_id not in self.held:
            # An unfinished table is run by its owner only, and a game over kept by one
            # process at a time (the one its pages reach: one rematch, one host), with
            # its rematch if another process runs that (Leases.keeper).
            over = stored.status in OVER
            if over and self.shared and await self.kept_elsewhere(table_id) is not None:
                return None
            if table_id not in await self.take([table_id]):
                return None
            if not over:  # (a game over no longer changes)
                stored = await self.db(self.storage.load_game, table_id)  # as its owner left it
                if stored is None:
                    return None
        room = self.rooms.get(table_id)  # another request may have loaded it meanwhile
        if room is None:
            room = Room(self, stored)
            self.rooms[table_id] = room
            room.start()
        return room

    def forget_if_idle(self, room: Room) -> None:
        """A finished game nobody watches leaves memory (it stays stored)."""
        if room.status in OVER and not room.clients and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            epoch = self.held.pop(room.id, None)
            if epoch is not None:
                self._unloaded[room.id] = epoch
            if room.task is not None:
                room.task.cancel()
                room.task = None

    async def join(self, room: Room, seat: int | None, name: str) -> tuple[int, str]:
        """Take a seat (through the room's owner, so two people cannot take the same one)."""
        reply: asyncio.Future[tuple[int, str]] = asyncio.get_running_loop().create_future()
        room.submit(Join(seat, name, reply))
        return await reply

    def open_tables(self) -> list[dict[str, Any]]:
        """The public tables waiting or playing, the latest first (at most
        :attr:`.limits.Limits.listed_tables`): private ones are never listed."""
        rooms = [r for r in self.rooms.values() if r.public and r.status in (WAITING, PLAYING)]
        rooms.sort(key=lambda r: r.created_at, reverse=True)
        return [summary(r) for r in rooms[: self.limits.listed_tables]]


__all__ = ["Hub"]
