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

from rummoli.engine.scenario import Played, ScenarioForm
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
DEAL_KEYS = frozenset(
    {"hands", "stock", "discard", "deck", "choices", "request_end", "description"}
)

EXAMPLE = "Bob: discard 9S"


class RummyScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


FORM = ScenarioForm(
    keys=SCENARIO_KEYS,
    deal_keys=DEAL_KEYS,
    per_deal=("hands", "stock", "discard", "melds", "deck", "choices", "turn", "reshuffled"),
    deal_cards=("hands", "stock", "discard", "deck"),
    example=EXAMPLE,
    error=RummyScenarioError,
    event_to_json=event_to_json,
    events_for=events_for,
    unit="hand",
    whole="match",
    game="rummy",
)


def run_rummy_scenario(data: object) -> dict[str, Any]:
    """Play the hand or match a decoded Rummy scenario describes; ``{"error": ...}`` for
    bad input (:meth:`ScenarioForm.run`)."""
    return FORM.run(data, _one_hand, _whole_match)


def _one_hand(data: Mapping[str, Any]) -> Played:
    """The state at the start of the hand: rules, position, and one hand only."""
    choices = FORM.choices(data.get("choices", []), "choices")
    rules = Rules.from_dict(data.get("rules"))
    setup_data = {k: v for k, v in data.items() if k not in ("choices", "description", "views")}
    setup_data["single_hand"] = True
    state = RummyState(rules, setup_from_dict(setup_data), seed=0)
    return FORM.play_one(state, choices, lambda: _hand_result(state))


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


def _whole_match(data: Mapping[str, Any]) -> Played:
    """Every hand of a match, each by its deal's cards and choices, to the match's end."""
    plays = FORM.deals(data)
    if not any(stop for _, stop in plays):
        # Short of the target, the table stops after the last hand listed.
        plays[-1] = (plays[-1][0], True)
    rules = Rules.from_dict(data.get("rules"))
    setup = setup_from_dict(FORM.whole_setup(data), first="deal 1: ")
    state = RummyState(rules, setup, seed=0)

    def summary() -> dict[str, Any]:
        head = {"hand": state.hand_no, "dealer": state.names[state.dealer]}
        return head | _hand_result(state)

    summaries, events = FORM.play_whole(
        state,
        plays,
        round_number=lambda: state.hand_no,
        between_rounds=lambda: state.phase == HAND_OVER,
        over="hand_over",
        summary=summary,
    )
    names = state.names
    order = sorted(range(len(names)), key=lambda seat: -state.scores[seat])
    leader = state.match_leader()
    result: dict[str, Any] = {
        "deals": summaries,
        "scores": dict(zip(names, state.scores, strict=True)),
        "match_winner": names[leader] if leader >= 0 else None,
        "standings": [{"player": names[s], "points": state.scores[s]} for s in order],
        "events": FORM.events_json(events, names),
    }
    return state, result, events
