"""A run's step patches made the Stops family's way (``web/stops/steps.py``: the
spectator's view once, from the final one, its patch once, each seat's own keys apart)
are the patches of the plain way (every seat's whole view of the step, diffed against
its frame view: ``runs.step_patches``), key for key and in the same order, over random
games of every game of the family with random house rules, seats in any order, a
spectator or not, frame views made together or each apart, and frame views that are not
the final state's (then the seat's patch is the plain diff, still against that view).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

from conftest import choose_action
from rummoli.engine.base import SetupError
from rummoli.games.registry import describe
from rummoli.web import runs
from rummoli.web.games import seat_view, seat_views
from rummoli.web.patch import apply, dict_parts, diff, joined
from rummoli.web.runs import run_parts
from rummoli.web.stops import steps
from rummoli.web.stops.steps import StepPatches
from test_family_properties import value_strategy

GAMES = ("rummoli", "michigan", "tripoley", "newmarket", "pope_joan", "poch", "nain_jaune")
NAMES = [f"P{i}" for i in range(9)]
#: Enough runs of a game to see a round end inside one, and few enough for plain Python.
RUNS = 12
ACTIONS = 600


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    """A game of the family, its number of players, house rules it accepts, a seed."""
    game = draw(st.sampled_from(GAMES))
    description = describe(game)
    n = draw(st.integers(description.min_players, min(description.max_players, 6)))
    rules = {rule.name: draw(value_strategy(rule)) for rule in description.house_rules}
    try:
        description.rules(rules)
    except SetupError:
        assume(False)
    return game, n, rules, draw(st.integers(0, 2**32))


def _text(patches: list[dict[str, Any]]) -> str:
    """Patches as the frames write them (JSON keeps the keys' order)."""
    return json.dumps(patches)


def _finals(
    game: str, final: Any, seats: list[int | None], apart: bool, rng: random.Random
) -> list[dict[str, Any]]:
    """Each seat's frame view of ``final``: made together (sharing what the table sees
    alike) or each apart, with a forced action now and then (a choice of one)."""
    only: list[int | None] = []
    for seat in seats:
        legal = final.legal_actions() if seat is not None and final.current_player() == seat else []
        only.append(legal[0] if legal and rng.random() < 0.3 else None)
    if apart:
        return [
            seat_view(game, final, seat, forced) for seat, forced in zip(seats, only, strict=True)
        ]
    return seat_views(game, final, seats, only)


def _check_runs(
    table: tuple[str, int, dict[str, Any], int], spectator: bool, apart: bool, off: str
) -> int:
    """Plays a random game and checks every step of its first runs; how many were."""
    game, n, rules, seed = table
    description = describe(game)
    state = description.new_game(NAMES[:n], description.rules(rules), seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(ACTIONS):
        if state.is_terminal() or checked >= RUNS:
            break
        action = choose_action(state, rng)
        before = state.clone()
        events = state.apply(action)
        parts = run_parts(game, before, action, events)
        if parts is None:
            continue
        seats: list[int | None] = [*range(n), *([None] if spectator else [])]
        rng.shuffle(seats)
        finals = _finals(game, parts.final, seats, apart, rng)
        if off:
            # A frame view that is not the final state's (a key the table sees alike, or
            # the widow): that seat's patch is still the one against its own frame view.
            wrong = dict(finals[0])
            if off == "widow":
                wrong["widow"] = {**wrong["widow"], "known": ["AS"]}
            else:
                wrong[off] = wrong[off] + 1
            finals[0] = wrong
        patcher = StepPatches(parts.final, seats, finals)
        last = len(parts) - 1
        for index, (_, step) in enumerate(parts.walk()):
            if index == last:
                break
            fast = patcher(step)
            plain = runs.step_patches(game, step, seats, finals)
            assert _text(fast) == _text(plain), f"run {checked}, step {index}"
            views = seat_views(game, step, seats, choices=False)
            for final, patch, view in zip(finals, fast, views, strict=True):
                view["to_move"] = None
                assert apply(final, patch) == view
        checked += 1
    return checked


@settings(max_examples=150, deadline=None)
@given(
    table=tables(),
    spectator=st.booleans(),
    apart=st.booleans(),
    off=st.sampled_from(["", "", "round", "widow"]),
)
def test_the_family_step_patches_are_those_of_diffing_every_seats_whole_views(
    table: tuple[str, int, dict[str, Any], int], spectator: bool, apart: bool, off: str
) -> None:
    note(f"table={table} spectator={spectator} apart={apart} off={off}")
    _check_runs(table, spectator, apart, off)


KEYS = st.sampled_from(["a", "b", "c", "d"])
OTHER_KEYS = st.sampled_from(["w", "x", "y", "z"])
VALUES = st.one_of(
    st.integers(0, 2),
    st.lists(st.integers(0, 2), max_size=3),
    st.dictionaries(st.sampled_from(["k", "l"]), st.integers(0, 2), max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(
    first=st.tuples(st.dictionaries(KEYS, VALUES), st.dictionaries(KEYS, VALUES)),
    then=st.tuples(st.dictionaries(OTHER_KEYS, VALUES), st.dictionaries(OTHER_KEYS, VALUES)),
)
def test_a_patch_joined_from_two_groups_of_keys_is_the_whole_dicts_patch(
    first: tuple[dict[str, Any], dict[str, Any]], then: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    """``patch.joined`` of the parts of the keys that come first in both dicts and of
    those after them is the patch of the whole dicts, key for key, in its order."""
    whole = diff({**first[0], **then[0]}, {**first[1], **then[1]})
    made = joined(dict_parts(*first), dict_parts(*then))
    assert json.dumps(made) == json.dumps(whole)


@pytest.mark.parametrize("game", GAMES)
def test_the_family_step_patches_are_made_from_the_parts(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cheap way is the one taken (the plain diff inside it is never called) for
    frame views made as the table makes them, widow takers and round ends included."""
    description = describe(game)
    defaults = {rule.name: rule.default for rule in description.house_rules}

    def refused(*args: object) -> None:
        raise AssertionError("a seat's patch was made by diffing its whole views")

    monkeypatch.setattr(steps, "diff_shared", refused)
    n = min(4, description.max_players)
    runs_seen = sum(
        _check_runs((game, n, defaults, seed), spectator=True, apart=False, off="")
        for seed in (3, 4)
    )
    assert runs_seen > 0
