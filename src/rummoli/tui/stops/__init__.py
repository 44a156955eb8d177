"""The Stops family at the terminal: the table (:mod:`.play`), drawn from one seat's view
(:mod:`.render`), its events as sentences (:mod:`.narrate`), the round's summary
(:mod:`.summary`), each game's words (:mod:`.words`), and the numbered menu of choices
(:mod:`rummoli.tui.menu`). One part serves every game of the family: a description
names ``rummoli.tui.stops.parts:<game>`` (:mod:`.parts`), made by :func:`terminal_part`.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

from rich.text import Text

from rummoli.i18n import N_
from rummoli.tui.game import PlayOptions, TerminalPart

#: Chips and rounds when ``--chips`` and ``--rounds`` are not given.
DEFAULT_CHIPS = 100
DEFAULT_ROUNDS = 0
#: Seconds between two cards of a run at a terminal: a run can be followed card by card.
DEFAULT_PACE = 0.35

#: How moves are typed, for ``rummoli play --help`` (the game's title first).
HOW_TO_PLAY = N_(
    "{game}: type a choice's number or name; ? (or hint) for the strong "
    "computer player's suggestion."
)


@cache
def terminal_part(game: str) -> TerminalPart:
    """The terminal table of the family's game ``game``."""
    from rummoli.games.registry import describe

    title = describe(game).title

    def play(options: PlayOptions) -> int:
        from rummoli.tui.stops.play import DEFAULT_LEVEL, run_play

        return run_play(
            players=options.players or describe(game).default_players,
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
            game=game,
        )

    def narrator(name: str) -> Any:
        from rummoli.tui.stops.narrate import Narrator
        from rummoli.tui.stops.words import game_words

        return Narrator(name, game_words(game))

    def show_table(state: Any, seat: int) -> list[Text]:
        from rummoli.tui.stops import render
        from rummoli.tui.stops.words import game_words

        view = state.view(seat)
        phase = game_words(game).play_phase
        return [render.header(view, state.rules.rounds, phase), *render.table(view)]

    def action_words(text: str) -> str:
        from rummoli.tui.stops.play import menu_label

        return menu_label(text)

    return TerminalPart(
        play=play,
        narrator=narrator,
        show_table=show_table,
        action_words=action_words,
        how_to_play=HOW_TO_PLAY.replace("{game}", title),
    )


#: Rummoli's terminal table.
TERMINAL = terminal_part("rummoli")
