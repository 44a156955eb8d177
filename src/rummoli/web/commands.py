"""The commands a room's owner carries out for the outside: an action, "I'm back", a join,
a chat line, the host's powers, a rematch.

:mod:`.socket`, the API and the hub only ever *submit* these to a room
(:meth:`.room.Room.submit`); the room's owner task hands them to :func:`handle` one at a
time, in arrival order, so no two of them ever change the same table at once. Each check
that can refuse a client (spectator, stale step, not your turn, illegal action, seat
taken...) is here, before anything is stored: a refused command changes nothing and
answers only its sender. The cheap refusals are also made by the connection's reader
before a command is queued (:func:`refusal`), so a flood of them never waits in a room's
queue; the owner checks again, since the table may have moved in between.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from rummoli.engine.base import IllegalActionError
from rummoli.i18n import N_
from rummoli.web.broadcast import broadcast_table, snapshot
from rummoli.web.chat import ChatError, channel_of, clean_text, deliver, sender_name
from rummoli.web.client import Client
from rummoli.web.games import events_for
from rummoli.web.leases import StaleOwner
from rummoli.web.protocol import Act, error_message
from rummoli.web.security import hash_token, new_token
from rummoli.web.settings import SettingsError, bot_name, check_name, standin_level
from rummoli.web.storage import FINISHED, OVER, PLAYING, WAITING, ChatLine, utcnow
from rummoli.web.wording import Refused, Worded, wording_of

if TYPE_CHECKING:
    from rummoli.web.room import Room

R = TypeVar("R")


@dataclass(slots=True)
class Join:
    seat: int | None
    name: str
    reply: asyncio.Future[tuple[int, str]]
    #: A rematch keeps the player's seat token: its hash, given (no new token then).
    token_hash: str | None = None


@dataclass(slots=True)
class Action:
    client: Client
    act: Act


@dataclass(slots=True)
class Back:
    seat: int


@dataclass(slots=True)
class Say:
    """A chat line (``kind`` ``text``) or a reaction (``emote``) from a connection."""

    client: Client
    kind: str
    text: str


@dataclass(slots=True)
class Host:
    """One of the host's powers (``what``: release, start, end, public, players_chat)."""

    what: str
    reply: asyncio.Future[dict[str, Any]]
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Rematch:
    """A player of this finished table asks for, or accepts, the rematch."""

    client: Client


@dataclass(slots=True)
class Watched:
    """A page has shown the table up to ``seen`` (a ``watching`` message; its pace, the
    connection's own setting, is kept by the connection's reader at once)."""

    client: Client
    seen: int


@dataclass(slots=True)
class Wake:
    """Nothing to carry out: the owner looks again at when it must act next (the table
    changed outside it: its last person left, so it must stop waiting for a move)."""


Command = Join | Action | Back | Say | Host | Rematch | Watched | Wake


async def handle(room: Room, command: Command) -> None:
    """Carry out one command; called by the room's owner task only."""
    if isinstance(command, Action):
        await _act(room, command.client, command.act)
    elif isinstance(command, Back):
        seat = room.seats[command.seat]
        if seat.away:
            seat.away = False
            if room.to_move() == seat.seat:
                room.turn_started = time.monotonic()  # his own turn: a fresh timer
            broadcast_table(room)
            tell_while_away(room, seat.seat, seat.away_since)
    elif isinstance(command, Say):
        await _say(room, command)
    elif isinstance(command, Host):
        await _answer(command.reply, _host(room, command.what, command.args))
    elif isinstance(command, Rematch):
        await _rematch(room, command.client)
    elif isinstance(command, Wake):
        pass
    elif isinstance(command, Watched):
        # A page cannot have seen the future.
        command.client.seen = min(command.seen, room.step)
        room.watched()
    else:
        await _answer(command.reply, _join(room, command.seat, command.name, command.token_hash))


