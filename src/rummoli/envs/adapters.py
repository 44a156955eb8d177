"""What a learning environment needs of one game, beyond the engine protocol.

The environments (:mod:`.table` and the OpenSpiel, PettingZoo and Gymnasium front ends)
are written once; each game's differences sit in one :class:`GameAdapter`, in
``envs/<game>/``, found by the game's registry name through :func:`adapter_for`. An
adapter says how a round is dealt (how many cards, and the engine setup that a dealt
deck makes), which steps of the engine hide a chance draw that must be made explicit,
what a round is worth to each seat, the bounds of the game, and how a seat's view is
written as a tensor. Every game of the Stops family has one without asking: the family's
adapter (:mod:`rummoli.envs.stops`) serves any game whose rules object makes the
family's layout. A game of another kind adds a module with its adapter and one line in
:data:`ADAPTERS` (or a call to :func:`register_adapter`).

Why not in the game's description: the description lives in ``games/`` (standard library
only), and these adapters need numpy; the adapter is the learning environments' own part
of a game, as ``tui/<game>`` is the terminal's.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import numpy as np
import numpy.typing as npt

from rummoli.engine.base import Event, GameState, SetupError
from rummoli.engine.description import CHOICE_OR_INT, OPTIONAL_INT, GameDescription, HouseRule
from rummoli.games import registry

if TYPE_CHECKING:
    from rummoli.envs.table import Table

#: Declared an alias: where numpy is missing (the compiled build's type check, setup.py)
#: it is Any, not an error in every signature that names it.
Vector: TypeAlias = npt.NDArray[np.float32]
#: A tensor as features: its card masks and other 0/1 fields as ``(offset, mask)`` pairs
#: laid flat in one list (a mask of at most 62 bits, bit ``i`` the position ``offset +
#: i``), and (positions, values) for the others, one-hots included
#: (:func:`rummoli.envs.encode.put_features`). Small integers, never one integer of the
#: tensor's width: each change to such an integer made a new one of hundreds of bits.
Features = tuple[list[int], list[int], list[float]]
#: What :meth:`GameAdapter.next_round` answers: the carry, the next dealer, whether the
#: game is over, and the engine's events between the rounds (a settlement's).
NextRound = tuple[Any, int, bool, list[Event]]

#: Where each game's adapter is, by the game's registry name. A game of the Stops family
#: missing here gets the family's adapter (:func:`adapter_for`).
ADAPTERS: dict[str, str] = {
    "rummoli": "rummoli.envs.rummoli:ADAPTER",
    "rummy": "rummoli.envs.rummy.adapter:ADAPTER",
}

#: What a whole game's length may be: one round (Rummy: one hand), or the whole game.
LENGTHS = ("round", "game")
#: The action spaces: the engine's own integers, or a compact one for bids and raises.
ACTION_SPACES = ("exact", "compact")

_loaded: dict[str, GameAdapter] = {}


@dataclass(frozen=True)
class EnvConfig:
    """One environment's settings, checked: the game, seats, house rules and length.

    ``rules`` holds the house rules as the game's rules object reads them (only those
    that differ from the defaults need be given); ``extra`` the adapter's own settings
    (for Basic Rummy, the caps that make a hand and a match finite).
    """

    game: str
    players: int
    rules: Mapping[str, Any] = field(default_factory=dict)
    length: str = "round"
    #: The first dealer, or None: chance picks him (every seat alike, as a cut does).
    dealer: int | None = None
    actions: str = "exact"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def names(self) -> list[str]:
        return [f"p{seat}" for seat in range(self.players)]


def adapter_for(game: str) -> GameAdapter:
    """The adapter of a registered game; a SetupError names the games that have one."""
    description = registry.describe(game)
    if description.name not in _loaded:
        target = ADAPTERS.get(description.name)
        if target is None and _in_family(description):
            from rummoli.envs.stops.adapter import StopsAdapter

            _loaded[description.name] = StopsAdapter(description.name)
            return _loaded[description.name]
        if target is None:
            raise SetupError(
                f"{description.title} has no learning environment yet; games with one: "
                f"{', '.join(games_with_adapters())}"
            )
        module, _, attribute = target.partition(":")
        adapter = getattr(importlib.import_module(module), attribute)
        if not isinstance(adapter, GameAdapter):
            raise TypeError(f"{target} is not a GameAdapter")
        _loaded[description.name] = adapter
    return _loaded[description.name]


def _in_family(description: GameDescription) -> bool:
    """Whether the Stops family's adapter serves ``description``'s game."""
    from rummoli.envs.stops.adapter import is_family_game

    return is_family_game(description.rules())


def register_adapter(game: str, target: str) -> None:
    """Give a game (a third one, a test's) its adapter, named ``"module:attribute"``."""
    ADAPTERS[game] = target
    _loaded.pop(game, None)


def games_with_adapters() -> list[str]:
    """The registered games that have a learning environment, in the registry's order:
    those of :data:`ADAPTERS` and every game of the Stops family."""
    return [d.name for d in registry.descriptions() if d.name in ADAPTERS or _in_family(d)]


def _whole(value: object, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SetupError(f"{what} must be a whole number >= {low}, not {value!r}")
    return value


class GameAdapter(ABC):
    """One game's part of the learning environments (see the module's docstring)."""

    #: The game's name in the registry (``rummoli``, ``rummy``).
    game: str
    #: Its name in the learning libraries (``python_<env_name>``, ``<env_name>_v0``).
    env_name: str
    #: The Gymnasium id's name (``Rummoli``, ``BasicRummy``).
    gym_name: str
    #: The adapter's own settings, with their defaults (whole numbers).
    extra_defaults: ClassVar[Mapping[str, int]] = {}
    #: The tensor fields (:meth:`tensor_fields`) that hold what only the seat knows (its
    #: cards, the widow it gave away, its stock draws): the rest is public, the same
    #: for every seat that sees the table (seats written relative to the observer).
    private_fields: ClassVar[frozenset[str]] = frozenset()

    def __init__(self) -> None:
        self._cache: dict[int, tuple[EnvConfig, dict[str, Any]]] = {}

    def description(self) -> GameDescription:
        return registry.describe(self.game)

    def overrides(self, hook: str) -> bool:
        """Whether this game has its own ``hook`` (else the base's no-op): a table skips
        the call at every step where it has not."""
        return getattr(type(self), hook) is not getattr(GameAdapter, hook)

    # ------------------------------------------------------------------ settings

    def config(self, params: Mapping[str, Any] | None = None) -> EnvConfig:
        """An :class:`EnvConfig` from parameters by name: ``players``, ``length``,
        ``dealer`` (-1: chance), ``actions``, every house rule, and the adapter's own
        settings. An unknown name or a bad value is a SetupError naming it."""
        description = self.description()
        params = dict(params or {})
        players = _whole(params.pop("players", description.default_players), "players", 1)
        description.check_players(players)
        length = params.pop("length", "round")
        if length not in LENGTHS:
            raise SetupError(f"length must be one of {', '.join(LENGTHS)}, not {length!r}")
        dealer = params.pop("dealer", -1)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not -1 <= dealer < players:
            raise SetupError(
                f"dealer must be -1 (chance) or a seat 0..{players - 1}, not {dealer!r}"
            )
        actions = params.pop("actions", "exact")
        if actions not in ACTION_SPACES:
            raise SetupError(f"actions must be one of {', '.join(ACTION_SPACES)}, not {actions!r}")
        extra = {}
        for name, default in self.extra_defaults.items():
            extra[name] = _whole(params.pop(name, default), name, 1)
        known = {rule.name for rule in description.house_rules}
        unknown = sorted(k for k in params if k not in known)
        if unknown:
            settings = ["players", "length", "dealer", "actions", *self.extra_defaults]
            raise SetupError(
                f"unknown {description.title} setting {', '.join(unknown)}; settings are "
                f"{', '.join(settings)} and the house rules {', '.join(sorted(known))}"
            )
        rules = {k: self.rule_value(k, v) for k, v in params.items()}
        description.rules(rules)  # checks every house rule; names a bad one
        config = EnvConfig(
            self.game, players, rules, length, None if dealer < 0 else dealer, actions, extra
        )
        self.check(config)
        return config

    def rule_value(self, name: str, value: Any) -> Any:
        """A house rule's value as a library with only numbers, text and truth values
        gives it (OpenSpiel's parameters each have one type), turned into what the
        rules object reads: a rule that is a choice or a number (Rummoli's
        ``bet_limit``) takes its choices as 0, -1, ... (:func:`spiel_code`) and its
        numbers as themselves or as digits; a rule whose None means "the table's
        default" (Rummy's ``target``) takes 0 for None."""
        rule = next(r for r in self.description().house_rules if r.name == name)
        if isinstance(value, bool):
            return value
        if rule.kind == CHOICE_OR_INT:
            if isinstance(value, str) and value.isdigit():
                return int(value)
            if isinstance(value, int) and value <= 0:
                if value <= -len(rule.choices):
                    codes = ", ".join(f"{-i} ({c})" for i, c in enumerate(rule.choices))
                    raise SetupError(
                        f"house rule {name} as a number is a whole number from "
                        f"{rule.minimum} or one of {codes}, not {value}"
                    )
                return rule.choices[-value]
        elif rule.kind == OPTIONAL_INT and value == 0:
            return None
        return value

    def check(self, config: EnvConfig) -> None:
        """Refuse settings that make no finite environment (a SetupError names why).
        Every setting is fine by default."""
        return

    def rules_object(self, config: EnvConfig) -> Any:
        return self.cached(config, "rules", lambda: self.description().rules(dict(config.rules)))

    def cached(self, config: EnvConfig, key: str, make: Callable[[], Any]) -> Any:
        """A value derived from ``config`` once (a rules object, a tensor layout): the
        environments ask for them at every step."""
        entry = self._cache.get(id(config))
        if entry is None or entry[0] is not config:
            entry = (config, {})
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[id(config)] = entry
        values = entry[1]
        if key not in values:
            values[key] = make()
        return values[key]

    # ------------------------------------------------------------------ rounds

    @abstractmethod
    def start_carry(self, config: EnvConfig) -> Any:
        """What a game starts with and carries from round to round (chips, board, scores)."""

    @abstractmethod
    def cards_per_deal(self, config: EnvConfig, carry: Any) -> int:
        """How many cards chance draws, one at a time, before a round can start."""

    def deck(self, config: EnvConfig) -> list[int]:
        """The cards of the game's pack, which every deal (and every draw of a whole
        game's settlement) is drawn from: all 52 by default."""
        return list(range(52))

    @abstractmethod
    def round_setup(
        self, config: EnvConfig, carry: Any, dealer: int, cards: Sequence[int]
    ) -> dict[str, Any]:
        """The engine setup (``stored_game``'s dict) of one round dealt with ``cards``."""

    def build_round(
        self, config: EnvConfig, carry: Any, dealer: int, cards: Sequence[int], seed: int
    ) -> GameState:
        """The engine's game of one round: ``stored_game`` of :meth:`round_setup` (an
        adapter may build the same game faster from the game's own setup object)."""
        setup = self.round_setup(config, carry, dealer, cards)
        # The rules as this engine plays them now (a stored game's rules without a
        # version would be played as version 1).
        return self.description().stored_game(self.rules_object(config).to_dict(), setup, seed)

    def decision_chance(self, engine: GameState, action: int) -> list[int] | None:
        """The chance outcomes a decision waits for (Rummy: the stock card drawn), or None."""
        return None

    def resolve_decision(self, engine: GameState, action: int, outcome: int) -> list[Event]:
        raise NotImplementedError

    def engine_chance(self, engine: GameState) -> list[int] | None:
        """At the engine's own chance step: the explicit outcomes it hides, or None when
        the step is fixed by the dealt cards (the engine then just takes it)."""
        return None

    def resolve_engine_chance(self, engine: GameState, outcome: int) -> list[Event]:
        raise NotImplementedError

    def truncated(self, config: EnvConfig, engine: GameState) -> bool:
        """Whether the round is cut short by the adapter's cap (no such cap by default)."""
        return False

    def cut_short(self, config: EnvConfig, carry: Any, rounds: int) -> bool:
        """Whether a whole game that ended with ``carry`` after ``rounds`` rounds was cut
        by the adapter's cap, not ended by the rules (no cap by default)."""
        return False

    @abstractmethod
    def round_rewards(
        self, config: EnvConfig, engine: GameState, before: Any, after: Any
    ) -> list[float]:
        """What one finished round was worth to each seat (zero-sum)."""

    @abstractmethod
    def after_round(self, config: EnvConfig, engine: GameState, carry: Any) -> Any:
        """The carry after a round (the engine's chips and board, or scores)."""

    @abstractmethod
    def next_round(
        self, table: Table, seed: int, settlement: Sequence[int] | None = None
    ) -> NextRound:
        """Between rounds of a whole game, from ``table`` as the round left it (its
        ``config``, ``carry``, ``dealer`` of that round and ``rounds`` played; ``seed``
        the engine's for what comes next): ``(carry, next dealer, game over, events)``;
        a game that ends settles what is left (Rummoli's board) here, with the cards of
        ``settlement`` when its settlement deals any (:meth:`settlement_draws`)."""

    def settlement_draws(self, table: Table, seed: int) -> list[int]:
        """When the game ends after this round (``table`` and ``seed`` as for
        :meth:`next_round`) and its end deals cards: how many each of its draws takes,
        each from a fresh deck (the table draws them, a card at a time, as chance nodes,
        and passes them to :meth:`next_round`). None by default."""
        return []

    @abstractmethod
    def game_returns(self, config: EnvConfig, start: Any, end: Any) -> list[float]:
        """What the whole game was worth to each seat (zero-sum)."""

    # ------------------------------------------------------------------ bounds

    @abstractmethod
    def utility_bounds(self, config: EnvConfig) -> tuple[float, float]:
        """True bounds of any seat's return (not necessarily tight)."""

    @abstractmethod
    def max_decisions(self, config: EnvConfig) -> int:
        """A true bound of the decisions in one game of this length."""

    @abstractmethod
    def max_chance_nodes(self, config: EnvConfig) -> int:
        """A true bound of the chance nodes in one game of this length."""

    # ------------------------------------------------------------------ actions

    @abstractmethod
    def num_exact_actions(self, config: EnvConfig) -> int:
        """The engine's action space size for these settings."""

    def num_compact_actions(self, config: EnvConfig) -> int:
        return self.num_exact_actions(config)

    def to_compact(self, engine: GameState, legal: list[int]) -> list[int]:
        """The compact actions that stand for ``legal`` (sorted, one per engine action)."""
        return legal

    def from_compact(self, engine: GameState, action: int) -> int:
        """The engine action a legal compact action stands for."""
        return action

    def compact_for(self, engine: GameState, action: int) -> int:
        """The compact action that stands for the legal engine ``action`` (the project's
        computer players answer in the engine's space): its own, or, when no compact
        action stands for that amount, the one of the same kind nearest it."""
        return action

    def compact_to_text(self, engine: GameState, action: int) -> str:
        return engine.action_to_text(self.from_compact(engine, action))

    # ------------------------------------------------------------------ tensors

    @abstractmethod
    def observation_size(self, config: EnvConfig) -> int: ...

    @abstractmethod
    def encode_observation(
        self, config: EnvConfig, engine: GameState | None, seat: int, out: Vector
    ) -> None:
        """Write what ``seat`` sees now into ``out`` (zeroed by the caller), from the
        engine's observation of that seat only: the engine decides what a seat sees."""

    def observation_features(
        self, config: EnvConfig, engine: GameState, seat: int
    ) -> Features | None:
        """The same tensor as :meth:`encode_observation`, as features (:data:`Features`:
        ``(masks, positions, values)``); or None (the default: the
        adapter only writes the tensor). An adapter gives them by
        :meth:`features_maker`."""
        maker = self.features_maker(config)
        return None if maker is None else maker(engine, seat)

    def features_maker(self, config: EnvConfig) -> Callable[[GameState, int], Features] | None:
        """:meth:`observation_features` for ``config`` as one function of ``(engine,
        seat)``, with what it derives from the settings looked up once: a table asks for
        it when it is made and calls it at every observation (the fast path of
        :meth:`~rummoli.envs.table.Table.observation_tensor`). None (the default): the
        adapter has no features and only writes the tensor."""
        return None

    @abstractmethod
    def tensor_fields(self, config: EnvConfig, perfect_recall: bool) -> list[tuple[str, int, int]]:
        """The observation tensor's fields (``perfect_recall``: the information state's,
        the observation's then the history's) as ``(name, offset, width)``, in order:
        OpenSpiel's observers name their pieces by them, and keep the public or the
        private ones (:attr:`private_fields`)."""

    @abstractmethod
    def info_extra_size(self, config: EnvConfig) -> int:
        """Size of the history features the information state adds to the observation."""

    @abstractmethod
    def encode_history(self, config: EnvConfig, table: Table, seat: int, out: Vector) -> None:
        """Write the seat's own history of this round (from the events it saw) into ``out``."""

    # ------------------------------------------------------------------ resampling

    @abstractmethod
    def resample_round(self, table: Table, seat: int, rng: random.Random) -> list[int] | None:
        """This round's chance outcomes (the deal, then any chance node of the round, in
        order) redrawn so as to keep all ``seat`` knows (None: this sample failed, try
        another). The table replays the round with them (:meth:`Table.replay_round`)
        and checks that the seat's information state is unchanged."""

    @abstractmethod
    def hidden_cards(self, table: Table, seat: int) -> int:
        """The cards ``seat`` can neither see nor place now (a mask): other hands, the
        widow or the stock, less what it knows of them (shown, taken from the discard
        pile). The resampler's fallback swaps them (:meth:`Table.resample`); the set is
        the same from every state the seat cannot tell apart, which keeps its random
        walk's moves symmetric."""


def spiel_code(rule: HouseRule, value: Any) -> Any:
    """A house rule's value as a parameter of one type (see :meth:`GameAdapter.rule_value`,
    which reads it back): a choice of a choice-or-number rule as 0, -1, ...; None of an
    optional number as 0; every other value as it is."""
    if rule.kind == CHOICE_OR_INT and isinstance(value, str):
        return -rule.choices.index(value)
    if rule.kind == OPTIONAL_INT and value is None:
        return 0
    return value


def rotate(values: Sequence[Any], seat: int) -> list[Any]:
    """``values`` by seat, from ``seat``'s point of view: its own first, then clockwise."""
    n = len(values)
    return [values[(seat + i) % n] for i in range(n)]
