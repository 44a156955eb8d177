"""The terminal table fits an 80x24 screen at eight seats: a showdown of eight hands takes
at most four lines, and the table with its choices at most nineteen, so the showdown, the
line naming the pot's winner and the next decision's table fit on one screen. In every
language: French and Russian words run 20-30% longer than English ones."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.cells import cell_len
from rich.console import Console

from rummoli import i18n
from rummoli.bots import make_bot
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.tui.stops.play import play_game

NAMES = ["You", "Bea", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
SHOWDOWN_LINES = 4
TABLE_LINES = 19


def screens(rules: Rules, seed: int) -> tuple[list[str], list[list[str]]]:
    """Every showdown block, and every decision's table (its rule line to its menu), in
    the language in force."""
    label = i18n._("Showdown: ")
    state = RummoliState.new_game(NAMES, rules, seed)
    bots = {s: make_bot("random", s, "rummoli") for s in range(1, 8)}
    out = StringIO()
    console = Console(file=out, width=80, highlight=False, color_system=None)
    tables: list[list[str]] = []

    def human(prompt: str) -> str:
        if prompt.startswith(">"):
            lines = out.getvalue().splitlines()
            start = max(i for i, line in enumerate(lines) if line.startswith("──"))
            tables.append(lines[start:])
            return "1"
        return ""

    play_game(state, console, human, bots)
    lines = out.getvalue().splitlines()
    showdowns = []
    for i, line in enumerate(lines):
        if line.startswith(label):
            block = [line]
            block += [m for m in lines[i + 1 : i + 9] if m.startswith(" " * len(label))]
            showdowns.append("\n".join(block))
    return showdowns, tables


@pytest.mark.parametrize("lang", i18n.languages())
@pytest.mark.parametrize("seed", range(6))
def test_eight_seats_fit_an_80x24_screen(seed: int, lang: str) -> None:
    with i18n.language(lang):
        showdowns, _ = screens(Rules(rounds=2, poker="showdown"), seed)
        _, tables = screens(Rules(rounds=2, lead="lowest_of_any_suit"), seed)
    assert showdowns, "no showdown was played"
    for block in showdowns:
        assert block.count("\n") + 1 <= SHOWDOWN_LINES, block
        assert all(cell_len(line) <= 80 for line in block.splitlines())
    assert tables, "the person had no decision"
    for table in tables:
        assert len(table) <= TABLE_LINES, "\n".join(table)
    assert SHOWDOWN_LINES + 1 + TABLE_LINES <= 24
