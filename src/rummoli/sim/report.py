"""The figures of a simulation as tables for people, and as a JSON file.

Every game's report (``sim/rummoli/report.py``, ``sim/rummy/report.py``, the generic
part's) reads the dict of its game's ``summarize`` and formats it with the pieces here:
cell formatters, the headline, tables in one style, the report's order. This module only
formats.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text


def number(value: float | None, digits: int = 2) -> str:
    """A figure for a table cell; ``-`` where there is none (nothing was counted)."""
    return "-" if value is None else f"{value:,.{digits}f}"


def percent(value: float | None) -> str:
    """A share as a percentage for a table cell; ``-`` where there is none."""
    return "-" if value is None else f"{100 * value:.1f}%"


def interval(ci: Sequence[float] | None, digits: int = 2, sign: bool = False) -> str:
    """A 95% interval for a table cell (``[1.20, 3.40]``, with ``sign`` ``[-1.20, +3.40]``);
    ``-`` where there is none (too few samples or chunks)."""
    if ci is None:
        return "-"
    plus = "+" if sign else ""
    return f"[{ci[0]:{plus}.{digits}f}, {ci[1]:{plus}.{digits}f}]"


def headline(figures: dict[str, Any], run: dict[str, Any], counted: str, unit: str) -> Text:
    """The report's first line: ``counted`` (what was played, in the game's words: the
    seats follow it), the table (``full_table`` where the run stopped each game at its
    first bust), the rules and seed; then the run's speed, in ``unit`` per second."""
    config = figures["config"]
    changed = ", ".join(f"{k}={v}" for k, v in config["rules_changed"].items()) or "defaults"
    text = Text()
    if not figures["complete"]:
        text.append("Interrupted: figures so far. ", style="bold yellow")
    text.append(
        f"{counted} at {config['seats']} seats; bots {', '.join(config['labels'])}"
        f"{' (rotated)' if config['rotate'] else ''}"
        f"{'; full tables only' if config.get('full_table') else ''}; rules: {changed}; "
        f"seed {config['seed']}."
    )
    append_speed(text, run, unit)
    return text


def figures_table(
    title: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]] = (),
    *,
    left: Collection[int] = (0,),
    show_header: bool = True,
) -> Table:
    """A table of figures in the reports' style: its title on the left, the columns
    numbered in ``left`` (the first: what a row is) justified left, the figures right."""
    table = Table(title=title, title_justify="left", show_header=show_header)
    for index, column in enumerate(columns):
        if index in left:
            table.add_column(column)
        else:
            table.add_column(column, justify="right")
    for row in rows:
        table.add_row(*row)
    return table


def report(figures: dict[str, Any], head: Text, bots: Table, levels: Table, *rest: Table) -> Group:
    """Every table in the reports' order: the headline and the bots first, then the
    levels (only where some level has more than one bot: else they repeat the bots),
    then the game's own tables."""
    parts: list[Text | Table] = [head, bots]
    if any(level["bots"] > 1 for level in figures["levels"]):
        parts.append(levels)
    parts += rest
    return Group(*parts)


def append_speed(text: Text, run: dict[str, Any], unit: str) -> None:
    """Add the run's time and speed (``12.3 s, 4,567 rounds/s (local, 2 jobs).``) to a
    headline, if the run was timed (a report rebuilt from a file may not be)."""
    if run.get("seconds"):
        text.append(
            f"\n{run['seconds']:.1f} s, {run['rounds_per_second']:,.0f} {unit}/s "
            f"({run['backend']}, {run['jobs']} job{'s' if run['jobs'] != 1 else ''}"
            f"{', compiled' if run.get('compiled') else ''}).",
            style="dim",
        )


def signed(value: float | None, digits: int = 2) -> str:
    """A gain or loss for a table cell, always with its sign; ``-`` where there is none."""
    return "-" if value is None else f"{value:+,.{digits}f}"


def write_json(path: Path, figures: dict[str, Any], run: dict[str, Any]) -> None:
    """Every figure, plus how the run went (``run``: backend, jobs, time, speed)."""
    data = {**figures, "run": run}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
