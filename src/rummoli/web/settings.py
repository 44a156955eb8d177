"""What a table is set up with, checked before it exists; and the lobby's choices.

The lobby's form is built from :func:`lobby_options` (for each game: the house rules,
their defaults, their help texts from the game's ``RULE_HELP``, Rummoli's printed presets
and the computer players of :func:`rummoli.bots.levels_for`), so a house rule or a bot
level added to an engine shows up in the browser without touching the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rummoli import i18n
from rummoli.engine.base import SetupError
from rummoli.engine.description import (
    CHOICE,
    CHOICE_OR_INT,
    INT,
    OPTIONAL_INT,
    GameDescription,
    HouseRule,
)
from rummoli.games.registry import default_game
from rummoli.i18n import N_
from rummoli.i18n.terms import (
    bot_label,
    game_title,
    house_rule_groups,
    house_rule_help,
    house_rule_title,
    house_rule_value,
    preset_label,
)
from rummoli.web import games
from rummoli.web.games import AnyRules, check_game, seat_limits, web_part
from rummoli.web.names import MAX_NAME, BadName
from rummoli.web.names import check_name as _check_name
from rummoli.web.wording import Worded, wording_of

MAX_TURN_TIMER = 3600.0
MAX_TIME_LIMIT = 24 * 60


class SettingsError(Worded):
    """Settings or a name that cannot make a table; the message says what to change
    (a message id and its values: :mod:`.wording`). ``engine``: the sentence is the
    engine's own (a :class:`SetupError`), an English sentence without fields, which the
    Python catalogues translate by its shape (:mod:`rummoli.i18n.sentences`)."""

    engine: bool = False

    @classmethod
    def of_engine(cls, error: Exception) -> SettingsError:
        found = cls(str(error))
        found.engine = True
        return found


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table before its first card: a bot level per seat (None: a person's seat), the
    house rules, the turn timer (seconds, 0: none), the time limit (minutes, 0: none)
    and the game (a name of the registry)."""

    seats: tuple[str | None, ...]
    rules: AnyRules
    turn_timer: float = 0.0
    time_limit: int = 0
    game: str = field(default_factory=default_game)
    #: Listed in the lobby, and any visitor may sit down; else (the default) only
    #: through the invitation link.
    public: bool = False


def levels(game: str | None = None) -> list[str]:
    """The computer players that exist now (other levels may be added at any time)."""
    return games.levels(game or default_game())


def standin_level(game: str | None = None) -> str:
    """The level that plays for a player who is away past the turn timer."""
    return games.standin_level(game or default_game())


def _number(data: Mapping[str, Any], key: str, high: float) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= high:
        raise SettingsError(N_("{key} must be a number from 0 to {high}"), key=key, high=int(high))
    return float(value)


#: The fields of a create-table request (``name``, the creator's, is read by the API).
REQUEST_FIELDS = ("game", "seats", "rules", "turn_timer", "time_limit", "public", "name")


def settings_from_request(data: object) -> TableSettings:
    """Check a create-table request (see ``docs/web.md``) and return its settings."""
    if not isinstance(data, Mapping):
        raise SettingsError(N_("the request must be a JSON object"))
    unknown = sorted(str(key) for key in data if key not in REQUEST_FIELDS)
    if unknown:  # a misspelt field ("timer") would otherwise be a silent default
        raise SettingsError(
            N_("unknown field {fields}: a new table takes {known}"),
            fields=", ".join(unknown)[:200],
            known=", ".join(REQUEST_FIELDS),
        )
    try:
        game = check_game(data.get("game", default_game()))
    except SetupError as error:
        raise SettingsError.of_engine(error) from None
    low, high = seat_limits(game)
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not low <= len(raw_seats) <= high:
        raise SettingsError(N_("seats must be a list of {low} to {high} seats"), low=low, high=high)
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
        raise SettingsError(N_("a table needs at least one seat for a person"))
    # Absent or null: the defaults. Anything else must be an object: [], "" and 0 are
    # mistakes, not a way to say "the defaults".
    raw_rules = data.get("rules")
    if raw_rules is None:
        raw_rules = {}
    if not isinstance(raw_rules, Mapping):
        raise SettingsError(N_("rules must be an object of house rules by name"))
    try:
        rules = games.rules_from_dict(game, raw_rules)
    except (SetupError, TypeError) as error:
        raise SettingsError.of_engine(error) from None
    timer = _number(data, "turn_timer", MAX_TURN_TIMER)
    limit = int(_number(data, "time_limit", MAX_TIME_LIMIT))
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise SettingsError(N_("public must be true or false"))
    return TableSettings(tuple(seats), rules, timer, limit, game, public)


