"""Rummoli at the terminal: the table (:mod:`.play`), drawn from one seat's view
(:mod:`.render`), its events as sentences (:mod:`.narrate`), the round's summary
(:mod:`.summary`), and the numbered menu of choices (:mod:`rummoli.tui.menu`)."""

from __future__ import annotations

import sys
from typing import Any

from rich.text import Text

from rummoli.i18n import N_
from rummoli.tui.game import PlayOptions, TerminalPart

#: Chips and rounds when ``--chips`` and ``--rounds`` are not given.
DEFAULT_CHIPS = 100
DEFAULT_ROUNDS = 0
#: Seconds between two cards of a run at a terminal: a run can be followed card by card.
DEFAULT_PACE = 0.35


def _play(options: PlayOptions) -> int:
    from rummoli.tui.rummoli.play import DEFAULT_LEVEL, run_play

    return run_play(
        players=options.players or 4,
        chips=DEFAULT_CHIPS if options.chips is None else options.chips,
        rounds=DEFAULT_ROUNDS if options.rounds is None else options.rounds,
        rules=list(options.rules),
        preset=options.preset,
        seed=options.seed,
        name=options.name,
        level=options.level or DEFAULT_LEVEL,
        opponents=options.opponents,
        pace=(DEFAULT_PACE if sys.stdout.isatty() else 0.0)
        if options.pace is None
        else options.pace,
    )


def _narrator(name: str) -> Any:
    from rummoli.tui.rummoli.narrate import Narrator

    return Narrator(name)


def _table(state: Any, seat: int) -> list[Text]:
    from rummoli.tui.rummoli import render

    view = state.view(seat)
    return [render.header(view, state.rules.rounds), *render.table(view)]


def _action_words(text: str) -> str:
    from rummoli.tui.rummoli.play import menu_label

    return menu_label(text)


TERMINAL = TerminalPart(
    play=_play,
    narrator=_narrator,
    show_table=_table,
    action_words=_action_words,
    how_to_play=N_(
        "Rummoli: type a choice's number or name; ? (or hint) for the strong "
        "computer player's suggestion."
    ),
)
