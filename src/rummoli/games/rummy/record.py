"""Rummy match records: rules, setup, seed and actions, as JSON; and replaying them.

A record holds no cards unless the match started from a fixed position: the seed makes
every cut, deal and reshuffle again, so the record is small and replays to the same events.
"""

from __future__ import annotations

from typing import Any

from rummoli.engine.base import GameError, SetupError
from rummoli.engine.records import record_object
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import setup_from_dict
from rummoli.games.rummy.state import RummyState

RECORD_VERSION = 1


def make_record(state: RummyState) -> dict[str, Any]:
    return {
        "game": "rummy",
        "version": RECORD_VERSION,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "setup": state.setup.to_dict(),
        "actions": list(state.actions),
        "end_requested_after": state.end_requested_after,
    }


def replay(record: object) -> RummyState:
    """Rebuild a match from its record, applying every action; errors name the problem."""
    record = record_object(record)
    if record.get("game") != "rummy":
        raise SetupError(f"not a Rummy record (game: {record.get('game')!r})")
    if record.get("version") != RECORD_VERSION:
        raise SetupError(f"unsupported record version {record.get('version')!r}")
    rules = Rules.from_dict(record.get("rules"))
    setup_data = record.get("setup")
    if not isinstance(setup_data, dict):
        raise SetupError("the record has no setup")
    setup = setup_from_dict(setup_data)
    seed = record.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError("the record's seed must be a whole number")
    actions = record.get("actions", [])
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise SetupError("the record's actions must be a list of whole numbers")
    end_after = record.get("end_requested_after")
    if end_after is not None and (
        isinstance(end_after, bool)
        or not isinstance(end_after, int)
        or not 0 <= end_after <= len(actions)
    ):
        raise SetupError(
            f"the record's end_requested_after must be null or a whole number from 0 to "
            f"{len(actions)}, not {end_after!r}"
        )
    state = RummyState(rules, setup, seed)
    for index, action in enumerate(actions):
        if end_after == index:
            state.request_end()
        try:
            state.apply(action)
        except GameError as error:
            raise SetupError(f"action {index} of the record: {error}") from None
    if end_after == len(actions):
        state.request_end()
    return state