def refuse_waiting(room: Room, error: Exception) -> None:
    """Answer the requests (a join, a host's power) that a stopped owner will not carry
    out, the one it was carrying out and those queued, with ``error`` (the server is
    restarting: :func:`.ops.drain`; the table was taken over: :meth:`.hub.Hub.lose`)."""
    waiting = [] if room.current is None else [room.current]
    while not room.queue.empty():
        waiting.append(room.queue.get_nowait())
    for command in waiting:
        reply = getattr(command, "reply", None)
        if isinstance(reply, asyncio.Future) and not reply.done():
            reply.set_exception(error)


async def _answer(reply: asyncio.Future[R], work: Awaitable[R]) -> None:
    """Carry out a request that waits for its answer (a join, a host's power): its
    result, its refusal, or, if another process took the table over meanwhile (the write
    refused, nothing stored: :meth:`.hub.Hub.write`), to try again at the new owner."""
    try:
        reply.set_result(await work)
    except SettingsError as error:
        reply.set_exception(error)
    except StaleOwner:
        reply.set_exception(Refused(503, MOVING))


#: What a request to a table taken over by another process is answered (its owner here
#: has stopped; the request, sent again, reaches the new one).
MOVING = N_("this table is moving to another server: try again in a moment")
#: What a removed person is told (:func:`_ban`).
REMOVED = N_("the host removed you from this table")

#: Events that are not something done for a player (his own new hand is not news).
NOT_DONE_FOR_HIM = frozenset({"hand", "dealer"})


def tell_while_away(room: Room, seat: int, since: int) -> None:
    """A player is back: his pages are told what the computer did in his seat since he
    went away (his moves and what they won), as the events he may see."""
    state = room.state
    if state is None:
        return
    name = state.names[seat]
    mine = [
        event
        for event in events_for(room.game, room.events[since:], seat, state.names)
        if event.get("player") == name and event["type"] not in NOT_DONE_FOR_HIM
    ]
    frame = {"type": "while_away", "level": standin_level(room.game), "events": mine}
    for client in room.clients:
        if client.seat == seat:
            client.send(frame)


#: What an action is refused with, by reason (:func:`turn_refusal`).
ACTION_REFUSALS = {
    "spectator": N_("spectators watch; take a seat to play"),
    "waiting": N_("the game starts when every seat is taken"),
    "game_over": N_("the game is over"),
    "stale": N_("the table has moved on: choose again"),
    "not_your_turn": N_("it is not your turn"),
}


def turn_refusal(
    room: Room, client: Client, step: int | None, words: Mapping[str, str]
) -> tuple[str, str] | None:
    """Why a seat's request about its own decision (an action, a hint) must be refused
    now, with no look at the legal actions: who may ask at all, whether there is a game,
    the step (None: any), whose turn it is. The code, and ``words``' sentence for it;
    None: let the owner decide."""
    if client.seat is None:
        code = "spectator"
    elif room.state is None:
        code = "waiting"
    elif room.status in OVER or room.state.is_terminal():
        code = "game_over"
    elif step is not None and step != room.step:
        code = "stale"
    elif room.to_move() != client.seat:
        code = "not_your_turn"
    else:
        return None
    return code, words[code]


def refusal(room: Room, client: Client, act: Act) -> tuple[str, str] | None:
    """Why ``act`` must be refused now, if the reason needs no look at the legal actions
    (who may act at all, whose turn it is, the step); None: let the owner decide."""
    return turn_refusal(room, client, act.step, ACTION_REFUSALS)


def _refuse(room: Room, client: Client, code: str, message: str, **params: object) -> None:
    said = Worded(message, **params)
    client.send(error_message(code, said, None if room.state is None else room.step))
    room.hub.metrics.refused(code)


