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

from rich.table import Table
from rich.text import Text

from rummoli.bots import Bot, ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.registry import describe
from rummoli.i18n import NPN_, npgettext, pgettext
from rummoli.i18n.terms import game_title
from rummoli.sim.figures import progress, table_config
from rummoli.sim.game import SimulationPart
from rummoli.sim.report import Report, columns_table, count, headline, number, percent
from rummoli.sim.spec import Chunk, SimSpec
from rummoli.sim.stats import Moments, PlayerTally

#: A game that is not over after this many actions is a bug in the game: stop loudly.
MAX_ACTIONS_PER_GAME = 1_000_000


@dataclass(slots=True)
class GenericStats(PlayerTally):
    """Each bot's final amounts (the shared tally's samples, one a game, by bot and by
    seat; no levels or positions) and wins; merges exactly in any order."""

    wins: list[int] = field(default_factory=list)

    @classmethod
    def empty(cls, seats: int) -> GenericStats:
        return cls(seats, wins=[0] * seats)


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
    for game, seat_bot, _ in chunk.games(stats):
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
            stats.bots[seat_bot[seat]].add(amount)
            stats.by_seat[seat].add(amount)
            if amount == best:
                stats.wins[seat_bot[seat]] += 1
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
            **table_config(spec),
            "rules": spec.rules.to_dict(),
            "rules_changed": spec.rules.changed(),
            "amount": description.amount,
        },
        **progress(stats, spec),
        "rounds": stats.rounds,
        "games": {"started": stats.games_started, "finished": games},
        "bots": [
            {
                "bot": label,
                "level": spec.bots[bot],
                "final_amount": _moments(stats.bots[bot]),
                "wins": stats.wins[bot],
                "win_rate": stats.wins[bot] / games if games else None,
            }
            for bot, label in enumerate(labels)
        ],
        "seats": [
            {"seat": seat, "final_amount": _moments(m)} for seat, m in enumerate(stats.by_seat)
        ],
    }


#: The speed in the headline (a rate: English says "rounds" for every n).
RATE = NPN_("simulation", "{n} rounds/s", "{n} rounds/s")


def _headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    rounds = figures["rounds"]
    games = figures["games"]["finished"]
    counted = pgettext("simulation", "{game}: {games}, {rounds},").format(
        game=game_title(describe(figures["config"]["game"])),
        games=npgettext("simulation", "{n} game", "{n} games", games).format(n=count(games)),
        rounds=npgettext("simulation", "{n} round", "{n} rounds", rounds).format(n=count(rounds)),
    )
    return headline(figures, run, counted, RATE)


def _bots_table(figures: dict[str, Any]) -> Table:
    """Each bot's final amounts and wins (the amount in the description's word: chips,
    points)."""
    amount = pgettext("game word", figures["config"]["amount"])
    return columns_table(
        pgettext("simulation", "Final {amount} per game, by bot").format(amount=amount),
        figures["bots"],
        [
            (pgettext("simulation", "bot"), lambda bot: str(bot["bot"])),
            (pgettext("simulation", "games"), lambda bot: count(bot["final_amount"]["n"])),
            (
                pgettext("simulation", "mean {amount}").format(amount=amount),
                lambda bot: number(bot["final_amount"]["mean"]),
            ),
            (pgettext("simulation", "wins"), lambda bot: count(bot["wins"])),
            (pgettext("simulation", "win rate"), lambda bot: percent(bot["win_rate"])),
        ],
    )


GENERIC = SimulationPart(
    empty_stats=_empty,
    play_chunk=play_chunk,
    summarize=summarize,
    print_report=Report(_headline, (_bots_table,)),
    chunk_rounds=200,
    chunk_games=20,
)
