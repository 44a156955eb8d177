"""A seat's own poker hand is named in its view while it still has to play it (widow,
auction, betting), from its own cards only; never for a spectator, never afterwards."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from rummoli.cards import cards_of
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.poker import best_five, category_name, hand_key

AHEAD = ("widow", "auction", "betting")


@given(seed=st.integers(0, 5_000), seats=st.integers(2, 8))
def test_the_poker_hand_is_named_while_it_is_to_be_played(seed: int, seats: int) -> None:
    state = RummoliState.new_game([f"P{i}" for i in range(seats)], Rules(rounds=1), seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert "poker_hand" not in state.view(None)
        for seat in range(seats):
            view = state.view(seat)
            if view["phase"] in AHEAD and view["hand"]:
                mask = sum(1 << c for c in cards_of(state.hands[seat]))
                assert view["poker_hand"]["name"] == category_name(hand_key(mask))
                assert len(view["poker_hand"]["cards"]) == 5
                assert set(view["poker_hand"]["cards"]) <= set(view["hand"])
                assert len(best_five(mask)) == 5
            else:
                assert "poker_hand" not in view
        state.apply(rng.choice(state.legal_actions()))
