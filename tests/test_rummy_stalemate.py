"""Basic Rummy's stalemates: the detection is sound and sees the dead cards, every hand ends.

The judge is an exhaustive search (:func:`way_out`): from a position at the start of a
turn it tries every legal action of every player, the engine's own rules with the
detection and the stall rule switched off, and answers whether some sequence of moves
lets a player go out in that hand (it stops where the hand ends: in a match the next
hand's deal follows, which is no move of this one). On small positions (few cards
outside the melds) it is exact, and it knows nothing of the detection's reasoning, so it
can judge it:

- hand-built positions: the loop of issue 10 (after the reshuffle, the one card that fits
  lies below the pile's top), ones where the only way out is the pile's top or a card of
  the stock, ones where the dead card was the only way out, and a match's hand that the
  stock's second depletion ends at a turn's start (the judge does not play on into the
  next hand);
- random small positions: whenever the detection says "nobody can go out", the search
  finds no way out (soundness); and the positions of the issue's kind are all caught;
- take-heavy players (always take the discard pile's top when allowed) at 2 to 4 seats,
  from dealt hands and from late positions, before and after the reshuffle: every hand
  ends within :func:`~rummoli.games.rummy.stalemate.max_turns` turns, and every detected
  stalemate is confirmed (by the search where the position is small, else by the
  detection's conditions checked the slow way and random play without the detection);
- an adversary who stalls as long as the rules let him (always takes; with the house rule
  ``stall_rule``, draws from the stock only to reset the stall count) still ends within
  the bound, far beyond two passes through the stock;
- without ``stall_rule`` (the default) idle turns never end a hand: after
  ``STALL_TURNS`` of them the player to move draws from the stock, and the hand is won or
  runs the stock out.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from rummoli.cards import FULL_DECK, card_str, cards_of
from rummoli.engine.base import CHANCE
from rummoli.games.rummy import Rules, RummyState, setup_from_dict
from rummoli.games.rummy import actions as act
from rummoli.games.rummy import state as state_module
from rummoli.games.rummy.melds import card_at, is_meld
from rummoli.games.rummy.stalemate import (
    BLOCKED,
    NO_MELD,
    ONE_CARD_EACH,
    STALL_TURNS,
    STALLED,
    STOCK_OUT,
    hopeless,
    live_cards,
    max_turns,
    nobody_can_go_out,
)
from rummoli.scenario import run_scenario

NAMES = ["Ann", "Bob", "Cy", "Dee"]
SCENARIOS = Path(__file__).parent / "scenarios" / "rummy"


# --------------------------------------------------------------------------- the judge


@contextmanager
def rules_only() -> Iterator[None]:
    """The engine without the detection and the stall rule: only going out and the stock
    running out a second time end a hand."""
    detect, stall = state_module.DETECT_BLOCKED, state_module.STALL_TURNS
    state_module.DETECT_BLOCKED = False
    state_module.STALL_TURNS = 1 << 30
    try:
        yield
    finally:
        state_module.DETECT_BLOCKED, state_module.STALL_TURNS = detect, stall


def key(state: RummyState) -> tuple[Any, ...]:
    """Everything that decides what can happen next (not the scores or the history)."""
    return (
        state.phase,
        state.to_move,
        state.turn,
        tuple(state.hands),
        tuple(state.stock),
        tuple(state.discard),
        tuple(state.melds),
        state.reshuffles,
        state.taken,
        state.melded_this_turn,
    )


def hand_over(state: RummyState) -> bool:
    """Whether the hand ``state`` stands in has ended (a player out, a stalemate): in a
    match the next step is the next hand's deal, which is no move of this hand."""
    return state.phase in (state_module.HAND_OVER, state_module.OVER)


