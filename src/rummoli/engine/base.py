"""What every game of the project shares: the decision protocol, errors, and records.

A game state answers the same questions whatever the game: whose decision it is (a seat,
or chance), which actions are legal (sorted integers, in canonical order), what applying
one action caused (a list of events), what one seat or a spectator may see, and how to
write the whole game down so that it replays exactly. Interfaces, bots and simulations
are written against this protocol only, so a second game (Basic Rummy) plugs in beside
Rummoli without touching them.
"""

from __future__ import annotations

from typing import Any, Protocol, Self

#: ``current_player()`` when the next step is the game's own random draw (a cut, a shuffle).
CHANCE = -1
#: ``current_player()`` once the game is over.
TERMINAL = -2
#: The one legal action at a chance node: "let the game's seeded generator decide".
CHANCE_ACTION = 0

#: An event is a small tuple whose first item names its kind. Tuples, not objects, because
#: a simulation creates millions of them; each game converts them to JSON for people.
Event = tuple[Any, ...]


class GameError(ValueError):
    """Base of every error a game raises for bad input; the message names the problem."""


class IllegalActionError(GameError):
    """An action that is not legal now. The state is left exactly as it was."""


class SetupError(GameError):
    """Settings, a position or a record that do not describe a valid game."""


class GameState(Protocol):
    """The protocol every game state of the project implements."""

    def current_player(self) -> int:
        """The seat to decide, :data:`CHANCE`, or :data:`TERMINAL`."""
        ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[int]:
        """Legal actions, sorted ascending: that order is the canonical order."""
        ...

    def apply(self, action: int) -> list[Event]:
        """Apply one action and return the events it caused (forced follow-ups included)."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON-ready data."""
        ...

    def observation(self, seat: int | None) -> Any:
        """The same knowledge as :meth:`view`, as a typed object cheap enough for bots."""
        ...

    def clone(self) -> Self: ...

    def record(self) -> dict[str, Any]:
        """A JSON-ready record (rules, seed, setup, actions) that replays this game exactly."""
        ...

    def action_to_text(self, action: int) -> str: ...

    def action_from_text(self, text: str) -> int: ...

    def num_distinct_actions(self) -> int:
        """Size of the fixed integer action space (all actions are in ``range`` of it)."""
        ...
