"""The seeds' other readings as house rules, and the rules version a record carries.

- ``settlement_betting`` ("a round of poker dealt and played"): each seat sees its own
  five cards only; a pot for each space under ``poker_per_pot``, the smallest first; a
  player with no chips is all-in and wins only what he matched; computer players bet;
- ``auction="open"`` ("any player except the dealer may bid at any time") and
  ``auction_optional`` (the dealer "can" auction): the bots play them;
- rules versions: a record (or a stored table) without one replays under version 1, the
  rules before it, where they differ (a fixed limit's raise over a short all-in, the
  Rummy stall ending); a new table plays the current version.

Golden files 68-71 and 47d-47k, 50b-50c, 53-53c play the same rules by hand-worked cases.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from conftest import players
from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import SetupError
from rummoli.games import registry
from rummoli.games.rummoli import Rules, RummoliState, replay
from rummoli.games.rummoli.rules import RULES_VERSION
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.rummy import replay as rummy_replay
from rummoli.games.rummy.rules import RULES_VERSION as RUMMY_RULES_VERSION
from rummoli.games.stops import actions as act
from rummoli.games.stops.setup import setup_from_dict
from rummoli.games.stops.state import SETTLE
from rummoli.games.stops.view import events_for
from rummoli.scenario import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def to_settlement(state: RummoliState, rng: random.Random) -> bool:
    """Play ``state`` (at random, the table asking to stop in the first round) until its
    settlement's betting; False if the game ended without one."""
    while not state.is_terminal():
        if state.phase == SETTLE:
            return True
        state.apply(rng.choice(state.legal_actions()))
        if state.round_no:
            state.request_end()
    return False


def settlement_game(seed: int, n: int = 3, **rules: Any) -> RummoliState:
    return RummoliState.new_game(players(n), Rules(settlement_betting=True, **rules), seed)


# --------------------------------------------------------------------------- settlement


@pytest.mark.parametrize("seed", range(12))
def test_settlement_hands_are_private(seed: int) -> None:
    """Each seat's view and observation show its own five settlement cards and nothing
    of the others' until they are shown: changing another seat's cards changes nothing."""
    for attempt in range(seed * 20, seed * 20 + 20):  # a game that reaches the settlement
        state = settlement_game(attempt, n=2 + seed % 4)
        if to_settlement(state, random.Random(attempt)):
            break
    else:
        raise AssertionError("no game reached the settlement's betting")
    hands = state.settle_hands
    for seat in [None, *range(len(state.names))]:
        other = state.clone()
        for s in range(len(state.names)):
            if s != seat and hands[s]:
                # One of its cards for one it lacks: the same count, other cards.
                absent = next(c for c in range(52) if not hands[s] >> c & 1)
                other.settle_hands[s] = hands[s] ^ (hands[s] & -hands[s]) ^ (1 << absent)
        assert other.view(seat) == state.view(seat)
        if seat is not None and hands[seat]:
            assert state.observation(seat).hand == hands[seat]
            assert len(state.view(seat)["hand"]) == 5
    # The deal's events: each seat sees only its own five cards.
    dealt = [("settle_dealt", s, hands[s]) for s in state.in_round]
    for seat in range(len(state.names)):
        seen = [e for e in events_for(dealt, seat, state.names) if e["type"] == "settle_dealt"]
        assert [e["player"] for e in seen] == ([state.names[seat]] if hands[seat] else [])
    assert events_for(dealt, None, state.names) == []


def test_settlement_per_pot_with_betting_smallest_space_first() -> None:
    """poker_per_pot with betting: a deal and a betting round for each space holding
    chips, the fewest first (ties in board order); the board ends empty."""
    rules = Rules(settlement="poker_per_pot", settlement_betting=True, rounds=1, widow="none")
    setup = setup_from_dict({"players": players(3), "dealer": 0, "board": {"KH": 5, "789": 2}}, 100)
    state = RummoliState(rules, setup, seed=4)
    events = []
    rng = random.Random(1)
    start = state.total_chips()
    while not state.is_terminal():
        events += state.apply(rng.choice(state.legal_actions()))
        assert state.total_chips() == start
    spaces = [e[1] for e in events if e[0] == "settled"]
    sizes = [(sum(e[2] for e in events if e[0] == "settled" and e[1] == sp), sp) for sp in spaces]
    order = list(dict.fromkeys(spaces))
    assert len(order) >= 2
    dealt = [i for i, e in enumerate(events) if e[0] == "settle_dealt"]
    assert len(dealt) == 3 * len(order)  # five cards for each of three players, each pot
    assert sum(state.board) == 0 and events[-1][0] == "game_over"
    assert sizes  # every pot was settled by a settled event


