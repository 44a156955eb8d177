"""Accumulators that merge exactly: counts, sums, sums of squares, histograms.

Chips are whole numbers, so every accumulator holds Python ints and merging two of them
is exact and independent of order. That is what makes the figures of a run identical
whether its chunks ran on one worker, two, or a cluster. Floats appear only when the
figures are computed at the end (:mod:`rummoli.sim.stops.figures`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

#: Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom; above 30 the
#: normal quantile is within 4% of t, and simulations have thousands of samples.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_Z975 = 1.959964

Histogram = dict[int, int]


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (df >= 1)."""
    return _T975[df - 1] if df <= len(_T975) else _Z975


def merge_counts(into: Histogram, other: Histogram) -> None:
    for key, count in other.items():
        into[key] = into.get(key, 0) + count


def histogram_mean(hist: Histogram) -> float | None:
    count = sum(hist.values())
    return sum(k * c for k, c in hist.items()) / count if count else None


@dataclass(slots=True)
class Moments:
    """Count, sum and sum of squares of whole-number samples: mean, spread and a
    confidence interval, mergeable without loss."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    @property
    def variance(self) -> float | None:
        """The sample variance (n - 1 in the denominator); None below two samples."""
        if self.n < 2:
            return None
        # Exact integer numerator: no cancellation error, however large the sums.
        return (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))

    def ci95(self) -> tuple[float, float] | None:
        """The 95% confidence interval of the mean (Student's t; normal above 30 samples),
        treating the samples as independent."""
        variance = self.variance
        if variance is None:
            return None
        half = t975(self.n - 1) * math.sqrt(variance / self.n)
        mean = self.total / self.n
        return (mean - half, mean + half)


@dataclass(slots=True)
class PlayerTally:
    """What every game's simulation counts of its players, and how it merges.

    Each game's statistics (:class:`rummoli.sim.stops.stats.SimStats`,
    :class:`rummoli.sim.rummy.stats.RummyStats`, :class:`rummoli.sim.generic.GenericStats`)
    extend this with their own figures: the chunk and game counts the runner and the
    progress bar read, one sample a round (or game) by bot, by level, by table seat and by
    position, and each chunk's totals for batch-means intervals. A new tally has one
    empty accumulator a bot, level, seat and position. A game that counts no positions
    leaves them empty accumulators.
    """

    seats: int
    #: The distinct bot levels, in order of first appearance among the bots.
    levels: tuple[str, ...] = ()
    chunks: int = 0
    rounds: int = 0
    games_started: int = 0
    games_finished: int = 0
    #: One sample per round (or game) by bot; by all the bots of each level together (one
    #: sample a round: the bots of a level play the same rounds, so their results are not
    #: independent); by table seat; by position (what a position is, is the game's).
    bots: list[Moments] = field(default_factory=list)
    by_level: list[Moments] = field(default_factory=list)
    by_seat: list[Moments] = field(default_factory=list)
    by_position: list[Moments] = field(default_factory=list)
    #: Rounds and each bot's total in each chunk, for batch-means intervals.
    per_chunk: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    #: Rounds each bot played in each seat: ``bot_seat_rounds[bot][seat]`` (the runs the
    #: game counts in rounds: Rummy's hands).
    bot_seat_rounds: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for moments, count in (
            (self.bots, self.seats),
            (self.by_level, len(self.levels)),
            (self.by_seat, self.seats),
            (self.by_position, self.seats),
        ):
            if not moments:
                moments.extend(Moments() for _ in range(count))
        if not self.bot_seat_rounds:
            self.bot_seat_rounds.extend([0] * self.seats for _ in range(self.seats))

    def merge_tally(self, other: PlayerTally) -> None:
        """Add ``other``'s counts and samples into this one (a game's ``merge`` adds the
        rest of its figures)."""
        if (other.seats, other.levels) != (self.seats, self.levels):
            raise ValueError("cannot merge statistics of different tables")
        self.chunks += other.chunks
        self.rounds += other.rounds
        self.games_started += other.games_started
        self.games_finished += other.games_finished
        for mine, theirs in (
            (self.bots, other.bots),
            (self.by_level, other.by_level),
            (self.by_seat, other.by_seat),
            (self.by_position, other.by_position),
        ):
            for a, b in zip(mine, theirs, strict=True):
                a.merge(b)
        self.per_chunk.update(other.per_chunk)
        for row, other_row in zip(self.bot_seat_rounds, other.bot_seat_rounds, strict=True):
            for seat, count in enumerate(other_row):
                row[seat] += count

    def seated(self, seat_bot: Sequence[int], rounds: int) -> None:
        """Count ``rounds`` played by the bot ``seat_bot[seat]`` of each seat."""
        for seat, bot in enumerate(seat_bot):
            self.bot_seat_rounds[bot][seat] += rounds

    def end_chunk(self, index: int) -> None:
        """Keep the finished chunk ``index``'s rounds and each bot's total in
        ``per_chunk`` (a new tally counts one chunk), for its batch-means intervals."""
        self.per_chunk[index] = (self.rounds, tuple(m.total for m in self.bots))


#: Fewest chunks for a batch-means interval (fewer batches give a uselessly wide t).
MIN_BATCHES = 5


def batch_ci95(batches: list[tuple[int, int]]) -> list[float] | None:
    """A 95% interval for a ratio of sums from independent batches ``(count, total)``.

    Rounds of one game are not independent (a short stack bets differently), but chunks
    are: each starts fresh games from its own seed. So the spread of the chunks' means is
    an honest error bar even when per-round samples are correlated. Chunks may differ in
    size (games have different lengths), hence the ratio estimator.
    """
    batches = [(n, total) for n, total in batches if n]
    k = len(batches)
    if k < MIN_BATCHES:
        return None
    rounds = sum(n for n, _ in batches)
    mean = sum(total for _, total in batches) / rounds
    mean_n = rounds / k
    residuals = sum((total - mean * n) ** 2 for n, total in batches)
    half = t975(k - 1) * math.sqrt(residuals / (k * (k - 1))) / mean_n
    return [mean - half, mean + half]
