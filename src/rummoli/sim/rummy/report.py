"""The figures of a Rummy simulation as tables for people (the JSON file is shared).

Reads the dict of :func:`rummoli.sim.rummy.figures.summarize_rummy`; this module only
formats.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rummoli.sim.report import append_speed, number, percent


def _ci(ci: list[float] | None, digits: int = 2) -> str:
    return "-" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    config = figures["config"]
    changed = ", ".join(f"{k}={v}" for k, v in config["rules_changed"].items()) or "defaults"
    matches = figures["matches"]
    text = Text()
    if not figures["complete"]:
        text.append("Interrupted: figures so far. ", style="bold yellow")
    text.append(
        f"Rummy: {figures['hands']:,} hands in {matches['started']:,} matches "
        f"({matches['finished']:,} finished, to {config['target']} points) at "
        f"{config['seats']} seats; bots {', '.join(config['labels'])}"
        f"{' (rotated)' if config['rotate'] else ''}; rules: {changed}; seed {config['seed']}."
    )
    append_speed(text, run, "hands")
    return text


def bots_table(figures: dict[str, Any]) -> Table:
    table = Table(title="Points per hand, by bot", title_justify="left")
    table.add_column("bot")
    table.add_column("points/hand", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("95% CI (by chunk)", justify="right")
    table.add_column("hands won", justify="right")
    table.add_column("Going Rummy (of wins)", justify="right")
    table.add_column("matches won", justify="right")
    for bot in figures["bots"]:
        points = bot["points_per_hand"]
        table.add_row(
            bot["bot"],
            number(points["mean"]),
            _ci(points["ci95"]),
            _ci(bot["points_per_hand_ci95_by_chunk"]),
            percent(bot["win_rate"]),
            percent(bot["going_rummy_share_of_wins"]),
            percent(bot["match_win_rate"]),
        )
    return table


def levels_table(figures: dict[str, Any]) -> Table:
    """Bots of one level pooled: each hand counts once, so the interval stays honest."""
    table = Table(title="Points per hand and bot, by level", title_justify="left")
    table.add_column("level")
    table.add_column("bots", justify="right")
    table.add_column("points/hand", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("95% CI (by chunk)", justify="right")
    table.add_column("hands won", justify="right")
    for level in figures["levels"]:
        points = level["points_per_hand_per_bot"]
        table.add_row(
            level["level"],
            str(level["bots"]),
            number(points["mean"]),
            _ci(points["ci95"]),
            _ci(level["points_per_hand_per_bot_ci95_by_chunk"]),
            percent(level["win_rate_per_bot"]),
        )
    return table


def positions_table(figures: dict[str, Any]) -> Table:
    table = Table(
        title="Order of play: points per hand (first = left of the dealer)", title_justify="left"
    )
    table.add_column("plays")
    table.add_column("points/hand", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("hands won", justify="right")
    for position in figures["positions"]:
        points = position["points_per_hand"]
        table.add_row(
            position["position"],
            number(points["mean"]),
            _ci(points["ci95"]),
            percent(position["win_rate"]),
        )
    return table


def hands_table(figures: dict[str, Any]) -> Table:
    length = figures["hand_length"]
    stalemate = figures["stalemate"]
    rummy = figures["going_rummy"]
    first = figures["first_player"]
    matches = figures["matches"]
    table = Table(title="Hands", title_justify="left", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
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
    parts: list[Text | Table] = [headline(figures, run), bots_table(figures)]
    if any(level["bots"] > 1 for level in figures["levels"]):
        parts.append(levels_table(figures))
    parts += [positions_table(figures), hands_table(figures)]
    return Group(*parts)


def print_rummy_report(console: Console, figures: dict[str, Any], run: dict[str, Any]) -> None:
    console.print(render(figures, run))
