"""Markdown tables comparing simulation runs, from their ``--json`` files.

``docs/analysis.md`` is made with this: one run per seat count or per house rule, each
written with ``rummoli simulate --json``, then one table per kind of figure with a row
per run, so a reader sees at a glance what a seat count or a house rule changes.

    python -m rummoli.sim.stops.tables "3 seats=runs/3.json" "4 seats=runs/4.json" ...
    python -m rummoli.sim.stops.tables "widow=none=runs/widow=none.json" ...
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rummoli.sim.report import number, percent, signed

Run = tuple[str, dict[str, Any]]


def _carry_over(pay_rate: float | None) -> str:
    """Carry-over from the share of rounds a space pays (see figures.carry_over): the same
    figure, and it can be read from any run's JSON, older ones included."""
    return "-" if not pay_rate else f"{1 / pay_rate - 1:.2f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def space_table(runs: Sequence[Run], key: str, show: Callable[[float | None], str]) -> str:
    """One figure of every space (``key`` of the space's figures), a row per run."""
    names: list[str] = []
    for _, figures in runs:
        for space in figures["spaces"]:
            if space["space"] not in names:
                names.append(space["space"])
    rows = []
    for label, figures in runs:
        by_name = {space["space"]: space for space in figures["spaces"]}
        rows.append([label, *(show(by_name[n][key]) if n in by_name else "-" for n in names)])
    return _table(["run", *names], rows)


def round_table(runs: Sequence[Run]) -> str:
    """Deadlocks, the widow, the poker pot and the dealer's edge, a row per run."""
    header = [
        "run",
        "rounds",
        "deadlocks",
        "widow exchanged / auctioned / dead",
        "winning bid",
        "dealer who exchanged",
        "buyer (bid paid)",
        "average player",
        "dealer's seat",
        "poker pot",
        "showdowns",
        "players dealt in",
        "rounds per game",
    ]
    rows = []
    for label, figures in runs:
        widow = figures["widow"]
        dealer = figures["positions"][0]["chips_per_round"]
        rows.append(
            [
                label,
                f"{figures['rounds']:,}",
                percent(figures["deadlock"]["rate"]),
                f"{percent(widow['exchanged_rate'])} / {percent(widow['bought_rate'])} / "
                f"{percent(widow['dead_rate'])}",
                number(widow["winning_bid"]["mean"]),
                signed(widow["taker_chips_exchanged"]["mean"]),
                signed(widow["taker_chips_bought"]["mean"]),
                signed(widow["dealt_in_chips"]["mean"]),
                signed(dealer["mean"]),
                number(figures["poker"]["pot"]["mean"], 1),
                percent(figures["poker"]["showdown_rate"]),
                number(figures["players_dealt_in_per_round"]),
                number(figures["games"]["rounds_per_game"], 1),
            ]
        )
    return _table(header, rows)


def all_tables(runs: Sequence[Run]) -> str:
    parts = [
        "How often each space pays (share of rounds):",
        space_table(runs, "pay_rate", percent),
        "Mean payout (chips, when it pays):",
        space_table(runs, "mean_payout", lambda v: number(v, 1)),
        "Mean carry-over (rounds a space's chips wait before they are won; 0: won in the "
        "round they were put there; rounds without a payout per payout):",
        space_table(runs, "pay_rate", _carry_over),
        "Rounds (chips are per round, widow takers in the rounds they took it):",
        round_table(runs),
    ]
    return "\n\n".join(parts) + "\n"


def split_label(argument: str) -> tuple[str, Path]:
    """``LABEL=FILE`` as (label, file); a bare ``FILE`` is labelled by its name. Labels
    and file names may both hold ``=`` (``widow=none=runs/widow=none.json``): the label
    ends at the first ``=`` after which an existing file is named."""
    if Path(argument).is_file():
        return Path(argument).stem, Path(argument)
    for i, char in enumerate(argument):
        if char == "=" and Path(argument[i + 1 :]).is_file():
            return argument[:i], Path(argument[i + 1 :])
    raise FileNotFoundError(f"no such file in {argument!r} (give LABEL=FILE or FILE)")


def load(arguments: Sequence[str]) -> list[Run]:
    runs = []
    for argument in arguments:
        label, path = split_label(argument)
        runs.append((label, json.loads(path.read_text(encoding="utf-8"))))
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        print(__doc__)
        return 2
    print(all_tables(load(arguments)), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
