"""The ``rummoli replay`` command: any game's record replays, a broken one is refused."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.engine.base import GameState
from rummoli.games.registry import new_game

runner = CliRunner()


def finished(game: str, players: list[str], rules: dict[str, object], seed: int) -> GameState:
    state = new_game(game, players, rules, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("game", "players", "rules", "seed", "standing"),
    [
        ("rummoli", ["Ann", "Bob", "Cy"], {"rounds": 2}, 4, "chips"),
        ("rummy", ["Ann", "Bob"], {}, 9, "score"),
    ],
    ids=["rummoli", "rummy"],
)
def test_a_record_replays_to_the_same_standings(
    game: str,
    players: list[str],
    rules: dict[str, object],
    seed: int,
    standing: str,
    tmp_path: Path,
) -> None:
    """Rummoli's standings are the chips, Basic Rummy's the scores."""
    state = finished(game, players, rules, seed)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    expected = {p["name"]: p[standing] for p in state.view(None)["players"]}
    assert out == {"game": game, "finished": True, "standings": expected}


def test_a_broken_record_is_one_error_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"game": "rummoli", "version": 1, "actions": [')
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 2
    assert "not JSON" in json.loads(result.output)["error"]
