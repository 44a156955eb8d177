"""A third game, written here, as the test of the design: no interface module knows it.

"High card": each round every player is dealt one card and chooses to show it or to sit
the round out; of those who show, the highest card (rank, then suit) takes one chip from
each other player who showed. The game is declared with a
:class:`~rummoli.engine.description.GameDescription` and registered; then it is created
through the registry, played by the random computer player, replayed from its record,
simulated by ``rummoli simulate --game highcard`` and listed by ``rummoli games``; and
(``tests/web/test_web_third_game.py``) offered in the web lobby and played at a web table,
all without a line of interface code for it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummoli.bots import ask_bot, levels_for, make_bot
from rummoli.cards import card_str
from rummoli.cli import app
from rummoli.engine.base import (
    CHANCE,
    CHANCE_ACTION,
    TERMINAL,
    Event,
    GameState,
    IllegalActionError,
    SetupError,
)
from rummoli.engine.description import INT, GameDescription, HouseRule
from rummoli.engine.records import record_object
from rummoli.engine.rng import shuffled_deck
from rummoli.games import registry

SHOW, SIT_OUT = 0, 1
START_CHIPS = 10


@dataclass(frozen=True, slots=True)
class HighCardRules:
    rounds: int = 3

    def __post_init__(self) -> None:
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            raise SetupError("house rule rounds must be a whole number >= 1")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighCardRules:
        unknown = sorted(set(data) - {"rounds"})
        if unknown:
            raise SetupError(f"unknown High card house rule {', '.join(unknown)}")
        return cls(**dict(data))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def changed(self) -> dict[str, Any]:
        return {k: v for k, v in self.to_dict().items() if getattr(HighCardRules(), k) != v}


@dataclass(frozen=True, slots=True)
class HighCardSetup:
    players: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players)}


class HighCardState:
    """The whole game: a chance deal per round, then each seat shows or sits out."""

    def __init__(self, rules: HighCardRules, setup: HighCardSetup, seed: int) -> None:
        self.rules = rules
        self.setup = setup
        self.seed = seed
        self.names = list(setup.players)
        self.chips = [START_CHIPS] * len(self.names)
        self.cards = [-1] * len(self.names)
        self.shown: list[int] = []
        self.round_no = 0
        self.to_move = CHANCE
        self.actions: list[int] = []
        self.end_requested = False

    # ---------------------------------------------------------------- engine protocol

    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def legal_actions(self) -> list[int]:
        if self.to_move == CHANCE:
            return [CHANCE_ACTION]
        return [] if self.to_move == TERMINAL else [SHOW, SIT_OUT]

    def apply(self, action: int) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal now")
        self.actions.append(action)
        if self.to_move == CHANCE:
            self.round_no += 1
            deck = shuffled_deck(self.seed, 7, self.round_no)
            self.cards = deck[: len(self.names)]
            self.shown = []
            self.to_move = 0
            return [("deal", self.round_no)] + [("card", s, c) for s, c in enumerate(self.cards)]
        seat = self.to_move
        events: list[Event] = [("show" if action == SHOW else "sit_out", seat)]
        if action == SHOW:
            self.shown.append(seat)
            events.append(("shows", seat, self.cards[seat]))
        if seat + 1 < len(self.names):
            self.to_move = seat + 1
            return events
        if self.shown:
            best = max(self.shown, key=lambda s: (self.cards[s] % 13, self.cards[s] // 13))
            for loser in self.shown:
                if loser != best:
                    self.chips[loser] -= 1
                    self.chips[best] += 1
            events.append(("wins", best, len(self.shown) - 1))
        last = self.round_no >= self.rules.rounds or self.end_requested
        self.to_move = TERMINAL if last else CHANCE
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        shown = set(self.shown)
        return {
            "game": "highcard",
            "seat": seat,
            "round": self.round_no,
            "to_move": self.to_move,
            "players": [
                {
                    "name": name,
                    "chips": self.chips[s],
                    "card": card_str(self.cards[s])
                    if self.cards[s] >= 0 and (s == seat or s in shown)
                    else None,
                }
                for s, name in enumerate(self.names)
            ],
            "legal_actions": [
                {"action": a, "text": self.action_to_text(a)}
                for a in (self.legal_actions() if seat == self.to_move else [])
            ],
        }

    def observation(self, seat: int | None) -> dict[str, Any]:
        return self.view(seat)

    def clone(self) -> HighCardState:
        copy = HighCardState(self.rules, self.setup, self.seed)
        for action in self.actions:
            copy.apply(action)
        return copy

    def record(self) -> dict[str, Any]:
        return {
            "game": "highcard",
            "rules": self.rules.to_dict(),
            "setup": self.setup.to_dict(),
            "seed": self.seed,
            "actions": list(self.actions),
        }

    def action_to_text(self, action: int) -> str:
        return "deal" if self.to_move == CHANCE else ("show", "sit out")[action]

    def action_from_text(self, text: str) -> int:
        return {"deal": CHANCE_ACTION, "show": SHOW, "sit out": SIT_OUT}[text]

    def num_distinct_actions(self) -> int:
        return 2

    def request_end(self) -> None:
        self.end_requested = True


# -------------------------------------------------------------------- its description


def _state(state: GameState) -> HighCardState:
    assert isinstance(state, HighCardState)
    return state


def _replay(record: Mapping[str, Any]) -> GameState:
    data = record_object(dict(record))
    state = HighCardState(
        HighCardRules.from_dict(data["rules"]), HighCardSetup(tuple(data["setup"]["players"])), 0
    )
    state.seed = data["seed"]
    for action in data["actions"]:
        state.apply(action)
    return state


def _event_to_json(event: Event, names: Sequence[str]) -> dict[str, Any]:
    kind, *rest = event
    out: dict[str, Any] = {"type": kind}
    if kind == "deal":
        out["round"] = rest[0]
    else:
        out["player"] = names[rest[0]]
    if kind in ("card", "shows"):
        out["card"] = card_str(rest[1])
    if kind == "wins":
        out["chips"] = rest[1]
    return out


def _events_for(
    events: Iterable[Event], seat: int | None, names: Sequence[str]
) -> list[dict[str, Any]]:
    """A dealt card is private to its seat; everything else is public."""
    return [
        _event_to_json(e, names)
        for e in events
        if e[0] != "card" or (seat is not None and e[1] == seat)
    ]


HIGH_CARD = GameDescription(
    name="highcard",
    title="High card",
    min_players=2,
    max_players=6,
    default_players=3,
    house_rules=(HouseRule("rounds", 3, INT, "rounds to play", minimum=1),),
    rules_from_dict=HighCardRules.from_dict,
    rules_type=HighCardRules,
    new_game=lambda names, rules, seed: HighCardState(rules, HighCardSetup(tuple(names)), seed),
    stored_game=lambda rules, setup, seed: HighCardState(
        HighCardRules.from_dict(rules), HighCardSetup(tuple(setup["players"])), seed
    ),
    replay=_replay,
    run_scenario=lambda data: {"error": "High card has no scenarios"},
    event_to_json=_event_to_json,
    events_for=_events_for,
    between_rounds=lambda state: _state(state).to_move == CHANCE and _state(state).round_no > 0,
    round_number=lambda state: _state(state).round_no,
    final_amounts=lambda state: list(_state(state).chips),
    bots={"random": "rummoli.bots.random_bot:RandomBot"},
)


@pytest.fixture(autouse=True)
def high_card() -> Iterator[None]:
    """The game is registered for each test of this module, and gone after it."""
    registry.register(HIGH_CARD)
    yield
    registry.unregister("highcard")


def test_the_registry_creates_and_replays_it() -> None:
    assert registry.names()[-1] == "highcard"
    assert registry.names()[:2] == ("rummoli", "rummy")
    state = registry.new_game("highcard", ["Ann", "Bob", "Cy"], {"rounds": 2}, seed=5)
    assert isinstance(state, HighCardState) and state.rules.rounds == 2
    with pytest.raises(SetupError, match="unknown High card house rule colour"):
        registry.new_game("highcard", ["Ann", "Bob"], {"colour": "red"})
    with pytest.raises(ValueError, match="already registered"):
        registry.register(HIGH_CARD)


def test_the_random_bot_plays_it_to_the_end_and_the_record_replays() -> None:
    assert list(levels_for("highcard")) == ["random"]
    state = registry.new_game("highcard", ["Ann", "Bob", "Cy"], {"rounds": 4}, seed=9)
    bots = [make_bot("random", seat, game="highcard") for seat in range(3)]
    while not state.is_terminal():
        seat = state.current_player()
        action = CHANCE_ACTION if seat == CHANCE else ask_bot(bots[seat], state, seat).action
        state.apply(action)
    assert sum(HIGH_CARD.final_amounts(state)) == 3 * START_CHIPS  # chips are conserved
    assert HIGH_CARD.round_number(state) == 4
    again = registry.replay(json.dumps(state.record()))
    assert HIGH_CARD.final_amounts(again) == HIGH_CARD.final_amounts(state)


def test_rummoli_simulate_plays_it(tmp_path: Path) -> None:
    out = tmp_path / "high.json"
    result = CliRunner().invoke(
        app,
        [
            *("simulate", "--game", "highcard", "--games", "30"),
            *("--bots", "random,random,random", "--rule", "rounds=2"),
            *("--jobs", "2", "--json", str(out)),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "High card: 30 games, 60 rounds, at 3 seats" in result.output
    figures = json.loads(out.read_text())
    assert figures["games"] == {"started": 30, "finished": 30}
    bots = figures["bots"]
    assert [b["final_amount"]["n"] for b in bots] == [30, 30, 30]
    # Chips only move between players, so the mean final chips add up to the start.
    assert sum(b["final_amount"]["mean"] for b in bots) == pytest.approx(3 * START_CHIPS)
    assert sum(b["wins"] for b in bots) >= 30  # every game has a winner (ties: each)
    bad = CliRunner().invoke(app, ["simulate", "--game", "highcard", "--bots", "random,genius"])
    assert bad.exit_code == 2 and "unknown bot level genius for highcard" in bad.output


def test_the_cli_lists_it_and_says_it_has_no_terminal_table() -> None:
    listed = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0
    assert "highcard" in listed.output and "High card" in listed.output
    played = CliRunner().invoke(app, ["play", "--game", "highcard"])
    assert played.exit_code == 2 and "has no terminal table yet" in played.output