def way_out(state: RummyState, budget: int = 30_000) -> bool | None:
    """Whether some sequence of moves from ``state`` lets a player go out *in this hand*;
    None when the search would visit more than ``budget`` positions. Call it inside
    :func:`rules_only`.

    The search stays in the hand: a position where it has ended is a leaf, the start
    too (a turn's start can end the hand at once: the stock out a second time). Past
    the end of a hand in a match lies the next hand's deal, and a player going out there
    says nothing of this one."""
    if hand_over(state):
        return False
    seen = {key(state)}
    stack = [state]
    while stack:
        position = stack.pop()
        for action in position.legal_actions():
            after = position.clone()
            if any(event[0] == "goes_out" for event in after.apply(action)):
                return True
            if hand_over(after):
                continue
            k = key(after)
            if k not in seen:
                seen.add(k)
                if len(seen) > budget:
                    return None
                stack.append(after)
    return False


def start_of_turn(state: RummyState, seat: int) -> RummyState:
    """A copy of a state whose hand just ended in a stalemate at the start of ``seat``'s
    turn, taken back to that turn's start (inside :func:`rules_only`: no detection, but
    the stock running out a second time still ends the hand there, before any move)."""
    copy = state.clone()
    copy.stalemate = ""
    copy.phase = state_module.DRAW
    copy._start_turn(seat, [])
    return copy


def position(data: dict[str, Any], seed: int = 0) -> RummyState:
    """The state at the start of a scenario position's first turn (its deal applied, with
    the detection off, so that the turn is there to be judged)."""
    state = RummyState(Rules(), setup_from_dict({**data, "single_hand": True}), seed)
    with rules_only():
        state.apply(0)
    return state


def detected(state: RummyState) -> bool:
    """The engine's own verdict at the start of the turn ``state`` stands at."""
    live = live_cards(state.hands, state.stock, state.discard, state.reshuffles > 0)
    return nobody_can_go_out(state.hands, state.melds, state.fits, live)


def text(cards: list[int]) -> list[str]:
    return [card_str(c) for c in cards]


# --------------------------------------------------------------------------- hand-built

RUNS_TO_JACK = [[r + s for r in "A23456789TJ"] for s in "CDHS"]
#: Issue 10's position: each player holds a king, the stock a king, QS lies below the
#: pile's top (KS), QC QD QH on the table, every other card in runs A-J that no king
#: fits (QS fits the spades run and the queens).
KINGS: dict[str, Any] = {
    "game": "rummy",
    "players": ["Ann", "Bob"],
    "dealer": "Bob",
    "hands": {"Ann": ["KC"], "Bob": ["KD"]},
    "stock": ["KH"],
    "discard": ["QS", "KS"],
    "melds": [*RUNS_TO_JACK, ["QC", "QD", "QH"]],
}


def test_issue_position_after_the_reshuffle_is_a_stalemate_at_once() -> None:
    data = KINGS | {"reshuffled": True}
    with rules_only():
        assert way_out(position(data)) is False  # the loop of the issue: hopeless
    result = run_scenario(data)
    assert result["stalemate"] and result["winner"] is None
    # Every player holds one card and nothing fits: the seed's own example, in words.
    assert {"type": "stalemate", "reason": BLOCKED, "why": ONE_CARD_EACH} in result["events"]
    assert not any(e["type"] in ("draw_stock", "draw_discard") for e in result["events"])


def test_issue_position_before_the_reshuffle_is_alive() -> None:
    """Before the reshuffle QS comes back into the stock: somebody can still go out, so
    the detection must not fire (and with the default play, Bob goes out)."""
    with rules_only():
        assert way_out(position(KINGS)) is True
    assert not detected(position(KINGS))
    result = run_scenario(KINGS)
    assert result["winner"] == "Bob" and not result["stalemate"]


def test_the_only_way_out_is_the_pile_top() -> None:
    """QS on top of the pile after the reshuffle: Ann takes it, lays it off and discards
    her king. Not a stalemate, and the detection agrees."""
    data = KINGS | {"reshuffled": True, "discard": ["KS", "QS"]}
    with rules_only():
        assert way_out(position(data)) is True
    assert not detected(position(data))
    result = run_scenario(data | {"choices": ["Ann: take"]})
    assert result["winner"] == "Ann"


