"""Michigan and Tripoley everywhere the terminal is: ``rummoli play``, ``rummoli rules``
(in the three languages), ``rummoli simulate`` (each space of the game's own board) and
the computer players of every level, which only ever choose legal actions.

The games' rules are checked by their golden files (``tests/scenarios/<game>/``) and their
invariants by ``test_family_properties.py``; this checks that each interface reaches them.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummoli import cli, i18n
from rummoli.bots import ask_bot, make_bot
from rummoli.cli import app
from rummoli.games.registry import describe

GAMES = ("michigan", "tripoley", "newmarket", "pope_joan", "poch", "nain_jaune")
#: Each game's board as its description lays it out by default.
BOARDS = {
    "michigan": ["AH", "KC", "QD", "JS"],
    "tripoley": ["pot", "AH", "KH", "QH", "JH", "10H", "KQH", "8910", "kitty"],
    "newmarket": ["AH", "KC", "QD", "JS", "kitty"],
    "pope_joan": ["pope", "matrimony", "intrigue", "ace", "king", "queen", "jack", "game"],
    "poch": [
        "poch",
        "ace",
        "king",
        "queen",
        "jack",
        "ten",
        "marriage",
        "sequence",
        "centre",
    ],
    "nain_jaune": ["10D", "JC", "QS", "KH", "7D"],
}
#: What each game's rules text says in each language: its title and a source.
RULES_TEXT = {
    ("michigan", "en"): ("Michigan", "pagat.com"),
    ("michigan", "fr"): ("Michigan", "pagat.com"),
    ("michigan", "ru"): ("Мичиган", "pagat.com"),
    ("tripoley", "en"): ("Tripoley", "Cadaco"),
    ("tripoley", "fr"): ("Tripoley", "Cadaco"),
    ("tripoley", "ru"): ("Триполи", "Cadaco"),
    ("newmarket", "en"): ("Newmarket", "The Guardian"),
    ("newmarket", "fr"): ("Newmarket", "The Guardian"),
    ("newmarket", "ru"): ("Ньюмаркет", "The Guardian"),
    ("pope_joan", "en"): ("Pope Joan", "Parlett"),
    ("pope_joan", "fr"): ("Pope Joan", "Parlett"),
    ("pope_joan", "ru"): ("Папа Иоанна", "Parlett"),
    ("poch", "en"): ("Poch", "pagat.com"),
    ("poch", "fr"): ("Poch", "pagat.com"),
    ("poch", "ru"): ("Пох", "pagat.com"),
    ("nain_jaune", "en"): ("Nain Jaune", "regledujeu.fr"),
    ("nain_jaune", "fr"): ("Nain Jaune", "regledujeu.fr"),
    ("nain_jaune", "ru"): ("Жёлтый карлик", "regledujeu.fr"),
}


def run(*args: str, text: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), input=text, env={"COLUMNS": "160"})
    return result.exit_code, result.output


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_plays_a_whole_game(game: str) -> None:
    code, out = run("play", "--game", game, "--players", "3", "--rounds", "2", "--seed", "5",
                    text="1\n" * 600)  # fmt: skip
    assert code == 0, out
    assert "Round 1 over" in out and "Game over" in out
    assert describe(game).title in out


@pytest.mark.parametrize(("game", "lang"), sorted(RULES_TEXT))
def test_rules_explain_each_game_in_each_language(
    game: str, lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Through the entry point, which reads --lang before the commands are parsed.
    for variable in i18n.ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setattr(sys, "argv", ["rummoli", "rules", "--game", game, "--lang", lang])
    with pytest.raises(SystemExit) as done:
        cli.main()
    i18n.set_language("en")
    out = capsys.readouterr().out
    assert done.value.code in (0, None), out
    title, source = RULES_TEXT[game, lang]
    assert title in out and source in out
    for rule in describe(game).house_rules:
        assert rule.name in out


@pytest.mark.parametrize("game", GAMES)
def test_simulate_reports_each_space_of_the_game_s_board(game: str, tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    code, text = run("simulate", "--game", game, "--rounds", "150", "--bots",
                     "basic,random,random", "--seed", "3", "--json", str(out))  # fmt: skip
    assert code == 0, text
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert [space["space"] for space in figures["spaces"]] == BOARDS[game]
    assert figures["rounds"] == 150
    # Some space paid in 150 rounds, and no space paid more often than every round.
    rates = [space["pay_rate"] for space in figures["spaces"]]
    assert max(rates) > 0 and all(0 <= rate <= 1 for rate in rates)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_every_computer_level_plays_a_round_of_each_game(game: str, level: str) -> None:
    description = describe(game)
    rules = description.rules({"rounds": 1, "starting_chips": 20})
    state = description.new_game(["Ann", "Bob", "Cy"], rules, 7)
    bots = [make_bot(level, seed, game) for seed in range(3)]
    rng = random.Random(7)
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:  # the deal
            state.apply(rng.choice(state.legal_actions()))
            continue
        decision = ask_bot(bots[seat], state, seat)  # checked legal by ask_bot
        state.apply(decision.action)
        decisions += 1
    assert decisions > 0
    assert sum(state.chips) == 60


@pytest.mark.parametrize("game", ("rummoli", *GAMES))
def test_the_declaration_s_identity_is_the_layout_s(game: str) -> None:
    """A game's name, title, seats and presentation are declared once, on its FamilyGame,
    and are what its layout plays under every preset (Rummoli's layout is made by its own
    rules object: the declaration must still say the same)."""
    declared = importlib.import_module(f"rummoli.games.{game}.description").GAME
    rules_type = describe(game).rules_type
    for preset in declared.presets:
        layout = rules_type.from_dict({"preset": preset}).layout()
        played = {name: getattr(layout, name) for name in declared.identity()}
        assert played == declared.identity(), preset
    assert declared.identity()["game"] == game
