"""One round of poker betting with no draw: check, bet, call, raise, fold, all-in, side pots.

Chips bet go straight onto the board's ``poker`` space, so the betting round only keeps
what each seat has put in this round.

A short all-in (a raise for less than a full raise, because the player has no more) is
treated as at a real table, by the limit:

- no limit and pot limit: it does not reopen the betting for players who already acted
  (they may call or fold), whatever its size;
- a fixed limit (Robert's Rules of Poker): an all-in of at least half a bet counts as a full
  raise (it reopens the betting, and counts as one of the raises); one of less does not,
  but a player who already acted may raise again when, by his turn, he faces at least a
  full bet (after several short all-ins).
"""

from __future__ import annotations

from typing import Final

from rummoli.games.rummoli.actions import CALL, CHECK, FOLD

NO_LIMIT: Final = 0
POT_LIMIT: Final = -1
#: A fixed limit allows the opening bet and at most three raises.
FIXED_LIMIT_BETS: Final = 4

#: The action numbers of every game's action space up to this size, made once: a list of
#: legal raises is then a slice of shared ints. Raise actions are above 256, where Python
#: makes a new int object for every number, and a betting decision offers up to a few
#: hundred of them.
ACTION_INTS: Final = tuple(range(4096))


class Betting:
    """The state of the betting round of one Rummoli round."""

    __slots__ = (
        "acted",
        "bets_made",
        "committed",
        "folded",
        "high",
        "last_raise",
        "limit",
        "order",
        "seat",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Betting:
        # Explicit so that the copy below can make a blank instance with ``__new__``
        # without running ``__init__``, also when mypyc compiles this module (its
        # default constructor would run ``__init__``).
        return super().__new__(cls)

    def __init__(self, order: list[int], num_seats: int, limit: int) -> None:
        #: Seats in the round, clockwise from the dealer's left (who opens).
        self.order = order
        #: ``NO_LIMIT``, ``POT_LIMIT`` or the fixed bet size.
        self.limit = limit
        self.committed = [0] * num_seats
        self.folded = [False] * num_seats
        #: Whether the seat acted since the last full raise (then it may not raise again).
        self.acted = [False] * num_seats
        self.high = 0
        self.last_raise = 0
        self.bets_made = 0
        self.seat = -1

    def copy(self) -> Betting:
        other = Betting.__new__(Betting)
        other.order = self.order
        other.limit = self.limit
        other.committed = self.committed[:]
        other.folded = self.folded[:]
        other.acted = self.acted[:]
        other.high = self.high
        other.last_raise = self.last_raise
        other.bets_made = self.bets_made
        other.seat = self.seat
        return other

    def contenders(self) -> list[int]:
        """Seats still in for the poker pot, clockwise from the dealer's left."""
        return [s for s in self.order if not self.folded[s]]

    def _others_can_bet(self, seat: int, chips: list[int]) -> bool:
        """Whether anyone besides ``seat`` is still in with chips to bet."""
        folded = self.folded
        # A plain loop, not any(<generator>): this runs for most betting decisions.
        for s in self.order:  # noqa: SIM110
            if s != seat and not folded[s] and chips[s]:
                return True
        return False

    def next_seat(self, chips: list[int]) -> int:
        """The seat to act next, or -1 when the betting is over.

        A seat acts when it owes chips, or when it has not acted since the last full raise
        and somebody else could still answer a bet; a seat with no chips never acts.
        """
        order = self.order
        folded = self.folded
        if len(order) - sum(folded) <= 1:
            return -1
        committed = self.committed
        acted = self.acted
        high = self.high
        count = len(order)
        start = order.index(self.seat) + 1 if self.seat >= 0 else 0
        for i in range(start, start + count):
            seat = order[i % count]
            if folded[seat] or not chips[seat]:
                continue
            if committed[seat] < high:
                return seat
            if not acted[seat] and self._others_can_bet(seat, chips):
                return seat
        return -1

    def raise_range(self, seat: int, chips: list[int], pot: int) -> range:
        """The totals ``seat`` may raise to (empty if it may not raise)."""
        committed = self.committed[seat]
        if self.acted[seat] and not (0 < self.limit <= self.high - committed):
            return range(0)
        all_in = committed + chips[seat]
        if all_in <= self.high:
            return range(0)
        if not self._others_can_bet(seat, chips):
            return range(0)
        if self.limit > 0:
            if self.bets_made >= FIXED_LIMIT_BETS:
                return range(0)
            target = self.high + self.limit
            return range(target, target + 1) if target <= all_in else range(all_in, all_in + 1)
        minimum = self.high + max(self.last_raise, 1)
        maximum = all_in
        if self.limit == POT_LIMIT:
            owed = self.high - committed
            maximum = min(all_in, self.high + pot + owed)
        if minimum > all_in:
            return range(all_in, all_in + 1)
        return range(minimum, maximum + 1)

    def legal(self, seat: int, chips: list[int], pot: int, raise_base: int) -> list[int]:
        owed = self.high - self.committed[seat]
        actions = [CHECK] if owed == 0 else [CALL, FOLD]
        totals = self.raise_range(seat, chips, pot)
        if totals:
            low, high = raise_base + totals.start, raise_base + totals.stop
            actions += ACTION_INTS[low:high] if high <= len(ACTION_INTS) else range(low, high)
        return actions

    def put_in(self, seat: int, total: int, chips: list[int]) -> int:
        """Raise ``seat``'s commitment to ``total``; returns the chips added."""
        added = total - self.committed[seat]
        chips[seat] -= added
        self.committed[seat] = total
        self.acted[seat] = True
        raised_by = total - self.high
        if raised_by > 0:
            # A short all-in raise does not reopen the betting; at a fixed limit, half a
            # bet or more is not short (Robert's Rules of Poker).
            if self.limit > 0:
                full = 2 * raised_by >= self.limit
            else:
                full = raised_by >= max(self.last_raise, 1)
            if full:
                self.last_raise = raised_by
                self.bets_made += 1
                for s in self.order:
                    if s != seat:
                        self.acted[s] = False
            self.high = total
        return added

    def take_back_uncalled(self) -> tuple[int, int]:
        """The part of the highest bet that nobody matched goes back to its owner, as at
        any poker table; returns ``(seat, chips)`` (chips 0 when every bet was matched)."""
        committed = self.committed
        top = max(committed)
        leaders = [s for s in self.order if committed[s] == top]
        if top == 0 or len(leaders) != 1:
            return -1, 0
        seat = leaders[0]
        second = max(c for s, c in enumerate(committed) if s != seat)
        committed[seat] = second
        return seat, top - second

    def pots(self, dead: int) -> list[tuple[int, list[int]]]:
        """Main pot then side pots, each with the seats that may win it.

        ``dead`` is what lay on the space before the betting (antes, carried chips): it
        belongs to the main pot, which every seat still in may win.
        """
        contenders = self.contenders()
        levels = sorted({self.committed[s] for s in contenders})
        if not levels or levels[0] != 0:
            levels.insert(0, 0)
        pots: list[tuple[int, list[int]]] = []
        previous = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, previous) for c in self.committed if c > previous)
            if level == 0:
                amount = dead
            eligible = [s for s in contenders if self.committed[s] >= level]
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            elif amount or level == 0:
                pots.append((amount, eligible))
            previous = level
        # Chips folded players put in above every contender's level join the last pot.
        extra = sum(max(0, c - previous) for c in self.committed)
        if extra:
            amount, eligible = pots[-1]
            pots[-1] = (amount + extra, eligible)
        return pots