def test_the_only_way_out_is_in_the_stock() -> None:
    """QS deep in the stock after the reshuffle: live, as every stock card can be drawn."""
    data = KINGS | {"reshuffled": True, "stock": ["KH", "QS"], "discard": ["KS"]}
    with rules_only():
        assert way_out(position(data)) is True
    assert not detected(position(data))


def test_dead_cards_were_the_only_way_out() -> None:
    """Sevens, kings and fives outside the melds (every other rank a set of four, which
    takes nothing). After the reshuffle the live cards are Ann's 7C KC, Bob's 5C, the
    stock's 5D and the pile's top 7D: no rank three times, so no meld can ever be made,
    and Ann's two cards do not matter. Before the reshuffle the cards below the top come
    back: alive."""
    sets = [[r + s for s in "CDHS"] for r in "A234689TJQ"]
    dead = {
        "game": "rummy",
        "players": ["Ann", "Bob"],
        "dealer": "Bob",
        "hands": {"Ann": ["7C", "KC"], "Bob": ["5C"]},
        "stock": ["5D"],
        "discard": ["7H", "7S", "KD", "KH", "KS", "5H", "5S", "7D"],
        "melds": sets,
        "reshuffled": True,
    }
    assert detected(position(dead))
    start = position(dead)
    assert hopeless(start.hands, start.melds, start.fits, start._live()) == NO_MELD
    with rules_only():
        assert way_out(position(dead)) is False
    alive = {k: v for k, v in dead.items() if k != "reshuffled"}
    assert not detected(position(alive))
    with rules_only():
        assert way_out(position(alive)) is True
    # After the reshuffle with Bob holding 7D and 7H on top: three live sevens, alive.
    on_top = dead | {
        "hands": {"Ann": ["7C", "KC"], "Bob": ["7D"]},
        "discard": ["5C", "7S", "KD", "KH", "KS", "5H", "5S", "7H"],
    }
    assert not detected(position(on_top))
    with rules_only():
        assert way_out(position(on_top)) is True


def test_the_judge_stays_in_its_hand() -> None:
    """Golden file ``rummy/60``'s position at Ann's turn, in a match: after the reshuffle
    Cy drew the stock's last card, so the stock has run out a second time, and nothing
    live fits or makes a meld (the detection's verdict). Without the detection the seed's
    own stalemate ends the hand at that turn's start, before any move; what follows is the
    next hand's deal, where somebody can go out. That is no way out of this hand (the
    search once took it for one, and the detection's sound verdict for a mistake)."""
    golden = SCENARIOS / "60_stock_out_again_and_nothing_live_is_a_stalemate.json"
    before = json.loads(golden.read_text())["scenario"]
    data = {k: v for k, v in before.items() if k != "choices"} | {
        "turn": "Ann",
        "hands": {"Ann": ["4H"], "Bob": ["TD", "4S"], "Cy": ["KH"]},
        "stock": [],
        "discard": [*before["discard"][:-1], "KC", "KD"],  # Bob took 4S; KC, KD discarded
    }
    state = RummyState(Rules(), setup_from_dict(data), seed=0)  # a match: hands follow
    with rules_only():
        state.apply(0)
        assert state.stalemate == STOCK_OUT and state.phase == state_module.HAND_OVER
        assert hopeless(state.hands, state.melds, state.fits, state._live()) == NO_MELD
        assert way_out(state) is False
        state.apply(0)  # the next hand's deal: a new hand, with its own ways out
        assert state.hand_no == 2 and way_out(state) is True


def test_stall_rule_ends_a_take_loop_that_could_still_be_won() -> None:
    """Before the reshuffle the kings' position is alive, but players who keep taking the
    pile's top never use the stock: with the house rule stall_rule, after STALL_TURNS idle
    turns the hand stalls."""
    stalling = KINGS | {"rules": {"stall_rule": True}}
    result = run_scenario(stalling | {"choices": ["take"] * STALL_TURNS})
    assert result["stalemate"]
    assert result["events"][-4:-3] == [{"type": "stalemate", "reason": STALLED, "why": None}]
    takes = [e for e in result["events"] if e["type"] == "draw_discard"]
    assert len(takes) == STALL_TURNS
    # One take less, and the default play (draw from the stock) goes on to a winner.
    shorter = run_scenario(stalling | {"choices": ["take"] * (STALL_TURNS - 1)})
    assert not shorter["stalemate"]


