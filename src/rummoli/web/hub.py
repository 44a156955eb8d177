"""The hub: every room of the server, the storage, and the one thread that talks to it.

The hub creates, loads and resumes rooms (:mod:`.room`), drops a finished one nobody
watches, and runs every storage call on its single storage thread (SQLite's one writer).
It also owns the group commit (:meth:`Hub.store_action`): the actions all rooms accept
at about the same time go to storage in one transaction, and each room still waits for
its own row to be committed before it applies and sends it (stored before sent).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from rummoli.web.broadcast import summary
from rummoli.web.commands import Join
from rummoli.web.room import Room, Timing
from rummoli.web.security import new_seed, new_table_id
from rummoli.web.settings import TableSettings, bot_name
from rummoli.web.storage import FINISHED, WAITING, Storage, StoredGame, StoredSeat

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


class Hub:
    """Every room of the server, the storage, and the one thread that talks to it."""

    def __init__(self, storage: Storage, timing: Timing | None = None) -> None:
        self.storage = storage
        self.timing = timing or Timing()
        self.rooms: dict[str, Room] = {}
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="rummoli-db")
        #: Actions waiting for the next group commit, each with its room's future.
        self._pending: list[tuple[str, int, int, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

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
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((game_id, index, action, future))
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush_actions(), name="rummoli-commit")
        await future

    async def _flush_actions(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                errors: list[Exception | None] = [None] * len(batch)
                try:
                    rows = [(game_id, index, action) for game_id, index, action, _ in batch]
                    await self.db(self.storage.append_actions, rows)
                except Exception:  # one refused row must not fail the others: each alone
                    for i, (game_id, index, action, _) in enumerate(batch):
                        try:
                            await self.db(self.storage.append_action, game_id, index, action)
                        except Exception as refused:
                            errors[i] = refused
                for (_, _, _, future), error in zip(batch, errors, strict=True):
                    if future.done():  # its room was stopped meanwhile
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
        finally:
            self._flusher = None

    async def start(self) -> None:
        """Resume every unfinished table exactly where it was."""
        for stored in await self.db(self.storage.load_unfinished):
            try:
                room = Room(self, stored)
            except Exception:
                log.exception("game %s cannot be resumed; it is left as stored", stored.id)
                continue
            self.rooms[room.id] = room
            room.start()

    async def stop(self) -> None:
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
        if self._flusher is not None:
            await self._flusher
        self._executor.shutdown(wait=True)

    async def create(self, settings: TableSettings) -> Room:
        seats = [
            StoredSeat(i, None if level is None else bot_name(i), None, level)
            for i, level in enumerate(settings.seats)
        ]
        stored = StoredGame(
            id=new_table_id(),
            status=WAITING,
            rules=settings.rules.to_dict(),
            seed=new_seed(),
            seats=seats,
            turn_timer=settings.turn_timer,
            time_limit=settings.time_limit,
            game=settings.game,
        )
        await self.db(self.storage.create_game, stored)
        room = Room(self, stored)
        self.rooms[room.id] = room
        room.start()
        return room

    async def room(self, table_id: str) -> Room | None:
        """The room of a table; a finished game is loaded from storage when asked for."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        stored = await self.db(self.storage.load_game, table_id)
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
        if room.status == FINISHED and not room.clients and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            if room.task is not None:
                room.task.cancel()
                room.task = None

    async def join(self, room: Room, seat: int | None, name: str) -> tuple[int, str]:
        """Take a seat (through the room's owner, so two people cannot take the same one)."""
        reply: asyncio.Future[tuple[int, str]] = asyncio.get_running_loop().create_future()
        room.submit(Join(seat, name, reply))
        return await reply

    def open_tables(self) -> list[dict[str, Any]]:
        return [summary(r) for r in self.rooms.values() if r.status != FINISHED]


__all__ = ["Hub"]
