"""Every game of the Stops family gets its environments from its description alone:
OpenSpiel's and PettingZoo's own checks pass, a seat's tensor shows only what it may see
over a game's whole life, and seeds reproduce a game."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

import rummoli.envs.openspiel  # noqa: F401  (registers the games)
from rummoli.envs import pettingzoo as pz
from rummoli.envs.adapters import adapter_for, games_with_adapters
from rummoli.envs.stops.adapter import StopsAdapter
from rummoli.envs.table import Table
from rummoli.games import registry

FAMILY = [g for g in games_with_adapters() if isinstance(adapter_for(g), StopsAdapter)]


def test_every_family_game_of_the_registry_has_environments() -> None:
    family = [
        d.name
        for d in registry.descriptions()
        if d.parts.get("terminal", "").startswith("rummoli.tui.stops")
    ]
    assert {"rummoli", "michigan", "tripoley"} <= set(FAMILY)
    assert set(family) <= set(FAMILY)


@pytest.mark.parametrize("game", FAMILY)
def test_openspiel_and_pettingzoo_checks_pass(game: str) -> None:
    name = adapter_for(game).env_name
    spiel = pyspiel.load_game(f"python_{name}(players=3)")
    pyspiel.random_sim_test(spiel, num_sims=2, serialize=True, verbose=False)
    api_test(getattr(pz, f"{name}_v0").env(players=3), num_cycles=100)


@pytest.mark.parametrize("game", FAMILY)
def test_a_seats_tensor_shows_its_own_cards_only_over_a_whole_game(game: str) -> None:
    adapter = adapter_for(game)
    config = adapter.config({"length": "game", "rounds": 2, "players": 4})
    at = adapter.layout(config).offset
    rng = random.Random(3)
    checked = 0
    table = Table(config)
    while not table.is_terminal():
        if not table.is_chance() and table.engine is not None:
            engine = table.engine
            for seat in range(config.players):
                tensor = table.observation_tensor(seat)
                hand = tensor[at["hand"] : at["hand"] + 52]
                own = [c for c in range(52) if engine.hands[seat] >> c & 1]  # type: ignore[attr-defined]
                assert list(np.flatnonzero(hand)) == own
                # Moving every card this seat cannot see leaves its tensor unchanged.
                other = table.resample(seat, rng)
                assert np.array_equal(other.observation_tensor(seat), tensor)
                checked += 1
        table.apply(rng.choice(table.legal_actions()))
    assert checked > 20


@pytest.mark.parametrize("game", FAMILY)
def test_a_seed_reproduces_a_game(game: str) -> None:
    def play(seed: int) -> list[float]:
        env = getattr(pz, f"{adapter_for(game).env_name}_v0").env()
        env.reset(seed=seed)
        seen: list[float] = []
        for _agent in env.agent_iter():
            obs, reward, done, cut, _ = env.last()
            seen.append(float(obs["observation"].sum()) + reward)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if done or cut else int(legal[len(seen) % len(legal)]))
        return seen

    assert play(11) == play(11)
    assert play(11) != play(12)
