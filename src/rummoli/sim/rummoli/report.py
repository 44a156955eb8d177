"""A Rummoli simulation's figures as tables for people.

They read the dict of :func:`rummoli.sim.rummoli.figures.summarize`; this module only
formats, with the cell formatters every game's report shares (:mod:`rummoli.sim.report`).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rummoli.sim.report import figures_table, interval, number, percent, report, signed
from rummoli.sim.report import headline as shared_headline


def _ci(moments: dict[str, Any], digits: int = 2) -> str:
    return interval(moments["ci95"], digits, sign=True)


def headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    games = figures["games"]
    counted = (
        f"{figures['rounds']:,} rounds in {games['started']:,} games "
        f"({games['finished']:,} finished)"
    )
    return shared_headline(figures, run, counted, "rounds")


def bots_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        "Chips won per round, by bot (settlement apart)",
        ("bot", "chips/round", "95% CI", "95% CI (by chunk)", "settlement/game"),
        (
            (
                bot["bot"],
                signed(bot["chips_per_round"]["mean"], 3),
                _ci(bot["chips_per_round"], 3),
                interval(bot["chips_per_round_ci95_by_chunk"], 3, sign=True),
                signed(bot["settlement_per_game"]["mean"]),
            )
            for bot in figures["bots"]
        ),
    )


def levels_table(figures: dict[str, Any]) -> Table:
    """Bots of one level pooled: each round counts once, so the interval stays honest."""
    return figures_table(
        "Chips won per round and bot, by level",
        ("level", "bots", "chips/round", "95% CI", "95% CI (by chunk)"),
        (
            (
                level["level"],
                str(level["bots"]),
                signed(level["chips_per_round_per_bot"]["mean"], 3),
                _ci(level["chips_per_round_per_bot"], 3),
                interval(level["chips_per_round_per_bot_ci95_by_chunk"], 3, sign=True),
            )
            for level in figures["levels"]
        ),
    )


def seats_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        "Seat advantage: chips won per round",
        ("table seat", "chips/round", "95% CI", "from the dealer", "chips/round", "95% CI"),
        (
            (
                str(seat["seat"]),
                signed(seat["chips_per_round"]["mean"], 3),
                _ci(seat["chips_per_round"], 3),
                position["position"],
                signed(position["chips_per_round"]["mean"], 3),
                _ci(position["chips_per_round"], 3),
            )
            for seat, position in zip(figures["seats"], figures["positions"], strict=True)
        ),
        left=(0, 3),
    )


def spaces_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        "Board spaces",
        ("space", "pays in", "mean payout", "carry-over (rounds)", "chips/round"),
        (
            (
                space["space"],
                percent(space["pay_rate"]),
                number(space["mean_payout"], 1),
                number(space["mean_carry_over"]),
                number(space["chips_per_round"]),
            )
            for space in figures["spaces"]
        ),
    )


def rounds_table(figures: dict[str, Any]) -> Table:
    widow = figures["widow"]
    poker = figures["poker"]
    winner = figures["round_winner"]
    table = figures_table("Rounds", ("figure", "value"), show_header=False)
    table.add_row("deadlocks", percent(figures["deadlock"]["rate"]))
    table.add_row(
        "round winner collects (1 chip a card)", number(winner["collected_from_others"]["mean"])
    )
    table.add_row(
        "widow exchanged / auctioned / dead",
        f"{percent(widow['exchanged_rate'])} / {percent(widow['bought_rate'])} / "
        f"{percent(widow['dead_rate'])}",
    )
    table.add_row("  of which dead for want of a bid", percent(widow["no_bid_rate"]))
    table.add_row("mean winning bid", number(widow["winning_bid"]["mean"]))
    table.add_row(
        "chips/round of the widow taker: dealer / buyer (bid paid)",
        f"{signed(widow['taker_chips_exchanged']['mean'])} / "
        f"{signed(widow['taker_chips_bought']['mean'])}",
    )
    table.add_row(
        "chips/round of a player dealt in (average)", signed(widow["dealt_in_chips"]["mean"])
    )
    table.add_row(f"poker ({poker['method']}): mean pot", number(poker["pot"]["mean"]))
    table.add_row("poker: showdowns", percent(poker["showdown_rate"]))
    if poker["bets_per_round"] is not None:
        table.add_row("poker: chips bet per round", number(poker["bets_per_round"]["mean"]))
        table.add_row("poker: folds per round", number(poker["folds_per_round"]))
    table.add_row("players dealt in per round", number(figures["players_dealt_in_per_round"]))
    games = figures["games"]
    table.add_row("rounds per game (cut short or not)", number(games["rounds_per_game"], 1))
    table.add_row("mean game length (finished games)", number(games["mean_length"], 1))
    table.add_row("chips conserved", "yes" if figures["chips"]["conserved"] else "NO")
    return table


def render(figures: dict[str, Any], run: dict[str, Any]) -> Group:
    """Every table, headline first."""
    return report(
        figures,
        headline(figures, run),
        bots_table(figures),
        levels_table(figures),
        seats_table(figures),
        spaces_table(figures),
        rounds_table(figures),
    )


def print_report(console: Console, figures: dict[str, Any], run: dict[str, Any]) -> None:
    console.print(render(figures, run))
