"""A seat's legal actions as frames offer them (``web/choices.py``): the ranges made by
blocks of action numbers (what the Stops family's frames use) are exactly the ranges
made action by action, for any set of actions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummoli.web.choices import action_for, offered, offered_blocks

#: Bids from 100, raises from 300, discrete actions around them (a pass, a fold, stakes).
BLOCKS = ((100, 300, "bid"), (300, 500, "raise"))


def _text(action: int) -> str:
    return f"a{action}"


def _amount(action: int) -> tuple[str, int] | None:
    if 100 <= action < 300:
        return "bid", action - 100
    if 300 <= action < 500:
        return "raise", action - 300
    return None


def _evenly(start: int, end: int) -> st.SearchStrategy[list[int]]:
    """Actions of a block as a game offers them: an even run from some amount."""
    return st.tuples(st.integers(start, end - 1), st.integers(1, 7), st.integers(1, 60)).map(
        lambda t: [a for a in range(t[0], t[0] + t[1] * t[2], t[1]) if a < end]
    )


ACTIONS = st.lists(
    st.one_of(
        st.integers(0, 99),
        st.integers(100, 299),
        st.integers(300, 499),
        st.integers(500, 600),
    ),
    max_size=40,
)


@settings(max_examples=400)
@given(
    loose=ACTIONS,
    bids=st.one_of(st.just([]), _evenly(100, 300)),
    raises=st.one_of(st.just([]), _evenly(300, 500)),
    order=st.sampled_from(["the engine's", "sorted with repeats", "as drawn"]),
)
def test_blocks_give_the_ranges_made_action_by_action(
    loose: list[int], bids: list[int], raises: list[int], order: str
) -> None:
    drawn = loose + bids + raises
    ordered = order == "the engine's"  # sorted, each action once
    actions = sorted(set(drawn)) if ordered else sorted(drawn) if order != "as drawn" else drawn
    items = offered_blocks(actions, BLOCKS, _text)
    assert items == offered(actions, _amount, _text)
    # Every action is offered once, and only those: a range covers its own amounts.
    covered = []
    for item in items:
        if "kind" in item:
            amounts = range(item["min"], item["max"] + 1, item["step"])
            covered.extend(action_for(item, n) for n in amounts)
        else:
            covered.append(item["action"])
    assert covered == actions or not ordered


def test_an_even_block_is_one_range() -> None:
    actions = [3, *range(105, 205, 5), 301, 302, 303, 600]
    assert offered_blocks(actions, BLOCKS, _text) == [
        {"action": 3, "text": "a3"},
        {"kind": "bid", "text": "bid", "min": 5, "max": 100, "step": 5, "action": 105},
        {"kind": "raise", "text": "raise", "min": 1, "max": 3, "step": 1, "action": 301},
        {"action": 600, "text": "a600"},
    ]
