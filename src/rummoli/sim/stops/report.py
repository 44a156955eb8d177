"""A Rummoli simulation's figures as tables for people, in the language in force.

They read the dict of :func:`rummoli.sim.stops.figures.summarize`; this module only
formats, with the cell formatters every game's report shares (:mod:`rummoli.sim.report`).
The messages have the context ``simulation``; the bots' labels (``basic#1``), the spaces'
pay cards (``10S``) and house rules' values stay as they are typed.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from rummoli.i18n import NP_, NPN_, npgettext, pgettext
from rummoli.i18n import number as i18n_number
from rummoli.i18n.terms import space_name
from rummoli.sim import report as shared
from rummoli.sim.report import count, figures_table, number, percent, signed, yes_no

#: The speed in the headline: "{n} rounds/s" (a rate: English says "rounds" for every n;
#: a language that inflects a noun after a number has its forms).
RATE = NPN_("simulation", "{n} rounds/s", "{n} rounds/s")


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
    return shared.headline(figures, run, counted, RATE)


#: What Rummoli's report counts per round and bot: chips won, three decimals, signed.
CHIPS = shared.Measure("chips_per_round", NP_("simulation", "chips/round"), digits=3, sign=True)


def bots_table(figures: dict[str, Any]) -> Table:
    return shared.bots_table(
        figures,
        pgettext("simulation", "Chips won per round, by bot (settlement apart)"),
        CHIPS,
        (
            pgettext("simulation", "settlement/game"),
            lambda bot: signed(bot["settlement_per_game"]["mean"]),
        ),
    )


def levels_table(figures: dict[str, Any]) -> Table | None:
    return shared.levels_table(
        figures, pgettext("simulation", "Chips won per round and bot, by level"), CHIPS
    )


def seats_table(figures: dict[str, Any]) -> Table:
    """Each table seat's chips per round beside each seat counted from the dealer's."""
    return figures_table(
        pgettext("simulation", "Seat advantage: chips won per round"),
        (
            pgettext("simulation", "table seat"),
            *CHIPS.headers(),
            pgettext("simulation", "from the dealer"),
            *CHIPS.headers(),
        ),
        (
            (
                count(seat["seat"]),
                *CHIPS.cells(seat["chips_per_round"]),
                position_label(index),
                *CHIPS.cells(position["chips_per_round"]),
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
    games = figures["games"]
    facts = [
        (pgettext("simulation", "deadlocks"), percent(figures["deadlock"]["rate"])),
        (
            pgettext("simulation", "round winner collects (1 chip a card)"),
            number(figures["round_winner"]["collected_from_others"]["mean"]),
        ),
        (
            pgettext("simulation", "widow exchanged / auctioned / dead"),
            pgettext("simulation", "{first} / {second} / {third}").format(
                first=percent(widow["exchanged_rate"]),
                second=percent(widow["bought_rate"]),
                third=percent(widow["dead_rate"]),
            ),
        ),
        (
            pgettext("simulation", "  of which dead for want of a bid"),
            percent(widow["no_bid_rate"]),
        ),
        (pgettext("simulation", "mean winning bid"), number(widow["winning_bid"]["mean"])),
        (
            pgettext("simulation", "chips/round of the widow taker: dealer / buyer (bid paid)"),
            _pair(
                signed(widow["taker_chips_exchanged"]["mean"]),
                signed(widow["taker_chips_bought"]["mean"]),
            ),
        ),
        (
            pgettext("simulation", "chips/round of a player dealt in (average)"),
            signed(widow["dealt_in_chips"]["mean"]),
        ),
        (
            pgettext("simulation", "poker ({method}): mean pot").format(method=poker["method"]),
            number(poker["pot"]["mean"]),
        ),
        (pgettext("simulation", "poker: showdowns"), percent(poker["showdown_rate"])),
    ]
    if poker["bets_per_round"] is not None:
        facts += [
            (
                pgettext("simulation", "poker: chips bet per round"),
                number(poker["bets_per_round"]["mean"]),
            ),
            (pgettext("simulation", "poker: folds per round"), number(poker["folds_per_round"])),
        ]
    facts += [
        (
            pgettext("simulation", "players dealt in per round"),
            number(figures["players_dealt_in_per_round"]),
        ),
        (
            pgettext("simulation", "rounds per game (cut short or not)"),
            number(games["rounds_per_game"], 1),
        ),
        (
            pgettext("simulation", "mean game length (finished games)"),
            number(games["mean_length"], 1),
        ),
        (pgettext("simulation", "chips conserved"), yes_no(figures["chips"]["conserved"])),
    ]
    return shared.facts_table(pgettext("simulation", "Rounds"), facts)


#: The report: every table, headline first (``SIMULATION.print_report``).
print_report = shared.Report(
    headline, (bots_table, levels_table, seats_table, spaces_table, rounds_table)
)
