"""What every game's terminal table shares: the turn loop, printing, reading, saving.

Rummoli's table (:mod:`.play`) and Rummy's (:mod:`.rummy_play`) differ in what they draw,
narrate and ask, not in how a game is driven: chance steps at once, computer players
through :func:`rummoli.bots.ask_bot` with their seat's view only, the human at the
keyboard, a pause between deals. That loop lives here once, so a fix to it (how input
ending is handled, how a deal's end is noticed) reaches both games.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Protocol, TypeVar

import platformdirs
from rich.console import Console
from rich.text import Text

from rummoli.bots import Bot, ask_bot, levels_for, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, GameError, GameState
from rummoli.engine.description import GameDescription
from rummoli.i18n import _, pgettext
from rummoli.i18n.sentences import error as error_text
from rummoli.i18n.terms import bot_label
from rummoli.tui.cards import ascii_text
from rummoli.tui.options import opponent_levels, table_names

#: Reads one line of input after showing a prompt (``input``, or a script in tests).
ReadLine = Callable[[str], str]


class Quit(Exception):
    """The human asked to leave the table (or input ended)."""


class _TableState(GameState, Protocol):
    """What the loop needs of a game beyond the engine API: the names, the seed, and
    the end a table asks for."""

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def seed(self) -> int: ...

    def request_end(self) -> None: ...


S = TypeVar("S", bound=_TableState)
R = TypeVar("R")


def for_console(console: Console, text: Text) -> Text:
    """``text`` as this console can print it: plain ASCII where Unicode cannot be shown."""
    return text if console.encoding.lower().startswith("utf") else ascii_text(text)


def say(console: Console, *lines: Text) -> None:
    """Print lines of text, in ASCII on a terminal without Unicode."""
    for line in lines:
        console.print(for_console(console, line))


def records_dir() -> Path:
    """Where ``save`` writes game records: ``$RUMMOLI_DATA/records`` if set, else the
    per-user data folder of the platform (``~/.local/share/rummoli/records`` on Linux),
    so records do not litter whatever folder the game was started in."""
    base = os.environ.get("RUMMOLI_DATA")
    root = Path(base) if base else Path(platformdirs.user_data_dir("rummoli", appauthor=False))
    return root / "records"


def free_path(directory: Path, stem: str) -> Path:
    """``stem.json`` in ``directory``, or ``stem-2.json``... so nothing is overwritten."""
    path = directory / f"{stem}.json"
    number = 2
    while path.exists():
        path = directory / f"{stem}-{number}.json"
        number += 1
    return path


def typed_value(value: object) -> str:
    """A rule's value as the user would type it (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def wait_or_skip(seconds: float) -> bool:
    """Wait ``seconds``; True if Enter was pressed meanwhile (the line is consumed).
    Where the input is not a terminal (a pipe, a test), just wait."""
    stdin = sys.stdin
    try:
        interactive = stdin is not None and stdin.isatty()
    except ValueError:  # a closed stream
        interactive = False
    if not interactive:
        time.sleep(seconds)
        return False
    ready, _, _ = select.select([stdin], [], [], seconds)
    if ready:
        stdin.readline()
        return True
    return False


def enable_line_editing() -> None:
    """Arrow keys and history at the prompt, where the platform has readline."""
    with contextlib.suppress(ImportError):  # Windows has no readline
        import readline  # noqa: F401


def at_keyboard(
    console: Console, read_line: ReadLine | None, play: Callable[[ReadLine], int]
) -> int:
    """Run ``play`` with ``read_line`` (default: ``input``, with line editing where the
    platform has it); Ctrl-C ends the game with exit code 130 and a word, not a traceback."""
    if read_line is None:
        enable_line_editing()
        read_line = input  # not console.input: readline must know the prompt's width
    try:
        return play(read_line)
    except KeyboardInterrupt:
        say(console, Text("\n" + _("Interrupted.")))
        return 130


