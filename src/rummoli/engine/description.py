"""What a game tells the rest of the project about itself, declared once in its package.

Every interface (the terminal, the simulator, the web table, the scenario runner, the
CLI) is written once for all games. What differs between games is not decided by
comparing a game's name in those interfaces but asked of the game's
:class:`GameDescription`: its name and title, seat limits, house rules (each with its
default, allowed values and help text), how to start a game, rebuild one from a record or
from storage, play a scenario, turn its events into JSON for one seat, its computer
players, and where each interface finds the game's own part (the terminal's table, the
simulator's statistics and report, the web table's statistics).

This follows OpenSpiel's registration (a game type declared with the game, found by name
through one registry) and keeps the engine importable without any interface: the
interface parts are named by import path (``"rummoli.tui.stops:TERMINAL"``) and only
imported when an interface asks for them, so the rules engine stays standard library only
and a simulation worker never imports the web server.

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar

from rummoli.engine.base import Event, GameState, SetupError
from rummoli.engine.records import FIRST_RULES_VERSION

#: Kinds of house rule, as the lobby's form and the command line read them.
BOOL = "bool"
INT = "int"
CHOICE = "choice"
#: One of the choices, or a whole number (Rummoli's ``bet_limit``: ``no_limit`` or 10).
CHOICE_OR_INT = "choice_or_int"
#: A whole number, or ``None`` for "the game's default for this table" (Rummy's target).
OPTIONAL_INT = "optional_int"
RULE_KINDS = (BOOL, INT, CHOICE, CHOICE_OR_INT, OPTIONAL_INT)

#: Interfaces that may ask a game for its own part (see :meth:`GameDescription.part`).
TERMINAL = "terminal"
SIMULATION = "simulation"
WEB = "web"


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule: its name as in RULES.md, its default, what values it takes and what
    it means. The rules class itself checks values; this says them to people and forms."""

    name: str
    default: object
    kind: str
    help: str = ""
    #: The allowed words of a ``choice`` (or ``choice_or_int``) rule.
    choices: tuple[str, ...] = ()
    #: The smallest whole number allowed, for the numeric kinds.
    minimum: int | None = None
    #: The largest whole number allowed, for the numeric kinds (every game bounds its
    #: numbers: an amount the size of 10**12 would make lists of a million actions).
    maximum: int | None = None
    #: Values people commonly pick, offered first by forms (Rummy's targets).
    suggested: tuple[int, ...] = ()
    #: For an ``optional_int`` rule: what ``None`` means at each table size.
    by_players: Mapping[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in RULE_KINDS:
            raise ValueError(f"house rule {self.name}: kind must be one of {RULE_KINDS}")
        if self.kind in (CHOICE, CHOICE_OR_INT) and not self.choices:
            raise ValueError(f"house rule {self.name}: a {self.kind} rule needs its choices")


@dataclass(frozen=True, slots=True)
class BotLabel:
    """A computer player's level for people: a name (``Expert``) and one line on what it
    does. The level's code (``strong``) stays what records, forms and ``--level`` use."""

    title: str
    help: str = ""


def _resolve(target: object) -> object:
    """An object given directly, or named as ``"package.module:attribute"``."""
    if not isinstance(target, str):
        return target
    module, _, attribute = target.partition(":")
    if not attribute:
        raise ValueError(f"an import path is 'module:attribute', not {target!r}")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True, slots=True)
