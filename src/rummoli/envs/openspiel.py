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
  ``compact``: bids and raises by fractions), every house rule by name and the adapter's
  own (Rummy's ``max_moves``, ``max_hands``), each of one declared type: Rummoli's
  ``bet_limit`` is a number (a fixed limit, or 0 no limit, -1 pot limit), Rummy's
  ``target`` 0 for the table's default. Game strings and serialization round-trip; a
  game pickles as its game string.
- Player ids are OpenSpiel's: chance -1, terminal -4 (the engine's terminal is -2, which
  OpenSpiel reads as "simultaneous"; the state maps them).
- Observation: the engine's view of the seat, as readable lines (string), and the
  adapter's tensor; information state: everything the seat saw and did, in order
  (string, perfect recall), and the tensor with the seat's history of the round. The
  observers keep the public or the private parts OpenSpiel's observation type asks for.
- ``resample_from_infostate`` redraws the hidden cards by the game's sampler, with a
  fallback that cannot fail, so that OpenSpiel's ISMCTS plays both games.
- :class:`ProjectBot`: the game's computer players as OpenSpiel bots.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from rummoli.engine.base import CHANCE, TERMINAL
from rummoli.envs.adapters import GameAdapter, adapter_for, games_with_adapters, spiel_code
from rummoli.envs.table import Table

_TYPES: dict[str, pyspiel.GameType] = {}


def short_name(adapter: GameAdapter) -> str:
    return f"python_{adapter.env_name}"


def _parameters(adapter: GameAdapter) -> dict[str, Any]:
    """Every parameter with its default, each of the one type OpenSpiel checks values
    against: a house rule that is a choice or a number (Rummoli's ``bet_limit``) is a
    number, its choices 0, -1, ... (:func:`~rummoli.envs.adapters.spiel_code`), so that
    ``bet_limit=5`` in a game string, and the string OpenSpiel writes when it serializes
    a game, both load."""
    description = adapter.description()
    params: dict[str, Any] = {
        "players": description.default_players,
        "length": "round",
        "dealer": -1,
        "actions": "exact",
    }
    for rule in description.house_rules:
        params[rule.name] = spiel_code(rule, rule.default)
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


def load(game_string: str) -> pyspiel.Game:
    """``pyspiel.load_game`` once this module has registered the games: how a pickled
    game is loaded again (in another process, as multiprocessing and Ray ship it)."""
    return pyspiel.load_game(game_string)


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of the project's games with its settings, for OpenSpiel (any adapter's).

    Each game registered has its own subclass, named by the adapter (``RummoliGame``,
    ``BasicRummyGame``), a name of this module as OpenSpiel's own Python games' classes
    are; a game pickles as its game string (:func:`load` reads it back)."""

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

    def __reduce__(self) -> tuple[Any, ...]:
        return (load, (str(self),))

    def new_initial_state(self) -> SpielState:
        return SpielState(self, Table(self.config))

    def max_chance_nodes_in_history(self) -> int:
        return self.adapter.max_chance_nodes(self.config)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self, iig_obs_type)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`Table`."""

    def __init__(self, game: SpielGame, table: Table) -> None:
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

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one, its hidden cards redrawn by
        the game's sampler of hidden cards (the sampler's draw seeds the redraw)."""
        seed = int(float(probability_sampler()) * 2**53)
        table = self.table.resample(player_id, random.Random(seed))
        state: SpielState = self.get_game().new_initial_state()
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
    """OpenSpiel's observer of one of the project's games: the observation, or the
    information state (``perfect_recall``), as a tensor and as a string, with the public
    and private parts OpenSpiel's observation type asks for.

    ``public_info`` keeps the public fields (what every seat sees: the laid cards, chips,
    bets, the discard pile...); ``private_info=SINGLE_PLAYER`` the seat's own
    (:attr:`~rummoli.envs.adapters.GameAdapter.private_fields`: its cards, the widow it
    gave away, its stock draws); both, the whole tensor. ``private_info=ALL_PLAYERS``
    (every seat's hand) is refused. ``dict`` names the kept fields, each a view into
    ``tensor``. The strings keep the same parts: a spectator's view and events for the
    public, the rest of the seat's for the private.
    """

    def __init__(self, game: SpielGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        perfect_recall, public = False, True
        if iig_obs_type is not None:
            perfect_recall, public = iig_obs_type.perfect_recall, iig_obs_type.public_info
            private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "private_info=ALL_PLAYERS (every seat's cards) is not offered: observers "
                "show one seat's private information (SINGLE_PLAYER) or none (NONE)"
            )
        self.perfect_recall = perfect_recall
        self.public = public
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        adapter, config = game.adapter, game.config
        hidden = adapter.private_fields
        kept = [
            (name, offset, width)
            for name, offset, width in adapter.tensor_fields(config, perfect_recall)
            if (name in hidden and self.private) or (name not in hidden and self.public)
        ]
        #: Where each kept field is in the whole tensor (None: every field is kept).
        self._index: np.ndarray | None = None
        if not (self.public and self.private):
            self._index = np.array(
                [i for _, offset, width in kept for i in range(offset, offset + width)], np.intp
            )
        self.tensor = np.zeros(sum(width for _, _, width in kept), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, _, width in kept:
            self.dict[name] = self.tensor[at : at + width]
            at += width

    def set_from(self, state: SpielState, player: int) -> None:
        table = state.table
        if self.perfect_recall:
            whole = table.information_state_tensor(player)
        else:
            whole = table.observation_tensor(player)
        self.tensor[:] = whole if self._index is None else whole[self._index]

    def string_from(self, state: SpielState, player: int) -> str:
        table = state.table
        if self.perfect_recall:
            return table.information_state_string(player, self.public, self.private)
        return table.observation_string(player, self.public, self.private)


class ProjectBot(pyspiel.Bot):  # type: ignore[misc]
    """The game's computer player of ``level`` (``random``, ``basic``, ``strong``) as an
    OpenSpiel bot, for ``evaluate_bots`` and every other OpenSpiel tool that seats bots:
    it decides from the seat's own view (:class:`~rummoli.envs.policies.BotPolicy`) and
    answers in the game's action space, ``actions=compact`` included.

        bots = [ProjectBot(game, seat, "strong") for seat in range(game.num_players())]
        evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
    """

    def __init__(self, game: SpielGame, player_id: int, level: str, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from rummoli.envs.policies import BotPolicy

        game.adapter.description().bot_factory(level)  # a ValueError names the levels
        self.player_id = player_id
        self.policy = BotPolicy(level, seed)

    def step(self, state: SpielState) -> int:
        return self.policy.act(state.table, state.current_player())

    def restart_at(self, state: SpielState) -> None:
        """Nothing to forget: the bot decides from the seat's view at each step."""


def _register() -> None:
    for game in games_with_adapters():
        adapter = adapter_for(game)
        if adapter.game in _TYPES:
            continue
        kind = game_type(adapter)
        _TYPES[adapter.game] = kind
        # A class per game, as OpenSpiel's own Python games register theirs, and a name of
        # this module (so that pickle and people find it).
        name = f"{adapter.gym_name}Game"
        factory = globals().get(name)
        if factory is None or getattr(factory, "game_name", None) != adapter.game:
            factory = type(name, (SpielGame,), {"game_name": adapter.game})
            factory.__module__ = __name__
            factory.__qualname__ = name
            globals()[name] = factory
        pyspiel.register_game(kind, factory)


_register()
