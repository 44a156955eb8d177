"""Property tests of Basic Rummy: whole matches and late-game positions with random legal play.

Every example checks after every ``apply``:

- the 52 cards are in exactly one place each (hands, stock, discard pile, melds), and every
  meld on the table is a valid meld;
- ``legal_actions()`` is sorted, distinct, inside ``num_distinct_actions()``, non-empty
  until the match ends; the card taken from the discard pile is never a legal discard;
  drawing from the discard pile is offered exactly when it is not empty;
- a seat's visible events never include another seat's private ones;
- at random moments, **the view test**: the cards a seat cannot see (other hands, unless
  shown at the end of a hand, and the stock) are shuffled among those places, keeping
  counts, and the seat's view and observation must not change;
- at random moments, an illegal action raises and changes nothing;
- **stalemate soundness**: whenever the engine declares a stalemate by detection, brute
  force confirms that no live card (in a hand, the stock, or the discard pile: all of it
  before the reshuffle, its top after) fits any meld, and that no new meld can be made
  (every player holds one card, or no three live cards form a meld); and playing on from
  there with the detection switched off, nobody ever goes out (the exhaustive search of
  ``tests/test_rummy_stalemate.py`` judges small positions too);
- every hand ends within its bound of turns (``stalemate.max_turns``: the bound of the
  idle turns, whatever the players do), only by going out or the seed's two stalemates
  unless the house rule ``stall_rule`` is on, and the record replays to the same events.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from conftest import check_seats_events, state_snapshot
from rummoli.cards import FULL_DECK, card_str, cards_of
from rummoli.engine.base import CHANCE, Event, IllegalActionError
from rummoli.games.rummy import Rules, RummyState, replay, setup_from_dict
from rummoli.games.rummy import actions as act
from rummoli.games.rummy import state as state_module
from rummoli.games.rummy.deal import cards_per_player
from rummoli.games.rummy.melds import CATALOGUE, card_at, is_meld
from rummoli.games.rummy.stalemate import STALL_TURNS, STALLED, live_cards, max_turns
from rummoli.games.rummy.view import PRIVATE_EVENTS, visible_events

NAMES = ["Ann", "Bob", "Cy", "Dee"]
#: Explicit actions of a turn at most: a draw, melds or lay-offs of (at most) every card
#: outside the melds, a discard. A hand lasts at most ``max_turns`` turns (stalemate.py).
MAX_ACTIONS_PER_TURN = 54


def hidden_cards(state: RummyState, seat: int | None) -> int:
    """The cards ``seat`` cannot see: other hands (unless shown at the end of the hand)
    and the stock; never the card taken from the discard pile this turn (the table saw it)."""
    hidden = sum(1 << c for c in state.stock)
    shown = state.winner >= 0 or bool(state.stalemate)
    if not shown:
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden |= hand
    if state.taken >= 0:
        hidden &= ~(1 << state.taken)
    return hidden


def permute_unseen(state: RummyState, seat: int | None, rng: random.Random) -> RummyState:
    """A copy in which the cards ``seat`` cannot see are shuffled among the places it cannot
    see, each place keeping its count (test code edits the fields: the API cannot)."""
    other = state.clone()
    hidden = hidden_cards(state, seat)
    pool = cards_of(hidden)
    rng.shuffle(pool)
    for place in range(len(state.hands)):
        keep = state.hands[place] & ~hidden
        count = (state.hands[place] & hidden).bit_count()
        taken, pool = pool[:count], pool[count:]
        other.hands[place] = keep | sum(1 << c for c in taken)
    other.stock = [pool.pop() if hidden >> c & 1 else c for c in state.stock]
    assert not pool
    return other


def check_cards(state: RummyState) -> None:
    if state.hand_no == 0:
        return
    assert state.cards_conserved(), state
    # The engine's live cards (read from the melds alone, by conservation) are the
    # stalemate module's (read from the hands, the stock and the pile).
    live = live_cards(state.hands, state.stock, state.discard, state.reshuffles > 0)
    assert state._live() == live
    seen = 0
    for mask in (*state.hands, *state.melds):
        assert not seen & mask
        seen |= mask
    for card in (*state.stock, *state.discard):
        assert not seen >> card & 1
        seen |= 1 << card
    assert seen == FULL_DECK
    assert all(is_meld(m) for m in state.melds)
    assert len(state.melds) <= 17


def check_legal(state: RummyState) -> None:
    legal = state.legal_actions()
    if state.is_terminal():
        assert legal == []
        return
    assert legal, state
    assert legal == sorted(set(legal))
    assert legal[0] >= 0 and legal[-1] < state.num_distinct_actions()
    if state.current_player() == CHANCE:
        assert legal == [0]
        return
    assert len(legal) > 1, "a forced move was left to the player"
    if state.phase == state_module.DRAW:
        assert legal == ([1, 2] if state.discard else [1])
        # After STALL_TURNS idle turns the draw from the stock is forced (or, with the
        # house rule stall_rule, the hand has ended): never a choice then.
        assert state.idle_turns < STALL_TURNS
    if state.taken >= 0:
        assert act.discard_action(state.taken) not in legal


def brute_blocked(state: RummyState) -> None:
    """The detection's conditions, checked the slow way, on the live cards."""
    live = live_cards(state.hands, state.stock, state.discard, state.reshuffles > 0)
    outside = [c for c in range(52) if live >> c & 1]
    assert not any(m >> c & 1 for m in state.melds for c in outside)
    for card in outside:
        for meld in state.melds:
            assert not is_meld(meld | 1 << card), f"{card_str(card)} fits a meld"
    if any(h.bit_count() > 1 for h in state.hands):
        for trio in itertools.combinations(outside, 3):
            assert not is_meld(sum(1 << c for c in trio)), "three outside cards form a meld"


