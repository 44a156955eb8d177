"""Basic Rummy at the terminal: the table (:mod:`.play`), drawn from one seat's view
(:mod:`.render`), its events as sentences (:mod:`.narrate`), typed moves (:mod:`.input`)
and the hand's summary (:mod:`.summary`)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from rummoli.i18n import N_, _
from rummoli.tui.game import PlayOptions, TerminalPart


def _play(options: PlayOptions) -> int:
    from rummoli.tui.rummy.play import DEFAULT_PLAYERS, run_rummy_play

    options.refuse(
        ("--chips", "--rounds", "--preset"),
        _("is a Rummoli option; a Rummy match is played to a target score (--rule target=N)"),
    )
    return run_rummy_play(
        players=options.players or DEFAULT_PLAYERS,
        rules=list(options.rules),
        seed=options.seed,
        name=options.name,
        level=options.level,
        opponents=options.opponents,
    )


def _narrator(name: str) -> Any:
    from rummoli.tui.rummy.narrate import RummyNarrator

    return RummyNarrator(name)


def _table(state: Any, seat: int) -> list[Text]:
    from rummoli.tui.rummy import render

    view = state.view(seat)
    return [render.header(view), *render.table(view)]


def _action_words(text: str) -> str:
    from rummoli.games.rummy import actions
    from rummoli.tui.rummy.input import move_text

    try:
        action = actions.action_from_text(text)
    except ValueError:  # not an action's text (a bare number): as it is
        return text
    return move_text(action, {"discard": []})


TERMINAL = TerminalPart(
    play=_play,
    narrator=_narrator,
    show_table=_table,
    action_words=_action_words,
    how_to_play=N_(
        "Rummy: type moves (s, t, meld 7H 8H 9H, lay 5C on 2, d KS); ? lists them with a hint."
    ),
)
