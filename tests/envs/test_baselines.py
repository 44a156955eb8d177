"""Baselines to beat: the project's computer players as OpenSpiel bots (right in every
action space), as PettingZoo and Gymnasium policies, and any policy as a Gymnasium
opponent (self-play)."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots

import rummoli.envs.gymnasium  # noqa: F401  (registers the environments)
from rummoli.envs.openspiel import ProjectBot
from rummoli.envs.pettingzoo import basic_rummy_v0, rummoli_v0
from rummoli.envs.policies import BotPolicy, bot_policy, uniform_random

GAMES = [
    "python_rummoli(players=3)",
    "python_rummoli(players=4,actions=compact)",
    "python_rummoli(players=2,actions=compact,bet_limit=-1)",
    "python_basic_rummy",
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_the_projects_bots_are_openspiel_bots_legal_in_every_action_space(
    name: str, level: str
) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    decided = 0
    for number in range(4):
        bots = [ProjectBot(game, seat, level, seed=number) for seat in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decided += 1
    assert decided > 10
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(0.0)


def test_a_compact_bot_takes_the_compact_size_nearest_its_bid() -> None:
    # With compact actions a bot's bid stands for itself when a compact action gives that
    # amount, else the compact action of the same kind nearest it (a raise stays a raise).
    from rummoli.envs.adapters import adapter_for
    from rummoli.games.stops.actions import BID_BASE

    adapter = adapter_for("rummoli")
    game = pyspiel.load_game("python_rummoli(actions=compact)")
    rng = random.Random(2)
    checked = 0
    while checked < 40:
        state = game.new_initial_state()
        while not state.is_terminal() and checked < 40:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            engine = state.table.engine
            legal = engine.legal_actions()
            sized = [a for a in legal if a >= BID_BASE]
            if sized:
                exact = rng.choice(sized)
                compact = adapter.compact_for(engine, exact)
                assert compact in state.legal_actions()
                stands = adapter.from_compact(engine, compact)
                raise_base = engine.codec.raise_base
                assert (stands >= raise_base) == (exact >= raise_base)
                nearest = min(
                    abs(adapter.from_compact(engine, c) - exact)
                    for c in state.legal_actions()
                    if c >= BID_BASE
                    and (adapter.from_compact(engine, c) >= raise_base) == (exact >= raise_base)
                )
                assert abs(stands - exact) == nearest
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("module", [rummoli_v0, basic_rummy_v0])
def test_a_bot_is_a_pettingzoo_policy(module: object) -> None:
    env = module.env(actions="compact") if module is rummoli_v0 else module.env()  # type: ignore[attr-defined]
    policies = {
        agent: bot_policy(env, "strong", seed=i) for i, agent in enumerate(env.possible_agents)
    }
    env.reset(seed=3)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = policies[agent](obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1
        env.step(action)
        steps += 1
    assert steps > 0


def test_a_bot_is_a_gymnasium_policy_and_any_policy_an_opponent() -> None:
    # The learner's seat played by the strong bot, against three copies of a policy
    # function (self-play: the same callable at every other seat) and, in turn, a table
    # policy object: the episode runs, every action legal.
    seen: list[int] = []
    me = uniform_random(seed=4)

    def tracked(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append(int(mask.sum()))
        return me(observation, mask)

    for opponents in (tracked, [BotPolicy("basic"), tracked, "strong"]):
        env = gym.make("rummoli/Rummoli-v0", opponents=opponents, actions="compact").unwrapped
        learner = bot_policy(env, "strong")
        for seed in range(3):
            obs, info = env.reset(seed=seed)
            done = False
            while not done:
                action = learner(obs, info["action_mask"])
                assert info["action_mask"][action] == 1
                obs, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
    assert seen and min(seen) >= 1, "the policy opponent was never asked"
    with pytest.raises(ValueError, match="an opponent is a level"):
        gym.make("rummoli/Rummoli-v0", opponents=[1, 2, 3])
