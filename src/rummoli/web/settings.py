"""What a table is set up with, checked before it exists; and the lobby's choices.

The lobby's form is built from :func:`lobby_options` (the house rules, their defaults,
their help texts from :data:`~rummoli.games.rummoli.rules.RULE_HELP`, the printed presets
and the computer players of :data:`rummoli.bots.LEVELS`), so a house rule added to the
engine shows up in the browser without touching the page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rummoli import bots
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
from rummoli.games.rummoli.setup import MAX_PLAYERS, MIN_PLAYERS

MAX_NAME = 40
MAX_TURN_TIMER = 3600.0
MAX_TIME_LIMIT = 24 * 60
#: Computer players standing in for away players: the first level that exists.
STANDIN_PREFERENCE = ("basic", "random")

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
    house rules, the turn timer (seconds, 0: none) and the time limit (minutes, 0: none)."""

    seats: tuple[str | None, ...]
    rules: Rules
    turn_timer: float = 0.0
    time_limit: int = 0


def levels() -> list[str]:
    """The computer players that exist now (other levels may be added at any time)."""
    return list(bots.LEVELS)


def standin_level() -> str:
    """The level that plays for a player who is away past the turn timer."""
    for level in STANDIN_PREFERENCE:
        if level in bots.LEVELS:
            return level
    return next(iter(bots.LEVELS))


def _number(data: Mapping[str, Any], key: str, high: float) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= high:
        raise SettingsError(f"{key} must be a number from 0 to {high:g}")
    return float(value)


def settings_from_request(data: object) -> TableSettings:
    """Check a create-table request (see ``docs/web.md``) and return its settings."""
    if not isinstance(data, Mapping):
        raise SettingsError("the request must be a JSON object")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not MIN_PLAYERS <= len(raw_seats) <= MAX_PLAYERS:
        raise SettingsError(f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    seats: list[str | None] = []
    for seat in raw_seats:
        if seat is None or seat == "human":
            seats.append(None)
        elif isinstance(seat, str) and seat in bots.LEVELS:
            seats.append(seat)
        else:
            raise SettingsError(
                f"a seat is 'human' or a computer level ({', '.join(levels())}), not {seat!r}"
            )
    if all(s is not None for s in seats):
        raise SettingsError("a table needs at least one seat for a person")
    try:
        rules = Rules.from_dict(data.get("rules") or {})
    except (SetupError, TypeError) as error:
        raise SettingsError(str(error)) from None
    timer = _number(data, "turn_timer", MAX_TURN_TIMER)
    limit = int(_number(data, "time_limit", MAX_TIME_LIMIT))
    return TableSettings(tuple(seats), rules, timer, limit)


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


def lobby_options() -> dict[str, Any]:
    """Everything the lobby's form needs: house rules with defaults, choices and help,
    the presets, the computer players, and the limits."""
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
    return {
        "rules": rules,
        "presets": {name: dict(changes) for name, changes in PRESETS.items()},
        "levels": levels(),
        "standin": standin_level(),
        "seats": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "max_name": MAX_NAME,
        "max_turn_timer": MAX_TURN_TIMER,
        "max_time_limit": MAX_TIME_LIMIT,
    }
