"""A family game's description, made from its declaration: written once for all of them.

Every game of the family is played by the same state (:mod:`.state`), recorded, replayed
and refereed the same way (:mod:`.record`, :mod:`.scenario`), written as the same events
(:mod:`.view`), played by the same computer players (``bots/stops``) and shown by the
same interface parts (``tui/stops``, ``sim/stops``, ``web/stops``, which find the game by
its name). So a game's :class:`~rummoli.engine.description.GameDescription` differs only
by what its :class:`~.game.FamilyGame` declares, and :func:`family_description` makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rummoli.engine.description import (
    SIMULATION,
    TERMINAL,
    WEB,
    BotLabel,
    GameDescription,
    HouseRule,
    StateAdapter,
)
from rummoli.games.stops import view
from rummoli.games.stops.constants import PHASE_NAMES
from rummoli.games.stops.game import FamilyGame, GameRules, rules_class
from rummoli.games.stops.record import replayer
from rummoli.games.stops.scenario import scenario_runner
from rummoli.games.stops.setup import setup_from_dict
from rummoli.games.stops.state import FamilyRules, StopsState

#: The family's computer players, by level, weakest first.
BOTS: Mapping[str, object] = {
    "random": "rummoli.bots.random_bot:RandomBot",
    "basic": "rummoli.bots.stops.basic:BasicBot",
    "strong": "rummoli.bots.stops.strong:StrongBot",
}
#: Their labels for people, in the family's words.
BOT_LABELS: Mapping[str, BotLabel] = {
    "random": BotLabel("Beginner", "Plays any legal card or bet at random: a gentle start."),
    "basic": BotLabel(
        "Casual",
        "Follows rules of thumb: values the pay cards it holds, bets on strong hands, "
        "leads long runs.",
    ),
    "strong": BotLabel(
        "Expert",
        "Plays each choice out on many deals of the cards it cannot see, and picks the "
        "best on average.",
    ),
}


def state_adapter(
    rules_from_dict: Callable[[Any], FamilyRules],
) -> StateAdapter[StopsState]:
    """The description's functions over the family's state, for one game's rules."""
    return StateAdapter(
        StopsState,
        rules_from_dict=rules_from_dict,
        setup_from_dict=lambda setup, rules: setup_from_dict(
            setup, rules.starting_chips, plan=rules.layout()
        ),
        between_phase=PHASE_NAMES.index("next_round"),
        round_attribute="round_no",
        amounts_attribute="chips",
    )


def family_description(
    game: FamilyGame,
    *,
    rules_type: type | None = None,
    rules_from_dict: Callable[[Any], FamilyRules] | None = None,
    house_rules: tuple[HouseRule, ...] | None = None,
    phase: str = "the play",
    bot_labels: Mapping[str, BotLabel] = BOT_LABELS,
) -> GameDescription:
    """``game``'s description. Rummoli passes its own rules class and house rules (its
    rules object keeps its records as they were); every other game uses its declared
    house rules and the :class:`~.game.GameRules` class made for it."""
    made: type[GameRules] | None = None
    if rules_type is None:
        made = rules_class(game)
        rules_type = made
        rules_from_dict = made.from_dict
    assert rules_from_dict is not None
    state = state_adapter(rules_from_dict)
    return GameDescription(
        name=game.name,
        title=game.title,
        min_players=game.min_players,
        max_players=game.max_players,
        default_players=game.default_players,
        house_rules=game.house_rules if house_rules is None else house_rules,
        rules_from_dict=rules_from_dict,
        rules_type=rules_type,
        new_game=state.new_game,
        stored_game=state.stored_game,
        replay=replayer(game.name, game.title, rules_from_dict),
        run_scenario=scenario_runner(rules_from_dict, phase),
        event_to_json=view.event_to_json,
        events_for=view.events_for,
        events_for_seats=view.events_for_seats,
        between_rounds=state.between_rounds,
        round_number=state.round_number,
        final_amounts=state.final_amounts,
        bots=BOTS,
        bot_labels=bot_labels,
        presets=game.presets,
        amount="chips",
        rules_text=f"rummoli.games.{game.name}:text/rules.{{lang}}.md",
        parts={
            TERMINAL: f"rummoli.tui.stops.parts:{game.name}",
            SIMULATION: f"rummoli.sim.stops.parts:{game.name}",
            WEB: f"rummoli.web.stops.parts:{game.name}",
        },
        aliases=game.aliases,
        summary=game.summary,
        web_table=game.web_table,
    )
