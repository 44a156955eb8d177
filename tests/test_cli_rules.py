"""``rummoli rules``, ``rummoli play --help`` and where ``save`` writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.tui.stops.play import play_game
from rummoli.tui.table import records_dir

WIDE = {"COLUMNS": "160"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env=WIDE)
    return result.exit_code, result.output


def row(output: str, name: str) -> str:
    """The table row of house rule ``name`` (its first line)."""
    return next(line for line in output.splitlines() if f" {name} " in line and "│" in line)


def test_rules_print_the_rules_and_every_house_rule_with_its_value() -> None:
    code, out = run("rules")
    assert code == 0
    assert "The Rummoli phase" in out and "Going out" in out
    for name in Rules().to_dict():
        assert name in out or name == "rules_version"  # the version is no house rule
    assert "exchange_or_auction" in row(out, "widow") and "*" not in row(out, "widow")
    assert "Every house rule is at its default." in out


def test_rules_show_the_table_s_values_from_rule_and_preset() -> None:
    code, out = run("rules", "--preset", "rulebook_method_1", "--rule", "widow=none")
    assert code == 0
    assert "none *" in row(out, "widow")
    assert "showdown *" in row(out, "poker")  # from the preset
    assert "differs from the default: " in out and "settlement=high_card" in out


def test_rules_of_basic_rummy() -> None:
    code, out = run("rules", "--game", "rummy")
    assert code == 0
    assert "Aces are low" in out and "Going Rummy" in out
    assert "by players (100 for 2, 150 for 3, 200 for 4)" in row(out, "target")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rule", "colour=red"], "house rules are starting_chips, ace_of_spades"),
        (["--game", "rummy", "--preset", "rulebook_method_1"], "has no printed rule sets"),
        (["--game", "chess"], "unknown game 'chess'"),
    ],
)
def test_rules_refuse_bad_options(args: list[str], message: str) -> None:
    code, out = run("rules", *args)
    assert code == 2
    assert message in " ".join(out.replace("│", " ").split())


def test_play_help_lists_every_game_s_house_rules_and_presets() -> None:
    code, out = run("play", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "Rummoli house rules: starting_chips, ace_of_spades" in text
    assert "Rummoli presets: encyclopedia, rulebook_method_1, rulebook_method_2" in text
    assert "Basic Rummy house rules: target, one_meld_per_turn" in text


def test_save_writes_into_the_per_user_folder_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from io import StringIO

    from rich.console import Console

    monkeypatch.setenv("RUMMOLI_DATA", str(tmp_path / "data"))
    assert records_dir() == tmp_path / "data" / "records"
    state = RummoliState.new_game(["You", "Bea"], Rules(rounds=1), seed=3)
    out = StringIO()
    console = Console(file=out, width=400, highlight=False)
    answers = iter(["save", "q"])
    play_game(state, console, lambda prompt: next(answers), {})
    saved = list((tmp_path / "data" / "records").glob("rummoli-3*.json"))
    assert len(saved) == 1
    assert f"Saved the game record to {saved[0]}" in out.getvalue()
