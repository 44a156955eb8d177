"""The simulator's part for a game that brings none of its own: whole games, final amounts.

Any game of the registry can be simulated without a line of simulator code: whole games
between its bots (through the engine protocol and :func:`rummoli.bots.ask_bot`, so each
bot sees its seat's observation only), counting each bot's final amount (the
description's ``final_amounts``: chips, points...) and its wins (the most at the end; tied
players each count one). With ``--rounds`` a chunk plays whole games until it has played
its quota of rounds (the description's ``round_number`` at each game's end, at least one
a game), so its last game is never cut short; the figures say how many rounds were played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rummoli.bots import Bot, ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.registry import describe
from rummoli.sim.game import SimulationPart
from rummoli.sim.report import append_speed, number, percent
from rummoli.sim.spec import ROUNDS, Chunk, SimSpec
from rummoli.sim.stats import Moments

#: A game that is not over after this many actions is a bug in the game: stop loudly.
MAX_ACTIONS_PER_GAME = 1_000_000


@dataclass(slots=True)
class GenericStats:
    """Each bot's final amounts and wins; merges exactly in any order."""

    seats: int
    chunks: int = 0
    rounds: int = 0
    games_started: int = 0
    games_finished: int = 0
    amounts: list[Moments] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    by_seat: list[Moments] = field(default_factory=list)

    @classmethod
    def empty(cls, seats: int) -> GenericStats:
        return cls(
            seats,
            amounts=[Moments() for _ in range(seats)],
            wins=[0] * seats,
            by_seat=[Moments() for _ in range(seats)],
        )

    def merge(self, other: GenericStats) -> None:
        self.chunks += other.chunks
        self.rounds += other.rounds
        self.games_started += other.games_started
        self.games_finished += other.games_finished
        pairs = zip(self.amounts + self.by_seat, other.amounts + other.by_seat, strict=True)
        for mine, theirs in pairs:
            mine.merge(theirs)
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]


def _empty(spec: SimSpec) -> GenericStats:
    return GenericStats.empty(spec.seats)


def play_chunk(chunk: Chunk) -> GenericStats:
    """Play whole games until the chunk's quota of rounds or games is reached."""
    spec = chunk.spec
    description = describe(spec.game)
    stats = GenericStats.empty(spec.seats)
    stats.chunks = 1
    bots = [make_bot(level, chunk.bot_seed(i), spec.game) for i, level in enumerate(spec.bots)]
    names = [f"P{seat + 1}" for seat in range(spec.seats)]
    game = 0
    while (stats.rounds if spec.mode == ROUNDS else game) < chunk.quota:
        shift = chunk.rotation(game)
        seat_bot = [(seat - shift) % spec.seats for seat in range(spec.seats)]
        state = description.new_game(names, spec.rules, chunk.game_seed(game))
        stats.games_started += 1
        players: list[Bot] = [bots[bot] for bot in seat_bot]
        for _ in range(MAX_ACTIONS_PER_GAME):
            if state.is_terminal():
                break
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(CHANCE_ACTION)
            else:
                state.apply(ask_bot(players[seat], state, seat).action)
        else:
            raise RuntimeError(
                f"a game of {spec.game} was not over after {MAX_ACTIONS_PER_GAME:,} actions"
            )
        stats.games_finished += 1
        stats.rounds += max(description.round_number(state), 1)
        finals = description.final_amounts(state)
        best = max(finals)
        for seat, amount in enumerate(finals):
            stats.amounts[seat_bot[seat]].add(amount)
            stats.by_seat[seat].add(amount)
            if amount == best:
                stats.wins[seat_bot[seat]] += 1
        game += 1
    return stats


def _moments(m: Moments) -> dict[str, Any]:
    ci = m.ci95()
    return {"n": m.n, "mean": m.mean, "ci95": None if ci is None else list(ci)}


def summarize(stats: GenericStats, spec: SimSpec) -> dict[str, Any]:
    """Every figure of the run, as JSON-ready data."""
    description = describe(spec.game)
    labels = spec.labels()
    games = stats.games_finished
    return {
        "game": spec.game,
        "config": {
            "game": spec.game,
            "bots": list(spec.bots),
            "labels": list(labels),
            "seats": spec.seats,
            "mode": spec.mode,
            "total": spec.total,
            "seed": spec.seed,
            "rotate": spec.rotate,
            "rules": spec.rules.to_dict(),
            "rules_changed": spec.rules.changed(),
            "amount": description.amount,
        },
        "complete": stats.chunks == len(spec.chunks()),
        "chunks_done": stats.chunks,
        "chunks_total": len(spec.chunks()),
        "rounds": stats.rounds,
        "games": {"started": stats.games_started, "finished": games},
        "bots": [
            {
                "bot": label,
                "level": spec.bots[bot],
                "final_amount": _moments(stats.amounts[bot]),
                "wins": stats.wins[bot],
                "win_rate": stats.wins[bot] / games if games else None,
            }
            for bot, label in enumerate(labels)
        ],
        "seats": [
            {"seat": seat, "final_amount": _moments(m)} for seat, m in enumerate(stats.by_seat)
        ],
    }


def print_report(console: Console, figures: dict[str, Any], run: dict[str, Any]) -> None:
    config = figures["config"]
    changed = ", ".join(f"{k}={v}" for k, v in config["rules_changed"].items()) or "defaults"
    headline = Text()
    if not figures["complete"]:
        headline.append("Interrupted: figures so far. ", style="bold yellow")
    headline.append(
        f"{describe(config['game']).title}: {figures['games']['finished']:,} games, "
        f"{figures['rounds']:,} rounds, at {config['seats']} seats; bots "
        f"{', '.join(config['labels'])}{' (rotated)' if config['rotate'] else ''}; "
        f"rules: {changed}; seed {config['seed']}."
    )
    append_speed(headline, run, "rounds")
    table = Table(title=f"Final {config['amount']} per game, by bot", title_justify="left")
    for column in ("bot", "games", f"mean {config['amount']}", "wins", "win rate"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for bot in figures["bots"]:
        amount = bot["final_amount"]
        table.add_row(
            bot["bot"],
            f"{amount['n']:,}",
            number(amount["mean"]),
            f"{bot['wins']:,}",
            percent(bot["win_rate"]),
        )
    console.print(headline)
    console.print(table)


GENERIC = SimulationPart(
    empty_stats=_empty,
    play_chunk=play_chunk,
    summarize=summarize,
    print_report=print_report,
    chunk_rounds=200,
    chunk_games=20,
)
