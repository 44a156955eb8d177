"""The scenario runner: play one round of Rummoli from a given position, as a referee.

A scenario settles a dispute at the table, reproduces a bug report, or pins down a rule in
a golden test: it fixes the players, chips, dealer, house rules and cards, lists the real
decisions to take, and asks "what happens?". The answer is one JSON object: chips, board,
laid cards, winners, and every event of the round (the ``hand`` events too: a referee sees
all hands). The format is a contract with users; it is described in ``docs/scenarios.md``.

:func:`run_scenario` is pure (one decoded JSON value in, one JSON-ready dict out) so tests
call it directly; :func:`run_paths` is the ``rummoli scenario FILE...`` command. Bad input
never raises out of either: it becomes ``{"error": "..."}`` naming the problem, so one bad
scenario in a batch neither hides the others' answers nor prints a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from rummoli.cards import card_str
from rummoli.engine.base import GameError
from rummoli.engine.choices import play_choices
from rummoli.games.rummoli.rules import Rules
from rummoli.games.rummoli.setup import setup_from_dict
from rummoli.games.rummoli.state import RummoliState
from rummoli.games.rummoli.view import event_to_json

#: The keys a scenario object may have. Anything else is refused: a misspelt ``"hand"``
#: silently ignored would play a shuffled deck and answer the wrong question.
SCENARIO_KEYS = frozenset(
    {"game", "players", "chips", "dealer", "rules", "board", "hands", "deck", "choices"}
    | {"description"}
)

#: Exit status of :func:`run_paths` when any scenario failed.
EXIT_ERROR = 2


class ScenarioError(ValueError):
    """A scenario that cannot be played as written; the message names the problem."""


def run_scenario(data: object) -> dict[str, Any]:
    """Play the round a decoded scenario describes and return the result as JSON data.

    Returns ``{"error": "..."}`` instead for bad input: an unknown card, a bad position,
    an unknown house rule, an illegal or left-over choice. Errors of the engine's own
    making (anything but a ``ValueError``) are not caught here, so tests see them.
    """
    try:
        return _play(data)
    except (GameError, ValueError) as error:  # SetupError, IllegalActionError, CardError
        return {"error": str(error)}


def _play(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    if data.get("game") == "rummy":
        from rummoli.games.rummy.scenario import run_rummy_scenario

        return run_rummy_scenario(data)
    unknown = sorted(str(key) for key in data if key not in SCENARIO_KEYS)
    if unknown:
        raise ScenarioError(
            f"unknown scenario field {', '.join(map(repr, unknown))}; "
            f"fields are {', '.join(sorted(SCENARIO_KEYS))}"
        )
    game = data.get("game", "rummoli")
    if game != "rummoli":
        raise ScenarioError(f"unknown game {game!r}: scenarios play 'rummoli' or 'rummy'")
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise ScenarioError("choices must be a list of actions such as 'Bob: bid 5'")
    state = _build_state(data)
    events = play_choices(
        state, choices, event_to_json, error=ScenarioError, example="Bob: bid 5", unit="round"
    )
    return _result(state, events)


def _build_state(data: Mapping[str, Any]) -> RummoliState:
    """The state at the start of the round: rules, position, and one round only."""
    rules = Rules.from_dict(data.get("rules"))
    setup = setup_from_dict(data, rules.starting_chips)
    return RummoliState(rules, dataclasses.replace(setup, single_round=True), seed=0)


def _result(state: RummoliState, events: list[dict[str, Any]]) -> dict[str, Any]:
    names = state.names
    winner = state.round_winner
    return {
        "chips": dict(zip(names, state.chips, strict=True)),
        "board": state.board_dict(),
        "laid": [{"player": names[seat], "card": card_str(card)} for seat, card in state.laid],
        "poker_winners": [names[seat] for seat in state.poker_winners],
        "rummoli_winner": names[winner] if winner >= 0 else None,
        "deadlock": state.deadlocked,
        "events": events,
    }


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
