"""Rooms: one owner task per table applies every action, in order, and tells everyone.

Why one owner: two players clicking at once, a bot, the turn timer and a time limit all
want to change the same game. Each room has a queue, and only its owner task ever calls
``state.apply``: commands are handled one at a time, so there is no lock to forget and
the order of actions is the order of the stored rows.

For every action the owner checks it is legal, stores it, applies it, and only then
sends each connection the engine's view of that connection's seat and the events that
seat may see (the game's ``events_for``, through :mod:`.games`). Nothing else reaches a
client: no hidden hand, no widow, no deck or stock, no seed. A room holds either game
(Rummoli or Basic Rummy) through the engine API; :mod:`.games` answers what differs.

Connections are attached and detached outside the owner (that touches no game state):
the snapshot a new connection gets and the updates after it come from the same event-loop
turn, so a client never misses an update or sees one twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache, partial
from typing import Any, ParamSpec, TypeVar

import orjson

from rummoli.bots import Bot, BotError, ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, Event, IllegalActionError
from rummoli.web.games import (
    AnyRules,
    AnyState,
    between_rounds,
    events_for,
    final_amounts,
    new_state,
    round_number,
    rules_from_dict,
)
from rummoli.web.protocol import Act, error_message
from rummoli.web.replay import rebuild
from rummoli.web.security import hash_token, new_seed, new_table_id, new_token, token_matches
from rummoli.web.settings import SettingsError, TableSettings, bot_name, check_name, standin_level
from rummoli.web.storage import (
    FINISHED,
    PLAYING,
    WAITING,
    Storage,
    StoredGame,
    StoredSeat,
    utcnow,
)

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

#: Events of the game so far sent to a connection when it arrives (the latest ones).
LOG_LIMIT = 400
#: Frames waiting for one slow connection before it is dropped (it may reconnect).
OUTBOX_LIMIT = 512


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def _json(value: Any) -> str:
    """A frame as compact JSON text. orjson, not ``json``: encoding the views was the
    largest single cost of the server under load, and orjson does it about 9 times faster."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


@lru_cache(maxsize=256)
def _public_rules(rules: AnyRules) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table's rules and the house rules it changed, worked out once per set of rules
    (they are frozen) rather than for every frame. Shared: read them, never change them."""
    return rules.to_dict(), rules.changed()


class Client:
    """One WebSocket connection: its seat (None: a spectator) and its outbox.

    The owner never waits for a client: frames go into the outbox, and the connection's
    own writer task sends them. A client too slow to keep up is dropped (``None`` in the
    outbox tells the writer to close), so one bad connection cannot stall a table.
    """

    __slots__ = ("closed", "outbox", "seat")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)
        self.closed = False

    def send(self, frame: dict[str, Any] | str) -> None:
        if self.closed:
            return
        text = frame if isinstance(frame, str) else _json(frame)
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Ask the writer to close the connection after what is already queued."""
        if self.closed:
            return
        self.closed = True
        while True:
            try:
                self.outbox.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()


@dataclass(slots=True)
class Seat:
    """A seat at the table: who sits there, and whether he is here."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    #: A computer player's level; None for a person's seat.
    bot: str | None = None
    #: Away past the turn timer: a computer plays for him until he is back.
    away: bool = False
    connections: int = 0


@dataclass(slots=True)
class Join:
    seat: int | None
    name: str
    reply: asyncio.Future[tuple[int, str]]


@dataclass(slots=True)
class Action:
    client: Client
    act: Act


@dataclass(slots=True)
class Back:
    seat: int


Command = Join | Action | Back
Step = Callable[[], Awaitable[None]]


@dataclass(slots=True)
class Timing:
    """How fast the computer moves: a pause before each bot move (so people can follow),
    and before the next round's deal (so the last cards can be seen). Tests use zero."""

    bot_delay: float = 0.8
    round_pause: float = 2.5


