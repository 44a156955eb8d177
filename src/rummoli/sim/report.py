"""The figures of a simulation as tables for people, and as a JSON file.

Every game's report (``sim/stops/report.py``, ``sim/rummy/report.py``, the generic
part's) reads the dict of its game's ``summarize`` and formats it with the pieces here:
cell formatters, the headline, tables in one style, the tables every game has (by bot,
by level: :class:`Measure` says what the game counts per round), the table of single
figures, and the report itself (:class:`Report`: a game lists its tables). This module only
formats, in the language in force (``docs/i18n.md``): the messages have the context
``simulation``, the figures are written with the language's digits (Python's rounding, so
every language shows the same digits), and the JSON file stays as it is, for programs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, Group
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


#: A column of a table: its header (translated) and how one row of the figures (a bot's,
#: a level's...) fills its cell.
Column = tuple[str, Callable[[dict[str, Any]], str]]


def columns_table(title: str, rows: Iterable[dict[str, Any]], columns: Sequence[Column]) -> Table:
    """A table of ``rows`` (dicts of the figures) with one cell a column, in the reports'
    style (the first column is what a row is)."""
    return figures_table(
        title,
        [header for header, _ in columns],
        ([cell(row) for _, cell in columns] for row in rows),
    )


@dataclass(frozen=True, slots=True)
class Measure:
    """What a game's report counts per round and bot (Rummoli's chips won per round, Rummy's
    points per hand): the key of its figures, the header of its column (a message of the
    context ``simulation``), how many decimals and whether with a sign.

    Every game's figures name it alike (``rummoli.sim.figures``): a bot's ``{key}`` and
    ``{key}_ci95_by_chunk``, a level's ``{key}_per_bot`` and ``{key}_per_bot_ci95_by_chunk``,
    so that the tables by bot and by level are written once, here."""

    key: str
    header: str
    digits: int = 2
    sign: bool = False

    def headers(self) -> tuple[str, str]:
        """The headers of :meth:`cells`' two columns."""
        return pgettext("simulation", self.header), pgettext("simulation", "95% CI")

    def cells(self, moments: dict[str, Any]) -> tuple[str, str]:
        """The mean and its 95% interval, for two cells of a row."""
        mean = moments["mean"]
        return (
            "-" if mean is None else fixed(mean, self.digits, self.sign),
            interval(moments["ci95"], self.digits, self.sign),
        )

    def columns(self, key: str) -> list[Column]:
        """The mean, its interval and the interval by chunk of the rows' figure ``key``."""
        mean, ci = self.headers()
        return [
            (mean, lambda row: self.cells(row[key])[0]),
            (ci, lambda row: self.cells(row[key])[1]),
            (
                pgettext("simulation", "95% CI (by chunk)"),
                lambda row: interval(row[f"{key}_ci95_by_chunk"], self.digits, self.sign),
            ),
        ]


def bots_table(figures: dict[str, Any], title: str, measure: Measure, *more: Column) -> Table:
    """Each bot's ``measure`` per round, then the game's ``more`` columns."""
    bot = (pgettext("simulation", "bot"), lambda row: str(row["bot"]))
    return columns_table(title, figures["bots"], [bot, *measure.columns(measure.key), *more])


def levels_table(
    figures: dict[str, Any], title: str, measure: Measure, *more: Column
) -> Table | None:
    """The bots of one level pooled (each round counts once, so the interval stays honest),
    then the game's ``more`` columns; none where no level has more than one bot (the rows
    would repeat the bots')."""
    if all(level["bots"] <= 1 for level in figures["levels"]):
        return None
    columns = [
        (pgettext("simulation", "level"), lambda row: str(row["level"])),
        (pgettext("simulation", "bots"), lambda row: count(row["bots"])),
        *measure.columns(f"{measure.key}_per_bot"),
        *more,
    ]
    return columns_table(title, figures["levels"], columns)


def facts_table(title: str, facts: Iterable[tuple[str, str]]) -> Table:
    """Single figures, one a row: what it is, its value (no header: the rows say it)."""
    return figures_table(
        title,
        (pgettext("simulation", "figure"), pgettext("simulation", "value")),
        facts,
        show_header=False,
    )


@dataclass(frozen=True, slots=True)
class Report:
    """A game's report: its headline, then its tables in order, each made from the
    figures (a table that has nothing to say is ``None``, and left out). Called as the
    game's ``print_report``."""

    headline: Callable[[dict[str, Any], dict[str, Any]], Text]
    tables: tuple[Callable[[dict[str, Any]], Table | None], ...]

    def render(self, figures: dict[str, Any], run: dict[str, Any]) -> Group:
        """The headline and every table."""
        tables = (table(figures) for table in self.tables)
        return Group(self.headline(figures, run), *(t for t in tables if t is not None))

    def __call__(self, console: Console, figures: dict[str, Any], run: dict[str, Any]) -> None:
        console.print(self.render(figures, run))
