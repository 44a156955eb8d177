"""No observation or information state holds a card its player may not see.

Tested the way the engine's views are: at many decisions of random games, change every
card the seat cannot see (the other hands, the widow, the stock: each place keeps its
count) and every private event of the other seats in the table's log, and the seat's
observation and information state, as strings and as tensors, must stay the same.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import (
    SETTINGS,
    decision_points,
    hidden_from,
    permute_hidden,
    some_decisions,
    table_for,
)

from rummoli.envs.table import Table

CASES = [(game, i) for game, settings in SETTINGS.items() for i in range(len(settings))]


def _same_for(table: Table, other: Table, seat: int) -> None:
    assert other.observation_string(seat) == table.observation_string(seat)
    assert other.information_state_string(seat) == table.information_state_string(seat)
    np.testing.assert_array_equal(other.observation_tensor(seat), table.observation_tensor(seat))
    np.testing.assert_array_equal(
        other.information_state_tensor(seat), table.information_state_tensor(seat)
    )


def _cards(table: Table) -> tuple[object, ...]:
    """Where every card is: the hands, and the widow or the stock."""
    engine = table.engine
    return (engine.hands, getattr(engine, "widow", None), getattr(engine, "stock", None))


@pytest.mark.parametrize(("game", "index"), CASES)
def test_changing_every_hidden_card_changes_nothing_a_seat_sees(game: str, index: int) -> None:
    rng = random.Random(index)
    moved = 0
    for table in some_decisions(game, SETTINGS[game][index], rng, 20):
        for seat in range(table.num_players):
            other = permute_hidden(table, seat, rng)
            _same_for(table, other, seat)
            moved += _cards(other) != _cards(table)
    assert moved, "no hidden card was ever moved: the test tested nothing"


def test_the_check_would_catch_a_leak() -> None:
    """The permuted copy does change what another seat holds, and a tensor that showed
    another seat's hand would differ: the test above can fail."""
    rng = random.Random(1)
    table = decision_points(table_for("rummoli"), rng, every=1.0)[0]
    other = permute_hidden(table, 0, rng)
    assert hidden_from(table, 0)
    assert other.observation_tensor(1).tolist() != table.observation_tensor(1).tolist()