class GameDescription:
    """Everything the interfaces need to know about one game.

    The callables take and return the game's own objects (its rules class, its state);
    the interfaces hold them as the engine protocol (:class:`GameState`) and hand them
    back to the same description, so no interface imports a game.
    """

    #: The game's name in records, URLs, scenario files and ``--game`` (``rummoli``).
    name: str
    #: The game's name for people (``Basic Rummy``).
    title: str
    min_players: int
    max_players: int
    #: Seats when nobody says (the terminal's ``--players``, a simulation's bots).
    default_players: int
    #: Every house rule, in the order forms and help texts list them.
    house_rules: tuple[HouseRule, ...]
    #: Rules from a JSON object of house rules by name (unknown names are an error).
    rules_from_dict: Callable[[Mapping[str, Any]], Any]
    #: The type of the rules object :attr:`rules_from_dict` makes.
    rules_type: type
    #: ``new_game(names, rules, seed)``: a new game with a random dealer and deal.
    new_game: Callable[[Sequence[str], Any, int], GameState]
    #: ``stored_game(rules, setup, seed)``: a game before its first action, from what a
    #: record stores (its rules as a dict, its setup as a dict, its seed). Stored rules
    #: without a ``rules_version`` are played under version 1 (:mod:`.records`).
    stored_game: Callable[[Mapping[str, Any], Mapping[str, Any], int], GameState]
    #: A game rebuilt from its JSON record (a decoded object), every action applied.
    replay: Callable[[Mapping[str, Any]], GameState]
    #: A decoded scenario file's answer (``{"error": ...}`` for bad input).
    run_scenario: Callable[[Mapping[str, Any]], dict[str, Any]]
    #: One event as JSON, seats as names (the referee's view: nothing is hidden).
    event_to_json: Callable[[Event, Sequence[str]], dict[str, Any]]
    #: ``events_for(events, seat, names)``: the events ``seat`` (None: a spectator) may
    #: see, as JSON. The one place that decides what a seat sees of what happened.
    events_for: Callable[[Iterable[Event], int | None, Sequence[str]], list[dict[str, Any]]]
    #: Whether the next step deals a new round (tables pause there for people to look).
    between_rounds: Callable[[GameState], bool]
    #: The number of the round (Rummy: hand) being played, from 1; 0 before the first.
    round_number: Callable[[GameState], int]
    #: What each seat ends the game with (Rummoli: chips; Rummy: points).
    final_amounts: Callable[[GameState], list[int]]
    #: Computer players by level, weakest first: a factory ``seed -> bot``, or its import
    #: path. A random player (legal actions only) suits any game.
    bots: Mapping[str, object]
    #: Each level of :attr:`bots` for people (``strong``: Expert, "plays each choice out
    #: ..."); a level without one is shown by its code (:meth:`bot_label`).
    bot_labels: Mapping[str, BotLabel] = field(default_factory=dict)
    #: Printed rule sets by name: house rules that differ from the defaults.
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: What a seat's :attr:`final_amounts` counts, for people (``chips``, ``points``).
    amount: str = "chips"
    #: What one deal is called (``round``; Rummy: ``hand``) and a whole game (``match``).
    round_word: str = "round"
    game_word: str = "game"
    #: The rules as played, for people: a package resource ``"package:path"`` whose path
    #: holds ``{lang}`` (``"rummoli.games.rummy:text/rules.{lang}.md"``), read by
    #: :meth:`rules_document`. Empty: the game has none yet.
    rules_text: str = ""
    #: Each interface's own part for this game, by interface (:data:`TERMINAL`,
    #: :data:`SIMULATION`, :data:`WEB`): an object, or its import path. An interface
    #: with no part here uses its generic one, or says the game is not offered there.
    parts: Mapping[str, object] = field(default_factory=dict)
    #: How a round goes, in a few sentences, for help screens (an English message id,
    #: translated where it is shown; context ``game summary``).
    summary: str = ""
    #: Whether the web table offers the game. A game whose board the browser cannot draw
    #: yet (the Stops family's boards other than Rummoli's octagon) says False, and the
    #: lobby leaves it out rather than show a board that is not its own.
    web_table: bool = True
    #: Other names the registry finds the game by (python-chess's variant aliases:
    #: ``boodle`` for Michigan); records and tables keep :attr:`name`.
    aliases: tuple[str, ...] = ()
    #: ``events_for_seats(events, seats, names)``: :attr:`events_for` of each of
    #: ``seats``, the same lists, each event made JSON once for all that see it (a
    #: table's frames for every seat at once; the lists share those objects). None: the
    #: game has none, and :meth:`seats_events` asks :attr:`events_for` seat by seat.
    events_for_seats: (
        Callable[[Sequence[Event], Sequence[int | None], Sequence[str]], list[list[dict[str, Any]]]]
        | None
    ) = None

    def __post_init__(self) -> None:
        for name in (self.name, *self.aliases):
            if not name.isidentifier() or name != name.lower():
                raise ValueError(f"a game's name is a lower-case identifier, not {name!r}")
        if not 1 <= self.min_players <= self.default_players <= self.max_players:
            raise ValueError(f"{self.name}: seats must satisfy 1 <= min <= default <= max")
        if not self.bots:
            raise ValueError(f"{self.name}: a game needs at least one computer player")
        unknown = sorted(set(self.bot_labels) - set(self.bots))
        if unknown:
            raise ValueError(f"{self.name}: labels for levels it has not: {', '.join(unknown)}")

    def rules(self, data: Mapping[str, Any] | None = None) -> Any:
        """The game's rules from house rules by name; a :class:`SetupError` names a bad
        one. A rules object of this game is returned as it is. Besides the house rules,
        ``rules_version`` may name the version of the rules to play (a stored table's);
        without it, the current one."""
        if isinstance(data, self.rules_type):
            return data
        if data is not None and not isinstance(data, Mapping):
            raise SetupError("rules must be an object of house rules by name")
        known = [rule.name for rule in self.house_rules] + (["preset"] if self.presets else [])
        known.append("rules_version")
        unknown = sorted(str(name) for name in (data or {}) if name not in known)
        if unknown:
            raise SetupError(
                f"unknown {self.title} house rule {', '.join(unknown)}; "
                f"house rules are {', '.join(known)}"
            )
        return self.rules_from_dict(dict(data or {}))

    def seats_events(
        self, events: Sequence[Event], seats: Sequence[int | None], names: Sequence[str]
    ) -> list[list[dict[str, Any]]]:
        """The events each of ``seats`` may see, as JSON (:attr:`events_for_seats`)."""
        if self.events_for_seats is not None:
            return self.events_for_seats(events, seats, names)
        return [self.events_for(events, seat, names) for seat in seats]

    def house_rule(self, name: str) -> HouseRule:
        for rule in self.house_rules:
            if rule.name == name:
                return rule
        known = ", ".join(rule.name for rule in self.house_rules)
        raise SetupError(f"unknown {self.title} house rule {name!r}; house rules are {known}")

    def check_players(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            raise SetupError(
                f"{self.title} is played by {self.min_players} to {self.max_players} "
                f"players, not {count}"
            )

    def levels(self) -> list[str]:
        """The computer players' levels, weakest first."""
        return list(self.bots)

    def bot_label(self, level: str) -> BotLabel:
        """How people are told about one level: its label, else its code capitalised."""
        label = self.bot_labels.get(level)
        return label if label is not None else BotLabel(level.replace("_", " ").capitalize())

    def hint_level(self) -> str:
        """The level whose suggestion a hint gives: the strongest (the last listed)."""
        return self.levels()[-1]

    def bot_factory(self, level: str) -> Callable[[int], Any]:
        """The factory of one computer level (``seed -> bot``); ValueError names the levels."""
        try:
            target = self.bots[level]
        except KeyError:
            raise ValueError(
                f"unknown bot level {level!r} for {self.name}; levels are {', '.join(self.bots)}"
            ) from None
        factory = _resolve(target)
        if not callable(factory):
            raise TypeError(f"{self.name} bot {level!r} is not a factory: {factory!r}")
        return factory

    def rules_document(self, lang: str = "en") -> str:
        """The rules as played (Markdown) in ``lang``, else in English; "" if none."""
        if not self.rules_text:
            return ""
        package, _, path = self.rules_text.partition(":")
        for code in dict.fromkeys((lang, "en")):
            resource = importlib.resources.files(package).joinpath(path.format(lang=code))
            if resource.is_file():
                return resource.read_text(encoding="utf-8")
        return ""

    def part(self, interface: str) -> object | None:
        """The game's own part for ``interface``, imported on first use; None if it has
        none (the interface then uses its generic part, if it has one)."""
        target = self.parts.get(interface)
        return None if target is None else _resolve(target)


class _AdaptedState(GameState, Protocol):
    """A game's state class as :class:`StateAdapter` uses it: built from its rules, setup
    and seed, or started by ``new_game``."""

    def __init__(self, rules: Any, setup: Any, seed: int) -> None: ...

    @classmethod
    def new_game(cls, players: list[str], rules: Any, seed: int) -> Self: ...


S = TypeVar("S", bound=_AdaptedState)


@dataclass(frozen=True, slots=True)
class StateAdapter(Generic[S]):
    """A description's functions over one game's state (``new_game``, ``stored_game``,
    ``between_rounds``, ``round_number``, ``final_amounts``), built from its state class
    and the names of its attributes, so that no description writes them again.

    The description takes any :class:`GameState`; each function checks that it was given
    this game's state (an assertion names the type it got) and reads the attribute.
    """

    state_type: type[S]
    #: ``rules_from_dict(data)``, and ``setup_from_dict(setup, rules)``: a stored table's
    #: rules and setup (the rules first: a game's setup may depend on them).
    rules_from_dict: Callable[[dict[str, Any]], Any]
    setup_from_dict: Callable[[Mapping[str, Any], Any], Any]
    #: The phase (a number) between two rounds, the attribute that holds the phase, the
    #: round's number (from 1), and what each seat has (chips, points).
    between_phase: int
    round_attribute: str
    amounts_attribute: str
    phase_attribute: str = "phase"

    def state(self, state: GameState) -> S:
        """``state`` as this game's state class."""
        assert isinstance(state, self.state_type), type(state)
        return state

    def new_game(self, names: Sequence[str], rules: Any, seed: int) -> GameState:
        return self.state_type.new_game(list(names), rules, seed)

    def stored_game(
        self, rules: Mapping[str, Any], setup: Mapping[str, Any], seed: int
    ) -> GameState:
        data = dict(rules)
        data.setdefault("rules_version", FIRST_RULES_VERSION)  # stored before versions
        table_rules = self.rules_from_dict(data)
        return self.state_type(table_rules, self.setup_from_dict(setup, table_rules), seed)

    def between_rounds(self, state: GameState) -> bool:
        return bool(getattr(self.state(state), self.phase_attribute) == self.between_phase)

    def round_number(self, state: GameState) -> int:
        return int(getattr(self.state(state), self.round_attribute))

    def final_amounts(self, state: GameState) -> list[int]:
        return list(getattr(self.state(state), self.amounts_attribute))
