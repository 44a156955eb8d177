"""What ``rummoli play`` asks of each game: its own table at the terminal.

The command is written once (its options, their checks, the exit codes); each game's
terminal part (``tui/stops``, ``tui/rummy``), named in its description, sets up and
plays its table from the options. The turn loop every table shares is
:class:`rummoli.tui.table.TableLoop`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from rummoli.engine.description import TERMINAL, GameDescription


class PlayOptionError(ValueError):
    """An option this game cannot use; ``option`` names it for the error message."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The options of ``rummoli play``, as typed (None: not given)."""

    players: int | None = None
    chips: int | None = None
    rounds: int | None = None
    rules: Sequence[str] = ()
    preset: str | None = None
    seed: int | None = None
    name: str = "You"
    level: str | None = None
    opponents: str | None = None
    #: Seconds between the cards of a run (None: a readable pace at a terminal, else 0).
    pace: float | None = None

    def refuse(self, options: Sequence[str], why: str) -> None:
        """Raise :class:`PlayOptionError` for the first of ``options`` (``--chips``...)
        that was given: ``why`` says what to do instead."""
        for option in options:
            if getattr(self, option.removeprefix("--")) is not None:
                raise PlayOptionError(option, f"{option} {why}")


@dataclass(frozen=True, slots=True)
class TerminalPart:
    """One game's table at the terminal."""

    #: Set up a table from the options and play it; the exit code (0 played, 2 bad
    #: settings, 130 interrupted). May raise :class:`PlayOptionError` before play starts.
    play: Callable[[PlayOptions], int]
    #: A line for ``rummoli play --help``: how moves are typed (English, the message id:
    #: the interface translates it when it shows it).
    how_to_play: str = ""
    #: ``narrator(name)``: the table's sentences for the events one player may see (an
    #: object with ``feed(event_json)`` and ``take() -> list[Text]``); for the replay.
    narrator: Callable[[str], Any] | None = None
    #: ``show_table(state, seat)``: the table as ``seat`` sees it, as lines.
    show_table: Callable[[Any, int], list[Text]] | None = None
    #: ``action_words(text)``: an action's engine text (``raise 30``, ``discard KC``) in
    #: the words the table offers it with, in the language in force; the engine's
    #: refusals list the legal actions in it.
    action_words: Callable[[str], str] | None = None


def terminal_part(description: GameDescription) -> TerminalPart | None:
    """The game's terminal table, or None if it has none yet."""
    part = description.part(TERMINAL)
    if part is not None and not isinstance(part, TerminalPart):
        raise TypeError(f"{description.name}'s terminal part is not a TerminalPart")
    return part