def play_on_without_detection(state: RummyState, seat: int, rng: random.Random) -> None:
    """From a stalemate detected at the start of ``seat``'s turn, play random continuations
    with the detection switched off: nobody may go out (the hand ends when the stock runs
    out twice)."""
    # The engine's own switch: patching its functions would not reach a compiled engine.
    state_module.DETECT_BLOCKED = False
    try:
        for _ in range(3):
            copy = state.clone()
            copy.winner = -1
            copy.stalemate = ""
            copy._start_turn(seat, [])
            for _ in range(2_000):
                if copy.stalemate or copy.winner >= 0 or copy.is_terminal():
                    break
                for event in copy.apply(rng.choice(copy.legal_actions())):
                    assert event[0] != "goes_out", "a player went out after a stalemate"
            else:
                raise AssertionError("the continuation did not end")
            assert copy.winner < 0
    finally:
        state_module.DETECT_BLOCKED = True


def snapshot(state: RummyState) -> Any:
    return state_snapshot(state, "hands", "stock", "discard", "melds", "taken")


def hand_bound(state: RummyState) -> int:
    """The most turns the hand being played can last (before its deal: a dealt hand's)."""
    n = len(state.names)
    if state.hand_no == 0 or state.phase == state_module.HAND_OVER:
        return max_turns(n, 52 - 1 - n * cards_per_player(n), 0)
    table = sum(m.bit_count() for m in state.melds)
    return max_turns(n, len(state.stock) + 1, table)


