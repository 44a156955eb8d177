"""Every figure of a simulation, computed once from its statistics as JSON-ready data.

The table, the JSON file and the charts all read this one dict, so they can never
disagree. Histograms are written with string keys (JSON objects have no int keys),
in increasing numeric order.
"""

from __future__ import annotations

from typing import Any

from rummoli.sim.figures import (
    bot_figures,
    histogram,
    level_figures,
    moments,
    progress,
    rate,
    seat_figures,
    table_config,
)
from rummoli.sim.spec import SimSpec
from rummoli.sim.stats import histogram_mean
from rummoli.sim.stops.stats import SimStats


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
    bots = bot_figures(stats, spec, "chips_per_round")
    for bot, entry in enumerate(bots):
        entry["settlement_per_game"] = moments(stats.settlement[bot])
        entry["rounds_by_seat"] = list(stats.bot_seat_rounds[bot])
    levels = level_figures(stats, spec, "chips_per_round")
    seats = seat_figures(stats, "chips_per_round")
    positions = [
        {"position": position_name(p), "chips_per_round": moments(m)}
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
                "pay_rate": rate(payouts, rounds),
                "mean_payout": chips / payouts if payouts else None,
                "chips_per_round": rate(chips, rounds),
                "mean_rounds_between_payouts": mean_gap,
                "mean_carry_over": carry_over(payouts, rounds),
                "mean_carry_over_completed": mean_gap - 1 if mean_gap is not None else None,
                "payout_histogram": histogram(space.payouts),
                "rounds_between_payouts_histogram": histogram(space.gaps),
                "unpaid_at_game_end": sum(space.unpaid_at_end.values()),
                "unpaid_age_histogram": histogram(space.unpaid_at_end),
            }
        )
    taken = stats.widow_exchanged + stats.widow_bought
    betting = spec.rules.layout().poker == "betting"
    bot_chips = sum(m.total for m in stats.bots)
    settled = sum(m.total for m in stats.settlement)
    sample_bots = [labels[b] for b in stats.sample_bots]
    return {
        "config": {
            **table_config(spec),
            "full_table": spec.full_table,
            "chunk_size": spec.per_chunk,
            "rules": spec.rules.to_dict(),
            "rules_changed": spec.rules.changed(),
        },
        **progress(stats, spec),
        "rounds": rounds,
        "games": {
            "started": stats.games_started,
            "finished": stats.games_finished,
            "cut_short": stats.games_started - stats.games_finished,
            "mean_length": histogram_mean(stats.game_lengths),
            "rounds_per_game": rate(rounds, stats.games_started),
            "length_histogram": histogram(stats.game_lengths),
        },
        "bots": bots,
        "levels": levels,
        "seats": seats,
        "positions": positions,
        "spaces": spaces,
        "deadlock": {"rounds": stats.deadlocks, "rate": rate(stats.deadlocks, rounds)},
        "round_winner": {
            "rounds_won": stats.rounds_won,
            "rate": rate(stats.rounds_won, rounds),
            "collected_from_others": moments(stats.collected),
        },
        "widow": {
            "exchanged": stats.widow_exchanged,
            "bought": stats.widow_bought,
            "dead": stats.widow_dead,
            "no_bid": stats.widow_no_bid,
            "exchanged_rate": rate(stats.widow_exchanged, rounds),
            "bought_rate": rate(stats.widow_bought, rounds),
            "dead_rate": rate(stats.widow_dead, rounds),
            "no_bid_rate": rate(stats.widow_no_bid, rounds),
            "winning_bid": moments(stats.winning_bid),
            "taken_rate": rate(taken, rounds),
            "taker_chips_exchanged": moments(stats.taker_exchanged),
            "taker_chips_bought": moments(stats.taker_bought),
            "dealt_in_chips": moments(stats.dealt_in),
        },
        "poker": {
            "method": spec.rules.layout().poker,
            "pot": moments(stats.poker_pot),
            "showdown_rate": rate(stats.showdowns, rounds),
            "bets_per_round": moments(stats.poker_bets) if betting else None,
            "folds_per_round": rate(stats.folds, rounds) if betting else None,
        },
        "players_dealt_in_per_round": rate(stats.dealt_in.n, rounds),
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
