"""The bot interface and the random bot: legal, repeatable, and fed only a seat's
observation (what its view shows), never the state."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from conftest import bot_moves
from rummoli.bots import Bot, BotError, Decision, ask_bot, make_bot
from rummoli.bots.random_bot import RandomBot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.view import Observation, observation_to_view

NAMES = ["Ann", "Bob", "Cy", "Di"]


class SpyBot:
    """Wraps a bot and records every argument it was given."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.calls: list[tuple[Any, Any]] = []

    def choose(self, view: Any, legal: list[int]) -> Decision:
        self.calls.append((view, legal))
        return self.inner.choose(view, legal)


def play_out(state: RummoliState, bots: dict[int, Bot]) -> RummoliState:
    """Play to the end, every seat a bot, every decision checked against the legal list."""
    for _, decision in bot_moves(state, bots):
        assert decision.action in state.legal_actions()
    return state


def new_state(seed: int, players: int = 4, rounds: int = 2) -> RummoliState:
    return RummoliState.new_game(NAMES[:players], Rules(rounds=rounds), seed=seed)


@pytest.mark.parametrize("seed", range(6))
def test_random_bots_play_whole_games_legally(seed: int) -> None:
    bots: dict[int, Bot] = {s: make_bot("random", seed * 10 + s) for s in range(4)}
    state = play_out(new_state(seed), bots)
    assert state.total_chips() == 400


def test_random_bot_is_deterministic_per_seed() -> None:
    def record(seed: int) -> list[int]:
        bots: dict[int, Bot] = {s: RandomBot(seed + s) for s in range(4)}
        return play_out(new_state(7), bots).actions

    assert record(1) == record(1)
    assert record(1) != record(2)
    legal = list(range(100))
    first = [RandomBot(5).choose(None, legal).action for _ in range(3)]
    again = [RandomBot(5).choose(None, legal).action for _ in range(3)]
    assert first == again


def test_bots_receive_the_seat_observation_never_the_state() -> None:
    spies = {s: SpyBot(RandomBot(s)) for s in range(4)}
    state = new_state(11)
    for seat, _ in bot_moves(state, spies):
        expected = state.observation(seat)
        expected_view = state.view(seat)
        observation, legal = spies[seat].calls[-1]
        assert type(observation) is Observation and observation == expected
        assert observation.seat == seat and list(observation.legal) == legal
        assert observation_to_view(observation) == expected_view
        assert type(legal) is list and all(type(a) is int for a in legal)
    assert all(spy.calls for spy in spies.values())
    for spy in spies.values():
        for observation, _ in spy.calls:
            fields = [getattr(observation, f.name) for f in dataclasses.fields(observation)]
            assert all(not isinstance(v, RummoliState) for v in fields)


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"'genius'.*random"):
        make_bot("genius", 1)


def test_ask_bot_refuses_an_illegal_answer() -> None:
    class Cheat:
        def choose(self, view: Any, legal: list[int]) -> Decision:
            return Decision(-99, "cheating")

    state = new_state(3)
    while state.current_player() == CHANCE:
        state.apply(CHANCE_ACTION)
    with pytest.raises(BotError, match="-99"):
        ask_bot(Cheat(), state, state.current_player())


def test_random_bot_needs_a_choice() -> None:
    with pytest.raises(ValueError):
        RandomBot(1).choose({}, [])
