"""The commands a room's owner carries out for the outside: an action, "I'm back", a join.

:mod:`.socket` and the hub only ever *submit* these to a room (:meth:`.room.Room.submit`);
the room's owner task hands them to :func:`handle` one at a time, in arrival order, so
no two of them ever change the same table at once. Each check that can refuse a client
(spectator, stale step, not your turn, illegal action, seat taken...) is here, before
anything is stored: a refused command changes nothing and answers only its sender.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummoli.engine.base import IllegalActionError
from rummoli.web.broadcast import broadcast_table
from rummoli.web.client import Client
from rummoli.web.protocol import Act, error_message
from rummoli.web.security import hash_token, new_token
from rummoli.web.settings import SettingsError, check_name
from rummoli.web.storage import WAITING

if TYPE_CHECKING:
    from rummoli.web.room import Room


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


async def handle(room: Room, command: Command) -> None:
    """Carry out one command; called by the room's owner task only."""
    if isinstance(command, Action):
        await _act(room, command.client, command.act)
    elif isinstance(command, Back):
        seat = room.seats[command.seat]
        if seat.away:
            seat.away = False
            state = room.state
            if state is not None and state.current_player() == seat.seat:
                room.turn_started = time.monotonic()  # his own turn: a fresh timer
            broadcast_table(room)
    else:
        try:
            command.reply.set_result(await _join(room, command.seat, command.name))
        except SettingsError as error:
            command.reply.set_exception(error)


def _refuse(room: Room, client: Client, code: str, message: str) -> None:
    step = None if room.state is None else len(room.state.actions)
    client.send(error_message(code, message, step))


async def _act(room: Room, client: Client, act: Act) -> None:
    state = room.state
    if client.closed:
        return
    if client.seat is None:
        return _refuse(room, client, "spectator", "spectators watch; take a seat to play")
    if state is None:
        return _refuse(room, client, "waiting", "the game starts when every seat is taken")
    if state.is_terminal():
        return _refuse(room, client, "game_over", "the game is over")
    if act.step is not None and act.step != len(state.actions):
        return _refuse(room, client, "stale", "the table has moved on: choose again")
    if state.current_player() != client.seat:
        return _refuse(room, client, "not_your_turn", "it is not your turn")
    legal = state.legal_actions()
    if act.action not in legal:
        try:
            text = state.action_to_text(act.action)
        except IllegalActionError:
            text = str(act.action)
        choices = ", ".join(state.action_to_text(a) for a in legal[:12])
        more = " ..." if len(legal) > 12 else ""
        return _refuse(
            room, client, "illegal", f"{text} is not legal now; you may: {choices}{more}"
        )
    room.seats[client.seat].away = False
    await room.apply(act.action)


async def _join(room: Room, seat: int | None, name: str) -> tuple[int, str]:
    if room.status != WAITING:
        raise SettingsError("the game has started; you can still watch")
    free = [s.seat for s in room.seats if s.bot is None and s.name is None]
    if seat is None:
        if not free:
            raise SettingsError("every seat is taken")
        seat = free[0]
    elif seat not in free:
        raise SettingsError(f"seat {seat + 1} is not free")
    name = check_name(name, [s.name for s in room.seats if s.name is not None])
    token = new_token()
    token_hash = hash_token(token)
    await room.hub.db(room.hub.storage.take_seat, room.id, seat, name, token_hash)
    room.seats[seat].name = name
    room.seats[seat].token_hash = token_hash
    if all(s.name is not None for s in room.seats):
        await room.start_game()
    else:
        broadcast_table(room)
    return seat, token


__all__ = ["Action", "Back", "Command", "Join", "handle"]
