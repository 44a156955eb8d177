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
from rummoli.tui.table import typed_value


def _value(value: object, by_players: Mapping[int, int]) -> str:
    if value is None and by_players:
        return "by players (" + ", ".join(f"{v} for {n}" for n, v in by_players.items()) + ")"
    return typed_value(value)


def house_rules_table(description: GameDescription, rules: Any) -> Table:
    """Every house rule: its value at this table (marked when it is not the default), the
    values it takes, and what it means."""
    table = Table(title="House rules in force", title_justify="left", show_lines=False)
    table.add_column("house rule", style="bold", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column("meaning")
    values = rules.to_dict()
    for rule in description.house_rules:
        value = values[rule.name]
        shown = Text(_value(value, rule.by_players))
        if value != rule.default:
            shown.append(" *", style="bold yellow")
        meaning = rule.help
        if rule.choices:
            meaning += f" (one of: {', '.join(rule.choices)})"
        table.add_row(rule.name, shown, meaning)
    return table


def rules_text(description: GameDescription, rules: Any, lang: str = "en") -> RenderableType:
    """The rules document followed by the house rules in force."""
    parts: list[RenderableType] = []
    document = description.rules_document(lang)
    if document:
        parts.append(Markdown(document))
    parts.append(house_rules_table(description, rules))
    changed = rules.changed()
    parts.append(
        Text(
            "* differs from the default: "
            + ", ".join(f"{k}={typed_value(v)}" for k, v in changed.items())
            if changed
            else "Every house rule is at its default.",
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
        lines.append(f"{d.title} house rules: {rules}.")
        if d.presets:
            lines.append(f"{d.title} presets: {', '.join(d.presets)}.")
    lines.append("rummoli rules --game GAME explains each one.")
    return "\n\n".join(lines)
