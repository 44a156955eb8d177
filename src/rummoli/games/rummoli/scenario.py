"""Rummoli scenarios: play a round, a position in the Rummoli phase or a whole game, as a
referee.

``rummoli scenario`` hands every scenario whose ``"game"`` is ``"rummoli"`` (or unnamed:
the files written before there was a second game) to :func:`run_rummoli_scenario`. A
scenario fixes the players, chips, dealer, house rules and cards, lists the real
decisions to take, and asks "what happens?". Three kinds:

- **one round** from the ante (the first format: ``hands`` or ``deck``, ``choices``);
- **a position in the Rummoli phase** (``laid`` and/or ``lead``): the hands still held,
  the cards laid so far, the board and chips as they are; "who must lay next, and who
  takes the 789?";
- **a whole game** (``deals``): each round's cards and choices, the cut for the first
  dealer, the settlement's cards; every round's result and the final standings.

The answer is one JSON object with every event (the ``hand`` events too: a referee sees
all hands), and with ``"views": true`` what every seat and a spectator sees at the end.
The format is a contract with users, described in ``docs/scenarios.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rummoli.cards import card_str
from rummoli.engine.base import Event, GameError
from rummoli.engine.choices import play_deals, play_until, seat_views
from rummoli.games.rummoli.rules import Rules
from rummoli.games.rummoli.setup import setup_from_dict
from rummoli.games.rummoli.state import NEXT_ROUND, RummoliState
from rummoli.games.rummoli.view import event_to_json, events_for

#: The keys a scenario object may have. Anything else is refused: a misspelt ``"hand"``
#: silently ignored would play a shuffled deck and answer the wrong question.
SCENARIO_KEYS = frozenset(
    {"game", "players", "chips", "dealer", "rules", "board", "hands", "deck", "choices"}
    | {"laid", "lead", "deals", "cut", "settlement", "views", "description"}
)
#: The keys of one item of ``deals`` (one round of a whole game).
DEAL_KEYS = frozenset({"hands", "deck", "choices", "request_end", "description"})
#: Top-level keys a whole game gives per deal instead.
_PER_DEAL = ("hands", "deck", "choices", "laid", "lead")

EXAMPLE = "Bob: bid 5"


class ScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


def run_rummoli_scenario(data: object) -> dict[str, Any]:
    """Play what a decoded scenario describes and return the result as JSON data.

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
    views = data.get("views", False)
    if not isinstance(views, bool):
        raise ScenarioError("views must be true or false")
    if "deals" in data:
        state, result, events = _whole_game(data)
    else:
        state, result, events = _one_round(data)
    if views:
        result["views"] = seat_views(state, events, events_for)
    return result


# --------------------------------------------------------------------------- one round


def _one_round(data: Mapping[str, Any]) -> tuple[RummoliState, dict[str, Any], list[Event]]:
    """A round from the ante, or from a position in the Rummoli phase."""
    if "settlement" in data:
        raise ScenarioError(
            "settlement cards are dealt only at the end of a whole game: give deals"
        )
    choices = _choices(data.get("choices", []), "choices")
    rules = Rules.from_dict(data.get("rules"))
    setup = setup_from_dict(data, rules.starting_chips)
    state = RummoliState(rules, dataclasses.replace(setup, single_round=True), seed=0)
    events = play_until(
        state, choices, lambda: False, error=ScenarioError, example=EXAMPLE, unit="round"
    )
    result = _round_result(state)
    result["events"] = [event_to_json(e, state.names) for e in events]
    return state, result, events


def _choices(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of actions such as {EXAMPLE!r}")
    return value


def _round_result(state: RummoliState) -> dict[str, Any]:
    names = state.names
    winner = state.round_winner
    return {
        "chips": dict(zip(names, state.chips, strict=True)),
        "board": state.board_dict(),
        "laid": [{"player": names[seat], "card": card_str(card)} for seat, card in state.laid],
        "poker_winners": [names[seat] for seat in state.poker_winners],
        "rummoli_winner": names[winner] if winner >= 0 else None,
        "deadlock": state.deadlocked,
    }


# --------------------------------------------------------------------------- a whole game


def _whole_game(data: Mapping[str, Any]) -> tuple[RummoliState, dict[str, Any], list[Event]]:
    """Every round of a game, each by its deal's cards and choices, to the settlement."""
    given = [key for key in _PER_DEAL if key in data]
    if given:
        raise ScenarioError(
            f"a whole game gives each round's cards and choices in deals, not {given[0]} "
            "at the top (a position in the Rummoli phase plays one round only)"
        )
    deals = data["deals"]
    if not isinstance(deals, list) or not deals:
        raise ScenarioError("deals must be a non-empty list of rounds")
    plays: list[tuple[list[object], bool]] = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict):
            raise ScenarioError(f"deal {number} must be an object")
        unknown = sorted(str(key) for key in deal if key not in DEAL_KEYS)
        if unknown:
            raise ScenarioError(
                f"deal {number}: unknown field {', '.join(map(repr, unknown))}; "
                f"fields are {', '.join(sorted(DEAL_KEYS))}"
            )
        stop = deal.get("request_end", False)
        if not isinstance(stop, bool):
            raise ScenarioError(f"deal {number}: request_end must be true or false")
        plays.append((_choices(deal.get("choices", []), f"deal {number}: choices"), stop))
    rules = Rules.from_dict(data.get("rules"))
    if not rules.rounds and not any(stop for _, stop in plays):
        # Without a number of rounds, the table stops after the last round listed.
        plays[-1] = (plays[-1][0], True)
    setup_data = {k: v for k, v in data.items() if k not in ("deals", "views", "description")}
    first = deals[0]
    for key in ("hands", "deck"):
        if key in first:
            setup_data[key] = first[key]
    setup_data["later_deals"] = [
        {key: deal[key] for key in ("hands", "deck") if key in deal} for deal in deals[1:]
    ]
    setup = setup_from_dict(setup_data, rules.starting_chips, first="deal 1: ")
    state = RummoliState(rules, setup, seed=0)
    summaries: list[dict[str, Any]] = []

    def after(new: list[Event]) -> None:
        if any(event[0] == "round_over" for event in new):
            summary = {"round": state.round_no, "dealer": state.names[state.dealer]}
            summary.update(_round_result(state))
            summaries.append(summary)

    events = play_deals(
        state,
        plays,
        round_number=lambda: state.round_no,
        between_rounds=lambda: state.phase == NEXT_ROUND,
        error=ScenarioError,
        example=EXAMPLE,
        unit="round",
        after=after,
    )
    names = state.names
    result: dict[str, Any] = {
        "deals": summaries,
        "settlement": [event_to_json(e, names) for e in events if e[0] == "settled"],
        "chips": dict(zip(names, state.chips, strict=True)),
        "board": state.board_dict(),
        "standings": [
            {"player": name, "chips": chips, "out": state.out[names.index(name)]}
            for name, chips in state.standings()
        ],
        "events": [event_to_json(e, names) for e in events],
    }
    return state, result, events
