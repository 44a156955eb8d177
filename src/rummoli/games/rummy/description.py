"""Basic Rummy as the interfaces see it: declared once, found through the registry.

What the terminal, the simulator, the web table and the scenario runner need to know
about Basic Rummy beyond the engine protocol: two to four seats (two by default, ten
cards each), its house rules, its computer players, that a deal is a *hand* and a
game a *match*, that seats end with points, and where each interface keeps its Rummy
part (``tui/rummy``, ``sim/rummy``, ``web/rummy``).
"""

from __future__ import annotations

from rummoli.engine.description import (
    BOOL,
    OPTIONAL_INT,
    SIMULATION,
    TERMINAL,
    WEB,
    BotLabel,
    GameDescription,
    HouseRule,
    StateAdapter,
)
from rummoli.games.rummy import record, view
from rummoli.games.rummy.rules import DEFAULT_TARGETS, RULE_HELP, TARGET_RANGE, Rules
from rummoli.games.rummy.scenario import run_rummy_scenario
from rummoli.games.rummy.setup import MAX_PLAYERS, MIN_PLAYERS, setup_from_dict
from rummoli.games.rummy.state import PHASE_NAMES, RummyState

#: ``target`` is None by default: the seed's target for the table's size.
HOUSE_RULES = (
    HouseRule(
        "target",
        None,
        OPTIONAL_INT,
        RULE_HELP["target"],
        minimum=TARGET_RANGE[0],
        maximum=TARGET_RANGE[1],
        suggested=tuple(sorted(set(DEFAULT_TARGETS.values()))),
        by_players=dict(DEFAULT_TARGETS),
    ),
    HouseRule("one_meld_per_turn", False, BOOL, RULE_HELP["one_meld_per_turn"]),
    HouseRule("stall_rule", False, BOOL, RULE_HELP["stall_rule"]),
)


#: The description's functions over a Rummy state.
STATE = StateAdapter(
    RummyState,
    rules_from_dict=Rules.from_dict,
    setup_from_dict=lambda setup, _rules: setup_from_dict(setup),
    between_phase=PHASE_NAMES.index("hand_over"),
    round_attribute="hand_no",
    amounts_attribute="scores",
)


DESCRIPTION = GameDescription(
    name="rummy",
    title="Basic Rummy",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=2,
    house_rules=HOUSE_RULES,
    rules_from_dict=Rules.from_dict,
    rules_type=Rules,
    new_game=STATE.new_game,
    stored_game=STATE.stored_game,
    replay=record.replay,
    run_scenario=run_rummy_scenario,
    event_to_json=view.event_to_json,
    events_for=view.events_for,
    events_for_seats=view.events_for_seats,
    between_rounds=STATE.between_rounds,
    round_number=STATE.round_number,
    final_amounts=STATE.final_amounts,
    bots={
        "random": "rummoli.bots.random_bot:RandomBot",
        "basic": "rummoli.bots.rummy.basic:BasicRummyBot",
        "strong": "rummoli.bots.rummy.strong:StrongRummyBot",
    },
    bot_labels={
        "random": BotLabel("Beginner", "Draws and discards at random: a gentle start."),
        "basic": BotLabel(
            "Casual",
            "Takes a discard that fits, melds and lays off at once, throws its least useful card.",
        ),
        "strong": BotLabel(
            "Expert",
            "Counts the cards still live, holds its melds for Going Rummy when it pays, "
            "and watches what the next player takes.",
        ),
    },
    amount="points",
    round_word="hand",
    game_word="match",
    rules_text="rummoli.games.rummy:text/rules.{lang}.md",
    parts={
        TERMINAL: "rummoli.tui.rummy:TERMINAL",
        SIMULATION: "rummoli.sim.rummy:SIMULATION",
        WEB: "rummoli.web.rummy:WEB",
    },
)
