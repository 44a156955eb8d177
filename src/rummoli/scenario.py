"""The scenario runner: play a round (Rummy: a hand) from a given position, as a referee.

A scenario settles a dispute at the table, reproduces a bug report, or pins down a rule in
a golden test. Each game plays its own scenarios (its description's ``run_scenario``:
``games/rummoli/scenario.py``, ``games/rummy/scenario.py``); this module reads the files,
hands each scenario to the game it names (``"game"``; unnamed: the default game, as in
the files written before there was a second game), and prints one JSON answer per line.
The format is a contract with users; it is described in ``docs/scenarios.md``.

:func:`run_scenario` is pure (one decoded JSON value in, one JSON-ready dict out) so tests
call it directly; :func:`run_paths` is the ``rummoli scenario FILE...`` command. Bad input
never raises out of either: it becomes ``{"error": "..."}`` naming the problem, so one bad
scenario in a batch neither hides the others' answers nor prints a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rummoli.engine.base import GameError
from rummoli.games import registry

#: Exit status of :func:`run_paths` when any scenario failed.
EXIT_ERROR = 2


def run_scenario(data: object) -> dict[str, Any]:
    """Play the scenario ``data`` describes with the game it names; ``{"error": ...}``
    for bad input (including an unknown game)."""
    if not isinstance(data, dict):
        return {"error": "a scenario must be a JSON object"}
    try:
        description = registry.describe(data.get("game", registry.default_game()))
    except GameError:
        return {
            "error": f"unknown game {data.get('game')!r}: scenarios play "
            f"{', '.join(map(repr, registry.names()))}"
        }
    return description.run_scenario(data)


# --------------------------------------------------------------------------- the command


def run_paths(paths: list[str]) -> int:
    """Run every scenario of the given files (``-``: JSON Lines on stdin), printing one
    JSON line per scenario; return 2 if any failed, else 0.

    Every scenario gets its line even when another failed, so a batch answers all it can.
    Errors are prefixed with where the scenario came from (``file.json``, ``file.json[2]``,
    ``stdin line 3``) because a batch's error line alone would not say which one it was.
    """
    failed = False
    for where, data in _scenarios(paths):
        if isinstance(data, _ReadError):
            result: dict[str, Any] = {"error": f"{where}: {data.message}"}
        else:
            try:
                result = run_scenario(data)
            except Exception as error:  # an engine bug: report it, run the others
                result = {"error": f"internal error (please report): {error!r}"}
            if "error" in result:
                result = {"error": f"{where}: {result['error']}"}
        failed = failed or "error" in result
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    return EXIT_ERROR if failed else 0


@dataclasses.dataclass(frozen=True)
class _ReadError:
    """A scenario that could not even be read (missing file, broken JSON)."""

    message: str


def _scenarios(paths: list[str]) -> Iterator[tuple[str, object]]:
    """Each scenario of the given sources with where it came from, in order."""
    for path in paths:
        if path == "-":
            yield from _json_lines(sys.stdin.read(), "stdin")
            continue
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            yield path, _ReadError(f"cannot read the file: {reason}")
            continue
        if path.endswith(".jsonl"):
            yield from _json_lines(text, path)
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            yield path, _ReadError(f"not JSON: {error}")
            continue
        if isinstance(data, list):
            if not data:
                yield path, _ReadError("the list holds no scenario")
            for index, item in enumerate(data):
                yield f"{path}[{index}]", _unwrap(item)
        else:
            yield path, _unwrap(data)


def _json_lines(text: str, name: str) -> Iterator[tuple[str, object]]:
    """One scenario per non-blank line."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            yield where, _unwrap(json.loads(line))
        except json.JSONDecodeError as error:
            yield where, _ReadError(f"not JSON: {error}")


def _unwrap(data: object) -> object:
    """The scenario inside a golden test file (``{"scenario": {...}, "expect": ...}``), so
    the project's golden files run as they are; any other value is the scenario itself."""
    if isinstance(data, dict) and "scenario" in data and "players" not in data:
        return data["scenario"]
    return data
