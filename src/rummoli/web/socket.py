"""The WebSocket of a table: handshake checks, then one reader and one writer per client.

The reader only checks messages (:mod:`.protocol`) and hands good ones to the room's
owner; the writer only sends what the owner queued for this client. So a message that
is too big, too frequent, malformed or illegal is answered with an error frame to this
client and never reaches the game. Refusals that need no look at the legal actions
(a spectator's move, out of turn, stale) are made here, before the room's queue, and
each refusal draws on the sender's address budget (:mod:`.limits`): past it, this
reader waits before it reads on, so a flood slows its sender, not the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rummoli.i18n import N_
from rummoli.web import hints
from rummoli.web.chat import refusal as chat_refusal
from rummoli.web.client import Client
from rummoli.web.cluster import owner_address
from rummoli.web.commands import Action, Rematch, Say, Watched, refusal
from rummoli.web.commands import Back as BackCommand
from rummoli.web.hub import Hub
from rummoli.web.names import BadName, check_name
from rummoli.web.people import MAX_MUTED, mute
from rummoli.web.protocol import (
    MAX_STRIKES,
    Act,
    Back,
    Chat,
    Hello,
    Hint,
    Listen,
    Mute,
    Ping,
    ProtocolError,
    RateLimiter,
    React,
    Watching,
    error_message,
    parse_message,
)
from rummoli.web.protocol import Rematch as RematchMessage
from rummoli.web.room import Room
from rummoli.web.security import origin_allowed
from rummoli.web.wording import Worded

log = logging.getLogger(__name__)

#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 15.0
#: Times a connection may be made to wait for its address's budget of refusals before it
#: is closed: a person never waits once; a flood is cut off within seconds.
MAX_WAITS = 10
#: Close codes (4000-4999 are for applications) the page tells people about.
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4401
CLOSE_PRIVATE = 4403
CLOSE_PROTOCOL = 4400
#: The host removed this person from the table (his token, his browser): no reconnecting.
CLOSE_REMOVED = 4410
#: Another process owns the table (:mod:`.cluster`): the page asks where, and goes there.
CLOSE_MOVED = 4308


async def _writer(websocket: WebSocket, client: Client) -> None:
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:  # the peer is gone; the reader notices too
        pass
    finally:
        client.closed = True
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next frame's payload; raises WebSocketDisconnect when the peer leaves."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else message.get("bytes")


class _Refused(Exception):
    """A connection refused before it joins its table: the error frame's ``code`` and
    ``text`` (a sentence, or the error that says it), then the close code the page
    tells people about. Raised by the handshake's checks, answered once by
    :func:`_serve`."""

    def __init__(self, code: str, text: str | BaseException, close_code: int) -> None:
        super().__init__(code)
        self.code = code
        self.text = text
        self.close_code = close_code


async def _read_hello(websocket: WebSocket) -> Hello:
    """The connection's first message, which must be a hello, in time."""
    try:
        message = parse_message(await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT))
    except TimeoutError:
        raise _Refused("no_hello", "say hello first", CLOSE_PROTOCOL) from None
    except ProtocolError as error:
        raise _Refused(error.code, error, CLOSE_PROTOCOL) from None
    if not isinstance(message, Hello):
        raise _Refused("no_hello", "the first message must be a hello", CLOSE_PROTOCOL)
    return message


def _place(room: Room, message: Hello) -> tuple[int | None, str]:
    """Where a hello sits: its seat token's seat (``via`` ``seat``), or a spectator's
    place, with how he came in (the invitation's or the spectator link's key: at a
    private table he must bring one)."""
    if room.bans.token_banned(message.token) or room.bans.browser_banned(message.person):
        raise _Refused("removed", N_("the host removed you from this table"), CLOSE_REMOVED)
    if message.token is not None:
        seat = room.seat_for_token(message.token)
        if seat is None:
            raise _Refused(
                "bad_token", N_("this seat token is not one of this table's"), CLOSE_BAD_TOKEN
            )
        return seat, "seat"
    via = room.key_via(message.key)
    if via is None:
        raise _Refused(
            "private",
            N_("this table is private: you need its invitation or spectator link"),
            CLOSE_PRIVATE,
        )
    return None, via


async def _hello(websocket: WebSocket, room: Room, address: str) -> Client:
    """Wait for the hello; a seat token must be one of this table's, else refused. At a
    private table a spectator must bring the invitation's or the spectator link's key."""
    message = await _read_hello(websocket)
    seat, via = _place(room, message)
    name = None
    if seat is None and message.name is not None:
        # Against the seats and every other spectator (his own name, back, is his).
        back = None if message.person is None else room.people.spectator_of(message.person)
        try:
            name = check_name(message.name, room.names_taken(back))
        except BadName as error:
            await websocket.send_json(error_message("bad_name", error))
    client = Client(seat, address, name, browser=message.person, via=via)
    client.resume = message.shown
    return client


async def table_socket(
    websocket: WebSocket, table_id: str, hub: Hub, allowed_origins: Collection[str]
) -> None:
    """Serve one connection to one table, from the handshake to the goodbye."""
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), allowed_origins):
        log.warning("WebSocket from origin %r refused", origin)
        await websocket.close(code=1008)  # before accept: the handshake fails (HTTP 403)
        return
    address = websocket.client.host if websocket.client else ""
    if not hub.addresses.connect(address):
        await websocket.close(code=1008)  # too many from this address: refused unaccepted
        return
    try:
        await _serve(websocket, table_id, hub, address)
    finally:
        hub.addresses.disconnect(address)


