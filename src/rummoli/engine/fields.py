"""Reading a setup's fields (a scenario's, a record's): the checks every game shares.

Each game's ``setup_from_dict`` reads its own setup (chips or scores, hands, a board or a
stock); the fields every game has are checked here once, so that they are refused with
the same words in every game: the players' names, whole numbers, a seat given by index or
name, and cards drawn one after another (the cut). Every problem is a
:class:`~rummoli.engine.base.SetupError` naming the field.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummoli.cards import CardError, parse_card
from rummoli.engine.base import SetupError


def player_names(value: object, title: str, fewest: int, most: int) -> tuple[str, ...]:
    """The players' names: a list of ``fewest`` to ``most`` distinct, non-empty names
    (white space around a name is dropped); ``title`` is the game's, for the message."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise SetupError("players must be a list of names")
    if not fewest <= len(value) <= most:
        raise SetupError(f"{title} needs {fewest} to {most} players, not {len(value)}")
    names = tuple(p.strip() for p in value)
    if any(not n for n in names):
        raise SetupError("a player name is empty")
    if len(set(names)) != len(names):
        raise SetupError("two players have the same name")
    return names


def whole(value: object, what: str) -> int:
    """A whole number >= 0 (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SetupError(f"{what} must be a whole number >= 0, not {value!r}")
    return value


def seat_from(value: object, players: Sequence[str], what: str) -> int:
    """A seat given as its index or the player's name."""
    if isinstance(value, str) and value in players:
        return players.index(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(f"{what} must be a seat index or a player's name, not {value!r}")
    if not 0 <= value < len(players):
        raise SetupError(f"{what} {value} is not a seat (0..{len(players) - 1})")
    return value


def draws_from(value: object, what: str) -> tuple[int, ...]:
    """Cards drawn one after another, each draw from a fresh deck (a card may come again
    in a later draw, so duplicates are checked where a draw is made)."""
    if not isinstance(value, list):
        raise SetupError(f"{what} must be a list of cards")
    try:
        return tuple(parse_card(text) for text in value)
    except CardError as error:
        raise SetupError(f"{what}: {error}") from None
