"""The registry and the games' descriptions: what the interfaces read about each game
agrees with the game itself (its rules class, its seats, its bots)."""

from __future__ import annotations

import dataclasses

import pytest

from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION, SetupError
from rummoli.engine.description import (
    BOOL,
    CHOICE,
    CHOICE_OR_INT,
    INT,
    OPTIONAL_INT,
    BotLabel,
    GameDescription,
    HouseRule,
)
from rummoli.games import registry

DESCRIPTIONS = registry.descriptions()


#: The project's games in menu order: Rummoli, Basic Rummy, then the rest of the family.
FAMILY_AND_RUMMY = (
    "rummoli",
    "rummy",
    "michigan",
    "tripoley",
    "newmarket",
    "pope_joan",
    "poch",
    "nain_jaune",
)


def test_the_project_games_in_menu_order() -> None:
    assert registry.names() == FAMILY_AND_RUMMY
    assert registry.default_game() == "rummoli"
    games = ", ".join(FAMILY_AND_RUMMY)
    with pytest.raises(SetupError, match=f"unknown game 'chess'; games are {games}"):
        registry.describe("chess")


@pytest.mark.parametrize("description", DESCRIPTIONS, ids=lambda d: d.name)
def test_house_rules_are_the_rules_class_fields_with_its_defaults(
    description: GameDescription,
) -> None:
    default = description.rules_type()
    values = default.to_dict()
    names = list(values)
    if dataclasses.is_dataclass(description.rules_type):
        assert names == [f.name for f in dataclasses.fields(description.rules_type)]
    # Every field but the rules version (records keep it; it is no house rule).
    assert names[-1] == "rules_version"
    assert [rule.name for rule in description.house_rules] == names[:-1]
    for rule in description.house_rules:
        assert rule.default == values[rule.name], rule.name
        assert rule.help, f"{rule.name} has no help text"


def _accepts(description: GameDescription, rule: HouseRule, value: object) -> bool:
    try:
        description.rules({rule.name: value})
    except (SetupError, TypeError):
        return False
    return True


@pytest.mark.parametrize("description", DESCRIPTIONS, ids=lambda d: d.name)
def test_every_value_a_house_rule_offers_is_accepted_and_others_refused(
    description: GameDescription,
) -> None:
    for rule in description.house_rules:
        if rule.kind == BOOL:
            assert _accepts(description, rule, True) and _accepts(description, rule, False)
            assert not _accepts(description, rule, "yes")
        if rule.kind in (CHOICE, CHOICE_OR_INT):
            assert all(_accepts(description, rule, word) for word in rule.choices), rule.name
            assert not _accepts(description, rule, "no_such_word"), rule.name
        if rule.kind in (INT, CHOICE_OR_INT, OPTIONAL_INT):
            assert rule.minimum is not None, f"{rule.name} has no minimum"
            assert _accepts(description, rule, rule.minimum), rule.name
            assert not _accepts(description, rule, rule.minimum - 1), rule.name
        if rule.kind == OPTIONAL_INT:
            assert _accepts(description, rule, None)
            assert all(_accepts(description, rule, n) for n in rule.suggested)
    default = description.rules().to_dict()
    for name, changes in description.presets.items():
        assert description.rules(changes).to_dict() == {**default, **changes}, name


@pytest.mark.parametrize("description", DESCRIPTIONS, ids=lambda d: d.name)
def test_every_level_plays_a_game_from_each_seat_count(description: GameDescription) -> None:
    for seats in (description.min_players, description.max_players):
        for level in description.levels():
            names = [f"P{i}" for i in range(seats)]
            state = description.new_game(names, description.rules(), seed=seats)
            bots = [make_bot(level, seed, game=description.name) for seed in range(seats)]
            for _ in range(200):  # a few decisions of each bot is enough here
                if state.is_terminal():
                    break
                seat = state.current_player()
                action = (
                    CHANCE_ACTION if seat == CHANCE else ask_bot(bots[seat], state, seat).action
                )
                state.apply(action)
            again = description.replay(state.record())
            assert description.final_amounts(again) == description.final_amounts(state)
            assert description.round_number(again) == description.round_number(state) >= 1


def test_a_description_checks_itself() -> None:
    rummoli = registry.describe("rummoli")
    with pytest.raises(ValueError, match="lower-case identifier"):
        dataclasses.replace(rummoli, name="Rummoli 2")
    with pytest.raises(ValueError, match="min <= default <= max"):
        dataclasses.replace(rummoli, default_players=9)
    with pytest.raises(ValueError, match="needs its choices"):
        HouseRule("colour", "red", CHOICE)
    with pytest.raises(ValueError, match="unknown bot level 'genius' for rummoli"):
        rummoli.bot_factory("genius")
    with pytest.raises(SetupError, match="unknown Rummoli house rule 'colour'"):
        rummoli.house_rule("colour")
    with pytest.raises(SetupError, match="played by 2 to 8 players, not 9"):
        rummoli.check_players(9)


@pytest.mark.parametrize("description", DESCRIPTIONS, ids=lambda d: d.name)
def test_every_level_is_named_for_people(description: GameDescription) -> None:
    """Each level has a label and a line on what it does (the lobby, the table and the
    players' page show them); the strongest level, listed last, gives the hints."""
    titles = [description.bot_label(level).title for level in description.levels()]
    assert titles == ["Beginner", "Casual", "Expert"]
    assert all(description.bot_label(level).help for level in description.levels())
    assert description.hint_level() == "strong"


def test_bot_labels_name_only_existing_levels() -> None:
    rummoli = registry.describe("rummoli")
    with pytest.raises(ValueError, match="labels for levels it has not: genius"):
        dataclasses.replace(rummoli, bot_labels={"genius": BotLabel("Genius")})
    # A level without a label is shown by its code.
    bare = dataclasses.replace(rummoli, bot_labels={})
    assert bare.bot_label("strong") == BotLabel("Strong")
