"""Rummy computer players: legal moves in whole matches, decisions that depend on the
observation only, the plan solver they share, and sensible choices in hand-made positions.

Positions are built like ``tests/test_rummy.py``'s: the named cards where they are, the
rest of the deck in the stock (after the stock cards named, which are on top). Ann sits in
seat 0 and plays first (Bob deals).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from conftest import card_mask, rummy_position
from rummoli.bots import GAME_LEVELS, BotError, Decision, ask_bot, make_bot
from rummoli.bots.rummy.basic import BasicRummyBot, usefulness
from rummoli.bots.rummy.hand import _lay_off, best_plan, forms_meld, outs
from rummoli.bots.rummy.strong import StrongRummyBot
from rummoli.cards import FULL_DECK, cards_of, parse_card
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.rummy import Rules, RummyState
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import CATALOGUE, hand_points, melds_in
from rummoli.games.rummy.view import RummyObservation


def position(rules: Rules | None = None, **changes: Any) -> RummyState:
    return rummy_position(rules, single_hand=True, **changes)


def play_turn(state: RummyState, bot: Any) -> list[Decision]:
    """Let ``bot`` play the whole turn of the player to move; its decisions."""
    seat = state.to_move
    decisions = []
    while state.to_move == seat:
        decision = ask_bot(bot, state, seat)
        decisions.append(decision)
        state.apply(decision.action)
    return decisions


class Spy:
    """Wraps a bot and checks that it is handed an observation, never the state."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.calls = 0

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        assert isinstance(observation, RummyObservation), type(observation)
        assert list(observation.legal) == legal
        self.calls += 1
        return self.bot.choose(observation, legal)  # type: ignore[no-any-return]


# ------------------------------------------------------------------ whole matches


def test_levels_are_registered_weakest_first() -> None:
    assert list(GAME_LEVELS["rummy"]) == ["random", "basic", "strong"]
    assert isinstance(make_bot("basic", 1, "rummy"), BasicRummyBot)
    assert isinstance(make_bot("strong", 1, "rummy"), StrongRummyBot)


def play_match(levels: list[str], seed: int, rules: Rules) -> tuple[RummyState, list[Spy]]:
    names = [f"P{i}" for i in range(len(levels))]
    state = RummyState.new_game(names, rules, seed)
    spies = [Spy(make_bot(level, seed * 10 + i, "rummy")) for i, level in enumerate(levels)]
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 20_000, f"the match does not end: {state!r}"
        if state.to_move == CHANCE:
            state.apply(CHANCE_ACTION)
            continue
        seat = state.to_move
        state.apply(ask_bot(spies[seat], state, seat).action)  # ask_bot checks legality
        assert state.cards_conserved()
    return state, spies


@pytest.mark.parametrize(
    ("levels", "rules"),
    [
        (["strong", "basic"], Rules(target=60)),
        (["basic", "strong", "random"], Rules(target=60)),
        (["strong", "basic", "random", "basic"], Rules(target=60, one_meld_per_turn=True)),
        (["basic", "basic"], Rules()),
        (["strong", "strong"], Rules(target=60, one_meld_per_turn=True)),
    ],
)
def test_bots_play_whole_matches_with_legal_moves(levels: list[str], rules: Rules) -> None:
    for seed in (1, 2):
        state, spies = play_match(levels, seed, rules)
        assert max(state.scores) >= state.target
        assert all(spy.calls > 0 for spy in spies)


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_same_seed_same_decisions(level: str) -> None:
    a, _ = play_match([level, "random", level], 5, Rules(target=50))
    b, _ = play_match([level, "random", level], 5, Rules(target=50))
    assert a.actions == b.actions and a.scores == b.scores


def permute_unseen(state: RummyState, seat: int, rng: random.Random) -> RummyState:
    """A copy in which the cards ``seat`` cannot see (other hands, the stock) are dealt
    differently, every count kept."""
    twin = state.clone()
    others = [s for s in range(len(twin.names)) if s != seat]
    pool = [c for s in others for c in cards_of(twin.hands[s])] + twin.stock
    rng.shuffle(pool)
    for s in others:
        count = twin.hands[s].bit_count()
        twin.hands[s] = sum(1 << c for c in pool[:count])
        pool = pool[count:]
    twin.stock = pool
    return twin


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_decisions_depend_on_the_observation_only(level: str) -> None:
    """Deal the unseen cards differently: a fresh bot decides the same everywhere."""
    rng = random.Random(3)
    state = RummyState.new_game(["A", "B", "C"], Rules(), 8)
    mover = [make_bot("basic", i, "rummy") for i in range(3)]
    checked = 0
    while not state.is_terminal() and checked < 60:
        if state.to_move == CHANCE:
            state.apply(CHANCE_ACTION)
            continue
        seat = state.to_move
        twin = permute_unseen(state, seat, rng)
        assert twin.hands[seat] == state.hands[seat]
        here = ask_bot(make_bot(level, 1, "rummy"), state, seat)
        there = ask_bot(make_bot(level, 1, "rummy"), twin, seat)
        assert here == there
        checked += 1
        state.apply(ask_bot(mover[seat], state, seat).action)
    assert checked == 60


