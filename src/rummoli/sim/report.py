"""The figures of a simulation as tables for people, and as a JSON file.

Every game's report (``sim/stops/report.py``, ``sim/rummy/report.py``, the generic
part's) reads the dict of its game's ``summarize`` and formats it with the pieces here:
cell formatters, the headline, tables in one style, the report's order. This module only
formats, in the language in force (``docs/i18n.md``): the messages have the context
``simulation``, the figures are written with the language's digits (Python's rounding, so
every language shows the same digits), and the JSON file stays as it is, for programs.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rummoli.i18n import fixed, npgettext, pgettext
from rummoli.i18n import number as i18n_number
from rummoli.i18n import percent as i18n_percent
from rummoli.i18n.typography import mark


def number(value: float | None, digits: int = 2) -> str:
    """A figure for a table cell, in the language's digits; ``-`` where there is none
    (nothing was counted)."""
    return "-" if value is None else fixed(value, digits)


def count(value: int) -> str:
    """A count for a table cell (``12,345``, ``12 345``)."""
    return i18n_number(value)


def percent(value: float | None) -> str:
    """A share as a percentage for a table cell (``12.3%``, ``12,3 %``); ``-`` where there
    is none."""
    return "-" if value is None else i18n_percent(value)


def interval(ci: Sequence[float] | None, digits: int = 2, sign: bool = False) -> str:
    """A 95% interval for a table cell (``[1.20, 3.40]``, with ``sign`` ``[-1.20, +3.40]``;
    French and Russian ``[1,20; 3,40]``, their decimal comma being taken); ``-`` where
    there is none (too few samples or chunks)."""
    if ci is None:
        return "-"
    return pgettext("simulation", "[{low}, {high}]").format(
        low=fixed(ci[0], digits, sign, group=False), high=fixed(ci[1], digits, sign, group=False)
    )


def yes_no(value: bool) -> str:
    """A check's outcome in a table: ``yes``, or ``NO`` in capitals (something is wrong)."""
    return pgettext("simulation", "yes") if value else pgettext("simulation", "NO")


def headline(
    figures: dict[str, Any], run: dict[str, Any], counted: str, rate: tuple[str, str]
) -> Text:
    """The report's first line: ``counted`` (what was played, in the game's words: the
    seats follow it), the table (``full_table`` where the run stopped each game at its
    first bust), the rules and seed; then the run's speed, ``rate`` being the plural
    message of "{n} rounds/s" in the game's word (context ``simulation``).

    Each clause is one message, the clauses joined by semicolons (spaced as the language
    spaces them); the bots' labels, the
    house rules and the seed stay as they are typed (``--bots basic``, ``--rule``,
    ``--seed``)."""
    config = figures["config"]
    changed = ", ".join(f"{k}={v}" for k, v in config["rules_changed"].items()) or pgettext(
        "simulation", "defaults"
    )
    text = Text()
    if not figures["complete"]:
        text.append(
            pgettext("simulation", "Interrupted: figures so far.") + " ", style="bold yellow"
        )
    seats = config["seats"]
    bots = ", ".join(config["labels"])
    clauses = [
        npgettext("simulation", "{counted} at {n} seat", "{counted} at {n} seats", seats).format(
            counted=counted, n=i18n_number(seats)
        ),
        (
            pgettext("simulation", "bots {bots} (rotated)")
            if config["rotate"]
            else pgettext("simulation", "bots {bots}")
        ).format(bots=bots),
    ]
    if config.get("full_table"):
        clauses.append(pgettext("simulation", "full tables only"))
    clauses.append(pgettext("simulation", "rules: {rules}").format(rules=changed))
    clauses.append(pgettext("simulation", "seed {seed}").format(seed=config["seed"]))
    text.append((mark(";") + " ").join(clauses) + ".")
    append_speed(text, run, rate)
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


def append_speed(text: Text, run: dict[str, Any], rate: tuple[str, str]) -> None:
    """Add the run's time and speed (``12.3 s, 4,567 rounds/s (local, 2 jobs).``) to a
    headline, if the run was timed (a report rebuilt from a file may not be)."""
    if not run.get("seconds"):
        return
    per_second = round(run["rounds_per_second"])
    jobs = run["jobs"]
    n = jobs if isinstance(jobs, int) else 0
    if run.get("compiled"):
        how = npgettext(
            "simulation", "{backend}, {n} job, compiled", "{backend}, {n} jobs, compiled", n
        )
    else:
        how = npgettext("simulation", "{backend}, {n} job", "{backend}, {n} jobs", n)
    speed = pgettext("simulation", "{seconds} s, {rate} ({how}).").format(
        seconds=fixed(run["seconds"], 1),
        rate=npgettext("simulation", *rate, per_second).format(n=i18n_number(per_second)),
        how=how.format(backend=run["backend"], n=i18n_number(jobs) if n else jobs),
    )
    text.append("\n" + speed, style="dim")


def signed(value: float | None, digits: int = 2) -> str:
    """A gain or loss for a table cell, always with its sign; ``-`` where there is none."""
    return "-" if value is None else fixed(value, digits, sign=True)


def write_json(path: Path, figures: dict[str, Any], run: dict[str, Any]) -> None:
    """Every figure, plus how the run went (``run``: backend, jobs, time, speed)."""
    data = {**figures, "run": run}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
