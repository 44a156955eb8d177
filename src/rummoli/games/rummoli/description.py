"""Rummoli as the interfaces see it: declared once, found through the registry.

Everything the terminal, the simulator, the web table and the scenario runner need to know
about Rummoli that is not the engine protocol itself: its seats, its house rules with
their allowed values and meanings, its printed presets, its computer players, and where
each interface keeps its Rummoli part (``tui/rummoli``, ``sim/rummoli``, ``web/rummoli``).
"""

from __future__ import annotations

from dataclasses import fields

from rummoli.engine.description import (
    BOOL,
    CHOICE,
    CHOICE_OR_INT,
    INT,
    SIMULATION,
    TERMINAL,
    WEB,
    BotLabel,
    GameDescription,
    HouseRule,
    StateAdapter,
)
from rummoli.games.rummoli import replay
from rummoli.games.rummoli.rules import BET_LIMITS, CHOICES, PRESETS, RANGES, RULE_HELP, Rules
from rummoli.games.stops import view
from rummoli.games.stops.scenario import scenario_runner
from rummoli.games.stops.setup import MAX_PLAYERS, MIN_PLAYERS, setup_from_dict
from rummoli.games.stops.state import PHASE_NAMES, RummoliState

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


#: The description's functions over a Rummoli state.
STATE = StateAdapter(
    RummoliState,
    rules_from_dict=Rules.from_dict,
    setup_from_dict=lambda setup, rules: setup_from_dict(setup, rules.starting_chips),
    between_phase=PHASE_NAMES.index("next_round"),
    round_attribute="round_no",
    amounts_attribute="chips",
)


DESCRIPTION = GameDescription(
    name="rummoli",
    title="Rummoli",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    house_rules=HOUSE_RULES,
    rules_from_dict=Rules.from_dict,
    rules_type=Rules,
    new_game=STATE.new_game,
    stored_game=STATE.stored_game,
    replay=replay,
    run_scenario=scenario_runner(Rules.from_dict),
    event_to_json=view.event_to_json,
    events_for=view.events_for,
    between_rounds=STATE.between_rounds,
    round_number=STATE.round_number,
    final_amounts=STATE.final_amounts,
    bots={
        "random": "rummoli.bots.random_bot:RandomBot",
        "basic": "rummoli.bots.stops.basic:BasicBot",
        "strong": "rummoli.bots.stops.strong:StrongBot",
    },
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
    presets=PRESETS,
    amount="chips",
    rules_text="rummoli.games.rummoli:text/rules.{lang}.md",
    parts={
        TERMINAL: "rummoli.tui.rummoli:TERMINAL",
        SIMULATION: "rummoli.sim.rummoli:SIMULATION",
        WEB: "rummoli.web.rummoli:WEB",
    },
)
