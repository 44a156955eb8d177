"""Rebuilding a stored game by replaying its actions: for resuming, replays and records.

A stored game is its rules, setup, seed and actions; applying the actions again gives the
same state and the same events (the engine is deterministic), forced moves included. The
server uses this after a restart (to resume every unfinished table exactly), and for the
replay page of a finished game, whose frames are each one seat's view, built here, on
the server: the browser never gets more than that seat saw at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummoli.engine.base import Event
from rummoli.web.games import AnyState, events_for, initial_state, seat_view, web_part
from rummoli.web.runs import run_parts, seat_parts
from rummoli.web.storage import OVER, StoredGame

StepHook = Callable[[AnyState, int, list[Event]], None]


def _start(stored: StoredGame) -> AnyState:
    assert stored.setup is not None
    return initial_state(stored.game, stored.rules, stored.setup, stored.seed)


def rebuild(stored: StoredGame, on_step: StepHook | None = None) -> tuple[AnyState, list[Event]]:
    """The state of a started game after all its stored actions, and every event so far.

    ``on_step(state, action, events)`` is called after each action. The table's request
    to end (a time limit) is applied where it was made, as :func:`..record.replay` does.
    """
    if stored.setup is None:
        raise ValueError(f"game {stored.id} has not started: there is nothing to rebuild")
    state = _start(stored)
    end_after = stored.end_requested_after
    events: list[Event] = []
    for index, action in enumerate(stored.actions):
        if end_after == index:
            state.request_end()
        new = state.apply(action)
        events.extend(new)
        if on_step is not None:
            on_step(state, action, new)
    if end_after is not None and end_after >= len(stored.actions):
        state.request_end()
    return state, events


def forced_turns(stored: StoredGame) -> int:
    """How many forced turns the table showed in this game (:class:`.games.Unfolding`):
    the steps clients count beyond the engine's, worked out again after a restart by
    replaying the game the way the table showed it."""
    part = web_part(stored.game)
    if stored.setup is None or part.unfold is None or part.may_unfold is None:
        return 0
    state = _start(stored)
    count = 0
    for index, action in enumerate(stored.actions):
        if stored.end_requested_after == index:
            state.request_end()
        before = state.clone() if part.may_unfold(state) else None
        events = state.apply(action)
        unfolding = None if before is None else part.unfold(before, action, events)
        while unfolding is not None and unfolding.next() is not None:
            unfolding.play()
            count += 1
    return count


def record_of(stored: StoredGame) -> dict[str, Any]:
    """The JSON record of a finished game (it holds the seed, so it reveals every card:
    that is why unfinished games have none)."""
    if stored.status not in OVER:
        raise PermissionError("the record is available once the game is over")
    state, _ = rebuild(stored)
    return state.record()


def replay_frames(stored: StoredGame, seat: int | None) -> dict[str, Any]:
    """Every step of a finished game as ``seat`` (None: a spectator) saw it.

    Frame 0 is the table before the first action; frame k is the view after k actions,
    with the events of that action ``seat`` could see, and, for an action the table
    showed in several steps (a run of laid cards), each step's share as the table's
    frames have it (``parts``: :mod:`.runs`). Only finished games are replayed.
    """
    if stored.status not in OVER or stored.setup is None:
        raise PermissionError("only finished games can be replayed")
    names = list(stored.setup["players"])
    if seat is not None and not 0 <= seat < len(names):
        raise ValueError(f"seat must be from 0 to {len(names) - 1}")
    state = _start(stored)
    frames: list[dict[str, Any]] = [
        {"step": 0, "events": [], "view": seat_view(stored.game, state, seat)}
    ]
    steps = web_part(stored.game).steps
    for index, action in enumerate(stored.actions):
        if stored.end_requested_after == index:
            state.request_end()
        before = state.clone() if steps is not None else None
        events = state.apply(action)
        view = seat_view(stored.game, state, seat)
        frame: dict[str, Any] = {"step": len(state.actions), "view": view}
        parts = None if before is None else run_parts(stored.game, before, action, events)
        if parts is None:
            frame["events"] = events_for(stored.game, events, seat, names)
        else:
            frame["events"], frame["parts"] = seat_parts(
                stored.game, parts, events, seat, names, view
            )
        frames.append(frame)
    # The house rules are public (the table says them): the page says why a lead.
    return {"id": stored.id, "seat": seat, "names": names, "rules": stored.rules, "frames": frames}
