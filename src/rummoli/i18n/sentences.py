"""English sentences written by code that stays English, translated by their shape.

The engine and the computer players are standard library only and speak English: a
:class:`~rummoli.engine.base.SetupError` says "house rule widow must be one of ...", a
bot's reason says "fold: pair, 31% to win, not worth the call". Rather than teach them
languages, the interfaces translate those sentences at the edge: each known shape is a
message id with ``{fields}`` (context ``error`` or ``hint``), matched against the English
text; the fields keep their values (names, codes, numbers) and the translation is filled
with them. Some fields are translated in turn (a game's title, a poker hand, a nested
reason). A sentence of no known shape is shown as it is, in English: nothing is lost,
and ``tests/test_i18n_sentences.py`` plays games and fails on any bot reason or error
the table does not know.

The proper end state is structured errors and reasons (a code and its values) from the
engine and the bots; these tables are what that change would start from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from rummoli.i18n import NP_, NPN_, npgettext, number, pgettext
from rummoli.i18n.terms import poker_hand

ERROR = "error"
HINT = "hint"


@dataclass(frozen=True, slots=True)
class Shape:
    """One sentence shape: its message id (and plural id, with the field that counts)."""

    context: str
    message: str
    plural: str = ""
    count: str = ""


def _s(context: str, message: str) -> Shape:
    return Shape(context, message)


#: Errors of the engine and the shared option parsing a person can meet at the terminal.
ERRORS = (
    _s(ERROR, NP_("error", "unknown {game} house rule {names}; house rules are {known}")),
    _s(ERROR, NP_("error", "unknown house rule {names}")),
    _s(ERROR, NP_("error", "house rule {name} must be one of {choices}, not {value}")),
    _s(ERROR, NP_("error", "house rule {name} must be true or false")),
    _s(
        ERROR,
        NP_("error", "house rule {name} must be a whole number from {low} to {high}, not {value}"),
    ),
    _s(
        ERROR,
        NP_(
            "error",
            "house rule bet_limit must be no_limit, pot_limit or a whole number "
            "from {low} to {high}, not {value}",
        ),
    ),
    _s(ERROR, NP_("error", "rules must be an object of house rules by name")),
    _s(ERROR, NP_("error", "unknown preset {name} for {game}; presets are {known}")),
    _s(ERROR, NP_("error", "unknown preset {name}; presets are {known}")),
    _s(ERROR, NP_("error", "{game} has no printed rule sets")),
    _s(ERROR, NP_("error", "{game} is played by {low} to {high} players, not {count}")),
    _s(ERROR, NP_("error", "{game} needs {low} to {high} players, not {count}")),
    _s(ERROR, NP_("error", "unknown game {name} in the record; games are {known}")),
    _s(ERROR, NP_("error", "unknown game {name}; games are {known}")),
    _s(ERROR, NP_("error", "unknown bot level {names} for {game}; levels are {known}")),
    _s(ERROR, NP_("error", "a player name is empty")),
    _s(ERROR, NP_("error", "two players have the same name")),
    _s(ERROR, NP_("error", "'widow' is the name of the extra hand, not of a player")),
    _s(ERROR, NP_("error", "a house rule is NAME=VALUE, e.g. widow=none; not {item}")),
    # A record that cannot be replayed.
    _s(ERROR, NP_("error", "the record is not JSON: {detail}")),
    _s(ERROR, NP_("error", "a record must be a JSON object")),
    _s(ERROR, NP_("error", "unsupported record version {version}")),
    _s(ERROR, NP_("error", "the record has no setup")),
    _s(ERROR, NP_("error", "the record's seed must be a whole number")),
    _s(ERROR, NP_("error", "the record's actions must be a list of whole numbers")),
    _s(ERROR, NP_("error", "action {index} of the record: {detail}")),
    # The engine's refusal of an action (a record's, a typed one); its reason is
    # translated in turn; the interface that knows the game words the actions and the
    # names (``error(text, fields)``: ``text``, ``legal``, ``name``, ``who``).
    _s(ERROR, NP_("error", "{text} is not legal now: the next step is chance (deal)")),
    _s(ERROR, NP_("error", "{text} is not legal now: {why}; {name} decides among: {legal}")),
    _s(ERROR, NP_("error", "{text} is not legal now; {who} decides among: {legal}")),
    _s(ERROR, NP_("error", "{text} is not an action of Basic Rummy (0..{high})")),
    _s(ERROR, NP_("error", "the game is over: no action is legal")),
    _s(ERROR, NP_("error", "an action is a whole number, not {value}")),
    _s(ERROR, NP_("error", "it is {name}'s decision, not a chance step")),
    _s(ERROR, NP_("error", "the discard pile is empty, so the only draw is from the stock")),
    _s(ERROR, NP_("error", "{name} must first draw, from the stock or the discard pile")),
    _s(
        ERROR,
        NP_(
            "error",
            "{name} has already drawn this turn: the discard pile was empty, so the top "
            "card of the stock was drawn for him",
        ),
    ),
    _s(ERROR, NP_("error", "{name} has already drawn this turn")),
    _s(ERROR, NP_("error", "{name} does not hold {card}")),
    _s(ERROR, NP_("error", "{card} was taken from the discard pile this turn")),
    _s(ERROR, NP_("error", "{name} has melded this turn (house rule one_meld_per_turn)")),
    _s(ERROR, NP_("error", "the table has no meld in slot {slot} (it has {count})")),
    _s(ERROR, NP_("error", "{card} does not fit the meld in slot {slot} ({cards})")),
    _s(
        ERROR,
        NP_(
            "error",
            "it would leave only {card}, taken from the discard pile this turn, which may "
            "not be discarded and would fit no meld",
        ),
    ),
    _s(ERROR, NP_("error", "the record names no game; games are {known}")),
    # A typed Rummy meld the engine refuses.
    _s(ERROR, NP_("error", "{text}: {card} is named twice")),
    _s(ERROR, NP_("error", "unknown action {text}: unknown card {card}")),
)

#: The computer players' reasons, as ``?`` (hint) shows them.
HINTS = (
    # Any game: the random player
    _s(HINT, NP_("hint", "random")),
    # Rummoli, basic
    _s(HINT, NP_("hint", "the only choice")),
    _s(HINT, NP_("hint", "exchange: the widow is worth about {amount} more")),
    _s(HINT, NP_("hint", "keep: this hand is worth at least the unseen widow")),
    _s(HINT, NP_("hint", "bid {amount}: the widow looks worth {limit}")),
    _s(HINT, NP_("hint", "pass: the widow is not worth the price")),
    _s(HINT, NP_("hint", "claim the space")),
    Shape(
        HINT,
        *NPN_(
            "hint",
            "lead {card}: lays {count} of my cards and keeps the lead",
            "lead {card}: lays {count} of my cards and keeps the lead",
        ),
        "count",
    ),
    Shape(
        HINT,
        *NPN_(
            "hint", "lead {card}: lays {count} of my cards", "lead {card}: lays {count} of my cards"
        ),
        "count",
    ),
    # The strong player's "check: +2.4 chips over the round" also has the basic one's
    # "check: {why}" shape: the more specific shape must be tried first.
    _s(HINT, NP_("hint", "{action}: {mean} chips over the round ({other}: {other_mean})")),
    _s(HINT, NP_("hint", "{action}: {mean} chips over the round")),
    _s(HINT, NP_("hint", "fold: {why}, not worth the call")),
    _s(HINT, NP_("hint", "raise to {amount}: {why}")),
    _s(HINT, NP_("hint", "bet {amount}: {why}")),
    _s(HINT, NP_("hint", "check: {why}")),
    _s(HINT, NP_("hint", "call: {why}")),
    _s(HINT, NP_("hint", "{hand}, {percent} to win")),
    # Rummoli, strong
    _s(HINT, NP_("hint", "exchange: {mean} chips over keeping")),
    _s(HINT, NP_("hint", "keep: exchanging is worth {mean} chips")),
    _s(HINT, NP_("hint", "bid {amount}: the widow is worth about {worth} chips")),
    _s(HINT, NP_("hint", "pass: the widow is worth about {worth} chips")),
    _s(HINT, NP_("hint", "the only card")),
    # Rummy, basic and strong
    _s(HINT, NP_("hint", "the only legal action")),
    _s(HINT, NP_("hint", "the discard pile is empty")),
    _s(HINT, NP_("hint", "take {card}: it fits a meld")),
    _s(HINT, NP_("hint", "{card} fits nothing: draw from the stock")),
    _s(HINT, NP_("hint", "go out")),
    _s(HINT, NP_("hint", "go out (Rummy?)")),
    _s(HINT, NP_("hint", "meld and lay off what fits")),
    _s(HINT, NP_("hint", "hold the melds for Going Rummy; discard {card}, the least useful card")),
    _s(HINT, NP_("hint", "discard {card}, the least useful card")),
    _s(HINT, NP_("hint", "take {card} and go out")),
    _s(HINT, NP_("hint", "{card} makes no meld: draw from the stock")),
    _s(HINT, NP_("hint", "take {card}: {take} against {stock}")),
    _s(HINT, NP_("hint", "draw from the stock: {stock} against {take}")),
    _s(HINT, NP_("hint", "lay down what fits: too much to lose in hand")),
    _s(HINT, NP_("hint", "no card may be discarded")),
    _s(HINT, NP_("hint", "discard {card} ({score})")),
)

_FIELD = re.compile(r"\\\{(\w+)\\\}")
#: Fields whose value is a number written by the engine ("+4.1", "31%"), rewritten for
#: the language.
_SIGNED = ("mean", "other_mean", "take", "stock", "score")


@cache
def pattern(message: str) -> re.Pattern[str]:
    """The English message as a regular expression: each field matches some text (the
    web's hints read a reason's fields with it too)."""
    return re.compile("^" + _FIELD.sub(r"(?P<\1>.+?)", re.escape(message)) + "$", re.DOTALL)


def _signed(text: str) -> str:
    value = float(text)
    body = number(abs(value)) if "." not in text else _decimal(abs(value), text)
    return ("+" if value >= 0 else "-") + body


def _decimal(value: float, text: str) -> str:
    from babel.numbers import format_decimal

    from rummoli.i18n import current

    places = len(text.split(".")[1])
    return format_decimal(value, format="0." + "0" * places, locale=current().locale)


def _percent(text: str) -> str:
    from babel.numbers import format_percent

    from rummoli.i18n import current

    return format_percent(int(text.rstrip("%")) / 100, locale=current().locale)


def translate(
    text: str,
    shapes: tuple[Shape, ...],
    fields: Mapping[str, Callable[[str], str]] | None = None,
) -> str:
    """``text`` in the language in force if it has one of ``shapes``, else as it is.

    ``fields`` converts a field's value by its name (an action's text into its menu
    words); a game's title, a poker hand, numbers and nested reasons (``why``) are
    converted here.
    """
    for shape in shapes:
        match = pattern(shape.message).match(text)
        if match is None:
            continue
        values = {
            name: _convert(name, value, shapes, fields) for name, value in match.groupdict().items()
        }
        if shape.plural:
            count = int(match.group(shape.count))
            template = npgettext(shape.context, shape.message, shape.plural, count)
        else:
            template = pgettext(shape.context, shape.message)
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            return text
    return text


def _convert(
    name: str,
    value: str,
    shapes: tuple[Shape, ...],
    fields: Mapping[str, Callable[[str], str]] | None,
) -> str:
    if name == "who" and value == "chance":
        return pgettext("error", "chance (the deal)")
    if fields and name in fields:
        return fields[name](value)
    if name == "game":
        return pgettext("game", value)
    if name == "hand":
        return poker_hand(value)
    if name in ("why", "detail"):
        return translate(value, shapes, fields)
    if name == "percent" and re.fullmatch(r"\d+%", value):
        return _percent(value)
    if name in _SIGNED and re.fullmatch(r"[+-]?\d+(\.\d+)?", value):
        return _signed(value)
    if name == "worth" and re.fullmatch(r"\d+\.\d+", value):
        return _decimal(float(value), value)
    if name in ("amount", "limit", "count", "low", "high") and value.isdigit():
        return number(int(value))
    return value


def error(text: str, fields: Mapping[str, Callable[[str], str]] | None = None) -> str:
    """An error of the engine or the option parsing, in the language in force;
    ``fields`` converts a field's value by its name (see :func:`refusal_fields`)."""
    return translate(text, ERRORS, fields)


def refusal_fields(
    action_words: Callable[[str], str],
    name_words: Callable[[str], str],
    card_words: Callable[[str], str],
) -> dict[str, Callable[[str], str]]:
    """The converters of an engine refusal's fields: the action refused (``text``) and
    the legal ones (``legal``: ``call, fold, raise 22 ...``) in the table's words, the
    seat deciding (``name``, ``who``) and the cards (``card``, ``cards``: ``AD AH``) as
    the table shows them."""

    def listed(value: str) -> str:
        more = value.endswith(" ...")
        items = value.removesuffix(" ...").split(", ")
        return ", ".join(action_words(item) for item in items) + (" …" if more else "")

    def cards(value: str) -> str:
        return " ".join(card_words(code) for code in value.split())

    return {
        "text": action_words,
        "legal": listed,
        "name": name_words,
        "who": name_words,
        "card": cards,
        "cards": cards,
    }


def hint(text: str, fields: Mapping[str, Callable[[str], str]] | None = None) -> str:
    """A computer player's reason, in the language in force."""
    return translate(text, HINTS, fields)