def test_an_illegal_answer_is_refused() -> None:
    class Wrong:
        def choose(self, observation: Any, legal: list[int]) -> Decision:
            return Decision(act.NUM_ACTIONS - 1)

    state = RummyState.new_game(["A", "B"], Rules(), 1)
    state.apply(CHANCE_ACTION)
    with pytest.raises(BotError, match="not legal"):
        ask_bot(Wrong(), state, state.to_move)


# ------------------------------------------------------------------ the plan solver


def brute_force_key(hand: int, table: tuple[int, ...], most: int, taken: int) -> tuple[int, int]:
    """The least (deadwood cards, points) over every set of disjoint melds of ``hand`` (at
    most ``most``), the rest laid off greedily, the taken card counting one more."""
    melds = [CATALOGUE[i] for i in melds_in(hand)]
    best = (99, 999)
    for size in range(min(most, 4) + 1):
        for chosen in itertools.combinations(melds, size):
            used = 0
            for meld in chosen:
                if used & meld:
                    break
                used |= meld
            else:
                left, _ = _lay_off(hand & ~used, [*table, *chosen])
                count = left.bit_count() + (1 if taken >= 0 and left >> taken & 1 else 0)
                best = min(best, (count, hand_points(left)))
    return best


def test_plan_matches_brute_force() -> None:
    """On hands rich in melds (cards drawn from 20), with melds on the table, the house
    rule's bound and a taken card, the search finds the best plan a brute force finds."""
    rng = random.Random(5)
    deck = list(range(52))
    for _ in range(400):
        rng.shuffle(deck)
        cards = rng.sample(deck[:20], rng.choice([7, 8, 10, 11]))
        hand = sum(1 << c for c in cards)
        table = tuple(CATALOGUE[i] for i in melds_in(sum(1 << c for c in deck[20:32]))[:2])
        most = rng.choice([99, 1])
        taken = rng.choice([-1, cards[0]])
        plan = best_plan(hand, table, most, taken)
        count = plan.dead_count + (1 if taken >= 0 and plan.deadwood >> taken & 1 else 0)
        assert (count, plan.dead_points) == brute_force_key(hand, table, most, taken)
        assert len(plan.melds) <= most


def test_plan_finds_the_partition_with_least_deadwood() -> None:
    """7H fits the set and the run; the run A-4H with the set of four 7s leaves three."""
    plan = best_plan(
        card_mask("AH", "2H", "3H", "4H", "7C", "7D", "7S", "7H", "9S", "KD", "KS"), ()
    )
    assert sorted(plan.melds) == sorted(
        [card_mask("AH", "2H", "3H", "4H"), card_mask("7C", "7D", "7S", "7H")]
    )
    assert plan.deadwood == card_mask("9S", "KD", "KS")
    assert plan.dead_points == 29


def test_a_card_in_two_melds_goes_where_it_leaves_least() -> None:
    """5H 6H 7H 7C 7D: 7H makes either the run or the set; only one can be made."""
    plan = best_plan(card_mask("5H", "6H", "7H", "7C", "7D"), ())
    assert plan.dead_count == 2
    assert len(plan.melds) == 1


def test_plan_lays_off_in_chains_onto_the_table() -> None:
    table = (card_mask("4H", "5H", "6H"),)
    plan = best_plan(card_mask("8H", "7H", "2C"), table)
    assert plan.melds == ()
    assert plan.layoffs == ((parse_card("7H"), 0), (parse_card("8H"), 0))
    assert plan.deadwood == card_mask("2C")
    assert plan.goes_out()


def test_the_taken_card_cannot_be_the_last_discard() -> None:
    plan = best_plan(card_mask("2C", "3C", "4C", "KS"), (), taken=parse_card("KS"))
    assert plan.deadwood == card_mask("KS")
    assert not plan.goes_out(parse_card("KS"))
    assert best_plan(card_mask("2C", "3C", "4C", "KS"), ()).goes_out()


