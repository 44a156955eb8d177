"""PNG charts of a simulation's figures (matplotlib, drawn off screen).

Figures are built with :class:`matplotlib.figure.Figure` and its Agg canvas directly,
never through ``pyplot``: no GUI backend is ever chosen, nothing global is changed, and
it works on a server without a display. matplotlib is imported only when charts are
asked for, so ``rummoli simulate`` without ``--plot`` starts fast. Titles and labels are
in the language in force (context ``chart``; matplotlib's default DejaVu Sans has the
Cyrillic letters); the figures' data stay the JSON's.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummoli.i18n import (
    fixed,
    language_from_environment,
    npgettext,
    percent,
    pgettext,
    set_language,
)
from rummoli.i18n import number as i18n_number
from rummoli.i18n.terms import space_name

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The spaces whose waits between payouts are charted: the two rare combinations.
GAP_SPACES = ("AKD", "789")
#: Most bars in one histogram chart; wider ranges are binned.
MAX_BARS = 40
#: Share of a histogram's samples a chart shows (the rest, the largest values, is noted).
TAIL_SHOWN = 0.99


def _figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _bars(axes: Axes, histogram: dict[str, int], colour: str) -> None:
    """Shares of a histogram as bars: one per value, or per bin of values when there are
    more than :data:`MAX_BARS` (a poker pot can be anything up to all the chips). The
    rarest 1% of large values is left out of the axis, and its share written on it, so
    a long thin tail does not squash the rest into one bar."""
    counts = {int(k): v for k, v in histogram.items()}
    total = sum(counts.values())
    if not total:
        axes.text(
            0.5, 0.5, pgettext("chart", "never"), ha="center", va="center", transform=axes.transAxes
        )
        return
    low = min(counts)
    cut, running = low, 0
    for value in sorted(counts):
        running += counts[value]
        cut = value
        if running >= TAIL_SHOWN * total:
            break
    width = max(1, math.ceil((cut - low + 1) / MAX_BARS))
    bins: dict[int, int] = {}
    for value, count in counts.items():
        if value <= cut:
            start = low + (value - low) // width * width
            bins[start] = bins.get(start, 0) + count
    keys = sorted(bins)
    axes.bar(
        [k + (width - 1) / 2 for k in keys],
        [bins[k] / total for k in keys],
        width=0.9 * width,
        color=colour,
    )
    beyond = total - running
    if beyond:
        axes.text(
            0.98,
            0.95,
            pgettext("chart", "{percent} above {value}").format(
                percent=percent(beyond / total), value=i18n_number(cut)
            ),
            ha="right",
            va="top",
            transform=axes.transAxes,
            fontsize="small",
        )


def chips_over_time(figures: dict[str, Any], path: Path) -> Path:
    sample = figures["sample_game"]
    figure = _figure(8, 4.5)
    axes = figure.add_subplot()
    rows = sample["chips"]
    for seat, bot in enumerate(sample["bots_by_seat"]):
        label = pgettext("chart", "seat {seat} ({bot})").format(seat=seat, bot=bot)
        axes.plot(range(len(rows)), [row[seat] for row in rows], label=label)
    axes.set_xlabel(pgettext("chart", "round"))
    axes.set_ylabel(pgettext("chart", "chips"))
    axes.set_title(pgettext("chart", "Chips over one game (the first game of the run)"))
    axes.legend(fontsize="small")
    figure.savefig(path)
    return path


def space_payouts(figures: dict[str, Any], path: Path) -> Path:
    spaces = figures["spaces"]
    columns = 3
    rows = math.ceil(len(spaces) / columns)
    figure = _figure(11, 3 * rows)
    for i, space in enumerate(spaces):
        axes = figure.add_subplot(rows, columns, i + 1)
        _bars(axes, space["payout_histogram"], "tab:blue")
        axes.set_title(
            pgettext("chart", "{space} (pays in {percent})").format(
                space=space_name(space["space"]), percent=percent(space["pay_rate"] or 0, 0)
            )
        )
        axes.set_xlabel(pgettext("chart", "chips paid"))
        axes.set_ylabel(pgettext("chart", "share of payouts"))
    rounds = figures["rounds"]
    figure.suptitle(
        npgettext(
            "chart", "Payout of each space ({n} round)", "Payout of each space ({n} rounds)", rounds
        ).format(n=i18n_number(rounds))
    )
    figure.savefig(path)
    return path


def payout_gaps(figures: dict[str, Any], path: Path) -> Path:
    by_name = {space["space"]: space for space in figures["spaces"]}
    figure = _figure(10, 4)
    for i, name in enumerate(GAP_SPACES):
        axes = figure.add_subplot(1, len(GAP_SPACES), i + 1)
        space = by_name[name]
        _bars(axes, space["rounds_between_payouts_histogram"], "tab:orange")
        mean = space["mean_rounds_between_payouts"]
        title = space_name(name)
        if mean:
            title = pgettext("chart", "{space}: mean {mean} rounds (completed waits)").format(
                space=title, mean=fixed(mean, 2, group=False)
            )
        axes.set_title(title)
        axes.set_xlabel(pgettext("chart", "rounds since the space was last won (1: no carry-over)"))
        axes.set_ylabel(pgettext("chart", "share of payouts"))
    figure.suptitle(pgettext("chart", "Rounds between payouts"))
    figure.savefig(path)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rummoli.sim.stops.plots FIGURES.json DIR``: the charts of a saved run."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) != 2:
        print(main.__doc__)
        return 2
    set_language(language_from_environment())
    figures = json.loads(Path(arguments[0]).read_text(encoding="utf-8"))
    for path in write_plots(figures, Path(arguments[1])):
        print(path)
    return 0


def write_plots(figures: dict[str, Any], directory: Path) -> list[Path]:
    """Write every chart into ``directory`` (created if needed); returns the files."""
    directory.mkdir(parents=True, exist_ok=True)
    return [
        chips_over_time(figures, directory / "chips_over_time.png"),
        space_payouts(figures, directory / "space_payouts.png"),
        payout_gaps(figures, directory / "payout_gaps.png"),
    ]


if __name__ == "__main__":
    raise SystemExit(main())
