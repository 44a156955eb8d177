"""``rummoli replay FILE`` in the terminal: a saved game told step by step, as one seat saw
it, with the stops and their reasons, the table on request, and a clean stop."""

from __future__ import annotations

import json
import random
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.games.registry import new_game
from rummoli.tui.replay import PROMPT, step_through


def played(game: str, seats: int, rules: dict[str, object], seed: int) -> dict[str, object]:
    state = new_game(game, [f"P{i}" for i in range(seats)], rules, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.record()


def console() -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, width=100, highlight=False, color_system=None), out


def test_a_whole_rummoli_game_is_told_with_every_stop_and_its_reason() -> None:
    record = played("rummoli", 3, {"rounds": 2}, seed=4)
    screen, out = console()
    assert step_through(record, screen, seat=1) == 0
    text = out.getvalue()
    assert text.startswith("Rummoli, as P1 saw it.")
    stops = text.count("▪ stop")
    assert stops > 0 and stops == text.count("▪ stop: ")  # every stop says why
    assert "Round 2/2" in text  # the table at the end, from P1's seat


def test_the_replay_waits_after_each_decision_and_stops_on_q() -> None:
    record = played("rummy", 2, {"target": 10}, seed=3)
    prompts: list[str] = []
    answers = iter(["", "t", "", "q"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    screen, out = console()
    assert step_through(record, screen, seat=0, read_line=read) == 0
    assert prompts == [PROMPT] * 4
    assert "Hand 1" in out.getvalue()  # "t" showed the table
    whole, all_out = console()
    step_through(record, whole, seat=0)
    assert len(out.getvalue()) < len(all_out.getvalue())  # "q" stopped early


def test_a_seat_sees_only_its_own_draws_from_the_stock() -> None:
    record = played("rummy", 2, {"target": 10}, seed=5)
    views = []
    for seat in (0, 1):
        screen, out = console()
        step_through(record, screen, seat=seat)
        views.append(out.getvalue())
    # A draw from the stock is named with its card in the drawer's own replay only.
    for mine, theirs, other in ((views[0], views[1], "P0"), (views[1], views[0], "P1")):
        drawn = mine.count("You draw ")
        assert drawn > 0
        assert theirs.count(f"{other} draws from the stock") == drawn


def test_the_command_refuses_a_bad_record_and_keeps_json(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(played("rummoli", 2, {"rounds": 1}, seed=2)))
    result = CliRunner().invoke(app, ["replay", str(good)])
    assert result.exit_code == 0 and "Rummoli, as P0 saw it." in result.output
    as_json = CliRunner().invoke(app, ["replay", "--json", str(good)])
    assert json.loads(as_json.output)["finished"] is True
    bad = tmp_path / "bad.json"
    record = json.loads(good.read_text())
    record["actions"][3] = 999
    bad.write_text(json.dumps(record))
    refused = CliRunner().invoke(app, ["replay", str(bad)])
    assert refused.exit_code == 2 and "action 3 of the record" in refused.output
    wrong_seat = CliRunner().invoke(app, ["replay", "--seat", "5", str(good)])
    assert wrong_seat.exit_code == 2 and "--seat must be from 0 to 1" in wrong_seat.output


@pytest.mark.parametrize("pace", [0.25])
def test_pace_waits_between_decisions(pace: float) -> None:
    record = played("rummoli", 2, {"rounds": 1}, seed=6)
    waits: list[float] = []
    screen, _ = console()
    step_through(record, screen, seat=0, pace=pace, sleep=waits.append)
    assert waits and set(waits) == {pace}
