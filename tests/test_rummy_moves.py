"""Basic Rummy's move generator lists a hand's discards as the rules' action numbers say."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rummoli.games.rummy import actions as act
from rummoli.games.rummy.actions import discard_mask


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_a_hands_discards_are_its_cards_discard_actions_in_order(cards: int) -> None:
    # The generator reads the DISCARD actions off the mask's set bits, lowest first: they
    # must be exactly the cards' own actions, ascending (the canonical order).
    mask = discard_mask(cards)
    listed = [act.DISCARD_BASE + i for i in range(mask.bit_length()) if mask >> i & 1]
    expected = sorted(act.discard_action(card) for card in range(52) if cards >> card & 1)
    assert listed == expected
    assert [act.discard_of(action) for action in listed] == sorted(
        (card for card in range(52) if cards >> card & 1), key=act.discard_action
    )