async def _act(room: Room, client: Client, act: Act) -> None:
    if client.closed:
        return
    why = refusal(room, client, act)
    if why is not None:
        return _refuse(room, client, *why)
    state = room.shown
    assert state is not None and client.seat is not None
    legal = room.legal_now()
    if act.action not in legal:
        try:
            text = state.action_to_text(act.action)
        except IllegalActionError:
            text = str(act.action)
        choices = ", ".join(state.action_to_text(a) for a in legal[:12])
        more = " ..." if len(legal) > 12 else ""
        return _refuse(
            room,
            client,
            "illegal",
            N_("{action} is not legal now; you may: {choices}"),
            action=text,
            choices=choices + more,
        )
    room.seats[client.seat].away = False
    if room.unfolding is not None:
        await room.play_forced()
    else:
        await room.apply(act.action)


async def _join(
    room: Room, seat: int | None, name: str, token_hash: str | None = None
) -> tuple[int, str]:
    if room.status != WAITING:
        raise SettingsError(N_("the game has started; you can still watch"))
    free = [s.seat for s in room.seats if s.bot is None and s.name is None]
    if seat is None:
        if not free:
            raise SettingsError(N_("every seat is taken"))
        seat = free[0]
    elif seat not in free:
        raise SettingsError(N_("seat {seat} is not free"), seat=seat + 1)
    if room.bans.name_banned(name if isinstance(name, str) else ""):
        raise SettingsError(N_("the host removed that person from this table"))
    name = check_name(name, [s.name for s in room.seats if s.name is not None])
    token = ""
    if token_hash is None:
        token = new_token()
        token_hash = hash_token(token)
    await room.hub.write(room.hub.storage.take_seat, room.id, seat, name, token_hash, room.fence)
    room.seats[seat].name = name
    room.seats[seat].token_hash = token_hash
    if all(s.name is not None for s in room.seats):
        await room.start_game()
    else:
        broadcast_table(room)
    return seat, token


async def _say(room: Room, say: Say) -> None:
    client = say.client
    if client.closed:
        return
    try:
        if room.status in OVER:  # the reader checked; the game may have ended since
            raise ChatError("game_over", N_("the game is over: its chat is closed"))
        if room.chat.full():
            raise ChatError("chat_full", N_("this table's chat is full"))
        text = clean_text(say.text) if say.kind == "text" else say.text
    except ChatError as error:
        client.send(error_message(error.code, error))
        return
    line = ChatLine(
        idx=room.chat.next_index(),
        at=utcnow(),
        channel=channel_of(client),
        sender=client.sender,
        name=sender_name(room, client),
        kind=say.kind,
        text=text,
        step=room.step,
    )
    room.chat.count += 1  # the owner says one line at a time: the index is its own
    try:
        await room.hub.store_chat(room.id, line)  # stored before read, with the actions
    except Exception:
        room.chat.count -= 1
        raise
    room.chat.lines.append(line)
    deliver(room, line)


