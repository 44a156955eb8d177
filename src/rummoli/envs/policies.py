"""Baselines to beat: the project's computer players and uniform random play as policies
of every front end.

Two kinds of policy are used here and by ``rummoli evaluate``:

- a **tensor policy**, any callable ``policy(observation, action_mask) -> action``: the
  seat's observation tensor (float32) and its legal actions' mask (int8, one per action
  of the configured space), as PettingZoo and Gymnasium give them. A learner's policy is
  one; so is :func:`uniform_random`.
- a **table policy**, an object with ``act(table, seat) -> action``: it reads the seat's
  view from the :class:`~rummoli.envs.table.Table` itself. :class:`BotPolicy` is one:
  the game's computer player of a level, asked through :func:`rummoli.bots.ask_bot` (it
  sees the seat's observation only), its action put in the table's action space
  (``compact`` included: the compact action that stands for its bid or raise, or the
  nearest of the same kind).

:func:`bot_policy` makes a computer player a tensor policy of one environment (it reads
that environment's table), for a PettingZoo loop or a Gymnasium agent;
``rummoli.envs.policies:random``, ``:basic``, ``:strong`` and ``:first_legal`` name the
baselines for ``rummoli evaluate --agent``.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from rummoli.bots import Bot, ask_bot
from rummoli.envs.table import Table

#: ``policy(observation, action_mask) -> action``.
TensorPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


@runtime_checkable
class TablePolicy(Protocol):
    """A policy that reads the seat's view from the table (the project's bots)."""

    def act(self, table: Table, seat: int) -> int: ...


class BotPolicy:
    """The game's computer player of ``level`` (``random``, ``basic``, ``strong``) at any
    seat of any table: one bot per (game, seat), seeded from ``seed`` and the seat."""

    def __init__(self, level: str, seed: int = 0) -> None:
        self.level = level
        self.seed = seed
        self._bots: dict[tuple[str, int], Bot] = {}

    def bot(self, table: Table, seat: int) -> Bot:
        key = (table.config.game, seat)
        bot = self._bots.get(key)
        if bot is None:
            factory = table.description.bot_factory(self.level)  # a ValueError names them
            bot = self._bots[key] = factory(self.seed * 1009 + seat)
        return bot

    def exact_action(self, table: Table, seat: int) -> int:
        """The bot's choice as the engine's action (``table.apply(a, exact=True)``)."""
        engine = table.engine
        if engine is None or table.current_player() != seat:
            raise ValueError(f"seat {seat} is not to decide now")
        return ask_bot(self.bot(table, seat), engine, seat).action

    def act(self, table: Table, seat: int) -> int:
        """The bot's choice in the table's action space."""
        exact = self.exact_action(table, seat)
        if table.config.actions == "compact":
            assert table.engine is not None
            return table.adapter.compact_for(table.engine, exact)
        return exact

    def __repr__(self) -> str:
        return f"BotPolicy({self.level!r}, seed={self.seed})"


def uniform_random(seed: int = 0) -> TensorPolicy:
    """A tensor policy that picks uniformly among the legal actions."""
    rng = _random.Random(seed)

    def policy(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[rng.randrange(len(legal))])

    return policy


def first_legal(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
    """A tensor policy that always takes the first legal action: the simplest baseline,
    and a deterministic one (the same deal and seats give the same game)."""
    return int(np.flatnonzero(action_mask)[0])


def bot_policy(env: Any, level: str, seed: int = 0) -> TensorPolicy:
    """The computer player of ``level`` as a tensor policy of ``env`` (a PettingZoo or a
    Gymnasium environment of this project, wrapped or not): it ignores the tensor and
    decides for the seat to move from ``env``'s table."""
    player = BotPolicy(level, seed)
    base = env.unwrapped

    def policy(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        table: Table = base.table
        return player.act(table, table.current_player())

    return policy


def play(policy: TensorPolicy | TablePolicy, table: Table, seat: int) -> None:
    """Apply ``seat``'s decision by ``policy``, of either kind (what the Gymnasium
    environment asks of its opponents and ``rummoli evaluate`` of its players): a
    computer player's exactly as it chose it (its bid, not the compact size nearest),
    any other in the table's action space (an illegal one raises, naming it)."""
    if isinstance(policy, BotPolicy):
        table.apply(policy.exact_action(table, seat), exact=True)
    elif isinstance(policy, TablePolicy):
        table.apply(policy.act(table, seat))
    else:
        mask = np.zeros(table.num_actions(), np.int8)
        mask[table.legal_actions()] = 1
        table.apply(policy(table.observation_tensor(seat), mask))


#: The baselines by name, for ``rummoli evaluate --agent rummoli.envs.policies:strong``.
random = BotPolicy("random")
basic = BotPolicy("basic")
strong = BotPolicy("strong")
