"""The figures of a Rummy simulation as tables for people, in the language in force (the
JSON file is shared, and stays English: it is for programs).

Reads the dict of :func:`rummoli.sim.rummy.figures.summarize_rummy`; this module only
formats. The messages have the context ``simulation``; the bots' labels and the target
(a house rule's value) stay as they are typed.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rummoli.i18n import NP_, NPN_, fixed, npgettext, pgettext
from rummoli.sim.report import (
    count,
    figures_table,
    interval,
    number,
    percent,
    report,
    yes_no,
)
from rummoli.sim.report import headline as shared_headline

#: The speed in the headline (a rate: English says "hands" for every n).
RATE = NPN_("simulation", "{n} hands/s", "{n} hands/s")
#: The order of play, for people (the JSON keeps ``first``, ``second (dealer)``...).
ORDINALS = (
    NP_("simulation", "first"),
    NP_("simulation", "second"),
    NP_("simulation", "third"),
    NP_("simulation", "fourth"),
)


def position_label(position: int, seats: int) -> str:
    """``first`` (left of the dealer, opens the hand) ...; the dealer plays last."""
    name = pgettext("simulation", ORDINALS[position])
    if position == seats - 1:
        return pgettext("simulation", "{position} (dealer)").format(position=name)
    return name


def headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    config = figures["config"]
    matches = figures["matches"]
    hands = figures["hands"]
    counted = pgettext("simulation", "Rummy: {hands} in {matches} ({finished}, {target})").format(
        hands=npgettext("simulation", "{n} hand", "{n} hands", hands).format(n=count(hands)),
        # "in 5 matches": a language may decline the noun after its preposition.
        matches=npgettext(
            "simulation, after in", "{n} match", "{n} matches", matches["started"]
        ).format(n=count(matches["started"])),
        finished=npgettext(
            "simulation, matches", "{n} finished", "{n} finished", matches["finished"]
        ).format(n=count(matches["finished"])),
        target=npgettext("simulation", "to {n} point", "to {n} points", config["target"]).format(
            n=config["target"]
        ),
    )
    return shared_headline(figures, run, counted, RATE)


def bots_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        pgettext("simulation", "Points per hand, by bot"),
        (
            pgettext("simulation", "bot"),
            pgettext("simulation", "points/hand"),
            pgettext("simulation", "95% CI"),
            pgettext("simulation", "95% CI (by chunk)"),
            pgettext("simulation", "hands won"),
            pgettext("simulation", "Going Rummy (of wins)"),
            pgettext("simulation", "matches won"),
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
        pgettext("simulation", "Points per hand and bot, by level"),
        (
            pgettext("simulation", "level"),
            pgettext("simulation", "bots"),
            pgettext("simulation", "points/hand"),
            pgettext("simulation", "95% CI"),
            pgettext("simulation", "95% CI (by chunk)"),
            pgettext("simulation", "hands won"),
        ),
        (
            (
                level["level"],
                count(level["bots"]),
                number(level["points_per_hand_per_bot"]["mean"]),
                interval(level["points_per_hand_per_bot"]["ci95"]),
                interval(level["points_per_hand_per_bot_ci95_by_chunk"]),
                percent(level["win_rate_per_bot"]),
            )
            for level in figures["levels"]
        ),
    )


def positions_table(figures: dict[str, Any]) -> Table:
    seats = len(figures["positions"])
    return figures_table(
        pgettext("simulation", "Order of play: points per hand (first = left of the dealer)"),
        (
            pgettext("simulation", "plays"),
            pgettext("simulation", "points/hand"),
            pgettext("simulation", "95% CI"),
            pgettext("simulation", "hands won"),
        ),
        (
            (
                position_label(index, seats),
                number(position["points_per_hand"]["mean"]),
                interval(position["points_per_hand"]["ci95"]),
                percent(position["win_rate"]),
            )
            for index, position in enumerate(figures["positions"])
        ),
    )


def _count(value: int | None) -> str:
    return "-" if not value else count(value)


def hands_table(figures: dict[str, Any]) -> Table:
    length = figures["hand_length"]
    stalemate = figures["stalemate"]
    rummy = figures["going_rummy"]
    first = figures["first_player"]
    matches = figures["matches"]
    table = figures_table(
        pgettext("simulation", "Hands"),
        (pgettext("simulation", "figure"), pgettext("simulation", "value")),
        show_header=False,
    )
    table.add_row(
        pgettext("simulation", "hand length in turns: mean / median / 90%"),
        pgettext("simulation", "{first} / {second} / {third}").format(
            first=number(length["mean_turns"], 1),
            second=_count(length["median_turns"]),
            third=_count(length["p90_turns"]),
        ),
    )
    table.add_row(
        pgettext("simulation", "turns per player and hand"),
        number(length["mean_turns_per_player"], 1),
    )
    table.add_row(
        pgettext("simulation", "stalemates (stock ran out twice / detected / stalled)"),
        pgettext("simulation", "{rate} ({ran_out} / {detected} / {stalled})").format(
            rate=percent(stalemate["rate"]),
            ran_out=count(stalemate["stock_ran_out"]),
            detected=count(stalemate["detected"]),
            stalled=count(stalemate["stalled"]),
        ),
    )
    table.add_row(
        pgettext("simulation", "Going Rummy: of hands / of hands won"),
        pgettext("simulation", "{first} / {second}").format(
            first=percent(rummy["rate"]), second=percent(rummy["share_of_wins"])
        ),
    )
    advantage = first["advantage"]
    table.add_row(
        pgettext("simulation", "first player: points/hand against the table's mean"),
        pgettext("simulation", "{first} vs {table} ({advantage})").format(
            first=number(first["points_per_hand"]["mean"]),
            table=number(first["table_points_per_hand"]),
            advantage="-" if advantage is None else fixed(advantage, 2, sign=True, group=False),
        ),
    )
    table.add_row(
        pgettext("simulation", "first player: hands won (an even share)"),
        pgettext("simulation", "{rate} ({fair})").format(
            rate=percent(first["win_rate"]), fair=percent(first["fair_win_rate"])
        ),
    )
    table.add_row(
        pgettext("simulation", "points of a won hand"), number(figures["winner_points"]["mean"], 1)
    )
    table.add_row(
        pgettext("simulation", "hands with a reshuffle"), percent(figures["reshuffle_rate"])
    )
    table.add_row(
        pgettext("simulation", "draws from the discard pile"),
        percent(figures["discard_draw_rate"]),
    )
    table.add_row(
        pgettext("simulation", "hands per finished match"), number(matches["mean_hands"], 1)
    )
    table.add_row(pgettext("simulation", "points add up"), yes_no(figures["points"]["consistent"]))
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
