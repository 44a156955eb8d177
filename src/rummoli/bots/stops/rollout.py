"""A fast simulator of the rest of one round, on masks, for the strong bot's rollouts.

The strong bot plays the round out hundreds of times per decision, so the engine's
:class:`~rummoli.games.stops.state.StopsState` is the wrong tool: it writes events,
checks legality and keeps a record, and a bot could not build one from an observation
anyway (the observation has no betting history to replay). This module re-implements
only what decides the chips of the round, in tight loops over plain lists, for every
game of the family by its layout and the engine's own tables:

- the auction and the betting round (:mod:`.rollout_poker`, this table's base), every
  seat following the basic bot's rule;
- the spaces won by the cards held at the deal (Tripoley, Poch);
- the runs, exactly as the engine plays them (the next card of the suit, or of the next
  rank; stops; the lead after a stop by the layout; duty passes, fines, deadlocks, pay
  spaces of one card and of several, the round's payments), every choice among cards
  taken by a cheap rule (the card that lays most of its own run).

A *world* is one complete deal: ``hands`` (one mask per seat), ``owner`` (for each card:
its seat, :data:`WIDOW` or :data:`LAID`: a card out of the pack or turned for trumps is
as dead as a laid one), ``chips`` and ``board``; every function here mutates the lists it
is given, so callers pass copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummoli.bots.stops.basic import low_lead_score, rank_lead_score
from rummoli.bots.stops.estimate import own_run_length
from rummoli.bots.stops.rollout_poker import PokerTable
from rummoli.cards import ACE, NUM_RANKS, SUIT_FIELD
from rummoli.games.stops import layout as lay
from rummoli.games.stops.layout import Layout
from rummoli.games.stops.round_end import hand_points

# The engine's own lowest cards (aces high), read from its tables: the rollouts lay as it does.
from rummoli.games.stops.runs import _lowest_cards as lowest_cards
from rummoli.games.stops.runs import _lowest_per_suit as lowest_per_suit

WIDOW = -1
LAID = -2

_ACE = NUM_RANKS - 1
_ACES = sum(1 << (suit * NUM_RANKS + ACE) for suit in range(4))
#: The four cards of each place of a sequence by rank, aces low (0 = aces ... 12 = kings).
_RANK_PLACE = tuple(
    tuple(suit * NUM_RANKS + (12 if place == 0 else place - 1) for suit in range(4))
    for place in range(NUM_RANKS)
)


def make_owner(hands: Sequence[int], widow: int) -> list[int]:
    """``owner[card]`` for a world: a seat, WIDOW, or LAID for every other card."""
    owner = [LAID] * 52
    for seat, hand in enumerate(hands):
        while hand:
            low = hand & -hand
            owner[low.bit_length() - 1] = seat
            hand ^= low
    while widow:
        low = widow & -widow
        owner[low.bit_length() - 1] = WIDOW
        widow ^= low
    return owner


def pick_lead(hand: int, cards: Sequence[int], owner: list[int]) -> int:
    """The rollout rule among equally low cards: the one laying most of its own run, then
    the one whose run ends below a dead card (laid, or in the widow), so that the stop
    gives the lead back. The rollout knows the sampled widow, as if the player could
    count cards perfectly."""
    if len(cards) == 1:
        return cards[0]
    best = cards[0]
    best_score = -1
    for card in cards:
        length = own_run_length(hand, card)
        top = card + length - 1
        dead = top % NUM_RANKS == _ACE or owner[top + 1] < 0
        score = 2 * length + dead
        if score > best_score:
            best, best_score = card, score
    return best


def _low_lowest(mask: int) -> tuple[int, ...]:
    """The lowest cards of ``mask`` when aces are low."""
    aces = mask & _ACES
    if aces:
        return tuple(c for c in range(ACE, 52, NUM_RANKS) if aces >> c & 1)
    return lowest_cards(mask)


def _low_per_suit(mask: int) -> tuple[int, ...]:
    """The lowest card of each suit of ``mask`` when aces are low."""
    cards = []
    for shift in (0, 13, 26, 39):
        field = mask >> shift & SUIT_FIELD
        if field:
            cards.append(shift + ACE if field >> ACE & 1 else lowest_cards(field << shift)[0])
    return tuple(cards)


def _every(mask: int) -> tuple[int, ...]:
    return tuple(card for card in range(52) if mask >> card & 1)


class Table(PokerTable):
    """What stays fixed during one round: seats, their order, the layout, its tables."""

    __slots__ = (
        "ace_low",
        "by_rank",
        "combos",
        "continue_deadlock",
        "fine",
        "following",
        "kitty",
        "lead",
        "same_player",
        "single",
        "switch",
        "switch_rule",
        "tops",
    )

    def __init__(
        self, plan: Layout, in_round: Sequence[int], dealer: int, n: int, trump: int = -1
    ) -> None:
        super().__init__(plan, in_round, dealer, n, trump)
        tables = self.values.tables
        self.single = tables.single_space
        #: For each card: the spaces of several cards it may complete, and whether any
        #: is won by one player at any time (its cards laid by him are then tracked).
        self.combos = tables.combos
        self.same_player = any(not row for card in tables.combos for _, _, row in card)
        self.tops = tables.tops
        self.following = tables.next_card
        self.switch = tables.switch
        self.kitty = len(plan.spaces) - 1 if plan.has_kitty else -1
        self.fine = plan.cant_lead_fine
        self.continue_deadlock = plan.deadlock == lay.CONTINUE
        self.lead = plan.lead
        self.switch_rule = plan.switch_lead
        self.ace_low = plan.ace_low
        self.by_rank = plan.play == lay.RANK

    # ------------------------------------------------------------------ choices

    def _choose(self, hand: int, cards: Sequence[int], owner: list[int]) -> int:
        """The rollout's pick among ``cards`` for ``hand``."""
        if len(cards) == 1:
            return cards[0]
        if self.by_rank:
            pay = self.values.tables.pay_cards
            return max(cards, key=lambda c: rank_lead_score(hand, c, pay))
        if self.ace_low:
            dead = 0
            for card, place in enumerate(owner):
                if place < 0:
                    dead |= 1 << card
            pay = self.values.tables.pay_cards
            return max(cards, key=lambda c: low_lead_score(hand, c, dead, pay))
        return pick_lead(hand, cards, owner)

    def _lowest(self, mask: int) -> tuple[int, ...]:
        return _low_lowest(mask) if self.ace_low else lowest_cards(mask)

    def _per_suit(self, mask: int) -> tuple[int, ...]:
        return _low_per_suit(mask) if self.ace_low else lowest_per_suit(mask)

    # ------------------------------------------------------------------ the cards held

    def claim_held(self, hands: list[int], chips: list[int], board: list[int]) -> None:
        """The spaces won by holding their cards at the deal, as the engine pays them."""
        for space, ways, split in self.values.tables.held:
            if not board[space]:
                continue
            holders = [
                s for s in self.in_round if any(all(hands[s] >> c & 1 for c in way) for way in ways)
            ]
            if not holders:
                continue
            if not split:
                holders = holders[:1]
            share = board[space] // len(holders)
            for seat in holders:
                board[space] -= share
                chips[seat] += share

    # ------------------------------------------------------------------ the runs

    def start_play(
        self, hands: list[int], owner: list[int], chips: list[int], board: list[int], leader: int
    ) -> int:
        """Play the runs from their first lead; returns the winner (-1: deadlock)."""
        if leader < 0:  # the holder of the lowest card of a suit (Newmarket's club)
            held = 0
            for seat in self.in_round:
                held |= hands[seat]
            card = -1
            for suit in (*self.plan.lead_suits, 0, 1, 2, 3):
                field = held >> (suit * NUM_RANKS) & SUIT_FIELD
                if field:
                    card = self._per_suit(field << (suit * NUM_RANKS))[0]
                    break
            return self.run(hands, owner, chips, board, owner[card], card, -1, -1, -1, -1)
        hand = hands[leader]
        if self.by_rank or self.lead == lay.ANY_CARD:
            cards = _every(hand)
        elif self.lead == lay.LOWEST_OF_ANY_SUIT:
            cards = self._per_suit(hand)
        else:
            cards = self._lowest(hand)
        card = self._choose(hand, cards, owner)
        return self.run(hands, owner, chips, board, leader, card, -1, -1, -1, -1)

    def run(
        self,
        hands: list[int],
        owner: list[int],
        chips: list[int],
        board: list[int],
        seat: int,
        card: int,
        p1s: int,
        p1c: int,
        p2s: int,
        p2c: int,
        laid_by: list[int] | None = None,
    ) -> int:
        """``seat`` lays ``card``; play on to the end of the round, every space claimed.

        ``(p1s, p1c)`` and ``(p2s, p2c)`` are the last and the one-before-last cards laid
        (seat -1 when none), which decide the spaces of cards laid one after another
        (Rummoli's AKD and 789); ``laid_by`` the cards each seat laid this round, for
        those won by one player at any time (Pope Joan's Matrimony). Returns the seat
        that went out first, or -1 for a deadlock that ended the round.
        """
        if self.by_rank:
            return self.run_ranks(hands, owner, chips, board, seat, card)
        if self.same_player and laid_by is None:
            laid_by = [0] * len(self.nxt)
        single = self.single
        combos = self.combos
        nxt = self.nxt
        tops = self.tops
        following = self.following
        switch = self.switch
        while True:
            hand = hands[seat] ^ (1 << card)
            hands[seat] = hand
            owner[card] = LAID
            if laid_by is not None:
                laid_by[seat] |= 1 << card
            space = single[card]
            ways = combos[card]
            if ways:
                for combo, way, in_a_row in ways:
                    if in_a_row:
                        done = (
                            p1s == seat
                            and p1c == way[-2]
                            and (len(way) == 2 or (p2s == seat and p2c == way[-3]))
                        )
                    else:
                        mine = laid_by[seat] if laid_by is not None else 0
                        done = all(mine >> c & 1 for c in way)
                    if not done:
                        continue
                    if space < 0:
                        space = combo
                    elif board[combo]:
                        chips[seat] += board[combo]
                        board[combo] = 0
            if space >= 0 and board[space]:
                chips[seat] += board[space]
                board[space] = 0
            p2s, p2c, p1s, p1c = p1s, p1c, seat, card
            if not hand:
                self._win(hands, chips, board, seat)
                return seat
            if not tops >> card & 1:
                holder = owner[following[card]]
                if holder >= 0:
                    seat = holder
                    card = following[card]
                    continue
            # A stop: the player who stopped leads again, or the first that may.
            allowed = switch[card]
            mine = hand & allowed
            leader = seat
            if not mine:
                skipped = [seat]
                leader = nxt[seat]
                while True:
                    if leader == seat:
                        break
                    mine = hands[leader] & allowed
                    if mine:
                        break
                    skipped.append(leader)
                    leader = nxt[leader]
                if not mine:
                    if not self.continue_deadlock:
                        self._deadlock(hands, chips, board)
                        return -1
                    card = self._choose(hand, self._lowest(hand), owner)
                    continue
                if self.fine:
                    for passer in skipped:
                        paid = min(self.fine, chips[passer])
                        chips[passer] -= paid
                        board[-1] += paid
            lead_hand = hands[leader]
            rule = self.switch_rule
            if rule == lay.ANY_CARD:
                cards = _every(mine)
            elif rule in lay.BY_SUIT:
                cards = self._per_suit(mine)
            else:
                cards = self._lowest(mine)
            card = self._choose(lead_hand, cards, owner)
            seat = leader

    def run_ranks(
        self,
        hands: list[int],
        owner: list[int],
        chips: list[int],
        board: list[int],
        seat: int,
        card: int,
    ) -> int:
        """The runs by rank (Nain Jaune), as :mod:`rummoli.games.stops.ranks` plays them."""
        single = self.single
        order = self.in_round
        count = len(order)
        while True:
            hand = hands[seat] ^ (1 << card)
            hands[seat] = hand
            owner[card] = LAID
            space = single[card]
            if space >= 0 and board[space]:
                chips[seat] += board[space]
                board[space] = 0
            if not hand:
                self._win(hands, chips, board, seat)
                return seat
            rank = card % NUM_RANKS
            place = 0 if rank == _ACE else rank + 1
            if place == NUM_RANKS - 1:
                card = self._choose(hand, _every(hand), owner)
                continue
            target = place + 1
            start = order.index(seat)
            found = -1
            while found < 0:
                for step in range(count):  # the player himself first, then his left
                    other = order[(start + step) % count]
                    cards = [c for c in _RANK_PLACE[target] if hands[other] >> c & 1]
                    if cards:
                        found = other
                        card = self._choose(hands[other], cards, owner)
                        break
                if found >= 0:
                    break
                if self.plan.missing_rank == lay.NEW_SEQUENCE or target == NUM_RANKS - 1:
                    found = seat
                    card = self._choose(hand, _every(hand), owner)
                    break
                target += 1
            seat = found

    def _win(self, hands: list[int], chips: list[int], board: list[int], winner: int) -> None:
        kitty = self.kitty
        if kitty >= 0:
            chips[winner] += board[kitty]
            board[kitty] = 0
        going_out = self.plan.going_out
        if going_out == lay.NONE:
            return
        per_point = going_out == lay.PER_POINT
        for seat in self.in_round:
            if seat != winner:
                owed = hand_points(hands[seat]) if per_point else hands[seat].bit_count()
                paid = min(owed, chips[seat])
                chips[seat] -= paid
                chips[winner] += paid

    def _deadlock(self, hands: list[int], chips: list[int], board: list[int]) -> None:
        if self.kitty < 0:
            return
        for seat in self.in_round:
            paid = min(hands[seat].bit_count(), chips[seat])
            chips[seat] -= paid
            board[-1] += paid
