"""A Rummoli simulation's figures as tables for people.

They read the dict of :func:`rummoli.sim.rummoli.figures.summarize`; this module only
formats, with the cell formatters every game's report shares (:mod:`rummoli.sim.report`).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rummoli.sim.report import append_speed, number, percent, signed


def _ci(moments: dict[str, Any], digits: int = 2) -> str:
    ci = moments["ci95"]
    return "-" if ci is None else f"[{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    config = figures["config"]
    changed = ", ".join(f"{k}={v}" for k, v in config["rules_changed"].items()) or "defaults"
    games = figures["games"]
    text = Text()
    if not figures["complete"]:
        text.append("Interrupted: figures so far. ", style="bold yellow")
    text.append(
        f"{figures['rounds']:,} rounds in {games['started']:,} games "
        f"({games['finished']:,} finished) at {config['seats']} seats; "
        f"bots {', '.join(config['labels'])}"
        f"{' (rotated)' if config['rotate'] else ''}"
        f"{'; full tables only' if config['full_table'] else ''}; rules: {changed}; "
        f"seed {config['seed']}."
    )
    append_speed(text, run, "rounds")
    return text


def bots_table(figures: dict[str, Any]) -> Table:
    table = Table(title="Chips won per round, by bot (settlement apart)", title_justify="left")
    table.add_column("bot")
    table.add_column("chips/round", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("95% CI (by chunk)", justify="right")
    table.add_column("settlement/game", justify="right")
    for bot in figures["bots"]:
        per_round = bot["chips_per_round"]
        by_chunk = bot["chips_per_round_ci95_by_chunk"]
        table.add_row(
            bot["bot"],
            signed(per_round["mean"], 3),
            _ci(per_round, 3),
            "-" if by_chunk is None else f"[{by_chunk[0]:+.3f}, {by_chunk[1]:+.3f}]",
            signed(bot["settlement_per_game"]["mean"]),
        )
    return table


def levels_table(figures: dict[str, Any]) -> Table:
    """Bots of one level pooled: each round counts once, so the interval stays honest."""
    table = Table(title="Chips won per round and bot, by level", title_justify="left")
    table.add_column("level")
    table.add_column("bots", justify="right")
    table.add_column("chips/round", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("95% CI (by chunk)", justify="right")
    for level in figures["levels"]:
        per_round = level["chips_per_round_per_bot"]
        by_chunk = level["chips_per_round_per_bot_ci95_by_chunk"]
        table.add_row(
            level["level"],
            str(level["bots"]),
            signed(per_round["mean"], 3),
            _ci(per_round, 3),
            "-" if by_chunk is None else f"[{by_chunk[0]:+.3f}, {by_chunk[1]:+.3f}]",
        )
    return table


def seats_table(figures: dict[str, Any]) -> Table:
    table = Table(title="Seat advantage: chips won per round", title_justify="left")
    table.add_column("table seat")
    table.add_column("chips/round", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("from the dealer")
    table.add_column("chips/round", justify="right")
    table.add_column("95% CI", justify="right")
    for seat, position in zip(figures["seats"], figures["positions"], strict=True):
        table.add_row(
            str(seat["seat"]),
            signed(seat["chips_per_round"]["mean"], 3),
            _ci(seat["chips_per_round"], 3),
            position["position"],
            signed(position["chips_per_round"]["mean"], 3),
            _ci(position["chips_per_round"], 3),
        )
    return table


def spaces_table(figures: dict[str, Any]) -> Table:
    table = Table(title="Board spaces", title_justify="left")
    table.add_column("space")
    table.add_column("pays in", justify="right")
    table.add_column("mean payout", justify="right")
    table.add_column("carry-over (rounds)", justify="right")
    table.add_column("chips/round", justify="right")
    for space in figures["spaces"]:
        table.add_row(
            space["space"],
            percent(space["pay_rate"]),
            number(space["mean_payout"], 1),
            number(space["mean_carry_over"]),
            number(space["chips_per_round"]),
        )
    return table


def rounds_table(figures: dict[str, Any]) -> Table:
    widow = figures["widow"]
    poker = figures["poker"]
    winner = figures["round_winner"]
    table = Table(title="Rounds", title_justify="left", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
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
    parts: list[Text | Table] = [headline(figures, run), bots_table(figures)]
    if any(level["bots"] > 1 for level in figures["levels"]):
        parts.append(levels_table(figures))
    parts += [seats_table(figures), spaces_table(figures), rounds_table(figures)]
    return Group(*parts)


def print_report(console: Console, figures: dict[str, Any], run: dict[str, Any]) -> None:
    console.print(render(figures, run))