def test_without_the_stall_rule_the_stock_must_be_drawn() -> None:
    """The seed's two stalemates only (the default): after STALL_TURNS takes the player to
    move may only draw from the stock (the engine draws for him), and the hand goes on to
    its end: here Ann draws KH and Bob goes out with the default play."""
    result = run_scenario(KINGS | {"choices": ["take"] * STALL_TURNS})
    events = result["events"]
    draws = [e for e in events if e["type"] in ("draw_stock", "draw_discard")]
    assert [e["type"] for e in draws[: STALL_TURNS + 1]] == ["draw_discard"] * STALL_TURNS + [
        "draw_stock"
    ]
    assert not any(e["type"] == "stalemate" and e["reason"] == STALLED for e in events)
    assert result["winner"] is not None
    # A 41st take is not a choice: the draw was made (from the stock) for Ann.
    refused = run_scenario(KINGS | {"choices": ["take"] * (STALL_TURNS + 1)})
    assert "Ann has already drawn this turn" in refused["error"]


def test_a_meld_or_a_stock_draw_resets_the_stall_count() -> None:
    state = RummyState.new_game(NAMES[:2], Rules(), seed=3)
    state.apply(0)
    for _ in range(STALL_TURNS - 1):
        state.apply(act.DRAW_DISCARD)
        if state.phase == state_module.PLAY:
            state.apply(max(a for a in state.legal_actions() if act.is_discard_action(a)))
    assert state.idle_turns == STALL_TURNS - 1 and not state.stalemate
    state.apply(act.DRAW_STOCK)
    state.apply(max(a for a in state.legal_actions() if act.is_discard_action(a)))
    assert state.idle_turns == 0


# --------------------------------------------------------------------------- small positions


def small_position(rng: random.Random, players: int) -> dict[str, Any] | None:
    """A random position with few cards outside the melds (at most 9), so that the
    exhaustive search is exact; hands of one to three cards, a short stock and pile,
    before or after the reshuffle. Half of them are near a stalemate (:func:`near_blocked`),
    the others have cards cut out of runs, which fit them. None when the draw leaves too
    few or too many cards outside."""
    if rng.random() < 0.5:
        outside, melds = near_blocked(rng)
    else:
        outside, melds = cut_from_runs(rng, players)
    if not players + 1 <= len(outside) <= 9 or len(melds) > 17:
        return None
    cards = list(outside)
    rng.shuffle(cards)
    hands = {}
    for name in NAMES[:players]:
        size = rng.choice([1, 1, 2, 3])
        if len(cards) - size < players - len(hands) - 1:
            size = 1
        hands[name], cards = cards[:size], cards[size:]
    split = rng.randint(0, len(cards))
    return {
        "game": "rummy",
        "players": NAMES[:players],
        "dealer": rng.randrange(players),
        "hands": {name: text(h) for name, h in hands.items()},
        "stock": text(cards[:split]),
        "discard": text(cards[split:]),
        "melds": [text(m) for m in melds],
        "reshuffled": rng.random() < 0.6,
    }


def near_blocked(rng: random.Random) -> tuple[set[int], list[list[int]]]:
    """Two whole ranks outside the melds, every other rank a set of four (which takes
    nothing); sometimes three cards of an outside rank are a set on the table instead,
    which the fourth then fits."""
    ranks = rng.sample(range(13), 2)
    outside: set[int] = set()
    melds = [[card_at(s, r) for s in range(4)] for r in range(13) if r not in ranks]
    for rank in ranks:
        cards = [card_at(s, rank) for s in range(4)]
        rng.shuffle(cards)
        if rng.random() < 0.3:
            melds.append(cards[:3])
            outside.add(cards[3])
        else:
            outside.update(cards)
    return outside, melds


