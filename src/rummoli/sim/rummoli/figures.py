"""Every figure of a simulation, computed once from its statistics as JSON-ready data.

The table, the JSON file and the charts all read this one dict, so they can never
disagree. Histograms are written with string keys (JSON objects have no int keys),
in increasing numeric order.
"""

from __future__ import annotations

import math
from typing import Any

from rummoli.sim.rummoli.stats import SimStats
from rummoli.sim.spec import SimSpec
from rummoli.sim.stats import Histogram, Moments, batch_ci95, histogram_mean


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


def _hist(hist: Histogram) -> dict[str, int]:
    return {str(k): hist[k] for k in sorted(hist)}


def _ci(m: Moments) -> list[float] | None:
    ci = m.ci95()
    return list(ci) if ci else None


def _moments(m: Moments) -> dict[str, Any]:
    variance = m.variance
    return {
        "mean": m.mean,
        "ci95": _ci(m),
        "sd": math.sqrt(variance) if variance is not None else None,
        "n": m.n,
    }


def _per_bot(m: Moments, bots: int) -> dict[str, Any]:
    """The figures of a level's per-round sums, divided by its number of bots."""
    figures = _moments(m)
    for key in ("mean", "sd"):
        if figures[key] is not None:
            figures[key] /= bots
    if figures["ci95"] is not None:
        figures["ci95"] = [x / bots for x in figures["ci95"]]
    return figures


def carry_over(payouts: int, rounds: int) -> float | None:
    """Mean rounds a space's chips wait before they are won (0: won in the round they
    were put there): rounds without a payout per payout.

    Averaging only the waits that ended in a payout would leave out the waits still
    running when a game ended, and those are the long ones: with games stopped at the
    first bust (``full_table``), the rare spaces would seem to pay twice as fast as they
    do. Counting every round of exposure is the standard estimate for such cut-off
    waits (exact for a constant chance of paying each round, and the cards decide
    that, not the chips on the space). The completed waits are in the JSON too.
    """
    return (rounds - payouts) / payouts if payouts else None


def position_name(position: int) -> str:
    """Seats counted clockwise from the dealer: ``dealer``, ``dealer+1`` (his left), ..."""
    return "dealer" if position == 0 else f"dealer+{position}"


