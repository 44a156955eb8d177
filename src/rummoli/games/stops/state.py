"""A whole game of the Stops family as a state machine: the state's core.

One class plays every game of the family (Rummoli, Michigan, Tripoley, Newmarket, Pope
Joan, Poch, Nain Jaune): what differs between them is the game's :class:`~.layout.Layout`,
which its rules object makes (``rules.layout()``) and the state reads into its fields and
tables (:mod:`.tables`) once. ``RummoliState`` is the same class under its first name.

The state asks for a decision only where a player has a real choice; everything the rules
force (the only card that may be laid, a pass by a player who may not bid, an ante) is
done inside :meth:`RummoliState.apply`, which returns every event it caused. Chance (the
cut, the shuffle, the settlement deals) is an explicit step whose outcome comes from the
game's own seed, so a record of rules, setup, seed and actions replays the game exactly.

Cards are ints and hands are 52-bit masks (see :mod:`rummoli.cards`); ``owner[card]``
says where each card is, so finding who must lay the next card of a run is one lookup.

This module holds the core: the state's fields, its construction, the protocol
(:meth:`~RummoliState.apply` through the shared :func:`rummoli.engine.apply.apply_action`,
and the dispatch of an action to its phase), copying and reading the state. The rules
are split by phase, one module each, so that each can be read on its own; each is a
set of functions taking the state as their first argument (compiled, native calls):

- :mod:`.deal`: the chance step that opens a round (eliminations, cut, ante, deal);
- :mod:`.widow`: the dealer's exchange and the auction of the widow;
- :mod:`.poker_phase`: the showdown or the betting (pot arithmetic in :mod:`.betting`);
- :mod:`.stake`: chips placed by choice before the deal (Newmarket's horses);
- :mod:`.runs`: the runs of laid cards by suit, stops and the deadlock; :mod:`.ranks`:
  the runs by rank (Nain Jaune);
- :mod:`.round_end`: the round's winner paid, the settlement at the game's end;
- :mod:`.settlement`: the settlement played with betting (house rule
  ``settlement_betting``; not compiled: it runs once a game);
- :mod:`.position`: a scenario position's history checked by replaying it;
- :mod:`.constants`: the phases and other names they all share (re-exported here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Protocol

from rummoli.cards import cards_of
from rummoli.engine.apply import apply_action, legal_summary
from rummoli.engine.base import CHANCE, Event, IllegalActionError, SetupError
from rummoli.engine.state import STATE_BASE_FIELDS, GameStateBase, checked_seed, copy_fields
from rummoli.games.stops.actions import ActionCodec
from rummoli.games.stops.betting import Betting
from rummoli.games.stops.constants import (
    AUCTION,
    BETTING,
    IN_WIDOW,
    LAID,
    NEXT_ROUND,
    OVER,
    PHASE_NAMES,
    PLAY,
    SETTLE,
    STAKE,
    START,
    WIDOW,
)
from rummoli.games.stops.deal import begin_round, check_hands, who_can_pay_ante
from rummoli.games.stops.layout import Layout
from rummoli.games.stops.poker_phase import bet
from rummoli.games.stops.position import check_history
from rummoli.games.stops.ranks import play_rank
from rummoli.games.stops.runs import play
from rummoli.games.stops.setup import Setup
from rummoli.games.stops.stake import place_stake
from rummoli.games.stops.tables import BoardTables, board_tables
from rummoli.games.stops.widow import bid, widow_decision

if TYPE_CHECKING:
    from rummoli.games.stops.view import Observation

__all__ = [
    "AUCTION",
    "BETTING",
    "IN_WIDOW",
    "LAID",
    "NEXT_ROUND",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "SETTLE",
    "STAKE",
    "START",
    "WIDOW",
    "FamilyRules",
    "RummoliState",
    "StopsState",
]


class FamilyRules(Protocol):
    """What the state needs of a game's rules object: the layout it makes, and what a
    record keeps (``to_dict``) and a table shows (``changed``)."""

    @property
    def rules_version(self) -> int: ...

    @property
    def rounds(self) -> int: ...

    @property
    def starting_chips(self) -> int: ...

    def layout(self) -> Layout: ...

    def to_dict(self) -> dict[str, Any]: ...

    def changed(self) -> dict[str, Any]: ...


#: The attributes of a :class:`StopsState` (its slots) beside its base's (what ``clone``
#: copies is both).
_STATE_FIELDS: Final = (
    "_ace_low",
    "_auction_high_bidder",
    "_bid_turn",
    "_bidders",
    "_by_rank",
    "_combos",
    "_heads_up",
    "_kitty",
    "_lay_space",
    "_legacy",
    "_limit",
    "_next",
    "_open_auction",
    "_optional_auction",
    "_pay_cards",
    "_pay_combos",
    "_single_lead",
    "_special",
    "_stakers",
    "_switch",
    "_tops",
    "auction_high",
    "auction_log",
    "auction_passed",
    "bet_log",
    "betting",
    "board",
    "card_by_card",
    "chips",
    "claims",
    "codec",
    "deadlocked",
    "dealer",
    "hands",
    "in_round",
    "known_widow",
    "laid",
    "laid_mask",
    "leader",
    "names",
    "next_in_round",
    "out",
    "owner",
    "paused",
    "phase",
    "plan",
    "poker_dead",
    "poker_winners",
    "pot_space",
    "round_no",
    "round_winner",
    "rules",
    "sequence",
    "settle_cards",
    "settle_hands",
    "settle_name",
    "settle_queue",
    "setup",
    "shown",
    "single_space",
    "space_index",
    "spaces",
    "stake_left",
    "start_chips",
    "tables",
    "trump",
    "turned",
    "widow",
    "widow_taker",
)
#: Every attribute, the base's and the state's: what ``clone`` copies.
_ALL_FIELDS: Final = STATE_BASE_FIELDS + _STATE_FIELDS


#: The setups of new games, by (players, starting chips): see :meth:`StopsState.new_game`.
_NEW_SETUPS: Final[dict[tuple[tuple[str, ...], int], Setup]] = {}


class StopsState(GameStateBase):
    """One game of the family, from the cut for the first dealer to the settlement.

    Its base, :class:`~rummoli.engine.state.GameStateBase`, holds what every game's
    state shares (the protocol's reading methods, the end a table asks for, the draws);
    it lets the shared ``apply`` reach the state's fields and methods natively when
    compiled.
    """

    __slots__ = _STATE_FIELDS

    def __new__(cls, *args: object, **kwargs: object) -> StopsState:
        # Explicit so that the copy below can make a blank instance with ``__new__``
        # without running ``__init__``, also when mypyc compiles this module (its
        # default constructor would run ``__init__``).
        return super().__new__(cls)

    def __init__(self, rules: FamilyRules, setup: Setup, seed: object = 0) -> None:
        self.seed = checked_seed(seed)
        self.rules = rules
        plan = self.plan = rules.layout()
        self.setup = setup
        self.names = setup.players
        n = len(setup.players)
        tables = board_tables(plan)
        self._use_tables(tables)
        # House rules the phases read every round or bid, read once per layout into its
        # tables (:meth:`.tables.BoardTables._house_rules`, where each is explained).
        self._ace_low = plan.ace_low
        self._by_rank = tables.by_rank
        self._kitty = tables.kitty
        self._single_lead = tables.single_lead
        self._limit = tables.limit
        self._heads_up = tables.heads_up
        self._legacy = tables.legacy
        self._open_auction = tables.open_auction
        self._optional_auction = tables.optional_auction
        self.board = [0] * len(self.spaces)
        for name, chips in setup.board.items():
            if name not in self.space_index:
                raise SetupError(f"unknown board space {name!r}; spaces are {self.spaces}")
            self.board[self.space_index[name]] = chips
        self.chips = list(setup.chips)
        self.start_chips = sum(self.chips) + sum(self.board)
        self.codec = ActionCodec(max(self.start_chips, 1), tables.chosen)
        self.out = [False] * n
        self.dealer = -1 if setup.dealer is None else setup.dealer
        self.round_no = 0
        self.phase = START
        self._start_protocol()
        #: Lay forced cards one step at a time (a table showing a run: :mod:`.steps`);
        #: ``paused``: the state waits before a forced card, its one legal action.
        self.card_by_card = False
        self.paused = False
        #: The space whose chips the betting plays for: the poker space, or (house rule
        #: ``settlement_betting``) the pot being settled (:mod:`.settlement`).
        self.pot_space = 0
        #: The settlement played with betting: each seat's five cards, the pot played
        #: for ("all" or a space), the spaces still to settle, the fixed cards left.
        self.settle_hands = [0] * n
        self.settle_name = ""
        self.settle_queue: list[int] = []
        self.settle_cards: list[int] = []
        self.trump = -1
        self._clear_round()
        if setup.laid is None:
            self._check_first_round(setup)
        elif setup.laid and not self._legacy:
            check_history(rules, setup)  # (rules version 1 did not check a history)

    def _use_tables(self, tables: BoardTables) -> None:
        """Read a layout's tables (of this deal's trump suit) into the state's fields."""
        self.tables = tables
        self.spaces = tables.spaces
        self.space_index = tables.space_index
        self.single_space = tables.single_space
        self._pay_cards = tables.pay_cards
        self._pay_combos = tables.pay_combos
        #: For each card: the space laying it wins outright, NO_SPACE, or "look closer".
        self._lay_space = tables.lay_space
        self._combos = tables.combos
        self._special = tables.special
        self._tops = tables.tops
        self._next = tables.next_card
        self._switch = tables.switch

    # ----------------------------------------------------------------- set-up helpers

    @classmethod
    def new_game(
        cls, players: list[str], rules: FamilyRules | None = None, seed: object = 0
    ) -> StopsState:
        """A new game: the seed decides the cut and every shuffle. Without rules, the
        family's first game, Rummoli, with its default house rules."""
        from rummoli.games.stops.setup import players_from

        if rules is None:
            from rummoli.games.rummoli.rules import Rules

            rules = Rules()
        names = players_from(players, rules.layout())
        # The setup of a new game is the same for the same players and chips, and it is
        # frozen (the state only reads it): made once, not at every game (a 2-seat game
        # lasts a few rounds, so its start is a good part of its cost).
        key = (names, rules.starting_chips)
        setup = _NEW_SETUPS.get(key)
        if setup is None:
            if len(_NEW_SETUPS) > 256:
                _NEW_SETUPS.clear()
            setup = _NEW_SETUPS[key] = Setup(names, (rules.starting_chips,) * len(names))
        return cls(rules, setup, seed)

    def _check_first_round(self, setup: Setup) -> None:
        """A named dealer must play the first round; fixed hands must fit who plays it.

        Hands need not have five cards: only a showdown needs five, and it says so if it
        comes (:func:`~rummoli.games.stops.poker_phase.show`)."""
        playing = who_can_pay_ante(self)
        if setup.dealer is not None and setup.dealer not in playing:
            raise SetupError(
                f"the dealer {self.names[setup.dealer]} cannot pay the ante, so is out of "
                "the game and cannot deal: name a dealer who plays"
            )
        if setup.hands is not None:
            check_hands(self, setup.hands, playing, "")

    def _clear_round(self) -> None:
        n = len(self.names)
        self.hands = [0] * n
        self.widow = 0
        self.owner = [IN_WIDOW] * 52
        self.in_round: list[int] = []
        self.next_in_round = [-1] * n
        self.widow_taker = -1
        self.known_widow = 0
        self.auction_high = 0
        self._auction_high_bidder = -1
        self.auction_passed = [False] * n
        #: This round's public bids and passes, (seat, chips or 0 for a pass), and betting
        #: actions, (seat, "check" | "call" | "raise" | "fold", seat's total bet after it).
        self.auction_log: list[tuple[int, int]] = []
        self.bet_log: list[tuple[int, str, int]] = []
        self._bidders: list[int] = []
        self._bid_turn = -1
        self.betting: Betting | None = None
        self.poker_dead = 0
        self.poker_winners: list[int] = []
        self.shown: dict[int, int] = {}
        self.leader = -1
        self.laid: list[tuple[int, int]] = []
        self.laid_mask = 0
        self.round_winner = -1
        self.deadlocked = False
        if self.trump >= 0:  # the last deal's trump: the board's plain tables again
            self._use_tables(board_tables(self.plan))
        #: The card turned for trumps (-1: none) and its suit; the spaces won at the deal
        #: by the cards held, (seat, space, chips, the cards shown); the seats still to
        #: place chosen chips and how many each has left; the rank mode's next rank
        #: (-1: a new sequence).
        self.turned = -1
        self.trump = -1
        self.claims: list[tuple[int, int, int, int]] = []
        self._stakers: list[int] = []
        self.stake_left = 0
        self.sequence = -1

    def clone(self) -> StopsState:
        """An independent copy, made field by field (far cheaper than ``deepcopy``)."""
        other = StopsState.__new__(StopsState)
        copy_fields(self, other, _ALL_FIELDS)
        if self.betting is not None:  # the one field changed in place that is no list
            other.betting = self.betting.copy()
        return other

    # ----------------------------------------------------------------- the protocol

    def num_distinct_actions(self) -> int:
        return self.codec.size

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see; decided in :mod:`.view` alone."""
        from rummoli.games.stops.view import build_view

        return build_view(self, seat)

    def observation(self, seat: int | None) -> Observation:
        """The same knowledge as :meth:`view`, as plain numbers (for bots and simulations)."""
        from rummoli.games.stops.view import build_observation

        return build_observation(self, seat)

    def record(self) -> dict[str, Any]:
        from rummoli.games.stops.record import make_record

        return make_record(self)

    def action_to_text(self, action: int) -> str:
        return self.codec.to_text(action)

    def action_from_text(self, text: str) -> int:
        return self.codec.from_text(text)

    def apply(self, action: object) -> list[Event]:
        """Apply a legal action; an illegal one raises and changes nothing.

        ``action: object``: anything a caller sends (a JSON message, a bad record) gets an
        :class:`IllegalActionError` that says why, never a bare ``TypeError``.
        """
        return apply_action(self, action)

    def _step(self, action: int, events: list[Event]) -> None:
        """The legal ``action``, to the rules of the phase that asked for it."""
        if self.to_move == CHANCE:
            begin_round(self, events, rotate=self.phase == NEXT_ROUND)
        elif self.phase == PLAY:
            if self._by_rank:
                play_rank(self, self.to_move, action, events)
            else:
                play(self, self.to_move, action, events)
        elif self.phase == BETTING or self.phase == SETTLE:
            bet(self, self.to_move, action, events)
        elif self.phase == AUCTION:
            bid(self, self.to_move, action, events)
        elif self.phase == STAKE:
            place_stake(self, self.to_move, action, events)
        else:
            widow_decision(self, action, events)

    def _refusal(self, action: int) -> str:
        try:
            text = self.codec.to_text(action)
        except IllegalActionError:
            text = repr(action)
        who = "chance" if self.to_move == CHANCE else self.names[self.to_move]
        legal = legal_summary(self.options, self.codec.to_text)
        return f"{text} is not legal now; {who} decides among: {legal}"

    def _draw_deck(self, purpose: int) -> list[int]:
        """The shared draw of the whole 52 cards, then the game's pack kept in that order
        (the same draws for Rummoli as before the family shared its engine)."""
        deck = GameStateBase._draw_deck(self, purpose)
        if self.plan.deck == 52:
            return deck
        pack = self.tables.deck
        return [card for card in deck if pack >> card & 1]

    # ----------------------------------------------------------------- reading the state

    def standings(self) -> list[tuple[str, int]]:
        """Players by chips, most first (ties in seat order)."""
        order = sorted(range(len(self.names)), key=lambda s: -self.chips[s])
        return [(self.names[s], self.chips[s]) for s in order]

    def board_dict(self) -> dict[str, int]:
        return dict(zip(self.spaces, self.board, strict=True))

    def hand_of(self, seat: int) -> list[int]:
        return cards_of(self.hands[seat])

    def total_chips(self) -> int:
        return sum(self.chips) + sum(self.board)

    def cards_conserved(self) -> bool:
        """Every card of the pack is in exactly one place: a hand, the widow (or talon),
        laid, or turned for trumps (before the cards are dealt: none anywhere)."""
        if self.round_no == 0 or self.phase == STAKE:
            return True
        seen = self.widow
        total = self.widow.bit_count() + len(self.laid)
        for hand in self.hands:
            seen |= hand
            total += hand.bit_count()
        for _, card in self.laid:
            seen |= 1 << card
        if self.turned >= 0:
            seen |= 1 << self.turned
            total += 1
        return seen == self.tables.deck and total == self.plan.deck

    def __repr__(self) -> str:
        return (
            f"StopsState(round={self.round_no}, phase={PHASE_NAMES[self.phase]}, "
            f"to_move={self.to_move}, chips={self.chips}, board={self.board})"
        )


#: The family's state under its first name: Rummoli's tables, records and tests know it so.
RummoliState = StopsState
