"""The games this project holds, by name: the one way in for every interface.

Each game declares a :class:`~rummoli.engine.description.GameDescription` in its own
package (``games/<game>/description.py``); this registry finds them. Interfaces loop over
:func:`descriptions` and ask :func:`describe`; none of them names a game. A game from
outside the project registers itself with :func:`register` (a test does, with a tiny
third game), or through the ``rummoli.games`` entry-point group of an installed package,
whose entry points name a description (``"mypkg.game:DESCRIPTION"``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any

from rummoli.engine.base import GameState, SetupError
from rummoli.engine.description import GameDescription
from rummoli.engine.records import record_object

#: The games that come with the project, in the order menus list them; the first is the
#: default wherever a game may go unnamed (old scenario files, records, commands).
BUILTIN = (
    "rummoli.games.rummoli.description",
    "rummoli.games.rummy.description",
    "rummoli.games.michigan.description",
    "rummoli.games.tripoley.description",
    "rummoli.games.newmarket.description",
    "rummoli.games.pope_joan.description",
    "rummoli.games.poch.description",
    "rummoli.games.nain_jaune.description",
)
#: Entry points of installed packages that add games.
ENTRY_POINT_GROUP = "rummoli.games"

_registered: dict[str, GameDescription] = {}
#: Other names of the registered games (python-chess's aliases), to their names.
_aliases: dict[str, str] = {}
_loaded = False


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BUILTIN:
        register(importlib.import_module(module).DESCRIPTION)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        description = point.load()
        if isinstance(description, GameDescription) and description.name not in _registered:
            register(description)


def register(description: GameDescription, *, replace: bool = False) -> None:
    """Add a game. A second game of the same name is an error unless ``replace``."""
    if not isinstance(description, GameDescription):
        raise TypeError(f"register a GameDescription, not {type(description).__name__}")
    _load()
    if description.name in _registered and not replace:
        raise ValueError(f"a game named {description.name!r} is already registered")
    for alias in description.aliases:
        owner = _aliases.get(alias, description.name)
        if alias in _registered or owner != description.name:
            raise ValueError(f"the name {alias!r} is taken by another game")
    _registered[description.name] = description
    for alias in description.aliases:
        _aliases[alias] = description.name


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (tests clean up with it)."""
    _load()
    _registered.pop(name, None)
    for alias in [a for a, owner in _aliases.items() if owner == name]:
        del _aliases[alias]


def descriptions() -> tuple[GameDescription, ...]:
    """Every game, in registration order (the project's own first)."""
    _load()
    return tuple(_registered.values())


def names() -> tuple[str, ...]:
    return tuple(d.name for d in descriptions())


def default_game() -> str:
    """The game meant when none is named: the first registered (Rummoli)."""
    return descriptions()[0].name


def describe(game: object) -> GameDescription:
    """The description of ``game`` (its name or an alias); a :class:`SetupError` lists the
    games there are."""
    _load()
    if isinstance(game, str) and game in _registered:
        return _registered[game]
    if isinstance(game, str) and game in _aliases:
        return _registered[_aliases[game]]
    raise SetupError(f"unknown game {game!r}; games are {', '.join(names())}")


def new_game(
    game: str, players: Sequence[str], rules: Mapping[str, Any] | None = None, seed: int = 0
) -> GameState:
    """A new game of ``game`` for ``players`` with house rules by name."""
    description = describe(game)
    return description.new_game(list(players), description.rules(rules), seed)


def replay(record: object) -> GameState:
    """Rebuild any game of the project from its JSON record (an object or its text)."""
    data = record_object(record)
    game = data.get("game")
    try:
        description = describe(game)
    except SetupError:
        raise SetupError(
            f"unknown game {game!r} in the record; games are {', '.join(names())}"
        ) from None
    return description.replay(data)
