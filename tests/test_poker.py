"""Tests for the poker evaluator against a brute-force reference and against treys.

The reference evaluator below is deliberately naive: it ranks one five-card hand by
counting ranks and checking the textbook definitions, and a bigger hand by trying every
five-card subset.  The fast evaluator shares no code or tables with it.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummoli.cards import cards_of, mask_of, parse_cards
from rummoli.poker import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    HandValue,
    best_five,
    category_name,
    category_of,
    checked_hand_key,
    describe,
    evaluate,
    hand_key,
)

# --------------------------------------------------------------------------- reference

RefKey = tuple[int, tuple[int, ...]]


def ref_five(cards: tuple[int, ...] | list[int]) -> RefKey:
    """(category, tie-break ranks) of exactly five cards, by the textbook rules."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = [c % 13 for c in cards]
    counts = Counter(ranks)
    # Ranks ordered by (how many, rank), both descending: quads/trips/pairs first.
    order = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    is_flush = len({c // 13 for c in cards}) == 1
    distinct = sorted(counts)
    straight_top = None
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        straight_top = distinct[4]
    elif distinct == [0, 1, 2, 3, 12]:  # A-2-3-4-5: the five is the top card
        straight_top = 3
    if straight_top is not None and is_flush:
        return (8, (straight_top,))
    if shape == [4, 1]:
        return (7, order)
    if shape == [3, 2]:
        return (6, order)
    if is_flush:
        return (5, order)
    if straight_top is not None:
        return (4, (straight_top,))
    if shape == [3, 1, 1]:
        return (3, order)
    if shape == [2, 2, 1]:
        return (2, order)
    if shape == [2, 1, 1, 1]:
        return (1, order)
    return (0, order)


def ref_best(cards: list[int]) -> RefKey:
    return max(ref_five(five) for five in combinations(cards, 5))


def cards_from(text: str) -> list[int]:
    return parse_cards(text.split())


def key_of(text: str) -> int:
    return hand_key(mask_of(cards_from(text)))


# --------------------------------------------------------------- property: vs reference


def _examples_for(n: int) -> int:
    """Fewer examples for big hands: the reference tries up to 65,780 subsets each."""
    if n <= 9:
        return 60
    if n <= 13:
        return 25
    if n <= 18:
        return 6
    return 2


def _check_against_reference(cards: list[int]) -> None:
    mask = mask_of(cards)
    key = hand_key(mask)
    expected = ref_best(cards)
    assert category_of(key) == expected[0]
    assert category_name(key) == CATEGORY_NAMES[expected[0]]
    five = best_five(mask)
    assert len(set(five)) == 5
    assert mask_of(five) & ~mask == 0, "best_five must pick cards from the hand"
    assert ref_five(five) == expected
    assert hand_key(mask_of(five)) == key
    value = evaluate(mask)
    assert value == HandValue(key, CATEGORY_NAMES[expected[0]], tuple(five))


@pytest.mark.parametrize("n", range(5, 27))
def test_category_and_best_five_match_reference(n: int) -> None:
    @settings(
        max_examples=_examples_for(n),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.permutations(range(52)))
    def check(deck: list[int]) -> None:
        _check_against_reference(list(deck[:n]))

    check()


@pytest.mark.parametrize("n", range(5, 27))
def test_key_order_matches_reference_order(n: int) -> None:
    """Keys must order hands exactly as the reference does, ties included."""
    rng = random.Random(1000 + n)
    count = 40 if n <= 9 else (12 if n <= 13 else 4)
    hands = [rng.sample(range(52), n) for _ in range(count)]
    # Make ties likely: the same ranks in other suits usually tie.
    hands += [[(c + 13 * rng.randrange(1, 4)) % 52 for c in h] for h in hands[: count // 2]]
    hands = [h for h in hands if len(set(h)) == n]
    pairs = [(hand_key(mask_of(h)), ref_best(h)) for h in hands]
    for key_a, ref_a in pairs:
        for key_b, ref_b in pairs:
            assert (key_a < key_b) == (ref_a < ref_b)
            assert (key_a == key_b) == (ref_a == ref_b)


def test_every_five_card_shape_against_reference() -> None:
    """Every category on five cards, with a hand built to be that category."""
    rng = random.Random(7)
    seen = set()
    for _ in range(4000):
        five = rng.sample(range(52), 5)
        expected = ref_five(five)
        assert category_of(hand_key(mask_of(five))) == expected[0]
        seen.add(expected[0])
    assert seen >= {0, 1, 2, 3}


# ----------------------------------------------------------------------- vs treys


def _treys_cards(cards: list[int]) -> list[int]:
    from treys import Card

    return [Card.new("23456789TJQKA"[c % 13] + "cdhs"[c // 13]) for c in cards]


def test_order_matches_treys_for_5_6_7_cards() -> None:
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    rng = random.Random(20240601)
    hands: list[list[int]] = []
    for n in (5, 6, 7):
        hands += [rng.sample(range(52), n) for _ in range(2500)]
    # Ties across suits: the same ranks, suits rotated (keeps straight flushes possible).
    hands += [[(c + 13) % 52 for c in h] for h in hands[:1500]]
    # Rare categories: straight flushes, quads and full houses on purpose.
    for _ in range(300):
        top, suit = rng.randrange(3, 13), rng.randrange(4)
        run = [suit * 13 + (top - i) % 13 for i in range(5)]
        rest = rng.sample([c for c in range(52) if c not in run], rng.randrange(0, 3))
        hands.append(run + rest)
        rank = rng.randrange(13)
        quads = [s * 13 + rank for s in range(4)]
        hands.append(quads + rng.sample([c for c in range(52) if c % 13 != rank], 3))
    ours = [hand_key(mask_of(h)) for h in hands]
    theirs = [evaluator.evaluate(_treys_cards(h[:2]), _treys_cards(h[2:])) for h in hands]
    # Sorted by our key, treys' rank (lower = better) must never go up, and must change
    # exactly where our key changes: that is the whole order, ties included.
    order = sorted(range(len(hands)), key=ours.__getitem__)
    for i, j in pairwise(order):
        assert (ours[i] < ours[j]) == (theirs[i] > theirs[j]), (hands[i], hands[j])
        assert (ours[i] == ours[j]) == (theirs[i] == theirs[j]), (hands[i], hands[j])
    # And on plain random pairs, to state the property directly.
    for _ in range(20000):
        i, j = rng.randrange(len(hands)), rng.randrange(len(hands))
        assert (ours[i] > ours[j]) == (theirs[i] < theirs[j])
        assert (ours[i] == ours[j]) == (theirs[i] == theirs[j])
    # The category names agree too (treys capitalises, and names a royal flush apart).
    for k, r in zip(ours, theirs, strict=True):
        name = evaluator.class_to_string(evaluator.get_rank_class(r)).lower()
        assert category_name(k) == name.replace("royal flush", "straight flush")


# ------------------------------------------------------------------- written examples


def test_wheel_is_lowest_straight_and_beats_trips() -> None:
    wheel = key_of("AC 2D 3H 4S 5C")
    assert category_of(wheel) == STRAIGHT
    assert wheel > key_of("AC AD AH KS QC")
    assert key_of("2D 3H 4S 5C 6D") > wheel
    assert wheel == min(
        key_of(" ".join(f"{r}{s}" for r, s in zip(run, "CDHSC", strict=True)))
        for run in ["A2345", "23456", "34567", "TJQKA", "9TJQK"]
    )


def test_six_high_straight_beats_wheel_with_more_cards() -> None:
    assert key_of("2D 3H 4S 5C 6D AS KH") > key_of("AC 2D 3H 4S 5C KD KH")
    assert key_of("AC 2D 3H 4S 5C 6D") == key_of("2D 3H 4S 5C 6D 9H")


def test_wheel_straight_flush_loses_to_six_high_straight_flush() -> None:
    wheel_sf = key_of("AH 2H 3H 4H 5H")
    six_sf = key_of("2S 3S 4S 5S 6S")
    assert category_of(wheel_sf) == category_of(six_sf) == STRAIGHT_FLUSH
    assert six_sf > wheel_sf > key_of("AS AD AH AC KS")


def test_no_wrap_around_straight() -> None:
    key = key_of("QC KD AH 2S 3C")
    assert category_of(key) == HIGH_CARD
    assert category_of(key_of("JD QC KD AH 2S 3C 4H")) == HIGH_CARD
    assert category_of(key_of("QH KH AH 2H 3H")) == FLUSH


def test_flush_beats_straight() -> None:
    assert key_of("2H 4H 6H 8H TH") > key_of("TC JD QH KS AC")
    assert category_of(key_of("2H 4H 6H 8H TH 7C 9D")) == FLUSH


def test_two_pair_kicker_decides() -> None:
    low = key_of("KC KD 7H 7S 4C")
    high = key_of("KH KS 7C 7D 5C")
    assert category_of(low) == category_of(high) == TWO_PAIR
    assert high > low
    # The best two of three pairs play, the third pair's rank may still be the kicker.
    assert key_of("KC KD 7H 7S 4C 4D 2C") == key_of("KH KS 7C 7D 4H 3C 2S")
    assert key_of("KC KD 7H 7S 4C 4D QC") > key_of("KH KS 7C 7D 4H 3C JS")


def test_pair_trips_quads_kickers() -> None:
    assert key_of("9C 9D AH 5S 3C") > key_of("9H 9S KH QS JC")
    assert key_of("9C 9D 9H AS 3C") > key_of("9C 9D 9S KS QC")
    assert key_of("9C 9D 9H 9S 3C") < key_of("9C 9D 9H 9S 4C")
    assert category_of(key_of("9C 9D 9H 9S 3C 3D 3H")) == FOUR_OF_A_KIND


def test_full_house_ranks() -> None:
    kings_full = key_of("KC KD KH 7S 7C")
    assert category_of(kings_full) == FULL_HOUSE
    assert kings_full > key_of("QC QD QH AS AC")
    assert kings_full < key_of("KC KD KH 8S 8C")
    # Two trips: the higher trips with the lower as the pair.
    assert key_of("KC KD KH 7S 7C 7D") == kings_full
    assert key_of("KC KD KH 7S 7C 7D 8H 8S") == key_of("KC KD KH 8S 8C")


def test_big_hand_picks_straight_flush_over_quads() -> None:
    rng = random.Random(3)
    sf = cards_from("5D 6D 7D 8D 9D")
    quads = cards_from("AC AD AH AS")
    # Filler without fours to tens: no other straight flush can appear, so the nine-high
    # one in diamonds is the only right answer (twos, threes, jacks to kings: 20 cards).
    filler = [c for c in range(52) if c % 13 not in range(2, 9) and c % 13 != 12]
    for _ in range(20):
        hand = sf + quads + rng.sample(filler, 17)
        mask = mask_of(hand)
        value = evaluate(mask)
        assert len(hand) == 26
        assert value.category == "straight flush"
        assert value.cards == tuple(cards_from("9D 8D 7D 6D 5D"))
        assert value.key == key_of("5D 6D 7D 8D 9D")


def test_ties_are_equal_regardless_of_suit() -> None:
    assert key_of("AC KD 9H 7S 4C") == key_of("AS KH 9C 7D 4D")
    assert key_of("2H 4H 6H 8H TH") == key_of("2C 4C 6C 8C TC")
    assert key_of("TC JD QH KS AC") == key_of("TS JS QS KS AH")
    assert key_of("AC KD 9H 7S 4C 2D 3D") == key_of("AS KH 9C 7D 4D")


def test_category_order_on_examples() -> None:
    examples = [
        "AC KD 9H 7S 4C",
        "2C 2D 3H 4S 5D",
        "2C 2D 3H 3S 4D",
        "2C 2D 2H 3S 4D",
        "2C 3D 4H 5S 6D",
        "2C 3C 4C 5C 7C",
        "2C 2D 2H 3S 3D",
        "2C 2D 2H 2S 3D",
        "2C 3C 4C 5C 6C",
    ]
    keys = [key_of(text) for text in examples]
    assert [category_of(k) for k in keys] == list(range(9))
    assert keys == sorted(keys)
    assert [category_name(k) for k in keys] == list(CATEGORY_NAMES)
    assert (HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND) == (0, 1, 2, 3)


def test_two_flush_suits_take_the_better_flush() -> None:
    hand = "2H 4H 6H 8H TH AC KC 9C 3C 5C 7D"
    key = key_of(hand)
    assert key == key_of("AC KC 9C 5C 3C")
    mask = mask_of(cards_from(hand))
    assert best_five(mask) == cards_from("AC KC 9C 5C 3C")
    # The same with trips and no pair (another branch of hand_key); there is also a
    # ten-high straight, and the hearts now have six cards.
    assert key_of(hand + " 7S 7H") == key


def test_best_five_tie_rule_prefers_high_suits() -> None:
    mask = mask_of(cards_from("AC AD AH KS KC KD 2C 3D 4H"))
    assert best_five(mask) == cards_from("AH AD AC KS KD")
    # Two suits with the same flush: the higher suit (spades over clubs) is chosen.
    both = mask_of(cards_from("2C 4C 6C 8C TC 2S 4S 6S 8S TS"))
    assert best_five(both) == cards_from("TS 8S 6S 4S 2S")
    wheel = mask_of(cards_from("AC 2D 3H 4S 5C 5S"))
    assert best_five(wheel) == cards_from("5S 4S 3H 2D AC")


def test_evaluate_rejects_too_few_cards() -> None:
    with pytest.raises(ValueError):
        evaluate(mask_of(cards_from("AC KD 9H 7S")))
    with pytest.raises(ValueError):
        best_five(0)
    with pytest.raises(ValueError):
        checked_hand_key(1 << 52 | 0b11111)
    assert checked_hand_key(0b11111) == hand_key(0b11111)


def test_describe() -> None:
    assert describe(key_of("KC KD KH 7S 7C")) == "full house, kings over sevens"
    assert describe(key_of("AC 2D 3H 4S 5C")) == "straight, five high"
    assert describe(key_of("TS JS QS KS AS")) == "straight flush, ace high (royal flush)"
    assert describe(key_of("AC AD KH KS 6C")) == "two pair, aces and kings, six kicker"
    assert describe(key_of("6C 6D 6H 6S 2C")) == "four of a kind, sixes, kicker 2"
    assert describe(key_of("9C 9D AH 5S 3C")) == "pair, nines, kickers A-5-3"
    assert describe(key_of("2H 4H 6H 8H TH")) == "flush, ten high (T-8-6-4-2)"


def test_all_cards_and_bounds() -> None:
    full = (1 << 52) - 1
    assert hand_key(full) == key_of("TS JS QS KS AS")
    assert cards_of(mask_of(best_five(full))) == sorted(cards_from("TS JS QS KS AS"))
