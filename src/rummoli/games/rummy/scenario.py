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

from rummoli.engine.base import CHANCE, CHANCE_ACTION, GameError
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import setup_from_dict
from rummoli.games.rummy.state import RummyState
from rummoli.games.rummy.view import event_to_json

#: The keys a Rummy scenario may have; anything else is refused, so that a misspelt key
#: (``"hand"``) is not silently ignored.
SCENARIO_KEYS = frozenset(
    {"game", "players", "dealer", "rules", "hands", "stock", "discard", "melds", "scores"}
    | {"choices", "description"}
)

#: Far more decisions than a hand can take (two passes through the stock, a few melds and
#: lay-offs a turn); only an engine bug that never ends the hand could reach it.
MAX_STEPS = 10_000


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
    events: list[dict[str, Any]] = []
    used = 0
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        label = ""
        if state.current_player() == CHANCE:
            action = CHANCE_ACTION
        elif used < len(choices):
            label = f"choice {used + 1} ({choices[used]!r})"
            action = _choice_action(state, choices[used], label)
            used += 1
        else:
            action = state.legal_actions()[0]
        try:
            new = state.apply(action)
        except GameError as error:
            if not label:
                raise
            raise RummyScenarioError(f"{label}: {error}") from None
        events.extend(event_to_json(event, state.names) for event in new)
    else:
        raise RuntimeError(f"the hand did not end within {MAX_STEPS} steps: {state!r}")
    if used < len(choices):
        left = len(choices) - used
        raise RummyScenarioError(
            f"{left} choice{'s' if left > 1 else ''} left over after the hand ended, "
            f"from choice {used + 1} ({choices[used]!r})"
        )
    return _result(state, events)


def _build_state(data: Mapping[str, Any]) -> RummyState:
    """The state at the start of the hand: rules, position, and one hand only."""
    rules = Rules.from_dict(data.get("rules"))
    setup_data = {k: v for k, v in data.items() if k not in ("choices", "description")}
    setup_data["single_hand"] = True
    return RummyState(rules, setup_from_dict(setup_data), seed=0)


def _choice_action(state: RummyState, choice: object, label: str) -> int:
    """The action a choice names, after checking that its player (if named) decides now.
    The name is everything before the last colon (no action text has one)."""
    if not isinstance(choice, str):
        raise RummyScenarioError(f"{label}: a choice must be text such as 'Bob: discard 9S'")
    name, colon, text = choice.rpartition(":")
    if colon:
        name = name.strip()
        if name not in state.names:
            raise RummyScenarioError(f"{label}: no player is called {name!r}")
        deciding = state.names[state.current_player()]
        if name != deciding:
            legal = ", ".join(state.action_to_text(a) for a in state.legal_actions()[:12])
            raise RummyScenarioError(
                f"{label}: it is {deciding}'s decision now, not {name}'s "
                f"({deciding} decides among: {legal})"
            )
    try:
        return state.action_from_text(text.strip())
    except GameError as error:
        raise RummyScenarioError(f"{label}: {error}") from None


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