def cut_from_runs(rng: random.Random, players: int) -> tuple[set[int], list[list[int]]]:
    """A few random cards outside, the rest in runs (cut at random) and sets."""
    outside = set(rng.sample(range(52), rng.randint(players + 1, 7)))
    melds: list[list[int]] = []
    leftovers: list[int] = []
    for suit in range(4):
        stretch: list[int] = []
        for rank in range(14):
            card = card_at(suit, rank) if rank < 13 else -1
            if card >= 0 and card not in outside:
                stretch.append(card)
                continue
            while len(stretch) >= 6 and rng.random() < 0.5:
                cut = rng.randint(3, len(stretch) - 3)
                melds.append(stretch[:cut])
                stretch = stretch[cut:]
            if len(stretch) >= 3:
                melds.append(stretch)
            else:
                leftovers.extend(stretch)
            stretch = []
    by_rank: dict[int, list[int]] = {}
    for card in leftovers:
        by_rank.setdefault(card % 13, []).append(card)
    for cards in by_rank.values():
        if len(cards) >= 3:
            melds.append(cards)
        else:
            outside.update(cards)
    return outside, melds


def issue_like_position(rng: random.Random, players: int) -> dict[str, Any]:
    """The issue's kind of position: one card each, after the reshuffle, the only cards
    that fit the table below the pile's top, and nothing live that could make a meld:
    every such position is hopeless, and the detection must catch them all."""
    ranks = rng.sample(range(13), players + 2)
    # A rank whose fourth card fits a set of three on the table, that card buried.
    buried_rank, top_rank, *held = ranks
    suits = list(range(4))
    rng.shuffle(suits)
    buried = card_at(suits[0], buried_rank)
    table_set = [card_at(s, buried_rank) for s in suits[1:]]
    hands = [card_at(rng.randrange(4), r) for r in held]
    top = card_at(rng.randrange(4), top_rank)
    outside = {buried, top, *hands, *table_set}
    # Every other card goes into sets of its rank (full sets take nothing more), or,
    # for the ranks used above, sets of the three other suits would take the card: so
    # those ranks' other cards are buried in the pile too.
    melds = [table_set]
    pile = [buried]
    for rank in range(13):
        cards = [card_at(s, rank) for s in range(4) if card_at(s, rank) not in outside]
        if rank in (top_rank, *held):
            pile.extend(cards)
        elif rank != buried_rank:
            melds.append(cards)
    rng.shuffle(pile)
    return {
        "game": "rummy",
        "players": NAMES[:players],
        "dealer": rng.randrange(players),
        "hands": {name: [card_str(c)] for name, c in zip(NAMES, hands, strict=False)},
        "stock": [],
        "discard": text([*pile, top]),
        "melds": [text(m) for m in melds],
        "reshuffled": True,
    }


def test_small_positions_detection_is_sound() -> None:
    """On hundreds of random small positions: detected implies no way out (exact search).
    And the detection is not idle: it fires on a fair share of the hopeless ones."""
    rng = random.Random(10)
    tried = fired = dead = 0
    while tried < 300:
        data = small_position(rng, rng.randint(2, 3))
        if data is None:
            continue
        state = position(data, seed=tried)
        if state.is_terminal():
            continue
        tried += 1
        verdict = detected(state)
        with rules_only():
            answer = way_out(state)
        if answer is None:
            continue
        assert not (verdict and answer), f"declared a stalemate with a way out: {data}"
        fired += verdict
        dead += not answer
    print(tried, fired, dead)
    assert fired >= 10 and dead >= fired


def test_issue_like_positions_are_all_detected() -> None:
    rng = random.Random(11)
    for index in range(40):
        data = issue_like_position(rng, 2 + index % 3)
        result = run_scenario(data)
        found = {"type": "stalemate", "reason": BLOCKED, "why": ONE_CARD_EACH}
        assert found in result["events"], data
        with rules_only():
            assert way_out(position(data)) is False


# --------------------------------------------------------------------------- take-heavy play