def test_one_meld_per_turn_bounds_the_plan() -> None:
    hand = card_mask("2C", "3C", "4C", "9D", "9H", "9S", "KS")
    assert best_plan(hand, ()).dead_count == 1
    assert best_plan(hand, (), max_melds=1).dead_count == 4


def test_outs_count_live_cards_only() -> None:
    """A pair of 9s waits for 9C or 9S (3 cards saved each: the set, then a discard), and
    2C 3C wait for AC or 4C (3 each); cards known elsewhere do not count."""
    hand = card_mask("9D", "9H", "2C", "3C", "KS")
    everything = FULL_DECK & ~hand
    total, _ = outs(hand, (), everything)
    assert total == 4 * 3
    total, _ = outs(hand, (), everything & ~card_mask("9C", "9S"))
    assert total == 2 * 3
    assert forms_meld(hand, parse_card("9S")) and not forms_meld(hand, parse_card("QH"))


def test_usefulness_of_a_card() -> None:
    hand = card_mask("9D", "9H", "8D", "KS")
    assert usefulness(parse_card("KS"), hand) == 0
    assert usefulness(parse_card("9D"), hand) == 2 + 2  # a pair, and 8D beside it


# ------------------------------------------------------------------ basic, by hand


def test_basic_takes_a_discard_that_completes_a_set() -> None:
    state = position(
        hands={"Ann": ["7C", "7D", "2S", "5H", "9C", "JD", "KS"], "Bob": ["3C", "4D", "8S"]},
        discard=["QH", "7H"],
    )
    decision = ask_bot(BasicRummyBot(0), state, 0)
    assert decision.action == act.DRAW_DISCARD


def test_basic_leaves_a_useless_discard() -> None:
    state = position(
        hands={"Ann": ["7C", "7D", "2S", "5H", "9C", "JD", "KS"], "Bob": ["3C", "4D", "8S"]},
        discard=["7H", "QH"],
    )
    assert ask_bot(BasicRummyBot(0), state, 0).action == act.DRAW_STOCK


def test_basic_goes_out_when_it_can() -> None:
    """Ann draws 8S: she melds 2C 3C 4C and 8D 8H 8S, lays KH off on the table's run
    9H TH JH QH and discards 5D, her last card."""
    state = position(
        hands={"Ann": ["2C", "3C", "4C", "8D", "8H", "KH", "5D"], "Bob": ["3S", "4D", "9S"]},
        melds=[["9H", "TH", "JH", "QH"]],
        stock=["8S"],
        discard=["QD"],
    )
    decisions = play_turn(state, BasicRummyBot(0))
    assert decisions[0].action == act.DRAW_STOCK
    assert state.winner == 0
    assert state.going_rummy  # nothing played before: one turn, double points
    assert state.hand_points[0] == 2 * hand_points(card_mask("3S", "4D", "9S"))


def test_basic_melds_when_far_from_going_out() -> None:
    state = position(
        hands={
            "Ann": ["2C", "3C", "4C", "5D", "9H", "JS", "KD", "QS", "6H", "8D"],
            "Bob": ["3S", "4D", "9S"],
        },
        stock=["TC"],
    )
    decisions = play_turn(state, BasicRummyBot(0))
    assert state.melds == [card_mask("2C", "3C", "4C")]
    assert act.is_discard_action(decisions[-1].action)


def test_basic_holds_its_melds_one_card_from_going_rummy() -> None:
    """Ann has not played: with 2C 3C 4C, 8D 8H 8S and two unmatched cards she keeps
    the melds in hand and discards the worse card, waiting to go out in one turn."""
    state = position(
        hands={"Ann": ["2C", "3C", "4C", "8D", "8H", "8S", "KD"], "Bob": ["3S", "4D", "9S"]},
        stock=["QS"],
    )
    decisions = play_turn(state, BasicRummyBot(0))
    assert state.melds == []
    assert [act.discard_of(d.action) for d in decisions] in (
        [parse_card("KD")],
        [parse_card("QS")],
    )


# ------------------------------------------------------------------ strong, by hand


def test_strong_goes_rummy_with_the_discard() -> None:
    state = position(
        hands={"Ann": ["2C", "3C", "4C", "8D", "8H", "KH", "5D"], "Bob": ["3S", "4D", "9S"]},
        melds=[["9H", "TH", "JH", "QH"]],
        discard=["8S"],
    )
    decisions = play_turn(state, StrongRummyBot(0))
    assert decisions[0].action == act.DRAW_DISCARD
    assert state.winner == 0 and state.going_rummy


