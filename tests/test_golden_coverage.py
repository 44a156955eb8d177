"""Every house rule of every game of the Stops family has golden files for its values.

Issue 26 asks for "hand-derived golden scenarios per game for every space, every stop,
every lead rule and every house rule". This test holds the last part to account: for
each game of the family in the registry that keeps its golden files in a folder of its
own (``tests/scenarios/<game>/``), every house rule must be set to each of its other
values by at least one of those files:

- a choice: each value but the default;
- a flag: the value that is not the default;
- a whole number (or a choice or a whole number, as ``bet_limit``): each choice but the
  default, and at least one number other than the default;
- ``starting_chips`` may be given by the scenario's ``chips`` instead of its rules;
- a preset counts for the values it sets (named rules beside it win, as in play).

A file counts whether it plays or expects an error: a refusal checks a rule too. The
message names every value missing, game by game, so a new game (or a new house rule)
shows at once what is left to write. Rummoli's own files (the top of ``tests/scenarios/``)
are outside this test, as are games of other families (Basic Rummy's ``rummy/``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummoli.engine.description import BOOL, CHOICE, CHOICE_OR_INT, GameDescription, HouseRule
from rummoli.games import registry
from rummoli.games.stops.layout import Layout

SCENARIO_DIR = Path(__file__).parent / "scenarios"


def in_family(description: GameDescription) -> bool:
    """Whether a game is of the Stops family: its rules make a layout the family's
    engine plays (as ``envs.stops.adapter.is_family_game`` asks)."""
    layout = getattr(description.rules(), "layout", None)
    return callable(layout) and isinstance(layout(), Layout)


def family_games() -> list[GameDescription]:
    return [d for d in registry.descriptions() if in_family(d) and (SCENARIO_DIR / d.name).is_dir()]


def rules_set(description: GameDescription, scenario: dict[str, Any]) -> dict[str, Any]:
    """The house rules a scenario sets: its preset's, then the ones it names; and its
    ``chips`` as ``starting_chips`` (when its rules do not name that)."""
    given = scenario.get("rules", {})
    values: dict[str, Any] = {}
    preset = given.get("preset")
    if isinstance(preset, str):
        values.update(description.presets.get(preset, {}))
    values.update({k: v for k, v in given.items() if k not in ("preset", "rules_version")})
    chips = scenario.get("chips")
    if "starting_chips" not in values and chips is not None:
        values["starting_chips"] = chips
    return values


def is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def wanted(rule: HouseRule) -> list[str]:
    """What a rule's files must set, as the message words it: each other choice or the
    other flag by value, ``a number`` for the numeric kinds."""
    if rule.kind == BOOL:
        return [json.dumps(not rule.default)]
    needs = [c for c in rule.choices if c != rule.default]
    if rule.kind != CHOICE:
        needs.append("a number")
    return needs


def covers(rule: HouseRule, need: str, value: object) -> bool:
    """Whether ``value`` (one file's, for ``rule``) is the ``need`` of :func:`wanted`."""
    if need == "a number":
        if rule.name == "starting_chips" and isinstance(value, list):
            return any(is_number(v) and v != rule.default for v in value)
        return is_number(value) and value != rule.default
    if rule.kind == BOOL:
        return value is (need == "true")
    return value == need


def settings(description: GameDescription) -> Iterator[dict[str, Any]]:
    """The house rules each of the game's golden files sets."""
    for path in sorted((SCENARIO_DIR / description.name).glob("*.json")):
        golden = json.loads(path.read_text(encoding="utf-8"))
        yield rules_set(description, golden["scenario"])


def missing(description: GameDescription) -> list[str]:
    """Every ``rule=value`` of the game that no golden file sets."""
    found = list(settings(description))
    gaps = []
    for rule in description.house_rules:
        for need in wanted(rule):
            if not any(rule.name in s and covers(rule, need, s[rule.name]) for s in found):
                gaps.append(f"{rule.name}={need}")
    return gaps


def test_the_family_has_games_with_golden_folders() -> None:
    names = [d.name for d in family_games()]
    assert {"michigan", "tripoley"} <= set(names)
    assert "rummy" not in names  # Basic Rummy is not of the family


@pytest.mark.parametrize("game", [d.name for d in family_games()])
def test_every_house_rule_value_has_a_golden_file(game: str) -> None:
    gaps = missing(registry.describe(game))
    assert not gaps, f"{game}: no golden file in tests/scenarios/{game}/ sets " + ", ".join(gaps)


def test_the_check_names_what_is_missing() -> None:
    """The check itself: a rule of each kind, against files that set some values."""
    kinds = {
        "flag": HouseRule("flag", False, BOOL),
        "choice": HouseRule("choice", "a", CHOICE, choices=("a", "b", "c")),
        "limit": HouseRule("limit", "x", CHOICE_OR_INT, choices=("x", "y"), minimum=1),
    }
    assert [wanted(r) for r in kinds.values()] == [["true"], ["b", "c"], ["y", "a number"]]
    assert covers(kinds["flag"], "true", True) and not covers(kinds["flag"], "true", False)
    assert covers(kinds["choice"], "b", "b") and not covers(kinds["choice"], "b", "c")
    assert covers(kinds["limit"], "a number", 4) and not covers(kinds["limit"], "a number", "y")
    chips = HouseRule("starting_chips", 100, "int", minimum=1)
    assert wanted(chips) == ["a number"]
    assert covers(chips, "a number", [100, 50]) and not covers(chips, "a number", 100)
    assert not covers(chips, "a number", True)  # a flag is not a number


def test_a_preset_and_the_chips_count_for_the_values_they_set() -> None:
    michigan = registry.describe("michigan")
    scenario = {"rules": {"preset": "michigan_kitty", "board": "boodles"}, "chips": [50, 60]}
    assert rules_set(michigan, scenario) == {
        "board": "boodles",  # named beside the preset: it wins
        "dealer_stake": "single",
        "starting_chips": [50, 60],
    }
    assert rules_set(michigan, {"chips": 50, "rules": {"starting_chips": 70}}) == {
        "starting_chips": 70
    }


def test_missing_names_each_value_no_file_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "michigan"
    folder.mkdir()
    scenario = {"chips": 50, "rules": {"short_ante": "pay_what_you_can", "kitty": True}}
    (folder / "a.json").write_text(json.dumps({"scenario": scenario}), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "SCENARIO_DIR", tmp_path)
    gaps = missing(registry.describe("michigan"))
    assert "auction=open" in gaps and "rounds=a number" in gaps
    assert "settlement=high_card" in gaps and "must_claim=true" in gaps
    for covered in ("short_ante=pay_what_you_can", "kitty=true", "starting_chips=a number"):
        assert covered not in gaps
