"""One table: its state, and the owner task that alone changes it.

Why one owner: two players clicking at once, a bot, the turn timer and a time limit all
want to change the same game. Each room has a queue, and only its owner task ever calls
``state.apply``: commands (:mod:`.commands`) are handled one at a time, so there is no
lock to forget and the order of actions is the order of the stored rows. Between
commands the owner makes the moves nobody else makes (its scheduler, :meth:`Room.run`):
the deal, computer players, the turn timer, the time limit.

For every action the owner checks it is legal (:mod:`.commands`), stores it (through the
hub's group commit, :meth:`.hub.Hub.store_action`), applies it, and only then tells every
connection what its seat may see (:mod:`.broadcast`). A room holds either game (Rummoli
or Basic Rummy) through the engine API; :mod:`.games` answers what differs.

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
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from rummoli.bots import Bot, BotError, ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, Event
from rummoli.web.broadcast import (
    broadcast_snapshots,
    broadcast_table,
    broadcast_update,
    snapshot,
)
from rummoli.web.client import Client
from rummoli.web.commands import Command, handle
from rummoli.web.games import AnyState, between_rounds, final_amounts, new_state, rules_from_dict
from rummoli.web.replay import rebuild
from rummoli.web.security import token_matches
from rummoli.web.settings import standin_level
from rummoli.web.storage import FINISHED, PLAYING, StoredGame, utcnow

if TYPE_CHECKING:
    from rummoli.web.hub import Hub

log = logging.getLogger(__name__)

Step = Callable[[], Awaitable[None]]


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
            await self._guarded(partial(handle, self, command))

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
            pause = timing.round_pause if between_rounds(self.game, state) else 0.0
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
        await self.apply(CHANCE_ACTION)

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
        await self.apply(action)

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
        broadcast_table(self)

    async def _time_up(self) -> None:
        state = self.state
        assert state is not None
        after = len(state.actions)
        await self.hub.db(self.hub.storage.request_end, self.id, after)
        state.request_end()
        broadcast_table(self)

    # ------------------------------------------------------------------ changing the game
    # The owner task only: from a command (:mod:`.commands`) or a step above.

    async def start_game(self) -> None:
        """Every seat is taken: store the game's setup, then deal everyone in."""
        names = [s.name or "" for s in self.seats]
        state = new_state(self.game, names, self.rules, self.seed)
        started = utcnow()
        await self.hub.db(self.hub.storage.start_game, self.id, state.setup.to_dict(), started)
        self.state = state
        self.status = PLAYING
        self.started_at = started
        self.turn_started = time.monotonic()
        broadcast_snapshots(self)

    async def apply(self, action: int) -> None:
        """Store the action, apply it, then tell everyone: in that order, always."""
        state = self.state
        assert state is not None
        await self.hub.store_action(self.id, len(state.actions), action)
        events = state.apply(action)
        self.events.extend(events)
        self.turn_started = time.monotonic()
        if state.is_terminal():
            finished = utcnow()
            amounts = final_amounts(self.game, state)
            await self.hub.db(self.hub.storage.finish_game, self.id, amounts, finished)
            self.status = FINISHED
            self.finished_at = finished
        broadcast_update(self, events)
        if self.status == FINISHED:
            self.hub.forget_if_idle(self)

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
        client.send(snapshot(self, client.seat))
        if client.seat is not None:
            broadcast_table(self)

    def detach(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        if client.seat is not None:
            self.seats[client.seat].connections -= 1
            broadcast_table(self)
        self.hub.forget_if_idle(self)

    def submit(self, command: Command) -> None:
        """Queue a command for the owner task (:mod:`.commands`); it never waits."""
        self.queue.put_nowait(command)


__all__ = ["Room", "Seat", "Timing"]