def take_heavy_action(state: RummyState, rng: random.Random) -> int:
    """Take the pile's top whenever allowed; then meld or lay off half the time, else any
    legal action (most are discards)."""
    legal = state.legal_actions()
    if act.DRAW_DISCARD in legal:
        return act.DRAW_DISCARD
    plays = [a for a in legal if act.is_meld_action(a) or act.is_layoff_action(a)]
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    return rng.choice(legal)


def check_blocked(state: RummyState, seat: int, rng: random.Random) -> str:
    """A detected stalemate, confirmed: the conditions the slow way; then the exhaustive
    search where the position is small, else random play without the detection."""
    live = live_cards(state.hands, state.stock, state.discard, state.reshuffles > 0)
    table = 0
    for meld in state.melds:
        table |= meld
    live_outside = cards_of(live & ~table)
    for card in live_outside:
        assert not any(is_meld(m | 1 << card) for m in state.melds), card_str(card)
    if any(h.bit_count() > 1 for h in state.hands):
        for trio in itertools.combinations(live_outside, 3):
            assert not is_meld(sum(1 << c for c in trio)), "three live cards form a meld"
    with rules_only():
        start = start_of_turn(state, seat)
        if len(live_outside) <= 9:
            assert way_out(start, budget=20_000) is not True, "a way out was missed"
            return "searched"
        for _ in range(3):
            copy = start.clone()
            for _ in range(5_000):
                if hand_over(copy):
                    break
                for event in copy.apply(rng.choice(copy.legal_actions())):
                    assert event[0] != "goes_out", "a player went out after a stalemate"
            assert copy.winner < 0
    return "played"


def stalemate_seat(state: RummyState, events: list[Any]) -> int:
    """Whose turn's start declared the stalemate that ``events`` end with."""
    discards = [e[1] for e in events if e[0] == "discard"]
    n = len(state.names)
    if discards:
        return int((discards[-1] + 1) % n)
    if state.hand_no == 1 and state.setup.turn is not None:
        return state.setup.turn
    return (state.dealer + 1) % n


def play_hands(state: RummyState, rng: random.Random, hands: int) -> dict[str, int]:
    """Play ``state`` with take-heavy players for up to ``hands`` hands, checking that each
    ends within its bound and that every detected stalemate is sound."""
    counts = {"out": 0, BLOCKED: 0, STALLED: 0, "stock": 0, "searched": 0}
    bound = turns = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            hand = state.hand_no
            events = state.apply(0)
            if state.hand_no != hand:  # a new hand: its bound from its first position
                turns = 0
                table = sum(m.bit_count() for m in state.melds)
                bound = max_turns(len(state.names), len(state.stock) + 1, table)
                if state.hand_no >= hands:
                    state.request_end()
        else:
            events = state.apply(take_heavy_action(state, rng))
        for event in events:
            if event[0] in ("draw_stock", "draw_discard"):
                turns += 1
                assert turns <= bound, f"hand {state.hand_no} passed its bound {bound}"
            elif event[0] == "goes_out":
                counts["out"] += 1
            elif event[0] == "stalemate":
                counts[event[1]] += 1
                seat = stalemate_seat(state, events)
                if event[1] == BLOCKED and check_blocked(state, seat, rng) == "searched":
                    counts["searched"] += 1
    return counts


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), stall_rule=st.booleans())
def test_take_heavy_players_whole_matches(seed: int, players: int, stall_rule: bool) -> None:
    """Dealt hands: take-heavy players never draw from the stock while they may take (the
    pile is never empty). With ``stall_rule`` only going out or the stall rule can end a
    hand; without it, idle turns force a draw from the stock, and a hand ends by going
    out, the detection or the stock running out, never by stalling."""
    rules = Rules(target=40, stall_rule=stall_rule)
    state = RummyState.new_game(NAMES[:players], rules, seed)
    counts = play_hands(state, random.Random(seed), hands=3)
    note(repr(counts))
    if stall_rule:
        assert counts[STOCK_OUT] == 0
    else:
        assert counts[STALLED] == 0


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_take_heavy_players_small_positions(seed: int, players: int) -> None:
    """Small positions, before and after the reshuffle: the detection's every verdict is
    checked by the exhaustive search."""
    rng = random.Random(seed)
    data = small_position(rng, players)
    if data is None:
        return
    data = data | {"single_hand": True}
    note(repr(data))
    state = RummyState(Rules(), setup_from_dict(data), seed)
    play_hands(state, rng, hands=1)


