"""Rummy scenarios: play one hand of Basic Rummy from a given position, as a referee.

``rummoli scenario`` hands every scenario whose ``"game"`` is ``"rummy"`` to
:func:`run_rummy_scenario`. The input fixes the players, dealer, house rules, scores and
(optionally) the position: every hand, the stock (top first), the discard pile (bottom
first) and melds already on the table; ``choices`` lists the decisions to take, and when
they run out every decision takes the first legal action. The answer is one JSON object:
the winner, stalemate, Going Rummy, the points of the hand, the scores, the melds at the
end and every event (the referee's view: private events too). The format is described in
``docs/scenarios.md``.

Bad input never raises out of :func:`run_rummy_scenario`: it becomes ``{"error": "..."}``
naming the problem, like a Rummoli scenario's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.base import GameError
from rummoli.engine.choices import play_choices
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import setup_from_dict
from rummoli.games.rummy.state import RummyState
from rummoli.games.rummy.view import event_to_json

#: The keys a Rummy scenario may have; anything else is refused, so that a misspelt key
#: (``"hand"``) is not silently ignored.
SCENARIO_KEYS = frozenset(
    {"game", "players", "dealer", "rules", "hands", "stock", "discard", "melds", "scores"}
    | {"turn", "reshuffled", "played", "choices", "description"}
)


class RummyScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


def run_rummy_scenario(data: object) -> dict[str, Any]:
    """Play the hand a decoded Rummy scenario describes; ``{"error": ...}`` for bad input.

    Errors of the engine's own making (anything but a ``ValueError``) are not caught, so
    tests and the command's "internal error" line see them.
    """
    try:
        return _play(data)
    except (GameError, ValueError) as error:
        return {"error": str(error)}


def _play(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RummyScenarioError("a scenario must be a JSON object")
    unknown = sorted(str(key) for key in data if key not in SCENARIO_KEYS)
    if unknown:
        raise RummyScenarioError(
            f"unknown rummy scenario field {', '.join(map(repr, unknown))}; "
            f"fields are {', '.join(sorted(SCENARIO_KEYS))}"
        )
    if data.get("game") != "rummy":
        raise RummyScenarioError(f"not a rummy scenario (game: {data.get('game')!r})")
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise RummyScenarioError("choices must be a list of actions such as 'Bob: discard 9S'")
    state = _build_state(data)
    events = play_choices(
        state,
        choices,
        event_to_json,
        error=RummyScenarioError,
        example="Bob: discard 9S",
        unit="hand",
    )
    return _result(state, events)


def _build_state(data: Mapping[str, Any]) -> RummyState:
    """The state at the start of the hand: rules, position, and one hand only."""
    rules = Rules.from_dict(data.get("rules"))
    setup_data = {k: v for k, v in data.items() if k not in ("choices", "description")}
    setup_data["single_hand"] = True
    return RummyState(rules, setup_from_dict(setup_data), seed=0)


def _result(state: RummyState, events: list[dict[str, Any]]) -> dict[str, Any]:
    names = state.names
    winner = state.winner
    match_winner = state.match_winner
    view = state.view(None)
    return {
        "winner": names[winner] if winner >= 0 else None,
        "stalemate": bool(state.stalemate),
        "going_rummy": state.going_rummy,
        "points": dict(zip(names, state.hand_points, strict=True)),
        "scores": dict(zip(names, state.scores, strict=True)),
        "match_winner": names[match_winner] if match_winner >= 0 else None,
        "melds": view["melds"],
        "events": events,
    }
