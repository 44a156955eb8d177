"""Playing one chunk of a Rummy simulation: whole matches between bots, every hand tallied.

A chunk plays matches one after another (each a fresh ``RummyState.new_game`` from the
chunk's derived seed, bots seated by the chunk's rotation) and counts their hands. When
counting hands, the match in progress when the chunk's quota is reached is cut short
after its hand; when counting matches, every match is played to its target. Hands of a
match are alike for these bots (they do not play the score), so counting hands is the
natural unit: the points a bot scores per hand are the measure of its strength.

Per decision the bot gets the seat's observation and nothing else, as everywhere.
"""

from __future__ import annotations

from functools import partial

from rummoli.bots import Bot, BotError, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, TERMINAL, Event, IllegalActionError
from rummoli.games.rummy import RummyState
from rummoli.games.rummy.stalemate import BLOCKED, STALLED, STOCK_OUT
from rummoli.games.rummy.state import HAND_OVER, OVER
from rummoli.games.rummy.view import build_observation
from rummoli.sim.rummy.stats import RummyStats
from rummoli.sim.spec import Chunk

GAME = "rummy"
#: Phases in which the hand being played is over.
_HAND_ENDED = (HAND_OVER, OVER)


def play_rummy_chunk(chunk: Chunk) -> RummyStats:
    """Play one chunk to its quota of hands or matches and return what it counted."""
    spec = chunk.spec
    stats = RummyStats.empty(spec.seats, spec.levels)
    bots = [make_bot(level, chunk.bot_seed(i), GAME) for i, level in enumerate(spec.bots)]
    chunk.play(stats, partial(_play_match, chunk, bots, stats))
    return stats


def _play_match(
    chunk: Chunk, bots: list[Bot], stats: RummyStats, match: int, seat_bot: list[int], limit: int
) -> int:
    """Play one match (cut short after ``limit`` hands if ``limit``); returns its hands."""
    spec = chunk.spec
    names = [f"P{seat + 1}" for seat in range(spec.seats)]
    state = RummyState.new_game(names, spec.rules, chunk.game_seed(match))
    stats.games_started += 1
    players = [bots[bot] for bot in seat_bot]
    level_of = [spec.levels.index(spec.bots[bot]) for bot in seat_bot]
    hands = 0
    while True:
        events = state.apply(CHANCE_ACTION)  # the deal (after the cut, in the first hand)
        while state.phase not in _HAND_ENDED:
            seat = state.to_move
            if seat == CHANCE:
                events += state.apply(CHANCE_ACTION)  # the stock is rebuilt
                continue
            legal = state.legal_actions()
            action = players[seat].choose(build_observation(state, seat), legal).action
            try:
                events += state.apply(action)
            except IllegalActionError:
                raise BotError(
                    f"{type(players[seat]).__name__} ({spec.bots[seat_bot[seat]]}) chose "
                    f"{action!r}, which is not legal (legal: {legal[:12]})"
                ) from None
        _tally_hand(stats, state, events, seat_bot, level_of)
        hands += 1
        if state.to_move == TERMINAL:
            stats.games_finished += 1
            winner = state.match_winner
            if winner >= 0:
                stats.matches_won[seat_bot[winner]] += 1
            stats.match_lengths[hands] = stats.match_lengths.get(hands, 0) + 1
            return hands
        if limit and hands >= limit:
            return hands


def _tally_hand(
    stats: RummyStats,
    state: RummyState,
    events: list[Event],
    seat_bot: list[int],
    level_of: list[int],
) -> None:
    """Count one finished hand from its events."""
    stats.rounds += 1
    n = len(seat_bot)
    dealer = state.dealer
    points = state.hand_points
    by_level = [0] * len(stats.levels)
    for seat, bot in enumerate(seat_bot):
        won = points[seat]
        stats.bots[bot].add(won)
        stats.by_seat[seat].add(won)
        stats.by_position[(seat - dealer - 1) % n].add(won)
        by_level[level_of[seat]] += won
    for m, won in zip(stats.by_level, by_level, strict=True):
        m.add(won)
    turns = 0
    for event in events:
        kind = event[0]
        if kind == "draw_stock":
            turns += 1
        elif kind == "draw_discard":
            turns += 1
            stats.discard_draws += 1
        elif kind == "reshuffle":
            stats.reshuffled += 1
        elif kind == "stalemate":
            reason = event[1]
            if reason == BLOCKED:
                stats.stalemate_blocked += 1
            elif reason == STALLED:
                stats.stalemate_stalled += 1
            elif reason == STOCK_OUT:
                stats.stalemate_stock += 1
            else:  # a new reason must get its own count, not hide in another one
                raise ValueError(f"unknown stalemate reason {reason!r}")
        elif kind == "goes_out":
            seat = event[1]
            bot = seat_bot[seat]
            stats.won[bot] += 1
            stats.won_by_position[(seat - dealer - 1) % n] += 1
            if event[2]:
                stats.going_rummy += 1
                stats.rummy_by_bot[bot] += 1
        elif kind == "hand_won":
            stats.winner_points.add(event[2])
    stats.hand_turns[turns] = stats.hand_turns.get(turns, 0) + 1
