"""What every game state shares: the protocol's reading methods, the end a table asks
for, the seed's check, the draws from the seed and the field-by-field copy.

Why one base: Basic Rummy's state and the Stops family's state are written alike for
everything that is not their rules. A state is a seat to move (or CHANCE, or TERMINAL),
its legal actions and the actions applied so far (:class:`~.apply.SteppableBase`),
plus the seed every shuffle comes from and whether the table asked to stop. That part
lives here once; each game's state names :class:`GameStateBase` as its base and keeps
its rules, its fields and what it shows.

Both states are compiled by mypyc, so this module is too (``rummoli.compiled``): a
native base class, whose attributes (declared below, held in the state's ``__slots__``
when it runs as plain Python) and methods the compiled states reach natively.
"""

from __future__ import annotations

from typing import Final

from rummoli.engine.apply import SteppableBase
from rummoli.engine.base import CHANCE, CHANCE_ACTION, TERMINAL, SetupError
from rummoli.engine.rng import shuffled_deck


def checked_seed(seed: object) -> int:
    """``seed`` if it is a whole number, else a SetupError that names it.

    A state takes ``seed: object`` and checks it here: a seed read from JSON may be
    anything, and with ``seed: int`` a module compiled by mypyc would raise a bare
    TypeError before any check."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"seed must be a whole number, not {seed!r}")
    return seed


def copy_fields(source: object, target: object, fields: tuple[str, ...]) -> None:
    """Copy ``fields`` of ``source`` onto ``target``, its lists and dicts as new ones:
    a state's ``clone``, far cheaper than ``deepcopy`` (everything else a state holds
    is immutable or replaced whole, never changed in place)."""
    for name in fields:
        value = getattr(source, name)
        if type(value) is list:
            value = value[:]
        elif type(value) is dict:
            value = dict(value)
        setattr(target, name, value)


#: The fields :class:`GameStateBase` holds (its slots): a state's ``clone`` copies them
#: with its own (:data:`STATE_BASE_FIELDS` + the state's fields, in :func:`copy_fields`).
STATE_BASE_FIELDS: Final = (
    "actions",
    "draws",
    "end_requested",
    "end_requested_after",
    "options",
    "seed",
    "to_move",
)


class GameStateBase(SteppableBase):
    """The base of a game's state: the protocol's seat, legal actions and end.

    It holds the fields every state has (:data:`STATE_BASE_FIELDS`, among them the
    three that :class:`~.apply.SteppableBase` declares); the state declares its own in
    its ``__slots__``.
    """

    __slots__ = STATE_BASE_FIELDS

    #: The game's seed: the cut, every shuffle and every settlement deal come from it.
    seed: int
    #: How many draws from the seed so far (each draw's deck is the seed's, numbered).
    draws: int
    #: Whether the table asked to stop, and after how many actions (a record keeps it).
    end_requested: bool
    end_requested_after: int | None

    def _start_protocol(self) -> None:
        """A game not begun: chance moves first (the cut or the first deal), no action
        applied, no draw made, no end asked for."""
        self.to_move = CHANCE
        self.options = [CHANCE_ACTION]
        self.actions = []
        self.end_requested = False
        self.end_requested_after = None
        self.draws = 0

    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def legal_actions(self) -> list[int]:
        return self.options[:]

    def request_end(self) -> None:
        """The table asks to stop: the game ends after the deal being played."""
        if not self.end_requested:
            self.end_requested = True
            self.end_requested_after = len(self.actions)

    def _draw_deck(self, purpose: int) -> list[int]:
        """The whole 52 cards shuffled by the game's seed, for one draw (its purpose and
        number), so that a record's seed remakes every deal."""
        self.draws += 1
        return shuffled_deck(self.seed, purpose, self.draws)
