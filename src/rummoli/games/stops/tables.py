"""The tables a layout fixes for the engine's hot paths, made once per layout and trump.

The run of laid cards (:mod:`.runs`) looks up, for each card laid, the space it wins,
whether it needs a closer look, the card that follows it and who holds that; after a
stop, which cards may lead. Those answers depend only on the layout (its board, deck,
ace high or low, the lead after a stop) and, for boards of trumps, on the trump suit of
the deal, so they are tables made once (:func:`board_tables`, remembered per layout and
trump) and read by index: the same work for Rummoli's fixed board as the constants the
engine had before the family shared it.
"""

from __future__ import annotations

from typing import Final

from rummoli.cards import ACE, BLACK_MASK, FULL_DECK, KING, NUM_RANKS, RED_MASK, SUIT_FIELD
from rummoli.games.stops.betting import NO_LIMIT, POT_LIMIT
from rummoli.games.stops.layout import (
    ANY_CARD,
    ANY_OTHER_SUIT,
    HELD,
    IN_A_ROW,
    LOWEST_OF_ANY_SUIT,
    LOWEST_OF_COLOUR,
    LOWEST_OF_OTHER_SUITS,
    PAY,
    PLAYED,
    RANK,
    Layout,
    space_cards,
)

#: In ``single_space``: laying the card wins no single-card space.
NO_SPACE: Final = -1
#: In ``lay_space``: the card may complete a space of several cards (look closer).
COMBO: Final = -3
#: From :func:`.runs.space_for`: the card wins more than one space.
MANY: Final = -4

#: The cards of each suit, as a mask.
SUIT_MASKS: Final = tuple(SUIT_FIELD << (suit * NUM_RANKS) for suit in range(4))


class BoardTables:
    """What one layout (and trump suit) fixes for every card; read-only, shared."""

    __slots__ = (
        "by_rank",
        "chosen",
        "combos",
        "deck",
        "full_ante",
        "heads_up",
        "held",
        "kitty",
        "lay_space",
        "legacy",
        "limit",
        "next_card",
        "open_auction",
        "optional_auction",
        "pay_cards",
        "pay_combos",
        "single_lead",
        "single_space",
        "space_index",
        "spaces",
        "special",
        "switch",
        "tops",
        "uniform_ante",
    )

    def __init__(self, layout: Layout, trump: int) -> None:
        self.spaces = layout.names
        self._house_rules(layout)
        self.space_index = {name: i for i, name in enumerate(self.spaces)}
        self.deck = layout.deck_mask()
        #: The ante, asked at every deal: whether it is one chip a space from everyone
        #: (Rummoli's, paid in one pass), and the most a player stakes (the dealer's).
        self.uniform_ante = layout.uniform_ante
        self.full_ante = layout.ante(dealer=True)
        #: For each card: the single-card space laying it wins (played), or NO_SPACE.
        single = [NO_SPACE] * 52
        #: For each card: the spaces of several cards it may complete when laid, each
        #: (space, its cards in order, whether one after another by one player).
        combos: list[list[tuple[int, tuple[int, ...], bool]]] = [[] for _ in range(52)]
        #: The held spaces: (space, the ways of holding it, split among holders).
        held: list[tuple[int, tuple[tuple[int, ...], ...], bool]] = []
        pay_cards = 0
        pay_combos: list[int] = []
        for index, space in enumerate(layout.spaces):
            if space.role != PAY:
                continue
            ways = space_cards(space, trump)
            if space.when == HELD:
                held.append((index, tuple(ways), space.split))
            for way in ways:
                if len(way) == 1:
                    pay_cards |= 1 << way[0]
                    if space.when == PLAYED:
                        single[way[0]] = index
                    continue
                mask = 0
                for card in way:
                    mask |= 1 << card
                pay_combos.append(mask)
                if space.when != PLAYED:
                    continue
                in_a_row = space.together == IN_A_ROW
                for card in way[-1:] if in_a_row else way:
                    combos[card].append((index, way, in_a_row))
        self.single_space = single
        self.combos = tuple(tuple(c) for c in combos)
        self.held = tuple(held)
        #: Cards that are a pay card held alone, and the masks of those held together:
        #: a hand "contains a pay card" (``pay_card_blocks_exchange``) when it holds one
        #: of the first or all of one of the second.
        self.pay_cards = pay_cards
        self.pay_combos = tuple(pay_combos)
        #: For each card: its single space, NO_SPACE, or COMBO (look closer).
        self.lay_space = tuple(COMBO if combos[card] else single[card] for card in range(52))
        tops = 0
        next_card = [-1] * 52
        for card in range(52):
            rank = card % NUM_RANKS
            top = KING if layout.ace_low else ACE
            if rank == top:
                tops |= 1 << card
            elif layout.ace_low and rank == ACE:
                next_card[card] = card - ACE  # the two of its suit
            else:
                next_card[card] = card + 1
        #: The top card of each suit (a run stops on it), and each card's next one.
        self.tops = tops
        self.next_card = tuple(next_card)
        low_aces = 0
        if layout.ace_low:
            low_aces = sum(1 << (suit * NUM_RANKS + ACE) for suit in range(4))
        #: Cards that take the slower path of a run: tops, aces low (their next card is
        #: not ``card + 1``), and every card that may win a space.
        self.special = (
            tops | low_aces | pay_cards | sum(1 << card for card in range(52) if combos[card])
        )
        #: For each card: the cards that may lead after a stop on it.
        self.switch = tuple(_switch_mask(layout.switch_lead, card) for card in range(52))

    def _house_rules(self, plan: Layout) -> None:
        """The house rules the phases read every round or bid, in the form the state
        keeps them; read here once per layout, not by every new state (at 2 seats a game
        lasts a few rounds, so its start is a good part of its cost)."""
        #: Whether the runs go by rank (Nain Jaune), and aces are low.
        self.by_rank = plan.play == RANK
        #: The kitty's space (-1: none).
        self.kitty = len(plan.spaces) - 1 if plan.has_kitty else -1
        #: Whether the lead after a stop is forced whenever one card is lowest (the
        #: lowest of the cards allowed, aces high, nothing to claim).
        self.single_lead = (
            plan.switch_lead in (LOWEST_OF_COLOUR, LOWEST_OF_OTHER_SUITS)
            and not plan.must_claim
            and not plan.ace_low
        )
        limit = plan.bet_limit
        code = NO_LIMIT if limit == "no_limit" else POT_LIMIT if limit == "pot_limit" else limit
        assert isinstance(code, int)
        #: The betting's limit (Betting.limit), and whether a fixed limit lets two players
        #: raise without a cap (``heads_up_raises``).
        self.limit = code
        self.heads_up = plan.heads_up_raises == "unlimited"
        #: Whether the game plays rules version 1 where version 2 changed them.
        self.legacy = plan.rules_version < 2
        self.open_auction = plan.auction == "open"
        #: Whether the dealer who keeps his hand may leave the widow out of auction.
        self.optional_auction = plan.auction_optional and plan.widow == "exchange_or_auction"
        #: The spaces that take chips placed by choice (the action codec's).
        self.chosen = tuple(s.name for s in plan.spaces if s.chosen and plan.chosen_stake)


