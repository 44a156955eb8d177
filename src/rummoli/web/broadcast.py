"""What a room tells the outside: the frames each seat gets, and the table's public part.

Everything that leaves the server about a table is built here (and the chat's lines in
:mod:`.chat`), so the rule "each seat gets only what it may see" can be checked in these
files: a seat's part of a frame is the engine's ``state.view(seat)`` (with choices as
ranges: :mod:`.choices`) and the events that seat may see (the game's ``events_for``,
through :mod:`.games`), both of the game as the table shows it (:attr:`.room.Room.shown`);
the rest (:func:`table_info`, the lobby's :func:`summary`) is public and holds no hand,
widow, deck, stock, token, seed or link secret.

The functions read a :class:`~.room.Room` and never change it; the room's owner calls
the ``broadcast_*`` ones after it has stored and applied what changed (stored before sent).
"""

from __future__ import annotations

import time
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rummoli.engine.base import Event
from rummoli.web.chat import history_for
from rummoli.web.client import Client, encode
from rummoli.web.games import (
    AnyRules,
    events_for,
    round_number,
    seat_view,
    seat_views,
    seats_events,
)
from rummoli.web.runs import Steps, seat_parts, seats_parts
from rummoli.web.settings import standin_level

if TYPE_CHECKING:
    from rummoli.web.room import Room

#: Events of the game so far sent to a connection when it arrives (the latest ones).
LOG_LIMIT = 400


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


@lru_cache(maxsize=256)
def _public_rules(rules: AnyRules) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table's rules and the house rules it changed, worked out once per set of rules
    (they are frozen) rather than for every frame. Shared: read them, never change them."""
    return rules.to_dict(), rules.changed()


def _step(room: Room) -> int:
    return room.step


def table_info(room: Room) -> dict[str, Any]:
    """The table around the game: seats, settings, timers. Public: no token, no seed,
    no link secret."""
    state = room.state
    turn: dict[str, Any] | None = None
    to_move = room.to_move()
    if to_move is not None:
        seat = room.seats[to_move]
        turn = {"seat": seat.seat, "seconds_left": None}
        if room.turn_timer > 0 and seat.bot is None and not seat.away:
            # While the table waits for its people to see a run, the turn's clock has not
            # started (``turn_started`` is then ahead): it shows the whole time.
            elapsed = max(0.0, time.monotonic() - room.turn_started)
            turn["seconds_left"] = round(max(0.0, room.turn_timer - elapsed), 1)
    rules, changed = _public_rules(room.rules)
    return {
        "id": room.id,
        "game": room.game,
        "status": room.status,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "connected": s.bot is not None or s.connections > 0,
                "away": s.away,
            }
            for s in room.seats
        ],
        "rules": rules,
        "changed": changed,
        "turn_timer": room.turn_timer,
        "time_limit": room.time_limit,
        "standin": standin_level(room.game),
        "turn": turn,
        "last_round": bool(state and state.end_requested),
        "created_at": _iso(room.created_at),
        "started_at": _iso(room.started_at),
        "finished_at": _iso(room.finished_at),
        "ends_at": _iso(room.ends_at()),
        "public": room.public,
        # Every person left: the table waits for them (it ends as abandoned at ``ends``).
        "paused": None if room.left_at is None else {"abandon_in": _abandon_in(room)},
        "players_chat_public": room.players_chat_public,
        "rematch": _rematch(room),
        "rematch_of": room.rematch_of,
    }


def _abandon_in(room: Room) -> float:
    assert room.left_at is not None
    left = room.left_at + room.hub.limits.abandon_after - time.monotonic()
    return round(max(0.0, left), 1)


def _rematch(room: Room) -> dict[str, Any] | None:
    if room.rematch_id is None:
        return None
    new = room.hub.rooms.get(room.rematch_id)
    accepted = [] if new is None else [s.seat for s in new.seats if s.bot is None and s.name]
    return {"id": room.rematch_id, "accepted": accepted}


def snapshot(room: Room, seat: int | None, client: Client | None = None) -> dict[str, Any]:
    """Everything a connection of ``seat`` needs when it arrives (``client``: its chat
    too, the lines it may read).

    A page that comes back in the middle of a run it was showing (its hello said which
    card: ``client.resume``) gets the log only up to that card, and ``resume``: the run
    as its update frame had it, the part to go on from, and the events after the run.
    """
    state = room.state
    end = len(room.events)
    frame: dict[str, Any] = {
        "type": "state",
        "step": _step(room),
        "seat": seat,
        "table": table_info(room),
        "view": room.view(seat),
    }
    resume = _resume(room, seat, client)
    if resume is not None:
        end = resume.pop("end")
        frame["resume"] = resume
    frame["log"] = (
        []
        if state is None
        else events_for(room.game, room.events[max(0, end - LOG_LIMIT) : end], seat, state.names)
    )
    if client is not None:
        frame["chat"] = history_for(room, client)
        frame["me"] = client.sender
        frame["muted"] = sorted(client.muted)
    return frame


def _resume(room: Room, seat: int | None, client: Client | None) -> dict[str, Any] | None:
    """What a page coming back mid-run needs to go on (see :func:`snapshot`), with
    ``end``: where its log stops in the room's events; None when it was not mid-run."""
    run = room.last_run
    shown = None if client is None else client.resume
    if run is None or shown is None or room.state is None:
        return None
    step, part = shown
    if step != run.step or not 0 <= part < len(run.parts) - 1:
        return None
    names = room.state.names
    view = seat_view(room.game, run.parts.final, seat)
    events, parts = seat_parts(room.game, run.parts, run.events, seat, names, view)
    after = room.events[run.offset + len(run.events) :]
    return {
        "update": {
            "type": "update",
            "step": run.step,
            "events": events,
            "view": view,
            "parts": parts,
        },
        "from": part,
        "after": events_for(room.game, after, seat, names),
        "end": run.offset + sum(run.parts.counts[: part + 1]),
    }


