"""Game records: rules, setup, seed and actions, as JSON; and replaying them.

A record holds no cards unless the game started from a fixed position: the seed makes
every shuffle again, so the record is small and replays to the same events. Every game
of the family records the same way, under its own name (the layout's ``game``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummoli.engine import records
from rummoli.engine.records import record_parts, replay_actions
from rummoli.games.stops.setup import setup_from_dict
from rummoli.games.stops.state import FamilyRules, StopsState

RECORD_VERSION = 1


def make_record(state: StopsState) -> dict[str, Any]:
    return records.make_record(state, state.plan.game, RECORD_VERSION)


def replayer(
    game: str, title: str, rules_from_dict: Callable[[object], FamilyRules]
) -> Callable[[object], StopsState]:
    """The replay of ``game``'s records: rebuild a game from its record, applying every
    action; errors name the problem."""

    def replay(record: object) -> StopsState:
        parts = record_parts(record, game, title, RECORD_VERSION)
        rules = rules_from_dict(parts.rules)
        setup = setup_from_dict(parts.setup, rules.starting_chips, plan=rules.layout())
        return replay_actions(StopsState(rules, setup, parts.seed), parts)

    replay.__doc__ = f"Rebuild a game of {title} from its record, applying every action."
    return replay
