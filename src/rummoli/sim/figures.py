"""The figures every game's simulation computes the same way, as JSON-ready data.

Each game's ``summarize`` (``sim/stops/figures.py``, ``sim/rummy/figures.py``) builds
one dict that its report, the JSON file and the charts read; the parts they share are
built here once from the shared tally (:class:`rummoli.sim.stats.PlayerTally`): how far
the run got, the table's configuration, and each bot's, level's and seat's samples under
the game's own name for them (``chips_per_round``, ``points_per_hand``). Histograms are
written with string keys (JSON objects have no int keys), in increasing numeric order.
"""

from __future__ import annotations

import math
from typing import Any

from rummoli.sim.spec import SimSpec
from rummoli.sim.stats import Histogram, Moments, PlayerTally, batch_ci95


def rate(count: int, total: int) -> float | None:
    """``count / total``; None where nothing was counted."""
    return count / total if total else None


def histogram(hist: Histogram) -> dict[str, int]:
    """A histogram for JSON: string keys in increasing numeric order."""
    return {str(k): hist[k] for k in sorted(hist)}


def moments(m: Moments, divide: int = 1) -> dict[str, Any]:
    """Mean, 95% interval, spread and count of ``m`` (divided by ``divide``: a level's
    per-round sums, shared by its bots)."""
    variance = m.variance
    ci = m.ci95()
    return {
        "mean": m.mean / divide if m.mean is not None else None,
        "ci95": [ci[0] / divide, ci[1] / divide] if ci else None,
        "sd": math.sqrt(variance) / divide if variance is not None else None,
        "n": m.n,
    }


def progress(stats: PlayerTally, spec: SimSpec) -> dict[str, Any]:
    """Whether every chunk of the run was played (an interrupted run's figures are
    the chunks finished so far)."""
    return {
        "complete": stats.chunks == len(spec.chunks()),
        "chunks_done": stats.chunks,
        "chunks_total": len(spec.chunks()),
    }


def table_config(spec: SimSpec, mode: str | None = None) -> dict[str, Any]:
    """The table a run played: bots, seats, how much (``mode``: the game's word for the
    spec's), seed, rotation. Each game adds its own settings after these."""
    return {
        "bots": list(spec.bots),
        "labels": list(spec.labels()),
        "seats": spec.seats,
        "mode": spec.mode if mode is None else mode,
        "total": spec.total,
        "seed": spec.seed,
        "rotate": spec.rotate,
    }


def _chunks(stats: PlayerTally) -> list[tuple[int, tuple[int, ...]]]:
    return [stats.per_chunk[i] for i in sorted(stats.per_chunk)]


def bot_figures(stats: PlayerTally, spec: SimSpec, key: str) -> list[dict[str, Any]]:
    """Each bot's label, level, samples (under ``key``) and batch-means interval by
    chunk (``key + "_ci95_by_chunk"``); a game adds its own figures to each."""
    chunks = _chunks(stats)
    return [
        {
            "bot": label,
            "level": spec.bots[bot],
            key: moments(stats.bots[bot]),
            f"{key}_ci95_by_chunk": batch_ci95([(n, totals[bot]) for n, totals in chunks]),
        }
        for bot, label in enumerate(spec.labels())
    ]


def level_members(spec: SimSpec, level: str) -> list[int]:
    """The bots (by index) of one level."""
    return [bot for bot, name in enumerate(spec.bots) if name == level]


def level_figures(stats: PlayerTally, spec: SimSpec, key: str) -> list[dict[str, Any]]:
    """Each level's number of bots and its samples per bot (under ``key + "_per_bot"``,
    with its batch-means interval); a game adds its own figures to each."""
    chunks = _chunks(stats)
    levels = []
    for index, level in enumerate(stats.levels):
        members = level_members(spec, level)
        levels.append(
            {
                "level": level,
                "bots": len(members),
                f"{key}_per_bot": moments(stats.by_level[index], len(members)),
                f"{key}_per_bot_ci95_by_chunk": batch_ci95(
                    [(n * len(members), sum(totals[b] for b in members)) for n, totals in chunks]
                ),
            }
        )
    return levels


def seat_figures(stats: PlayerTally, key: str) -> list[dict[str, Any]]:
    """Each table seat's samples, under ``key``."""
    return [{"seat": seat, key: moments(m)} for seat, m in enumerate(stats.by_seat)]
