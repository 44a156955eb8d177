"""Rummy match records: rules, setup, seed and actions, as JSON; and replaying them.

A record holds no cards unless the match started from a fixed position: the seed makes
every cut, deal and reshuffle again, so the record is small and replays to the same events.
"""

from __future__ import annotations

from typing import Any

from rummoli.engine import records
from rummoli.engine.records import record_parts, replay_actions
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import setup_from_dict
from rummoli.games.rummy.state import RummyState

RECORD_VERSION = 1


def make_record(state: RummyState) -> dict[str, Any]:
    return records.make_record(state, "rummy", RECORD_VERSION)


def replay(record: object) -> RummyState:
    """Rebuild a match from its record, applying every action; errors name the problem."""
    parts = record_parts(record, "rummy", "Rummy", RECORD_VERSION)
    rules = Rules.from_dict(parts.rules)
    setup = setup_from_dict(parts.setup)
    return replay_actions(RummyState(rules, setup, parts.seed), parts)
