"""Computer players: one interface for every level, from random to strong.

A bot decides from what its seat may see (``state.observation(seat)``: the same
knowledge as the seat's view, as plain numbers) and the legal actions (ints), never from
the state itself: a bot that could read the state could read the other hands, and nothing
would show it cheated. :func:`ask_bot` is the one place the
project consults a bot, so that rule is kept in one place and checked there.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Any, Protocol

from rummoli.engine.base import GameState


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


def _random(seed: int) -> Bot:
    from rummoli.bots.random_bot import RandomBot

    return RandomBot(seed)


def _basic(seed: int) -> Bot:
    from rummoli.bots.rummoli.basic import BasicBot

    return BasicBot(seed)


def _strong(seed: int) -> Bot:
    from rummoli.bots.rummoli.strong import StrongBot

    return StrongBot(seed)


def _rummy_basic(seed: int) -> Bot:
    from rummoli.bots.rummy.basic import BasicRummyBot

    return BasicRummyBot(seed)


def _rummy_strong(seed: int) -> Bot:
    from rummoli.bots.rummy.strong import StrongRummyBot

    return StrongRummyBot(seed)


#: Rummoli's bot levels by name, weakest first (menus list them in this order).
LEVELS: dict[str, Callable[[int], Bot]] = {"random": _random, "basic": _basic, "strong": _strong}

#: Every game's bot levels, weakest first. The random bot works for any game, since it
#: only needs the legal actions.
GAME_LEVELS: dict[str, dict[str, Callable[[int], Bot]]] = {
    "rummoli": LEVELS,
    "rummy": {"random": _random, "basic": _rummy_basic, "strong": _rummy_strong},
}


def levels_for(game: str) -> dict[str, Callable[[int], Bot]]:
    """The bot levels of ``game`` (a name of :data:`rummoli.games.registry.GAMES`)."""
    try:
        return GAME_LEVELS[game]
    except KeyError:
        raise ValueError(
            f"no computer players for game {game!r}; games are {', '.join(sorted(GAME_LEVELS))}"
        ) from None


def make_bot(level: str, seed: int, game: str = "rummoli") -> Bot:
    """A new ``game`` bot of ``level`` whose choices depend only on ``seed`` and what it sees."""
    levels = levels_for(game)
    try:
        factory = levels[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r} for {game}; levels are {', '.join(levels)}"
        ) from None
    return factory(seed)


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
