"""Every figure of a Rummy simulation, computed once from its statistics as JSON-ready data.

The report and the JSON file both read this dict. Positions are named by the order of
play: ``first`` is the player left of the dealer, who opens the hand; the dealer plays
last. The first-player advantage is the first player's points per hand against the
average of the table, and his share of the hands won.
"""

from __future__ import annotations

from typing import Any

from rummoli.sim.figures import (
    bot_figures,
    histogram,
    level_figures,
    level_members,
    moments,
    progress,
    rate,
    seat_figures,
    table_config,
)
from rummoli.sim.rummy.stats import RummyStats
from rummoli.sim.spec import SimSpec
from rummoli.sim.stats import Histogram, histogram_mean

_ORDINALS = ("first", "second", "third", "fourth")


def position_name(position: int, seats: int) -> str:
    """``first`` (left of the dealer, opens the hand), ... ; the dealer plays last."""
    name = _ORDINALS[position]
    return f"{name} (dealer)" if position == seats - 1 else name


def quantile(hist: Histogram, q: float) -> int | None:
    """The smallest value with at least ``q`` of the samples at or below it."""
    total = sum(hist.values())
    if not total:
        return None
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= q * total:
            return value
    return max(hist)  # pragma: no cover - q <= 1 always stops above


def summarize_rummy(stats: RummyStats, spec: SimSpec) -> dict[str, Any]:
    """All figures of ``stats`` (a whole run, or the chunks finished so far)."""
    hands = stats.rounds
    finished = stats.games_finished
    bots = bot_figures(stats, spec, "points_per_hand")
    for bot, entry in enumerate(bots):
        entry.update(
            {
                "hands_won": stats.won[bot],
                "win_rate": rate(stats.won[bot], hands),
                "going_rummy": stats.rummy_by_bot[bot],
                "going_rummy_share_of_wins": rate(stats.rummy_by_bot[bot], stats.won[bot]),
                "matches_won": stats.matches_won[bot],
                "match_win_rate": rate(stats.matches_won[bot], finished),
                "hands_by_seat": list(stats.bot_seat_rounds[bot]),
            }
        )
    levels = level_figures(stats, spec, "points_per_hand")
    for entry in levels:
        members = level_members(spec, entry["level"])
        won = sum(stats.won[b] for b in members)
        entry["win_rate_per_bot"] = rate(won, hands * len(members))
    seats = seat_figures(stats, "points_per_hand")
    positions = [
        {
            "position": position_name(p, spec.seats),
            "points_per_hand": moments(m),
            "hands_won": stats.won_by_position[p],
            "win_rate": rate(stats.won_by_position[p], hands),
        }
        for p, m in enumerate(stats.by_position)
    ]
    won = sum(stats.won)
    total_points = sum(m.total for m in stats.bots)
    first = stats.by_position[0]
    table_mean = total_points / (hands * spec.seats) if hands else None
    advantage = (
        first.mean - table_mean if first.mean is not None and table_mean is not None else None
    )
    turns = stats.turns
    return {
        "game": "rummy",
        "config": {
            "game": "rummy",
            **table_config(spec, "hands" if spec.mode == "rounds" else "matches"),
            "chunk_size": spec.per_chunk,
            "rules": spec.rules.to_dict(),
            "rules_changed": spec.rules.changed(),
            "target": spec.rules.target_for(spec.seats),
        },
        **progress(stats, spec),
        "hands": hands,
        "matches": {
            "started": stats.games_started,
            "finished": finished,
            "cut_short": stats.games_started - finished,
            "mean_hands": histogram_mean(stats.match_lengths),
            "length_histogram": histogram(stats.match_lengths),
        },
        "bots": bots,
        "levels": levels,
        "seats": seats,
        "positions": positions,
        "first_player": {
            "points_per_hand": moments(first),
            "table_points_per_hand": table_mean,
            "advantage": advantage,
            "win_rate": rate(stats.won_by_position[0], hands),
            "fair_win_rate": rate(won, hands * spec.seats),
        },
        "hand_length": {
            "mean_turns": rate(turns, hands),
            "median_turns": quantile(stats.hand_turns, 0.5),
            "p90_turns": quantile(stats.hand_turns, 0.9),
            "mean_turns_per_player": rate(turns, hands * spec.seats),
            "turns_histogram": histogram(stats.hand_turns),
        },
        "stalemate": {
            "hands": stats.stalemates,
            "rate": rate(stats.stalemates, hands),
            "stock_ran_out": stats.stalemate_stock,
            "detected": stats.stalemate_blocked,
            "stalled": stats.stalemate_stalled,
        },
        "going_rummy": {
            "hands": stats.going_rummy,
            "rate": rate(stats.going_rummy, hands),
            "share_of_wins": rate(stats.going_rummy, won),
        },
        "hands_won": won,
        "winner_points": moments(stats.winner_points),
        "reshuffle_rate": rate(stats.reshuffled, hands),
        "discard_draw_rate": rate(stats.discard_draws, turns),
        "points": {
            "scored": total_points,
            "by_winners": stats.winner_points.total,
            "consistent": total_points == stats.winner_points.total
            and won + stats.stalemates == hands,
        },
    }
