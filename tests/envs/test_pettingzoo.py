"""The games as PettingZoo AEC environments: PettingZoo's own API and seed tests, the
registry, masks, rewards, rendering, and bad input."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from rummoli.engine.base import IllegalActionError
from rummoli.envs.pettingzoo import basic_rummy_v0, rummoli_v0

MODULES = (rummoli_v0, basic_rummy_v0)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pettingzoos_api_test(module: Any) -> None:
    api_test(module.env(), num_cycles=400)
    api_test(module.raw_env(players=3), num_cycles=400)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pettingzoos_seed_test(module: Any) -> None:
    seed_test(module.env, num_cycles=300)


def test_registered_in_pettingzoos_registry() -> None:
    env = pettingzoo.make("aec", "rummoli/rummoli-v0", players=3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert pettingzoo.make("aec", "rummoli/basic_rummy-v0").metadata["name"] == "basic_rummy_v0"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_whole_game_with_masks_adds_up_to_zero(module: Any) -> None:
    length = {"rounds": 2} if module is rummoli_v0 else {"max_hands": 2}
    env = module.env(length="game", **length)
    outcomes = [_play(env, seed) for seed in range(8)]
    assert all(sum(totals.values()) == pytest.approx(0.0) for totals in outcomes)
    assert any(any(totals.values()) for totals in outcomes), "nobody ever won anything"


def _play(env: Any, seed: int) -> dict[str, float]:
    """A whole game of random legal actions; the rewards each agent got."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        assert obs["observation"].min() >= 0.0 and obs["observation"].max() <= 1.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = rummoli_v0.raw_env()
    env.reset(seed=5)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = env.observe(agent)["observation"].copy()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="is not legal now"):
        env.step(illegal)
    assert env.agent_selection == agent
    np.testing.assert_array_equal(env.observe(agent)["observation"], before)


def test_render_modes_show_the_table_as_a_spectator() -> None:
    env = basic_rummy_v0.raw_env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "Basic Rummy" in text and "stock: 31" in text
    assert not any(line.startswith(("hand:", "legal_actions:")) for line in text.split("\n"))
    with pytest.raises(ValueError, match="render_mode"):
        rummoli_v0.raw_env(render_mode="rgb_array")


def test_an_observation_is_made_once_a_step_and_anew_after_it() -> None:
    env = basic_rummy_v0.raw_env()
    env.reset(seed=4)
    agent = env.agent_selection
    first, again = env.observe(agent), env.last()[0]
    assert again is first  # the same step: not made twice
    legal = np.flatnonzero(first["action_mask"])
    env.step(int(legal[0]))
    after = env.observe(agent)
    assert after is not first
    # What it shows is the table now, not the cached step's (after the draw, the same
    # agent plays: melds, lay-offs and discards); and a reset forgets the cache too.
    now = np.flatnonzero(after["action_mask"]).tolist()
    assert now == env.table.legal_actions() and now != legal.tolist()
    env.reset(seed=4)
    assert env.observe(agent) is not after
    assert np.array_equal(env.observe(agent)["observation"], first["observation"])


def test_rewards_after_a_paying_step_are_zero_again() -> None:
    # The environment pays out only when the table credits something; the step after a
    # round's end (a whole game) must show zero rewards, not the round's again.
    env = rummoli_v0.raw_env(length="game", rounds=3)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    paid, after_paid = False, []
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if paid:
            after_paid.append(dict(env.rewards))
        paid = any(env.rewards.values())
    assert after_paid and all(not any(r.values()) for r in after_paid)


def _random_episode(env: Any, seed: int | None, pick: random.Random) -> list[Any]:
    """Everything one random episode shows: each agent's observation and its reward."""
    env.reset(seed=seed)
    seen: list[Any] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, obs["observation"].tobytes(), reward))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if terminated or truncated else int(legal[pick.randrange(len(legal))]))
    return seen


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_reset_without_a_seed_goes_on_from_the_last_seed(module: Any) -> None:
    # As Gymnasium's reset: a loop seeded once is reproducible, and its games differ.
    runs = []
    for _ in range(2):
        env, pick = module.env(), random.Random(1)
        runs.append([_random_episode(env, seed, pick) for seed in (7, None, None)])
    assert runs[0] == runs[1]
    first, second, third = runs[0]
    assert first != second and second != third
    # A seed again starts chance again: the same deal as the first game's.
    env, pick = module.env(), random.Random(1)
    _random_episode(env, 7, pick)
    again = _random_episode(env, 7, random.Random(1))
    assert again == first


def _ends(env: Any, seed: int) -> tuple[bool, bool]:
    """(terminated, truncated) as every agent sees the end of a random game."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    flags = set()
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            flags.add((terminated, truncated))
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert len(flags) == 1, flags  # every agent alike
    return flags.pop()


def test_a_hand_cut_by_the_cap_is_truncated_and_one_the_rules_end_terminated() -> None:
    assert _ends(basic_rummy_v0.env(max_moves=6), 1) == (False, True)
    # A match that reaches its target ends by the rules; one cut after max_hands does not.
    assert _ends(basic_rummy_v0.env(length="game", target=1, max_moves=2000), 2) == (True, False)
    assert _ends(basic_rummy_v0.env(length="game", target=5000, max_hands=1), 3) == (False, True)
    assert _ends(rummoli_v0.env(), 4) == (True, False)


def test_the_environment_enforces_the_call_order_itself() -> None:
    # What PettingZoo's OrderEnforcingWrapper checks, without it (env() has no wrapper).
    env = rummoli_v0.env(render_mode="ansi")
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.render):
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before"):
            call()
    with pytest.raises(AssertionError, match="before agent_iter"):
        env.agent_iter()
    for name in ("rewards", "agents", "agent_selection", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    env.reset(seed=1)
    with pytest.raises(AssertionError, match="need to call step"):
        for _ in env.agent_iter():
            pass  # no step in the loop
    out_of_space = env.action_space(env.agent_selection).n + 3
    for bad in (out_of_space, -1, "3", 2.0):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.unwrapped is env
