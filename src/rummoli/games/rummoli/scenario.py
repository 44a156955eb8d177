"""Rummoli scenarios: play one round from a given position, as a referee.

``rummoli scenario`` hands every scenario whose ``"game"`` is ``"rummoli"`` (or unnamed:
the files written before there was a second game) to :func:`run_rummoli_scenario`. A
scenario fixes the players, chips, dealer, house rules and cards, lists the real
decisions to take, and asks "what happens?". The answer is one JSON object: chips, board,
laid cards, winners, and every event of the round (the ``hand`` events too: a referee
sees all hands). The format is a contract with users, described in ``docs/scenarios.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rummoli.cards import card_str
from rummoli.engine.base import GameError
from rummoli.engine.choices import play_choices
from rummoli.games.rummoli.rules import Rules
from rummoli.games.rummoli.setup import setup_from_dict
from rummoli.games.rummoli.state import RummoliState
from rummoli.games.rummoli.view import event_to_json

#: The keys a scenario object may have. Anything else is refused: a misspelt ``"hand"``
#: silently ignored would play a shuffled deck and answer the wrong question.
SCENARIO_KEYS = frozenset(
    {"game", "players", "chips", "dealer", "rules", "board", "hands", "deck", "choices"}
    | {"description"}
)


class ScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


def run_rummoli_scenario(data: object) -> dict[str, Any]:
    """Play the round a decoded scenario describes and return the result as JSON data.

    Returns ``{"error": "..."}`` instead for bad input: an unknown card, a bad position,
    an unknown house rule, an illegal or left-over choice. Errors of the engine's own
    making (anything but a ``ValueError``) are not caught here, so tests see them.
    """
    try:
        return _play(data)
    except (GameError, ValueError) as error:  # SetupError, IllegalActionError, CardError
        return {"error": str(error)}


def _play(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    unknown = sorted(str(key) for key in data if key not in SCENARIO_KEYS)
    if unknown:
        raise ScenarioError(
            f"unknown scenario field {', '.join(map(repr, unknown))}; "
            f"fields are {', '.join(sorted(SCENARIO_KEYS))}"
        )
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise ScenarioError("choices must be a list of actions such as 'Bob: bid 5'")
    state = _build_state(data)
    events = play_choices(
        state, choices, event_to_json, error=ScenarioError, example="Bob: bid 5", unit="round"
    )
    return _result(state, events)


def _build_state(data: Mapping[str, Any]) -> RummoliState:
    """The state at the start of the round: rules, position, and one round only."""
    rules = Rules.from_dict(data.get("rules"))
    setup = setup_from_dict(data, rules.starting_chips)
    return RummoliState(rules, dataclasses.replace(setup, single_round=True), seed=0)


def _result(state: RummoliState, events: list[dict[str, Any]]) -> dict[str, Any]:
    names = state.names
    winner = state.round_winner
    return {
        "chips": dict(zip(names, state.chips, strict=True)),
        "board": state.board_dict(),
        "laid": [{"player": names[seat], "card": card_str(card)} for seat, card in state.laid],
        "poker_winners": [names[seat] for seat in state.poker_winners],
        "rummoli_winner": names[winner] if winner >= 0 else None,
        "deadlock": state.deadlocked,
        "events": events,
    }
