"""The games through OpenSpiel and Shimmy as PettingZoo environments (the route
PettingZoo plans for classic games): PettingZoo's own API test, and whole games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from rummoli.engine.base import SetupError
from rummoli.envs.pettingzoo import through_openspiel


@pytest.mark.parametrize(("game", "params"), [("rummoli", {"players": 3}), ("rummy", {})])
def test_pettingzoos_api_test_through_shimmy(game: str, params: dict[str, int]) -> None:
    api_test(through_openspiel.env(game, **params), num_cycles=300)


@pytest.mark.parametrize(
    ("game", "params"),
    # A short cap on Rummy's decisions: with the chance nodes Shimmy counts, a hand then
    # has more moves than decisions allowed.
    [("rummoli", {"players": 3}), ("rummy", {}), ("rummy", {"max_moves": 60})],
)
def test_whole_games_through_shimmy_keep_their_settings_and_end(
    game: str, params: dict[str, int]
) -> None:
    # Every agent decides from the mask Shimmy gives, the games end (never cut short by
    # Shimmy's own count of moves), and the settings hold at every reset (Shimmy loads
    # the game again then).
    env = through_openspiel.env(game, **params)
    pick = random.Random(3)
    for seed in range(3):
        env.reset(seed=seed)
        assert env.game_state.num_players() == params.get("players", 2)
        steps = 0
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            assert not truncated
            if terminated:
                env.step(None)
                continue
            legal = np.flatnonzero(info["action_mask"])
            assert len(legal) > 0
            assert env.game_state.current_player() == int(agent.rsplit("_", 1)[1])
            env.step(int(legal[pick.randrange(len(legal))]))
            steps += 1
        assert steps > 0 and env.game_state.is_terminal()
        assert sum(env.game_state.returns()) == pytest.approx(0.0)


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(SetupError, match=r"unknown game .no_such_game.; games are rummoli, rummy"):
        through_openspiel.env("no_such_game")
