"""Rummy scenarios: play a hand or a whole match of Basic Rummy, as a referee.

``rummoli scenario`` hands every scenario whose ``"game"`` is ``"rummy"`` to
:func:`run_rummy_scenario`. Two kinds:

- **one hand**: the players, dealer, house rules, scores and (optionally) the position:
  every hand, the stock (top first), the discard pile (bottom first), melds already on the
  table, and for a position from the middle of the hand whose turn it is, whether the
  stock was already rebuilt once, who has melded; ``choices`` lists the decisions. The
  answer: the winner, stalemate, Going Rummy, the points of the hand, the scores, the
  melds at the end and every event;
- **a whole match** (``deals``): each hand's cards (a position or a deck) and choices, and
  the cut for the first dealer; the answer gives every hand's result and the standings.

When the choices run out every decision takes the first legal action. With ``"views":
true`` the answer also says what every seat and a spectator sees at the end. Bad input
never raises out of :func:`run_rummy_scenario`: it becomes ``{"error": "..."}`` naming the
problem, like a Rummoli scenario's. The format is described in ``docs/scenarios.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummoli.engine.base import Event, GameError
from rummoli.engine.choices import play_deals, play_until, seat_views
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import setup_from_dict
from rummoli.games.rummy.state import HAND_OVER, RummyState
from rummoli.games.rummy.view import event_to_json, events_for

#: The keys a Rummy scenario may have; anything else is refused, so that a misspelt key
#: (``"hand"``) is not silently ignored.
SCENARIO_KEYS = frozenset(
    {"game", "players", "dealer", "rules", "hands", "stock", "discard", "melds", "scores"}
    | {"turn", "reshuffled", "played", "deck", "deals", "cut", "views"}
    | {"choices", "description"}
)
#: The keys of one item of ``deals`` (one hand of a whole match).
DEAL_KEYS = frozenset({"hands", "stock", "discard", "deck", "choices", "request_end"})
#: Top-level keys a whole match gives per deal instead.
_PER_DEAL = ("hands", "stock", "discard", "melds", "deck", "choices", "turn", "reshuffled")

EXAMPLE = "Bob: discard 9S"


class RummyScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


def run_rummy_scenario(data: object) -> dict[str, Any]:
    """Play the hand or match a decoded Rummy scenario describes; ``{"error": ...}`` for
    bad input.

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
    views = data.get("views", False)
    if not isinstance(views, bool):
        raise RummyScenarioError("views must be true or false")
    if "deals" in data:
        state, result, events = _whole_match(data)
    else:
        state, result, events = _one_hand(data)
    if views:
        result["views"] = seat_views(state, events, events_for)
    return result


def _choices(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise RummyScenarioError(f"{what} must be a list of actions such as {EXAMPLE!r}")
    return value


def _one_hand(data: Mapping[str, Any]) -> tuple[RummyState, dict[str, Any], list[Event]]:
    """The state at the start of the hand: rules, position, and one hand only."""
    choices = _choices(data.get("choices", []), "choices")
    rules = Rules.from_dict(data.get("rules"))
    setup_data = {k: v for k, v in data.items() if k not in ("choices", "description", "views")}
    setup_data["single_hand"] = True
    state = RummyState(rules, setup_from_dict(setup_data), seed=0)
    events = play_until(
        state, choices, lambda: False, error=RummyScenarioError, example=EXAMPLE, unit="hand"
    )
    result = _hand_result(state)
    result["events"] = [event_to_json(e, state.names) for e in events]
    return state, result, events


def _hand_result(state: RummyState) -> dict[str, Any]:
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
    }


def _whole_match(data: Mapping[str, Any]) -> tuple[RummyState, dict[str, Any], list[Event]]:
    """Every hand of a match, each by its deal's cards and choices, to the match's end."""
    given = [key for key in _PER_DEAL if key in data]
    if given:
        raise RummyScenarioError(
            f"a whole match gives each hand's cards and choices in deals, not {given[0]} at the top"
        )
    deals = data["deals"]
    if not isinstance(deals, list) or not deals:
        raise RummyScenarioError("deals must be a non-empty list of hands")
    plays: list[tuple[list[object], bool]] = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict):
            raise RummyScenarioError(f"deal {number} must be an object")
        unknown = sorted(str(key) for key in deal if key not in DEAL_KEYS | {"description"})
        if unknown:
            raise RummyScenarioError(
                f"deal {number}: unknown field {', '.join(map(repr, unknown))}; "
                f"fields are {', '.join(sorted(DEAL_KEYS | {'description'}))}"
            )
        stop = deal.get("request_end", False)
        if not isinstance(stop, bool):
            raise RummyScenarioError(f"deal {number}: request_end must be true or false")
        plays.append((_choices(deal.get("choices", []), f"deal {number}: choices"), stop))
    if not any(stop for _, stop in plays):
        # Short of the target, the table stops after the last hand listed.
        plays[-1] = (plays[-1][0], True)
    rules = Rules.from_dict(data.get("rules"))
    setup_data = {k: v for k, v in data.items() if k not in ("deals", "views", "description")}
    first = deals[0]
    for key in ("hands", "stock", "discard", "deck"):
        if key in first:
            setup_data[key] = first[key]
    setup_data["later_deals"] = [
        {key: deal[key] for key in ("hands", "stock", "discard", "deck") if key in deal}
        for deal in deals[1:]
    ]
    setup = setup_from_dict(setup_data, first="deal 1: ")
    state = RummyState(rules, setup, seed=0)
    summaries: list[dict[str, Any]] = []

    def after(new: list[Event]) -> None:
        if any(event[0] == "hand_over" for event in new):
            summary = {"hand": state.hand_no, "dealer": state.names[state.dealer]}
            summary.update(_hand_result(state))
            summaries.append(summary)

    events = play_deals(
        state,
        plays,
        round_number=lambda: state.hand_no,
        between_rounds=lambda: state.phase == HAND_OVER,
        error=RummyScenarioError,
        example=EXAMPLE,
        unit="hand",
        after=after,
    )
    names = state.names
    order = sorted(range(len(names)), key=lambda seat: -state.scores[seat])
    leader = state.match_leader()
    result: dict[str, Any] = {
        "deals": summaries,
        "scores": dict(zip(names, state.scores, strict=True)),
        "match_winner": names[leader] if leader >= 0 else None,
        "standings": [{"player": names[s], "points": state.scores[s]} for s in order],
        "events": [event_to_json(e, names) for e in events],
    }
    return state, result, events
