"""The names every part of the family's state shares: phases, where a card is, the
purposes of the seeded draws, and one table of card bits.

Why a module of its own: the state's rules are split by phase (:mod:`.deal`,
:mod:`.widow`, :mod:`.poker_phase`, :mod:`.stops`, :mod:`.round_end`) around the state
core (:mod:`.state`), and all of them read these names. Kept here, below all of them, the
phase modules need not import the core at run time (they name it for the type checker
only), so the modules import one another without a cycle. :mod:`.state` re-exports them.
Each is ``Final`` one by one: compiled code then reads them as constants.
"""

from __future__ import annotations

from typing import Final

# Phases.
START: Final = 0
WIDOW: Final = 1
AUCTION: Final = 2
BETTING: Final = 3
PLAY: Final = 4
NEXT_ROUND: Final = 5
OVER: Final = 6
#: The settlement's betting round (house rule ``settlement_betting``), at the game's end.
SETTLE: Final = 7
#: Chips placed by choice before the deal (Newmarket's horses).
STAKE: Final = 8
PHASE_NAMES: Final = (
    "start",
    "widow",
    "auction",
    "betting",
    "play",
    "next_round",
    "over",
    "settlement",
    "stake",
)

# Where a card is, in ``owner``: a seat (>= 0), the widow (the spare hand, or the talon
# of a deal by counts), laid, not in the pack (Pope Joan's 8 of diamonds, Poch's twos to
# sixes), or turned face up for trumps.
IN_WIDOW: Final = -1
LAID: Final = -2
REMOVED: Final = -3
TURNED: Final = -4

# Purposes of the seeded draws (see rummoli.engine.rng).
DRAW_CUT: Final = 1
DRAW_DEAL: Final = 2
DRAW_SETTLE: Final = 3

#: ``BIT[card]``: the card's bit in a hand mask.
BIT: Final = tuple(1 << card for card in range(52))
