"""A Rummoli simulation's figures as tables for people, in the language in force.

They read the dict of :func:`rummoli.sim.stops.figures.summarize`; this module only
formats, with the cell formatters every game's report shares (:mod:`rummoli.sim.report`).
The messages have the context ``simulation``; the bots' labels (``basic#1``), the spaces'
pay cards (``10S``) and house rules' values stay as they are typed.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rummoli.i18n import NPN_, npgettext, pgettext
from rummoli.i18n import number as i18n_number
from rummoli.i18n.terms import space_name
from rummoli.sim.report import (
    count,
    figures_table,
    interval,
    number,
    percent,
    report,
    signed,
    yes_no,
)
from rummoli.sim.report import headline as shared_headline

#: The speed in the headline: "{n} rounds/s" (a rate: English says "rounds" for every n;
#: a language that inflects a noun after a number has its forms).
RATE = NPN_("simulation", "{n} rounds/s", "{n} rounds/s")


def _ci(moments: dict[str, Any], digits: int = 2) -> str:
    return interval(moments["ci95"], digits, sign=True)


def position_label(position: int) -> str:
    """A seat counted from the dealer, for people (``dealer``, ``dealer+1``...); the JSON
    keeps the English names of :func:`rummoli.sim.stops.figures.position_name`."""
    if position == 0:
        return pgettext("simulation", "dealer")
    return pgettext("simulation", "dealer+{n}").format(n=i18n_number(position))


def headline(figures: dict[str, Any], run: dict[str, Any]) -> Text:
    games = figures["games"]
    rounds = figures["rounds"]
    counted = pgettext("simulation", "{rounds} in {games} ({finished})").format(
        rounds=npgettext("simulation", "{n} round", "{n} rounds", rounds).format(n=count(rounds)),
        # "in 20 games": a language may decline the noun after its preposition.
        games=npgettext("simulation, after in", "{n} game", "{n} games", games["started"]).format(
            n=count(games["started"])
        ),
        finished=npgettext(
            "simulation, games", "{n} finished", "{n} finished", games["finished"]
        ).format(n=count(games["finished"])),
    )
    return shared_headline(figures, run, counted, RATE)


def bots_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        pgettext("simulation", "Chips won per round, by bot (settlement apart)"),
        (
            pgettext("simulation", "bot"),
            pgettext("simulation", "chips/round"),
            pgettext("simulation", "95% CI"),
            pgettext("simulation", "95% CI (by chunk)"),
            pgettext("simulation", "settlement/game"),
        ),
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
        pgettext("simulation", "Chips won per round and bot, by level"),
        (
            pgettext("simulation", "level"),
            pgettext("simulation", "bots"),
            pgettext("simulation", "chips/round"),
            pgettext("simulation", "95% CI"),
            pgettext("simulation", "95% CI (by chunk)"),
        ),
        (
            (
                level["level"],
                count(level["bots"]),
                signed(level["chips_per_round_per_bot"]["mean"], 3),
                _ci(level["chips_per_round_per_bot"], 3),
                interval(level["chips_per_round_per_bot_ci95_by_chunk"], 3, sign=True),
            )
            for level in figures["levels"]
        ),
    )


def seats_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        pgettext("simulation", "Seat advantage: chips won per round"),
        (
            pgettext("simulation", "table seat"),
            pgettext("simulation", "chips/round"),
            pgettext("simulation", "95% CI"),
            pgettext("simulation", "from the dealer"),
            pgettext("simulation", "chips/round"),
            pgettext("simulation", "95% CI"),
        ),
        (
            (
                count(seat["seat"]),
                signed(seat["chips_per_round"]["mean"], 3),
                _ci(seat["chips_per_round"], 3),
                position_label(index),
                signed(position["chips_per_round"]["mean"], 3),
                _ci(position["chips_per_round"], 3),
            )
            for index, (seat, position) in enumerate(
                zip(figures["seats"], figures["positions"], strict=True)
            )
        ),
        left=(0, 3),
    )


def spaces_table(figures: dict[str, Any]) -> Table:
    return figures_table(
        pgettext("simulation", "Board spaces"),
        (
            pgettext("simulation", "space"),
            pgettext("simulation", "pays in"),
            pgettext("simulation", "mean payout"),
            pgettext("simulation", "carry-over (rounds)"),
            pgettext("simulation", "chips/round"),
        ),
        (
            (
                space_name(space["space"]),
                percent(space["pay_rate"]),
                number(space["mean_payout"], 1),
                number(space["mean_carry_over"]),
                number(space["chips_per_round"]),
            )
            for space in figures["spaces"]
        ),
    )


def _pair(first: str, second: str) -> str:
    return pgettext("simulation", "{first} / {second}").format(first=first, second=second)


def rounds_table(figures: dict[str, Any]) -> Table:
    widow = figures["widow"]
    poker = figures["poker"]
    winner = figures["round_winner"]
    table = figures_table(
        pgettext("simulation", "Rounds"),
        (pgettext("simulation", "figure"), pgettext("simulation", "value")),
        show_header=False,
    )
    table.add_row(pgettext("simulation", "deadlocks"), percent(figures["deadlock"]["rate"]))
    table.add_row(
        pgettext("simulation", "round winner collects (1 chip a card)"),
        number(winner["collected_from_others"]["mean"]),
    )
    table.add_row(
        pgettext("simulation", "widow exchanged / auctioned / dead"),
        pgettext("simulation", "{first} / {second} / {third}").format(
            first=percent(widow["exchanged_rate"]),
            second=percent(widow["bought_rate"]),
            third=percent(widow["dead_rate"]),
        ),
    )
    table.add_row(
        pgettext("simulation", "  of which dead for want of a bid"), percent(widow["no_bid_rate"])
    )
    table.add_row(pgettext("simulation", "mean winning bid"), number(widow["winning_bid"]["mean"]))
    table.add_row(
        pgettext("simulation", "chips/round of the widow taker: dealer / buyer (bid paid)"),
        _pair(
            signed(widow["taker_chips_exchanged"]["mean"]),
            signed(widow["taker_chips_bought"]["mean"]),
        ),
    )
    table.add_row(
        pgettext("simulation", "chips/round of a player dealt in (average)"),
        signed(widow["dealt_in_chips"]["mean"]),
    )
    table.add_row(
        pgettext("simulation", "poker ({method}): mean pot").format(method=poker["method"]),
        number(poker["pot"]["mean"]),
    )
    table.add_row(pgettext("simulation", "poker: showdowns"), percent(poker["showdown_rate"]))
    if poker["bets_per_round"] is not None:
        table.add_row(
            pgettext("simulation", "poker: chips bet per round"),
            number(poker["bets_per_round"]["mean"]),
        )
        table.add_row(
            pgettext("simulation", "poker: folds per round"), number(poker["folds_per_round"])
        )
    table.add_row(
        pgettext("simulation", "players dealt in per round"),
        number(figures["players_dealt_in_per_round"]),
    )
    games = figures["games"]
    table.add_row(
        pgettext("simulation", "rounds per game (cut short or not)"),
        number(games["rounds_per_game"], 1),
    )
    table.add_row(
        pgettext("simulation", "mean game length (finished games)"), number(games["mean_length"], 1)
    )
    table.add_row(pgettext("simulation", "chips conserved"), yes_no(figures["chips"]["conserved"]))
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
