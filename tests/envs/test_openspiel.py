"""The games in OpenSpiel: registration, game type and info, chance, random simulation
(OpenSpiel's own test, with serialization), returns, and ISMCTS through resampling."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest

import rummoli.envs.openspiel  # noqa: F401  (registers the games)
from rummoli.cards import card_str
from rummoli.engine.base import SetupError

NAMES = ("python_rummoli", "python_basic_rummy")


def test_both_games_are_registered_with_the_right_type() -> None:
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    for name in NAMES:
        kind = registered[name]
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert kind.provides_information_state_string and kind.provides_information_state_tensor
        assert kind.provides_observation_string and kind.provides_observation_tensor
    rummoli = registered["python_rummoli"]
    assert (rummoli.min_num_players, rummoli.max_num_players) == (2, 8)
    assert (
        registered["python_basic_rummy"].min_num_players,
        registered["python_basic_rummy"].max_num_players,
    ) == (2, 4)
    params = rummoli.parameter_specification
    assert {"players", "length", "dealer", "actions", "starting_chips", "bet_limit"} <= set(params)


def test_game_info_holds_true_bounds() -> None:
    game = pyspiel.load_game("python_rummoli(players=3,starting_chips=50)")
    assert game.num_players() == 3
    assert (game.min_utility(), game.max_utility()) == (-50.0, 100.0)
    assert game.utility_sum() == 0.0
    assert game.num_distinct_actions() == 112 + 2 * 151  # every chip amount, bid or raise
    compact = pyspiel.load_game("python_rummoli(players=3,actions=compact)")
    assert compact.num_distinct_actions() == 122
    rummy = pyspiel.load_game("python_basic_rummy")
    assert rummy.max_chance_outcomes() == 52
    assert (rummy.min_utility(), rummy.max_utility()) == (-680.0, 680.0)


def test_bad_parameters_are_named() -> None:
    with pytest.raises(SetupError, match="house rule widow"):
        pyspiel.load_game("python_rummoli(widow=sometimes)")
    with pytest.raises(SetupError, match="rounds >= 1"):
        pyspiel.load_game("python_rummoli(length=game)")
    with pytest.raises(SetupError, match="2 to 4 players"):
        pyspiel.load_game("python_basic_rummy(players=5)")


def test_the_deal_is_explicit_chance_a_card_at_a_time() -> None:
    game = pyspiel.load_game("python_rummoli(players=4,dealer=1)")
    state = game.new_initial_state()
    for drawn in range(52):
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - drawn
        assert all(p == pytest.approx(1 / (52 - drawn)) for _, p in outcomes)
        state.apply_action(outcomes[-1][0])  # aces of spades first, and so on downwards
    assert not state.is_chance_node()
    # Card i of the deck went to the (i mod 5)-th receiver from the dealer's left.
    hand_of_seat_2 = [card_str(51 - i) for i in range(0, 52, 5)]
    view = state.observation_string(2)
    assert all(card in view for card in hand_of_seat_2)


def test_terminal_and_chance_ids_are_openspiels() -> None:
    game = pyspiel.load_game("python_rummoli(players=2)")
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE == -1
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == pyspiel.PlayerId.TERMINAL == -4
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(
    "name",
    [
        "python_rummoli",
        "python_rummoli(players=3,actions=compact,bet_limit=pot_limit)",
        "python_rummoli(players=2,length=game,rounds=2,starting_chips=20)",
        "python_basic_rummy",
        "python_basic_rummy(players=3,length=game,max_hands=2,max_moves=100)",
    ],
)
def test_openspiels_random_simulation_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_serialize_and_clone_give_the_same_state() -> None:
    game = pyspiel.load_game("python_basic_rummy")
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(90):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = game.deserialize_state(state.serialize())
    clone = state.clone()
    pickled = pickle.loads(pickle.dumps(state))
    assert str(pickled) == str(state)
    for other in (copy, clone, pickled):
        assert other.history() == state.history()
        assert other.information_state_string(0) == state.information_state_string(0)
        np.testing.assert_array_equal(
            other.information_state_tensor(1), state.information_state_tensor(1)
        )
    clone.apply_action(
        clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0]
    )
    assert clone.history() != state.history()


def test_information_state_has_perfect_recall_and_the_tensor_its_size() -> None:
    game = pyspiel.load_game("python_rummoli(players=3)")
    state = game.new_initial_state()
    rng = random.Random(5)
    seen: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        info = state.information_state_string(0)
        lines = info.split("\n")[:-2]  # the last two lines: what it sees now
        assert lines[: len(seen)] == seen, "the information state forgot something"
        seen = lines
        assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
        assert len(state.observation_tensor(0)) == game.observation_tensor_size()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", NAMES)
def test_resampled_states_keep_the_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(6)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = differs = 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        player = state.current_player()
        if rng.random() < 0.5:
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            np.testing.assert_array_equal(
                other.information_state_tensor(player), state.information_state_tensor(player)
            )
            assert other.legal_actions() == state.legal_actions()
            checked += 1
            differs += other.history() != state.history()
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked and differs, "resampling never changed a hidden card"


@pytest.mark.parametrize("name", NAMES)
def test_openspiels_ismcts_plays_a_game(name: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name + "(max_moves=60)" if "rummy" in name else name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 5.0, 8, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(0.0)
