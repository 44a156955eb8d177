"""The frames of fixed seeded games are the ones the server sent before the per-action
path was made cheaper (issue 27): byte for byte, for every connection, at every step.

``tests/web/data/frames.json`` was recorded from main's code (commit ``cf3c264``, before
that work) with ``python tests/web/test_web_frames.py`` (it rewrites the file: do so only
on a commit whose frames are right). It keeps, for each game, the SHA-256 of each step's
frames (every connection's, the four seats then a spectator, in order), and the whole
text of the first steps' frames, so a difference shows where it starts and what it is.
The games are played in process by ``bench/bench_web_action.py``'s ``play`` (the same
path as a player's action: checked, stored, applied, broadcast), the room's clock stopped.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from webtools import run_in_thread

from rummoli.web.client import encode

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "data" / "frames.json"
#: What is recorded: a seed, the actions per game, one spectator (its frames differ).
SEED = 11
ACTIONS = 400
SPECTATORS = 1
#: Steps kept whole in the fixture (the rest as digests).
WHOLE = 2


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_web_action", ROOT / "bench" / "bench_web_action.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_web_action", module)
    spec.loader.exec_module(module)
    return module


def _digest(step: list[list[str]]) -> str:
    """One step's frames, every connection's in order, as one digest (a frame boundary
    or a connection boundary moved changes it too)."""
    joined = "\x1e".join("\x1f".join(texts) for texts in step)
    return hashlib.sha256(joined.encode()).hexdigest()


def record(game: str) -> dict[str, Any]:
    played = run_in_thread(_bench().play, game, SEED, limit=ACTIONS, spectators=SPECTATORS)
    return {
        "actions": played.actions,
        "digests": [_digest(step) for step in played.frames],
        "whole": played.frames[:WHOLE],
    }


def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("game", ["rummoli", "rummy", "michigan", "tripoley"])
def test_frames_are_byte_identical_to_the_recorded_ones(game: str) -> None:
    expected = _recorded()[game]
    got = record(game)
    assert got["actions"] == expected["actions"]
    assert len(got["digests"]) == len(expected["digests"])
    for step, (mine, theirs) in enumerate(zip(got["digests"], expected["digests"], strict=True)):
        if mine != theirs:
            if step < WHOLE:
                for connection, (a, b) in enumerate(
                    zip(got["whole"][step], expected["whole"][step], strict=True)
                ):
                    assert a == b, f"step {step}, connection {connection}"
            pytest.fail(f"{game}: the frames differ from step {step} on")


def test_the_recorded_games_lay_runs_and_every_connection_has_its_own_frames() -> None:
    """The recording is worth checking against: each game's frames include runs shown
    card by card (``parts``: the patches of :mod:`rummoli.web.patch`), and a seat's
    frames differ from the spectator's."""
    for game in ("rummoli", "rummy", "michigan", "tripoley"):
        played = run_in_thread(_bench().play, game, SEED, limit=ACTIONS, spectators=SPECTATORS)
        seat = [text for step in played.frames for text in step[0]]
        spectator = [text for step in played.frames for text in step[-1]]
        if game != "rummy":  # Basic Rummy shows every action in one step
            assert any('"parts":' in text for text in seat), game
        assert seat != spectator, game


@pytest.mark.parametrize("game", ["rummoli", "rummy", "michigan", "tripoley"])
def test_views_made_together_are_each_seats_own_view_key_for_key(game: str) -> None:
    """``seat_views`` (every seat's view of a state at once, sharing what they see alike)
    gives each seat exactly :func:`seat_view`'s view, in the same key order, at every
    state of a seeded game; without choices, the same less its ``legal_actions``."""
    from rummoli.engine.base import CHANCE, CHANCE_ACTION
    from rummoli.web.games import new_state, rules_from_dict, seat_limits, seat_view, seat_views

    low, high = seat_limits(game)
    n = max(low, min(4, high))
    state = new_state(game, [f"P{i}" for i in range(n)], rules_from_dict(game, None), SEED)
    choose = random.Random(SEED)
    seats: list[int | None] = [*range(n), None]
    checked = 0
    while not state.is_terminal() and checked < 300:
        together = seat_views(game, state, seats)
        alone = [seat_view(game, state, seat) for seat in seats]
        assert json.dumps(together) == json.dumps(alone)
        bare = seat_views(game, state, seats, choices=False)
        for view in alone:
            view.pop("legal_actions", None)
        assert json.dumps(bare) == json.dumps(alone)
        mover = state.current_player()
        if mover >= 0:  # a forced turn's one action instead of the choices
            only: list[int | None] = [None] * len(seats)
            only[mover] = state.legal_actions()[0]
            forced = seat_views(game, state, seats, only)
            assert forced[mover] == seat_view(game, state, mover, only[mover])
        action = CHANCE_ACTION if mover == CHANCE else choose.choice(state.legal_actions()[:3])
        state.apply(action)
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize(
    "value",
    [
        {"type": "update", "step": 3, "view": {"hand": ["AS", "10H"], "chips": [1, 2.5, None]}},
        {"type": "table", "seats": {0: "Ann", 2: "Bob"}, "nested": [{7: True}]},
        {"name": "Zoë — Дмитрий", "text": '\u2028 "quoted" \\ 😀'},
    ],
)
def test_the_encoder_writes_what_json_writes_with_number_keys_or_without(value: Any) -> None:
    """A frame without number keys takes orjson's fast path, one with them is encoded
    again with its option: both are the compact JSON ``json`` writes, keys as strings."""
    expected = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert encode(value) == expected


if __name__ == "__main__":
    FIXTURE.write_text(
        json.dumps({g: record(g) for g in ("rummoli", "rummy", "michigan", "tripoley")}) + "\n"
    )
    print(f"wrote {FIXTURE}")
