"""Basic Rummy's stalemates: when a hand ends with nobody out.

"If the stock runs out a second time, or all players have only one card left and there
are no possible lay offs, the hand is a stalemate" (the seed). The engine ends a hand in a
stalemate for either reason; this module holds the second test, which must be *sound*:
it never ends a hand that some sequence of moves could still win.
"""

from __future__ import annotations

from rummoli.cards import FULL_DECK
from rummoli.games.rummy.melds import can_form_meld

#: Why a hand ended in a stalemate: the stock ran out a second time (or ran out with an
#: empty discard pile), or the engine found that nobody can ever go out.
STOCK_OUT = "stock"
BLOCKED = "blocked"


def nobody_can_go_out(hands: list[int], melds: list[int], fits: list[int]) -> bool:
    """Whether it is certain, at the start of a turn (before the draw), that no player can
    ever go out: the engine's stalemate detection.

    It answers yes when (a) no card outside the melds (in a hand, the stock or the discard
    pile) can be laid off on any meld on the table, and (b) no new meld can ever be made:
    every player holds one card, or no three cards outside the melds form a meld.

    Why this is sound (never yes while someone could still go out). Suppose (a) and (b)
    hold at the start of a turn. The player to move draws and holds h + 1 cards, h >= 1
    being what he held (a player with no card has already won). He cannot lay off, by (a).
    He cannot meld: with h = 1 he has 2 cards and a meld needs 3, and if no three cards
    outside the melds form a meld, no three of his do. So he can only discard, and ends his
    turn with h cards again, at least one, not out. The table is unchanged (only melds and
    lay-offs change it), and the cards outside the melds are the same set, moved between
    hands, stock and discard pile (a reshuffle too only moves them), so (a) and (b) hold at
    the next turn's start as well, and by induction at every later turn: nobody ever goes
    out. Both are checked on all the cards outside the melds, not on what a player could
    actually collect, so they may miss a hopeless hand, but never call a live one dead.
    The seed's example, "all players have only one card left, and there are no possible
    lay offs", is (a) with the first case of (b).
    """
    table = 0
    reach = 0
    for meld, fit in zip(melds, fits, strict=True):
        table |= meld
        reach |= fit
    outside = FULL_DECK & ~table
    if reach & outside:
        return False
    if all(hand.bit_count() <= 1 for hand in hands):
        return True
    return not can_form_meld(outside)
