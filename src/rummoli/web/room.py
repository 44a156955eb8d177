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

**What the table shows** is :attr:`Room.shown`: the real game, except while a step the
engine made in one go is shown turn by turn (:class:`.games.Unfolding`: Rummoli's pay
card passes, which must look chosen). Then the forced seat takes its turn like any other
(its frames, its timer, its computer's pause), and :attr:`Room.step`, the step clients
see and send back, counts those turns too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from rummoli.bots import Bot, BotError, ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, Event
from rummoli.i18n import N_
from rummoli.web import logs
from rummoli.web.broadcast import (
    broadcast_snapshots,
    broadcast_table,
    broadcast_update,
    snapshot,
)
from rummoli.web.chat import ChatLog
from rummoli.web.client import Client
from rummoli.web.commands import Command, Wake, handle
from rummoli.web.games import (
    AnyState,
    Unfolding,
    between_rounds,
    final_amounts,
    new_state,
    round_number,
    rules_from_dict,
    seat_view,
    web_part,
)
from rummoli.web.leases import StaleOwner
from rummoli.web.people import Bans, People, Person
from rummoli.web.protocol import error_message
from rummoli.web.replay import forced_turns, rebuild
from rummoli.web.runs import Run, Steps, run_parts
from rummoli.web.seating import Seat, Timing
from rummoli.web.security import stream_seed, token_matches
from rummoli.web.settings import standin_level
from rummoli.web.storage import ABANDONED, FINISHED, PLAYING, StoredGame, utcnow

if TYPE_CHECKING:
    from rummoli.web.hub import Hub

log = logging.getLogger(__name__)

Step = Callable[[], Awaitable[None]]


#: The longest the table waits for its people to watch one step, in seconds (a run of
#: 35 cards at the slowest pace a page may ask for is 70 s; the table moves on before).
MAX_WATCH = 30.0
#: The most a page may hold its table up in one round, in all: three runs' worth of the
#: longest wait (a person at the slowest pace watches a round's runs in about 90 s; a
#: page that says it watches slowly and never says it has seen held every run 30 s).
WATCH_BUDGET = 3 * MAX_WATCH


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
        self.public = stored.public
        self.invite_hash = stored.invite_hash
        self.watch_hash = stored.watch_hash
        self.host_hash = stored.host_hash
        self.players_chat_public = stored.players_chat_public
        self.rematch_id = stored.rematch_id
        self.rematch_of = stored.rematch_of
        #: The lease's epoch this room runs under, its writes' fence (:attr:`fence`).
        self.epoch = hub.held.get(stored.id)
        self.state: AnyState | None = None
        #: The events shown so far (a forced turn's move is held back until its turn).
        self.events: list[Event] = []
        if stored.setup is not None:
            self.state, self.events = rebuild(stored)
        #: A step being shown turn by turn, while its forced turns are played.
        self.unfolding: Unfolding | None = None
        #: Forced turns shown so far: the steps clients count, beyond the engine's.
        self.extra_steps = forced_turns(stored) if stored.setup is not None else 0
        #: The last action shown in several steps (a run of laid cards), for a page that
        #: reloads while it is shown.
        self.last_run: Run | None = None
        self.chat = ChatLog.of(stored.chat, hub.limits)
        #: Who is who: stable ids, chat names, mutes (:mod:`.people`); the host's bans.
        self.people = People()
        self.bans = Bans.of(stored.banned)
        self.clients: set[Client] = set()
        #: When someone last looked at the table (idle finished games are unloaded).
        self.last_active = time.monotonic()
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        #: The command being carried out (left set if the owner is stopped during it).
        self.current: Command | None = None
        self.bots: dict[int, Bot] = {}
        self.turn_started = time.monotonic()
        #: When the last person at the table left (None: someone is here). A table with
        #: none of its people plays on for nobody: it pauses, and ends as abandoned
        #: after :attr:`.limits.Limits.abandon_after` (a table resumed after a restart
        #: waits for its people the same way).
        self.left_at: float | None = time.monotonic() if self.status == PLAYING else None
        self.task: asyncio.Task[None] | None = None
        #: The owner is carrying out a step (a command, a move), and the server is
        #: stopping: it stops after this step (:meth:`drain`).
        self.busy = False
        self.draining = False

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

    async def drain(self, timeout: float) -> bool:
        """Stop the owner once the step under way is done (the server is stopping:
        :func:`.ops.drain`), so that no step is left half done (an action stored but not
        applied, a game over but not marked finished). Past ``timeout`` the owner is
        cancelled all the same. True if it stopped by itself."""
        self.draining = True
        task = self.task
        if task is None or task.done():
            return True
        if not self.busy:
            task.cancel()  # it waits for a command or for its next move: nothing under way
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return False
        except asyncio.CancelledError:
            if not task.cancelled():
                raise
        return True

    async def run(self) -> None:
        """The owner loop: handle commands in arrival order; in between, make the moves
        nobody else makes (the deal, computer players, the turn timer, the time limit)."""
        logs.TABLE.set(self.id)  # every log line of this table's owner names it
        while not self.draining:
            try:
                command = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                due = self._next_step()
                timeout = None if due is None else max(0.0, due[0] - time.monotonic())
                try:
                    command = await asyncio.wait_for(self.queue.get(), timeout)
                except TimeoutError:
                    # The table may have changed while it waited (its people left).
                    due = self._next_step()
                    if due is not None and due[0] <= time.monotonic():
                        await self._guarded(due[1])
                    continue
            self.current = command
            await self._guarded(partial(handle, self, command))
            self.current = None

    async def _guarded(self, step: Step) -> None:
        self.busy = True
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except StaleOwner:  # the table was taken over: the hub is dropping it
            log.info("room %s: a write refused, the table has another owner", self.id)
        except Exception:  # a bug or a lost database must not kill the table
            log.exception("room %s: step failed", self.id)
            await asyncio.sleep(1.0)
        finally:
            self.busy = False

    @property
    def fence(self) -> dict[str, int]:
        """The fence of this room's writes (:mod:`.owned`): the epoch it runs under, not
        the hub's of the moment (a write made while the hub lets the table go is refused,
        not made unchecked). A game over has one too: its keeper's (:meth:`.hub.Hub.room`)."""
        if self.epoch is None:
            return {}
        return {self.id: self.epoch}

    # ------------------------------------------------------------------ what is shown

    @property
    def shown(self) -> AnyState | None:
        """The game as the table shows it (see the module's doc)."""
        return self.unfolding.state if self.unfolding is not None else self.state

    @property
    def step(self) -> int:
        """The step clients see: actions applied, and forced turns shown."""
        shown = self.shown
        return 0 if shown is None else len(shown.actions) + self.extra_steps

    def to_move(self) -> int | None:
        """The seat the table shows to move (None: nobody, or not started)."""
        shown = self.shown
        if shown is None or self.status != PLAYING:
            return None
        seat = shown.current_player()
        return seat if seat >= 0 else None

    def forced(self, seat: int | None) -> int | None:
        """The one action of ``seat`` if it is taking a forced turn now, else None."""
        turn = None if self.unfolding is None else self.unfolding.next()
        return turn[1] if turn is not None and turn[0] == seat else None

    def legal_now(self) -> list[int]:
        """What the seat to move may do now: its legal actions, or its forced one."""
        if self.unfolding is not None:
            turn = self.unfolding.next()
            return [] if turn is None else [turn[1]]
        return [] if self.state is None else self.state.legal_actions()

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """What a frame shows ``seat``: the engine's view (choices as ranges)."""
        shown = self.shown
        return None if shown is None else seat_view(self.game, shown, seat, self.forced(seat))

    # ------------------------------------------------------------------ what comes next

    def _next_step(self) -> tuple[float, Step] | None:
        """When the owner must act by itself, and how; None: wait for the players."""
        state = self.shown
        if self.status != PLAYING or state is None or self.state is None:
            return None
        now = time.monotonic()
        if self.left_at is not None:
            return self.left_at + self.hub.limits.abandon_after, self._abandon
        steps: list[tuple[float, Step]] = []
        ends_at = self.ends_at()
        if ends_at is not None and not self.state.end_requested:
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
        state = self.shown
        assert state is not None
        seat = state.current_player()
        bot = self._bot(seat)
        try:
            # In a forced turn the computer thinks as it would over a real choice (the
            # same time taken, so a forced pass is not quicker), then makes the forced one.
            decision = await asyncio.to_thread(ask_bot, bot, state, seat)
            action = decision.action
        except BotError:
            log.exception("room %s: the bot of seat %d erred; it plays the default", self.id, seat)
            action = state.legal_actions()[0]
        if self.unfolding is not None:
            await self.play_forced()
        else:
            await self.apply(action)

    def _bot(self, seat: int) -> Bot:
        """The computer of ``seat``, or the stand-in playing for its away person: each
        with a stream of its own, derived from the whole seed by a keyed hash (never by
        arithmetic on it: :func:`.security.stream_seed` says why)."""
        computer = self.seats[seat].bot is not None
        key = seat if computer else -1 - seat
        if key not in self.bots:
            level = self.seats[seat].bot or standin_level(self.game)
            purpose = f"{'computer' if computer else 'standin'}:{seat}"
            self.bots[key] = make_bot(level, stream_seed(self.seed, purpose), game=self.game)
        return self.bots[key]

    async def _timed_out(self) -> None:
        state = self.shown
        assert state is not None
        seat = self.seats[state.current_player()]
        seat.away = True
        seat.away_since = len(self.events)
        log.info("room %s: %s is away; the computer plays for him", self.id, seat.name)
        broadcast_table(self)

    async def _time_up(self) -> None:
        await self.request_end()

    async def _abandon(self) -> None:
        """Nobody came back: the game ends here, as abandoned (each seat keeps what it
        has now, for the history; no statistics count it)."""
        await self.finish(ABANDONED)
        self.left_at = None
        log.info("room %s: abandoned (every person left)", self.id)
        broadcast_table(self)
        self.hub.forget_if_idle(self)

    def people_here(self) -> bool:
        """Whether a person seated at the table is connected (spectators do not count)."""
        return any(s.bot is None and s.connections > 0 for s in self.seats)

    async def request_end(self) -> None:
        """The round being played is the last (a time limit, or the host ends the game)."""
        state = self.state
        assert state is not None
        if state.end_requested:
            return
        after = len(state.actions)
        await self.hub.write(self.hub.storage.request_end, self.id, after, self.fence)
        state.request_end()
        broadcast_table(self)

    # ------------------------------------------------------------------ changing the game
    # The owner task only: from a command (:mod:`.commands`) or a step above.

    async def start_game(self) -> None:
        """Every seat is taken: store the game's setup, then deal everyone in."""
        names = [s.name or "" for s in self.seats]
        state = new_state(self.game, names, self.rules, self.seed)
        started = utcnow()
        setup = state.setup.to_dict()
        await self.hub.write(self.hub.storage.start_game, self.id, setup, started, self.fence)
        self.state = state
        self.status = PLAYING
        self.started_at = started
        self.turn_started = time.monotonic()
        # Seated through the lobby but not at the table yet: it waits for them.
        self.left_at = None if self.people_here() else time.monotonic()
        broadcast_snapshots(self)

    async def apply(self, action: int) -> None:
        """Store the action, apply it, then tell everyone: in that order, always."""
        state = self.state
        assert state is not None and self.unfolding is None
        part = web_part(self.game)
        may_unfold = (
            part.unfold is not None and part.may_unfold is not None and part.may_unfold(state)
        )
        before = state.clone() if may_unfold or part.steps is not None else None
        started = time.perf_counter()
        await self.hub.store_action(self.id, len(state.actions), action)
        events = state.apply(action)
        if may_unfold and before is not None and part.unfold is not None:
            self.unfolding = part.unfold(before, action, events)
        parts = None
        if self.unfolding is not None:
            events = self.unfolding.events
            self._unfolded()
        elif before is not None:
            parts = run_parts(self.game, before, action, events)
        self._shown(events, parts)
        if state.is_terminal():
            await self.finish(FINISHED)
            log.info("room %s: the game is over", self.id)
        broadcast_update(self, events, parts)
        self.hub.metrics.action_done(started)
        if self.status == FINISHED:
            self.hub.forget_if_idle(self)

    async def finish(self, status: str) -> None:
        """The game is over (``status``: finished, or abandoned): stored with what each
        seat has now and the rounds played, before anyone is told."""
        state = self.state
        assert state is not None
        finished = utcnow()
        amounts = final_amounts(self.game, state)
        rounds = round_number(self.game, state)
        # Its lease stays: the process keeps the game over while people look at it
        # (one rematch, one host), and lets it go when it unloads it (Hub.forget_if_idle).
        await self.hub.write(
            self.hub.storage.finish_game, self.id, amounts, finished, status, rounds, self.fence
        )
        self.status = status
        self.finished_at = finished

    async def play_forced(self) -> None:
        """The forced seat takes its turn: its forced move is shown now (it was stored,
        and applied to the real game, with the step that forced it)."""
        unfolding = self.unfolding
        assert unfolding is not None
        turn = unfolding.next()
        assert turn is not None
        before = unfolding.state.clone()
        events = unfolding.play()
        parts = run_parts(self.game, before, turn[1], events)
        self._unfolded()
        self._shown(events, parts)
        broadcast_update(self, events, parts)

    def _shown(self, events: list[Event], parts: Steps | None) -> None:
        """A step's events join the log; a run shown card by card is kept (a page that
        reloads during it goes on from the card it had shown: :func:`.broadcast.snapshot`)."""
        self.turn_started = time.monotonic() + self.watch_time(events)
        if parts is not None:
            self.last_run = Run(self.step, len(self.events), events, parts)
        self.events.extend(events)

    def _watching(self) -> list[Client]:
        """The seated pages that show runs at a pace (spectators never hold a table up)."""
        return [c for c in self.clients if c.seat is not None and not c.closed and c.pace]

    def watch_time(self, events: list[Event]) -> float:
        """How long the table gives its people to see ``events`` before its next move
        (a computer's, the deal, a turn timer's start): the events a page shows one at a
        time, at each seated page's pace, at most :data:`MAX_WATCH`, and at most what is
        left of that page's :data:`WATCH_BUDGET` for this round: past it, the table no
        longer waits for that page (one slow client cannot slow the table). A page that
        has shown them says so (:meth:`watched`): the table moves on sooner, and the
        wait it did not use is its own again."""
        paced = web_part(self.game).paced
        if not paced or not self.hub.timing.watch or self.state is None:
            return 0.0
        count = sum(1 for e in events if e[0] in paced)
        if not count:
            return 0.0
        now = time.monotonic()
        this_round = round_number(self.game, self.state)
        longest = 0.0
        for client in self._watching():
            spent = client.waited[1] if client.waited[0] == this_round else 0.0
            wait = max(0.0, min(MAX_WATCH, count * client.pace, WATCH_BUDGET - spent))
            client.waited = (this_round, spent + wait)
            client.watch_until = now + wait
            longest = max(longest, wait)
        return longest

    def watched(self) -> None:
        """A page has shown some steps: once every seated page that shows runs at a pace
        has shown this step (or used the wait it had), the wait for them ends."""
        now = time.monotonic()
        if self.turn_started <= now:
            return
        step = self.step
        until = now
        for client in self._watching():
            if client.seen >= step:
                if client.watch_until > now:  # it did not need all of its wait
                    this_round, spent = client.waited
                    client.waited = (this_round, spent - (client.watch_until - now))
                    client.watch_until = now
            else:
                until = max(until, client.watch_until)
        self.turn_started = min(self.turn_started, until)

    def _unfolded(self) -> None:
        """Every forced turn of the step has been shown: the table shows the real game."""
        unfolding = self.unfolding
        if unfolding is None or unfolding.next() is not None:
            return
        assert self.state is not None
        self.extra_steps += len(unfolding.state.actions) - len(self.state.actions)
        self.unfolding = None

    # ------------------------------------------------------------------ connections

    def seat_for_token(self, token: str) -> int | None:
        for seat in self.seats:
            if seat.bot is None and token_matches(token, seat.token_hash):
                return seat.seat
        return None

    def key_allows(self, key: str | None) -> bool:
        """Whether a link secret lets a visitor watch: any at a public table; at a
        private one, the invitation's, the spectator link's or the host's."""
        return self.key_via(key) is not None

    def key_via(self, key: str | None) -> str | None:
        """What lets a visitor with this key watch (``invite``, ``watch``, ``host``, or
        ``public`` at a public table without one of its keys); None: nothing. A link
        revoked later closes the connections that came in by it (:func:`revoke`)."""
        if key is not None:
            for via, stored in (
                ("invite", self.invite_hash),
                ("watch", self.watch_hash),
                ("host", self.host_hash),
            ):
                if token_matches(key, stored):
                    return via
        return "public" if self.public else None

    def revoke(self, via: str) -> None:
        """The link ``via`` no longer lets anyone watch (a new invitation or spectator
        link, the table made private): the connections that came in by it are told and
        closed (seated players came in by their seat tokens, and stay)."""
        for client in list(self.clients):
            if client.seat is None and client.via == via:
                client.send(error_message("revoked", N_("the link you came by no longer works")))
                client.close()

    def names_taken(self, but: Person | None = None) -> list[str]:
        """The names a newcomer's may not look like: the seats', every spectator's the
        table remembers (``but``'s own left out: a person back keeps his) and the removed."""
        names = [s.name for s in self.seats if s.name]
        return names + self.people.spectator_names(but) + self.bans.names

    def attach(self, client: Client) -> None:
        """A connection arrives: it gets the table now, and every update from here on.
        It is its person's (:mod:`.people`): his sender id, his name, his mutes."""
        self.last_active = time.monotonic()
        if client.seat is None:
            person = self.people.spectator(client.browser)
            person.name = client.name or person.name
        else:
            person = self.people.player(client.seat)
        person.connections += 1
        client.person = person
        client.sender, client.muted = person.sender, person.muted
        client.name = person.name if client.seat is None else client.name
        self.clients.add(client)
        if client.seat is not None:
            self.seats[client.seat].connections += 1
            if self.left_at is not None:
                # Someone is back: the table plays on, its timers from the start.
                self.left_at = None
                self.turn_started = time.monotonic()
        client.send(snapshot(self, client.seat, client))
        if client.seat is not None:
            broadcast_table(self)

    def detach(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.last_active = time.monotonic()
        self.clients.discard(client)
        if client.person is not None:
            client.person.connections -= 1
        if client.seat is not None:
            self.seats[client.seat].connections -= 1
            if self.status == PLAYING and not self.people_here():
                self.left_at = time.monotonic()
                self.submit(Wake())  # it may be waiting for a move nobody will make
            broadcast_table(self)
        self.hub.forget_if_idle(self)

    def submit(self, command: Command) -> None:
        """Queue a command for the owner task (:mod:`.commands`); it never waits."""
        self.queue.put_nowait(command)


__all__ = ["Room", "Seat", "Timing"]
