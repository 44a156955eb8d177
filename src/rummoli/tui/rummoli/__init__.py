"""Rummoli at the terminal: the table (:mod:`.play`), drawn from one seat's view
(:mod:`.render`), its events as sentences (:mod:`.narrate`), the round's summary
(:mod:`.summary`), and the numbered menu of choices (:mod:`rummoli.tui.menu`)."""

from __future__ import annotations

from rummoli.tui.game import PlayOptions, TerminalPart

#: Chips and rounds when ``--chips`` and ``--rounds`` are not given.
DEFAULT_CHIPS = 100
DEFAULT_ROUNDS = 0


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
    )


TERMINAL = TerminalPart(
    play=_play,
    how_to_play="Rummoli: type a choice's number or name; ? (or hint) for the strong "
    "computer player's suggestion.",
)