def _switch_mask(switch: str, card: int) -> int:
    suit = card // NUM_RANKS
    if switch in (LOWEST_OF_OTHER_SUITS, ANY_OTHER_SUIT):
        return FULL_DECK ^ SUIT_MASKS[suit]
    if switch in (ANY_CARD, LOWEST_OF_ANY_SUIT):
        return FULL_DECK
    return BLACK_MASK if suit in (1, 2) else RED_MASK


#: (the layout's id, trump) -> (the layout, its tables).
_TABLES: Final[dict[tuple[int, int], tuple[Layout, BoardTables]]] = {}


def board_tables(layout: Layout, trump: int = -1) -> BoardTables:
    """The tables of ``layout`` with ``trump`` (-1: none), made once per process: a
    learning environment builds a state for every deal, and making them was a third of
    a new state's cost. No state writes into them.

    Found by the layout object itself (each game's rules make theirs once), not by
    hashing its many fields on every deal; the layout kept with them keeps its id."""
    key = (id(layout), trump)
    entry = _TABLES.get(key)
    if entry is None or entry[0] is not layout:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        entry = _TABLES[key] = (layout, BoardTables(layout, trump))
    return entry[1]


def holds_pay_card(hand: int, pay_cards: int, pay_combos: tuple[int, ...]) -> bool:
    """Whether a hand "contains a pay card" in the sense of ``pay_card_blocks_exchange``:
    a single pay card, or every card of a pay space of several (Rummoli: AD and KD, or
    the 7, 8 and 9 of one suit)."""
    if hand & pay_cards:
        return True
    for mask in pay_combos:  # noqa: SIM110 (a plain loop: asked for each seat a deal)
        if hand & mask == mask:
            return True
    return False
