"""Basic Rummy: golden scenarios (``tests/scenarios/rummy/``), melds, actions, the engine API,
records, views and the ``rummoli scenario`` command for ``"game": "rummy"``.

Each golden file was worked out by hand from the rules (the reasoning is in its
``description``), never copied from the engine's output. The file format is the one of
``tests/test_scenarios.py`` (``description``, ``scenario``, ``expect``,
``expect_events_contain``, ``expect_no_events``, ``expect_error_contains``); ``expect``
compares whole output fields: ``winner``, ``stalemate``, ``going_rummy``, ``points``,
``scores``, ``match_winner``, ``melds``. ``tests/test_scenarios.py`` globs only the files
directly in ``tests/scenarios/``, so the Rummy files are run here.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import card_mask, rummy_position, state_snapshot
from rummoli.cards import FULL_DECK, card_str, cards_of, parse_card
from rummoli.cli import app
from rummoli.engine.base import CHANCE, TERMINAL, IllegalActionError, SetupError
from rummoli.games import registry
from rummoli.games.rummy import Rules, RummyState, replay, setup_from_dict
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import (
    CATALOGUE,
    MELD_INDEX,
    NUM_MELDS,
    can_form_meld,
    card_points,
    fit_mask,
    hand_points,
    is_meld,
    low_rank,
    meld_cards,
    melds_in,
)
from rummoli.games.rummy.state import DRAW, PLAY, nobody_can_go_out
from rummoli.games.rummy.view import events_for, visible_events
from rummoli.scenario import run_scenario
from test_scenarios import FILE_KEYS, check_events, check_views

SCENARIO_DIR = Path(__file__).parent / "scenarios" / "rummy"
GOLDEN = sorted(SCENARIO_DIR.glob("*.json"))
EXPECT_KEYS = {"winner", "stalemate", "going_rummy", "points", "scores", "match_winner", "melds"}
#: A whole match (``deals``) answers every hand's result and the standings.
MATCH_KEYS = {"deals", "scores", "match_winner", "standings"}


def load(name: str) -> dict[str, Any]:
    data = json.loads((SCENARIO_DIR / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------- golden files


def test_there_are_golden_files() -> None:
    assert len(GOLDEN) >= 30


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert set(golden) <= FILE_KEYS, f"unknown keys {set(golden) - FILE_KEYS}"
    assert isinstance(golden.get("description"), str) and golden["description"]
    assert golden["scenario"].get("game") == "rummy"
    result = run_scenario(golden["scenario"])
    if "expect_error_contains" in golden:
        assert set(golden) == {"description", "scenario", "expect_error_contains"}
        assert list(result) == ["error"], f"expected an error, got {result.get('winner')!r}"
        assert golden["expect_error_contains"] in result["error"]
        return
    assert "error" not in result, result.get("error")
    expect = golden.get("expect", {})
    whole = "deals" in golden["scenario"]
    assert set(expect) <= (MATCH_KEYS if whole else EXPECT_KEYS)
    assert expect or "expect_events_contain" in golden
    failures = [
        f"{k}: expected {v!r}, got {result[k]!r}" for k, v in expect.items() if result[k] != v
    ]
    assert not failures, "\n".join(failures)
    events = result["events"]
    check_events(events, golden)
    check_views(result, golden)
    # Points: only the winner scores, and his points are what the shown hands are worth,
    # doubled for Going Rummy; a stalemate scores nothing.
    hands = result["deals"] if whole else [result]
    starts = [i for i, e in enumerate(events) if e["type"] == "dealer"] + [len(events)]
    assert len(hands) == len(starts) - 1
    for hand, start, end in zip(hands, starts, starts[1:], strict=False):
        shown = sum(e["points"] for e in events[start:end] if e["type"] == "show")
        won = sum(hand["points"].values())
        if hand["winner"] is None:
            assert hand["stalemate"] and won == 0
        else:
            assert won == shown * (2 if hand["going_rummy"] else 1)


# --------------------------------------------------------------------------- melds


def _brute_is_meld(cards: list[int]) -> bool:
    if len(cards) < 3:
        return False
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    if len({c // 13 for c in cards}) != 1:
        return False
    lows = sorted(low_rank(c) for c in cards)
    return lows == list(range(lows[0], lows[0] + len(lows)))


def test_catalogue_is_every_meld_once() -> None:
    assert NUM_MELDS == 13 * 5 + 4 * 66 == 329
    assert len(set(CATALOGUE)) == NUM_MELDS
    assert all(_brute_is_meld(cards_of(m)) for m in CATALOGUE)
    # Every 3-card and 4-card combination is a meld exactly when the brute force says so.
    for size in (3, 4):
        for combo in itertools.combinations(range(52), size):
            m = sum(1 << c for c in combo)
            assert is_meld(m) == _brute_is_meld(list(combo)), [card_str(c) for c in combo]


def test_runs_aces_low_no_wrap_around() -> None:
    assert is_meld(card_mask("AH", "2H", "3H"))
    assert is_meld(card_mask("JS", "QS", "KS"))
    assert not is_meld(card_mask("QS", "KS", "AS"))
    assert not is_meld(card_mask("KD", "AD", "2D"))
    assert is_meld(card_mask(*[r + "C" for r in "A23456789TJQK"]))
    assert not is_meld(card_mask("5C", "6C", "7D"))
    assert not is_meld(card_mask("5C", "5D"))
    assert not is_meld(card_mask("5C", "6C", "8C"))


def test_fit_mask_is_what_keeps_a_meld_a_meld() -> None:
    for meld in CATALOGUE:
        fit = fit_mask(meld)
        for card in range(52):
            if meld >> card & 1:
                continue
            assert bool(fit >> card & 1) == is_meld(meld | 1 << card)
    assert fit_mask(card_mask("AH", "2H", "3H")) == card_mask("4H")
    assert fit_mask(card_mask("JS", "QS", "KS")) == card_mask("TS")
    assert fit_mask(card_mask("7C", "7D", "7S")) == card_mask("7H")
    assert fit_mask(card_mask("7C", "7D", "7H", "7S")) == 0


def test_melds_in_matches_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(300):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 20)))
        expected = [i for i, m in enumerate(CATALOGUE) if m & hand == m]
        assert melds_in(hand) == expected


def test_can_form_meld_matches_brute_force() -> None:
    rng = random.Random(6)
    for _ in range(300):
        cards = rng.sample(range(52), rng.randint(0, 12))
        brute = any(is_meld(sum(1 << c for c in t)) for t in itertools.combinations(cards, 3))
        assert can_form_meld(sum(1 << c for c in cards)) == brute


def test_points_faces_ten_aces_one() -> None:
    assert [card_points(parse_card(t)) for t in ("AS", "2S", "9H", "TD", "JC", "QH", "KS")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert hand_points(FULL_DECK) == 4 * (1 + sum(range(2, 11)) + 30)


def test_meld_cards_order() -> None:
    assert [card_str(c) for c in meld_cards(card_mask("3H", "AH", "2H"))] == ["AH", "2H", "3H"]
    assert [card_str(c) for c in meld_cards(card_mask("9S", "9C", "9H"))] == ["9C", "9H", "9S"]


# --------------------------------------------------------------------------- actions


def test_action_space_and_texts_round_trip() -> None:
    assert act.NUM_ACTIONS == 3 + 329 + 52 * 17 + 52
    texts = set()
    for action in range(act.NUM_ACTIONS):
        text = act.action_to_text(action)
        texts.add(text)
        assert act.action_from_text(text) == action
        assert act.action_from_text(text.upper()) == action
    assert len(texts) == act.NUM_ACTIONS


def test_action_texts_accepted() -> None:
    meld = act.meld_action(MELD_INDEX[card_mask("7C", "7D", "7H")])
    assert act.action_from_text("meld 7H 7C 7D") == meld
    assert act.action_from_text("  MELD 7c 7d 7h ") == meld
    assert act.action_from_text("draw stock") == act.DRAW_STOCK
    assert act.action_from_text("draw discard") == act.DRAW_DISCARD
    assert act.action_from_text("take") == act.DRAW_DISCARD
    assert act.action_from_text("lay off 10H 16") == act.layoff_action(parse_card("TH"), 16)
    assert act.action_from_text("discard 10s") == act.discard_action(parse_card("TS"))


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("meld 7C 7D", "is not a meld"),
        ("meld 7C 7C 7D", "named twice"),
        ("meld QS KS AS", "Q-K-A is not"),
        ("layoff 8H 17", "0..16"),
        ("layoff 8H x", "slot"),
        ("discard 1X", "1X"),
        ("fold", "unknown action"),
    ],
)
def test_bad_action_texts(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        act.action_from_text(text)


def test_canonical_order_of_a_turn() -> None:
    """Draw from the stock first; then melds, lay-offs, and discards highest card first."""
    assert act.DRAW_STOCK < act.DRAW_DISCARD < act.MELD_BASE
    assert act.meld_action(NUM_MELDS - 1) < act.layoff_action(parse_card("AC"), 0)
    assert act.layoff_action(parse_card("KS"), 16) < act.discard_action(parse_card("KC"))
    order = sorted(act.discard_action(parse_card(t)) for t in ("AS", "KC", "2D", "KS"))
    assert [act.action_to_text(a) for a in order] == [
        "discard KC",
        "discard KS",
        "discard 2D",
        "discard AS",
    ]
    # Among melds, the sets come first, and from one lowest card the longest run first.
    run5 = MELD_INDEX[card_mask("AH", "2H", "3H", "4H", "5H")]
    run3 = MELD_INDEX[card_mask("AH", "2H", "3H")]
    assert MELD_INDEX[card_mask("KC", "KD", "KH", "KS")] < run5 < run3


# --------------------------------------------------------------------------- the engine API


def started(n: int = 2, seed: int = 1, rules: Rules | None = None) -> RummyState:
    state = RummyState.new_game(["Ann", "Bob", "Cy", "Dee"][:n], rules, seed)
    state.apply(0)
    return state


@pytest.mark.parametrize("n, each, stock", [(2, 10, 31), (3, 7, 30), (4, 7, 23)])
def test_deal(n: int, each: int, stock: int) -> None:
    state = RummyState.new_game(["Ann", "Bob", "Cy", "Dee"][:n], seed=3)
    assert state.current_player() == CHANCE and state.legal_actions() == [0]
    events = state.apply(0)
    assert [e[0] for e in events if e[0] == "cut"]  # no dealer given: a cut decides
    assert [h.bit_count() for h in state.hands] == [each] * n
    assert len(state.discard) == 1 and len(state.stock) == stock
    assert state.cards_conserved()
    assert ("upcard", state.discard[0]) in events
    assert state.current_player() == (state.dealer + 1) % n
    assert state.legal_actions() == [act.DRAW_STOCK, act.DRAW_DISCARD]


def test_cut_highest_deals_aces_low() -> None:
    """Every player cuts; the highest (king high, aces low) deals; ties cut again."""
    for seed in range(40):
        n = 2 + seed % 3
        state = RummyState.new_game(["Ann", "Bob", "Cy", "Dee"][:n], seed=seed)
        cuts = [e for e in state.apply(0) if e[0] == "cut"]
        contenders = list(range(n))
        used = 0
        while len(contenders) > 1:
            cut_round = cuts[used : used + len(contenders)]
            used += len(contenders)
            assert [e[1] for e in cut_round] == contenders
            best = max(low_rank(e[2]) for e in cut_round)
            contenders = [e[1] for e in cut_round if low_rank(e[2]) == best]
        assert used == len(cuts) and contenders == [state.dealer]


def test_dealer_passes_left_each_hand() -> None:
    state = RummyState.new_game(["Ann", "Bob", "Cy"], Rules(target=10_000), seed=4)
    rng = random.Random(4)
    dealers: list[int] = []
    while len(dealers) < 4:
        for event in state.apply(rng.choice(state.legal_actions())):
            if event[0] == "dealer":
                dealers.append(event[1])
                assert state.current_player() in (CHANCE, (event[1] + 1) % 3)
    assert [(d - dealers[0]) % 3 for d in dealers] == [0, 1, 2, 0]


def snapshot(state: RummyState) -> dict[str, Any]:
    return state_snapshot(state, "hands", "stock", "discard", "melds")


@pytest.mark.parametrize("bad", [True, 1.0, "1", None, -1, act.NUM_ACTIONS, 0])
def test_illegal_actions_change_nothing(bad: Any) -> None:
    state = started()
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(bad)
    assert snapshot(state) == before


def test_illegal_message_names_the_problem() -> None:
    state = started()
    seat = state.current_player()
    card = next(c for c in range(52) if not state.hands[seat] >> c & 1)
    with pytest.raises(IllegalActionError, match="must first draw"):
        state.apply(act.discard_action(card))
    state.apply(act.DRAW_STOCK)
    with pytest.raises(IllegalActionError, match=f"does not hold {card_str(card)}"):
        state.apply(act.discard_action(card))
    with pytest.raises(IllegalActionError, match="no meld in slot 3"):
        state.apply(act.layoff_action(card, 3))


def test_clone_is_independent() -> None:
    state = started()
    copy = state.clone()
    state.apply(act.DRAW_STOCK)
    assert copy.phase == DRAW and state.phase == PLAY
    assert copy.hands != state.hands and len(copy.stock) == len(state.stock) + 1
    assert copy.actions == [0]


def play(state: RummyState, seed: int, limit: int = 100_000) -> list[Any]:
    rng = random.Random(seed)
    events = []
    for _ in range(limit):
        if state.is_terminal():
            return events
        legal = state.legal_actions()
        events.extend(state.apply(legal[0] if rng.random() < 0.6 else rng.choice(legal)))
    raise AssertionError("the match did not end")


def test_record_replays_exactly() -> None:
    state = RummyState.new_game(["Ann", "Bob", "Cy"], Rules(target=60), seed=9)
    events = play(state, 9)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert any(e[0] == "game_over" for e in events)
    record = json.loads(json.dumps(state.record()))
    again = replay(record)
    assert again.scores == state.scores and again.actions == state.actions
    assert registry.replay(json.dumps(record)).record() == state.record()
    fresh = RummyState(Rules(target=60), setup_from_dict(record["setup"]), 9)
    replayed: list[Any] = []
    for action in record["actions"]:
        replayed.extend(fresh.apply(action))
    assert replayed == events


def test_registry_new_game() -> None:
    assert registry.names()[:2] == ("rummoli", "rummy")  # the Stops family follows
    state = registry.new_game("rummy", ["Ann", "Bob"], {"one_meld_per_turn": True}, seed=2)
    assert isinstance(state, RummyState) and state.rules.one_meld_per_turn


@pytest.mark.parametrize(
    "change, message",
    [
        ({"game": "rummoli"}, "not a Rummy record"),
        ({"version": 9}, "version"),
        ({"actions": [0, 1999]}, "action 1 of the record"),
        ({"actions": ["x"]}, "whole numbers"),
        ({"seed": "s"}, "seed"),
        ({"end_requested_after": 99}, "end_requested_after"),
        ({"rules": {"target": 0}}, "target"),
    ],
)
def test_bad_records(change: dict[str, Any], message: str) -> None:
    record = started().record() | change
    with pytest.raises(SetupError, match=message):
        replay(record)


def test_request_end_after_the_hand() -> None:
    state = started(seed=12)
    state.apply(act.DRAW_STOCK)
    state.request_end()
    events = play(state, 12)
    assert state.hand_no == 1
    assert events[-1][0] == "game_over"
    record = state.record()
    assert record["end_requested_after"] == 2
    assert replay(record).record() == record


def test_targets() -> None:
    assert [RummyState.new_game(["A", "B", "C", "D"][:n]).target for n in (2, 3, 4)] == [
        100,
        150,
        200,
    ]
    assert RummyState.new_game(["A", "B"], Rules(target=30)).target == 30
    with pytest.raises(SetupError, match="already won"):
        RummyState(Rules(), setup_from_dict({"players": ["A", "B"], "scores": {"A": 100}}))
    with pytest.raises(SetupError, match="target"):
        Rules.from_dict({"target": True})
    with pytest.raises(SetupError, match="one_meld_per_turn"):
        Rules(one_meld_per_turn="yes")  # type: ignore[arg-type]


def test_match_plays_to_the_target() -> None:
    state = RummyState.new_game(["Ann", "Bob"], Rules(target=40), seed=21)
    events = play(state, 21)
    over = events[-1]
    assert over[0] == "game_over"
    winner = over[2]
    assert state.scores[winner] >= 40
    assert all(s < 40 for seat, s in enumerate(state.scores) if seat != winner)


# --------------------------------------------------------------------------- rules in detail


def position(**changes: Any) -> RummyState:
    return rummy_position(Rules(**changes.pop("rules", {})), **changes)


def test_last_card_rule_for_lay_offs_and_forced_moves() -> None:
    """Ann holds 8S and takes KH from the discard pile. Laying off 8S on 5S 6S 7S would
    leave only KH, which she may not discard and which fits no meld: refused. Her only
    action is then discarding 8S, which the engine makes itself and does not record."""
    state = position(
        hands={"Ann": ["8S"], "Bob": ["2C", "3C"]},
        melds=[["5S", "6S", "7S"]],
        discard=["KH"],
    )
    events = state.apply(act.DRAW_DISCARD)
    assert ("discard", 0, parse_card("8S")) in events
    assert not [e for e in events if e[0] == "lay_off"]
    assert state.actions == [0, act.DRAW_DISCARD]
    assert state.current_player() == 1 and state.hands[0] == card_mask("KH")


def test_last_card_rule_allows_what_then_fits() -> None:
    """Holding 4S 8S and taking KH: laying off 4S is fine (8S and KH stay); the meld
    options never strand the taken card."""
    state = position(
        hands={"Ann": ["4S", "8S"], "Bob": ["2C", "3C"]},
        melds=[["5S", "6S", "7S"]],
        discard=["KH"],
    )
    state.apply(act.DRAW_DISCARD)
    legal = state.legal_actions()
    assert act.layoff_action(parse_card("4S"), 0) in legal
    assert act.layoff_action(parse_card("8S"), 0) in legal
    assert act.discard_action(parse_card("KH")) not in legal
    with pytest.raises(IllegalActionError, match="taken from the discard pile"):
        state.apply(act.discard_action(parse_card("KH")))


def test_nobody_can_go_out_cases() -> None:
    runs = [card_mask(*[r + s for r in "A23456"]) for s in "CDHS"]
    sets = [card_mask(*[r + s for s in "CDHS"]) for r in "79TJQ"]
    melds = runs + sets
    fits = [fit_mask(m) for m in melds]
    # Before the reshuffle every card outside the melds is live (tests/test_rummy_stalemate.py
    # has the cases after it).
    one_each = [card_mask("8C"), card_mask("KC")]
    assert nobody_can_go_out(one_each, melds, fits, FULL_DECK)
    # Two cards each: the eights and kings outside could still make a set.
    assert not nobody_can_go_out(
        [card_mask("8C", "8D"), card_mask("KC", "KD")], melds, fits, FULL_DECK
    )
    # A set of three sevens takes the fourth seven, which is outside: not blocked.
    melds2 = [*runs, card_mask("7C", "7D", "7S"), *sets[1:]]
    assert not nobody_can_go_out(one_each, melds2, [fit_mask(m) for m in melds2], FULL_DECK)
    # No meld on the table: blocked only if nothing outside can ever form one.
    assert not nobody_can_go_out([card_mask("2C", "3D")] * 2, [], [], FULL_DECK)


# --------------------------------------------------------------------------- views


def test_view_hides_other_hands_and_the_stock() -> None:
    state = started(3, seed=5)
    seat = state.current_player()
    other = (seat + 1) % 3
    view = state.view(other)
    assert view["game"] == "rummy"
    assert view["hand"] == [card_str(c) for c in state.hand_of(other)]
    assert [p["cards"] for p in view["players"]] == [7, 7, 7]
    assert view["stock"] == 30 and "legal_actions" not in view
    assert "hand" not in state.view(None)
    mine = state.view(seat)
    assert [a["text"] for a in mine["legal_actions"]] == ["stock", "discard"]
    text = json.dumps(view)
    for card in cards_of(state.hands[seat] | state.hands[(seat + 2) % 3]):
        assert f'"{card_str(card)}"' not in text or card in state.discard
    for card in state.stock:
        assert f'"{card_str(card)}"' not in text


def test_private_events() -> None:
    state = started(2, seed=5)
    seat = state.current_player()
    events = state.apply(act.DRAW_STOCK)
    drew = [e for e in events if e[0] == "drew"]
    assert drew and drew[0][1] == seat
    assert visible_events(events, 1 - seat) == [("draw_stock", seat)]
    assert visible_events(events, None) == [("draw_stock", seat)]
    assert len(visible_events(events, seat)) == 2
    assert events_for(events, seat, state.names)[1] == {
        "type": "drew",
        "player": state.names[seat],
        "card": card_str(drew[0][2]),
    }


# --------------------------------------------------------------------------- scenarios


def test_scenario_without_position_is_dealt_by_the_seed() -> None:
    data = {"game": "rummy", "players": ["Ann", "Bob", "Cy"]}
    first = run_scenario(data)
    assert "error" not in first, first
    assert first == run_scenario(data)
    assert first["events"][0]["type"] == "cut"
    assert list(first) == [
        "winner",
        "stalemate",
        "going_rummy",
        "points",
        "scores",
        "match_winner",
        "melds",
        "events",
    ]
    hands = [e for e in first["events"] if e["type"] == "hand"]
    assert [len(e["cards"]) for e in hands] == [7, 7, 7]


def test_scenario_choices_with_and_without_names() -> None:
    golden = load("08_lay_off_on_opponents_meld_going_rummy.json")["scenario"]
    bare = dict(golden, choices=[c.split(": ", 1)[1] for c in golden["choices"]])
    assert run_scenario(bare) == run_scenario(golden)


def test_rummoli_scenarios_refuse_rummy_fields() -> None:
    result = run_scenario({"game": "rummy", "players": ["Ann", "Bob"], "widow": []})
    assert "unknown rummy scenario field 'widow'" in result["error"]
    result = run_scenario({"game": "chess", "players": ["Ann", "Bob"]})
    assert "unknown game 'chess'" in result["error"] and "'rummoli', 'rummy'" in result["error"]


runner = CliRunner()


def test_cli_runs_rummy_golden_files() -> None:
    paths = [str(GOLDEN[0]), str(SCENARIO_DIR / "33_error_five_players.json"), str(GOLDEN[1])]
    result = runner.invoke(app, ["scenario", *paths])
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["winner"] == json.loads(GOLDEN[0].read_text())["expect"]["winner"]
    assert lines[1]["error"].startswith(paths[1])
    assert "winner" in lines[2]
