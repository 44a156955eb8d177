"""Property tests over random games of the family's other games (Michigan, Tripoley):
whole games with random house rules drawn from each game's own declaration, random seats
and random legal actions.

Rummoli's own property tests (``test_properties.py``) check its rules event by event; the
rules of the other games are checked by their golden files (``tests/scenarios/<game>/``).
What is checked here holds for every game of the family, after every ``apply``:

- chips are conserved (players and board) and never negative; the 52 cards are in
  exactly one place each, and ``owner`` agrees with the hands, the spare hand and the
  laid cards;
- ``legal_actions()`` is sorted, distinct and non-empty until the game is over;
- no seat (nor a spectator) is sent an event naming a card it cannot see, and, at random
  moments, **the view test**: the cards a seat cannot see are shuffled among the places
  it cannot see, and its view and observation must not change;
- every game ends within a bound of steps with an empty board, and its record replays to
  the same state, its actions to the same events.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import assume, given, note, settings
from hypothesis import strategies as st

from conftest import check_card_places, check_seats_events, choose_action
from rummoli.engine.base import Event, SetupError
from rummoli.engine.description import BOOL, CHOICE, CHOICE_OR_INT, INT, HouseRule
from rummoli.games.registry import describe, replay
from test_properties import check_events_hide_cards, check_view_hidden

#: The games of the family besides Rummoli that the registry offers.
GAMES = ("michigan", "tripoley", "newmarket", "pope_joan", "poch", "nain_jaune")
#: Small stacks and few rounds, so that games end (players go out) in plain Python too.
CHIPS = st.integers(4, 30)
ROUNDS = st.integers(1, 4)
#: Tripoley seats nine (the shared test names stop at eight).
NAMES = [f"P{i}" for i in range(9)]
#: Bounds for the other numbers (fines), kept small as the chips are.
SMALL = 3


def value_strategy(rule: HouseRule) -> st.SearchStrategy[Any]:
    """Every value ``rule`` allows, small numbers first."""
    if rule.name == "starting_chips":
        return CHIPS
    if rule.name == "rounds":
        return ROUNDS
    low = rule.minimum if rule.minimum is not None else 0
    numbers = st.integers(low, max(low, min(rule.maximum or SMALL, low + SMALL)))
    if rule.kind == BOOL:
        return st.booleans()
    if rule.kind == CHOICE:
        return st.sampled_from(rule.choices)
    if rule.kind == CHOICE_OR_INT:
        return st.one_of(st.sampled_from(rule.choices), numbers)
    assert rule.kind == INT, f"no strategy for {rule.kind} rules ({rule.name})"
    return numbers


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    """A game, its number of players, house rules the game accepts, and a seed."""
    game = draw(st.sampled_from(GAMES))
    description = describe(game)
    n = draw(st.integers(description.min_players, description.max_players))
    rules = {rule.name: draw(value_strategy(rule)) for rule in description.house_rules}
    try:
        description.rules(rules)
    except SetupError:  # values the game refuses together (a fine with no kitty)
        assume(False)
    return game, n, rules, draw(st.integers(0, 2**32))


def step_bound(total_chips: int, n: int, rounds: int) -> int:
    """An upper bound of a whole game's decisions: per round a chance step, the spare
    hand's decision and auction, a betting round whose every raise puts in a chip, and
    52 cards; the settlement, a betting round per space."""
    per_round = 2 + n * (total_chips + 2) + n * (total_chips + 3) + 52
    return (rounds + 1) * per_round + 12 * n * (total_chips + 3)


@settings(max_examples=300, deadline=None)
@given(table=tables())
def test_random_games_of_the_family_keep_every_invariant(
    table: tuple[str, int, dict[str, Any], int],
) -> None:
    game, n, rules, seed = table
    note(f"game={game} players={n} rules={rules} seed={seed}")
    description = describe(game)
    state = description.new_game(NAMES[:n], description.rules(rules), seed)
    rng = random.Random(seed)
    start = sum(state.chips) + sum(state.board)
    bound = step_bound(start, n, rules["rounds"])
    all_events: list[Event] = []
    steps = 0
    while not state.is_terminal():
        assert steps < bound, f"the game did not end within {bound} steps"
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        if rng.random() < 0.2:
            check_view_hidden(state, rng)
        events = state.apply(choose_action(state, rng))
        steps += 1
        all_events.extend(events)
        assert sum(state.chips) + sum(state.board) == start
        assert min(state.chips) >= 0 and min(state.board) >= 0
        check_card_places(state)
        check_events_hide_cards(state, events)
    assert state.legal_actions() == []
    assert sum(state.board) == 0, "board chips left after the settlement"
    assert all_events[-1][0] == "game_over"

    record = state.record()
    assert record["game"] == game
    again = replay(json.dumps(record))
    assert again.record() == record and again.chips == state.chips
    for seat in [*range(n), None]:
        assert again.view(seat) == state.view(seat)
    fresh = description.new_game(NAMES[:n], description.rules(rules), seed)
    replayed: list[Event] = []
    for action in record["actions"]:
        replayed.extend(fresh.apply(action))
    assert replayed == all_events
    check_seats_events(game, all_events, NAMES[:n])
