"""The poker stage and the widow's auction of a rollout (:mod:`.rollout`'s base).

What a rollout plays before the runs, in tight loops over plain lists: the auction
(each bidder's top price comes from the basic bot's rule of thumb, the highest top price
wins and pays one more than the second: an ascending auction with minimum raises ends
there) and the betting round, on the engine's own
:class:`~rummoli.games.stops.betting.Betting` (its turn order, raise sizes and reopening
rules written out inline for speed, and its side pots; a test checks the two agree),
every seat following the basic bot's rule, and the award of the pots; then who leads the
runs, by the game's layout. Any seat may be marked wild for a rollout
(:attr:`PokerTable.wild_bid`, :attr:`PokerTable.wild_bet`): it then bids or bets as the
random bot does.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummoli.bots.stops.basic import FOLD_CODE, bet_policy, max_bid, widow_gain
from rummoli.bots.stops.board import BoardValues, board_values
from rummoli.bots.stops.estimate import poker_percentile
from rummoli.engine.rng import SeededRandom
from rummoli.games.stops import layout as lay
from rummoli.games.stops.betting import FIXED_LIMIT_BETS, NO_LIMIT, POT_LIMIT, Betting
from rummoli.games.stops.layout import Layout
from rummoli.games.stops.poker_phase import sets_key
from rummoli.games.stops.tables import holds_pay_card
from rummoli.poker import hand_key


def _others_can_bet(order: Sequence[int], folded: list[bool], chips: list[int], seat: int) -> bool:
    """Whether anyone besides ``seat`` is still in with chips (a plain loop: about twice
    as fast as ``any`` over a generator, and this runs in the innermost loop)."""
    for s in order:  # noqa: SIM110
        if s != seat and not folded[s] and chips[s]:
            return True
    return False


class PokerTable:
    """What stays fixed during one round for its poker stage and auction: seats, their
    order, the layout (its rules), the spaces."""

    __slots__ = (
        "bet_order",
        "dealer",
        "heads_up",
        "in_round",
        "limit",
        "nxt",
        "plan",
        "rng",
        "showdown",
        "spaces",
        "trump",
        "values",
        "wild_bet",
        "wild_bid",
    )

    def __init__(
        self, plan: Layout, in_round: Sequence[int], dealer: int, n: int, trump: int = -1
    ) -> None:
        self.plan = plan
        self.trump = trump
        self.values: BoardValues = board_values(plan, trump)
        self.spaces = plan.names
        self.in_round = tuple(in_round)
        #: The betting's order: from the dealer's left, or from the dealer (Tripoley).
        self.bet_order = (
            self.in_round[-1:] + self.in_round[:-1]
            if plan.poker_opener == lay.DEALER
            else self.in_round
        )
        self.dealer = dealer
        self.nxt = [-1] * n
        for i, seat in enumerate(in_round):
            self.nxt[seat] = in_round[(i + 1) % len(in_round)]
        self.showdown = plan.poker == lay.SHOWDOWN
        limit = plan.bet_limit
        self.limit: int = (
            NO_LIMIT if limit == "no_limit" else POT_LIMIT if limit == "pot_limit" else int(limit)
        )
        self.heads_up = plan.heads_up_raises == "unlimited"
        #: Seats that play at random in this rollout (the strong bot's opponent model).
        self.wild_bid = [False] * n
        self.wild_bet = [False] * n
        #: The generator for wild seats' choices (set by the caller).
        self.rng = SeededRandom(0)

    def leader_after(self, poker_winner: int) -> int:
        """Who leads the runs after the poker stage, by the layout (-1: the holder of
        the lowest card of a suit, Newmarket's, found when the runs start)."""
        leader = self.plan.leader
        if leader == lay.POKER_WINNER and poker_winner >= 0:
            return poker_winner
        if leader == lay.DEALER:
            return self.dealer
        if leader == lay.LOWEST_OF_SUIT:
            return -1
        return self.in_round[0]

    # ------------------------------------------------------------------ poker

    def strengths(self, hands: Sequence[int]) -> tuple[dict[int, int], dict[int, float]]:
        """Each seat's poker key (its best set's, when hands rank by sets), and its
        percentile among hands of the others' mean size (the basic rule's view of its own
        hand)."""
        sets = self.plan.hands == lay.SETS
        keys: dict[int, int] = {}
        pct: dict[int, float] = {}
        seats = self.in_round
        total = sum(hands[s].bit_count() for s in seats)
        for seat in seats:
            hand = hands[seat]
            size = hand.bit_count()
            key = hand_key(hand)
            keys[seat] = sets_key(hand, self.trump) if sets else key
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
        betting = Betting(list(self.bet_order), n, self.limit, self.heads_up)
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
        order = self.bet_order
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
        betting = Betting(list(self.bet_order), len(self.nxt), self.limit, self.heads_up)
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
        seats), then award the poker space; returns the seat that leads the runs.

        The turn order, raise sizes and reopening rules are those of
        :class:`~rummoli.games.stops.betting.Betting`, written out inline on its lists:
        this loop runs thousands of times per decision and the method calls dominated it.
        """
        order = self.bet_order
        count = len(order)
        folded = betting.folded
        set_opens = self.plan.open_with_set
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
            if set_opens and high == 0 and not keys[seat]:
                acted[seat] = True  # no set: he may not open (Poch)
                continue
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
            return self.leader_after(winner)
        if set_opens and high == 0 and not self.plan.unopened_showdown:
            return self.leader_after(-1)  # nobody opened: the pool stays
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
            if not best and self.plan.hands == lay.SETS:
                continue  # no set at all: the pool stays
            winners = [s for s in eligible if keys[s] == best]
            share = amount // len(winners)
            for seat in winners:
                chips[seat] += share
                board[0] -= share
            if leader < 0:
                leader = winners[0]
        return self.leader_after(leader)

    def poker_phase(
        self,
        hands: list[int],
        chips: list[int],
        board: list[int],
        keys: dict[int, int],
        pct: dict[int, float],
    ) -> int:
        """The whole poker stage from its start (none: straight to the runs); returns the
        leader of the runs."""
        if self.plan.poker == lay.NONE:
            return self.leader_after(-1)
        if self.showdown:
            return self._award([(board[0], list(self.in_round))], keys, chips, board)
        n = len(hands)
        betting = Betting(list(self.bet_order), n, self.limit, self.heads_up)
        return self.finish_betting(betting, chips, board, keys, pct)

    # ------------------------------------------------------------------ the widow

    def auction(
        self, hands: list[int], widow: int, chips: list[int], board: list[int], skip: int = -1
    ) -> int:
        """The auction with every bidder on the basic rule, or bidding at random if
        :attr:`wild_bid`; ``skip`` has passed. Returns the buyer (-1: no bid), who has paid the
        dealer; the caller swaps his hand for the widow."""
        board_named = dict(zip(self.spaces, board, strict=True))
        blocks = self.plan.pay_card_blocks_exchange
        values = self.values
        pay_cards = values.tables.pay_cards
        pay_combos = values.tables.pay_combos
        widow_size = widow.bit_count()
        wild = self.wild_bid
        tops: dict[int, int] = {}
        for seat in self.in_round[:-1]:
            if seat == skip or (blocks and holds_pay_card(hands[seat], pay_cards, pay_combos)):
                continue
            if wild[seat]:
                tops[seat] = -1
                continue
            others = [hands[s].bit_count() for s in self.in_round if s != seat]
            gain = widow_gain(hands[seat], widow_size, others, board_named, values)
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
