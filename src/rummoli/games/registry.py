"""The games this project holds, by name: one way in for every interface.

Interfaces (terminal, web table, simulations) create and replay games through these two
functions, so adding a game means adding it here, not in every interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummoli.engine.base import GameState, SetupError
from rummoli.engine.records import record_object

GAMES = ("rummoli", "rummy")


def new_game(
    game: str, players: Sequence[str], rules: Mapping[str, Any] | None = None, seed: int = 0
) -> GameState:
    """A new game of ``game`` for ``players`` with house rules by name."""
    if game == "rummoli":
        from rummoli.games.rummoli import Rules, RummoliState

        return RummoliState.new_game(list(players), Rules.from_dict(dict(rules or {})), seed)
    if game == "rummy":
        from rummoli.games.rummy import Rules as RummyRules
        from rummoli.games.rummy import RummyState

        return RummyState.new_game(list(players), RummyRules.from_dict(dict(rules or {})), seed)
    raise SetupError(f"unknown game {game!r}; games are {', '.join(GAMES)}")


def replay(record: object) -> GameState:
    """Rebuild any game of the project from its JSON record."""
    record = record_object(record)
    game = record.get("game")
    if game == "rummoli":
        from rummoli.games.rummoli import replay as replay_rummoli

        return replay_rummoli(record)
    if game == "rummy":
        from rummoli.games.rummy import replay as replay_rummy

        return replay_rummy(record)
    raise SetupError(f"unknown game {game!r} in the record; games are {', '.join(GAMES)}")