def start_table(
    console: Console,
    game: str,
    *,
    players: int,
    level: str,
    opponents: str | None,
    name: str,
    seed: int | None,
    rules: Callable[[], R],
    new_game: Callable[[list[str], R, int], S],
    announce: Callable[[S, Sequence[str]], None],
    play: Callable[[S, ReadLine, dict[int, Bot]], int],
    read_line: ReadLine | None,
) -> int:
    """Set up a table of ``game`` and play it: the human ``name`` at seat 0, a computer
    player of ``level`` (or of each of ``opponents``' levels) at the others, the table's
    ``rules()``, and ``seed`` (drawn if None, and shown: the same seed plays the same
    deals again). The exit code: 0 played, 2 bad settings (said in a line, nothing
    started), 130 interrupted.

    Each game's table gives its rules, how it starts and announces a game, and its turn
    loop (``play(state, read_line, bots)``).
    """
    try:
        levels = opponent_levels(players, level, opponents, levels_for(game))
        table_rules = rules()
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        state = new_game(table_names(name, players), table_rules, seed)
    except (GameError, ValueError) as error:
        say(console, Text.assemble((_("error: "), "bold red"), error_text(str(error))))
        return 2
    announce(state, levels)
    bots = {s: make_bot(levels[s - 1], seed * 10 + s, game) for s in range(1, players)}
    return at_keyboard(console, read_line, lambda read: play(state, read, bots))


def announce(
    console: Console,
    state: _TableState,
    description: GameDescription,
    changed: Mapping[str, object],
    levels: Sequence[str],
    again: str,
    *extra: str,
) -> None:
    """The lines that open a table: the game's title (and its ``extra`` words: the
    target...), the seed and the house rules ``changed``; the computer players and their
    levels as people say them (``Bea (Expert)``); ``again`` (translated, with
    ``{seed}``): how to play these deals again."""
    rules = ", ".join(f"{k}={typed_value(v)}" for k, v in changed.items()) or _("defaults")
    players = ", ".join(
        f"{n} ({bot_label(description, lv)[0]})"
        for n, lv in zip(state.names[1:], levels, strict=True)
    )
    say(
        console,
        Text.assemble(
            (pgettext("game", description.title), "bold"),
            *extra,
            " · ",
            _("seed {seed}").format(seed=state.seed),
            " · ",
            _("rules: {rules}").format(rules=rules),
        ),
        Text(_("Computer players: {players}").format(players=players)),
        Text(again.format(seed=state.seed), style="dim"),
    )


