"""The one ``apply`` of every game: check the action, refuse it with a reason, or step.

Both games take an action the same way: an action that is not among the legal ones raises
an :class:`~rummoli.engine.base.IllegalActionError` that says why, before anything of the
state changes; a legal one is recorded (a record is its actions) and the game's own step
applies it, with every forced follow-up, and returns the events it caused. That shape
lives here once, in :func:`apply_action`; a game supplies only what differs, through
:class:`Steppable`: its ``_step`` (which rules apply the action) and its ``_refusal``
(what to say about an action that is a whole number but not legal now).

Why a protocol, and a base class beside it: naming the protocol itself as a base would
make mypyc treat a compiled state as inheriting from Python classes (``typing.Protocol``
and ``Generic``: a ``__dict__``, checked attribute reads, no ``super().__new__``). So a
compiled state names :class:`SteppableBase` as its base (both games' states do, through
:class:`rummoli.engine.state.GameStateBase`), an empty native class of the same shape,
and a plain-Python state fits :class:`Steppable` by its shape alone: :func:`apply_action`
takes either, and compiled code reaches a :class:`SteppableBase`'s fields and methods
natively (a few nanoseconds per action, against about five microseconds per decision of
a Rummoli game).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Final, Protocol

from rummoli.engine.base import TERMINAL, Event, IllegalActionError

#: How many legal actions a refusal lists before it writes " ...".
SHOWN_LEGAL: Final = 12


class Steppable(Protocol):
    """What :func:`apply_action` needs of a game state."""

    #: The seat to decide, CHANCE or TERMINAL.
    to_move: int
    #: The legal actions now, sorted ascending (the protocol's canonical order).
    options: list[int]
    #: Every action applied so far, in order: what a record replays.
    actions: list[int]

    def _step(self, action: int, events: list[Event]) -> None:
        """Apply the legal ``action`` and everything the rules force after it."""
        ...

    def _refusal(self, action: int) -> str:
        """Why ``action``, a whole number, is not legal now (the game is not over)."""
        ...


class SteppableBase:
    """The base of a compiled game state: :class:`Steppable` as a native class.

    It holds nothing itself (the state declares the fields in its ``__slots__``); a state
    that names it as its base is reached natively by :func:`apply_action`.
    """

    __slots__ = ()

    to_move: int
    options: list[int]
    actions: list[int]

    def _step(self, action: int, events: list[Event]) -> None:
        """Apply the legal ``action`` and everything the rules force after it."""
        raise NotImplementedError

    def _refusal(self, action: int) -> str:
        """Why ``action``, a whole number, is not legal now (the game is not over)."""
        raise NotImplementedError


def is_legal(options: list[int], action: int) -> bool:
    """Whether ``action`` is one of ``options`` (sorted ascending).

    A long list (a Rummoli betting decision offers up to a few hundred raise sizes) is
    bisected instead of scanned.
    """
    if len(options) < 16:
        return action in options
    index = bisect_left(options, action)
    return index < len(options) and options[index] == action


def apply_action(state: SteppableBase | Steppable, action: object) -> list[Event]:
    """Apply a legal action to ``state`` and return the events it caused; an illegal one
    raises :class:`IllegalActionError`, saying why, and changes nothing.

    ``action: object``: anything a caller sends (a JSON message, a bad record) gets the
    error that says why, never a bare ``TypeError``.
    """
    if type(action) is not int or not is_legal(state.options, action):
        raise IllegalActionError(why_illegal(state, action))
    state.actions.append(action)
    events: list[Event] = []
    state._step(action, events)
    return events


def why_illegal(state: SteppableBase | Steppable, action: object) -> str:
    """The reason ``action`` is refused: the game is over, it is not a whole number, or
    the game's own reason."""
    if state.to_move == TERMINAL:
        return "the game is over: no action is legal"
    if type(action) is not int:
        return f"an action is a whole number, not {action!r}"
    return state._refusal(action)


def legal_summary(options: list[int], to_text: Callable[[int], str]) -> str:
    """The first legal actions as text, for a refusal: ``"a, b, c"``, then ``" ..."``
    when there are more than :data:`SHOWN_LEGAL`."""
    legal = ", ".join(to_text(a) for a in options[:SHOWN_LEGAL])
    return legal + " ..." if len(options) > SHOWN_LEGAL else legal
