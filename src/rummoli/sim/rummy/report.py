"""The figures of a Rummy simulation as tables for people (the JSON file is shared).

Reads the dict of :func:`rummoli.sim.rummy.figures.summarize_rummy`; this module only
formats.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rummoli.sim.report import figures_table, interval, number, percent, report
from rummoli.sim.report import headline as shared_headline


def headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    config = figures["config"]
    matches = figures["matches"]
    counted = (
        f"Rummy: {figures['hands']:,} hands in {matches['started']:,} matches "
        f"({matches['finished']:,} finished, to {config['target']} points)"
    )
    return shared_headline(figures, run, counted, "hands")


def bots_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        "Points per hand, by bot",
        (
            "bot",
            "points/hand",
            "95% CI",
            "95% CI (by chunk)",
            "hands won",
            "Going Rummy (of wins)",
            "matches won",
        ),
        (
            (
                bot["bot"],
                number(bot["points_per_hand"]["mean"]),
                interval(bot["points_per_hand"]["ci95"]),
                interval(bot["points_per_hand_ci95_by_chunk"]),
                percent(bot["win_rate"]),
                percent(bot["going_rummy_share_of_wins"]),
                percent(bot["match_win_rate"]),
            )
            for bot in figures["bots"]
        ),
    )


def levels_table(figures: dict[str, Any]) -> Table:
    """Bots of one level pooled: each hand counts once, so the interval stays honest."""
    return figures_table(
        "Points per hand and bot, by level",
        ("level", "bots", "points/hand", "95% CI", "95% CI (by chunk)", "hands won"),
        (
            (
                level["level"],
                str(level["bots"]),
                number(level["points_per_hand_per_bot"]["mean"]),
                interval(level["points_per_hand_per_bot"]["ci95"]),
                interval(level["points_per_hand_per_bot_ci95_by_chunk"]),
                percent(level["win_rate_per_bot"]),
            )
            for level in figures["levels"]
        ),
    )


def positions_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        "Order of play: points per hand (first = left of the dealer)",
        ("plays", "points/hand", "95% CI", "hands won"),
        (
            (
                position["position"],
                number(position["points_per_hand"]["mean"]),
                interval(position["points_per_hand"]["ci95"]),
                percent(position["win_rate"]),
            )
            for position in figures["positions"]
        ),
    )


def hands_table(figures: dict[str, Any]) -> Table:
    length = figures["hand_length"]
    stalemate = figures["stalemate"]
    rummy = figures["going_rummy"]
    first = figures["first_player"]
    matches = figures["matches"]
    table = figures_table("Hands", ("figure", "value"), show_header=False)
    table.add_row(
        "hand length in turns: mean / median / 90%",
        f"{number(length['mean_turns'], 1)} / {length['median_turns'] or '-'} / "
        f"{length['p90_turns'] or '-'}",
    )
    table.add_row("turns per player and hand", number(length["mean_turns_per_player"], 1))
    table.add_row(
        "stalemates (stock ran out twice / detected / stalled)",
        f"{percent(stalemate['rate'])} "
        f"({stalemate['stock_ran_out']:,} / {stalemate['detected']:,} / "
        f"{stalemate['stalled']:,})",
    )
    table.add_row(
        "Going Rummy: of hands / of hands won",
        f"{percent(rummy['rate'])} / {percent(rummy['share_of_wins'])}",
    )
    advantage = first["advantage"]
    table.add_row(
        "first player: points/hand against the table's mean",
        f"{number(first['points_per_hand']['mean'])} vs {number(first['table_points_per_hand'])}"
        f" ({'-' if advantage is None else f'{advantage:+.2f}'})",
    )
    table.add_row(
        "first player: hands won (an even share)",
        f"{percent(first['win_rate'])} ({percent(first['fair_win_rate'])})",
    )
    table.add_row("points of a won hand", number(figures["winner_points"]["mean"], 1))
    table.add_row("hands with a reshuffle", percent(figures["reshuffle_rate"]))
    table.add_row("draws from the discard pile", percent(figures["discard_draw_rate"]))
    table.add_row("hands per finished match", number(matches["mean_hands"], 1))
    table.add_row("points add up", "yes" if figures["points"]["consistent"] else "NO")
    return table


def render(figures: dict[str, Any], run: dict[str, Any]) -> Group:
    """Every table, headline first."""
    return report(
        figures,
        headline(figures, run),
        bots_table(figures),
        levels_table(figures),
        positions_table(figures),
        hands_table(figures),
    )


def print_rummy_report(console: Console, figures: dict[str, Any], run: dict[str, Any]) -> None:
    console.print(render(figures, run))
