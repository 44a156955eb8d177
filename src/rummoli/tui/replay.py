"""``rummoli replay FILE``: a saved game, step by step, as one seat saw it.

Written once for every game: the record is rebuilt through the registry, each action is
applied in turn, and what the seat could see of it (the description's ``events_for``) is
told by the game's own narrator, the sentences of its terminal table. After each
player's decision the replay waits: Enter goes on, ``t`` shows the table as the seat saw
it then, ``a`` plays the rest without stopping, ``q`` stops. With ``--pace`` it goes on by
itself; when the input is not a terminal (a pipe, a script) it prints the whole game.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from rummoli.engine.base import CHANCE, GameError, GameState, SetupError
from rummoli.engine.description import GameDescription
from rummoli.engine.records import record_object
from rummoli.games import registry
from rummoli.i18n import N_, _
from rummoli.i18n.sentences import error as error_text
from rummoli.i18n.sentences import refusal_fields
from rummoli.i18n.terms import game_title
from rummoli.tui.cards import card
from rummoli.tui.game import TerminalPart, terminal_part
from rummoli.tui.phrases import shown_name
from rummoli.tui.table import ReadLine, say

#: A card's code in an engine message (``AD``, ``TS``, ``10S``).
CARD = re.compile(r"(10|[2-9TJQKA])[CDHS]")

PROMPT = N_("Enter: next, t: the table, a: all, q: quit > ")


class ReplayError(ValueError):
    """A record that cannot be stepped through; the message names the problem."""


def _start(record: object) -> tuple[GameDescription, GameState, list[int], int | None]:
    """The record's game, its state before the first action, its actions and when the
    table asked to end (checked by replaying the whole record once first)."""
    data = record_object(record)
    try:
        description = registry.describe(data.get("game"))
    except GameError:
        known = ", ".join(registry.names())
        if data.get("game") is None:
            raise ReplayError(
                _("the record names no game; games are {known}").format(known=known)
            ) from None
        raise ReplayError(
            _("unknown game {name} in the record; games are {known}").format(
                name=repr(data.get("game")), known=known
            )
        ) from None
    description.replay(data)  # every action legal, or a SetupError naming the first
    state = description.stored_game(data.get("rules") or {}, data["setup"], data.get("seed", 0))
    return description, state, list(data.get("actions", [])), data.get("end_requested_after")


def _refusal_text(record: object, error: Exception) -> str:
    """Why the record cannot be replayed, in the language in force: a refused action and
    the legal ones in the table's words, the default seat as "Human" (a name is data)."""
    try:
        part = terminal_part(registry.describe(record_object(record).get("game")))
    except (GameError, SetupError):
        part = None
    if part is None or part.action_words is None:
        return error_text(str(error))

    def card_words(code: str) -> str:
        return card(code).plain if CARD.fullmatch(code) else code

    fields = refusal_fields(part.action_words, lambda name: shown_name(name, me=""), card_words)
    return error_text(str(error), fields)


def step_through(
    record: object,
    console: Console,
    *,
    seat: int = 0,
    read_line: ReadLine | None = None,
    pace: float = 0.0,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Tell the game of ``record`` as ``seat`` saw it; the exit code (0, 2: bad record).

    ``read_line`` (None: do not wait) is asked after each decision; ``pace`` seconds are
    waited instead when it is None and ``pace`` > 0.
    """
    try:
        description, state, actions, end_after = _start(record)
    except (SetupError, ReplayError) as error:
        say(console, Text.assemble((_("error: "), "bold red"), _refusal_text(record, error)))
        return 2
    part = terminal_part(description)
    title = game_title(description)
    if part is None or part.narrator is None:
        message = _("{game} has no terminal narration yet").format(game=title)
        say(console, Text(message, style="red"))
        return 2
    names = [p["name"] for p in state.view(None)["players"]]
    if not 0 <= seat < len(names):
        message = _("--seat must be from 0 to {high}").format(high=len(names) - 1)
        say(console, Text(_("error: ") + message, style="red"))
        return 2
    narrator: Any = part.narrator(names[seat])
    say(
        console,
        Text.assemble(
            (title, "bold"), _(", as {name} saw it.").format(name=shown_name(names[seat]))
        ),
    )
    waiting = read_line is not None
    for index, action in enumerate(actions):
        if end_after == index:
            _request_end(state)
        decided = state.current_player() != CHANCE
        for event in description.events_for(state.apply(action), seat, names):
            narrator.feed(event)
        if not decided:
            continue
        say(console, *narrator.take())
        if waiting and read_line is not None:
            answer = _ask(read_line)
            if answer == "q":
                return 0
            if answer == "a":
                waiting = False
            if answer == "t":
                _show(console, part, state, seat)
                if _ask(read_line) == "q":
                    return 0
        elif pace > 0:
            sleep(pace)
    say(console, *narrator.take())
    _show(console, part, state, seat)
    return 0


def _request_end(state: GameState) -> None:
    request = getattr(state, "request_end", None)
    if request is not None:
        request()


def _ask(read_line: ReadLine) -> str:
    try:
        return read_line(_(PROMPT)).strip().lower()[:1]
    except EOFError:
        return "q"


def _show(console: Console, part: TerminalPart, state: GameState, seat: int) -> None:
    if part.show_table is not None:
        say(console, *part.show_table(state, seat))
