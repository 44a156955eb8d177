"""The family's scenarios: play a round, a position in the runs or a whole game, as a
referee.

``rummoli scenario`` hands every scenario to its game's runner, made here for each game
of the family (:func:`scenario_runner`; Rummoli's also takes the scenarios that name no
game: the files written before there was a second game). A
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
from collections.abc import Callable, Mapping
from typing import Any

from rummoli.cards import card_str
from rummoli.engine.scenario import Played, ScenarioForm
from rummoli.games.stops.setup import setup_from_dict
from rummoli.games.stops.state import NEXT_ROUND, SETTLE, FamilyRules, StopsState
from rummoli.games.stops.view import event_to_json, events_for

#: The keys a scenario object may have. Anything else is refused: a misspelt ``"hand"``
#: silently ignored would play a shuffled deck and answer the wrong question.
SCENARIO_KEYS = frozenset(
    {"game", "players", "chips", "dealer", "rules", "board", "hands", "deck", "choices"}
    | {"laid", "lead", "deals", "cut", "settlement", "settlement_choices", "views"}
    | {"description"}
)
#: The keys of one item of ``deals`` (one round of a whole game).
DEAL_KEYS = frozenset({"hands", "deck", "choices", "request_end", "description"})

EXAMPLE = "Bob: bid 5"


class ScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


def scenario_runner(
    rules_from_dict: Callable[[object], FamilyRules], phase: str = "the Rummoli phase"
) -> Callable[[object], dict[str, Any]]:
    """The scenario runner of one game of the family: ``rules_from_dict`` reads its
    house rules; ``phase`` names its play in messages."""
    return _Runner(rules_from_dict, phase).run


class _Runner:
    """One game's scenarios: its rules, and its form (the messages name its play)."""

    def __init__(self, rules_from_dict: Callable[[object], FamilyRules], phase: str) -> None:
        self.rules_from_dict = rules_from_dict
        self.form = ScenarioForm(
            keys=SCENARIO_KEYS,
            deal_keys=DEAL_KEYS,
            per_deal=("hands", "deck", "choices", "laid", "lead"),
            deal_cards=("hands", "deck"),
            example=EXAMPLE,
            error=ScenarioError,
            event_to_json=event_to_json,
            events_for=events_for,
            per_deal_note=f" (a position in {phase} plays one round only)",
        )

    def run(self, data: object) -> dict[str, Any]:
        """Play what a decoded scenario describes and return the result as JSON data.

        Returns ``{"error": "..."}`` instead for bad input: an unknown card, a bad
        position, an unknown house rule, an illegal or left-over choice
        (:meth:`ScenarioForm.run`).
        """
        return self.form.run(data, self._one_round, self._whole_game)

    # ----------------------------------------------------------------------- one round

    def _one_round(self, data: Mapping[str, Any]) -> Played:
        """A round from the ante, or from a position in the runs."""
        if "settlement" in data:
            raise ScenarioError(
                "settlement cards are dealt only at the end of a whole game: give deals"
            )
        if "settlement_choices" in data:
            raise ScenarioError(
                "settlement choices are the decisions at the end of a whole game: give deals"
            )
        form = self.form
        choices = form.choices(data.get("choices", []), "choices")
        rules = self.rules_from_dict(data.get("rules"))
        setup = setup_from_dict(data, rules.starting_chips, plan=rules.layout())
        state = StopsState(rules, dataclasses.replace(setup, single_round=True), seed=0)
        return form.play_one(state, choices, lambda: _round_result(state))

    # ----------------------------------------------------------------------- a whole game

    def _whole_game(self, data: Mapping[str, Any]) -> Played:
        """Every round of a game, each by its deal's cards and choices, to the settlement."""
        form = self.form
        plays = form.deals(data)
        final = form.choices(data.get("settlement_choices", []), "settlement_choices")
        rules = self.rules_from_dict(data.get("rules"))
        if not rules.rounds and not any(stop for _, stop in plays):
            # Without a number of rounds, the table stops after the last round listed.
            plays[-1] = (plays[-1][0], True)
        setup = setup_from_dict(
            form.whole_setup(data), rules.starting_chips, first="deal 1: ", plan=rules.layout()
        )
        state = StopsState(rules, setup, seed=0)

        def summary() -> dict[str, Any]:
            head = {"round": state.round_no, "dealer": state.names[state.dealer]}
            return head | _round_result(state)

        summaries, events = form.play_whole(
            state,
            plays,
            round_number=lambda: state.round_no,
            between_rounds=lambda: state.phase == NEXT_ROUND,
            over="round_over",
            summary=summary,
            final=final,
            final_begun=lambda: state.phase == SETTLE,
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
            "events": form.events_json(events, names),
        }
        return state, result, events


def _round_result(state: StopsState) -> dict[str, Any]:
    names = state.names
    winner = state.round_winner
    return {
        "chips": dict(zip(names, state.chips, strict=True)),
        "board": state.board_dict(),
        "laid": [{"player": names[seat], "card": card_str(card)} for seat, card in state.laid],
        "poker_winners": [names[seat] for seat in state.poker_winners],
        state.plan.winner_key: names[winner] if winner >= 0 else None,
        "deadlock": state.deadlocked,
    }
