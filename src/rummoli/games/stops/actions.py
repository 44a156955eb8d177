"""The integer action space of the family's games, and actions as text.

Integers are fixed per game: learning environments and fast simulations index arrays by
them. Their numeric order is the canonical order, chosen so that "the first legal action"
is the natural default: keep the hand, pass in the auction, check (else call), and among
cards the lowest by rank, then suit C < D < H < S; laying a pay card without claiming
comes before claiming it.

==========  =================================================
value       meaning
==========  =================================================
0           chance: the game's seeded generator decides
1, 2        KEEP the hand / EXCHANGE it for the widow (dealer)
3           PASS in the auction
4, 5, 6     CHECK, CALL, FOLD
7           NO_AUCTION: keep the hand, and no auction (``auction_optional``)
8 + k       LAY the card of canonical order key k (0..51)
60 + k      LAY that card and CLAIM its space (``must_claim``)
112 + n     BID n chips for the widow (n >= 1)
R + n       RAISE_TO n: bet or raise so that one's total bet is n
S + i       STAKE a chip on the i-th space that takes chosen chips (Newmarket's horses)
==========  =================================================

with ``R = 112 + max_chips + 1``, ``max_chips`` being all chips in the game, and
``S = R + max_chips + 1``: a game without chosen stakes has exactly Rummoli's actions.
"""

from __future__ import annotations

from typing import Final

from rummoli.cards import CardError, card_from_order_key, card_str, order_key, parse_card
from rummoli.engine.base import CHANCE_ACTION, IllegalActionError

KEEP: Final = 1
EXCHANGE: Final = 2
PASS: Final = 3
CHECK: Final = 4
CALL: Final = 5
FOLD: Final = 6
NO_AUCTION: Final = 7
LAY_BASE: Final = 8
CLAIM_BASE: Final = 60
BID_BASE: Final = 112

_WORDS: Final = {CHANCE_ACTION: "deal", KEEP: "keep", EXCHANGE: "exchange", PASS: "pass"}
_WORDS.update({CHECK: "check", CALL: "call", FOLD: "fold", NO_AUCTION: "no_auction"})
_BY_WORD: Final = {word: action for action, word in _WORDS.items()}


def lay_action(card: int) -> int:
    return LAY_BASE + order_key(card)


def claim_action(card: int) -> int:
    return CLAIM_BASE + order_key(card)


def is_lay(action: int) -> bool:
    return LAY_BASE <= action < BID_BASE


def lay_card(action: int) -> int:
    """The card of a LAY or LAY-and-CLAIM action."""
    base = CLAIM_BASE if action >= CLAIM_BASE else LAY_BASE
    return card_from_order_key(action - base)


class ActionCodec:
    """Encodes and decodes the actions of one game (their space depends on its chips,
    and on the spaces that take chosen chips, named in ``stake_spaces``)."""

    __slots__ = ("max_chips", "raise_base", "size", "stake_base", "stake_spaces")

    def __init__(self, max_chips: int, stake_spaces: tuple[str, ...] = ()) -> None:
        self.max_chips = max_chips
        self.raise_base = BID_BASE + max_chips + 1
        self.stake_base = self.raise_base + max_chips + 1
        self.stake_spaces = stake_spaces
        self.size = self.stake_base + len(stake_spaces)

    def stake(self, index: int) -> int:
        """STAKE a chip on the ``index``-th space that takes chosen chips."""
        return self.stake_base + index

    def bid(self, amount: int) -> int:
        return BID_BASE + amount

    def raise_to(self, amount: int) -> int:
        return self.raise_base + amount

    def to_text(self, action: int) -> str:
        """Short text of an action: ``keep``, ``bid 5``, ``raise 20``, ``3H``, ``QC claim``."""
        if action in _WORDS:
            return _WORDS[action]
        if LAY_BASE <= action < CLAIM_BASE:
            return card_str(lay_card(action))
        if CLAIM_BASE <= action < BID_BASE:
            return card_str(lay_card(action)) + " claim"
        if BID_BASE <= action < self.raise_base:
            return f"bid {action - BID_BASE}"
        if self.raise_base <= action < self.stake_base:
            return f"raise {action - self.raise_base}"
        if self.stake_base <= action < self.size:
            return f"stake {self.stake_spaces[action - self.stake_base]}"
        raise IllegalActionError(f"{action} is not an action of this game")

    def from_text(self, text: str) -> int:
        """Parse the text of :meth:`to_text` (``bet N`` is accepted for ``raise N``)."""
        if not isinstance(text, str):
            raise IllegalActionError(f"an action must be text, not {text!r}")
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in _BY_WORD:
            return _BY_WORD[words[0]]
        if len(words) == 2 and words[0] == "stake":
            names = [name.lower() for name in self.stake_spaces]
            if words[1] not in names:
                raise IllegalActionError(
                    f"{text!r}: chips are staked on {', '.join(self.stake_spaces) or 'no space'}"
                )
            return self.stake(names.index(words[1]))
        if len(words) == 2 and words[0] in ("bid", "raise", "bet"):
            if not words[1].isdigit():
                raise IllegalActionError(f"{text!r}: the amount must be a whole number")
            amount = int(words[1])
            if amount > self.max_chips:
                raise IllegalActionError(f"{text!r}: more chips than the game holds")
            return self.bid(amount) if words[0] == "bid" else self.raise_to(amount)
        if words and len(words) <= 2 and (len(words) == 1 or words[1] == "claim"):
            try:
                card = parse_card(words[0])
            except CardError as error:
                raise IllegalActionError(f"unknown action {text!r}: {error}") from None
            return claim_action(card) if len(words) == 2 else lay_action(card)
        raise IllegalActionError(f"unknown action {text!r}")
