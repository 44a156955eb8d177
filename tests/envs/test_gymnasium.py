"""One learning seat against the computer players: Gymnasium's checker, the registry,
opponents by level, masks in ``info``, and illegal actions."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rummoli.envs.gymnasium  # noqa: F401  (registers the environments)
from rummoli.engine.base import IllegalActionError

IDS = ("rummoli/Rummoli-v0", "rummoli/BasicRummy-v0")


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasiums_env_checker(env_id: str) -> None:
    check_env(gym.make(env_id).unwrapped, skip_render_check=True)
    check_env(gym.make(env_id, opponents="random", players=3).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
def test_an_episode_against_the_strong_player(env_id: str) -> None:
    env = gym.make(env_id, opponents="strong", seat=1)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done, total, steps = False, 0.0, 0
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        done = terminated or truncated
    assert steps > 0 and not info["action_mask"].any()


def test_opponents_are_named_by_level_and_checked() -> None:
    env = gym.make("rummoli/Rummoli-v0", players=3, opponents=["basic", "strong"])
    env.reset(seed=1)
    with pytest.raises(ValueError, match="levels are random, basic, strong"):
        gym.make("rummoli/Rummoli-v0", opponents="grandmaster")
    with pytest.raises(ValueError, match="2 levels for 3 other seats"):
        gym.make("rummoli/Rummoli-v0", players=4, opponents=["basic", "basic"])


def test_illegal_actions_are_penalized_or_raise() -> None:
    env = gym.make("rummoli/BasicRummy-v0").unwrapped
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, _, info2 = env.step(illegal)
    assert reward == -1.0 and info2["illegal_action"] and not terminated
    np.testing.assert_array_equal(again, obs)
    strict = gym.make("rummoli/BasicRummy-v0", illegal_action="raise").unwrapped
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError, match="is not legal now"):
        strict.step(illegal)


def test_compact_betting_actions_stand_for_engine_bids_and_raises() -> None:
    env = gym.make("rummoli/Rummoli-v0", actions="compact", opponents="random").unwrapped
    assert env.action_space.n == 122
    rng = np.random.default_rng(0)
    seen_sizes = set()
    for seed in range(30):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            seen_sizes.update(int(a) for a in legal if a >= 112)
            _, _, done, _, info = env.step(int(rng.choice(legal)))
    assert seen_sizes & set(range(112, 117)) and seen_sizes & set(range(117, 122))


def test_a_hand_cut_by_the_cap_is_truncated_not_terminated() -> None:
    env = gym.make("rummoli/BasicRummy-v0", opponents="random", max_moves=4).unwrapped
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    done = terminated = truncated = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert truncated and not terminated
    env = gym.make("rummoli/Rummoli-v0", opponents="random").unwrapped
    _, info = env.reset(seed=1)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert terminated and not truncated