def test_a_player_without_chips_is_all_in_at_the_settlement() -> None:
    """Bob has no chips (the table stopped before the first round, so he is not out):
    all-in from the start, he never acts and can win only the pot itself; the bets of Ann
    and Cy make a side pot only they can win."""
    rules = Rules(settlement_betting=True, widow="none")
    data = {"players": players(3), "chips": [50, 0, 50], "dealer": 2, "board": {"poker": 12}}
    # Five cards each from the dealer's left: Ann 7 high, Bob four aces, Cy three kings.
    five = ["2C", "3D", "4H", "5S", "7C", "AS", "AD", "AC", "AH", "KS", "KC", "KD", "KH"]
    setup = setup_from_dict(data | {"settlement": [*five, "QS", "QC"]}, 100)
    state = RummoliState(rules, setup, seed=0)
    state.request_end()
    state.apply(0)  # the game ends before the first round: the settlement
    assert state.phase == SETTLE
    assert state.current_player() == 0  # Ann, left of the dealer
    events = state.apply(state.codec.raise_to(10))  # Ann bets 10
    assert state.current_player() == 2  # Bob, with no chips, does not act
    events += state.apply(act.CALL)  # Cy calls 10
    assert [e[1] for e in events if e[0] == "settle_hand"] == [0, 1, 2]
    settled = [e for e in events if e[0] == "settled"]
    # Main pot: the 12 on the board, for all three: Bob's four aces; side pot 2 x 10 for
    # Ann and Cy: Cy's three kings.
    assert settled == [("settled", "all", 12, (1,)), ("settled", "all", 20, (2,))]
    assert state.chips == [40, 12, 60]


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_computer_players_play_every_new_house_rule(level: str) -> None:
    """A whole game with the new readings on, every seat a computer player of ``level``."""
    rules = Rules(
        rounds=2,
        settlement_betting=True,
        auction="open",
        auction_optional=True,
        bet_limit=5,
        heads_up_raises="unlimited",
        starting_chips=40,
    )
    phases = set()
    for seed in range(3):
        state = RummoliState.new_game(players(3), rules, seed)
        bots = [make_bot(level, seed=seed + s) for s in range(3)]
        while not state.is_terminal():
            seat = state.current_player()
            phases.add(state.phase)
            action = 0 if seat < 0 else ask_bot(bots[seat], state, seat).action
            state.apply(action)
        assert sum(state.board) == 0
        assert replay(state.record()).chips == state.chips
    assert SETTLE in phases  # the bots bet at the settlement


# --------------------------------------------------------------------------- versions


def test_a_new_table_plays_the_current_rules_version() -> None:
    assert Rules().rules_version == RULES_VERSION == 2
    assert RummyRules().rules_version == RUMMY_RULES_VERSION == 2
    assert Rules.from_dict({}).rules_version == RULES_VERSION
    description = registry.describe("rummoli")
    assert description.rules({}).rules_version == RULES_VERSION
    state = description.new_game(players(2), Rules(), 0)
    assert state.record()["rules"]["rules_version"] == RULES_VERSION
    assert "rules_version" not in Rules(rules_version=1).changed()


def test_a_stored_game_without_a_version_plays_version_1() -> None:
    """What a record or a stored table holds without ``rules_version`` was played under
    version 1; with it, under its version."""
    description = registry.describe("rummoli")
    setup = {"players": players(2), "chips": [100, 100]}
    old = description.stored_game({"bet_limit": 10}, setup, 0)
    assert isinstance(old, RummoliState) and old.rules.rules_version == 1
    new = description.stored_game({"bet_limit": 10, "rules_version": 2}, setup, 0)
    assert isinstance(new, RummoliState) and new.rules.rules_version == 2
    with pytest.raises(SetupError, match="rules_version"):
        description.stored_game({"rules_version": 3}, setup, 0)


def _fixed_limit_game(version: int) -> RummoliState:
    """The position of golden file 47d: limit 10, Ann has 4 chips after the ante."""
    golden = json.loads(
        (SCENARIOS / "47d_fixed_limit_opening_all_in_is_completed.json").read_text()
    )
    scenario = golden["scenario"]
    rules = Rules(bet_limit=10, rules_version=version)
    state = RummoliState(rules, setup_from_dict(scenario, 100), seed=0)
    state.apply(0)  # the deal
    return state


def test_an_old_record_replays_under_the_old_rules() -> None:
    """Version 1 let Bob raise to 14 over Ann's opening all-in of 4 (a bet over the high
    bet); version 2 does not (he completes to 10). A record of that game made before
    records carried their version replays, under version 1; told it is version 2, the
    same actions are refused, naming the action."""
    state = _fixed_limit_game(1)
    for text in ("keep", "pass", "pass", "raise 4", "raise 14", "call"):
        state.apply(state.action_from_text(text))
    record = state.record()
    assert record["rules"]["rules_version"] == 1
    old = copy.deepcopy(record)
    del old["rules"]["rules_version"]  # as a record of the old engine was written
    assert replay(old).chips == state.chips
    assert replay(json.dumps(old)).record() == record
    current = copy.deepcopy(record)
    current["rules"]["rules_version"] = 2
    with pytest.raises(SetupError, match="action 5 of the record: raise 14 is not legal"):
        replay(current)
    assert "raise 10" in [
        _fixed_limit_game(2).action_to_text(a) for a in _advanced(_fixed_limit_game(2))
    ]


def _advanced(state: RummoliState) -> list[int]:
    for text in ("keep", "pass", "pass", "raise 4"):
        state.apply(state.action_from_text(text))
    return state.legal_actions()


def test_an_old_rummy_record_replays_with_the_stall_rule() -> None:
    """Rummy's version 1 ended a hand after 40 idle turns; its records, without a
    version, replay so, and the same actions under version 2 stop being legal where the
    stock had to be drawn instead."""
    golden = json.loads(
        (SCENARIOS / "rummy" / "53c_rules_version_1_stall_rule_was_the_default.json").read_text()
    )
    played = run_scenario(golden["scenario"])
    assert played["stalemate"]
    description = registry.describe("rummy")
    data = golden["scenario"]
    state = description.stored_game(
        {"rules_version": 1}, {k: v for k, v in data.items() if k != "rules"}, 0
    )
    for choice in data["choices"]:
        if state.current_player() < 0:
            state.apply(0)
        state.apply(state.action_from_text(choice))
    record = state.record()
    old = copy.deepcopy(record)
    del old["rules"]["rules_version"]
    again = rummy_replay(old)
    assert again.stalemate == "stalled" and again.rules.stall_rule is False
    assert again.rules.stalls()
