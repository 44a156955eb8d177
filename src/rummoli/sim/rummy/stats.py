"""What a Rummy simulation counts: integer accumulators that merge exactly.

The same design as Rummoli's :class:`rummoli.sim.stops.stats.SimStats`: points are whole
numbers, so sums, sums of squares and counts merge without loss in any order, and a run's
figures are the same whether its chunks ran on one worker or many. ``rounds`` counts
hands and ``games_started`` matches, under the names the shared runner and progress bar
read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rummoli.sim.stats import Histogram, Moments, PlayerTally


@dataclass(slots=True)
class RummyStats(PlayerTally):
    """Everything a Rummy simulation counts, for any number of chunks merged together.

    The shared part (:class:`rummoli.sim.stats.PlayerTally`) counts hands played
    (``rounds``), matches started and finished (not cut short at a chunk's end:
    ``games_started``, ``games_finished``), and points scored per hand (0 in a hand a bot
    does not win) by bot, by level (one sample a hand), by table seat and by position in
    the order of play: 0 is the player left of the dealer, who plays first; the dealer
    plays last. ``per_chunk`` holds hands and each bot's points in each chunk,
    ``bot_seat_rounds`` the hands each bot played in each seat.
    """

    #: Hands won, by bot and by position; hands gone Rummy by bot.
    won: list[int] = field(default_factory=list)
    won_by_position: list[int] = field(default_factory=list)
    rummy_by_bot: list[int] = field(default_factory=list)
    #: Matches won by each bot (finished matches only).
    matches_won: list[int] = field(default_factory=list)
    going_rummy: int = 0
    #: Stalemates by the engine's reason (``games/rummy/stalemate.py``): the stock ran
    #: out a second time, the detection found nobody can go out, the stall rule.
    stalemate_stock: int = 0
    stalemate_blocked: int = 0
    stalemate_stalled: int = 0
    #: Hands in which the stock ran out once and the discard pile became the stock.
    reshuffled: int = 0
    #: Draws from the discard pile (the rest of the turns drew from the stock).
    discard_draws: int = 0
    #: Points of each won hand (Going Rummy doubled).
    winner_points: Moments = field(default_factory=Moments)
    #: Turns per hand (a turn begins with a draw) -> hands.
    hand_turns: Histogram = field(default_factory=dict)
    #: Hands per finished match -> matches.
    match_lengths: Histogram = field(default_factory=dict)

    @classmethod
    def empty(cls, seats: int, levels: tuple[str, ...]) -> RummyStats:
        return cls(
            seats=seats,
            levels=levels,
            won=[0] * seats,
            won_by_position=[0] * seats,
            rummy_by_bot=[0] * seats,
            matches_won=[0] * seats,
        )

    @property
    def stalemates(self) -> int:
        return self.stalemate_stock + self.stalemate_blocked + self.stalemate_stalled

    @property
    def turns(self) -> int:
        return sum(turns * count for turns, count in self.hand_turns.items())
