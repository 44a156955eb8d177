"""Each family game's terminal part by its name: ``rummoli.tui.stops.parts:<game>``.

A description names its interface parts by import path, imported only when an interface
asks (``docs/architecture.md``); the family's games share one terminal part, so this
module makes it for whichever game is asked for (PEP 562's module ``__getattr__``): a
game added to the family needs no line here.
"""

from __future__ import annotations

from rummoli.tui.game import TerminalPart
from rummoli.tui.stops import terminal_part


def __getattr__(game: str) -> TerminalPart:
    if game.startswith("__"):
        raise AttributeError(game)
    return terminal_part(game)
