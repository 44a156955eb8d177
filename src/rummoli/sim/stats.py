"""Accumulators that merge exactly: counts, sums, sums of squares, histograms.

Chips are whole numbers, so every accumulator holds Python ints and merging two of them
is exact and independent of order. That is what makes the figures of a run identical
whether its chunks ran on one worker, two, or a cluster. Floats appear only when the
figures are computed at the end (:mod:`rummoli.sim.stops.figures`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self

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


def merge_counters(into: Any, other: Any, skip: Collection[str] = ()) -> None:
    """Add every field of ``other`` into the same field of ``into`` (two dataclasses of one
    kind), but those named in ``skip``: whole numbers add, lists merge item by item,
    dicts (histograms; spaces by name) key by key, and anything else has its own
    ``merge`` (:class:`Moments`). So a game's statistics declare their counters, and
    merging, exact and in any order, cannot forget one."""
    for name in (counter.name for counter in fields(into)):
        if name not in skip:
            setattr(into, name, _merged(getattr(into, name), getattr(other, name)))


def _merged(mine: Any, theirs: Any) -> Any:
    """``theirs`` added into ``mine`` (in place but for a number, returned)."""
    if isinstance(mine, list) and len(mine) != len(theirs):
        raise ValueError("cannot merge statistics of different tables")
    if isinstance(mine, int):
        return mine + theirs
    if isinstance(mine, list):
        for index, value in enumerate(theirs):
            mine[index] = _merged(mine[index], value)
        return mine
    if isinstance(mine, dict):
        for key, value in theirs.items():
            mine[key] = _merged(mine[key], value) if key in mine else value
        return mine
    mine.merge(theirs)
    return mine


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

    #: The fields that say what table was counted: the same in every chunk of a run.
    SAME: ClassVar[tuple[str, ...]] = ("seats", "levels")
    #: The fields a game's ``merge`` merges itself (not counts: a sample game...).
    APART: ClassVar[tuple[str, ...]] = ()

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

    def merge(self, other: Self) -> None:
        """Add ``other`` (another chunk, or several, of the same run) into this one: every
        field by its kind (:func:`merge_counters`), except the table's description
        (:attr:`SAME`: equal in every chunk, checked), ``per_chunk`` (each chunk's own
        entry) and the fields a game merges itself (:attr:`APART`)."""
        if any(getattr(other, name) != getattr(self, name) for name in self.SAME):
            raise ValueError("cannot merge statistics of different tables")
        self.per_chunk.update(other.per_chunk)
        merge_counters(self, other, skip={*self.SAME, "per_chunk", *self.APART})

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
