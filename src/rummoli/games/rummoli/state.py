"""A whole game of Rummoli as a state machine.

The state asks for a decision only where a player has a real choice; everything the rules
force (the only card that may be laid, a pass by a player who may not bid, an ante) is
done inside :meth:`RummoliState.apply`, which returns every event it caused. Chance (the
cut, the shuffle, the settlement deals) is an explicit step whose outcome comes from the
game's own seed, so a record of rules, setup, seed and actions replays the game exactly.

Cards are ints and hands are 52-bit masks (see :mod:`rummoli.cards`); ``owner[card]``
says where each card is, so finding who must lay the next card of a run is one lookup.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from rummoli.cards import (
    ACE,
    BLACK_MASK,
    FULL_DECK,
    NUM_RANKS,
    RED_MASK,
    SUIT_FIELD,
    cards_of,
    mask_of,
)
from rummoli.engine.base import (
    CHANCE,
    CHANCE_ACTION,
    TERMINAL,
    Event,
    IllegalActionError,
    SetupError,
)
from rummoli.engine.rng import shuffled_deck
from rummoli.games.rummoli import actions as act
from rummoli.games.rummoli.actions import ActionCodec
from rummoli.games.rummoli.betting import NO_LIMIT, POT_LIMIT, Betting
from rummoli.games.rummoli.board import (
    ACE_DIAMONDS,
    KING_DIAMONDS,
    NINE,
    NO_SPACE,
    holds_pay_card,
    pay_card_mask,
    single_card_spaces,
    space_names,
)
from rummoli.games.rummoli.rules import Rules
from rummoli.games.rummoli.setup import Setup
from rummoli.poker import five_of, hand_key

if TYPE_CHECKING:
    from rummoli.games.rummoli.view import Observation

# Phases.
START: Final = 0
WIDOW: Final = 1
AUCTION: Final = 2
BETTING: Final = 3
PLAY: Final = 4
NEXT_ROUND: Final = 5
OVER: Final = 6
PHASE_NAMES: Final = ("start", "widow", "auction", "betting", "play", "next_round", "over")

# Where a card is, in ``owner``: a seat (>= 0), the widow, or laid.
IN_WIDOW: Final = -1
LAID: Final = -2

# Purposes of the seeded draws (see rummoli.engine.rng).
_DRAW_CUT: Final = 1
_DRAW_DEAL: Final = 2
_DRAW_SETTLE: Final = 3

_BIT: Final = tuple(1 << card for card in range(52))
#: Cards that can complete a two- or three-card pay space (AD for AKD, any 9 for 789).
_COMBO_END: Final = tuple(card == ACE_DIAMONDS or card % NUM_RANKS == NINE for card in range(52))
_LAY_BASE: Final = act.LAY_BASE
_CLAIM_BASE: Final = act.CLAIM_BASE
#: In a per-state ``lay_space`` table: the card may complete AKD or 789 (look closer).
_COMBO: Final = -3

# The "lay" and "stop" events and the ``laid`` entries, one shared tuple per (seat, card):
# a round lays about thirty cards, and a tuple made once costs nothing to hand out again.
_MAX_SEATS: Final = 8
_LAY_EVENT: Final = tuple(
    tuple(("lay", seat, card) for card in range(52)) for seat in range(_MAX_SEATS)
)
_LAID_ENTRY: Final = tuple(tuple((seat, card) for card in range(52)) for seat in range(_MAX_SEATS))
_STOP_EVENT: Final = tuple(("stop", card) for card in range(52))
#: For each card, the cards of the other colour (where the lead goes after a stop on it).
_OTHER_COLOUR: Final = tuple(BLACK_MASK if 13 <= card < 39 else RED_MASK for card in range(52))
#: The aces: nothing follows them in their suit, so a run stops on them.
_ACES: Final = sum(1 << (suit * NUM_RANKS + ACE) for suit in range(4))
#: Cards that need a closer look when laid: aces, and every card that may win a space
#: (the single pay cards, AD for AKD, the nines for 789). The others, four in five,
#: take the short path through the lay loop.
_SPECIAL: Final = (
    _ACES
    | sum(1 << card for card in range(52) if _COMBO_END[card])
    | pay_card_mask(ace_of_spades=True)
)
#: For a 4-bit pattern of suits holding one rank: ``suit * 13`` when it holds one suit
#: only, else -1 (the lowest card of a colour is then a choice, or needs one).
_ONLY_SUIT: Final = tuple(
    (pattern.bit_length() - 1) * NUM_RANKS if pattern and not pattern & (pattern - 1) else -1
    for pattern in range(16)
)


#: ``_CARDS_OF_RANK[rank][pattern]``: the cards of ``rank`` in the suits of a 4-bit pattern.
_CARDS_OF_RANK: Final = tuple(
    tuple(
        tuple(suit * NUM_RANKS + rank for suit in range(4) if pattern >> suit & 1)
        for pattern in range(16)
    )
    for rank in range(NUM_RANKS)
)
#: The lowest rank of every non-empty 13-bit rank mask.
_LOWEST_RANK: Final = tuple((ranks & -ranks).bit_length() - 1 for ranks in range(1 << NUM_RANKS))


def _lowest_cards(mask: int) -> tuple[int, ...]:
    """The cards of the lowest rank present in ``mask`` (one per suit holding that rank)."""
    rank = _LOWEST_RANK[(mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT_FIELD]
    column = mask >> rank
    return _CARDS_OF_RANK[rank][
        (column & 1) | (column >> 12 & 2) | (column >> 24 & 4) | (column >> 36 & 8)
    ]


def _sorted_contains(options: list[int], action: int) -> bool:
    """``action in options`` for a long sorted list (a betting decision offers up to a few
    hundred raise sizes): a bisection instead of a scan."""
    index = bisect_left(options, action)
    return index < len(options) and options[index] == action


def _lowest_per_suit(mask: int) -> tuple[int, ...]:
    """The lowest card of each suit present in ``mask``."""
    cards = []
    for suit_shift in (0, 13, 26, 39):
        field = (mask >> suit_shift) & SUIT_FIELD
        if field:
            cards.append(suit_shift + _LOWEST_RANK[field])
    return tuple(cards)


#: Every attribute of a :class:`RummoliState` (its slots, and what ``clone`` copies).
_STATE_FIELDS: Final = (
    "_auction_high_bidder",
    "_bid_turn",
    "_bidders",
    "_lay_space",
    "_pay_cards",
    "_single_lead",
    "actions",
    "auction_high",
    "auction_log",
    "auction_passed",
    "bet_log",
    "betting",
    "board",
    "chips",
    "codec",
    "deadlocked",
    "dealer",
    "draws",
    "end_requested",
    "end_requested_after",
    "hands",
    "in_round",
    "known_widow",
    "laid",
    "laid_mask",
    "leader",
    "names",
    "next_in_round",
    "options",
    "out",
    "owner",
    "phase",
    "poker_dead",
    "poker_winners",
    "round_no",
    "round_winner",
    "rules",
    "seed",
    "setup",
    "shown",
    "single_space",
    "space_index",
    "spaces",
    "start_chips",
    "to_move",
    "widow",
    "widow_taker",
)


class RummoliState:
    """One game of Rummoli, from the cut for the first dealer to the settlement."""

    __slots__ = _STATE_FIELDS

    def __new__(cls, *args: object, **kwargs: object) -> RummoliState:
        # Explicit so that the copy below can make a blank instance with ``__new__``
        # without running ``__init__``, also when mypyc compiles this module (its
        # default constructor would run ``__init__``).
        return super().__new__(cls)

    def __init__(self, rules: Rules, setup: Setup, seed: object = 0) -> None:
        # ``seed: object``, checked here: a seed read from JSON may be anything, and it
        # gets a SetupError that names it (with ``seed: int``, this module compiled by
        # mypyc would raise a bare TypeError before the check).
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"seed must be a whole number, not {seed!r}")
        self.rules = rules
        self.setup = setup
        self.seed = seed
        self.names = setup.players
        n = len(setup.players)
        self.spaces = space_names(rules.ace_of_spades)
        self.space_index = {name: i for i, name in enumerate(self.spaces)}
        self.single_space = single_card_spaces(self.spaces)
        self._pay_cards = pay_card_mask(rules.ace_of_spades)
        #: For each card: the space laying it wins outright, NO_SPACE, or _COMBO.
        self._lay_space = tuple(
            _COMBO if _COMBO_END[card] else self.single_space[card] for card in range(52)
        )
        #: Whether the lead after a stop is forced whenever one card is lowest.
        self._single_lead = rules.switch_lead == "lowest_of_colour" and not rules.must_claim
        self.board = [0] * len(self.spaces)
        for name, chips in setup.board.items():
            if name not in self.space_index:
                raise SetupError(f"unknown board space {name!r}; spaces are {self.spaces}")
            self.board[self.space_index[name]] = chips
        self.chips = list(setup.chips)
        self.start_chips = sum(self.chips) + sum(self.board)
        self.codec = ActionCodec(max(self.start_chips, 1))
        self.out = [False] * n
        self.dealer = -1 if setup.dealer is None else setup.dealer
        self.round_no = 0
        self.phase = START
        self.to_move = CHANCE
        self.options: list[int] = [CHANCE_ACTION]
        self.actions: list[int] = []
        self.end_requested = False
        self.end_requested_after: int | None = None
        self.draws = 0
        self._clear_round()
        if setup.hands is not None:
            self._check_position_hands(setup.hands)

    # ----------------------------------------------------------------- set-up helpers

    @classmethod
    def new_game(
        cls, players: list[str], rules: Rules | None = None, seed: object = 0
    ) -> RummoliState:
        """A new game: the seed decides the cut and every shuffle."""
        from rummoli.games.rummoli.setup import players_from

        rules = rules or Rules()
        names = players_from(players)
        return cls(rules, Setup(names, (rules.starting_chips,) * len(names)), seed)

    def _check_position_hands(self, hands: tuple[tuple[int, ...], ...]) -> None:
        playing = self._who_can_pay_ante()
        for seat, name in enumerate(self.names):
            if seat in playing and len(hands[seat]) < 5:
                raise SetupError(
                    f"{name} holds {len(hands[seat])} cards: a hand needs at least 5 "
                    "for the poker phase"
                )
            if seat not in playing and hands[seat]:
                raise SetupError(f"{name} cannot pay the ante, so cannot hold cards")
        if len(playing) < 2:
            raise SetupError("fewer than two players can pay the ante")

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

    def clone(self) -> RummoliState:
        """An independent copy, made field by field (far cheaper than ``deepcopy``)."""
        other = RummoliState.__new__(RummoliState)
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            if type(value) is list:
                value = value[:]
            elif type(value) is dict:
                value = dict(value)
            elif type(value) is Betting:
                value = value.copy()
            setattr(other, name, value)
        return other

    # ----------------------------------------------------------------- the protocol

    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def legal_actions(self) -> list[int]:
        return self.options[:]

    def num_distinct_actions(self) -> int:
        return self.codec.size

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see; decided in :mod:`.view` alone."""
        from rummoli.games.rummoli.view import build_view

        return build_view(self, seat)

    def observation(self, seat: int | None) -> Observation:
        """The same knowledge as :meth:`view`, as plain numbers (for bots and simulations)."""
        from rummoli.games.rummoli.view import build_observation

        return build_observation(self, seat)

    def record(self) -> dict[str, Any]:
        from rummoli.games.rummoli.record import make_record

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
        options = self.options
        if type(action) is not int or not (
            action in options if len(options) < 16 else _sorted_contains(options, action)
        ):
            raise IllegalActionError(self._why_illegal(action))
        self.actions.append(action)
        events: list[Event] = []
        if self.to_move == CHANCE:
            self._chance(events)
        elif self.phase == PLAY:
            self._play(self.to_move, action, events)
        elif self.phase == BETTING:
            self._bet(self.to_move, action, events)
        elif self.phase == AUCTION:
            self._bid(self.to_move, action, events)
        else:
            self._widow_decision(action, events)
        return events

    def _why_illegal(self, action: object) -> str:
        if self.to_move == TERMINAL:
            return "the game is over: no action is legal"
        if type(action) is not int:
            return f"an action is a whole number, not {action!r}"
        try:
            text = self.codec.to_text(action)
        except IllegalActionError:
            text = repr(action)
        who = "chance" if self.to_move == CHANCE else self.names[self.to_move]
        legal = ", ".join(self.codec.to_text(a) for a in self.options[:12])
        more = " ..." if len(self.options) > 12 else ""
        return f"{text} is not legal now; {who} decides among: {legal}{more}"

    def request_end(self) -> None:
        """The table asks to stop: the game ends after the round being played."""
        if not self.end_requested:
            self.end_requested = True
            self.end_requested_after = len(self.actions)

    # ----------------------------------------------------------------- chance

    def _chance(self, events: list[Event]) -> None:
        self._begin_round(events, rotate=self.phase == NEXT_ROUND)

    def _draw_deck(self, purpose: int) -> list[int]:
        self.draws += 1
        return shuffled_deck(self.seed, purpose, self.draws)

    def _cut_for_dealer(self, events: list[Event]) -> None:
        """Players still in cut; the highest rank deals, tied players cut again."""
        contenders = [s for s in range(len(self.names)) if not self.out[s]]
        while len(contenders) > 1:
            deck = self._draw_deck(_DRAW_CUT)
            cut = dict(zip(contenders, deck, strict=False))
            for seat in contenders:
                events.append(("cut", seat, cut[seat]))
            best = max(cut[s] % NUM_RANKS for s in contenders)
            contenders = [s for s in contenders if cut[s] % NUM_RANKS == best]
        self.dealer = contenders[0]

    def _who_can_pay_ante(self) -> list[int]:
        need = len(self.spaces) if self.rules.short_ante == "out" else 1
        return [s for s in range(len(self.names)) if not self.out[s] and self.chips[s] >= need]

    def _begin_round(self, events: list[Event], rotate: bool) -> None:
        """Ante, elimination, end of game, or the deal of a new round."""
        rules = self.rules
        if (rules.rounds and self.round_no >= rules.rounds) or self.end_requested:
            self._settle(events)
            return
        playing = set(self._who_can_pay_ante())
        for seat in range(len(self.names)):
            if not self.out[seat] and seat not in playing:
                self.out[seat] = True
                events.append(("out", seat))
        if len(playing) < 2:
            self._settle(events)
            return
        n = len(self.names)
        if self.dealer < 0:
            self._cut_for_dealer(events)
        elif rotate or self.out[self.dealer]:
            seat = self.dealer
            for _ in range(n):
                seat = (seat + 1) % n
                if not self.out[seat]:
                    break
            self.dealer = seat
        events.append(("dealer", self.dealer))
        self._clear_round()
        self.round_no += 1
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        self.in_round = [s for s in order if not self.out[s]]
        for i, seat in enumerate(self.in_round):
            self.next_in_round[seat] = self.in_round[(i + 1) % len(self.in_round)]
        board = self.board
        chips = self.chips
        spaces = len(board)
        full = 0
        for seat in self.in_round:
            if chips[seat] >= spaces:
                chips[seat] -= spaces
                full += 1
                events.append(("ante", seat, spaces))
            else:  # pay_what_you_can: one chip a space, in board order, while chips last
                paid = chips[seat]
                chips[seat] = 0
                for space in range(paid):
                    board[space] += 1
                events.append(("ante", seat, paid))
        if full:
            for space in range(spaces):
                board[space] += full
        self._deal(events)

    def _deal(self, events: list[Event]) -> None:
        """Deal one card at a time from the dealer's left, the widow right after the dealer."""
        setup = self.setup
        receivers = [*self.in_round, IN_WIDOW]
        if self.round_no == 1 and setup.hands is not None:
            given: list[Sequence[int]] = [setup.hands[seat] for seat in self.in_round]
            given.append(setup.hands[-1])
        else:
            if self.round_no == 1 and setup.deck is not None:
                deck = list(setup.deck)
            else:
                deck = self._draw_deck(_DRAW_DEAL)
            groups = len(receivers)
            given = [deck[g::groups] for g in range(groups)]
        owner = self.owner
        hands = self.hands
        for holder, cards in zip(receivers, given, strict=True):
            mask = 0
            for card in cards:
                mask |= _BIT[card]
                owner[card] = holder
            if holder == IN_WIDOW:
                self.widow = mask
            else:
                hands[holder] = mask
                events.append(("hand", holder, mask))
        events.append(("widow_dealt", self.widow.bit_count()))
        self._start_widow(events)

    # ----------------------------------------------------------------- widow

    def _blocked(self, seat: int) -> bool:
        return self.rules.pay_card_blocks_exchange and holds_pay_card(
            self.hands[seat], self._pay_cards
        )

    def _start_widow(self, events: list[Event]) -> None:
        if self.rules.widow == "none":
            events.append(("widow_dead",))
            self._start_poker(events)
            return
        if self._blocked(self.dealer):
            events.append(("blocked", self.dealer))
            events.append(("keep", self.dealer))
            self._after_keep(events)
            return
        self.phase = WIDOW
        self.to_move = self.dealer
        self.options = [act.KEEP, act.EXCHANGE]

    def _widow_decision(self, action: int, events: list[Event]) -> None:
        if action == act.EXCHANGE:
            self._exchange(self.dealer, events)
            self._start_poker(events)
        else:
            events.append(("keep", self.dealer))
            self._after_keep(events)

    def _exchange(self, seat: int, events: list[Event]) -> None:
        old = self.hands[seat]
        new = self.widow
        self.hands[seat] = new
        self.widow = old
        self.widow_taker = seat
        self.known_widow = old
        owner = self.owner
        for card in cards_of(new):
            owner[card] = seat
        for card in cards_of(old):
            owner[card] = IN_WIDOW
        events.append(("exchange", seat))
        events.append(("hand", seat, new))

    def _after_keep(self, events: list[Event]) -> None:
        if self.rules.widow != "exchange_or_auction":
            events.append(("widow_dead",))
            self._start_poker(events)
            return
        self._bidders = self.in_round[:-1]
        self.phase = AUCTION
        self._next_bidder(events)

    def _next_bidder(self, events: list[Event]) -> None:
        bidders = self._bidders
        count = len(bidders)
        start = bidders.index(self._bid_turn) + 1 if self._bid_turn >= 0 else 0
        for i in range(count):
            seat = bidders[(start + i) % count]
            if self.auction_passed[seat] or seat == self._auction_high_bidder:
                continue
            blocked = self._blocked(seat)
            if blocked or self.chips[seat] <= self.auction_high:
                self.auction_passed[seat] = True
                if blocked:
                    events.append(("blocked", seat))
                events.append(("pass", seat))
                self.auction_log.append((seat, 0))
                continue
            self._bid_turn = seat
            self.to_move = seat
            self.options = [act.PASS]
            self.options.extend(
                range(act.BID_BASE + self.auction_high + 1, act.BID_BASE + self.chips[seat] + 1)
            )
            return
        self._end_auction(events)

    def _bid(self, seat: int, action: int, events: list[Event]) -> None:
        if action == act.PASS:
            self.auction_passed[seat] = True
            events.append(("pass", seat))
            self.auction_log.append((seat, 0))
        else:
            self.auction_high = action - act.BID_BASE
            self._auction_high_bidder = seat
            events.append(("bid", seat, self.auction_high))
            self.auction_log.append((seat, self.auction_high))
        self._next_bidder(events)

    def _end_auction(self, events: list[Event]) -> None:
        winner = self._auction_high_bidder
        if winner < 0:
            events.append(("no_bid",))
            events.append(("widow_dead",))
        else:
            price = self.auction_high
            self.chips[winner] -= price
            self.chips[self.dealer] += price
            events.append(("bought", winner, price, self.dealer))
            self._exchange(winner, events)
        self._start_poker(events)

    # ----------------------------------------------------------------- poker

    def _start_poker(self, events: list[Event]) -> None:
        if self.rules.poker == "showdown":
            contenders = self.in_round
            keys = self._show(contenders, events)
            self._award_poker([(self.board[0], contenders)], keys, events)
            return
        limit = self.rules.bet_limit
        code = NO_LIMIT if limit == "no_limit" else POT_LIMIT if limit == "pot_limit" else limit
        assert isinstance(code, int)
        self.betting = Betting(self.in_round, len(self.names), code)
        self.poker_dead = self.board[0]
        self.phase = BETTING
        self._next_bettor(events)

    def _next_bettor(self, events: list[Event]) -> None:
        betting = self.betting
        assert betting is not None
        seat = betting.next_seat(self.chips)
        if seat < 0:
            self._end_betting(events)
            return
        betting.seat = seat
        self.to_move = seat
        self.options = betting.legal(seat, self.chips, self.board[0], self.codec.raise_base)

    def _bet(self, seat: int, action: int, events: list[Event]) -> None:
        betting = self.betting
        assert betting is not None
        if action == act.CHECK:
            betting.acted[seat] = True
            events.append(("check", seat))
            self.bet_log.append((seat, "check", betting.committed[seat]))
        elif action == act.FOLD:
            betting.folded[seat] = True
            events.append(("fold", seat))
            self.bet_log.append((seat, "fold", betting.committed[seat]))
        else:
            if action == act.CALL:
                total = min(betting.high, betting.committed[seat] + self.chips[seat])
            else:
                total = action - self.codec.raise_base
            raising = total > betting.high
            added = betting.put_in(seat, total, self.chips)
            self.board[0] += added
            all_in = self.chips[seat] == 0
            events.append(("raise" if raising else "call", seat, total, added, all_in))
            self.bet_log.append((seat, "raise" if raising else "call", total))
        self._next_bettor(events)

    def _end_betting(self, events: list[Event]) -> None:
        betting = self.betting
        assert betting is not None
        seat, uncalled = betting.take_back_uncalled()
        if uncalled:
            self.chips[seat] += uncalled
            self.board[0] -= uncalled
            events.append(("returned", seat, uncalled))
        contenders = betting.contenders()
        if len(contenders) == 1:
            self._award_poker([(self.board[0], contenders)], {}, events)
        else:
            keys = self._show(contenders, events)
            self._award_poker(betting.pots(self.poker_dead), keys, events)

    def _show(self, seats: list[int], events: list[Event]) -> dict[int, int]:
        """Show the best five cards of each seat; returns the hands' keys by seat."""
        keys = {}
        for seat in seats:
            hand = self.hands[seat]
            key = keys[seat] = hand_key(hand)
            five = 0
            for card in five_of(hand, key):
                five |= _BIT[card]
            self.shown[seat] = five
            events.append(("show", seat, five, key))
        return keys

    def _award_poker(
        self, pots: list[tuple[int, list[int]]], keys: dict[int, int], events: list[Event]
    ) -> None:
        """Each pot to the best hand among its seats (``keys``: the shown hands' strength);
        ties split, odd chips stay on the space."""
        winners_all: list[int] = []
        leader = -1
        for index, (amount, eligible) in enumerate(pots):
            if len(eligible) == 1:
                winners = eligible
            else:
                best = max(keys[s] for s in eligible)
                winners = [s for s in eligible if keys[s] == best]
            share = amount // len(winners)
            for seat in winners:
                self.chips[seat] += share
                self.board[0] -= share
                if seat not in winners_all:
                    winners_all.append(seat)
            events.append(("poker_pot", index, amount, tuple(winners), share))
            if index == 0:
                leader = winners[0]
        self.poker_winners = sorted(winners_all)
        self.leader = leader
        events.append(("leads", leader))
        self._start_play(leader, events)

    # ----------------------------------------------------------------- the Rummoli phase

    def _start_play(self, leader: int, events: list[Event]) -> None:
        self.phase = PLAY
        hand = self.hands[leader]
        if self.rules.lead == "lowest_in_hand":
            cards = _lowest_cards(hand)
        else:
            cards = _lowest_per_suit(hand)
        self._offer_lay(leader, cards, events)

    def _space_for(self, seat: int, card: int) -> int:
        """The space that laying ``card`` now would win for ``seat`` (or NO_SPACE)."""
        space = self.single_space[card]
        if space != NO_SPACE or not _COMBO_END[card]:
            return space
        laid = self.laid
        if card == ACE_DIAMONDS:
            if laid and laid[-1] == (seat, KING_DIAMONDS):
                return self.space_index["AKD"]
        elif (
            card % NUM_RANKS == NINE
            and len(laid) >= 2
            and laid[-1] == (seat, card - 1)
            and laid[-2] == (seat, card - 2)
        ):
            return self.space_index["789"]
        return NO_SPACE

    def _offer_lay(self, seat: int, cards: Sequence[int], events: list[Event]) -> None:
        """Let ``seat`` choose among ``cards``; lay at once when there is no real choice."""
        options = [_LAY_BASE + (c % NUM_RANKS) * 4 + c // NUM_RANKS for c in cards]
        if self.rules.must_claim:
            for card in cards:
                space = self._space_for(seat, card)
                if space != NO_SPACE and self.board[space]:
                    options.append(_CLAIM_BASE + (card % NUM_RANKS) * 4 + card // NUM_RANKS)
        if len(options) == 1:
            self._run(seat, cards[0], True, events)
            return
        options.sort()
        self.to_move = seat
        self.options = options

    def _play(self, seat: int, action: int, events: list[Event]) -> None:
        card = act.lay_card(action)
        claim = action >= _CLAIM_BASE or not self.rules.must_claim
        self._run(seat, card, claim, events)

    def _run(self, seat: int, card: int, claim: bool, events: list[Event]) -> None:
        """Lay ``card`` and every card the rules force after it, until a real choice.

        The hot loop of the engine (about thirty cards a round). Rules and tables are
        read into locals once, ``laid_mask`` is kept in a local and written back before
        anything else may read it, the per-card events are shared tuples, and a card
        that can neither win a space nor end its suit (most of them) skips those checks.
        """
        owner = self.owner
        hands = self.hands
        board = self.board
        lay_space = self._lay_space
        lay = self.laid.append
        emit = events.append
        must_claim = self.rules.must_claim
        single_lead = self._single_lead
        laid_mask = self.laid_mask
        bits = _BIT
        laid_entry = _LAID_ENTRY
        lay_event = _LAY_EVENT
        space = NO_SPACE
        while True:
            bit = bits[card]
            special = bit & _SPECIAL
            if special:
                space = lay_space[card]
                if space == _COMBO:
                    space = self._space_for(seat, card)
            hand = hands[seat] ^ bit
            hands[seat] = hand
            laid_mask |= bit
            owner[card] = LAID
            lay(laid_entry[seat][card])
            emit(lay_event[seat][card])
            if special:
                if space >= 0 and board[space]:
                    if claim:
                        amount = board[space]
                        board[space] = 0
                        self.chips[seat] += amount
                        emit(("space", seat, self.spaces[space], amount))
                    else:
                        emit(("unclaimed", seat, self.spaces[space]))
                holder = -1 if bit & _ACES else owner[card + 1]
            else:
                holder = owner[card + 1]
            if not hand:
                self.laid_mask = laid_mask
                self._win_round(seat, events)
                return
            if holder >= 0:
                card += 1
                if must_claim:
                    space = self._space_for(holder, card)
                    if space != NO_SPACE and board[space]:
                        self.laid_mask = laid_mask
                        self._offer_lay(holder, (card,), events)
                        return
                seat = holder
                claim = True
                continue
            emit(_STOP_EVENT[card])
            # After a stop, the fast path of _after_stop: the player who stopped holds the
            # other colour, and its lowest card is in one suit only, so the rules lay it.
            mine = hand & _OTHER_COLOUR[card]
            if mine and single_lead:
                rank = _LOWEST_RANK[(mine | mine >> 13 | mine >> 26 | mine >> 39) & SUIT_FIELD]
                column = mine >> rank
                suit = _ONLY_SUIT[
                    (column & 1) | (column >> 12 & 2) | (column >> 24 & 4) | (column >> 36 & 8)
                ]
                if suit >= 0:
                    card = suit + rank
                    claim = True
                    continue
            self.laid_mask = laid_mask
            nxt = self._after_stop(seat, card, events)
            if nxt is None:
                return
            seat, card = nxt
            claim = True

    def _after_stop(self, seat: int, card: int, events: list[Event]) -> tuple[int, int] | None:
        """Who leads after a stop, and what; None when a decision or the round's end waits."""
        colour = BLACK_MASK if (13 <= card < 39) else RED_MASK
        hands = self.hands
        leader = seat
        mine = hands[seat] & colour
        if not mine:
            skipped = []
            while not hands[leader] & colour:
                skipped.append(leader)
                leader = self.next_in_round[leader]
                if leader == seat:
                    return self._deadlock(seat, events)
            fine = self.rules.cant_lead_fine
            for passer in skipped:
                paid = min(fine, self.chips[passer])
                if paid:
                    self.chips[passer] -= paid
                    self.board[-1] += paid
                events.append(("duty_passes", passer, paid))
            mine = hands[leader] & colour
        if self.rules.switch_lead == "lowest_of_colour":
            cards = _lowest_cards(mine)
        else:
            cards = _lowest_per_suit(mine)
        if len(cards) == 1 and not self.rules.must_claim:
            return leader, cards[0]
        self._offer_lay(leader, cards, events)
        return None

    def _choose_or_lay(
        self, seat: int, cards: Sequence[int], events: list[Event]
    ) -> tuple[int, int] | None:
        if len(cards) == 1 and not self.rules.must_claim:
            return seat, cards[0]
        self._offer_lay(seat, cards, events)
        return None

    def _deadlock(self, seat: int, events: list[Event]) -> tuple[int, int] | None:
        if self.rules.deadlock == "any_colour":
            events.append(("deadlock_continue", seat))
            return self._choose_or_lay(seat, _lowest_cards(self.hands[seat]), events)
        self.deadlocked = True
        events.append(("deadlock",))
        for player in self.in_round:
            paid = min(self.hands[player].bit_count(), self.chips[player])
            self.chips[player] -= paid
            self.board[-1] += paid
            events.append(("deadlock_pays", player, paid))
        self._end_round(events)
        return None

    def _win_round(self, seat: int, events: list[Event]) -> None:
        self.round_winner = seat
        pot = self.board[-1]
        self.board[-1] = 0
        self.chips[seat] += pot
        events.append(("round_won", seat, pot))
        for player in self.in_round:
            if player != seat:
                paid = min(self.hands[player].bit_count(), self.chips[player])
                self.chips[player] -= paid
                self.chips[seat] += paid
                events.append(("pays", player, seat, paid))
        self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        events.append(("round_over", self.round_no))
        self.phase = NEXT_ROUND
        if self.setup.single_round:
            self._finish(events)
            return
        self.to_move = CHANCE
        self.options = [CHANCE_ACTION]

    # ----------------------------------------------------------------- end of game

    def _settle(self, events: list[Event]) -> None:
        """Board chips go to the players still in, by the ``settlement`` house rule."""
        seats = [s for s in range(len(self.names)) if not self.out[s]] or list(
            range(len(self.names))
        )
        n = len(self.names)
        left = (self.dealer + 1) % n
        seats.sort(key=lambda s: (s - left) % n)
        method = self.rules.settlement
        if sum(self.board) == 0:
            pass
        elif len(seats) == 1:
            total = sum(self.board)
            self.board = [0] * len(self.board)
            self.chips[seats[0]] += total
            events.append(("settled", "all", total, (seats[0],)))
        elif method == "poker_per_pot":
            spaces = sorted(
                (i for i, c in enumerate(self.board) if c), key=lambda i: (self.board[i], i)
            )
            for space in spaces:
                amount = self.board[space]
                self.board[space] = 0
                self._settle_pot(self.spaces[space], amount, seats, events)
        else:
            total = sum(self.board)
            self.board = [0] * len(self.board)
            self._settle_pot("all", total, seats, events)
        self._finish(events)

    def _settle_pot(self, name: str, amount: int, seats: list[int], events: list[Event]) -> None:
        deck = self._draw_deck(_DRAW_SETTLE)
        if self.rules.settlement == "high_card":
            cut = dict(zip(seats, deck, strict=False))
            for seat in seats:
                events.append(("settle_cut", seat, cut[seat]))
            keys = {s: cut[s] % NUM_RANKS for s in seats}
        else:
            hands = {s: mask_of(deck[5 * i : 5 * i + 5]) for i, s in enumerate(seats)}
            for seat in seats:
                events.append(("settle_hand", seat, hands[seat], hand_key(hands[seat])))
            keys = {s: hand_key(hands[s]) for s in seats}
        best = max(keys.values())
        winners = [s for s in seats if keys[s] == best]
        share, odd = divmod(amount, len(winners))
        for seat in winners:
            self.chips[seat] += share
        self.chips[winners[0]] += odd
        events.append(("settled", name, amount, tuple(winners)))

    def _finish(self, events: list[Event]) -> None:
        self.phase = OVER
        self.to_move = TERMINAL
        self.options = []
        if not self.setup.single_round:
            events.append(("game_over", tuple(self.chips)))

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
        """Every card is in exactly one place: a hand, the widow, or laid."""
        if self.round_no == 0:
            return True
        seen = self.widow
        total = self.widow.bit_count() + len(self.laid)
        for hand in self.hands:
            seen |= hand
            total += hand.bit_count()
        for _, card in self.laid:
            seen |= 1 << card
        return seen == FULL_DECK and total == 52

    def __repr__(self) -> str:
        return (
            f"RummoliState(round={self.round_no}, phase={PHASE_NAMES[self.phase]}, "
            f"to_move={self.to_move}, chips={self.chips}, board={self.board})"
        )
