"""One learning seat against the project's computer players, as a Gymnasium environment.

Importing this module registers ``rummoli/Rummoli-v0`` and ``rummoli/BasicRummy-v0`` (one
id per game with an adapter): ``gymnasium.make("rummoli/Rummoli-v0", opponents="strong")``.

- ``seat``: the learner's seat (default 0); ``opponents``: for every other seat, or a
  list of one per other seat in seat order, either a computer level (``random``,
  ``basic``, ``strong``: the game's own levels) or any policy
  (:mod:`rummoli.envs.policies`): a callable ``policy(observation, action_mask)`` over
  that seat's tensor and mask (the learner's own policy: self-play), or an object with
  ``act(table, seat)``; the other keywords are the environment's settings (``players``,
  ``length``, ``actions``, house rules; see :mod:`rummoli.envs.adapters`).
- Observation: the learner's tensor (a ``Box``); ``info["action_mask"]``: its legal
  actions (int8, one per action), at every step.
- Reward: what the learner's seat gains, at the end of each round (and of the game).
- ``terminated`` when the rules end the game, ``truncated`` when an adapter's cap cuts it
  (a Basic Rummy hand after ``max_moves`` decisions, a match after ``max_hands``).
- ``illegal_action``: ``"penalize"`` (default: the state is unchanged, the reward is
  ``-illegal_penalty`` and ``info["illegal_action"]`` is true; Gymnasium's checker and
  unmasked agents sample any action) or ``"raise"`` (the engine's IllegalActionError,
  naming the action and what is legal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummoli.engine.base import IllegalActionError
from rummoli.envs.adapters import adapter_for, games_with_adapters
from rummoli.envs.chance import chance_generator
from rummoli.envs.pettingzoo.aec import _table_text
from rummoli.envs.policies import BotPolicy, TablePolicy, play
from rummoli.envs.table import Table

ILLEGAL = ("penalize", "raise")


class SeatEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """A game of the project from one seat, the others played by computer players."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = "rummoli",
        *,
        seat: int = 0,
        opponents: Any = "basic",
        illegal_action: str = "penalize",
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        adapter = adapter_for(game)
        self.adapter = adapter
        self.config = adapter.config(params)
        n = self.config.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat 0..{n - 1}, not {seat!r}")
        single = isinstance(opponents, str) or not isinstance(opponents, Sequence)
        players = [opponents] * (n - 1) if single else list(opponents)
        if len(players) != n - 1:
            raise ValueError(f"opponents names {len(players)} levels for {n - 1} other seats")
        description = adapter.description()
        for player in players:
            if isinstance(player, str):
                description.bot_factory(player)  # a ValueError names the levels
            elif not (callable(player) or isinstance(player, TablePolicy)):
                raise ValueError(
                    f"an opponent is a level ({', '.join(description.levels())}) or a "
                    f"policy (a callable of observation and action mask, or an object "
                    f"with act(table, seat)), not {player!r}"
                )
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of human, ansi, not {render_mode!r}")
        self.seat = seat
        self.levels = players
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.table = Table(self.config, keep_log=False)
        size = adapter.observation_size(self.config)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self._num_actions = self.table.num_actions()
        self.action_space = spaces.Discrete(self._num_actions)
        self._rng = chance_generator(None)
        self._bots: dict[int, Any] = {}
        self._credited = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        base = int(self.np_random.integers(2**31))
        self._rng = chance_generator(base)
        others = [s for s in range(self.config.players) if s != self.seat]
        self._bots = {
            s: BotPolicy(player, base + s) if isinstance(player, str) else player
            for s, player in zip(others, self.levels, strict=True)
        }
        self.table = Table(self.config, keep_log=False)
        self._credited = 0.0
        self._play_others()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.is_terminal():
            raise IllegalActionError("the game is over: call reset()")
        try:
            table.apply(int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), -self.illegal_penalty, False, False, info
        self._play_others()
        gained = table.credited[self.seat] - self._credited
        self._credited = table.credited[self.seat]
        if self.render_mode == "human":
            print(_table_text(table))
        over = table.is_terminal()
        truncated = over and table.truncated
        return self._observation(), gained, over and not truncated, truncated, self._info()

    def _play_others(self) -> None:
        """Chance and the computer players, until the learner decides or the game ends."""
        table = self.table
        while True:
            table.play_chance(self._rng)
            if table.is_terminal() or table.current_player() == self.seat:
                return
            seat = table.current_player()
            play(self._bots[seat], table, seat)

    def _observation(self) -> npt.NDArray[np.float32]:
        return self.table.observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(self._num_actions, np.int8)
        if not self.table.is_terminal():
            mask[self.table.legal_actions()] = 1
        return {"action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions now (the name sb3-contrib's MaskablePPO asks for)."""
        mask: npt.NDArray[np.int8] = self._info()["action_mask"]
        return mask

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return _table_text(self.table)
        if self.render_mode == "human":
            print(_table_text(self.table))
        return None


def _register() -> None:
    for game in games_with_adapters():
        adapter = adapter_for(game)
        env_id = f"rummoli/{adapter.gym_name}-v0"
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=SeatEnv, kwargs={"game": game})


_register()