def check_name(name: object, taken: list[str]) -> str:
    """A player's name as it will be stored and shown (see :mod:`.names`: NFKC, no
    look-alike of a name at the table, no computer player's name)."""
    try:
        return _check_name(name, taken)
    except BadName as error:
        found = wording_of(error)
        raise SettingsError(found["text"], **found["params"]) from None


def bot_name(seat: int) -> str:
    """The name of a computer player's seat (people cannot take it: names must differ)."""
    return f"Bot {seat + 1}"


def rule_entry(rule: HouseRule) -> dict[str, Any]:
    """One house rule for the lobby's form: its name, default, kind and help; the words a
    choice takes; the smallest number; the usual numbers and what ``null`` means at each
    table size (Rummy's target). Keys without a value are left out. Every number has
    its range (``minimum``, ``maximum``): the lobby's inputs say it, the rules refuse
    the rest."""
    entry: dict[str, Any] = {
        "name": rule.name,
        "default": rule.default,
        "kind": rule.kind,
        "help": house_rule_help(rule) if rule.help else rule.help,
    }
    if rule.kind in (CHOICE, CHOICE_OR_INT):
        entry["choices"] = list(rule.choices)
    if rule.kind in (INT, CHOICE_OR_INT, OPTIONAL_INT):
        if rule.minimum is not None:
            entry["minimum"] = rule.minimum
        if rule.maximum is not None:
            entry["maximum"] = rule.maximum
    if rule.suggested:
        entry["suggested"] = list(rule.suggested)
    if rule.by_players:
        entry["by_players"] = {str(n): value for n, value in rule.by_players.items()}
    return entry


def _value_labels(description: GameDescription, rule: HouseRule) -> dict[str, Any]:
    """A choice rule's words for people: ``{"values": {word: {"title", "help"}}}``."""
    if not rule.choices:
        return {}
    values = {}
    for word in rule.choices:
        title, help_text = house_rule_value(description, rule.name, word)
        values[word] = {"title": title, "help": help_text}
    return {"values": values}


def game_options(description: GameDescription) -> dict[str, Any]:
    """One game's part of the lobby's form: its rules, presets, computers and seats, in
    the language in force (titles, help, level names; the values stay code words)."""
    low, high = seat_limits(description.name)
    return {
        "title": game_title(description),
        "intro": web_part(description.name).intro,
        "round_word": i18n.pgettext("game word", description.round_word),
        # The English word as a code: the pages choose whole sentences by it ("End
        # after this hand"), never a translated word set into a sentence.
        "round_code": description.round_word,
        "amount": description.amount,
        "rules": [
            {**rule_entry(rule), "title": house_rule_title(description, rule)}
            | _value_labels(description, rule)
            for rule in description.house_rules
        ],
        "groups": [
            {"title": title, "rules": members} for title, members in house_rule_groups(description)
        ],
        "presets": {name: dict(changes) for name, changes in description.presets.items()},
        "preset_labels": {
            name: dict(zip(("title", "help"), preset_label(description, name), strict=True))
            for name in description.presets
        },
        "levels": levels(description.name),
        "level_labels": {
            level: dict(zip(("title", "help"), bot_label(description, level), strict=True))
            for level in levels(description.name)
        },
        "hint_level": description.hint_level(),
        "standin": standin_level(description.name),
        "seats": {"min": low, "max": high},
    }


def lobby_options(lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """Everything the lobby's form needs: the games, each with its house rules (defaults,
    choices and help), presets, computer players and seats; and the limits. The default
    game's part is also at the top level, as before there was a second game. Texts are
    in ``lang`` (the project's Python catalogues: :mod:`rummoli.i18n.terms`)."""
    with i18n.language(lang):
        every = {game: game_options(games.description(game)) for game in games.games()}
    return {
        "language": lang,
        **every[default_game()],
        "games": every,
        "max_name": MAX_NAME,
        "max_turn_timer": MAX_TURN_TIMER,
        "max_time_limit": MAX_TIME_LIMIT,
    }
