"""The scenario format's whole games, positions and views, beyond the golden files.

- a game started from a scenario's fixed cards (later deals, the cut, the settlement's
  cards, a position in the Rummoli phase; for Rummy a deck, later deals and the cut) keeps
  them in its record, and the record replays to the same game;
- a whole game's answer agrees with itself: a summary per round played, chips conserved,
  the standings sorted, the settlement's events;
- ``"views": true`` gives every seat exactly what the table would send it;
- a whole game without ``rounds`` stops after its last listed deal, and with ``rounds``
  plays on by the seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rummoli.games.registry import describe, replay
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.rummy import RummyState
from rummoli.games.rummy.setup import setup_from_dict as rummy_setup
from rummoli.games.stops.setup import setup_from_dict
from rummoli.scenario import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def golden(name: str) -> dict[str, Any]:
    data = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    scenario: dict[str, Any] = data["scenario"]
    return scenario


def play_out(state: Any) -> Any:
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def test_rummoli_fixed_cards_are_in_the_record_and_replay() -> None:
    setup = setup_from_dict(
        {
            "players": ["Ann", "Bob", "Cy"],
            "cut": ["5C", "KD", "KH", "2S", "3S"],
            "later_deals": [{}, {"deck": golden("41_deck_dealing_order.json")["deck"]}],
            "settlement": ["2C", "AS", "AH"],
        },
        100,
    )
    rules = Rules(rounds=3, settlement="high_card", poker="showdown")
    state = play_out(RummoliState(rules, setup, seed=4))
    record = state.record()
    assert record["setup"]["cut"][:3] == ["5C", "KD", "KH"]
    assert record["setup"]["later_deals"][0] == {}
    assert "deck" in record["setup"]["later_deals"][1]
    again = replay(json.loads(json.dumps(record)))
    assert again.record() == record and again.view(None) == state.view(None)
    assert state.dealer == 2 or state.round_no == 3  # Cy dealt round 1 (the cut's tie)


def test_rummoli_phase_position_is_in_the_record_and_replays() -> None:
    data = golden("62_rummoli_phase_duty_passes_with_fine.json")
    rules = Rules.from_dict(data["rules"])
    state = RummoliState(rules, setup_from_dict(data, rules.starting_chips), seed=0)
    state.apply(0)
    record = state.record()
    assert record["setup"]["laid"] == data["laid"]
    again = replay(json.loads(json.dumps(record)))
    assert again.view(None) == state.view(None)


def test_rummy_fixed_cards_are_in_the_record_and_replay() -> None:
    match = golden("rummy/54_whole_match_cut_rotation_target.json")
    data = {"players": ["Ann", "Bob"], "cut": match["cut"], **match["deals"][0]}
    data["later_deals"] = [match["deals"][1], {}]
    state = play_out(RummyState(RummyRules(target=25), rummy_setup(data), seed=2))
    record = state.record()
    assert record["setup"]["cut"] == ["5C", "KD"]
    assert record["setup"]["later_deals"][1] == {}
    again = replay(json.loads(json.dumps(record)))
    assert again.record() == record and again.scores == state.scores == [18, 28]


def test_whole_game_answer_agrees_with_itself() -> None:
    data = {
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "rules": {"rounds": 4, "poker": "betting"},
        "chips": [30, 30, 30, 30],
        "dealer": "Dee",
        "deals": [{}, {}],
        "views": True,
    }
    result = run_scenario(data)
    assert "error" not in result, result
    events = result["events"]
    rounds = [e for e in events if e["type"] == "round_over"]
    assert [d["round"] for d in result["deals"]] == [e["round"] for e in rounds]
    assert 2 <= len(rounds) <= 4  # the rules play 4 rounds, unless fewer can pay
    assert sum(result["chips"].values()) == 120 and not any(result["board"].values())
    chips = [s["chips"] for s in result["standings"]]
    assert chips == sorted(chips, reverse=True)
    assert events[-1]["type"] == "game_over"
    assert result["settlement"] == [e for e in events if e["type"] == "settled"]
    dealers = [d["dealer"] for d in result["deals"]]
    assert dealers[0] == "Dee" and dealers[1] != "Dee"


def test_without_rounds_the_table_stops_after_the_last_listed_deal() -> None:
    for deals, played in (([{}], 1), ([{}, {}, {}], 3)):
        result = run_scenario({"players": ["Ann", "Bob"], "deals": deals})
        assert len(result["deals"]) == played, result.get("error")
    # With rounds the seed deals the rest, and an early request_end wins.
    data = {"players": ["Ann", "Bob"], "rules": {"rounds": 3}, "deals": [{}]}
    assert len(run_scenario(data)["deals"]) == 3
    data["deals"] = [{"request_end": True}, {}]
    assert "deal 2 is listed, but the game ended after deal 1" in run_scenario(data)["error"]


def test_views_are_what_the_table_sends_each_seat() -> None:
    for name in ("66_views_what_each_seat_sees.json", "rummy/58_views_what_each_seat_sees.json"):
        data = golden(name)
        result = run_scenario(data)
        game = describe(data.get("game", "rummoli"))
        views = result["views"]
        names = data["players"]
        assert set(views) == {"spectator", "players"} and list(views["players"]) == names
        referee = result["events"]
        for seat, name_ in [(None, "spectator"), *enumerate(names)]:
            part = views["spectator"] if seat is None else views["players"][name_]
            assert part["view"]["seat"] == seat
            # Every event a seat saw is one of the referee's, in the same order.
            seen = iter(referee)
            assert all(any(e == r for r in seen) for e in part["events"])
        assert game.name in ("rummoli", "rummy")
        # Without views the answer is the same, minus the views.
        plain = run_scenario({k: v for k, v in data.items() if k != "views"})
        assert plain == {k: v for k, v in result.items() if k != "views"}
