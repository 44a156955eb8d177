"""A Rummoli action played again card by card (``rummoli.games.stops.steps``): the
steps a table shows during a run, each with the engine's own state.

Over random whole games of every house rule, for every action: the steps' events, one
after the other, are the action's events; after the last step the copy is where the game
is (every seat's view, who is to move, the legal actions); every step but the first
starts with the laid card it paused before, laid by the seat it said was to lay it; and
every step's state keeps the chips and the cards (what a page shows mid-run is a real
position of the game, not the end of the round with some cards taken back).
"""

from __future__ import annotations

import random

from hypothesis import event, given, settings

from conftest import choose_action
from rummoli.games.stops import actions as act
from rummoli.games.stops.steps import card_by_card
from test_properties import Game, games


def _check_action(before_state: object, action: int, real_events: list[object], game: Game) -> int:
    from rummoli.games.stops.state import RummoliState

    assert isinstance(before_state, RummoliState)
    before = before_state
    real = before.clone()
    assert real.apply(action) == real_events
    total = before.total_chips()
    steps = 0
    seen: list[object] = []
    expected_lay: tuple[int, int] | None = None
    last = None
    for events, state in card_by_card(before, action):
        if expected_lay is not None:
            seat, option = expected_lay
            assert events[0] == ("lay", seat, act.lay_card(option)), events[:1]
        seen.extend(events)
        assert state.total_chips() == total
        assert state.cards_conserved()
        if state.paused:
            assert len(state.options) == 1 and act.is_lay(state.options[0])
            expected_lay = (state.to_move, state.options[0])
        steps += 1
        last = state
    assert seen == real_events
    assert last is not None and not last.paused
    for seat in [None, *range(game.n)]:
        assert last.view(seat) == real.view(seat)
    assert (last.to_move, last.options) == (real.to_move, real.options)
    # One step, and one more before each card the rules laid after the action's first event.
    assert steps == 1 + sum(1 for e in real_events[1:] if e[0] == "lay")
    return steps


@settings(max_examples=300, deadline=None)
@given(game=games())
def test_an_action_card_by_card_is_the_action_step_after_step(game: Game) -> None:
    state = game.state()
    rng = random.Random(game.policy_seed)
    longest = 0
    while not state.is_terminal():
        if game.end_at is not None and len(state.actions) == game.end_at:
            state.request_end()
        action = choose_action(state, rng)
        before = state.clone()
        events = state.apply(action)
        longest = max(longest, _check_action(before, action, events, game))
    event(f"longest run shown: {min(longest, 20) // 5 * 5}+ steps")
