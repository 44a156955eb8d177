"""The games in OpenSpiel: registration, game type and info, chance, random simulation
(OpenSpiel's own test, with serialization), returns, and ISMCTS through resampling."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import rummoli.envs.openspiel  # noqa: F401  (registers the games)
from rummoli.cards import card_str
from rummoli.engine.base import SetupError
from rummoli.envs.adapters import adapter_for, spiel_code
from rummoli.envs.resample_scan import house_rule_sets
from rummoli.envs.table import NOW

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


def _spiel_params(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """House-rule settings as OpenSpiel's parameters (each of its declared type)."""
    rules = {r.name: r for r in adapter_for(game).description().house_rules}
    return {k: spiel_code(rules[k], v) if k in rules else v for k, v in params.items()}


RULE_SETS = [(game, params) for game in ("rummoli", "rummy") for params in house_rule_sets(game)]


@pytest.mark.parametrize(("game", "params"), RULE_SETS, ids=[f"{g}-{p}" for g, p in RULE_SETS])
def test_openspiels_random_simulation_with_serialization_for_every_house_rule_set(
    game: str, params: dict[str, Any]
) -> None:
    name = "python_" + adapter_for(game).env_name
    loaded = pyspiel.load_game(name, _spiel_params(game, params))
    # A whole match, serialized and read back at every step (each read replays the
    # history), is the suite's longest check of OpenSpiel's: one such match is enough.
    sims = 1 if params.get("length") == "game" else 2
    pyspiel.random_sim_test(loaded, num_sims=sims, serialize=True, verbose=False)


def test_a_game_string_takes_every_parameter_of_its_declared_type() -> None:
    # bet_limit is a number in OpenSpiel (its choices 0 and -1): a fixed limit in a game
    # string loads, and the string OpenSpiel writes of the game loads again.
    game = pyspiel.load_game("python_rummoli(bet_limit=5,players=3,ace_of_spades=false)")
    assert game.config.rules["bet_limit"] == 5 and game.config.rules["ace_of_spades"] is False
    assert pyspiel.load_game("python_rummoli(bet_limit=-1)").config.rules["bet_limit"] == (
        "pot_limit"
    )
    assert pyspiel.load_game("python_rummoli(bet_limit=0)").config.rules["bet_limit"] == (
        "no_limit"
    )
    assert pyspiel.load_game(str(game)) == game
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal() and len(state.history()) < 70:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again == game and copy.history() == state.history()
    assert copy.information_state_string(1) == state.information_state_string(1)
    with pytest.raises(SetupError, match=r"-1 \(pot_limit\)"):
        pyspiel.load_game("python_rummoli(bet_limit=-2)")
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter bet_limit"):
        pyspiel.load_game("python_rummoli(bet_limit=pot_limit)")


@pytest.mark.parametrize("name", NAMES)
def test_games_pickle_and_come_back_equal(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 3})
    again = pickle.loads(pickle.dumps(game))
    assert again == game and str(again) == str(game)
    assert type(again).__qualname__ in ("RummoliGame", "BasicRummyGame")
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and copy.get_game() == game


def test_a_pickled_game_crosses_into_another_process() -> None:
    # multiprocessing and Ray ship a game by pickle to a process that has not imported
    # the environments: unpickling must register them.
    import subprocess
    import sys

    payload = pickle.dumps(pyspiel.load_game("python_basic_rummy(players=3)"))
    code = (
        "import pickle, sys; g = pickle.loads(sys.stdin.buffer.read()); "
        "print(g.num_players(), type(g).__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=payload, capture_output=True, check=True
    ).stdout.decode()
    assert out.split() == ["3", "BasicRummyGame"]


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
        lines = info.split(f"\n{NOW}\n")[0].split("\n")  # without what it sees now
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


@pytest.mark.parametrize(
    "name", [*NAMES, "python_rummoli(players=3,poker=showdown)", "python_rummoli(players=5)"]
)
def test_openspiels_ismcts_plays_a_game(name: str) -> None:
    # 3 players with a showdown: where resampling used to give up after the poker phase.
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name + "(max_moves=60)" if name == "python_basic_rummy" else name)
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


@pytest.mark.parametrize("params", [{}, {"players": 3}, {"players": 2, "starting_chips": 40}])
def test_max_game_length_bounds_a_stalling_table_tightly(params: dict[str, Any]) -> None:
    # Every seat stalls as long as the rules let it: bids a chip more, raises by a chip
    # just before the last raiser would be asked again, calls otherwise. The bound holds
    # and is not far above what they reach (it was four times looser).
    from rummoli.games.stops.actions import BID_BASE, CALL, CHECK

    game = pyspiel.load_game("python_rummoli", params)
    bound = game.max_game_length() - game.max_chance_nodes_in_history()
    rng = random.Random(3)
    longest = 0
    for _ in range(12):
        state = game.new_initial_state()
        raiser, decisions = -1, 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            engine = state.table.engine
            legal, me = state.legal_actions(), state.current_player()
            obs = engine.observation(None)
            raises = [a for a in legal if a >= engine.codec.raise_base]
            if obs.phase == "auction":
                bids = [a for a in legal if BID_BASE <= a < engine.codec.raise_base]
                action = bids[0] if bids else legal[0]
            elif obs.phase == "betting":
                order = list(obs.in_round)
                after = [order[(order.index(me) + k) % len(order)] for k in range(1, len(order))]
                nxt = next((s for s in after if not obs.folded[s] and obs.chips[s]), None)
                if raises and (raiser < 0 or nxt == raiser):
                    action, raiser = raises[0], me
                else:
                    action = CALL if CALL in legal else CHECK if CHECK in legal else legal[0]
            else:
                action = legal[0]
            state.apply_action(action)
            decisions += 1
        longest = max(longest, decisions)
    assert longest <= bound
    assert longest >= 0.35 * bound, (longest, bound)
