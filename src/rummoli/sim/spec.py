"""What a simulation plays, and how that work is cut into chunks.

The whole run is a fixed list of chunks. A chunk's size never depends on how many
workers run it, and its seed comes from ``(seed, chunk index)`` alone, so every chunk
plays the same cards and the same bot choices whichever worker runs it and whenever:
the same seed gives the same numbers with one worker, two, or a Ray cluster.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummoli.games.registry import default_game, describe

if TYPE_CHECKING:
    from rummoli.sim.stats import PlayerTally

ROUNDS = "rounds"
GAMES = "games"

# Purposes of derived seeds, so no two uses of one chunk seed ever coincide.
_PURPOSE_CHUNK, _PURPOSE_GAME, _PURPOSE_BOT = 1, 2, 3


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from whole numbers, the same on every machine and Python version
    (unlike ``hash``), and unrelated for neighbouring inputs (unlike ``seed + i``)."""
    text = "rummoli-sim:" + ":".join(str(p) for p in parts)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


@dataclass(frozen=True, slots=True)
class SimSpec:
    """One simulation: bots by seat, house rules, how much to play, and the seed.

    ``bots[i]`` is the level of bot ``i``; without rotation bot ``i`` sits in seat ``i``.
    With ``rotate``, game ``g`` seats bot ``i`` in seat ``(i + g) % seats``.
    """

    bots: tuple[str, ...]
    #: The house rules of ``game``: an object of its description's rules type (checked on
    #: creation).
    rules: Any
    mode: str = ROUNDS
    total: int = 10_000
    seed: int = 0
    rotate: bool = False
    chunk_size: int = 0
    #: Count only rounds played by every seat: a game ends (without the settlement) when
    #: a player is out. Figures then describe a table of exactly ``seats`` players, not a
    #: table that shrinks as players go broke.
    full_table: bool = False
    #: The game, by its registry name (default: the default game, Rummoli). Its
    #: simulation part says what a round and a game are called (Rummy: hands, matches).
    game: str = field(default_factory=default_game)

    def __post_init__(self) -> None:
        from rummoli.sim.game import simulation_part

        description = describe(self.game)  # a SetupError (a ValueError) names the games
        low, high = description.min_players, description.max_players
        if not low <= len(self.bots) <= high:
            raise ValueError(
                f"give {low} to {high} bots, one per seat "
                f"(e.g. {','.join(['random'] * description.default_players)}), "
                f"not {len(self.bots)}"
            )
        if not isinstance(self.rules, description.rules_type):
            raise ValueError(f"the rules must be {self.game}'s, not {type(self.rules).__name__}")
        if self.full_table and not simulation_part(description).full_table:
            raise ValueError(f"full_table is not for {self.game}: its table never shrinks")
        if self.mode not in (ROUNDS, GAMES):
            raise ValueError(f"mode must be {ROUNDS!r} or {GAMES!r}, not {self.mode!r}")
        if self.total < 1:
            raise ValueError(f"the number of {self.mode} must be at least 1, not {self.total}")
        if self.chunk_size < 0:
            raise ValueError("chunk_size must be at least 1 (0: the default)")

    @property
    def seats(self) -> int:
        return len(self.bots)

    @property
    def per_chunk(self) -> int:
        """Rounds (or games) per chunk: the user's, else the game's simulation part's
        (small enough for a lively progress bar and an even split over workers, large
        enough that the games cut short at a chunk's end are a small share)."""
        from rummoli.sim.game import simulation_part

        if self.chunk_size:
            return self.chunk_size
        part = simulation_part(self.game)
        return part.chunk_rounds if self.mode == ROUNDS else part.chunk_games

    @property
    def levels(self) -> tuple[str, ...]:
        """The distinct bot levels, in order of first appearance."""
        return tuple(dict.fromkeys(self.bots))

    def labels(self) -> tuple[str, ...]:
        """A name for each bot: its level, numbered when several bots share a level."""
        labels = []
        for i, level in enumerate(self.bots):
            if self.bots.count(level) > 1:
                labels.append(f"{level}#{self.bots[:i].count(level) + 1}")
            else:
                labels.append(level)
        return tuple(labels)

    def chunks(self) -> list[Chunk]:
        """The fixed list of chunks that together play ``total`` rounds or games."""
        size = self.per_chunk
        count = -(-self.total // size)
        return [
            Chunk(
                spec=self,
                index=i,
                seed=derive_seed(self.seed, _PURPOSE_CHUNK, i),
                quota=min(size, self.total - i * size),
                first_game=i * size,
            )
            for i in range(count)
        ]


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of a simulation that one worker plays from start to end.

    ``quota`` is its share of rounds (games continue across rounds; a game still running
    when the quota is reached is cut short) or of games. ``first_game`` is the index of
    its first game in the whole run when counting games (it keeps the seat rotation
    exact); when counting rounds nobody knows in advance how many games earlier chunks
    play, so rotation starts at the chunk index instead.
    """

    spec: SimSpec
    index: int
    seed: int
    quota: int
    first_game: int

    def game_seed(self, game: int) -> int:
        """The engine seed of the chunk's ``game``-th game (counting from 0)."""
        return derive_seed(self.seed, _PURPOSE_GAME, game)

    def bot_seed(self, bot: int) -> int:
        return derive_seed(self.seed, _PURPOSE_BOT, bot)

    def rotation(self, game: int) -> int:
        """How many seats the bots move round for the chunk's ``game``-th game."""
        if not self.spec.rotate:
            return 0
        start = self.first_game if self.spec.mode == GAMES else self.index
        return (start + game) % self.spec.seats

    def seating(self, game: int) -> list[int]:
        """The bot in each seat of the chunk's ``game``-th game: bot i sits in seat
        (i + shift) % seats, so seat s holds bot (s - shift) % seats."""
        shift = self.rotation(game)
        seats = self.spec.seats
        return [(seat - shift) % seats for seat in range(seats)]

    def games(self, stats: PlayerTally) -> Iterator[tuple[int, list[int], int]]:
        """The chunk's games, one after the other until ``stats`` (the chunk's, which the
        caller fills as each game is played) reaches the quota: each game's number, its
        :meth:`seating`, and the most rounds it may play before the quota is reached (0
        where the quota counts games: each is played to its end)."""
        counting_rounds = self.spec.mode == ROUNDS
        game = 0
        while (stats.rounds if counting_rounds else game) < self.quota:
            yield game, self.seating(game), self.quota - stats.rounds if counting_rounds else 0
            game += 1

    def play(self, stats: PlayerTally, play_game: Callable[[int, list[int], int], int]) -> None:
        """Play the chunk's :meth:`games` with ``play_game(game, seating, limit)``, which
        fills ``stats`` and returns the rounds it played; count each bot's rounds in each
        seat, and at the end the chunk's totals (``stats.per_chunk``)."""
        stats.chunks = 1
        for game, seat_bot, limit in self.games(stats):
            stats.seated(seat_bot, play_game(game, seat_bot, limit))
        stats.end_chunk(self.index)
