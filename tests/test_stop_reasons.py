"""Every stop of a run says why, and the reason is the truth of the position: an ace
(nothing follows it), the next card laid before, or the next card in the widow."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from rummoli.cards import card_str
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.stops.runs import STOP_REASONS
from rummoli.games.stops.state import IN_WIDOW, LAID
from rummoli.games.stops.view import event_to_json
from rummoli.tui.stops.narrate import Narrator

ACE = 12


@given(seed=st.integers(0, 10_000), seats=st.integers(2, 8))
def test_each_stop_reason_matches_where_the_next_card_is(seed: int, seats: int) -> None:
    state = RummoliState.new_game([f"P{i}" for i in range(seats)], Rules(rounds=2), seed)
    rng = random.Random(seed)
    seen = set()
    while not state.is_terminal():
        for event in state.apply(rng.choice(state.legal_actions())):
            if event[0] != "stop":
                continue
            _, card, reason = event
            assert reason in STOP_REASONS
            seen.add(reason)
            if card % 13 == ACE:
                assert reason == "ace"
            else:
                where = state.owner[card + 1]
                assert where in (LAID, IN_WIDOW), "a stop while somebody holds the next card"
                assert reason == ("laid" if where == LAID else "widow")


def test_the_reason_reaches_json_and_the_terminal() -> None:
    event = event_to_json(("stop", 11, "widow"), ["Ann", "Bob"])
    assert event == {"type": "stop", "card": card_str(11), "reason": "widow"}
    narrator = Narrator("Ann")
    narrator.feed(event_to_json(("lay", 0, 11), ["Ann", "Bob"]))
    narrator.feed(event)
    assert "stop: the next card is in the widow" in narrator.take()[-1].plain
