"""Reading game records: the part every game shares (JSON in, an object out)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rummoli.engine.base import Event, GameError, SetupError


def record_object(record: object) -> dict[str, Any]:
    """A record given as JSON text, bytes or an already parsed object, as a dict;
    anything else is a :class:`SetupError` naming the problem."""
    if isinstance(record, str | bytes):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as error:
            raise SetupError(f"the record is not JSON: {error}") from None
    if not isinstance(record, dict):
        raise SetupError("a record must be a JSON object")
    return record


@dataclass(frozen=True, slots=True)
class RecordParts:
    """The checked parts of a record, before a game turns them into a state."""

    rules: object
    setup: dict[str, Any]
    seed: int
    actions: list[int]
    end_requested_after: int | None


class _Replayable(Protocol):
    def apply(self, action: int) -> list[Event]: ...

    def request_end(self) -> None: ...


S = TypeVar("S", bound=_Replayable)


def record_parts(record: object, game: str, title: str, version: int) -> RecordParts:
    """Check the parts every game's record shares; errors name the problem."""
    data = record_object(record)
    if data.get("game") != game:
        raise SetupError(f"not a {title} record (game: {data.get('game')!r})")
    if data.get("version") != version:
        raise SetupError(f"unsupported record version {data.get('version')!r}")
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise SetupError("the record has no setup")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError("the record's seed must be a whole number")
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise SetupError("the record's actions must be a list of whole numbers")
    end_after = data.get("end_requested_after")
    if end_after is not None and (
        isinstance(end_after, bool)
        or not isinstance(end_after, int)
        or not 0 <= end_after <= len(actions)
    ):
        raise SetupError(
            f"the record's end_requested_after must be null or a whole number from 0 to "
            f"{len(actions)}, not {end_after!r}"
        )
    return RecordParts(data.get("rules"), setup, seed, actions, end_after)


def replay_actions(state: S, parts: RecordParts) -> S:
    """Apply a record's actions (and the table's request to end) to a new state."""
    end_after = parts.end_requested_after
    for index, action in enumerate(parts.actions):
        if end_after == index:
            state.request_end()
        try:
            state.apply(action)
        except GameError as error:
            raise SetupError(f"action {index} of the record: {error}") from None
    if end_after == len(parts.actions):
        state.request_end()
    return state
