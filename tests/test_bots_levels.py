"""The basic and strong computer players: legal, repeatable, blind to hidden cards, and
sensible where a rule of thumb says what to do.

The strong bot's inference is checked two ways: every fact it infers is true of the real
deal (soundness), and every deal it samples keeps those facts and everything else the
observation says. The facts are recomputed here from the laid cards, independently of
:mod:`rummoli.bots.stops.knowledge`.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import bot_moves, new_console, permute_unseen, run_play_scripted
from rummoli.bots import LEVELS, Bot, Decision, ask_bot, make_bot
from rummoli.bots.stops.basic import FOLD_CODE, BasicBot, bet_policy
from rummoli.bots.stops.knowledge import infer
from rummoli.bots.stops.rollout import Table, pick_lead
from rummoli.bots.stops.strong import StrongBot, _play_round
from rummoli.cards import (
    BLACK_MASK,
    FULL_DECK,
    NUM_RANKS,
    RED_MASK,
    card_str,
    cards_of,
    parse_card,
    parse_cards,
)
from rummoli.cli import app
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.engine.rng import SeededRandom
from rummoli.games.rummoli import Rules, RummoliState, setup_from_dict
from rummoli.games.stops import actions as act
from rummoli.games.stops.betting import Betting
from rummoli.games.stops.state import AUCTION, PLAY
from rummoli.games.stops.view import Observation
from rummoli.poker import hand_key
from rummoli.tui.stops.play import play_game

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
#: Few samples: the same code paths as the real strong bot, at a fraction of the time.
QUICK = {"widow": 6, "auction": 6, "betting": 6, "play": 6}

RULE_SETS: list[dict[str, Any]] = [
    {},
    {"poker": "showdown"},
    {"bet_limit": "pot_limit", "widow": "exchange_only", "cant_lead_fine": 2},
    {"bet_limit": 4, "must_claim": True, "deadlock": "any_colour"},
    {"lead": "lowest_of_any_suit", "switch_lead": "any_suit_of_colour", "widow": "none"},
    {"preset": "rulebook_method_2", "ace_of_spades": False, "short_ante": "pay_what_you_can"},
    {"preset": "rulebook_method_1", "must_claim": True, "deadlock": "any_colour"},
]


def quick_strong(seed: int) -> Bot:
    return StrongBot(seed, samples=QUICK)


def new_game(players: int, rules: dict[str, Any], seed: int, rounds: int = 2) -> RummoliState:
    table = Rules.from_dict({"rounds": rounds, "starting_chips": 40, **rules})
    return RummoliState.new_game(NAMES[:players], table, seed)


def basic_bots(players: int) -> dict[int, Bot]:
    """A basic bot in every seat: the other players of the tests that watch whole games."""
    return {s: make_bot("basic", s) for s in range(players)}


def play_out(state: RummoliState, bots: dict[int, Bot]) -> list[Decision]:
    """Play to the end; ``ask_bot`` refuses any illegal answer."""
    return [decision for _, decision in bot_moves(state, bots)]


def test_levels_are_registered() -> None:
    assert list(LEVELS) == ["random", "basic", "strong"]
    assert isinstance(make_bot("basic", 1), BasicBot)
    assert isinstance(make_bot("strong", 1), StrongBot)


@pytest.mark.parametrize("index", range(len(RULE_SETS)))
def test_basic_and_strong_play_legally_under_house_rules(index: int) -> None:
    rules = RULE_SETS[index]
    players = (2, 3, 4, 5, 8, 4, 3)[index]
    levels = ["basic", "strong", "random"]
    bots: dict[int, Bot] = {}
    for seat in range(players):
        level = levels[seat % 3]
        bots[seat] = quick_strong(seat) if level == "strong" else make_bot(level, seat)
    state = new_game(players, rules, seed=index, rounds=3)
    decisions = play_out(state, bots)
    assert state.is_terminal()
    assert state.total_chips() == 40 * players
    assert any(d.reason for d in decisions)


def test_the_real_strong_bot_plays_a_whole_game() -> None:
    """Default samples, default rules, four seats: what a player meets."""
    bots: dict[int, Bot] = {s: make_bot(("strong", "basic")[s % 2], s) for s in range(4)}
    state = new_game(4, {}, seed=11, rounds=1)
    decisions = play_out(state, bots)
    assert state.is_terminal() and decisions


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_decisions_repeat_with_the_seed(level: str) -> None:
    def game(seed: int) -> list[Decision]:
        factory = quick_strong if level == "strong" else BasicBot
        bots: dict[int, Bot] = {s: factory(seed + s) for s in range(4)}
        return play_out(new_game(4, {}, seed=3), bots)

    assert game(1) == game(1)
    if level == "strong":  # sampled values (in the reasons) differ with the seed
        assert [d.reason for d in game(1)] != [d.reason for d in game(2)]


# ---------------------------------------------------------------------- inference


def stops_and_leads(
    laid: tuple[tuple[int, int], ...],
) -> list[tuple[int, int, int, int]]:
    """(stopper, stop card, leader, led card) for every stop followed by a lead."""
    out = []
    for (stopper, stop), (leader, card) in itertools.pairwise(laid):
        if stop % NUM_RANKS == NUM_RANKS - 1 or card != stop + 1:
            out.append((stopper, stop, leader, card))
    return out


def expected_facts(obs: Observation) -> tuple[int, dict[int, int]]:
    """Cards that must be in the widow, and cards each seat cannot hold, recomputed from
    the laid cards (stops, and the duty to lead passing over seats)."""
    widow = 0
    void: dict[int, int] = {s: 0 for s in obs.in_round}
    order = list(obs.in_round)
    for stopper, stop, leader, card in stops_and_leads(obs.laid):
        if stop % NUM_RANKS != NUM_RANKS - 1 and not obs.laid_mask >> (stop + 1) & 1:
            widow |= 1 << (stop + 1)
        colour = RED_MASK if (stop < 13 or stop >= 39) else BLACK_MASK
        if (1 << card) & colour:
            seat = stopper
            while seat != leader:
                void[seat] |= colour
                seat = order[(order.index(seat) + 1) % len(order)]
    return widow, void


def check_deal(obs: Observation, hands: list[int], widow: int) -> None:
    """A deal agrees with everything the observation says and the laid cards imply."""
    me = obs.seat
    assert me is not None
    assert hands[me] == obs.hand
    everything = widow
    for seat in obs.in_round:
        assert hands[seat].bit_count() == obs.card_counts[seat]
        assert not hands[seat] & obs.laid_mask
        assert not everything & hands[seat]
        everything |= hands[seat]
    assert widow.bit_count() == obs.widow_count
    assert everything | obs.laid_mask == FULL_DECK
    if obs.widow_taker == me:
        assert widow == obs.known_widow
    for seat, five in obs.shown:
        assert hands[seat] & five == five & ~obs.laid_mask
        # The five shown were his best: no card he holds makes a better five with them.
        for card in cards_of(hands[seat] & ~five):
            assert hand_key(five | 1 << card) <= hand_key(five)
    must_widow, void = expected_facts(obs)
    assert widow & must_widow == must_widow
    for seat, cards in void.items():
        assert not hands[seat] & cards


@pytest.mark.parametrize("index", range(len(RULE_SETS)))
def test_inferences_hold_for_the_real_deal_and_every_sample(index: int) -> None:
    rng = SeededRandom(index)
    checked = 0
    inferred_widow = 0
    for game in range(6):
        players = (3, 4, 5, 2, 6, 8)[game]
        state = new_game(players, RULE_SETS[index], seed=100 * index + game, rounds=2)
        for seat, _ in bot_moves(state, basic_bots(players)):
            obs = state.observation(seat)
            knowledge = infer(obs)
            # Soundness: the real deal keeps every inferred fact.
            assert knowledge.consistent(list(state.hands), state.widow)
            check_deal(obs, list(state.hands), state.widow)
            for _ in range(3):
                hands, widow = knowledge.sample(rng)
                check_deal(obs, hands, widow)
                assert knowledge.consistent(hands, widow)
            inferred_widow += knowledge.widow_from_stops.bit_count()
            checked += 1
    assert checked > 10
    if RULE_SETS[index].get("widow") != "none":
        assert inferred_widow  # the stop rule did fire somewhere


def stop_position() -> tuple[RummoliState, int]:
    """Ann leads 2H, 3H; 4H is in the widow: stop. Ann holds no black card, nor does Bob:
    the duty to lead black passes to Cy, who chooses between 2C and 2S."""
    hands = {
        "Ann": ["2H", "3H", "5H", "6H", "7H", "8H", "9H", "TD"],
        "Bob": ["3D", "4D", "5D", "6D", "7D", "8D", "TH"],
        "Cy": ["2C", "2S", "3C", "5S", "9C", "JS", "KC"],
    }
    used = {c for cards in hands.values() for c in cards}
    widow = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA") if c not in used]
    data = {"players": ["Ann", "Bob", "Cy"], "dealer": 2, "hands": {**hands, "widow": widow}}
    rules = Rules(widow="none", poker="showdown")
    state = RummoliState(rules, setup_from_dict(data, 100), seed=0)
    while state.current_player() == CHANCE:
        state.apply(CHANCE_ACTION)
    return state, 2


def test_stops_and_duty_passes_shape_every_sample() -> None:
    state, cy = stop_position()
    assert state.current_player() == cy
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["2C", "2S"]
    obs = state.observation(cy)
    knowledge = infer(obs)
    four_hearts = parse_card("4H")
    assert knowledge.widow_from_stops == 1 << four_hearts
    rng = SeededRandom(1)
    for _ in range(200):
        hands, widow = knowledge.sample(rng)
        assert widow >> four_hearts & 1
        assert not hands[0] & BLACK_MASK and not hands[1] & BLACK_MASK
        # Ann's and Bob's best five were shown: those cards stay where they were shown.
        for seat, five in obs.shown:
            assert hands[seat] & five == five & ~obs.laid_mask
    decision = StrongBot(5).choose(obs, list(obs.legal))
    assert decision.action in obs.legal and decision.reason


# ---------------------------------------------------------------------- no peeking


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_hidden_cards_do_not_change_a_decision(level: str) -> None:
    """Shuffle every card the deciding seat cannot see among the places it cannot see:
    the decision, made with the same seed, must not change."""
    rng = random.Random(4)
    factory = quick_strong if level == "strong" else BasicBot
    compared = 0
    for game in range(5):
        state = new_game(4, RULE_SETS[game], seed=40 + game, rounds=2)
        for seat, _ in bot_moves(state, basic_bots(4)):
            if len(state.legal_actions()) > 1:
                twin = permute_unseen(state, seat, rng)
                assert twin.observation(seat) == state.observation(seat)
                if twin.hands != state.hands or twin.widow != state.widow:
                    mine = ask_bot(factory(compared), state, seat)
                    theirs = ask_bot(factory(compared), twin, seat)
                    assert mine == theirs
                    compared += 1
    assert compared > 10


# ---------------------------------------------------------------------- rules of thumb


def betting_position(ann: str) -> tuple[RummoliState, Observation]:
    """Three players, Cy deals, no widow; Ann (left of the dealer) opens the betting."""
    ann_cards = ann.split()
    rest = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA") if c not in ann_cards]
    data = {
        "players": ["Ann", "Bob", "Cy"],
        "dealer": 2,
        "hands": {
            "Ann": ann_cards,
            "Bob": rest[0:14],
            "Cy": rest[14:28],
            "widow": rest[28:],
        },
    }
    state = RummoliState(Rules(widow="none"), setup_from_dict(data, 100), seed=0)
    while state.current_player() == CHANCE:
        state.apply(CHANCE_ACTION)
    assert state.current_player() == 0
    return state, state.observation(0)


def facing_a_bet(obs: Observation, bet: int) -> tuple[Observation, list[int]]:
    """The same position as if Ann had checked and Bob and Cy had then bet ``bet`` each
    (Ann to answer): the public history says so too, since the strong bot replays it."""
    base = obs.codec.raise_base
    legal = [act.CALL, act.FOLD, *range(base + 2 * bet, base + obs.chips[0] + 1)]
    board = (obs.board[0] + 2 * bet, *obs.board[1:])
    chips = (obs.chips[0], obs.chips[1] - bet, obs.chips[2] - bet)
    faced = dataclasses.replace(
        obs,
        bets=(0, bet, bet),
        high_bet=bet,
        board=board,
        chips=chips,
        legal=tuple(legal),
        bet_history=((0, "check", 0), (1, "raise", bet), (2, "call", bet)),
    )
    return faced, legal


FOUR_ACES = "AC AD AH AS 2C 4D 6H 8S 9C JH"
NOTHING = "2C 3D 4H 6S 7C 8D TH QS 9D JC"  # no pair, no straight, no flush


def test_basic_bets_four_of_a_kind_and_raises_a_bet() -> None:
    _, obs = betting_position(FOUR_ACES)
    opening = BasicBot(1).choose(obs, list(obs.legal))
    assert opening.action >= obs.codec.raise_base, opening
    faced, legal = facing_a_bet(obs, 10)
    answer = BasicBot(1).choose(faced, legal)
    assert answer.action >= faced.codec.raise_base, answer
    assert "four of a kind" in answer.reason


def test_basic_folds_a_hopeless_hand_to_a_big_bet() -> None:
    _, obs = betting_position(NOTHING)
    assert BasicBot(1).choose(obs, list(obs.legal)).action == act.CHECK
    faced, legal = facing_a_bet(obs, 40)
    assert BasicBot(1).choose(faced, legal).action == act.FOLD


def test_strong_folds_nothing_and_raises_four_aces_facing_a_bet() -> None:
    _, weak = betting_position(NOTHING)
    faced, legal = facing_a_bet(weak, 40)
    assert StrongBot(2).choose(faced, legal).action == act.FOLD
    _, strong = betting_position(FOUR_ACES)
    faced, legal = facing_a_bet(strong, 10)
    assert StrongBot(2).choose(faced, legal).action != act.FOLD


def test_basic_leads_the_card_that_continues_its_own_run() -> None:
    state, cy = stop_position()
    obs = state.observation(cy)
    # Cy holds 2C 3C (a run of two) and 2S alone: 2C lays two cards.
    decision = BasicBot(0).choose(obs, list(obs.legal))
    assert decision.action == act.lay_action(parse_card("2C"))
    assert "lays 2" in decision.reason


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_a_space_is_always_claimed(level: str) -> None:
    bot = make_bot(level, 3)
    for seed in range(30):
        state = new_game(3, {"must_claim": True}, seed=seed, rounds=1)
        for seat, _ in bot_moves(state, basic_bots(3)):
            legal = state.legal_actions()
            claims = [a for a in legal if act.CLAIM_BASE <= a < act.BID_BASE]
            if claims and state.phase == PLAY:
                decision = ask_bot(bot, state, seat)
                claimed = act.lay_card(decision.action)
                if any(act.lay_card(c) == claimed for c in claims):
                    assert decision.action >= act.CLAIM_BASE
                    return
    pytest.fail("no claim decision came up")


def test_basic_exchanges_a_poor_hand_and_keeps_a_good_one() -> None:
    poor = parse_cards(["2C", "5C", "9C", "3D", "7D", "JC", "4H", "8H", "KS", "6S"])
    good = parse_cards(["AC", "AD", "AH", "2C", "3C", "4C", "5C", "6C", "KS", "QS"])
    for cards, expected in ((poor, act.EXCHANGE), (good, act.KEEP)):
        mask = sum(1 << c for c in cards)
        _state, obs = betting_position(FOUR_ACES)
        widow_phase = dataclasses.replace(
            obs, phase="widow", hand=mask, legal=(act.KEEP, act.EXCHANGE), widow_count=10
        )
        assert BasicBot(0).choose(widow_phase, [act.KEEP, act.EXCHANGE]).action == expected


# ---------------------------------------------------------------------- terminal play


def test_play_takes_a_level_per_opponent() -> None:
    code, text = run_play_scripted(seed=2, opponents="strong, random")
    assert code == 0, text
    assert "Bea (Expert), Cy (Beginner)" in text
    assert "Game over" in text


@pytest.mark.parametrize(
    ("level", "opponents", "message"),
    [
        ("genius", None, "unknown bot level 'genius'; levels are random, basic, strong"),
        ("basic", "strong", "names 1 level for 2 computer players"),
        ("basic", "strong,wizard", "unknown bot level 'wizard'"),
    ],
)
def test_bad_levels_are_refused(level: str, opponents: str | None, message: str) -> None:
    code, text = run_play_scripted(seed=2, level=level, opponents=opponents)
    assert code == 2
    assert message in text


def test_a_hint_shows_the_strong_suggestion_and_changes_nothing() -> None:
    def game(answers: list[str]) -> tuple[RummoliState, str, list[int]]:
        state = new_game(3, {}, seed=9, rounds=1)
        bots: dict[int, Bot] = {s: make_bot("basic", s) for s in (1, 2)}
        console, out = new_console()
        hands: list[int] = []

        def read_line(prompt: str) -> str:
            hands.append(state.hands[0] | state.laid_mask)
            return answers.pop(0) if answers else "1"

        play_game(state, console, read_line, bots)
        return state, out.getvalue(), hands

    plain, _, _ = game([])
    hinted, text, seen = game(["?", "hint", "1"])
    assert hinted.actions == plain.actions
    hints = [line for line in text.splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 2
    # The hint names only cards the human may see (its hand, laid cards).
    visible = {card_str(c) for c in cards_of(seen[0])}
    for word in " ".join(hints).replace("(", " ").replace(")", " ").replace(":", " ").split():
        if len(word) == 2 and word[0] in "23456789TJQKA" and word[1] in "CDHS":
            assert word in visible


def test_the_cli_takes_levels_and_answers_a_hint() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "-p", "3", "--rounds", "1", "--seed", "5", "--level", "strong"],
        input="?\n" + "1\n" * 300,
    )
    assert result.exit_code == 0, result.output
    assert "Bea (Expert), Cy (Expert)" in result.output
    assert "Hint: " in result.output
    result = CliRunner().invoke(app, ["play", "--opponents", "basic,basic", "--seed", "1"])
    assert result.exit_code == 2
    assert "one level per computer player" in " ".join(result.output.split())


# ---------------------------------------------------------------------- the rollout betting


def reference_betting(
    table: Table,
    betting: Betting,
    chips: list[int],
    board: list[int],
    keys: dict[int, int],
    pct: dict[int, float],
    rng: SeededRandom,
) -> int:
    """The rollout betting loop written with the engine's own Betting methods: the
    inlined loop of :meth:`Table.finish_betting` must do exactly the same."""
    order = table.in_round
    while True:
        seat = betting.next_seat(chips)
        if seat < 0:
            break
        betting.seat = seat
        owed = betting.high - betting.committed[seat]
        totals = betting.raise_range(seat, chips, board[0])
        low, top = (totals.start, totals.stop - 1) if totals else (1, 0)
        if table.wild_bet[seat]:
            plain = 1 if owed == 0 else 2
            pick = rng.below(plain + len(totals))
            if pick >= plain:
                board[0] += betting.put_in(seat, totals[pick - plain], chips)
            elif owed == 0:
                betting.acted[seat] = True
            elif pick == 0:
                total = min(betting.high, betting.committed[seat] + chips[seat])
                board[0] += betting.put_in(seat, total, chips)
            else:
                betting.folded[seat] = True
            continue
        live = sum(1 for s in order if not betting.folded[s])
        answer = bet_policy(pct[seat] ** (live - 1), owed, board[0], betting.high, low, top)
        if answer == FOLD_CODE and owed > 0:
            betting.folded[seat] = True
        elif answer <= 0 and owed == 0:
            betting.acted[seat] = True
        else:
            total = (
                answer if answer > 0 else min(betting.high, betting.committed[seat] + chips[seat])
            )
            board[0] += betting.put_in(seat, total, chips)
    seat, uncalled = betting.take_back_uncalled()
    if uncalled:
        chips[seat] += uncalled
        board[0] -= uncalled
    contenders = betting.contenders()
    if len(contenders) == 1:
        chips[contenders[0]] += board[0]
        board[0] = 0
        return contenders[0]
    leader = -1
    for amount, eligible in betting.pots(board[0] - sum(betting.committed)):
        best = max(keys[s] for s in eligible)
        winners = [s for s in eligible if keys[s] == best]
        for s in winners:
            chips[s] += amount // len(winners)
            board[0] -= amount // len(winners)
        leader = winners[0] if leader < 0 else leader
    return leader


@pytest.mark.parametrize("limit", ["no_limit", "pot_limit", 3])
def test_rollout_betting_follows_the_engine_rules(limit: str | int) -> None:
    rng = SeededRandom(7)
    compared = 0
    for game in range(12):
        players = 2 + game % 5
        state = new_game(players, {"bet_limit": limit}, seed=game, rounds=2)
        bots: dict[int, Bot] = {s: make_bot("random", s) for s in range(players)}
        for seat, _ in bot_moves(state, bots):
            obs = state.observation(seat)
            if obs.phase == "betting":
                table = Table(obs.plan, obs.in_round, obs.dealer, players, obs.trump)
                hands, _ = infer(obs).sample(rng)
                keys, pct = table.strengths(hands)
                base = table.betting_from_history(obs.bet_history, seat)
                real = state.betting
                assert real is not None
                assert (base.committed, base.folded, base.acted, base.seat) == (
                    real.committed,
                    real.folded,
                    real.acted,
                    real.seat,
                ), "the betting position rebuilt from the history is not the engine's"
                assert (base.high, base.last_raise, base.bets_made) == (
                    real.high,
                    real.last_raise,
                    real.bets_made,
                )
                for trial in range(4):
                    table.wild_bet = [rng.random() < 0.4 for _ in range(players)]
                    results = []
                    for run in (reference_betting, None):
                        chips, board = list(obs.chips), list(obs.board)
                        betting = base.copy()
                        betting.put_in(seat, min(obs.high_bet, obs.bets[seat] + chips[seat]), chips)
                        board[0] += betting.committed[seat] - obs.bets[seat]
                        generator = SeededRandom(trial)
                        if run is None:
                            table.rng = generator
                            leader = table.finish_betting(betting, chips, board, keys, pct)
                        else:
                            leader = run(table, betting, chips, board, keys, pct, generator)
                        results.append((leader, chips, board))
                    assert results[0] == results[1]
                    compared += 1
    assert compared > 50


def _basic_bots_play_until(state: RummoliState, reached: Callable[[], bool]) -> Observation:
    """Let basic bots play ``state`` until ``reached()``; the observation of the seat then
    to act, for the opponent-model tests to vary."""
    bots = basic_bots(len(state.chips))
    while not reached():
        seat = state.current_player()
        action = CHANCE_ACTION if seat == CHANCE else ask_bot(bots[seat], state, seat).action
        state.apply(action)
    return state.observation(state.current_player())


def test_the_opponent_model_learns_wild_bids_and_forgets_them_next_game() -> None:
    state = new_game(4, {"pay_card_blocks_exchange": False}, seed=1, rounds=3)
    obs = _basic_bots_play_until(state, lambda: state.phase == AUCTION)
    me = obs.seat
    other = next(s for s in obs.in_round if s not in (me, obs.dealer))
    bot = StrongBot(1)
    before = bot.wildness(other)
    wild = dataclasses.replace(
        obs, auction_high=60, auction_high_bidder=other, auction_history=((other, 60),)
    )
    bot.choose(wild, list(obs.legal))
    after = bot.wildness(other)
    assert after[0] > 0.9 and before[0] < 0.5  # one bid of 60 chips: nearly sure
    assert after[1] == before[1]  # bidding and betting are separate traits
    # The same bot in another game (earlier round, other seat) starts afresh.
    fresh = dataclasses.replace(obs, round_no=1, seat=other, hand=obs.hand, legal=obs.legal)
    bot.choose(
        dataclasses.replace(fresh, auction_high_bidder=-1, auction_high=0, auction_history=()),
        list(obs.legal),
    )
    assert bot.wildness(other) == before


def test_modest_bids_and_exchanges_are_evidence_of_a_careful_bidder() -> None:
    state = new_game(4, {"pay_card_blocks_exchange": False}, seed=1, rounds=3)
    obs = _basic_bots_play_until(state, lambda: state.phase == AUCTION)
    me = obs.seat
    other = next(s for s in obs.in_round if s not in (me, obs.dealer))
    prior = StrongBot(1).wildness(other)[0]
    modest = StrongBot(1)
    modest.choose(
        dataclasses.replace(
            obs, auction_high=3, auction_high_bidder=other, auction_history=((other, 3),)
        ),
        list(obs.legal),
    )
    assert modest.wildness(other)[0] < prior / 2
    # A dealer seen exchanging his hand is less likely to bid at random.
    dealer = obs.dealer
    exchanged = StrongBot(1)
    exchanged.choose(dataclasses.replace(obs, widow_taker=dealer), list(obs.legal))
    assert exchanged.wildness(dealer)[0] < prior
    assert exchanged.wildness(other)[0] == prior


def test_a_raise_no_careful_player_makes_is_evidence_of_random_betting() -> None:
    state = new_game(4, {}, seed=3, rounds=3)
    # BETTING (phase 3), someone to bet
    obs = _basic_bots_play_until(state, lambda: state.phase == 3 and state.current_player() >= 0)
    me = obs.seat
    assert me is not None and obs.high_bet == 0
    other = next(s for s in obs.in_round if s != me and not obs.folded[s])
    baseline = StrongBot(1)  # what the round showed so far (its auction) is evidence too
    baseline.choose(obs, list(obs.legal))
    before = baseline.wildness(other)

    def raised_to(total: int) -> Observation:
        bets = list(obs.bets)
        bets[other] = total
        board = list(obs.board)
        board[0] += total
        return dataclasses.replace(
            obs,
            bets=tuple(bets),
            board=tuple(board),
            high_bet=total,
            bet_history=(*obs.bet_history, (other, "raise", total)),
        )

    pot = obs.board[0]
    careful = StrongBot(1)  # the basic rule bets up to 1.4 times the pot
    careful.choose(raised_to(pot + 1), [act.CALL, act.FOLD])
    assert careful.wildness(other) == before
    wild = StrongBot(1)
    wild.choose(raised_to(min(obs.chips[other], 3 * pot + 5)), [act.CALL, act.FOLD])
    assert wild.wildness(other)[1] > before[1]
    assert wild.wildness(other)[0] == before[0]


# ---------------------------------------------------------------------- the rollout Rummoli phase


def engine_play_out(state: RummoliState) -> None:
    """Finish the round in the engine: every choice by the rollout rule (which may know
    where every card is), every space claimed."""
    while state.current_player() >= 0:
        legal = state.legal_actions()
        claims = [a for a in legal if a >= act.CLAIM_BASE]
        cards = sorted({act.lay_card(a) for a in legal})
        card = pick_lead(state.hands[state.current_player()], cards, state.owner)
        claim = act.claim_action(card)
        state.apply(claim if claim in claims else act.lay_action(card))


@pytest.mark.parametrize("index", range(len(RULE_SETS)))
def test_rollout_rummoli_phase_plays_as_the_engine(index: int) -> None:
    """From every card decision of real games, the simulator and the engine, both taking
    the rollout rule's choices, end the round with the same chips and board."""
    compared = 0
    for game in range(5):
        players = (2, 3, 4, 6, 8)[game]
        state = new_game(players, RULE_SETS[index], seed=300 + 10 * index + game, rounds=2)
        for seat, _ in bot_moves(state, basic_bots(players)):
            if state.phase == PLAY:
                engine = state.clone()
                owner = list(state.owner)
                engine_play_out(engine)
                obs = state.observation(seat)
                table = Table(obs.plan, obs.in_round, obs.dealer, players, obs.trump)
                chips, board = list(state.chips), list(state.board)
                legal_cards = sorted({act.lay_card(a) for a in state.legal_actions()})
                card = pick_lead(state.hands[seat], legal_cards, owner)
                laid = state.laid
                p1s, p1c = laid[-1] if laid else (-1, -1)
                p2s, p2c = laid[-2] if len(laid) > 1 else (-1, -1)
                hands = list(state.hands)
                table.run(hands, list(owner), chips, board, seat, card, p1s, p1c, p2s, p2c)
                assert (chips, board) == (engine.chips, engine.board)
                compared += 1
    assert compared >= 3


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"lead": "lowest_of_any_suit", "switch_lead": "any_suit_of_colour"},
        {"deadlock": "any_colour", "cant_lead_fine": 1, "ace_of_spades": False},
    ],
)
def test_rollout_round_from_the_deal_plays_as_the_engine(rules: dict[str, Any]) -> None:
    """Showdown and no widow: the whole round is the deal, the showdown and the Rummoli
    phase, so the simulator's round must end exactly as the engine's."""
    for seed in range(12):
        players = 2 + seed % 7
        state = new_game(players, {"poker": "showdown", "widow": "none", **rules}, seed, 1)
        chips, board = list(state.chips), list(state.board)
        state.apply(CHANCE_ACTION)  # cut, ante, deal, showdown, forced cards
        before = state.clone()
        for seat in state.in_round:  # the ante, as the engine took it
            chips[seat] -= len(board)
        board = [b + len(state.in_round) for b in board]
        engine_play_out(state)
        table = Table(state.plan, before.in_round, before.dealer, players, state.trump)
        hands = list(before.hands)
        for seat, card in before.laid:  # the cards the engine laid before any decision
            hands[seat] |= 1 << card
        _play_round(table, hands, before.widow, chips, board, 0)
        assert (chips, board) == (state.chips, state.board), seed
