"""The figures of a simulation as tables for people, and as a JSON file.

Both read the dict of :func:`rummoli.sim.rummoli.figures.summarize`; this module only formats.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.text import Text


def number(value: float | None, digits: int = 2) -> str:
    """A figure for a table cell; ``-`` where there is none (nothing was counted)."""
    return "-" if value is None else f"{value:,.{digits}f}"


def percent(value: float | None) -> str:
    """A share as a percentage for a table cell; ``-`` where there is none."""
    return "-" if value is None else f"{100 * value:.1f}%"


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
