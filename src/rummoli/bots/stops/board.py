"""What a computer player reads of a game's board: its pay cards, by the layout.

The basic rules of thumb (:mod:`.basic`) value a hand by the spaces its cards would win;
the rollouts (:mod:`.rollout`) pay them as the engine does. Both ask this module, made
once per layout and trump suit from the engine's own tables (:mod:`rummoli.games.stops.tables`),
so that every game of the family is valued by its own board: Rummoli's five pay cards,
AKD and 789; Michigan's four boodles; Tripoley's hearts held at the deal.
"""

from __future__ import annotations

from typing import Final

from rummoli.games.stops import layout as lay
from rummoli.games.stops.layout import Layout
from rummoli.games.stops.tables import BoardTables, board_tables

#: Chips a player out pays per card, on average, when he pays by the points of his
#: cards (Nain Jaune): the mean of 1, 2..10, and three picture cards at 10.
MEAN_POINTS: Final = (1 + sum(range(2, 11)) + 30) / 13


class BoardValues:
    """A layout's board as the bots value it (read-only, shared)."""

    __slots__ = (
        "combos",
        "held",
        "kitty",
        "per_card",
        "plan",
        "poker",
        "singles",
        "tables",
    )

    def __init__(self, plan: Layout, trump: int) -> None:
        self.plan = plan
        self.tables = board_tables(plan, trump)
        singles: list[tuple[str, int]] = []
        combos: list[tuple[str, int]] = []
        held: list[tuple[str, int]] = []
        for space in plan.spaces:
            if space.role != lay.PAY:
                continue
            for way in lay.space_cards(space, trump):
                mask = 0
                for card in way:
                    mask |= 1 << card
                if space.when == lay.HELD:
                    held.append((space.name, mask))
                elif len(way) == 1:
                    singles.append((space.name, way[0]))
                else:
                    combos.append((space.name, mask))
        #: Played spaces of one card (name, card) and of several (name, mask), in board
        #: order; held spaces (name, mask of one way of holding it).
        self.singles = tuple(singles)
        self.combos = tuple(combos)
        self.held = tuple(held)
        self.poker = plan.spaces[0].name if plan.has_poker else ""
        self.kitty = plan.spaces[-1].name if plan.has_kitty else ""
        #: What the player out is paid per card the others hold, on average.
        self.per_card = (
            0.0
            if plan.going_out == lay.NONE
            else MEAN_POINTS
            if plan.going_out == lay.PER_POINT
            else 1.0
        )

    @property
    def pay_cards(self) -> int:
        return self.tables.pay_cards


#: The values of each board, by the engine's tables of it (the object: one per layout and
#: trump, so the engine's cache finds the board, and a key held here is never reused).
_VALUES: Final[dict[BoardTables, BoardValues]] = {}


def board_values(plan: Layout, trump: int = -1) -> BoardValues:
    """The values of ``plan``'s board with ``trump`` (-1: none), made once."""
    tables = board_tables(plan, trump)
    values = _VALUES.get(tables)
    if values is None:
        if len(_VALUES) > 1024:
            _VALUES.clear()
        values = _VALUES[tables] = BoardValues(plan, trump)
    return values


def tables_of(plan: Layout, trump: int = -1) -> BoardTables:
    return board_values(plan, trump).tables
