"""A game of the family as one declaration: its house rules, presets and layout.

Each game of the family other than Rummoli (whose rules object predates the family and
is kept as it was, byte for byte in its records) declares a :class:`FamilyGame`: its
name, seats, house rules (each a :class:`~rummoli.engine.description.HouseRule`, with its
default, allowed values, bounds and help), printed presets, and the function that turns
the house rules' values into the :class:`~.layout.Layout` the engine plays. Its rules
object is a :class:`GameRules` of that game (one class per game, :func:`rules_class`), which
checks every value against the declaration: a bad value is a
:class:`~rummoli.engine.base.SetupError` naming the rule and the values it takes.

Why not a dataclass per game, as Rummoli's: six games of thirty house rules each would
be six copies of the same checks; the declaration is the one place a rule is named, as
OpenSpiel's game parameters are (a game declares its parameters with their defaults,
and ``load_game("name(param=value)")`` is checked against them).

A declaration is code where it is logic and data where it is data: the house rules (made
with the family's shared groups, :mod:`.common`) and ``make_layout`` are the game's
``description.py``; what the game is called, its seats, board, summary and printed presets
are its ``game.toml`` beside it, read by :func:`declared_game`, so that each game states
its values and the form they take is written once, here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, ClassVar

from rummoli.engine.base import SetupError
from rummoli.engine.description import BOOL, CHOICE, CHOICE_OR_INT, INT, HouseRule
from rummoli.engine.records import check_rules_version
from rummoli.games.stops.layout import ROW, Layout, LayoutError


@dataclass(frozen=True)
class FamilyGame:
    """One game of the family, declared once (its package's ``description.py``)."""

    name: str
    title: str
    min_players: int
    max_players: int
    house_rules: tuple[HouseRule, ...]
    #: The layout the engine plays for the house rules' values (every rule named), made
    #: with the game's declaration at hand: ``common.family_layout(game, values, ...)``
    #: takes the game's identity from it, so that ``make_layout`` names only its board
    #: and what the game plays otherwise than the layout's defaults.
    make_layout: Callable[[FamilyGame, Mapping[str, Any]], Layout]
    default_players: int = 4
    #: How the interfaces draw the board, and what the game calls its spare hand (the
    #: layout's ``board_shape`` and ``spare_word``).
    board_shape: str = ROW
    spare_word: str = "widow"
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Other names the game is found by (``boodle`` for Michigan).
    aliases: tuple[str, ...] = ()
    #: The version of this game's rules the engine plays (see ``docs/engine.md``).
    rules_version: int = 1
    #: How a round goes, in a few sentences (the description's ``summary``).
    summary: str = ""
    #: Whether the web table offers the game: the browser draws every family board from
    #: its layout's data (``board_shape`` and the spaces' cards), so every game is.
    web_table: bool = True

    def defaults(self) -> dict[str, Any]:
        return {rule.name: rule.default for rule in self.house_rules}

    def identity(self) -> dict[str, Any]:
        """The layout's fields this declaration gives (name, title, seats, presentation),
        declared here once rather than again in ``make_layout``."""
        return {
            "game": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "board_shape": self.board_shape,
            "spare_word": self.spare_word,
        }

    def layout(self, values: Mapping[str, Any]) -> Layout:
        """The layout for ``values`` (every house rule named)."""
        return self.make_layout(self, values)


class DeclarationError(ValueError):
    """A game's ``game.toml`` that does not declare a game: the message names the file and
    what is wrong in it."""


#: What a ``game.toml`` may say, and the TOML type of each (the :class:`FamilyGame` fields
#: that are data; the house rules and the layout are code, ``description.py``'s).
DECLARED: Mapping[str, type] = {
    "name": str,
    "title": str,
    "aliases": list,
    "min_players": int,
    "max_players": int,
    "default_players": int,
    "board_shape": str,
    "spare_word": str,
    "rules_version": int,
    "web_table": bool,
    "summary": str,
    "presets": dict,
}
#: Those types in TOML's words, for the errors.
TOML_WORDS: Mapping[type, str] = {
    str: "string",
    int: "integer",
    bool: "boolean",
    list: "array",
    dict: "table",
}
#: What every ``game.toml`` says.
REQUIRED = ("name", "title", "min_players", "max_players")


def declared_game(
    package: str | None,
    house_rules: tuple[HouseRule, ...],
    make_layout: Callable[[FamilyGame, Mapping[str, Any]], Layout],
) -> FamilyGame:
    """The game ``package`` declares: its ``game.toml`` (name, seats, board, summary,
    presets) with the house rules and layout of its ``description.py``. A file that does
    not declare a game is a :class:`DeclarationError` naming the file and the problem."""
    resource = files(package or "").joinpath("game.toml")
    where = f"{package}/game.toml"
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise DeclarationError(f"{where}: {error}") from None
    _check_declared(where, data, {rule.name for rule in house_rules})
    data["aliases"] = tuple(data.get("aliases", ()))
    return FamilyGame(house_rules=house_rules, make_layout=make_layout, **data)


def _check_declared(where: str, data: Mapping[str, Any], rule_names: set[str]) -> None:
    """Every key of ``data`` one of :data:`DECLARED`, of its type, each required one there,
    each alias a string and each preset a table of house rules of the game."""
    unknown = sorted(set(data) - set(DECLARED))
    if unknown:
        raise DeclarationError(f"{where}: unknown key {', '.join(unknown)}")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise DeclarationError(f"{where}: missing {', '.join(missing)}")
    for key, value in data.items():
        kind = DECLARED[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise DeclarationError(f"{where}: {key} must be a TOML {TOML_WORDS[kind]}")
    if not all(isinstance(alias, str) for alias in data.get("aliases", ())):
        raise DeclarationError(f"{where}: aliases must be strings")
    for preset, values in data.get("presets", {}).items():
        if not isinstance(values, dict):
            raise DeclarationError(f"{where}: preset {preset} must be a table of house rules")
        strange = sorted(set(values) - rule_names)
        if strange:
            raise DeclarationError(
                f"{where}: preset {preset} sets {', '.join(strange)}, not house rules of the game"
            )


class GameRules:
    """The house rules of one game of the family: read-only values, checked."""

    GAME: ClassVar[FamilyGame]

    def __init__(self, **values: Any) -> None:
        game = self.GAME
        known = {rule.name: rule for rule in game.house_rules}
        unknown = sorted(name for name in values if name not in known and name != "rules_version")
        if unknown:
            raise SetupError(f"unknown house rule {', '.join(unknown)}")
        data = game.defaults()
        data.update({k: v for k, v in values.items() if k != "rules_version"})
        for name, rule in known.items():
            _check(rule, data[name])
        version = values.get("rules_version", game.rules_version)
        check_rules_version(version, game.rules_version)
        data["rules_version"] = version
        self._values = data
        try:
            self._layout = game.layout(data)
        except LayoutError as error:
            raise SetupError(f"these house rules do not go together: {error}") from None

    # ----------------------------------------------------------------- reading

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    @property
    def game(self) -> FamilyGame:
        return self.GAME

    @property
    def rules_version(self) -> int:
        return int(self._values["rules_version"])

    @property
    def rounds(self) -> int:
        return int(self._values["rounds"])

    @property
    def starting_chips(self) -> int:
        return int(self._values["starting_chips"])

    def layout(self) -> Layout:
        """The game under these rules, as the family's engine plays it (made once)."""
        return self._layout

    # ----------------------------------------------------------------- records

    @classmethod
    def from_dict(cls, data: object) -> GameRules:
        """Rules from a JSON object of house rules by name (``preset`` first, then the
        rules given); unknown names are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise SetupError("rules must be an object of house rules by name")
        values: dict[str, Any] = {}
        preset = data.get("preset")
        if preset is not None:
            presets = cls.GAME.presets
            if not isinstance(preset, str) or preset not in presets:
                raise SetupError(f"unknown preset {preset!r}; presets are {', '.join(presets)}")
            values.update(presets[preset])
        for name, value in data.items():
            if name == "preset":
                continue
            if isinstance(value, str) and value.isdigit():
                value = int(value)  # a number written as text (a form's, a command's)
            values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def changed(self) -> dict[str, Any]:
        """Only the house rules that differ from the defaults (the rules version is not
        a house rule)."""
        defaults = self.GAME.defaults()
        return {k: v for k, v in self._values.items() if k in defaults and defaults[k] != v}

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        assert isinstance(other, GameRules)
        return other._values == self._values

    def __hash__(self) -> int:
        return hash((self.GAME.name, tuple(sorted(self._values.items()))))

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.changed().items())
        return f"{type(self).__name__}({changed})"


def rules_class(game: FamilyGame) -> type[GameRules]:
    """The rules class of ``game`` (its description's ``rules_type``)."""
    name = "".join(word.capitalize() for word in game.name.split("_")) + "Rules"
    made: type[GameRules] = type(name, (GameRules,), {"GAME": game})
    return made


def _check(rule: HouseRule, value: object) -> None:
    """A value of ``rule``, or a SetupError naming the rule and what it takes."""
    name = rule.name
    low, high = rule.minimum, rule.maximum
    in_range = (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or value >= low)
        and (high is None or value <= high)
    )
    if rule.kind == BOOL:
        if not isinstance(value, bool):
            raise SetupError(f"house rule {name} must be true or false")
    elif rule.kind == CHOICE:
        if value not in rule.choices:
            raise SetupError(
                f"house rule {name} must be one of {', '.join(rule.choices)}, not {value!r}"
            )
    elif rule.kind == INT:
        if not in_range:
            raise SetupError(
                f"house rule {name} must be a whole number from {low} to {high}, not {value!r}"
            )
    elif rule.kind == CHOICE_OR_INT and value not in rule.choices and not in_range:
        raise SetupError(
            f"house rule {name} must be {', '.join(rule.choices)} or a whole number "
            f"from {low} to {high}, not {value!r}"
        )
