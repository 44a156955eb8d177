"""The project's games in OpenSpiel: importing this module registers them.

``python_rummoli`` and ``python_basic_rummy`` (one per game that has an adapter, named
by it) are registered with ``pyspiel.register_game`` as OpenSpiel's own Python games
are, so ``pyspiel.load_game("python_rummoli(players=3,length=game,rounds=4)")`` works
and every OpenSpiel algorithm (CFR, MCCFR, ISMCTS, ...) can play them.

- Sequential, explicit stochastic chance (the first dealer, every card of a deal, every
  stock draw: see :class:`rummoli.envs.table.Table`), imperfect information, zero-sum
  (chips, points), terminal rewards.
- Parameters: ``players``, ``length`` (``round``: one round, Rummy's one hand; ``game``:
  a whole game), ``dealer`` (-1: chance), ``actions`` (``exact``: the engine's integers;
  ``compact``: bids and raises by fractions), every house rule by name (Rummoli's
  ``bet_limit`` takes ``no_limit``, ``pot_limit`` or digits; Rummy's ``target`` 0 for
  the table's default) and the adapter's own (Rummy's ``max_moves``, ``max_hands``).
- Player ids are OpenSpiel's: chance -1, terminal -4 (the engine's terminal is -2, which
  OpenSpiel reads as "simultaneous"; the state maps them).
- Observation: the engine's view of the seat (string) and the adapter's tensor;
  information state: everything the seat saw and did, in order (string, perfect recall),
  and the tensor with the seat's history of the round.
- ``resample_from_infostate`` redraws the hidden cards by the game's sampler, so that
  OpenSpiel's ISMCTS plays both games.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from rummoli.engine.base import CHANCE, TERMINAL
from rummoli.envs.adapters import GameAdapter, adapter_for, games_with_adapters
from rummoli.envs.table import Table

_TYPES: dict[str, pyspiel.GameType] = {}


def short_name(adapter: GameAdapter) -> str:
    return f"python_{adapter.env_name}"


def _parameters(adapter: GameAdapter) -> dict[str, Any]:
    """Every parameter with its default, as OpenSpiel's parameters can hold them."""
    description = adapter.description()
    params: dict[str, Any] = {
        "players": description.default_players,
        "length": "round",
        "dealer": -1,
        "actions": "exact",
    }
    for rule in description.house_rules:
        default = rule.default
        if default is None:
            default = 0
        elif rule.kind == "choice_or_int":
            default = str(default)
        params[rule.name] = default
    params.update(adapter.extra_defaults)
    return params


def game_type(adapter: GameAdapter) -> pyspiel.GameType:
    description = adapter.description()
    return pyspiel.GameType(
        short_name=short_name(adapter),
        long_name=f"Python {description.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=description.max_players,
        min_num_players=description.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(adapter),
    )


class RummoliGame(pyspiel.Game):  # type: ignore[misc]
    """One of the project's games with its settings, for OpenSpiel (any adapter's)."""

    #: The game's name in the registry (each registered subclass sets its own).
    game_name = "rummoli"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        adapter = adapter_for(self.game_name)
        given = dict(params or {})
        self.adapter = adapter
        self.config = adapter.config(given)
        low, high = adapter.utility_bounds(self.config)
        info = pyspiel.GameInfo(
            num_distinct_actions=Table(self.config).num_actions(),
            max_chance_outcomes=max(52, self.config.players),
            num_players=self.config.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            # A bound of the decisions (OpenSpiel's definition), and of the chance nodes
            # too: Shimmy's PettingZoo wrapper counts both against it, and would cut a
            # long game short (still a true bound of the decisions, if a looser one).
            max_game_length=adapter.max_decisions(self.config)
            + adapter.max_chance_nodes(self.config),
        )
        full = _parameters(adapter)
        full.update(given)
        super().__init__(_TYPES[adapter.game], info, full)

    def new_initial_state(self) -> RummoliSpielState:
        return RummoliSpielState(self, Table(self.config))

    def max_chance_nodes_in_history(self) -> int:
        return self.adapter.max_chance_nodes(self.config)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, perfect_recall)


class RummoliSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`Table`."""

    def __init__(self, game: RummoliGame, table: Table) -> None:
        super().__init__(game)
        self.table = table

    def current_player(self) -> int:
        player = self.table.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.action_to_text(player, int(action))

    def is_terminal(self) -> bool:
        return self.table.is_terminal()

    def returns(self) -> list[float]:
        return self.table.returns()

    def rewards(self) -> list[float]:
        # Terminal rewards: everything arrives at the end.
        return self.table.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> RummoliSpielState:
        """A state ``player_id`` cannot tell from this one, its hidden cards redrawn by
        the game's sampler of hidden cards (the sampler's draw seeds the redraw)."""
        seed = int(float(probability_sampler()) * 2**53)
        table = self.table.resample(player_id, random.Random(seed))
        state: RummoliSpielState = self.get_game().new_initial_state()
        for action in table.history:
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        table = self.table
        head = f"{table.description.name} history {' '.join(map(str, table.history))}"
        if table.engine is None:
            return head
        return f"{head}\n{_referee(table)}"


def _referee(table: Table) -> str:
    """The whole position, for debugging: every hand included (not any seat's view)."""
    assert table.engine is not None
    record = table.engine.record()
    return f"rounds {table.rounds} credited {table.credited} actions {record.get('actions')}"


class Observer:
    """OpenSpiel's observer of one of the project's games: observation or information
    state (``perfect_recall``), as a tensor and as a string."""

    def __init__(self, game: RummoliGame, perfect_recall: bool) -> None:
        adapter, config = game.adapter, game.config
        size = adapter.observation_size(config)
        if perfect_recall:
            size += adapter.info_extra_size(config)
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummoliSpielState, player: int) -> None:
        table = state.table
        if self.perfect_recall:
            self.tensor[:] = table.information_state_tensor(player)
        else:
            self.tensor[:] = table.observation_tensor(player)

    def string_from(self, state: RummoliSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.table.information_state_string(player)
        return state.table.observation_string(player)


def _register() -> None:
    for game in games_with_adapters():
        adapter = adapter_for(game)
        if adapter.game in _TYPES:
            continue
        kind = game_type(adapter)
        _TYPES[adapter.game] = kind

        # A class per game, as OpenSpiel's own Python games register theirs.
        factory = type(f"{adapter.gym_name}Game", (RummoliGame,), {"game_name": adapter.game})
        pyspiel.register_game(kind, factory)


_register()
