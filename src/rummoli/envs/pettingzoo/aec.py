"""One PettingZoo AEC environment for every game with an adapter.

Agents are ``player_0`` ... ``player_{n-1}`` (seat order; the dealer rotates from round to
round). Each observation is a dict: ``observation``, the seat's tensor (the adapter's
observation layout, see ``docs/environments.md``), and ``action_mask``, one int8 per
action (1: legal; all zero, one shared read-only array, for an agent not to move).
Chance (the deal, every stock draw) is drawn inside the environment by its own
generator, seeded by ``reset(seed)`` (a reset without a seed goes on from the last one):
the same distribution as OpenSpiel's explicit chance nodes, without a step for each.

Rewards: zero-sum, at the end of each round (chips won and a share of the board's
change; Rummy's points) and, for a whole game, the final settlement at its end, so that
the rewards of a game add up to its returns. When the game ends every agent is marked
``terminations`` if the rules ended it, ``truncations`` if an adapter's cap cut it (a
Basic Rummy hand after ``max_moves`` decisions, a match after ``max_hands`` hands). An
illegal action (out of the action space, or not legal now) raises the engine's
``IllegalActionError``, naming the action and what is legal, and changes nothing.

The environment enforces PettingZoo's call order itself (a ``step``, ``observe``,
``render`` or ``agent_iter`` before ``reset`` raises PettingZoo's own error; ``rewards``,
``agents`` and the other dicts do not exist before it; a ``step`` after every agent is
done warns): what ``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper`` check, at
about a tenth of their cost, so ``env()`` needs neither (PettingZoo lets an environment
skip the wrappers whose checks it does).

This is the fast path: the table keeps no event log, and the engine's observation is
written as float32 by compiled code into a new buffer that numpy reads in place (each
step's observation is the agent's to keep).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.env import AECEnv, AECIterable, AECIterator  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from rummoli.envs.adapters import EnvConfig, adapter_for
from rummoli.envs.chance import chance_generator
from rummoli.envs.table import OVER, Table

RENDER_MODES = ("human", "ansi")
#: What does not exist before the first reset (PettingZoo's order-enforcing wrapper's list).
_BEFORE_RESET = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents", "num_agents")
)


class _Agents(AECIterator):  # type: ignore[misc]
    """PettingZoo's agent iterator, with the order check of its order-enforcing one: a
    loop over ``agent_iter`` must ``step`` (or ``reset``) at each agent."""

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        if not env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._has_updated = False
        self.iters_til_term -= 1
        return env.agent_selection  # type: ignore[no-any-return]


class _AgentIterable(AECIterable):  # type: ignore[misc]
    def __iter__(self) -> _Agents:
        return _Agents(self.env, self.max_iter)


def _filled_first(read: Callable[..., Any]) -> Callable[..., Any]:
    """``read``, a way of reading a plain dict, for a :class:`_FinalObservation`: its
    tensor written first (every such way but an item, which is its own)."""

    def filled(self: _FinalObservation, *args: Any) -> Any:
        self._fill()
        return read(self, *args)

    filled.__name__ = read.__name__
    return filled


class _FinalObservation(dict[str, Any]):
    """A finished game's observation of one agent, its tensor written when first read.

    After the end every agent is shown the final table once (PettingZoo's dead steps),
    and most loops only step it away with None: a Rummoli round's four final tensors
    were a fifth of its time. The table no longer changes (a reset makes a new one), so
    the tensor read later is the one an eager observation would have held. Every way of
    reading the dict (an item, ``get``, iteration, ``items``, a copy, equality) writes
    it first."""

    __slots__ = ("_mask", "_seat", "_table")

    def __init__(self, table: Table, seat: int, no_actions: Any) -> None:
        super().__init__()
        self._table = table
        self._seat = seat
        self._mask = no_actions

    def _fill(self) -> None:
        if not dict.__len__(self):
            dict.__setitem__(self, "observation", self._table.observation_tensor(self._seat))
            dict.__setitem__(self, "action_mask", self._mask)

    def __getitem__(self, key: str) -> Any:
        if key == "action_mask":
            return self._mask
        self._fill()
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        return key in ("observation", "action_mask")

    def __len__(self) -> int:
        return 2

    get = _filled_first(dict.get)
    copy = _filled_first(dict.copy)  # a plain dict, as dict.copy makes of a subclass
    __iter__ = _filled_first(dict.__iter__)
    keys = _filled_first(dict.keys)
    values = _filled_first(dict.values)
    items = _filled_first(dict.items)
    __eq__ = _filled_first(dict.__eq__)
    __repr__ = _filled_first(dict.__repr__)
    __hash__ = None

    def __reduce__(self) -> tuple[Any, ...]:
        self._fill()
        return (dict, (dict(dict.items(self)),))


class CardTableEnv(AECEnv):  # type: ignore[misc]
    """A game of the project as an AEC environment (``game``: its registry name)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": "card_table_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        adapter = adapter_for(game)
        self.metadata = {**self.metadata, "name": f"{adapter.env_name}_v0"}
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of human, ansi, not {render_mode!r}")
        self.render_mode = render_mode
        self.adapter = adapter
        self.config: EnvConfig = adapter.config(params)
        self.possible_agents = [f"player_{seat}" for seat in range(self.config.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        #: Every agent's zero reward and False flag, copied at each reset.
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._no = dict.fromkeys(self.possible_agents, False)
        probe = Table(self.config, keep_log=False)
        #: A table before its first chance step: every reset starts from a copy of it
        #: (half the cost of making one from the settings).
        self._fresh = probe.clone()
        self._num_actions = probe.num_actions()
        #: The mask of an agent not to move (every agent at the end): one read-only
        #: array of zeros, shared (a new one was a tenth of a finished game's steps).
        self._no_actions = np.zeros(self._num_actions, np.int8)
        self._no_actions.flags.writeable = False
        size = adapter.observation_size(self.config)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        #: Chance's generator: from entropy until a reset gives a seed.
        self._rng = chance_generator(None)
        self.table = probe
        #: This step's observations by seat (emptied by every reset and step).
        self._observed: dict[int, dict[str, Any]] = {}
        #: The order checks (see the module's docstring): ``agents`` and the other
        #: per-agent dicts are made by the first reset.
        self._has_reset = False
        self._has_updated = False

    def __getattr__(self, name: str) -> Any:
        # Only for a name not found: the per-agent dicts before the first reset.
        if name in _BEFORE_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the loop

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. With a ``seed``, chance starts again from it; without one, it goes
        on from where the last game left it (as Gymnasium's ``reset`` does), so that a
        loop seeded once is reproducible from its first seed."""
        if seed is not None:
            self._rng = chance_generator(seed)
        self.table = self._fresh.clone()
        self.table.play_chance(self._rng)
        self.agents = self.possible_agents[:]
        zeros, no = self._zeros, self._no
        self.rewards = zeros.copy()
        self._cumulative_rewards = zeros.copy()
        self.terminations = no.copy()
        self.truncations = no.copy()
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._credited = [0.0] * self.config.players
        #: The table's ``credited`` list when the rewards were last paid out: the table
        #: replaces it only when a round or the game ends, so a step that leaves it
        #: in place has no reward for anyone (None: pay out at the next step).
        self._credited_seen: list[float] | None = None
        self._rewarded = False
        self._skip_agent_selection: str | None = None
        self._observed.clear()
        self.agent_selection = self.possible_agents[self.table.current_player()]
        self._has_reset = self._has_updated = True

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        table.decide_and_play(action, self._rng)
        self._observed.clear()
        self._cumulative_rewards[agent] = 0.0
        credited = table.credited
        if credited is not self._credited_seen:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = credited[seat] - self._credited[seat]
            self._credited = credited[:]
            self._credited_seen = credited
            self._rewarded = True
            self._accumulate_rewards()
        elif self._rewarded:
            # Nothing credited since: every reward is zero again (nothing to accumulate).
            self.rewards = dict.fromkeys(self.rewards, 0.0)
            self._rewarded = False
        if table.phase == OVER:
            done = dict.fromkeys(self.agents, True)
            if table.truncated:
                self.truncations = done
            else:
                self.terminations = done
        else:
            self.agent_selection = self.possible_agents[table.current_player()]
        if self.render_mode == "human":
            self.render()

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step of a dead agent, for this environment's one case: every agent
        ends at once, so the next agent is the first one left (PettingZoo's own helper
        searches for it and rebuilds lists at each of the dead steps). The same effect:
        the agent removed from ``agents`` and every dict, the rewards cleared, and after
        the last one ``agent_selection`` back to the agent the first dead step removed."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self._cumulative_rewards[agent]
        del self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        if self._rewarded:
            self.rewards = dict.fromkeys(self.rewards, 0)
            self._rewarded = False

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation now, made once per step: ``last()`` after ``step()``
        and every later ``observe`` of the same agent before the next step return it
        again (each agent's own, the finished game's included) instead of remaking it."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        seat = self._seat[agent]
        cached = self._observed.get(seat)
        if cached is not None:
            return cached
        table = self.table
        if table.phase == OVER:
            observed: dict[str, Any] = _FinalObservation(table, seat, self._no_actions)
        else:
            observed = table.observed(seat, self._num_actions, self._no_actions)
        self._observed[seat] = observed
        return observed

    # ------------------------------------------------------------------ people

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden card), as text."""
        if self.render_mode is None:
            return None
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        text = _table_text(self.table)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def close(self) -> None:
        pass


def _table_text(table: Table) -> str:
    """A spectator's view as short lines of text (:mod:`rummoli.envs.text`)."""
    if table.is_terminal():
        return f"{table.description.title}, round {table.rounds}: over; returns {table.returns()}"
    return table.observation_string(0, private=False)