async def _serve(websocket: WebSocket, table_id: str, hub: Hub, address: str) -> None:
    await websocket.accept()
    try:
        room = await hub.room(table_id)
        if room is None:
            if await owner_address(hub, table_id) is not None:
                raise _Refused("moved", "another process runs this table", CLOSE_MOVED)
            raise _Refused("no_table", "there is no such table", CLOSE_NO_TABLE)
        client = await _hello(websocket, room, address)
    except WebSocketDisconnect:
        return
    except _Refused as refused:
        with contextlib.suppress(WebSocketDisconnect):
            await websocket.send_json(error_message(refused.code, refused.text))
            await websocket.close(refused.close_code)
        return
    writer = asyncio.create_task(_writer(websocket, client))
    room.attach(client)
    if client.seat is not None:
        room.submit(BackCommand(client.seat))  # coming back to the table: no stand-in now
    try:
        await _read(websocket, room, client, hub)
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(client)
        client.close()
        try:
            await asyncio.wait_for(writer, 5.0)
        except (TimeoutError, asyncio.CancelledError):
            writer.cancel()


async def _read(websocket: WebSocket, room: Room, client: Client, hub: Hub) -> None:
    limiter = RateLimiter()
    limits = hub.limits
    chat = RateLimiter(limits.chat_burst, limits.chat_per_second)
    hint = RateLimiter(hints.HINT_BURST, hints.HINT_PER_SECOND)
    strikes = waits = 0
    while not client.closed:
        raw = await _receive(websocket)
        try:
            if not limiter.allow():
                raise ProtocolError("rate_limited", N_("too many messages: slow down"))
            message = parse_message(raw)
            why = None
            if isinstance(message, Act):
                why = refusal(room, client, message)
            elif isinstance(message, Chat | React):
                if not chat.allow():
                    why = ("rate_limited", N_("too many chat messages: slow down"))
                else:
                    why = chat_refusal(room, client, hub.addresses.chat(client.address))
            elif isinstance(message, Hint):
                why = hints.refusal(room, client, message.step)
                if why is None and not hint.allow():
                    why = ("rate_limited", N_("one hint every few seconds: read this one first"))
            if why is not None:
                raise ProtocolError(*why)
            if isinstance(message, Chat) and message.channel != _channel(client):
                raise ProtocolError(
                    "not_your_channel",
                    N_("you write in the players' chat")
                    if _channel(client) == "players"
                    else N_("you write in the spectators' chat"),
                )
        except ProtocolError as error:
            client.send(error_message(error.code, error, room.step if room.state else None))
            hub.metrics.refused(error.code)
            strikes += 1
            if strikes >= MAX_STRIKES:
                client.send(error_message("closed", N_("too many refused messages: goodbye")))
                client.close()  # the writer sends what is queued, then closes
                return
            wait = hub.addresses.refused(client.address)
            while wait:  # this connection pays for its refusals: it reads no further
                waits += 1
                if waits > MAX_WAITS:
                    client.send(error_message("closed", N_("too many refused messages: goodbye")))
                    client.close()
                    return
                await asyncio.sleep(wait)
                wait = hub.addresses.refused(client.address)
            continue
        strikes = 0
        if isinstance(message, Act):
            room.submit(Action(client, message))
        elif isinstance(message, Back):
            if client.seat is not None:
                room.submit(BackCommand(client.seat))
        elif isinstance(message, Ping):
            client.send({"type": "pong"})
        elif isinstance(message, Chat):
            room.submit(Say(client, "text", message.text))
        elif isinstance(message, React):
            room.submit(Say(client, "emote", message.emote))
        elif isinstance(message, Mute):
            _mute(room, client, message)
        elif isinstance(message, Listen):
            if client.seat is None:
                client.send(
                    error_message("spectator", N_("spectators read their own chat already"))
                )
            else:
                client.listen_spectators = message.on
                client.send({"type": "listening", "spectators": message.on})
        elif isinstance(message, RematchMessage):
            room.submit(Rematch(client))
        elif isinstance(message, Hint):
            hints.ask(room, client, message.step)
        elif isinstance(message, Watching):
            # The pace is this connection's own: kept now, in the order of its messages
            # (a later ping's pong comes after it). What it has seen is the room's
            # business (the wait may end), so the owner handles it.
            if message.pace_ms is not None:
                client.pace = message.pace_ms / 1000
            if message.seen is not None:
                room.submit(Watched(client, message.seen))
        else:
            client.send(error_message("bad_message", "you said hello already"))


def _mute(room: Room, client: Client, message: Mute) -> None:
    """Mute (or hear again) a sender, for this connection's person: every tab of his is
    told the change, never the whole list (:mod:`.people`)."""
    person = client.person
    if person is None:
        return
    if not mute(person, message.sender, message.on):
        client.send(
            error_message(
                "too_many_muted",
                Worded(N_("you may mute at most {n} people: unmute someone first"), n=MAX_MUTED),
            )
        )
        return
    change = {"type": "muted", "who": message.sender, "on": message.on, "count": len(person.muted)}
    for other in list(room.clients):
        if other.person is person:
            other.send(change)


def _channel(client: Client) -> str:
    return "players" if client.seat is not None else "spectators"


__all__ = ["table_socket"]
