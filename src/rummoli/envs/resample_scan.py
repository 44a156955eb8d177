"""A scan of ``resample_from_infostate``: many positions of many house-rule sets.

A researcher's check of the resampler on the settings they train with, and the project's
(``tests/envs/test_resample.py`` scans a few positions of every set, ``bench/
resample_scan.py`` ten thousand): random games are played, and at random decisions a
random seat's table is resampled (:meth:`rummoli.envs.table.Table.resample_from`); each
resampled table must give that seat exactly the same information state, tensor and legal
actions. Counted: where each resample came from (the game's sampler, the fallback's walk,
or the deal itself), how many changed the deal, and any resample that broke the rule.

The house-rule sets are read from the game's description, so a rule added there is
scanned too: the defaults, every other value of every rule one at a time, every table
size, the description's presets, and a whole game.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rummoli.engine.base import SetupError
from rummoli.engine.description import BOOL, CHOICE, CHOICE_OR_INT, INT, OPTIONAL_INT, HouseRule
from rummoli.envs.adapters import adapter_for
from rummoli.envs.table import Table


def _other_values(rule: HouseRule) -> list[Any]:
    """Values of ``rule`` other than its default, a few of each kind."""
    if rule.kind == BOOL:
        return [not rule.default]
    values: list[Any] = [c for c in rule.choices if c != rule.default]
    if rule.kind in (INT, CHOICE_OR_INT, OPTIONAL_INT):
        low = rule.minimum if rule.minimum is not None else 0
        high = rule.maximum if rule.maximum is not None else low + 100
        if rule.suggested:
            number = rule.suggested[0]
        elif isinstance(rule.default, int) and rule.default > 0:
            number = rule.default // 2  # a smaller game: fewer chips, a shorter match
        else:
            number = 3
        values.append(min(max(number, low), high))
    if rule.kind == CHOICE:
        return values
    return [v for v in values if v != rule.default]


def house_rule_sets(game: str) -> list[dict[str, Any]]:
    """The settings a scan covers for ``game`` (see the module's docstring)."""
    adapter = adapter_for(game)
    description = adapter.description()
    sets: list[dict[str, Any]] = [{}]
    for rule in description.house_rules:
        sets.extend({rule.name: value} for value in _other_values(rule))
    for players in range(description.min_players, description.max_players + 1):
        if players != description.default_players:
            sets.append({"players": players})
    sets.extend(dict(rules) for rules in description.presets.values() if rules)
    # A whole game: with the defaults, or with the first number rule that makes it finite.
    whole: list[dict[str, Any]] = [{"length": "game"}]
    whole += [
        {"length": "game", rule.name: 3} for rule in description.house_rules if rule.kind == INT
    ]
    for params in whole:
        try:
            adapter.config(params)
        except SetupError:
            continue
        sets.append(params)
        break
    unique: list[dict[str, Any]] = []
    for params in sets:
        try:
            adapter.config(params)
        except SetupError:
            continue  # a value this environment refuses (a test covers the message)
        if params not in unique:
            unique.append(params)
    return unique


@dataclass
class ScanResult:
    """What a scan found for one set of settings."""

    game: str
    params: Mapping[str, Any]
    positions: int = 0
    #: Resamples by where they came from: ``sampler``, ``walk``, ``same``.
    sources: Counter[str] = field(default_factory=Counter)
    #: Resamples whose deal differs from the real one.
    changed: int = 0
    #: Resamples that raised, or that the seat could tell from the real table.
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    slowest: float = 0.0


def _same_for(table: Table, other: Table, seat: int) -> str:
    """Why ``seat`` could tell ``other`` from ``table`` (empty: it cannot)."""
    if other.information_state_string(seat) != table.information_state_string(seat):
        return "information state string"
    if (
        other.information_state_tensor(seat).tobytes()
        != table.information_state_tensor(seat).tobytes()
    ):
        return "information state tensor"
    if other.current_player() != table.current_player():
        return "player to move"
    if table.current_player() == seat and other.legal_actions() != table.legal_actions():
        return "legal actions"
    return ""


def scan(game: str, params: Mapping[str, Any], positions: int, seed: int = 0) -> ScanResult:
    """Resample ``positions`` random positions of random games of ``game`` with ``params``
    (a random seat each, at about a fifth of the decisions)."""
    config = adapter_for(game).config(dict(params))
    rng = random.Random(seed)
    result = ScanResult(game, dict(params))
    start = time.perf_counter()
    while result.positions < positions:
        table = Table(config)
        while not table.is_terminal() and result.positions < positions:
            if table.is_chance():
                outcomes = table.chance_outcomes()
                table.apply(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if rng.random() < 0.2:
                seat = rng.randrange(table.num_players)
                result.positions += 1
                began = time.perf_counter()
                try:
                    other, source = table.resample_from(seat, random.Random(rng.getrandbits(64)))
                except Exception as error:  # counted and reported, not hidden
                    result.failures.append(f"{type(error).__name__}: {error}")
                    continue
                result.slowest = max(result.slowest, time.perf_counter() - began)
                result.sources[source] += 1
                result.changed += other.history != table.history
                why = _same_for(table, other, seat)
                if why:
                    result.failures.append(f"seat {seat} could tell by the {why}")
            legal = table.legal_actions()
            table.apply(legal[rng.randrange(len(legal))])
    result.seconds = time.perf_counter() - start
    return result