def run_checks(state: RummyState, seed: int, *, max_hands: int = 6) -> dict[str, int]:
    """Play ``state`` to its end with random legal actions, checking everything."""
    rng = random.Random(seed)
    all_events: list[Event] = []
    stats = {"detected": 0, "stock": 0, "out": 0, "hands": 0}
    steps_in_hand = turns_in_hand = 0
    hand = state.hand_no
    bound = hand_bound(state)
    check_cards(state)
    check_legal(state)
    while not state.is_terminal():
        if state.hand_no != hand:
            hand = state.hand_no
            steps_in_hand = turns_in_hand = 0
            bound = hand_bound(state)
            if hand > max_hands:
                state.request_end()
        steps_in_hand += 1
        assert steps_in_hand <= MAX_ACTIONS_PER_TURN * (bound + 1), f"hand {hand}: {state!r}"
        legal = state.legal_actions()
        if rng.random() < 0.05:
            before = snapshot(state)
            bad = rng.choice([a for a in range(act.NUM_ACTIONS) if a not in legal])
            with pytest.raises(IllegalActionError):
                state.apply(bad)
            assert snapshot(state) == before
        if rng.random() < 0.05:
            seat = rng.choice([None, *range(len(state.names))])
            twin = permute_unseen(state, seat, rng)
            assert twin.view(seat) == state.view(seat)
            assert twin.observation(seat) == state.observation(seat)
        action = legal[0] if rng.random() < 0.5 else rng.choice(legal)
        events = state.apply(action)
        all_events.extend(events)
        check_cards(state)
        check_legal(state)
        for seat in (None, *range(len(state.names))):
            for event in visible_events(events, seat):
                index = PRIVATE_EVENTS.get(event[0])
                assert index is None or event[index] == seat
        for event in events:
            if event[0] in ("draw_stock", "draw_discard"):
                turns_in_hand += 1
                assert turns_in_hand <= bound, f"hand {hand} passed {bound} turns"
            if event[0] == "stalemate":
                assert event[1] != STALLED or state.rules.stall_rule, "a stall without the rule"
                stats["detected" if event[1] == state_module.BLOCKED else "stock"] += 1
                if event[1] == state_module.BLOCKED:
                    brute_blocked(state)
                    discards = [e[1] for e in events if e[0] == "discard"]
                    n = len(state.names)
                    seat = (discards[-1] + 1) % n if discards else (state.dealer + 1) % n
                    play_on_without_detection(state, seat, rng)
                else:
                    assert state.reshuffles == 1 or not state.discard
            elif event[0] == "goes_out":
                stats["out"] += 1
                assert state.hands[event[1]] == 0
            elif event[0] == "hand_over":
                stats["hands"] += 1
    record = state.record()
    fresh = replay(record)
    assert fresh.record() == record and fresh.scores == state.scores
    again = RummyState(state.rules, state.setup, state.seed)
    replayed: list[Event] = []
    for index, action in enumerate(record["actions"]):
        if record["end_requested_after"] == index:
            again.request_end()
        replayed.extend(again.apply(action))
    assert replayed == all_events
    check_seats_events("rummy", all_events, list(state.names))
    return stats


@settings(max_examples=100)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    one_meld=st.booleans(),
    target=st.one_of(st.none(), st.integers(1, 80)),
    stall_rule=st.booleans(),
)
def test_random_matches(
    seed: int, players: int, one_meld: bool, target: int | None, stall_rule: bool
) -> None:
    rules = Rules(target=target, one_meld_per_turn=one_meld, stall_rule=stall_rule)
    state = RummyState.new_game(NAMES[:players], rules, seed)
    note(repr(rules))
    run_checks(state, seed)


def setup_of(
    players: int,
    rng: random.Random,
    hands: dict[str, list[int]],
    stock: list[int],
    discard: list[int],
    melds: list[int],
) -> dict[str, Any]:
    """The setup (``setup_from_dict``'s) of a position made of these cards, the dealer
    drawn from ``rng``: what the position makers below answer."""

    def text(cards: list[int]) -> list[str]:
        return [card_str(c) for c in cards]

    return {
        "players": NAMES[:players],
        "dealer": rng.randrange(players),
        "hands": {name: text(cards) for name, cards in hands.items()},
        "stock": text(stock),
        "discard": text(discard),
        "melds": [text(cards_of(m)) for m in melds],
    }


