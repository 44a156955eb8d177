"""A fast simulator of the rest of one round, on masks, for the strong bot's rollouts.

The strong bot plays the round out hundreds of times per decision, so the engine's
:class:`~rummoli.games.rummoli.state.RummoliState` is the wrong tool: it writes events,
checks legality and keeps a record, and a bot could not build one from an observation
anyway (the observation has no betting history to replay). This module re-implements
only what decides the chips of the round, in tight loops over plain lists:

- the auction: each bidder's top price comes from the basic bot's rule of thumb, the
  highest top price wins and pays one more than the second (an ascending auction with
  minimum raises ends there);
- the betting round, on the engine's own :class:`~rummoli.games.rummoli.betting.Betting`
  (its turn order, raise sizes and reopening rules written out inline for speed, and its
  side pots; a test checks the two agree), every seat following the basic bot's rule;
- the Rummoli phase, exactly as the engine plays it (runs, stops, colour switches, duty
  passes, fines, deadlocks, pay spaces, the round's payments), every choice among
  equally low cards taken by a cheap rule (the card that lays most of its own run).

Any seat may be marked wild for a rollout, in the auction (:attr:`Table.wild_bid`) or in
the betting (:attr:`Table.wild_bet`): it then bids or bets as the random bot does
(uniformly among its legal choices). The strong bot marks opponents so with the
probability its opponent model gives them (players seen bidding or betting far beyond
their cards), so a table of random players is not mistaken for a table of careful ones.

A *world* is one complete deal: ``hands`` (one mask per seat), ``owner`` (for each card:
its seat, :data:`WIDOW` or :data:`LAID`), ``chips`` and ``board``; every function here
mutates the lists it is given, so callers pass copies.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummoli.bots.rummoli.basic import (
    FOLD_CODE,
    bet_policy,
    max_bid,
    widow_gain,
)
from rummoli.bots.rummoli.estimate import (
    lowest_cards,
    lowest_per_suit,
    own_run_length,
    poker_percentile,
)
from rummoli.cards import BLACK_MASK, NUM_RANKS, RED_MASK
from rummoli.engine.rng import SeededRandom
from rummoli.games.rummoli.betting import FIXED_LIMIT_BETS, NO_LIMIT, POT_LIMIT, Betting
from rummoli.games.rummoli.board import holds_pay_card, pay_card_mask, single_card_spaces
from rummoli.games.rummoli.rules import Rules
from rummoli.poker import hand_key

WIDOW = -1
LAID = -2

_ACE = NUM_RANKS - 1
_KD, _AD = 13 + 11, 13 + 12
_NINE = 7


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


def _others_can_bet(order: Sequence[int], folded: list[bool], chips: list[int], seat: int) -> bool:
    """Whether anyone besides ``seat`` is still in with chips (a plain loop: about twice
    as fast as ``any`` over a generator, and this runs in the innermost loop)."""
    for s in order:  # noqa: SIM110
        if s != seat and not folded[s] and chips[s]:
            return True
    return False


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


class Table:
    """What stays fixed during one round: seats, their order, the rules, the spaces."""

    __slots__ = (
        "akd",
        "any_colour",
        "dealer",
        "fine",
        "heads_up",
        "in_round",
        "lead_any_suit",
        "limit",
        "nxt",
        "pay_cards",
        "rng",
        "rules",
        "s789",
        "showdown",
        "single",
        "spaces",
        "switch_any_suit",
        "wild_bet",
        "wild_bid",
    )

    def __init__(
        self, rules: Rules, spaces: Sequence[str], in_round: Sequence[int], dealer: int, n: int
    ) -> None:
        self.rules = rules
        self.spaces = tuple(spaces)
        self.in_round = tuple(in_round)
        self.dealer = dealer
        self.nxt = [-1] * n
        for i, seat in enumerate(in_round):
            self.nxt[seat] = in_round[(i + 1) % len(in_round)]
        self.single = single_card_spaces(self.spaces)
        self.akd = self.spaces.index("AKD")
        self.s789 = self.spaces.index("789")
        self.fine = rules.cant_lead_fine
        self.any_colour = rules.deadlock == "any_colour"
        self.lead_any_suit = rules.lead == "lowest_of_any_suit"
        self.switch_any_suit = rules.switch_lead == "any_suit_of_colour"
        self.showdown = rules.poker == "showdown"
        limit = rules.bet_limit
        self.limit: int = (
            NO_LIMIT if limit == "no_limit" else POT_LIMIT if limit == "pot_limit" else int(limit)
        )
        self.heads_up = rules.heads_up_raises == "unlimited"
        self.pay_cards = pay_card_mask(rules.ace_of_spades)
        #: Seats that play at random in this rollout (the strong bot's opponent model).
        self.wild_bid = [False] * n
        self.wild_bet = [False] * n
        #: The generator for wild seats' choices (set by the caller).
        self.rng = SeededRandom(0)

    # ------------------------------------------------------------------ Rummoli phase

    def start_play(
        self, hands: list[int], owner: list[int], chips: list[int], board: list[int], leader: int
    ) -> int:
        """Play the Rummoli phase from its first lead; returns the winner (-1: deadlock)."""
        hand = hands[leader]
        cards = lowest_per_suit(hand) if self.lead_any_suit else lowest_cards(hand)
        card = pick_lead(hand, cards, owner)
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
    ) -> int:
        """``seat`` lays ``card``; play on to the end of the round, every space claimed.

        ``(p1s, p1c)`` and ``(p2s, p2c)`` are the last and the one-before-last cards laid
        (seat -1 when none), which decide the AKD and 789 spaces. Returns the seat that
        went out first, or -1 for a deadlock that ended the round.
        """
        single = self.single
        nxt = self.nxt
        while True:
            hand = hands[seat] ^ (1 << card)
            hands[seat] = hand
            owner[card] = LAID
            space = single[card]
            if space < 0:
                if card == _AD:
                    if p1s == seat and p1c == _KD:
                        space = self.akd
                elif (
                    card % NUM_RANKS == _NINE
                    and p1s == seat
                    and p2s == seat
                    and p1c == card - 1
                    and p2c == card - 2
                ):
                    space = self.s789
            if space >= 0 and board[space]:
                chips[seat] += board[space]
                board[space] = 0
            p2s, p2c, p1s, p1c = p1s, p1c, seat, card
            if not hand:
                self._win(hands, chips, board, seat)
                return seat
            if card % NUM_RANKS != _ACE:
                holder = owner[card + 1]
                if holder >= 0:
                    seat = holder
                    card += 1
                    continue
            # A stop: the opposite colour is led, by this seat or the first that holds it.
            colour = BLACK_MASK if 13 <= card < 39 else RED_MASK
            mine = hand & colour
            leader = seat
            if not mine:
                skipped = [seat]
                leader = nxt[seat]
                while True:
                    if leader == seat:
                        break
                    mine = hands[leader] & colour
                    if mine:
                        break
                    skipped.append(leader)
                    leader = nxt[leader]
                if not mine:
                    if not self.any_colour:
                        self._deadlock(hands, chips, board)
                        return -1
                    card = pick_lead(hand, lowest_cards(hand), owner)
                    continue
                if self.fine:
                    for passer in skipped:
                        paid = min(self.fine, chips[passer])
                        chips[passer] -= paid
                        board[-1] += paid
            lead_hand = hands[leader]
            cards = lowest_per_suit(mine) if self.switch_any_suit else lowest_cards(mine)
            card = pick_lead(lead_hand, cards, owner)
            seat = leader

    def _win(self, hands: list[int], chips: list[int], board: list[int], winner: int) -> None:
        chips[winner] += board[-1]
        board[-1] = 0
        for seat in self.in_round:
            if seat != winner:
                paid = min(hands[seat].bit_count(), chips[seat])
                chips[seat] -= paid
                chips[winner] += paid

    def _deadlock(self, hands: list[int], chips: list[int], board: list[int]) -> None:
        for seat in self.in_round:
            paid = min(hands[seat].bit_count(), chips[seat])
            chips[seat] -= paid
            board[-1] += paid

    # ------------------------------------------------------------------ poker

    def strengths(self, hands: Sequence[int]) -> tuple[dict[int, int], dict[int, float]]:
        """Each seat's poker key, and its percentile among hands of the others' mean size
        (the basic rule's view of its own hand)."""
        keys: dict[int, int] = {}
        pct: dict[int, float] = {}
        seats = self.in_round
        total = sum(hands[s].bit_count() for s in seats)
        for seat in seats:
            hand = hands[seat]
            size = hand.bit_count()
            key = keys[seat] = hand_key(hand)
            others = (total - size) / max(len(seats) - 1, 1)
            pct[seat] = poker_percentile(key, round(others))
        return keys, pct

    def betting_from(
        self, bets: Sequence[int], folded: Sequence[bool], high: int, me: int
    ) -> Betting:
        """A :class:`Betting` as close as an observation allows to the real one at ``me``'s
        turn: who acted since the last full raise, the last raise and the number of bets
        are not observed, so they are inferred from the bets (exact in most positions)."""
        n = len(bets)
        betting = Betting(list(self.in_round), n, self.limit, self.heads_up)
        betting.committed = list(bets)
        betting.folded = list(folded)
        betting.high = betting.full = high
        levels = sorted({b for b in bets if b > 0}, reverse=True)
        betting.last_raise = (
            max(levels[0] - (levels[1] if len(levels) > 1 else 0), 1) if levels else 0
        )
        if isinstance(self.limit, int) and self.limit > 0:
            betting.bets_made = -(-high // self.limit)
        else:
            betting.bets_made = len(levels)
        order = self.in_round
        mine = order.index(me)
        for i, seat in enumerate(order):
            if seat == me or folded[seat]:
                continue
            if high == 0:
                betting.acted[seat] = i < mine
            else:
                betting.acted[seat] = bets[seat] == high
        betting.seat = me
        return betting

    def betting_from_history(self, history: Sequence[tuple[int, str, int]], me: int) -> Betting:
        """The real :class:`Betting` at ``me``'s turn, rebuilt by replaying this round's
        public betting actions (the observation's ``bet_history``): who acted, the last
        raise and the number of bets come out exact (whether a fixed limit's raising was
        capped heads-up, too, unless someone was all-in: the chips are not replayed)."""
        betting = Betting(list(self.in_round), len(self.nxt), self.limit, self.heads_up)
        # put_in takes the chips from a list; the real chips are not needed to replay.
        scratch = [1 << 40] * len(self.nxt)
        for seat, action, total in history:
            if action == "fold":
                betting.folded[seat] = True
            elif action == "check":
                betting.acted[seat] = True
            else:
                betting.put_in(seat, total, scratch)
        betting.seat = me
        return betting

    def finish_betting(
        self,
        betting: Betting,
        chips: list[int],
        board: list[int],
        keys: dict[int, int],
        pct: dict[int, float],
    ) -> int:
        """Bet on from ``betting`` with the basic rule at every seat (at random for wild
        seats), then award the poker space; returns the seat that leads the Rummoli phase.

        The turn order, raise sizes and reopening rules are those of
        :class:`~rummoli.games.rummoli.betting.Betting`, written out inline on its lists:
        this loop runs thousands of times per decision and the method calls dominated it.
        """
        order = self.in_round
        count = len(order)
        folded = betting.folded
        committed = betting.committed
        acted = betting.acted
        wild = self.wild_bet
        limit = self.limit
        fixed = limit > 0
        high = betting.high
        last_raise = betting.last_raise
        full_level = betting.full
        bets_made = betting.bets_made
        capped = betting.capped
        heads_up = betting.heads_up_unlimited
        pot = board[0]
        position = order.index(betting.seat) + 1 if betting.seat >= 0 else 0
        live = count - sum(folded[s] for s in order)
        while live > 1:
            # The next seat to act (Betting.next_seat): owes chips, or has not acted yet
            # while someone else could still answer a bet.
            seat = -1
            for i in range(position, position + count):
                s = order[i % count]
                if folded[s] or not chips[s]:
                    continue
                if committed[s] < high or (
                    not acted[s] and _others_can_bet(order, folded, chips, s)
                ):
                    seat = s
                    position = i % count + 1
                    break
            if seat < 0:
                break
            owed = high - committed[seat]
            # The totals it may raise to (Betting.raise_range): a seat that acted only
            # when it faces a full raise (a fixed limit: half a bet).
            low, top = 1, 0
            all_in = committed[seat] + chips[seat]
            reopened = not acted[seat] or (
                2 * owed >= limit if fixed else owed >= max(last_raise, 1)
            )
            if reopened and all_in > high and _others_can_bet(order, folded, chips, seat):
                if fixed:
                    if bets_made < FIXED_LIMIT_BETS or (heads_up and not capped):
                        low = top = min(full_level + limit, all_in)
                else:
                    low = high + max(last_raise, 1)
                    top = all_in
                    if limit == POT_LIMIT:
                        top = min(all_in, high + pot + owed)
                    if low > all_in:
                        low = top = all_in
            if wild[seat]:
                plain = 1 if owed == 0 else 2
                pick = self.rng.below(plain + max(0, top - low + 1))
                if pick >= plain:
                    total = low + pick - plain
                elif owed == 0:
                    acted[seat] = True
                    continue
                elif pick == 0:
                    total = min(high, all_in)
                else:
                    folded[seat] = True
                    live -= 1
                    continue
            else:
                strength = pct[seat] ** (live - 1)
                answer = bet_policy(strength, owed, pot, high, low, top)
                if answer <= 0:
                    if owed == 0:
                        acted[seat] = True
                        continue
                    if answer == FOLD_CODE:
                        folded[seat] = True
                        live -= 1
                        continue
                    total = min(high, all_in)
                else:
                    total = answer
            # Betting.put_in
            added = total - committed[seat]
            chips[seat] -= added
            pot += added
            committed[seat] = total
            acted[seat] = True
            raised_by = total - high
            if raised_by > 0:
                if 2 * (total - full_level) >= limit if fixed else raised_by >= max(last_raise, 1):
                    last_raise = raised_by
                    full_level = total
                    bets_made += 1
                    if fixed and bets_made == FIXED_LIMIT_BETS:
                        capped = sum(1 for s in order if not folded[s] and chips[s]) >= 3
                high = total
        betting.high = high
        betting.last_raise = last_raise
        betting.full = full_level
        betting.bets_made = bets_made
        betting.capped = capped
        board[0] = pot
        contenders = [s for s in order if not folded[s]]
        if len(contenders) == 1:
            winner = contenders[0]
            chips[winner] += board[0]
            board[0] = 0
            return winner
        seat, uncalled = betting.take_back_uncalled()
        if uncalled:
            chips[seat] += uncalled
            board[0] -= uncalled
        level = committed[contenders[0]]
        if all(committed[s] == level for s in contenders):
            return self._award([(board[0], contenders)], keys, chips, board)
        dead = board[0] - sum(committed)
        return self._award(betting.pots(dead), keys, chips, board)

    def _award(
        self,
        pots: list[tuple[int, list[int]]],
        keys: dict[int, int],
        chips: list[int],
        board: list[int],
    ) -> int:
        leader = -1
        for amount, eligible in pots:
            best = max(keys[s] for s in eligible)
            winners = [s for s in eligible if keys[s] == best]
            share = amount // len(winners)
            for seat in winners:
                chips[seat] += share
                board[0] -= share
            if leader < 0:
                leader = winners[0]
        return leader

    def poker_phase(
        self,
        hands: list[int],
        chips: list[int],
        board: list[int],
        keys: dict[int, int],
        pct: dict[int, float],
    ) -> int:
        """The whole poker phase from its start; returns the leader of the Rummoli phase."""
        if self.showdown:
            return self._award([(board[0], list(self.in_round))], keys, chips, board)
        n = len(hands)
        betting = Betting(list(self.in_round), n, self.limit, self.heads_up)
        return self.finish_betting(betting, chips, board, keys, pct)

    # ------------------------------------------------------------------ the widow

    def auction(
        self, hands: list[int], widow: int, chips: list[int], board: list[int], skip: int = -1
    ) -> int:
        """The auction with every bidder on the basic rule, or bidding at random if
        :attr:`wild_bid`; ``skip`` has passed. Returns the buyer (-1: no bid), who has paid the
        dealer; the caller swaps his hand for the widow."""
        board_named = dict(zip(self.spaces, board, strict=True))
        blocks = self.rules.pay_card_blocks_exchange
        widow_size = widow.bit_count()
        wild = self.wild_bid
        tops: dict[int, int] = {}
        for seat in self.in_round[:-1]:
            if seat == skip or (blocks and holds_pay_card(hands[seat], self.pay_cards)):
                continue
            if wild[seat]:
                tops[seat] = -1
                continue
            others = [hands[s].bit_count() for s in self.in_round if s != seat]
            gain = widow_gain(hands[seat], widow_size, others, board_named)
            tops[seat] = min(max_bid(gain, chips[seat]), chips[seat])
        if -1 in tops.values():
            buyer, price = self._wild_auction(tops, chips)
        else:
            buyer, price = self._sane_auction(tops)
        if buyer >= 0:
            chips[buyer] -= price
            chips[self.dealer] += price
        return buyer

    @staticmethod
    def _sane_auction(tops: dict[int, int]) -> tuple[int, int]:
        """Everyone raises by one while under his top price: the highest top wins and pays
        one more than the second (ties: the first in bidding order, at his top)."""
        best_seat, best, second = -1, 0, 0
        for seat, top in tops.items():
            if top > best:
                best_seat, best, second = seat, top, best
            elif top > second:
                second = top
        return best_seat, min(second + 1, best)

    def _wild_auction(self, tops: dict[int, int], chips: list[int]) -> tuple[int, int]:
        """The auction turn by turn: a wild bidder picks uniformly among passing and every
        bid he may make, as the random bot does; the others raise by one to their top."""
        rng = self.rng
        order = list(tops)
        passed: set[int] = set()
        high, high_bidder = 0, -1
        while True:
            acted = False
            for seat in order:
                if seat in passed or seat == high_bidder:
                    continue
                room = chips[seat] - high
                if room <= 0:
                    passed.add(seat)
                    continue
                top = tops[seat]
                if top < 0:
                    pick = rng.below(room + 1)
                    if pick == 0:
                        passed.add(seat)
                        continue
                    high += pick
                elif top > high:
                    high += 1
                else:
                    passed.add(seat)
                    continue
                high_bidder = seat
                acted = True
            if not acted:
                return high_bidder, high
