"""Game records: rules, setup, seed and actions, as JSON; and replaying them.

A record holds no cards unless the game started from a fixed position: the seed makes
every shuffle again, so the record is small and replays to the same events.
"""

from __future__ import annotations

from typing import Any

from rummoli.engine import records
from rummoli.engine.records import record_parts, replay_actions
from rummoli.games.rummoli.rules import Rules
from rummoli.games.rummoli.setup import setup_from_dict
from rummoli.games.rummoli.state import RummoliState

RECORD_VERSION = 1


def make_record(state: RummoliState) -> dict[str, Any]:
    return records.make_record(state, "rummoli", RECORD_VERSION)


def replay(record: object) -> RummoliState:
    """Rebuild a game from its record, applying every action; errors name the problem."""
    parts = record_parts(record, "rummoli", "Rummoli", RECORD_VERSION)
    rules = Rules.from_dict(parts.rules)
    setup = setup_from_dict(parts.setup, rules.starting_chips)
    return replay_actions(RummoliState(rules, setup, parts.seed), parts)
