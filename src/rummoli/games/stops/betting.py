"""One round of poker betting with no draw: check, bet, call, raise, fold, all-in, side pots.

Chips bet go straight onto the board's ``poker`` space, so the betting round only keeps
what each seat has put in this round.

A short all-in (a bet or raise for less than a full one, because the player has no more)
is treated as Robert's Rules of Poker say (quoted in ``docs/rules.md``):

- a fixed limit N: an all-in of at least half a bet over the last full bet counts as a
  full bet (it is one of the bet and three raises, and the next raise is a full N above
  it); one of less does not, and a player facing it may fold, call or *complete the
  wager* (raise to the last full bet plus N). Several short all-ins that add up to half a
  bet count as a full bet ("multiple all-in wagers ... still act as a raise");
- no limit and pot limit: a raise for less than the last full bet or raise does not
  change the minimum raise (still the last full one over the high bet).

Either way a player who has already acted may raise again only when, by his turn, he
faces at least a full raise (no limit, pot limit: the last full bet or raise; a fixed
limit: half a bet), whether one player's raise or several short all-ins made it. A fixed
limit allows a bet and three raises; with ``heads_up_unlimited`` (Robert's Rules) there
is no cap while only two players not all-in are in the pot, unless it was capped first.

``legacy`` keeps the rules of records played before this version (rules version 1): a
short all-in never reopened the betting under no limit and pot limit, a fixed-limit
all-in was measured from the high bet alone, a raise went N above the high bet, and a
player who had acted could raise again at a fixed limit only facing a whole bet.
"""

from __future__ import annotations

from typing import Final

from rummoli.games.stops.actions import CALL, CHECK, FOLD

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
        "capped",
        "committed",
        "folded",
        "full",
        "heads_up_unlimited",
        "high",
        "last_raise",
        "legacy",
        "limit",
        "order",
        "seat",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Betting:
        # Explicit so that the copy below can make a blank instance with ``__new__``
        # without running ``__init__``, also when mypyc compiles this module (its
        # default constructor would run ``__init__``).
        return super().__new__(cls)

    def __init__(
        self,
        order: list[int],
        num_seats: int,
        limit: int,
        heads_up_unlimited: bool = False,
        legacy: bool = False,
    ) -> None:
        #: Seats in the round, clockwise from the dealer's left (who opens).
        self.order = order
        #: ``NO_LIMIT``, ``POT_LIMIT`` or the fixed bet size.
        self.limit = limit
        self.committed = [0] * num_seats
        self.folded = [False] * num_seats
        #: Whether the seat has acted this round (``legacy``: since the last full raise).
        self.acted = [False] * num_seats
        self.high = 0
        #: The size of the last full bet or raise (no limit, pot limit).
        self.last_raise = 0
        #: The total of the last full bet (a fixed limit): a raise goes N above it.
        self.full = 0
        self.bets_made = 0
        #: Fixed limit: no cap while the pot is heads-up (Robert's Rules), unless the
        #: raising was capped while three or more players not all-in were in it.
        self.heads_up_unlimited = heads_up_unlimited
        self.capped = False
        self.legacy = legacy
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
        other.full = self.full
        other.bets_made = self.bets_made
        other.heads_up_unlimited = self.heads_up_unlimited
        other.capped = self.capped
        other.legacy = self.legacy
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

        A seat acts when it owes chips, or when it has not acted yet and somebody else
        could still answer a bet; a seat with no chips never acts.
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

    def _reopened(self, seat: int) -> bool:
        """Whether ``seat``, who has acted, faces a full raise by now (Robert's Rules: a
        fixed limit, half a bet; else the last full bet or raise), so may raise again."""
        faces = self.high - self.committed[seat]
        limit = self.limit
        if self.legacy:
            return 0 < limit <= faces
        if limit > 0:
            return 2 * faces >= limit
        return faces >= max(self.last_raise, 1)

    def raise_range(self, seat: int, chips: list[int], pot: int) -> range:
        """The totals ``seat`` may raise to (empty if it may not raise)."""
        committed = self.committed[seat]
        if self.acted[seat] and not self._reopened(seat):
            return range(0)
        all_in = committed + chips[seat]
        if all_in <= self.high:
            return range(0)
        if not self._others_can_bet(seat, chips):
            return range(0)
        if self.limit > 0:
            if self.bets_made >= FIXED_LIMIT_BETS and (self.capped or not self.heads_up_unlimited):
                return range(0)
            # Completing the wager: N above the last full bet (legacy: above the high).
            target = (self.high if self.legacy else self.full) + self.limit
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
            limit = self.limit
            if limit > 0:
                # Half a bet or more over the last full bet counts as a full bet, one
                # all-in or several (legacy: over the high bet, one all-in alone).
                over = raised_by if self.legacy else total - self.full
                full = 2 * over >= limit
            else:
                full = raised_by >= max(self.last_raise, 1)
            if full:
                self.last_raise = raised_by
                self.full = total
                self.bets_made += 1
                if self.legacy:
                    for s in self.order:
                        if s != seat:
                            self.acted[s] = False
                elif limit > 0 and self.bets_made == FIXED_LIMIT_BETS:
                    self.capped = self._players_not_all_in(chips) >= 3
            self.high = total
        return added

    def _players_not_all_in(self, chips: list[int]) -> int:
        """Players still in the pot with chips left (Robert's Rules' "not all-in")."""
        count = 0
        for s in self.order:
            if not self.folded[s] and chips[s]:
                count += 1
        return count

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