def broadcast_snapshots(room: Room) -> None:
    """Every connection gets a fresh snapshot of its own seat (the game has started)."""
    for client in list(room.clients):
        client.send(snapshot(room, client.seat, client))


def update_frame(
    room: Room,
    events: list[Event],
    parts: Steps | None,
    seat: int | None,
    view: dict[str, Any] | None,
) -> dict[str, Any]:
    """An update for ``seat`` (its ``table`` apart): the events it may see and its
    ``view``; for an action shown in several steps, each step's share (:mod:`.runs`)."""
    state = room.shown
    assert state is not None and view is not None
    frame: dict[str, Any] = {"type": "update", "step": room.step, "view": view}
    if parts is None:
        frame["events"] = events_for(room.game, events, seat, state.names)
    else:
        frame["events"], frame["parts"] = seat_parts(
            room.game, parts, events, seat, state.names, view
        )
    return frame


def broadcast_update(room: Room, events: list[Event], parts: Steps | None = None) -> None:
    """After an action: each seat's view and the events it may see, and the table.

    The frames of every seat are made together: the table part is encoded once, and the
    views of all seats (and of each step of a run) are made at once
    (:func:`.games.seat_views`, :func:`.runs.seats_parts`), sharing what every seat sees
    alike. Each frame is what :func:`update_frame` makes for its seat, byte for byte."""
    clients = _players_first(room)
    if not clients:
        return
    state = room.shown
    assert state is not None
    table = encode(table_info(room))
    seats = list(dict.fromkeys(client.seat for client in clients))
    views = seat_views(room.game, state, seats, [room.forced(seat) for seat in seats])
    step = room.step
    if parts is not None:
        runs = seats_parts(room.game, parts, events, seats, state.names, views)
    else:
        seen = seats_events(room.game, events, seats, state.names)
    frames: dict[int | None, str] = {}
    for i, (seat, view) in enumerate(zip(seats, views, strict=True)):
        frame: dict[str, Any] = {"type": "update", "step": step, "view": view}
        if parts is None:
            frame["events"] = seen[i]
        else:
            frame["events"], frame["parts"] = runs[i]
        frames[seat] = f'{encode(frame)[:-1]},"table":{table}}}'
    for client in clients:
        client.send(frames[client.seat])


def broadcast_table(room: Room) -> None:
    """Seats or timers changed: everyone gets the table (the same frame for all)."""
    frame = encode({"type": "table", "step": _step(room), "table": table_info(room)})
    for client in _players_first(room):
        client.send(frame)


def _players_first(room: Room) -> list[Client]:
    """The room's connections, the seated ones first: their writers are woken first, so a
    crowd of spectators never delays the players' own frames."""
    clients = list(room.clients)
    clients.sort(key=lambda c: c.seat is None)
    return clients


def summary(room: Room) -> dict[str, Any]:
    """The table as the lobby lists it (public tables only are listed)."""
    return {
        "id": room.id,
        "game": room.game,
        "status": room.status,
        "seats": [
            {"seat": s.seat, "name": s.name, "bot": s.bot, "free": s.bot is None and not s.name}
            for s in room.seats
        ],
        "changed": room.rules.changed(),
        "turn_timer": room.turn_timer,
        "time_limit": room.time_limit,
        "round": 0 if room.state is None else round_number(room.game, room.state),
        "watching": len(room.clients),
        "created_at": _iso(room.created_at),
    }


__all__ = [
    "LOG_LIMIT",
    "broadcast_snapshots",
    "broadcast_table",
    "broadcast_update",
    "snapshot",
    "summary",
    "table_info",
]