@dataclass(eq=False)
class TableLoop(Generic[S]):
    """One game at the terminal: ``human`` at the keyboard, ``bots`` at the other seats.

    A game's table sets up its own fields (:meth:`_setup`) and fills in how an action is
    shown (:meth:`_apply`, which sets ``deal_ended`` when a round or hand is over), how
    the human is asked (:meth:`_ask_human`), and what is shown between deals, on leaving
    and at the end. :meth:`play` makes one and plays.
    """

    state: S
    console: Console
    read_line: ReadLine
    bots: Mapping[int, Bot]
    human: int
    #: Where ``save`` writes the record.
    save_dir: Path
    hint_bot: Bot | None
    #: The human's name.
    me: str = field(init=False)
    deal_ended: bool = field(default=False, init=False)
    #: Seconds between two cards of a run (0: all at once).
    pace: float = field(default=0.0, init=False)
    #: ``wait(seconds)`` -> whether the human asked to skip (pressed Enter). (Set by a
    #: factory: a function as a plain default would be a class attribute, read as a
    #: method.)
    wait: Callable[[float], bool] = field(default_factory=lambda: wait_or_skip, init=False)

    def __post_init__(self) -> None:
        self.me = self.state.names[self.human]
        self._setup()

    @classmethod
    def play(
        cls,
        state: S,
        console: Console,
        read_line: ReadLine,
        bots: Mapping[int, Bot],
        *,
        human: int = 0,
        save_dir: Path | None = None,
        hint_bot: Bot | None = None,
        pace: float = 0.0,
        wait: Callable[[float], bool] | None = None,
    ) -> int:
        """Play ``state`` to the end: ``human`` at the keyboard, ``bots`` at the other
        seats; the exit code, 0.

        ``hint_bot`` answers a hint (default: the game's own, if it has one). ``pace``:
        seconds between the cards of a run (0: a run is printed at once); ``wait`` waits
        that long and says whether the human pressed Enter to skip (tests pass their own).
        """
        table = cls(state, console, read_line, bots, human, save_dir or records_dir(), hint_bot)
        table.pace = pace
        if wait is not None:
            table.wait = wait
        return table.run()

    def run(self) -> int:
        """Play to the end (or until the human leaves); the exit code, 0."""
        state = self.state
        try:
            while not state.is_terminal():
                self._apply(self._next_action())
                if self.deal_ended and not state.is_terminal():
                    self._between_deals()
        except Quit:
            self._leave()
            return 0
        self._finish()
        return 0

    def _next_action(self) -> int:
        seat = self.state.current_player()
        if seat == CHANCE:
            return CHANCE_ACTION
        if seat == self.human:
            return self._ask_human()
        return ask_bot(self.bots[seat], self.state, seat).action

    # ------------------------------------------------------------------ a game fills in

    def _setup(self) -> None:
        """The game's own fields (its narrator, its tally), once the shared ones are set."""

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _ask_human(self) -> int:
        raise NotImplementedError

    def _between_deals(self) -> None:
        raise NotImplementedError

    def _leave(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    def _save(self) -> None:
        """Write the game's record (:meth:`_save_record`, with the game's words)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared

    def _say(self, *lines: Text) -> None:
        say(self.console, *lines)

    def _say_paced(self, lines: Sequence[tuple[Text, Sequence[int]]]) -> None:
        """Print lines, each run of laid cards one card at a time, ``pace`` seconds
        apart (a line without marks at once). Enter while a run is shown prints the rest
        of what happened at once, until the next decision."""
        skipping = self.pace <= 0
        for line, marks in lines:
            if skipping or not marks:
                self._say(line)
                continue
            pieces = line.divide([m for m in marks if 0 < m < len(line)])
            for index, piece in enumerate(pieces):
                self.console.print(for_console(self.console, piece), end="")
                self.console.file.flush()
                if index < len(pieces) - 1 and not skipping:
                    skipping = self.wait(self.pace)
            self.console.print()

    def _rule(self, title: Text) -> None:
        self.console.rule(for_console(self.console, title), style="dim")

    def _read(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except EOFError:
            raise Quit from None

    def _pause(self, prompt: str, help_markup: str) -> None:
        """Wait between deals until the human goes on: Enter (or any other word) goes
        on, ``end`` first asks the table to stop after this deal, ``save`` saves the
        record, ``h`` shows ``help_markup``, ``q`` leaves."""
        while True:
            word = self._read(prompt).strip().lower()
            if word in ("q", "quit", "exit"):
                raise Quit
            if word in ("h", "help", "?"):
                self._say(Text.from_markup(help_markup))
            elif word == "save":
                self._save()
            else:
                if word == "end":
                    self.state.request_end()
                return

    def _seed_and_save(self, prompt: str) -> None:
        """At the end: the game's seed (it plays the same deals again), then ``prompt``
        offers to save the record (``save``; anything else, or no input, leaves)."""
        self._say(Text(_("Seed {seed}.").format(seed=self.state.seed), style="dim"))
        try:
            answer = self.read_line(prompt)
        except EOFError:
            return
        if answer.strip().lower() == "save":
            self._save()

    def _save_record(self, stem: str, saved: str) -> None:
        """Write the record (it replays with ``rummoli replay``) without overwriting;
        ``saved`` (translated, with ``{path}``) says where it went."""
        self.save_dir.mkdir(parents=True, exist_ok=True)
        path = free_path(self.save_dir, stem)
        path.write_text(json.dumps(self.state.record(), indent=1) + "\n", encoding="utf-8")
        self._say(Text(saved.format(path=path), style="green"))