def late_position(rng: random.Random, players: int) -> dict[str, Any]:
    """A random late-game position: many melds on the table, small hands, a short stock."""
    order = list(range(len(CATALOGUE)))
    rng.shuffle(order)
    table = 0
    melds = []
    wanted = rng.randint(3, 16)
    for index in order:
        meld = CATALOGUE[index]
        room = 52 - (table | meld).bit_count() >= 3 * players + 2
        if room and not meld & table and rng.random() < 0.5:
            melds.append(meld)
            table |= meld
            if len(melds) == wanted:
                break
    outside = cards_of(FULL_DECK & ~table)
    rng.shuffle(outside)
    hands = {}
    for name in NAMES[:players]:
        size = rng.choice([1, 1, 1, 2, 3])
        hands[name], outside = outside[:size], outside[size:]
    discard_size = rng.randint(0, min(3, len(outside)))
    discard, stock = outside[:discard_size], outside[discard_size:]
    return setup_of(players, rng, hands, stock, discard, melds)


def blocked_position(rng: random.Random, players: int) -> dict[str, Any] | None:
    """A position near the seed's stalemate: a few whole ranks are outside the melds, the
    ranks next to them are sets (so those outside cards fit nothing), the others runs or
    sets. Some sets lack a card, which is then outside and fits: the hand lives on until
    it is laid off (or not). Hands hold one or two cards. None if it needs > 17 melds."""
    outside_ranks = set(rng.sample(range(13), rng.randint(1, 3)))
    next_to = {r + d for r in outside_ranks for d in (-1, 1)} - outside_ranks
    next_to &= set(range(13))
    melds: list[int] = []
    outside = [card_at(s, r) for r in outside_ranks for s in range(4)]

    def add_set(rank: int) -> None:
        cards = [card_at(s, rank) for s in range(4)]
        if rng.random() < 0.25:
            outside.append(cards.pop(rng.randrange(4)))
        melds.append(sum(1 << c for c in cards))

    for rank in sorted(next_to):
        add_set(rank)
    free = [r for r in range(13) if r not in outside_ranks and r not in next_to]
    stretches: list[list[int]] = []
    for rank in free:
        if stretches and stretches[-1][-1] == rank - 1:
            stretches[-1].append(rank)
        else:
            stretches.append([rank])
    for stretch in stretches:
        if len(stretch) >= 3 and rng.random() < 0.8:
            melds.extend(sum(1 << card_at(s, r) for r in stretch) for s in range(4))
        else:
            for rank in stretch:
                add_set(rank)
    if len(melds) > 17 or len(outside) < players:
        return None
    rng.shuffle(outside)
    sizes = [1] * players if rng.random() < 0.6 else [rng.randint(1, 2) for _ in range(players)]
    if sum(sizes) > len(outside):
        sizes = [1] * players
    hands = {}
    for name, size in zip(NAMES, sizes, strict=False):
        hands[name], outside = outside[:size], outside[size:]
    split = rng.randint(0, len(outside))
    return setup_of(players, rng, hands, outside[:split], outside[split:], melds)


@settings(max_examples=400)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    one_meld=st.booleans(),
    near_blocked=st.booleans(),
    stall_rule=st.booleans(),
)
def test_late_positions(
    seed: int, players: int, one_meld: bool, near_blocked: bool, stall_rule: bool
) -> None:
    """Late-game positions reach reshuffles, stalemates and their detection far more often
    than whole matches do."""
    rng = random.Random(seed)
    data = blocked_position(rng, players) if near_blocked else late_position(rng, players)
    if data is None:
        return
    data["single_hand"] = True
    note(repr(data))
    rules = Rules(one_meld_per_turn=one_meld, stall_rule=stall_rule)
    state = RummyState(rules, setup_from_dict(data), seed)
    run_checks(state, seed)


def test_detection_is_reached() -> None:
    """The late positions do exercise the detection (else the soundness check is idle)."""
    detected = 0
    for seed in range(100):
        rng = random.Random(seed)
        data = blocked_position(rng, 2 + seed % 3)
        if data is None:
            continue
        data["single_hand"] = True
        state = RummyState(Rules(), setup_from_dict(data), seed)
        events = state.apply(0)
        detected += any(e[:2] == ("stalemate", state_module.BLOCKED) for e in events)
    assert detected >= 10
