"""What every game's terminal table asks before play starts, and the hint line.

House rules typed as ``NAME=VALUE``, the computer players' levels (``--level`` or
``--opponents``), the names at the table, and how a computer player's suggestion is
shown: the same for every game, so they live here once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from functools import cache

from rich.text import Text

from rummoli.bots import Decision
from rummoli.i18n import NP_, _, languages, nformat, translator
from rummoli.i18n.sentences import hint as hint_reason
from rummoli.tui.cards import SUIT_SYMBOLS
from rummoli.tui.phrases import fill

#: Names of the computer players, in seat order after the human.
BOT_NAMES = ("Bea", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")


#: The words a house rule takes for true and false, in English and (translated, context
#: ``flag word``) in every language: ``oui``, ``да``, ``non``, ``нет`` are typed as well.
YES_WORDS = (NP_("flag word", "true"), NP_("flag word", "yes"), NP_("flag word", "on"))
NO_WORDS = (NP_("flag word", "false"), NP_("flag word", "no"), NP_("flag word", "off"))


@cache
def flag_words() -> dict[str, bool]:
    """Every word for true or false in every language, lower case -> its value."""
    out: dict[str, bool] = {}
    for lang in languages():
        speaker = translator(lang)
        for words, value in ((YES_WORDS, True), (NO_WORDS, False)):
            for word in words:
                out.setdefault(word, value)
                out.setdefault(speaker.pgettext("flag word", word).strip().lower(), value)
    return out


def parse_value(text: str) -> bool | int | str:
    """A house rule's value as typed: true/false (yes/no, on/off, in any language: oui,
    да), a whole number, or text."""
    lowered = text.strip().lower()
    flag = flag_words().get(lowered)
    if flag is not None:
        return flag
    if lowered.isdigit():
        return int(lowered)
    return text.strip()


def parse_house_rules(items: Sequence[str]) -> dict[str, bool | int | str]:
    """``["widow=none", "cant_lead_fine=2"]`` as a dict; raises ValueError on bad items."""
    out: dict[str, bool | int | str] = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise ValueError(
                _("a house rule is NAME=VALUE, e.g. widow=none; not {item}").format(item=repr(item))
            )
        out[name.strip()] = parse_value(value)
    return out


def opponent_levels(
    players: int, level: str, opponents: str | None, known: Collection[str]
) -> list[str]:
    """The level of each computer player, in seat order after the human.

    ``opponents`` (``"basic,strong,random"``) names one level per computer player and
    wins over ``level``, which is every computer player's level. ``known`` is the game's
    levels. Raises ValueError with the levels to choose from, or
    the count expected.
    """
    if opponents is None or not opponents.strip():
        levels = [level.strip()] * (players - 1)
    else:
        levels = [part.strip() for part in opponents.split(",")]
        if len(levels) != players - 1:
            named = nformat(
                "--opponents names {n} level", "--opponents names {n} levels", len(levels)
            )
            seats = nformat(
                "for {n} computer player (--players {players}); give one level per computer player",
                "for {n} computer players (--players {players}); give one level per computer "
                "player",
                players - 1,
                players=players,
            )
            raise ValueError(f"{named} {seats}")
    unknown = sorted({lv for lv in levels if lv not in known})
    if unknown:
        raise ValueError(
            _("unknown bot level {names}; levels are {known}").format(
                names=", ".join(map(repr, unknown)), known=", ".join(known)
            )
        )
    return levels


def table_names(name: str, players: int) -> list[str]:
    """The human's name first, then computer players whose names differ from it."""
    others = [n for n in BOT_NAMES if n.lower() != name.strip().lower()]
    return [name, *others[: players - 1]]


def hint_text(
    decision: Decision,
    to_text: Callable[[int], str],
    action_words: Callable[[str], str] | None = None,
) -> Text:
    """``Hint: raise 30 (raise to 30: +4.1 chips over the round (call: +1.0))``.

    The reason is the bot's English sentence, translated by its shape
    (:mod:`rummoli.i18n.sentences`); ``action_words`` turns an action's engine text
    inside it (``raise 30``) into the menu's words.
    """
    text = fill(
        _("Hint: {action}"),
        "bold cyan",
        action=Text(to_text(decision.action), style="bold"),
    )
    if decision.reason:
        fields: dict[str, Callable[[str], str]] = {"card": _card_symbol}
        if action_words is not None:
            fields |= {"action": action_words, "other": action_words}
        reason = hint_reason(decision.reason, fields)
        text.append(" ")
        text.append(_("({reason})").format(reason=reason), style="cyan")
    return text


def _card_symbol(text: str) -> str:
    """A card's code in a reason (``5S``, ``TS``) as the table draws it (``5♠``, ``10♠``)."""
    if re.fullmatch(r"(10|[2-9TJQKA])[CDHS]", text):
        return ("10" if text[:-1] == "T" else text[:-1]) + SUIT_SYMBOLS[text[-1]]
    return text