def summarize(stats: SimStats, spec: SimSpec) -> dict[str, Any]:
    """All figures of ``stats`` (a whole run, or the chunks finished so far)."""
    rounds = stats.rounds
    labels = spec.labels()
    chunks = [stats.per_chunk[i] for i in sorted(stats.per_chunk)]
    bots = []
    for bot, label in enumerate(labels):
        bots.append(
            {
                "bot": label,
                "level": spec.bots[bot],
                "chips_per_round": _moments(stats.bots[bot]),
                "chips_per_round_ci95_by_chunk": batch_ci95(
                    [(n, totals[bot]) for n, totals in chunks]
                ),
                "settlement_per_game": _moments(stats.settlement[bot]),
                "rounds_by_seat": list(stats.bot_seat_rounds[bot]),
            }
        )
    levels = []
    for index, level in enumerate(stats.levels):
        members = [bot for bot, name in enumerate(spec.bots) if name == level]
        levels.append(
            {
                "level": level,
                "bots": len(members),
                "chips_per_round_per_bot": _per_bot(stats.by_level[index], len(members)),
                "chips_per_round_per_bot_ci95_by_chunk": batch_ci95(
                    [(n * len(members), sum(totals[b] for b in members)) for n, totals in chunks]
                ),
            }
        )
    seats = [{"seat": seat, "chips_per_round": _moments(m)} for seat, m in enumerate(stats.by_seat)]
    positions = [
        {"position": position_name(p), "chips_per_round": _moments(m)}
        for p, m in enumerate(stats.by_position)
    ]
    spaces = []
    for name in stats.spaces:
        space = stats.space[name]
        payouts = sum(space.payouts.values())
        chips = sum(k * c for k, c in space.payouts.items())
        mean_gap = histogram_mean(space.gaps)
        spaces.append(
            {
                "space": name,
                "payouts": payouts,
                "pay_rate": _rate(payouts, rounds),
                "mean_payout": chips / payouts if payouts else None,
                "chips_per_round": _rate(chips, rounds),
                "mean_rounds_between_payouts": mean_gap,
                "mean_carry_over": carry_over(payouts, rounds),
                "mean_carry_over_completed": mean_gap - 1 if mean_gap is not None else None,
                "payout_histogram": _hist(space.payouts),
                "rounds_between_payouts_histogram": _hist(space.gaps),
                "unpaid_at_game_end": sum(space.unpaid_at_end.values()),
                "unpaid_age_histogram": _hist(space.unpaid_at_end),
            }
        )
    taken = stats.widow_exchanged + stats.widow_bought
    betting = spec.rules.poker == "betting"
    bot_chips = sum(m.total for m in stats.bots)
    settled = sum(m.total for m in stats.settlement)
    sample_bots = [labels[b] for b in stats.sample_bots]
    return {
        "config": {
            "bots": list(spec.bots),
            "labels": list(labels),
            "seats": spec.seats,
            "mode": spec.mode,
            "total": spec.total,
            "seed": spec.seed,
            "rotate": spec.rotate,
            "full_table": spec.full_table,
            "chunk_size": spec.per_chunk,
            "rules": spec.rules.to_dict(),
            "rules_changed": spec.rules.changed(),
        },
        "complete": stats.chunks == len(spec.chunks()),
        "chunks_done": stats.chunks,
        "chunks_total": len(spec.chunks()),
        "rounds": rounds,
        "games": {
            "started": stats.games_started,
            "finished": stats.games_finished,
            "cut_short": stats.games_started - stats.games_finished,
            "mean_length": histogram_mean(stats.game_lengths),
            "rounds_per_game": _rate(rounds, stats.games_started),
            "length_histogram": _hist(stats.game_lengths),
        },
        "bots": bots,
        "levels": levels,
        "seats": seats,
        "positions": positions,
        "spaces": spaces,
        "deadlock": {"rounds": stats.deadlocks, "rate": _rate(stats.deadlocks, rounds)},
        "round_winner": {
            "rounds_won": stats.rounds_won,
            "rate": _rate(stats.rounds_won, rounds),
            "collected_from_others": _moments(stats.collected),
        },
        "widow": {
            "exchanged": stats.widow_exchanged,
            "bought": stats.widow_bought,
            "dead": stats.widow_dead,
            "no_bid": stats.widow_no_bid,
            "exchanged_rate": _rate(stats.widow_exchanged, rounds),
            "bought_rate": _rate(stats.widow_bought, rounds),
            "dead_rate": _rate(stats.widow_dead, rounds),
            "no_bid_rate": _rate(stats.widow_no_bid, rounds),
            "winning_bid": _moments(stats.winning_bid),
            "taken_rate": _rate(taken, rounds),
            "taker_chips_exchanged": _moments(stats.taker_exchanged),
            "taker_chips_bought": _moments(stats.taker_bought),
            "dealt_in_chips": _moments(stats.dealt_in),
        },
        "poker": {
            "method": spec.rules.poker,
            "pot": _moments(stats.poker_pot),
            "showdown_rate": _rate(stats.showdowns, rounds),
            "bets_per_round": _moments(stats.poker_bets) if betting else None,
            "folds_per_round": _rate(stats.folds, rounds) if betting else None,
        },
        "players_dealt_in_per_round": _rate(stats.dealt_in.n, rounds),
        "chips": {
            "won_in_rounds_by_bots": bot_chips,
            "board_change": stats.board_change,
            "conserved": bot_chips + stats.board_change == 0 and settled == stats.board_settled,
            "left_on_boards_cut_short": stats.board_left,
            "settled": stats.board_settled,
        },
        "sample_game": {
            "bots_by_seat": sample_bots,
            "chips": [list(row) for row in stats.sample_chips],
        },
    }
