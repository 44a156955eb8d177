"""The figures of a Rummy simulation as tables for people, in the language in force (the
JSON file is shared, and stays English: it is for programs).

Reads the dict of :func:`rummoli.sim.rummy.figures.summarize_rummy`; this module only
formats. The messages have the context ``simulation``; the bots' labels and the target
(a house rule's value) stay as they are typed.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from rummoli.i18n import NP_, NPN_, fixed, npgettext, pgettext
from rummoli.sim import report as shared
from rummoli.sim.report import count, figures_table, number, percent, yes_no

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
    return shared.headline(figures, run, counted, RATE)


#: What Rummy's report counts per hand and bot: points scored.
POINTS = shared.Measure("points_per_hand", NP_("simulation", "points/hand"))


def bots_table(figures: dict[str, Any]) -> Table:
    return shared.bots_table(
        figures,
        pgettext("simulation", "Points per hand, by bot"),
        POINTS,
        (pgettext("simulation", "hands won"), lambda bot: percent(bot["win_rate"])),
        (
            pgettext("simulation", "Going Rummy (of wins)"),
            lambda bot: percent(bot["going_rummy_share_of_wins"]),
        ),
        (pgettext("simulation", "matches won"), lambda bot: percent(bot["match_win_rate"])),
    )


def levels_table(figures: dict[str, Any]) -> Table | None:
    return shared.levels_table(
        figures,
        pgettext("simulation", "Points per hand and bot, by level"),
        POINTS,
        (pgettext("simulation", "hands won"), lambda level: percent(level["win_rate_per_bot"])),
    )


def positions_table(figures: dict[str, Any]) -> Table:
    seats = len(figures["positions"])
    return figures_table(
        pgettext("simulation", "Order of play: points per hand (first = left of the dealer)"),
        (
            pgettext("simulation", "plays"),
            *POINTS.headers(),
            pgettext("simulation", "hands won"),
        ),
        (
            (
                position_label(index, seats),
                *POINTS.cells(position["points_per_hand"]),
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
    advantage = first["advantage"]
    facts = [
        (
            pgettext("simulation", "hand length in turns: mean / median / 90%"),
            pgettext("simulation", "{first} / {second} / {third}").format(
                first=number(length["mean_turns"], 1),
                second=_count(length["median_turns"]),
                third=_count(length["p90_turns"]),
            ),
        ),
        (
            pgettext("simulation", "turns per player and hand"),
            number(length["mean_turns_per_player"], 1),
        ),
        (
            pgettext("simulation", "stalemates (stock ran out twice / detected / stalled)"),
            pgettext("simulation", "{rate} ({ran_out} / {detected} / {stalled})").format(
                rate=percent(stalemate["rate"]),
                ran_out=count(stalemate["stock_ran_out"]),
                detected=count(stalemate["detected"]),
                stalled=count(stalemate["stalled"]),
            ),
        ),
        (
            pgettext("simulation", "Going Rummy: of hands / of hands won"),
            pgettext("simulation", "{first} / {second}").format(
                first=percent(rummy["rate"]), second=percent(rummy["share_of_wins"])
            ),
        ),
        (
            pgettext("simulation", "first player: points/hand against the table's mean"),
            pgettext("simulation", "{first} vs {table} ({advantage})").format(
                first=number(first["points_per_hand"]["mean"]),
                table=number(first["table_points_per_hand"]),
                advantage="-" if advantage is None else fixed(advantage, 2, sign=True, group=False),
            ),
        ),
        (
            pgettext("simulation", "first player: hands won (an even share)"),
            pgettext("simulation", "{rate} ({fair})").format(
                rate=percent(first["win_rate"]), fair=percent(first["fair_win_rate"])
            ),
        ),
        (
            pgettext("simulation", "points of a won hand"),
            number(figures["winner_points"]["mean"], 1),
        ),
        (pgettext("simulation", "hands with a reshuffle"), percent(figures["reshuffle_rate"])),
        (
            pgettext("simulation", "draws from the discard pile"),
            percent(figures["discard_draw_rate"]),
        ),
        (
            pgettext("simulation", "hands per finished match"),
            number(figures["matches"]["mean_hands"], 1),
        ),
        (pgettext("simulation", "points add up"), yes_no(figures["points"]["consistent"])),
    ]
    return shared.facts_table(pgettext("simulation", "Hands"), facts)


#: The report: every table, headline first (``SIMULATION.print_report``).
print_rummy_report = shared.Report(
    headline, (bots_table, levels_table, positions_table, hands_table)
)
