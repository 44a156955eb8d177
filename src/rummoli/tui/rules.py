"""``rummoli rules``: the rules as played, and the house rules in force with their meaning.

Written once for every game: the rules text comes from the game's description
(``rules_document``), the house rules from its ``HouseRule`` list, their values from the
table's rules object (defaults, a preset, ``--rule`` items), so what is printed is what
the engine will play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from rummoli.engine.description import GameDescription
from rummoli.i18n import _, current_language, nformat, number
from rummoli.i18n.terms import game_title, house_rule_help, house_rule_title, rules_document
from rummoli.tui.table import typed_value


def _value(value: object, by_players: Mapping[int, int]) -> str:
    if value is None and by_players:
        each = ", ".join(
            nformat("{value} for {n}", "{value} for {n}", n, value=number(v))
            for n, v in by_players.items()
        )
        return _("by players ({values})").format(values=each)
    return typed_value(value)


def house_rules_table(description: GameDescription, rules: Any) -> Table:
    """Every house rule: its name to type (with its title for people under it), its value
    at this table (marked when it is not the default), the values it takes, and what it
    means."""
    table = Table(title=_("House rules in force"), title_justify="left", show_lines=False)
    table.add_column(_("house rule"), no_wrap=True)
    table.add_column(_("value"), no_wrap=True)
    table.add_column(_("meaning"))
    values = rules.to_dict()
    for rule in description.house_rules:
        value = values[rule.name]
        shown = Text(_value(value, rule.by_players))
        if value != rule.default:
            shown.append(" *", style="bold yellow")
        meaning = house_rule_help(rule)
        if rule.choices:
            meaning += " " + _("(one of: {choices})").format(choices=", ".join(rule.choices))
        name = Text(rule.name, style="bold")
        name.append("\n" + house_rule_title(description, rule), style="dim")
        table.add_row(name, shown, meaning)
    return table


def rules_text(description: GameDescription, rules: Any, lang: str | None = None) -> RenderableType:
    """The rules document followed by the house rules in force, in ``lang`` (default: the
    language in force)."""
    parts: list[RenderableType] = []
    document = rules_document(description, lang or current_language())
    if document:
        parts.append(Markdown(document))
    parts.append(house_rules_table(description, rules))
    changed = rules.changed()
    parts.append(
        Text(
            _("* differs from the default: {rules}").format(
                rules=", ".join(f"{k}={typed_value(v)}" for k, v in changed.items())
            )
            if changed
            else _("Every house rule is at its default."),
            style="dim",
        )
    )
    return Group(*parts)


def print_rules(console: Console, description: GameDescription, rules: Any) -> None:
    console.print(rules_text(description, rules))


def house_rules_help() -> str:
    """For ``rummoli play --help``: each game's house rules and presets, one line each."""
    from rummoli.games import registry

    lines = []
    for d in registry.descriptions():
        rules = ", ".join(rule.name for rule in d.house_rules)
        title = game_title(d)
        lines.append(_("{game} house rules: {rules}.").format(game=title, rules=rules))
        if d.presets:
            presets = ", ".join(d.presets)
            lines.append(_("{game} presets: {presets}.").format(game=title, presets=presets))
    lines.append(_("rummoli rules --game GAME explains each one."))
    return "\n\n".join(lines)
