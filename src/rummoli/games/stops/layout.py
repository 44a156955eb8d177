"""What a game of the Stops family declares: its board, deck, deal, leads and payments.

Rummoli, Michigan, Tripoley, Newmarket, Pope Joan, Poch and Nain Jaune are one game in
the shape of their play (a board staked before the deal, the pack dealt with a spare
hand, runs laid card by card until a stop, pay cards winning their space, first out
paid) and differ in data: which spaces, what wins each and when, who stakes how much,
the deck, the deal, whether there is a poker stage, how a new run starts. This module
is that data, as python-chess holds its variants: each game is a :class:`Layout` (with
its house rules applied: a game's rules object makes it, ``rules.layout()``), and one
engine (:mod:`.state` and its phase modules) plays every layout. Nothing in the engine
asks which game it plays; it reads the layout.

Cards of a space are written as text: ``"10S"`` one card, ``"K+"`` the king of trumps
(the suit of the card turned for trumps), ``"7*"`` a rank in any suit, every ``*`` card of
one space in the same suit (``("7*", "8*", "9*")``: the 7, 8 and 9 of one suit).

Two conventions keep the engine's hot paths short: the space the poker stage plays for
is the board's first (``role=POKER``), the kitty that the first player out takes its
last (``role=KITTY``); a board has at most one of each (checked here).

Standard library only, like the rest of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rummoli.cards import ACE, NUM_RANKS, RANKS, SUITS, parse_card

# What a space is for.
PAY: Final = "pay"
POKER: Final = "poker"
KITTY: Final = "kitty"
ROLES: Final = (PAY, POKER, KITTY)
# When a pay space pays: its cards laid in play, or held at the deal.
PLAYED: Final = "played"
HELD: Final = "held"
# How the cards of a space of several cards win it when played: laid one after another
# by one player (Rummoli's KD then AD), or all by one player at any time in the deal.
IN_A_ROW: Final = "in_a_row"
SAME_PLAYER: Final = "same_player"

# Decks: which cards are in the pack.
DECKS: Final = (52, 51, 32)
# Deals: every card one at a time (with a spare hand, or none), or a count each by the
# number of players and a talon.
ALL: Final = "all"
TABLE: Final = "table"
# Where the spare hand is dealt: after the dealer in each pass (Rummoli's widow), first
# (the hand "immediately to the left of the dealer", Michigan), or none.
AFTER_DEALER: Final = "after_dealer"
FIRST: Final = "first"
NONE: Final = "none"
# A card turned for trumps: none, the last card of the pack kept back (Pope Joan), or
# the top of the talon (Poch).
KEPT_BACK: Final = "kept_back"
TALON_TOP: Final = "talon_top"

# The poker stage: none, a showdown, a betting round; hands ranked as poker hands (best
# five) or by sets only (Poch: quads, trips, pairs; the higher rank; trumps break ties).
SHOWDOWN: Final = "showdown"
BETTING: Final = "betting"
FIVE_CARDS: Final = "five_cards"
SETS: Final = "sets"
# Who leads the first run: the poker stage's winner, the dealer, the dealer's left, or
# the holder of the lowest card of one suit (Newmarket's lowest club).
POKER_WINNER: Final = "poker_winner"
DEALER: Final = "dealer"
LEFT: Final = "left_of_dealer"
LOWEST_OF_SUIT: Final = "lowest_of_suit"
# The first card led.
LOWEST_IN_HAND: Final = "lowest_in_hand"
LOWEST_OF_ANY_SUIT: Final = "lowest_of_any_suit"
ANY_CARD: Final = "any_card"
# How runs go on: by suit (the next card of the suit) or by rank (Nain Jaune: any card
# of the next rank).
SUIT: Final = "suit"
RANK: Final = "rank"
# The lead after a stop, by the player who stopped (or the first who can).
LOWEST_OF_COLOUR: Final = "lowest_of_colour"
ANY_SUIT_OF_COLOUR: Final = "any_suit_of_colour"
LOWEST_OF_OTHER_SUITS: Final = "lowest_of_other_suits"
ANY_OTHER_SUIT: Final = "any_other_suit"
SWITCHES: Final = (
    LOWEST_OF_COLOUR,
    ANY_SUIT_OF_COLOUR,
    LOWEST_OF_OTHER_SUITS,
    ANY_OTHER_SUIT,
    LOWEST_OF_ANY_SUIT,
    ANY_CARD,
)
#: The leads after a stop where the player picks a suit and leads its lowest card.
BY_SUIT: Final = (ANY_SUIT_OF_COLOUR, ANY_OTHER_SUIT, LOWEST_OF_ANY_SUIT)
# Nobody can lead after a stop: the round ends, or the player who stopped (or the first
# clockwise who holds a card) leads his lowest card of any suit.
END_ROUND: Final = "end_round"
CONTINUE: Final = "continue"
# A rank nobody holds (rank mode): the sequence goes on from the next rank, or the last
# player starts a new one.
NEXT_RANK: Final = "next_rank"
NEW_SEQUENCE: Final = "new_sequence"
# What each other player pays the first player out: a chip a card, a chip a point of
# his cards (ace 1, picture cards 10), or nothing.
PER_CARD: Final = "per_card"
PER_POINT: Final = "per_point"
# A board card still held at the end of the round: nothing, the space's stake, or as
# many chips as lie on the space.
STAKE: Final = "stake"
DOUBLE: Final = "double"

# How the page draws the board (data for the interfaces; the engine never reads it):
# Rummoli's octagon round its centre, the pay spaces in a row with the pots beside them
# (Michigan's boodle cards and kitty), a grid of sections (Tripoley's nine), a round board
# of pools (Pope Joan's eight), four corners and a centre (Nain Jaune).
OCTAGON: Final = "octagon"
ROW: Final = "row"
SECTIONS: Final = "sections"
ROUND: Final = "round"
CORNERS: Final = "corners"
SHAPES: Final = (OCTAGON, ROW, SECTIONS, ROUND, CORNERS)

#: The layout's fields that are house rules of the same name, their values taken as they
#: are: the ones the games share (``common.py``), and Rummoli's (``games/rummoli/board.py``).
HOUSE_RULE_FIELDS: Final = (
    "starting_chips",
    "rounds",
    "short_ante",
    "widow",
    "pay_card_blocks_exchange",
    "auction",
    "poker",
    "bet_limit",
    "heads_up_raises",
    "lead",
    "switch_lead",
    "cant_lead_fine",
    "must_claim",
    "settlement",
    "high_card_tie",
    "settlement_betting",
)

#: The most players any game of the family seats (Tripoley: nine).
MAX_SEATS: Final = 9


class LayoutError(ValueError):
    """A layout that the engine cannot play (a programming error in a description)."""


@dataclass(frozen=True, slots=True)
class Space:
    """One space of a board: what wins it, when it pays, and who stakes it how much."""

    name: str
    #: The cards that win it (see the module docstring); empty for a pot.
    cards: tuple[str, ...] = ()
    role: str = PAY
    when: str = PLAYED
    #: For several cards played: :data:`IN_A_ROW` or :data:`SAME_PLAYER`.
    together: str = IN_A_ROW
    #: Chips each player dealt in puts on it before the deal, and the dealer's more.
    stake: int = 1
    dealer_stake: int = 0
    #: Whether a player may put his chosen chips here (Newmarket's horses).
    chosen: bool = False
    #: Held by several players (cards in any suit): they share it; else the first from
    #: the dealer's left takes it.
    split: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """One game of the family under its house rules, as the engine plays it.

    The fields named as Rummoli's house rules mean what those mean (``docs/rules.md``);
    the others are listed with the module's constants.
    """

    #: The game's name in records and views (``rummoli``, ``michigan``...).
    game: str
    spaces: tuple[Space, ...]
    #: The game's name for people, in messages (``Rummoli``), and its seats.
    title: str = ""
    min_players: int = 2
    max_players: int = MAX_SEATS
    deck: int = 52
    ace_low: bool = False
    deal: str = ALL
    #: For :data:`TABLE` deals: (players, cards each), for each number of players.
    deal_counts: tuple[tuple[int, int], ...] = ()
    spare: str = AFTER_DEALER
    trump: str = NONE
    #: Chips each player places on the spaces marked ``chosen``, one at a time.
    chosen_stake: int = 0
    starting_chips: int = 100
    short_ante: str = "out"
    rounds: int = 0
    rules_version: int = 2
    widow: str = "none"
    auction: str = "one_round"
    auction_optional: bool = False
    pay_card_blocks_exchange: bool = False
    #: A card turned for trumps that wins a single-card space pays it to the dealer;
    #: those spaces whose card, turned, also gives him the kitty and ends the deal.
    turned_pays_dealer: bool = False
    turned_ends_deal: tuple[str, ...] = ()
    poker: str = NONE
    #: Who opens the betting: the dealer's left, or the dealer.
    poker_opener: str = LEFT
    hands: str = FIVE_CARDS
    #: Only a player holding a set may bet first (Poch: "ich poche").
    open_with_set: bool = False
    #: Nobody bets: the poker space stays (``False``), or the best hand shows and takes it.
    unopened_showdown: bool = False
    bet_limit: str | int = "no_limit"
    heads_up_raises: str = "capped"
    leader: str = LEFT
    #: For :data:`LOWEST_OF_SUIT`: the suits to look in, in order (clubs, then ...).
    lead_suits: tuple[int, ...] = ()
    lead: str = LOWEST_IN_HAND
    play: str = SUIT
    switch_lead: str = LOWEST_OF_COLOUR
    cant_lead_fine: int = 0
    deadlock: str = END_ROUND
    missing_rank: str = NEXT_RANK
    must_claim: bool = False
    going_out: str = PER_CARD
    held_board_cards: str = NONE
    #: Going out before any other player laid a card takes the whole board.
    grand_opera: bool = False
    settlement: str = "one_poker_hand"
    settlement_betting: bool = False
    high_card_tie: str = "split"
    #: The key of a round's winner in a scenario's answer (Rummoli's: ``rummoli_winner``),
    #: and the play of the runs as messages name it (Rummoli's: "the Rummoli phase").
    winner_key: str = "winner"
    play_phase: str = "the play"
    #: How the interfaces draw the board (:data:`SHAPES`), and what the game calls its
    #: spare hand (Rummoli's "widow", Michigan's "spare hand", Tripoley's "dead hand"):
    #: presentation declared as data, so that no interface asks which game it shows.
    board_shape: str = ROW
    spare_word: str = "widow"

    def __post_init__(self) -> None:
        check_layout(self)

    # ------------------------------------------------------------------ read by the engine

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(space.name for space in self.spaces)

    @property
    def has_poker(self) -> bool:
        return bool(self.spaces) and self.spaces[0].role == POKER

    @property
    def has_kitty(self) -> bool:
        return bool(self.spaces) and self.spaces[-1].role == KITTY

    @property
    def uniform_ante(self) -> bool:
        """Whether everyone stakes one chip on every space and nothing else (Rummoli's
        ante, paid in one pass)."""
        return not self.chosen_stake and all(
            s.stake == 1 and not s.dealer_stake for s in self.spaces
        )

    def ante(self, dealer: bool) -> int:
        """The chips a player puts on the board before the deal (the dealer's, or
        another's), chosen chips included."""
        stake = sum(s.stake + (s.dealer_stake if dealer else 0) for s in self.spaces)
        return stake + self.chosen_stake

    @property
    def fewest_dealt(self) -> int:
        """The fewest players a deal is for: two, or for a deal by table the fewest its
        counts name (Nain Jaune's table starts at three: with two players left who can
        pay, the game ends as it does with one)."""
        if self.deal == TABLE and self.deal_counts:
            return min(players for players, _ in self.deal_counts)
        return 2

    def deck_mask(self) -> int:
        """The cards of the pack: 52, 51 without the 8 of diamonds, or 32 (7 to ace)."""
        if self.deck == 52:
            return (1 << 52) - 1
        if self.deck == 51:
            return ((1 << 52) - 1) ^ (1 << parse_card("8D"))
        return sum(1 << (suit * NUM_RANKS + rank) for suit in range(4) for rank in range(5, 13))

    def rank_order(self, card: int) -> int:
        """A card's place in its suit, 0 for the lowest (the ace, when aces are low)."""
        rank = card % NUM_RANKS
        if self.ace_low:
            return 0 if rank == ACE else rank + 1
        return rank


def check_layout(layout: Layout) -> None:
    """Refuse a layout the engine cannot play, naming what is wrong."""
    where = f"layout {layout.game!r}"
    if layout.deck not in DECKS:
        raise LayoutError(f"{where}: deck must be one of {DECKS}")
    names = [s.name for s in layout.spaces]
    if len(set(names)) != len(names) or "all" in names:
        raise LayoutError(f"{where}: space names must differ (and none be 'all')")
    for index, space in enumerate(layout.spaces):
        if space.role not in ROLES or space.when not in (PLAYED, HELD):
            raise LayoutError(f"{where}: space {space.name} has an unknown role or time")
        if space.role == POKER and index != 0:
            raise LayoutError(f"{where}: the poker space must be the board's first")
        if space.role == KITTY and index != len(layout.spaces) - 1:
            raise LayoutError(f"{where}: the kitty must be the board's last")
        if (space.role == PAY) != bool(space.cards):
            raise LayoutError(f"{where}: a pay space has cards, a pot none ({space.name})")
        for text in space.cards:
            card_pattern(text)
        if space.stake < 0 or space.dealer_stake < 0:
            raise LayoutError(f"{where}: a stake cannot be negative ({space.name})")
    if layout.poker != NONE and not layout.has_poker:
        raise LayoutError(f"{where}: a poker stage needs a poker space")
    if layout.cant_lead_fine and not layout.has_kitty:
        raise LayoutError(f"{where}: a fine for not leading goes on a kitty")
    if layout.deal == TABLE and not layout.deal_counts:
        raise LayoutError(f"{where}: a deal by table needs the counts")
    if layout.deal == TABLE:
        counts = dict(layout.deal_counts)
        missing = [n for n in range(layout.min_players, layout.max_players + 1) if n not in counts]
        if missing:
            raise LayoutError(f"{where}: the deal's table has no count for {missing} players")
        if any(n * each > layout.deck for n, each in counts.items()):
            raise LayoutError(f"{where}: the deal's table deals more cards than the pack holds")
    if layout.chosen_stake and not any(s.chosen for s in layout.spaces):
        raise LayoutError(f"{where}: chosen stakes need spaces to choose")
    if not 1 <= layout.min_players <= layout.max_players <= MAX_SEATS:
        raise LayoutError(f"{where}: seats must be from 1 to {MAX_SEATS}")
    if layout.board_shape not in SHAPES:
        raise LayoutError(f"{where}: board shape must be one of {SHAPES}")
    if layout.switch_lead not in SWITCHES:
        raise LayoutError(f"{where}: unknown lead after a stop {layout.switch_lead!r}")


def card_pattern(text: str) -> tuple[int, int]:
    """``(rank, suit)`` of a space's card text: suit -1 for trumps (``+``), -2 for any
    suit (``*``)."""
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS + "+*":
        raise LayoutError(f"a space's card is a rank and a suit, + or *, not {text!r}")
    suit = text[1]
    return RANKS.index(text[0]), -1 if suit == "+" else -2 if suit == "*" else SUITS.index(suit)


def space_cards(space: Space, trump: int) -> list[tuple[int, ...]]:
    """The ways of holding or playing the cards of ``space`` when ``trump`` is the trump
    suit (-1: none): each a tuple of cards, in the space's order. A space of cards in
    any suit has one way per suit; a space of trumps has none without trumps."""
    patterns = [card_pattern(text) for text in space.cards]
    suits = (0, 1, 2, 3) if any(suit == -2 for _, suit in patterns) else (0,)
    ways = []
    for any_suit in suits:
        cards = []
        for rank, suit in patterns:
            if suit == -1:
                if trump < 0:
                    return []
                suit = trump
            elif suit == -2:
                suit = any_suit
            cards.append(suit * NUM_RANKS + rank)
        ways.append(tuple(cards))
    return ways
