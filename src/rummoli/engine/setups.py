"""What the games' setups share: finding the fixed cards of a later deal of a scenario.

A scenario of a whole game (``docs/scenarios.md``) may fix the cards of each deal after
the first (``later_deals``: a position or a deck each); a deal it does not list, or
lists with neither, is dealt by the seed. Both games' setups look a deal up that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class FixedCards(Protocol):
    """A later deal of a setup: the hands it fixes, or the deck it is dealt from."""

    @property
    def hands(self) -> tuple[tuple[int, ...], ...] | None: ...

    @property
    def deck(self) -> tuple[int, ...] | None: ...


D = TypeVar("D", bound=FixedCards)


def later_deal(later_deals: Sequence[D], number: int) -> D | None:
    """Deal ``number`` (from 2: the first is the setup's own) of ``later_deals``; None
    past the list's end, or where the deal fixes no cards: the seed deals it."""
    index = number - 2
    if index >= len(later_deals):
        return None
    deal = later_deals[index]
    return None if deal.hands is None and deal.deck is None else deal
