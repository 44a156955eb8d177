"""Computer players: one interface for every level, from random to strong.

A bot decides from what its seat may see (``state.observation(seat)``: the same
knowledge as the seat's view, as plain numbers) and the legal actions (ints), never from
the state itself: a bot that could read the state could read the other hands, and nothing
would show it cheated. :func:`ask_bot` is the one place the
project consults a bot, so that rule is kept in one place and checked there.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from rummoli.engine.base import GameError, GameState
from rummoli.games import registry
from rummoli.games.registry import describe


class Decision:
    """A bot's chosen action, with an optional short reason for logs and tutors.

    Treat it as read-only. It is a plain class with slots, not a frozen dataclass,
    because a simulation makes one per decision and a frozen dataclass takes about three
    times as long to build; equality, hashing and ``repr`` are those of the dataclass.
    """

    __slots__ = ("action", "reason")

    def __init__(self, action: int, reason: str = "") -> None:
        self.action = action
        self.reason = reason

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.action == other.action and self.reason == other.reason

    def __hash__(self) -> int:
        return hash((self.action, self.reason))

    def __repr__(self) -> str:
        return f"Decision(action={self.action!r}, reason={self.reason!r})"


def only_choice(legal: list[int], reason: str) -> Decision | None:
    """The decision when there is nothing to decide (one legal action, taken for
    ``reason``), or None when there is: every bot's first question. No legal action at
    all is the caller's mistake, refused (a ValueError)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    return Decision(legal[0], reason) if len(legal) == 1 else None


class Bot(Protocol):
    """A computer player: picks one of ``legal`` from what its seat may see."""

    def choose(self, observation: Any, legal: list[int]) -> Decision: ...


class BotError(ValueError):
    """A bot answered with an action that is not legal (a bug in the bot)."""


def ask_bot(bot: Bot, state: GameState, seat: int) -> Decision:
    """Ask ``bot`` to decide for ``seat``, giving it that seat's observation only.

    The answer is checked, so a buggy bot fails loudly here instead of as a puzzling
    engine error later.
    """
    legal = state.legal_actions()
    decision = bot.choose(state.observation(seat), legal)
    if decision.action not in legal:
        raise BotError(
            f"{type(bot).__name__} chose {decision.action}, which is not legal (legal: "
            f"{legal[:12]}{' ...' if len(legal) > 12 else ''})"
        )
    return decision


def _is_legal(action: int, legal: list[int]) -> bool:
    """``action in legal``: by bisection, since legal actions come sorted (hundreds of
    raise sizes are not scanned), with the plain scan as a fallback before any error."""
    try:
        index = bisect_left(legal, action)
    except TypeError:  # not a number at all: the scan answers (no)
        return action in legal
    return (index < len(legal) and legal[index] == action) or action in legal


def _factory(game: str, level: str) -> Callable[[int], Bot]:
    """A factory that imports the bot's module on first use (a Rummy run never imports
    Rummoli's strong player)."""

    def make(seed: int) -> Bot:
        bot: Bot = describe(game).bot_factory(level)(seed)
        return bot

    make.__name__ = f"{game}_{level}"
    return make


def levels_for(game: str) -> dict[str, Callable[[int], Bot]]:
    """The bot levels of ``game`` (a name of :func:`rummoli.games.registry.names`), weakest
    first, as its description lists them."""
    try:
        levels = describe(game).levels()
    except GameError:
        raise ValueError(
            f"no computer players for game {game!r}; games are {', '.join(registry.names())}"
        ) from None
    return {level: _factory(game, level) for level in levels}


def make_bot(level: str, seed: int, game: str | None = None) -> Bot:
    """A new ``game`` bot (default: the default game's) of ``level`` whose choices depend
    only on ``seed`` and what it sees."""
    description = describe(game or registry.default_game())
    bot: Bot = description.bot_factory(level)(seed)
    return bot


#: The default game's (Rummoli's) bot levels by name, weakest first.
LEVELS: dict[str, Callable[[int], Bot]] = levels_for(registry.default_game())


class _GameLevels(Mapping[str, dict[str, Callable[[int], Bot]]]):
    """Every game's bot levels, by game: read from the registry each time, so a game
    registered later (a test's third game) has its levels here too."""

    def __getitem__(self, game: str) -> dict[str, Callable[[int], Bot]]:
        if game not in registry.names():
            raise KeyError(game)
        return levels_for(game)

    def __iter__(self) -> Iterator[str]:
        return iter(registry.names())

    def __len__(self) -> int:
        return len(registry.names())


GAME_LEVELS: Mapping[str, dict[str, Callable[[int], Bot]]] = _GameLevels()


__all__ = [
    "GAME_LEVELS",
    "LEVELS",
    "Bot",
    "BotError",
    "Decision",
    "ask_bot",
    "levels_for",
    "make_bot",
]
