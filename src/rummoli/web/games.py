"""The games a table can hold, and what the server needs to know about each.

The rooms, the replays and the lobby are written once for every game: they create and
rebuild states through the engine API (:mod:`rummoli.games.registry`) and ask this module
the few things that differ: the house rules object, which events a seat may see, the
pause between rounds, the number of seats, the computer levels and what a seat ends
the game with (Rummoli: chips; Rummy: points).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummoli import bots
from rummoli.engine.base import Event, SetupError
from rummoli.games import registry
from rummoli.games.rummoli import Rules as RummoliRules
from rummoli.games.rummoli import RummoliState
from rummoli.games.rummoli import setup_from_dict as rummoli_setup
from rummoli.games.rummoli import view as rummoli_view
from rummoli.games.rummoli.setup import MAX_PLAYERS as RUMMOLI_MAX
from rummoli.games.rummoli.setup import MIN_PLAYERS as RUMMOLI_MIN
from rummoli.games.rummoli.state import PHASE_NAMES as RUMMOLI_PHASES
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.rummy import RummyState
from rummoli.games.rummy import setup_from_dict as rummy_setup
from rummoli.games.rummy import view as rummy_view
from rummoli.games.rummy.setup import MAX_PLAYERS as RUMMY_MAX
from rummoli.games.rummy.setup import MIN_PLAYERS as RUMMY_MIN
from rummoli.games.rummy.state import PHASE_NAMES as RUMMY_PHASES

#: A table's game state: either game (both have actions, names and request_end).
AnyState = RummoliState | RummyState
AnyRules = RummoliRules | RummyRules

RUMMOLI = "rummoli"
RUMMY = "rummy"
#: The games a table may hold, with their names for people.
GAME_TITLES = {RUMMOLI: "Rummoli", RUMMY: "Basic Rummy"}
GAMES = tuple(g for g in registry.GAMES if g in GAME_TITLES)
#: Computer players standing in for away players: the first level that exists.
STANDIN_PREFERENCE = ("basic", "random")


def check_game(game: object) -> str:
    if game not in GAMES:
        raise SetupError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    assert isinstance(game, str)
    return game


def rules_from_dict(game: str, data: Mapping[str, Any] | None) -> AnyRules:
    """A game's house rules from a JSON object (unknown names are an error)."""
    if game == RUMMY:
        return RummyRules.from_dict(dict(data or {}))
    return RummoliRules.from_dict(dict(data or {}))


def seat_limits(game: str) -> tuple[int, int]:
    return (RUMMY_MIN, RUMMY_MAX) if game == RUMMY else (RUMMOLI_MIN, RUMMOLI_MAX)


def levels(game: str) -> list[str]:
    """The computer players of ``game`` that exist now (more may be added at any time)."""
    return list(bots.levels_for(game))


def standin_level(game: str = RUMMOLI) -> str:
    """The level that plays for a player who is away past the turn timer."""
    available = levels(game)
    for level in STANDIN_PREFERENCE:
        if level in available:
            return level
    return available[0]


def new_state(game: str, names: Sequence[str], rules: AnyRules, seed: int) -> AnyState:
    state = registry.new_game(game, names, rules.to_dict(), seed)
    assert isinstance(state, RummoliState | RummyState)
    return state


def initial_state(
    game: str, rules: Mapping[str, Any], setup: Mapping[str, Any], seed: int
) -> AnyState:
    """A stored game before its first action: its rules, setup and seed."""
    if game == RUMMY:
        return RummyState(RummyRules.from_dict(dict(rules)), rummy_setup(setup), seed)
    rummoli_rules = RummoliRules.from_dict(dict(rules))
    return RummoliState(rummoli_rules, rummoli_setup(setup, rummoli_rules.starting_chips), seed)


def events_for(
    game: str, events: Iterable[Event], seat: int | None, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The events ``seat`` (None: a spectator) may see, as JSON: the engine decides."""
    if game == RUMMY:
        return rummy_view.events_for(events, seat, names)
    return rummoli_view.events_for(events, seat, names)


def between_rounds(state: AnyState) -> bool:
    """Whether the next chance step deals a new round (people get a pause to look)."""
    if isinstance(state, RummyState):
        return RUMMY_PHASES[state.phase] == "hand_over"
    return RUMMOLI_PHASES[state.phase] == "next_round"


def round_number(state: AnyState) -> int:
    return state.hand_no if isinstance(state, RummyState) else state.round_no


def final_amounts(state: AnyState) -> list[int]:
    """What each seat ends with, as stored: Rummoli's chips, Rummy's points."""
    return list(state.scores) if isinstance(state, RummyState) else list(state.chips)