def test_strong_holds_melds_early_in_the_hand() -> None:
    """Far from going out, with the others holding many cards, the strong bot keeps its
    run in hand for Going Rummy (the basic bot lays it down)."""
    hands = {
        "Ann": ["2C", "3C", "4C", "5D", "9H", "JS", "KD", "QS", "6H", "8D"],
        "Bob": ["3S", "4D", "9S", "TD", "2H", "5S", "7C", "JC", "AD", "6S"],
    }
    state = position(hands=hands, stock=["TC"])
    play_turn(state, StrongRummyBot(0))
    assert state.melds == []
    assert state.hands[0] & card_mask("2C", "3C", "4C") == card_mask("2C", "3C", "4C")


def test_strong_lays_down_when_another_player_is_about_to_go_out() -> None:
    """Bob holds one card: Ann's 30 points of melds are worth more on the table."""
    hands = {
        "Ann": ["TC", "JC", "QC", "KD", "KH", "KS", "2D", "5H", "9S", "AS"],
        "Bob": ["3S"],
    }
    state = position(hands=hands, stock=["7D"], melds=[["4C", "4D", "4S"]])
    play_turn(state, StrongRummyBot(0))
    assert card_mask("TC", "JC", "QC") in state.melds or card_mask("KD", "KH", "KS") in state.melds


def test_strong_melds_under_one_meld_per_turn() -> None:
    hands = {
        "Ann": ["2C", "3C", "4C", "5D", "9H", "JS", "KD", "QS", "6H", "8D"],
        "Bob": ["3S", "4D", "9S", "TD", "2H", "5S", "7C", "JC", "AD", "6S"],
    }
    state = position(Rules(one_meld_per_turn=True), hands=hands, stock=["TC"])
    play_turn(state, StrongRummyBot(0))
    assert state.melds == [card_mask("2C", "3C", "4C")]


def test_strong_remembers_which_discards_the_next_player_took() -> None:
    """Two players: Ann discards; Bob takes it. At her next turn Ann knows Bob holds it
    and counts it as dead."""
    state = position(
        hands={
            "Ann": ["2C", "5D", "9H", "JS", "KD", "QS", "6H"],
            "Bob": ["KC", "KH", "3S", "4D", "9S", "TD", "2H"],
        },
        stock=["8C"],
    )
    bot = StrongRummyBot(0)
    play_turn(state, bot)
    thrown = state.discard[-1]
    state.apply(act.DRAW_DISCARD)  # Bob takes it
    bob = [a for a in state.legal_actions() if act.is_discard_action(a)]
    state.apply(bob[-1])
    ask_bot(bot, state, 0)
    memory = bot._memory
    assert memory is not None
    assert memory.took == [0, 1 << thrown]
    # Ann now counts the card as dead: it is neither in the pile nor live.
    observation = state.observation(0)
    assert not StrongRummyBot._live(observation, memory) >> thrown & 1


def test_decision_reasons_are_given() -> None:
    state = position(
        hands={"Ann": ["7C", "7D", "2S", "5H", "9C", "JD", "KS"], "Bob": ["3C", "4D", "8S"]},
        discard=["QH", "7H"],
    )
    for bot in (BasicRummyBot(0), StrongRummyBot(0)):
        assert ask_bot(bot, state, 0).reason


def test_strong_avoids_feeding_the_next_player() -> None:
    """Bob took QC from the discard pile: KC (two from it in its suit) and QH (its rank)
    are dangerous to throw him, TD is not; so of her two unmatched ten-point cards Ann
    throws TD, not the KC she would throw otherwise."""
    state = position(
        hands={
            "Ann": ["2C", "3C", "4C", "7H", "8H", "9H", "KC", "TD"],
            "Bob": ["3S", "4D", "9S", "2H", "5S", "7C", "JC", "AD", "6S", "8D"],
        },
        stock=["5C"],
        discard=["QC"],
    )
    bot = StrongRummyBot(0)
    observation = state.observation(0)
    memory = bot._remember(observation)
    memory.took[1] = 1 << parse_card("QC")
    danger = [bot._danger(parse_card(c), observation, memory) for c in ("KC", "QH", "TD")]
    assert danger[0] > 0 and danger[1] > 0 and danger[2] == 0
    state.apply(act.DRAW_STOCK)
    decision = bot.choose(state.observation(0), state.legal_actions())
    assert decision.action == act.discard_action(parse_card("TD"))
    # Without that memory the two cards are alike, and KC goes (it leaves fewer outs).
    unaware = StrongRummyBot(0).choose(state.observation(0), state.legal_actions())
    assert unaware.action == act.discard_action(parse_card("KC"))
