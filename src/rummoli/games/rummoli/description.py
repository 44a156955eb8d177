"""Rummoli as the interfaces see it: declared once, found through the registry.

Everything the terminal, the simulator, the web table and the scenario runner need to know
about Rummoli that is not the engine protocol itself: its seats, its house rules with
their allowed values and meanings, its printed presets, its computer players. Rummoli is
the first game of the Stops family (``games/stops``), so its description is made as the
others' are (:func:`~rummoli.games.stops.describe.family_description`), with its own
rules object (a dataclass that predates the family; its records keep their shape) and
its own words for its computer players.
"""

from __future__ import annotations

from dataclasses import fields

from rummoli.engine.description import (
    BOOL,
    CHOICE,
    CHOICE_OR_INT,
    INT,
    BotLabel,
    HouseRule,
)
from rummoli.games.rummoli.rules import BET_LIMITS, CHOICES, PRESETS, RANGES, RULE_HELP, Rules
from rummoli.games.stops.describe import family_description
from rummoli.games.stops.game import FamilyGame
from rummoli.games.stops.layout import OCTAGON
from rummoli.games.stops.setup import MAX_PLAYERS, MIN_PLAYERS

#: The allowed words of each house rule that takes one.
_CHOICES: dict[str, tuple[str, ...]] = {**CHOICES, "bet_limit": BET_LIMITS}


def _house_rule(name: str, default: object) -> HouseRule:
    if name == "bet_limit":
        kind = CHOICE_OR_INT
    elif isinstance(default, bool):
        kind = BOOL
    elif isinstance(default, int):
        kind = INT
    else:
        kind = CHOICE
    return HouseRule(
        name,
        default,
        kind,
        RULE_HELP.get(name, ""),
        choices=_CHOICES.get(name, ()),
        minimum=RANGES[name][0] if name in RANGES else None,
        maximum=RANGES[name][1] if name in RANGES else None,
    )


#: Every house rule of :class:`Rules`, in its order (its rules version is not one).
HOUSE_RULES = tuple(
    _house_rule(f.name, getattr(Rules(), f.name))
    for f in fields(Rules)
    if f.name != "rules_version"
)


#: Rummoli as a game of the family (its layout comes from its own rules object).
GAME = FamilyGame(
    name="rummoli",
    title="Rummoli",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    house_rules=HOUSE_RULES,
    make_layout=lambda game, values: Rules(**values).layout(),
    # What its board (``board.py``) draws: the declaration says what the layout plays.
    board_shape=OCTAGON,
    presets=PRESETS,
    web_table=True,
    summary=(
        "ante 1 chip per space; the dealer may take the widow, else it is auctioned; one "
        "round of poker for the poker space; then lay cards in runs of one suit (the lowest "
        "card leads; after a stop, the opposite colour). Laying 10S JD QC KH AS, KD+AD or "
        "7-8-9 of a suit wins that space; the first out of cards wins the rummoli space and "
        "1 chip per card from everyone else."
    ),
)

DESCRIPTION = family_description(
    GAME,
    rules_type=Rules,
    rules_from_dict=Rules.from_dict,
    house_rules=HOUSE_RULES,
    phase="the Rummoli phase",
    bot_labels={
        "random": BotLabel("Beginner", "Plays any legal card or bet at random: a gentle start."),
        "basic": BotLabel(
            "Casual",
            "Follows rules of thumb: takes a widow worth more, bets on strong hands, "
            "leads long runs.",
        ),
        "strong": BotLabel(
            "Expert",
            "Plays each choice out on many deals of the cards it cannot see, and picks the "
            "best on average.",
        ),
    },
)
