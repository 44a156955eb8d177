"""A family game's ``game.toml`` (its name, seats, board, summary and presets): what a
good one declares, and that a bad one is an error naming the file and the problem.

The six games' own files are checked by everything that plays them (their golden files,
``test_family_interfaces.py``); this checks the reader, on a package made for the test.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from rummoli.engine.description import BOOL, HouseRule
from rummoli.games.stops import layout as lay
from rummoli.games.stops.common import chips_rules, family_layout
from rummoli.games.stops.game import DeclarationError, FamilyGame, declared_game

HOUSE_RULES = (*chips_rules(), HouseRule("kitty", False, BOOL, "a kitty"))

GOOD = """\
# A game for the test.
name = "tiny"
title = "Tiny Stops"
aliases = ["tiny_stops"]
min_players = 3
max_players = 5
board_shape = "sections"
spare_word = "talon"
summary = \"\"\"\\
one line, \\
then another.\"\"\"

[presets]
# The defaults.
book = {}
table = { kitty = true, rounds = 3 }
"""


def make_layout(game: FamilyGame, values: Mapping[str, Any]) -> lay.Layout:
    spaces = (lay.Space("AH", ("AH",)),)
    if values["kitty"]:
        spaces += (lay.Space("kitty", role=lay.KITTY),)
    return family_layout(game, values, spaces=spaces, spare=lay.NONE)


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    """An importable package ``tinystops`` whose ``game.toml`` a test writes."""
    folder = tmp_path / "tinystops"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    sys.path.insert(0, str(tmp_path))
    yield folder
    sys.path.remove(str(tmp_path))
    sys.modules.pop("tinystops", None)


def test_a_game_toml_declares_the_game(package: Path) -> None:
    (package / "game.toml").write_text(GOOD)
    game = declared_game("tinystops", HOUSE_RULES, make_layout)
    assert (game.name, game.title, game.aliases) == ("tiny", "Tiny Stops", ("tiny_stops",))
    assert (game.min_players, game.max_players, game.default_players) == (3, 5, 4)
    assert game.summary == "one line, then another."
    assert list(game.presets) == ["book", "table"]
    assert game.presets["table"] == {"kitty": True, "rounds": 3}
    assert game.house_rules == HOUSE_RULES
    layout = game.layout({**game.defaults(), **game.presets["table"]})
    assert (layout.game, layout.board_shape, layout.spare_word) == ("tiny", "sections", "talon")
    assert [space.name for space in layout.spaces] == ["AH", "kitty"]
    assert layout.rounds == 3


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (('name = "tiny"', 'name = "tiny"\nsize = 3'), "unknown key size"),
        (('title = "Tiny Stops"', ""), "missing title"),
        (("max_players = 5", 'max_players = "5"'), "max_players must be a TOML integer"),
        (("min_players = 3", "min_players = true"), "min_players must be a TOML integer"),
        (('aliases = ["tiny_stops"]', "aliases = [1]"), "aliases must be strings"),
        (("book = {}", "book = 1"), "preset book must be a table of house rules"),
        (("rounds = 3", "dealer = 3"), "preset table sets dealer, not house rules of the game"),
        (("[presets]", "[presets"), "tinystops/game.toml: "),
    ],
)
def test_a_bad_game_toml_names_the_file_and_the_problem(
    package: Path, change: tuple[str, str], problem: str
) -> None:
    old, new = change
    (package / "game.toml").write_text(GOOD.replace(old, new, 1))
    with pytest.raises(DeclarationError, match=problem) as raised:
        declared_game("tinystops", HOUSE_RULES, make_layout)
    assert str(raised.value).startswith("tinystops/game.toml: ")


def test_a_package_without_a_game_toml_says_so(package: Path) -> None:
    with pytest.raises(DeclarationError, match=r"tinystops/game.toml: .*game.toml"):
        declared_game("tinystops", HOUSE_RULES, make_layout)
