"""Game records: the part every game shares (a state's record out, JSON in, an object out).

A record keeps the version of the rules its game was played under (``rules_version``, in
its rules), as a stored game of 18xx.games does: when a later version of the engine
changes what a rule does, the old game still replays as it was played. Every game's
rules object carries the version it plays (the current one for a new table); what was
stored before records carried one is version 1 (:func:`stored_rules`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rummoli.engine.base import Event, GameError, SetupError


class _ToDict(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class _Recorded(Protocol):
    """What a record is made of: the rules, setup and seed a game started from, its
    actions, and when the table asked to end (None: it did not). The rules and setup are
    read-only here, so that each game's own classes match them; the rest are the plain
    attributes every state has."""

    seed: int
    actions: list[int]
    end_requested_after: int | None

    @property
    def rules(self) -> _ToDict: ...

    @property
    def setup(self) -> _ToDict: ...


#: The rules version of a record (or a stored table) that does not say: the rules that
#: were played before records carried their version.
FIRST_RULES_VERSION = 1


def check_rules_version(version: object, current: int) -> None:
    """A rules version must be a version this engine knows (1 to ``current``)."""
    if (
        isinstance(version, bool)
        or not isinstance(version, int)
        or not FIRST_RULES_VERSION <= version <= current
    ):
        raise SetupError(
            f"rules_version must be a whole number from {FIRST_RULES_VERSION} to {current} "
            f"(the versions this engine plays), not {version!r}"
        )


def stored_rules(rules: object) -> object:
    """A stored game's rules (a record's, a stored table's) as its rules object reads
    them: rules stored without a ``rules_version`` were played under version 1. Rules a
    person gives (a new table, a scenario) get the current version instead."""
    if rules is None:
        return {"rules_version": FIRST_RULES_VERSION}
    if isinstance(rules, Mapping) and "rules_version" not in rules:
        return {**rules, "rules_version": FIRST_RULES_VERSION}
    return rules


def make_record(state: _Recorded, game: str, version: int) -> dict[str, Any]:
    """The record of ``state`` as JSON data: it replays to the same events (the seed
    makes every shuffle again, so it holds no cards unless the setup fixed them)."""
    return {
        "game": game,
        "version": version,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "setup": state.setup.to_dict(),
        "actions": list(state.actions),
        "end_requested_after": state.end_requested_after,
    }


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
    return RecordParts(stored_rules(data.get("rules")), setup, seed, actions, end_after)


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
