"""What a Rummoli simulation counts: chips per round by bot and seat, each space's
payouts and carry-over, round and game lengths. Built from the exact accumulators of
:mod:`rummoli.sim.stats`, so chunks merge to the same figures in any order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rummoli.sim.stats import Histogram, Moments, PlayerTally, merge_counters


@dataclass(slots=True)
class SpaceStats:
    """One board space: what it paid out and after how long."""

    #: Chips taken per payout -> number of payouts.
    payouts: Histogram = field(default_factory=dict)
    #: Rounds since the space was last emptied (or the game began), at each payout: 1 means
    #: it paid in the next round, i.e. carried nothing over.
    gaps: Histogram = field(default_factory=dict)
    #: Spaces still holding chips when a game ended or was cut short: their age in rounds.
    unpaid_at_end: Histogram = field(default_factory=dict)

    def merge(self, other: SpaceStats) -> None:
        merge_counters(self, other)


@dataclass(slots=True)
class SimStats(PlayerTally):
    """Everything a simulation counts, for any number of chunks merged together.

    The shared part (:class:`rummoli.sim.stats.PlayerTally`) counts chips won per round:
    by bot (every round of its games, 0 while it is out), by level, by table seat and by
    seat counted clockwise from the dealer (0 = the dealer, 1 = his left; positions count
    only players dealt in); ``per_chunk`` holds rounds and chips won by each bot,
    ``bot_seat_rounds`` the rounds each bot sat in each seat.

    Per-round chip figures count chips after the round minus chips before its ante; the
    settlement at the end of a game is kept apart (``settlement``), so a bot's chips per
    round measure play, not the luck of the last deal.
    """

    SAME: ClassVar[tuple[str, ...]] = ("seats", "levels", "spaces")
    APART: ClassVar[tuple[str, ...]] = ("sample_chips", "sample_bots", "sample_chunk")

    spaces: tuple[str, ...] = ()
    #: Chips from the settlement at the end of each finished game, by bot.
    settlement: list[Moments] = field(default_factory=list)
    #: Chips put on the board minus chips taken from it, over all rounds; chips left on the
    #: boards of games cut short at a chunk's end; chips the settlements handed out.
    board_change: int = 0
    board_left: int = 0
    board_settled: int = 0
    space: dict[str, SpaceStats] = field(default_factory=dict)
    deadlocks: int = 0
    rounds_won: int = 0
    #: Chips the round winner collected from the others (one per card they held).
    collected: Moments = field(default_factory=Moments)
    widow_exchanged: int = 0
    widow_bought: int = 0
    widow_no_bid: int = 0
    widow_dead: int = 0
    winning_bid: Moments = field(default_factory=Moments)
    #: Chips won in the round by the player who took the widow (the dealer by exchange,
    #: or the buyer, his price included), against every player dealt in.
    taker_exchanged: Moments = field(default_factory=Moments)
    taker_bought: Moments = field(default_factory=Moments)
    dealt_in: Moments = field(default_factory=Moments)
    #: Chips taken from the poker space per round; chips bet per round (betting only).
    poker_pot: Moments = field(default_factory=Moments)
    poker_bets: Moments = field(default_factory=Moments)
    showdowns: int = 0
    folds: int = 0
    game_lengths: Histogram = field(default_factory=dict)
    #: Chips by seat after each round of one sample game (the first game of chunk 0),
    #: its first row the starting chips; and the bot in each of its seats.
    sample_chips: list[tuple[int, ...]] = field(default_factory=list)
    sample_bots: tuple[int, ...] = ()
    sample_chunk: int = -1

    @classmethod
    def empty(cls, seats: int, spaces: tuple[str, ...], levels: tuple[str, ...]) -> SimStats:
        return cls(
            seats=seats,
            spaces=spaces,
            levels=levels,
            settlement=[Moments() for _ in range(seats)],
            space={name: SpaceStats() for name in spaces},
        )

    def merge(self, other: SimStats) -> None:
        """Add ``other`` (another chunk, or several) into this one; the sample game is the
        first chunk's."""
        PlayerTally.merge(self, other)
        if other.sample_chips and (self.sample_chunk < 0 or other.sample_chunk < self.sample_chunk):
            self.sample_chips = list(other.sample_chips)
            self.sample_bots = other.sample_bots
            self.sample_chunk = other.sample_chunk
