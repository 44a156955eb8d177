"""What a table is set up with, checked before it exists; and the lobby's choices.

The lobby's form is built from :func:`lobby_options` (for each game: the house rules,
their defaults, their help texts from the game's ``RULE_HELP``, Rummoli's printed presets
and the computer players of :func:`rummoli.bots.levels_for`), so a house rule or a bot
level added to an engine shows up in the browser without touching the page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rummoli.engine.base import SetupError
from rummoli.games.rummoli.rules import (
    BET_LIMITS,
    DEADLOCK,
    LEAD,
    POKER,
    PRESETS,
    RULE_HELP,
    SETTLEMENT,
    SHORT_ANTE,
    SWITCH_LEAD,
    WIDOW,
    Rules,
)
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.rummy.rules import DEFAULT_TARGETS
from rummoli.games.rummy.rules import RULE_HELP as RUMMY_RULE_HELP
from rummoli.web import games
from rummoli.web.games import GAME_TITLES, RUMMOLI, RUMMY, AnyRules, check_game, seat_limits

MAX_NAME = 40
MAX_TURN_TIMER = 3600.0
MAX_TIME_LIMIT = 24 * 60

_CHOICES: dict[str, tuple[str, ...]] = {
    "short_ante": SHORT_ANTE,
    "widow": WIDOW,
    "poker": POKER,
    "bet_limit": BET_LIMITS,
    "lead": LEAD,
    "switch_lead": SWITCH_LEAD,
    "deadlock": DEADLOCK,
    "settlement": SETTLEMENT,
}


class SettingsError(ValueError):
    """Settings or a name that cannot make a table; the message says what to change."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table before its first card: a bot level per seat (None: a person's seat), the
    house rules, the turn timer (seconds, 0: none), the time limit (minutes, 0: none)
    and the game (``rummoli`` or ``rummy``)."""

    seats: tuple[str | None, ...]
    rules: AnyRules
    turn_timer: float = 0.0
    time_limit: int = 0
    game: str = RUMMOLI


def levels(game: str = RUMMOLI) -> list[str]:
    """The computer players that exist now (other levels may be added at any time)."""
    return games.levels(game)


def standin_level(game: str = RUMMOLI) -> str:
    """The level that plays for a player who is away past the turn timer."""
    return games.standin_level(game)


def _number(data: Mapping[str, Any], key: str, high: float) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= high:
        raise SettingsError(f"{key} must be a number from 0 to {high:g}")
    return float(value)


def settings_from_request(data: object) -> TableSettings:
    """Check a create-table request (see ``docs/web.md``) and return its settings."""
    if not isinstance(data, Mapping):
        raise SettingsError("the request must be a JSON object")
    try:
        game = check_game(data.get("game", RUMMOLI))
    except SetupError as error:
        raise SettingsError(str(error)) from None
    low, high = seat_limits(game)
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not low <= len(raw_seats) <= high:
        raise SettingsError(f"seats must be a list of {low} to {high} seats")
    known = levels(game)
    seats: list[str | None] = []
    for seat in raw_seats:
        if seat is None or seat == "human":
            seats.append(None)
        elif isinstance(seat, str) and seat in known:
            seats.append(seat)
        else:
            raise SettingsError(
                f"a seat is 'human' or a computer level ({', '.join(known)}), not {seat!r}"
            )
    if all(s is not None for s in seats):
        raise SettingsError("a table needs at least one seat for a person")
    raw_rules = data.get("rules") or {}
    if not isinstance(raw_rules, Mapping):
        raise SettingsError("rules must be an object of house rules by name")
    try:
        rules = games.rules_from_dict(game, raw_rules)
    except (SetupError, TypeError) as error:
        raise SettingsError(str(error)) from None
    timer = _number(data, "turn_timer", MAX_TURN_TIMER)
    limit = int(_number(data, "time_limit", MAX_TIME_LIMIT))
    return TableSettings(tuple(seats), rules, timer, limit, game)


def check_name(name: object, taken: list[str]) -> str:
    """A player's name as it will be stored and shown: trimmed, else exactly as typed.

    Names are text, never markup: the page writes them with ``textContent``, so a name
    like ``<b>`` is shown as those three characters. Control characters are refused (they
    would garble logs), and names must differ (ignoring case) because the engine's events
    and the statistics name players.
    """
    if not isinstance(name, str):
        raise SettingsError("the name must be text")
    name = name.strip()
    if not name:
        raise SettingsError("please give a name")
    if len(name) > MAX_NAME:
        raise SettingsError(f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        raise SettingsError("a name cannot hold control characters")
    if name.lower() == "widow":
        raise SettingsError("'widow' is the extra hand's name; please choose another")
    if name.lower() in (t.lower() for t in taken):
        raise SettingsError(f"{name!r} is already at this table; please choose another")
    return name


def bot_name(seat: int) -> str:
    """The name of a computer player's seat (people cannot take it: names must differ)."""
    return f"Bot {seat + 1}"


def _rummy_rules() -> list[dict[str, Any]]:
    """Basic Rummy's house rules for the form. ``target`` is null by default: the seed's
    target for the table's size, offered with its usual values."""
    default = RummyRules()
    rules: list[dict[str, Any]] = []
    for f in fields(RummyRules):
        value = getattr(default, f.name)
        entry: dict[str, Any] = {
            "name": f.name,
            "default": value,
            "kind": "bool" if isinstance(value, bool) else "int",
            "help": RUMMY_RULE_HELP.get(f.name, ""),
        }
        if f.name == "target":
            entry["kind"] = "target"
            entry["choices"] = sorted(set(DEFAULT_TARGETS.values()))
            entry["by_players"] = {str(n): t for n, t in DEFAULT_TARGETS.items()}
        rules.append(entry)
    return rules


def game_options(game: str) -> dict[str, Any]:
    """One game's part of the lobby's form: its rules, presets, computers and seats."""
    low, high = seat_limits(game)
    return {
        "title": GAME_TITLES[game],
        "rules": _rummy_rules() if game == RUMMY else _rummoli_rules(),
        "presets": {}
        if game == RUMMY
        else {name: dict(changes) for name, changes in PRESETS.items()},
        "levels": levels(game),
        "standin": standin_level(game),
        "seats": {"min": low, "max": high},
    }


def lobby_options() -> dict[str, Any]:
    """Everything the lobby's form needs: the games, each with its house rules (defaults,
    choices and help), presets, computer players and seats; and the limits. Rummoli's
    part is also at the top level, as before there was a second game."""
    return {
        **game_options(RUMMOLI),
        "games": {game: game_options(game) for game in games.GAMES},
        "max_name": MAX_NAME,
        "max_turn_timer": MAX_TURN_TIMER,
        "max_time_limit": MAX_TIME_LIMIT,
    }


def _rummoli_rules() -> list[dict[str, Any]]:
    default = Rules()
    rules = []
    for f in fields(Rules):
        value = getattr(default, f.name)
        kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "choice"
        entry: dict[str, Any] = {
            "name": f.name,
            "default": value,
            "kind": kind,
            "help": RULE_HELP.get(f.name, ""),
        }
        if f.name in _CHOICES:
            entry["choices"] = list(_CHOICES[f.name])
        if f.name == "bet_limit":
            entry["kind"] = "bet_limit"
        rules.append(entry)
    return rules