def test_take_heavy_players_end_every_hand_through_each_rule() -> None:
    """Over many small positions and dealt hands, take-heavy players end hands every way:
    going out, the detection (confirmed by the search), the stall rule (with the house
    rule) and, without it, the stock running out after the draws that idle turns force."""
    for stall_rule in (True, False):
        total = {"out": 0, BLOCKED: 0, STALLED: 0, STOCK_OUT: 0, "searched": 0}
        rules = Rules(stall_rule=stall_rule)
        for seed in range(150):
            rng = random.Random(seed)
            data = small_position(rng, 2 + seed % 3)
            if data is None:
                continue
            state = RummyState(rules, setup_from_dict(data | {"single_hand": True}), seed)
            for name, count in play_hands(state, rng, hands=1).items():
                total[name] += count
        for seed in range(6):
            match_rules = Rules(target=40, stall_rule=stall_rule)
            state = RummyState.new_game(NAMES[: 2 + seed % 3], match_rules, seed)
            for name, count in play_hands(state, random.Random(seed), hands=2).items():
                total[name] += count
        assert total["out"] >= 20 and total["searched"] >= 5, total
        if stall_rule:
            assert total[STALLED] >= 5, total
        else:
            assert total[STALLED] == 0 and total[STOCK_OUT] >= 5, total


# --------------------------------------------------------------------------- the bound


def test_max_turns_figures() -> None:
    """The bound of a dealt hand, as docs/rummy.md states it."""
    dealt = {2: 31, 3: 30, 4: 23}
    figures = {n: max_turns(n, dealt[n], 0) for n in dealt}
    assert figures == {2: 5452, 3: 5329, 4: 4960}


@pytest.mark.parametrize("stall_rule", [True, False])
def test_a_staller_cannot_pass_the_bound(stall_rule: bool) -> None:
    """The longest hands the rules allow: never meld and take the pile's top (with the
    house rule stall_rule, draw from the stock only when the next idle turn would stall
    the hand; without it, the engine makes the draw after STALL_TURNS idle turns). The
    hand lasts far longer than two passes through the stock (31 + 50 draws), and still
    ends within the bound."""
    for players, seed in ((2, 1), (4, 2)):
        state = RummyState.new_game(NAMES[:players], Rules(stall_rule=stall_rule), seed)
        state.apply(0)
        bound = max_turns(players, len(state.stock) + 1, 0)
        turns = 0
        while state.phase not in (state_module.HAND_OVER, state_module.OVER):
            legal = state.legal_actions()
            if state.phase == state_module.DRAW:
                turns += 1
                stall_next = stall_rule and state.idle_turns == STALL_TURNS - 1
                take = act.DRAW_DISCARD in legal and not stall_next
                events = state.apply(act.DRAW_DISCARD if take else act.DRAW_STOCK)
                # The forced draw from the stock after the idle turns counts as a turn.
                turns += sum(e[0] == "draw_stock" for e in events[1:])
                continue
            discards = [a for a in legal if act.is_discard_action(a)] or legal
            events = state.apply(discards[turns % len(discards)])
            turns += sum(e[0] in ("draw_stock", "draw_discard") for e in events)
        assert state.winner < 0, "the staller went out"
        assert state.stalemate == STOCK_OUT
        assert 40 * STALL_TURNS < turns <= bound, (players, turns, bound)


def test_hand_bound_covers_scenario_positions() -> None:
    """A position's bound depends on its stock and table; check one by hand."""
    assert max_turns(2, 0, 48) == (0 + 2 + 3) + STALL_TURNS * (0 + 2 + 3 + 1)
    assert FULL_DECK.bit_count() == 52