class Room:
    """One table and its owner task."""

    def __init__(self, hub: Hub, stored: StoredGame) -> None:
        self.hub = hub
        self.id = stored.id
        self.status = stored.status
        self.game = stored.game
        self.rules = rules_from_dict(stored.game, stored.rules)
        self.seed = stored.seed
        self.turn_timer = stored.turn_timer
        self.time_limit = stored.time_limit
        self.created_at = stored.created_at
        self.started_at = stored.started_at
        self.finished_at = stored.finished_at
        self.seats = [Seat(s.seat, s.name, s.token_hash, s.bot) for s in stored.seats]
        self.state: AnyState | None = None
        self.events: list[Event] = []
        if stored.setup is not None:
            self.state, self.events = rebuild(stored)
        self.clients: set[Client] = set()
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.bots: dict[int, Bot] = {}
        self.turn_started = time.monotonic()
        self.task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"room-{self.id}")

    async def stop(self) -> None:
        for client in list(self.clients):
            client.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def run(self) -> None:
        """The owner loop: handle commands in arrival order; in between, make the moves
        nobody else makes (the deal, computer players, the turn timer, the time limit)."""
        while True:
            try:
                command = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                due = self._next_step()
                timeout = None if due is None else max(0.0, due[0] - time.monotonic())
                try:
                    command = await asyncio.wait_for(self.queue.get(), timeout)
                except TimeoutError:
                    assert due is not None
                    await self._guarded(due[1])
                    continue
            await self._guarded(partial(self._handle, command))

    async def _guarded(self, step: Step) -> None:
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug or a lost database must not kill the table
            log.exception("room %s: step failed", self.id)
            await asyncio.sleep(1.0)

    # ------------------------------------------------------------------ what comes next

    def _next_step(self) -> tuple[float, Step] | None:
        """When the owner must act by itself, and how; None: wait for the players."""
        state = self.state
        if self.status != PLAYING or state is None:
            return None
        now = time.monotonic()
        steps: list[tuple[float, Step]] = []
        ends_at = self.ends_at()
        if ends_at is not None and not state.end_requested:
            steps.append((now + max(0.0, (ends_at - utcnow()).total_seconds()), self._time_up))
        to_move = state.current_player()
        timing = self.hub.timing
        if to_move == CHANCE:
            pause = timing.round_pause if between_rounds(state) else 0.0
            steps.append((self.turn_started + pause, self._deal))
        elif to_move >= 0:
            seat = self.seats[to_move]
            if seat.bot is not None or seat.away:
                steps.append((self.turn_started + timing.bot_delay, self._computer_move))
            elif self.turn_timer > 0:
                steps.append((self.turn_started + self.turn_timer, self._timed_out))
        return min(steps, key=lambda s: s[0]) if steps else None

    def ends_at(self) -> datetime | None:
        if not self.time_limit or self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.time_limit)

    async def _deal(self) -> None:
        await self._apply(CHANCE_ACTION)

    async def _computer_move(self) -> None:
        state = self.state
        assert state is not None
        seat = state.current_player()
        bot = self._bot(seat)
        try:
            decision = await asyncio.to_thread(ask_bot, bot, state, seat)
            action = decision.action
        except BotError:
            log.exception("room %s: the bot of seat %d erred; it plays the default", self.id, seat)
            action = state.legal_actions()[0]
        await self._apply(action)

    def _bot(self, seat: int) -> Bot:
        level = self.seats[seat].bot or standin_level(self.game)
        key = seat if self.seats[seat].bot else -1 - seat
        if key not in self.bots:
            seed = (self.seed * 31 + seat) & 0xFFFF_FFFF
            self.bots[key] = make_bot(level, seed, game=self.game)
        return self.bots[key]

    async def _timed_out(self) -> None:
        state = self.state
        assert state is not None
        seat = self.seats[state.current_player()]
        seat.away = True
        log.info("room %s: %s is away; the computer plays for him", self.id, seat.name)
        self.broadcast_table()

    async def _time_up(self) -> None:
        state = self.state
        assert state is not None
        after = len(state.actions)
        await self.hub.db(self.hub.storage.request_end, self.id, after)
        state.request_end()
        self.broadcast_table()

    # ------------------------------------------------------------------ commands

    async def _handle(self, command: Command) -> None:
        if isinstance(command, Action):
            await self._act(command.client, command.act)
        elif isinstance(command, Back):
            seat = self.seats[command.seat]
            if seat.away:
                seat.away = False
                state = self.state
                if state is not None and state.current_player() == seat.seat:
                    self.turn_started = time.monotonic()  # his own turn: a fresh timer
                self.broadcast_table()
        else:
            try:
                command.reply.set_result(await self._join(command.seat, command.name))
            except SettingsError as error:
                command.reply.set_exception(error)

    def _refuse(self, client: Client, code: str, message: str) -> None:
        step = None if self.state is None else len(self.state.actions)
        client.send(error_message(code, message, step))

    async def _act(self, client: Client, act: Act) -> None:
        state = self.state
        if client.closed:
            return
        if client.seat is None:
            return self._refuse(client, "spectator", "spectators watch; take a seat to play")
        if state is None:
            return self._refuse(client, "waiting", "the game starts when every seat is taken")
        if state.is_terminal():
            return self._refuse(client, "game_over", "the game is over")
        if act.step is not None and act.step != len(state.actions):
            return self._refuse(client, "stale", "the table has moved on: choose again")
        if state.current_player() != client.seat:
            return self._refuse(client, "not_your_turn", "it is not your turn")
        legal = state.legal_actions()
        if act.action not in legal:
            try:
                text = state.action_to_text(act.action)
            except IllegalActionError:
                text = str(act.action)
            choices = ", ".join(state.action_to_text(a) for a in legal[:12])
            more = " ..." if len(legal) > 12 else ""
            return self._refuse(
                client, "illegal", f"{text} is not legal now; you may: {choices}{more}"
            )
        self.seats[client.seat].away = False
        await self._apply(act.action)

    async def _join(self, seat: int | None, name: str) -> tuple[int, str]:
        if self.status != WAITING:
            raise SettingsError("the game has started; you can still watch")
        free = [s.seat for s in self.seats if s.bot is None and s.name is None]
        if seat is None:
            if not free:
                raise SettingsError("every seat is taken")
            seat = free[0]
        elif seat not in free:
            raise SettingsError(f"seat {seat + 1} is not free")
        name = check_name(name, [s.name for s in self.seats if s.name is not None])
        token = new_token()
        token_hash = hash_token(token)
        await self.hub.db(self.hub.storage.take_seat, self.id, seat, name, token_hash)
        self.seats[seat].name = name
        self.seats[seat].token_hash = token_hash
        if all(s.name is not None for s in self.seats):
            await self._start_game()
        else:
            self.broadcast_table()
        return seat, token

    async def _start_game(self) -> None:
        names = [s.name or "" for s in self.seats]
        state = new_state(self.game, names, self.rules, self.seed)
        started = utcnow()
        await self.hub.db(self.hub.storage.start_game, self.id, state.setup.to_dict(), started)
        self.state = state
        self.status = PLAYING
        self.started_at = started
        self.turn_started = time.monotonic()
        for client in list(self.clients):
            client.send(self.snapshot(client.seat))

    # ------------------------------------------------------------------ applying

    async def _apply(self, action: int) -> None:
        """Store the action, apply it, then tell everyone: in that order, always."""
        state = self.state
        assert state is not None
        await self.hub.store_action(self.id, len(state.actions), action)
        events = state.apply(action)
        self.events.extend(events)
        self.turn_started = time.monotonic()
        if state.is_terminal():
            finished = utcnow()
            amounts = final_amounts(state)
            await self.hub.db(self.hub.storage.finish_game, self.id, amounts, finished)
            self.status = FINISHED
            self.finished_at = finished
        self._broadcast_update(events)
        if self.status == FINISHED:
            self.hub.forget_if_idle(self)

    # ------------------------------------------------------------------ what clients get

    def table_info(self) -> dict[str, Any]:
        """The table around the game: seats, settings, timers. Public: no token, no seed."""
        state = self.state
        turn: dict[str, Any] | None = None
        if state is not None and self.status == PLAYING and state.current_player() >= 0:
            seat = self.seats[state.current_player()]
            turn = {"seat": seat.seat, "seconds_left": None}
            if self.turn_timer > 0 and seat.bot is None and not seat.away:
                left = self.turn_timer - (time.monotonic() - self.turn_started)
                turn["seconds_left"] = round(max(0.0, left), 1)
        rules, changed = _public_rules(self.rules)
        return {
            "id": self.id,
            "game": self.game,
            "status": self.status,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "connected": s.bot is not None or s.connections > 0,
                    "away": s.away,
                }
                for s in self.seats
            ],
            "rules": rules,
            "changed": changed,
            "turn_timer": self.turn_timer,
            "time_limit": self.time_limit,
            "standin": standin_level(self.game),
            "turn": turn,
            "last_round": bool(state and state.end_requested),
            "created_at": _iso(self.created_at),
            "started_at": _iso(self.started_at),
            "finished_at": _iso(self.finished_at),
            "ends_at": _iso(self.ends_at()),
        }

    def _step(self) -> int:
        return 0 if self.state is None else len(self.state.actions)

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """Everything a connection of ``seat`` needs when it arrives."""
        state = self.state
        view = None if state is None else state.view(seat)
        log_events = (
            []
            if state is None
            else events_for(self.game, self.events[-LOG_LIMIT:], seat, state.names)
        )
        return {
            "type": "state",
            "step": self._step(),
            "seat": seat,
            "table": self.table_info(),
            "view": view,
            "log": log_events,
        }

    def _broadcast_update(self, events: list[Event]) -> None:
        state = self.state
        assert state is not None
        # The table part is the same for every seat: encode it once per action.
        table = _json(self.table_info())
        step = len(state.actions)
        frames: dict[int | None, str] = {}
        for client in list(self.clients):
            if client.seat not in frames:
                seat_part = _json(
                    {
                        "type": "update",
                        "step": step,
                        "events": events_for(self.game, events, client.seat, state.names),
                        "view": state.view(client.seat),
                    }
                )
                frames[client.seat] = f'{seat_part[:-1]},"table":{table}}}'
            client.send(frames[client.seat])

    def broadcast_table(self) -> None:
        frame = _json({"type": "table", "step": self._step(), "table": self.table_info()})
        for client in list(self.clients):
            client.send(frame)

    # ------------------------------------------------------------------ connections

    def seat_for_token(self, token: str) -> int | None:
        for seat in self.seats:
            if seat.bot is None and token_matches(token, seat.token_hash):
                return seat.seat
        return None

    def attach(self, client: Client) -> None:
        """A connection arrives: it gets the table now, and every update from here on."""
        self.clients.add(client)
        if client.seat is not None:
            self.seats[client.seat].connections += 1
        client.send(self.snapshot(client.seat))
        if client.seat is not None:
            self.broadcast_table()

    def detach(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        if client.seat is not None:
            self.seats[client.seat].connections -= 1
            self.broadcast_table()
        self.hub.forget_if_idle(self)

    def submit(self, command: Command) -> None:
        self.queue.put_nowait(command)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "game": self.game,
            "status": self.status,
            "seats": [
                {"seat": s.seat, "name": s.name, "bot": s.bot, "free": s.bot is None and not s.name}
                for s in self.seats
            ],
            "changed": self.rules.changed(),
            "turn_timer": self.turn_timer,
            "time_limit": self.time_limit,
            "round": 0 if self.state is None else round_number(self.state),
            "watching": len(self.clients),
            "created_at": _iso(self.created_at),
        }


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
        return [r.summary() for r in self.rooms.values() if r.status != FINISHED]


__all__ = ["Client", "Hub", "Room", "Timing"]