async def _host(room: Room, what: str, args: dict[str, Any]) -> dict[str, Any]:
    """The host's powers (the API checked the host's secret)."""
    write, storage, fence = room.hub.write, room.hub.storage, room.fence
    if what in ("release", "remove"):
        seat = args.get("seat")
        if room.status != WAITING:
            raise SettingsError(N_("a seat can be taken back only before the game starts"))
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < len(room.seats)
            or room.seats[seat].bot is not None
            or room.seats[seat].name is None
        ):
            raise SettingsError(N_("that is not a seat a person has taken"))
        if what == "remove":
            await _ban(room, seat)
        await write(storage.release_seat, room.id, seat, fence)
        room.seats[seat].name = None
        room.seats[seat].token_hash = None
        for client in list(room.clients):
            if client.seat == seat:
                client.send(
                    error_message("removed", REMOVED)
                    if what == "remove"
                    else error_message("released", N_("the host gave your seat back to the table"))
                )
                client.close()
        broadcast_table(room)
    elif what == "start":
        if room.status != WAITING:
            raise SettingsError(N_("the game has started already"))
        people = [s for s in room.seats if s.bot is None and s.name is not None]
        if not people:
            raise SettingsError(N_("at least one person must have a seat to start"))
        level = args.get("level") or standin_level(room.game)
        from rummoli.web.settings import levels

        if level not in levels(room.game):
            raise SettingsError(
                N_("level must be one of {levels}"), levels=", ".join(levels(room.game))
            )
        for seat in room.seats:
            if seat.bot is None and seat.name is None:
                name = bot_name(seat.seat)
                await write(storage.set_bot, room.id, seat.seat, name, level, fence)
                seat.name, seat.bot = name, level
        await room.start_game()
    elif what == "end":
        if room.status != PLAYING or room.state is None:
            raise SettingsError(N_("only a game being played can be ended"))
        await room.request_end()
    elif what in ("public", "players_chat"):
        value = args.get("value")
        if not isinstance(value, bool):
            raise SettingsError(f"{what} needs value: true or false")
        if what == "public":
            await write(storage.set_game, room.id, fence, public=value)
            room.public = value
            if not value:
                room.revoke("public")  # who watched only because it was listed
        else:
            await write(storage.set_game, room.id, fence, players_chat_public=value)
            room.players_chat_public = value
            for client in list(room.clients):  # what each may read has changed
                if client.seat is None:
                    client.send(snapshot(room, None, client))
        broadcast_table(room)
    elif what in ("invite_link", "watch_link"):
        from rummoli.web.security import new_secret

        secret = new_secret()
        column = "invite_hash" if what == "invite_link" else "watch_hash"
        await write(storage.set_game, room.id, fence, **{column: hash_token(secret)})
        setattr(room, column, hash_token(secret))
        room.revoke("invite" if what == "invite_link" else "watch")
        return {"secret": secret}
    else:
        raise SettingsError(
            "the host may: release, remove, start, end, public, players_chat, invite_link, "
            "watch_link"
        )
    return {"ok": True}


async def _ban(room: Room, seat: int) -> None:
    """The host removes the person of ``seat``: his name (and whatever reads like it),
    his seat token and the browsers he is connected from may not sit here again, nor
    watch (:class:`.people.Bans`), after a restart too."""
    taken = room.seats[seat]
    bans = room.bans
    if taken.name is not None:
        bans.names.append(taken.name)
    if taken.token_hash is not None:
        bans.tokens.add(taken.token_hash)
    bans.browsers |= {hash_token(c.browser) for c in room.clients if c.seat == seat and c.browser}
    await room.hub.write(room.hub.storage.set_game, room.id, room.fence, banned=bans.to_dict())
    for client in list(room.clients):  # his other tabs, watching
        if client.seat is None and bans.browser_banned(client.browser):
            client.send(error_message("removed", REMOVED))
            client.close()


async def _rematch(room: Room, client: Client) -> None:
    if client.closed:
        return
    if client.seat is None:
        return _refuse(room, client, "spectator", N_("a rematch is for the players"))
    if room.status != FINISHED:
        return _refuse(room, client, "not_over", N_("a rematch comes once the game is over"))
    seat = room.seats[client.seat]
    new = await room.hub.rematch_of(room)
    if new is None:  # the rematch is at another process: this table goes there too
        return _refuse(room, client, "moving", MOVING)
    taken = new.seats[client.seat]
    if taken.name is not None and taken.token_hash != seat.token_hash:
        # The rematch began without him (the host gave his seat to a computer player):
        # said plainly, and his page stays where it is.
        return _refuse(
            room, client, "rematch_started", N_("the rematch has already started without you")
        )
    if taken.name is None:
        reply: asyncio.Future[tuple[int, str]] = asyncio.get_running_loop().create_future()
        new.submit(Join(client.seat, seat.name or "", reply, seat.token_hash))
        try:
            await reply
        except SettingsError as error:
            found = wording_of(error)
            return _refuse(room, client, "rematch", found["text"], **found["params"])
    client.send({"type": "rematch", "table": new.id, "seat": client.seat})
    broadcast_table(room)


__all__ = [
    "MOVING",
    "Action",
    "Back",
    "Command",
    "Host",
    "Join",
    "Rematch",
    "Say",
    "handle",
    "refusal",
    "refuse_waiting",
]
