"""The pieces both games share since the de-duplication: each checked on its own here
(both games' tests check them in use: scenarios, simulations, tables)."""

from __future__ import annotations

import pytest

from rummoli.engine.base import SetupError
from rummoli.engine.fields import draws_from, player_names, seat_from, whole
from rummoli.games.registry import describe
from rummoli.games.rummoli.rules import Rules as RummoliRules
from rummoli.games.rummy.description import STATE as RUMMY_STATE
from rummoli.games.stops.describe import state_adapter
from rummoli.sim.generic import GenericStats
from rummoli.sim.report import figures_table, interval
from rummoli.sim.rummy.stats import RummyStats
from rummoli.sim.stats import PlayerTally

#: The family's adapter, as Rummoli's description makes it.
RUMMOLI_STATE = state_adapter(RummoliRules.from_dict)


def test_a_new_tally_has_one_accumulator_a_bot_level_seat_and_position() -> None:
    tally = PlayerTally(3, ("basic", "random"))
    assert (len(tally.bots), len(tally.by_level), len(tally.by_seat)) == (3, 2, 3)
    assert len(tally.by_position) == 3
    assert tally.bots[0] is not tally.bots[1]


def test_a_games_statistics_merge_the_shared_tally_and_their_own() -> None:
    mine, theirs = RummyStats.empty(2, ("basic",)), RummyStats.empty(2, ("basic",))
    theirs.chunks, theirs.rounds = 1, 5
    theirs.bots[1].add(7)
    theirs.by_level[0].add(7)
    theirs.won[1] = 1
    theirs.per_chunk[3] = (5, (0, 7))
    mine.merge(theirs)
    assert (mine.chunks, mine.rounds, mine.won) == (1, 5, [0, 1])
    assert (mine.bots[1].total, mine.by_level[0].n, mine.per_chunk) == (7, 1, {3: (5, (0, 7))})


def test_tallies_of_other_tables_do_not_merge() -> None:
    with pytest.raises(ValueError, match="different tables"):
        GenericStats.empty(2).merge(GenericStats.empty(3))


def test_intervals_and_tables_as_the_reports_write_them() -> None:
    assert interval(None) == "-"
    assert interval([1.234, 5.0]) == "[1.23, 5.00]"
    assert interval([-1.0, 2.0], 3, sign=True) == "[-1.000, +2.000]"
    table = figures_table("T", ("seat", "x", "where", "y"), [("0", "1", "a", "2")], left=(0, 2))
    assert [c.justify for c in table.columns] == ["left", "right", "left", "right"]
    assert table.row_count == 1


def test_the_state_adapter_reads_each_games_attributes() -> None:
    rummoli = describe("rummoli").new_game(["A", "B", "C"], None, 4)
    rummy = describe("rummy").new_game(["A", "B"], None, 4)
    assert RUMMOLI_STATE.final_amounts(rummoli) == [100, 100, 100]
    assert RUMMY_STATE.final_amounts(rummy) == [0, 0]
    assert not RUMMY_STATE.between_rounds(rummy)
    with pytest.raises(AssertionError, match="RummyState"):
        RUMMOLI_STATE.round_number(rummy)


def test_a_stored_game_is_rebuilt_from_its_rules_and_setup() -> None:
    description = describe("rummoli")
    state = description.new_game(["A", "B"], description.rules({"starting_chips": 30}), 2)
    record = state.record()
    again = RUMMOLI_STATE.stored_game(record["rules"], record["setup"], 2)
    assert again.view(None) == state.view(None)


def test_setup_fields_are_refused_with_the_games_words() -> None:
    with pytest.raises(SetupError, match="Basic Rummy needs 2 to 4 players, not 1"):
        player_names(["A"], "Basic Rummy", 2, 4)
    with pytest.raises(SetupError, match="two players have the same name"):
        player_names(["A", " A"], "Rummoli", 2, 8)
    assert seat_from("B", ("A", "B"), "dealer") == 1
    with pytest.raises(SetupError, match="dealer 2 is not a seat"):
        seat_from(2, ("A", "B"), "dealer")
    with pytest.raises(SetupError, match="chips must be a whole number"):
        whole(True, "chips")
    assert len(draws_from(["AS", "AS"], "cut")) == 2
    with pytest.raises(SetupError, match="cut: "):
        draws_from(["ZZ"], "cut")
