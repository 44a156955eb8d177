"""The explicit-chance table against the engine: the same deal and the same decisions give
the same game; every card drawn is a chance outcome; settings are checked; returns are
zero-sum and within the bounds; resampling keeps what a seat knows."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pyspiel
import pytest
from helpers import SETTINGS, random_step, some_decisions, table_for

import rummoli.envs.openspiel  # noqa: F401
from rummoli.engine.base import CHANCE, CHANCE_ACTION, SetupError
from rummoli.envs.adapters import adapter_for
from rummoli.envs.table import ENGINE_CHANCE, PENDING, SETTLE, Table
from rummoli.games import registry
from rummoli.games.rummy import actions as rummy_actions


class Driver:
    """The table, or an OpenSpiel state over it, behind one small interface."""

    def __init__(self, table: Table, spiel: Any = None) -> None:
        self.table, self.spiel = table, spiel

    def apply(self, action: int) -> None:
        if self.spiel is not None:
            self.spiel.apply_action(action)
        else:
            self.table.apply(action)

    def legal(self) -> list[int]:
        return (
            list(self.spiel.legal_actions())
            if self.spiel is not None
            else self.table.legal_actions()
        )


def _driver(game: str, params: dict[str, Any], through_openspiel: bool) -> Driver:
    if not through_openspiel:
        return Driver(table_for(game, params))
    name = "python_" + adapter_for(game).env_name
    spiel = pyspiel.load_game(name, {k: v for k, v in params.items()}).new_initial_state()
    return Driver(spiel.table, spiel)


def _deal(driver: Driver, events: list[Any], players: int, widow: bool) -> None:
    """Feed the engine's deal (its dealer and hands) to the table, a card at a time."""
    dealer = next(e[1] for e in events if e[0] == "dealer")
    hands = {e[1]: sorted(c for c in range(52) if e[2] >> c & 1) for e in events if e[0] == "hand"}
    table = driver.table
    if table.phase == 0:  # the first dealer is chance
        driver.apply(dealer)
    receivers = [(dealer + 1 + i) % players for i in range(players)]
    if widow:  # Rummoli: the whole deck, the widow after the dealer
        rest = sorted(set(range(52)) - {c for h in hands.values() for c in h})
        piles = [hands.get(s, []) for s in receivers] + [rest]
        piles = [p for p in piles if p]
        for i in range(52):
            driver.apply(piles[i % len(piles)].pop(0))
    else:  # Rummy: the hands, then the upcard
        for i in range(sum(len(h) for h in hands.values())):
            driver.apply(hands[receivers[i % players]].pop(0))
        upcard = next(e[1] for e in events if e[0] == "upcard")
        driver.apply(upcard)


@pytest.mark.parametrize("through_openspiel", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_rummoli_round_is_the_engines_round(seed: int, through_openspiel: bool) -> None:
    players = 4
    engine = registry.new_game("rummoli", [f"p{s}" for s in range(players)], {"rounds": 1}, seed)
    driver = _driver("rummoli", {"players": players}, through_openspiel)
    _deal(driver, engine.apply(CHANCE_ACTION), players, widow=True)
    rng = random.Random(seed)
    description = registry.describe("rummoli")
    while not description.between_rounds(engine):
        legal = driver.legal()
        assert legal == engine.legal_actions()
        action = rng.choice(legal)
        driver.apply(action)
        engine.apply(action)
    table = driver.table
    assert table.is_terminal()
    assert table.carry == (tuple(engine.observation(None).chips), engine.observation(None).board)
    if through_openspiel:
        assert driver.spiel.returns() == table.returns()


@pytest.mark.parametrize("through_openspiel", [False, True])
@pytest.mark.parametrize("seed", [4, 5])
def test_a_rummy_match_is_the_engines_match(seed: int, through_openspiel: bool) -> None:
    """Every hand and stock draw of the engine's own match (its seeded deals, stock and
    reshuffles) fed to the table as chance outcomes: the same scores, hand by hand."""
    players = 2
    rules = {"target": 25}
    engine = registry.new_game("rummy", ["p0", "p1"], rules, seed)
    driver = _driver(
        "rummy",
        {**rules, "length": "game", "max_moves": 10_000, "max_hands": 50},
        through_openspiel,
    )
    table = driver.table
    rng = random.Random(seed)
    hands = 0
    events = engine.apply(CHANCE_ACTION)
    _deal(driver, events, players, widow=False)
    reshuffles = 0
    while not engine.is_terminal():
        if engine.current_player() == CHANCE:
            events = engine.apply(CHANCE_ACTION)
            if any(e[0] == "reshuffle" for e in events):
                assert table.phase == ENGINE_CHANCE
                reshuffles += 1
                driver.apply(next(e[2] for e in events if e[0] == "drew"))
            else:
                hands += 1
                assert table.carry == tuple(engine.observation(None).scores)
                _deal(driver, events, players, widow=False)
            continue
        legal = driver.legal()
        assert legal == engine.legal_actions()
        action = rng.choice(legal)
        driver.apply(action)
        if action == rummy_actions.DRAW_STOCK:
            assert table.phase == PENDING
            driver.apply(engine.stock[-1])  # type: ignore[attr-defined]
        engine.apply(action)
    assert table.is_terminal() and hands >= 1 and reshuffles >= 1
    assert table.carry == tuple(engine.observation(None).scores)


def test_every_card_drawn_from_the_stock_is_a_chance_outcome() -> None:
    rng = random.Random(8)
    for _ in range(3):
        table = table_for("rummy", {"players": 3})
        while not table.is_terminal():
            before = len(table.log)
            chance = table.is_chance() and table.engine is not None
            outcome = table.chance_outcomes()[0][0] if chance else None
            if chance:
                table.apply(outcome)  # type: ignore[arg-type]
            else:
                random_step(table, rng)
            drew = [e[2] for who, e in table.log[before:] if who < 0 and e[0] == "drew"]
            assert drew == ([outcome] if chance else []), "a card was drawn without chance"


def test_settings_are_checked_and_named() -> None:
    adapter = adapter_for("rummoli")
    with pytest.raises(SetupError, match="unknown Rummoli setting colour"):
        adapter.config({"colour": "red"})
    with pytest.raises(SetupError, match="length must be one of round, game"):
        adapter.config({"length": "forever"})
    with pytest.raises(SetupError, match="dealer must be -1"):
        adapter.config({"players": 3, "dealer": 3})
    with pytest.raises(SetupError, match="max_moves must be a whole number >= 1"):
        adapter_for("rummy").config({"max_moves": 0})
    with pytest.raises(SetupError, match="unknown game 'nosuchgame'"):
        adapter_for("nosuchgame")
    registry.register(
        dataclasses.replace(registry.describe("rummy"), name="copycat", title="Copycat")
    )
    try:
        with pytest.raises(SetupError, match="Copycat has no learning environment yet"):
            adapter_for("copycat")
    finally:
        registry.unregister("copycat")


@pytest.mark.parametrize("game", sorted(SETTINGS))
def test_returns_are_zero_sum_and_within_the_bounds(game: str) -> None:
    rng = random.Random(9)
    for params in SETTINGS[game]:
        config = adapter_for(game).config(params)
        low, high = adapter_for(game).utility_bounds(config)
        for _ in range(3):
            table = Table(config)
            decisions = 0
            while not table.is_terminal():
                decisions += not table.is_chance()
                assert table.returns() == [0.0] * config.players
                random_step(table, rng)
            returns = table.returns()
            assert sum(returns) == pytest.approx(0.0)
            assert all(low <= r <= high for r in returns), (params, returns)
            assert decisions <= adapter_for(game).max_decisions(config)


@pytest.mark.parametrize(
    ("game", "index"), [(g, i) for g, s in SETTINGS.items() for i in range(len(s))]
)
def test_a_resampled_table_keeps_the_seats_information_state(game: str, index: int) -> None:
    rng = random.Random(index)
    changed = 0
    for table in some_decisions(game, SETTINGS[game][index], rng, 6):
        seat = table.current_player()
        other = table.resample(seat, rng)
        assert other.information_state_string(seat) == table.information_state_string(seat)
        assert other.legal_actions() == table.legal_actions()
        changed += other.history != table.history
    assert changed, "resampling never changed the deal"


@pytest.mark.parametrize(("game", "index"), [(g, i) for g, s in SETTINGS.items() for i in range(2)])
def test_the_fast_round_builder_is_stored_game_of_the_setup(game: str, index: int) -> None:
    adapter = adapter_for(game)
    config = adapter.config(SETTINGS[game][index])
    rng = random.Random(index)
    carry = adapter.start_carry(config)
    cards = rng.sample(range(52), adapter.cards_per_deal(config, carry))
    fast = adapter.build_round(config, carry, 1, cards, 7)
    setup = adapter.round_setup(config, carry, 1, cards)
    # The rules as stored by this engine (with their version: stored rules without one
    # are the rules version 1's).
    slow = adapter.description().stored_game(adapter.rules_object(config).to_dict(), setup, 7)
    assert fast.record() == slow.record()
    while not fast.is_terminal():
        assert fast.legal_actions() == slow.legal_actions()
        assert fast.view(0) == slow.view(0)
        action = rng.choice(fast.legal_actions())
        assert fast.apply(action) == slow.apply(action)


def test_the_environments_deal_is_uniform_and_follows_its_seed() -> None:
    # The environments' reset draws a deal with envs/chance.py (compiled): every ordered
    # draw of k cards must be equally likely (a chi-square test over all 4 * 3 = 12
    # ordered pairs of 4 cards, 24,000 draws: 11 degrees of freedom, 31.3 is p = 0.001),
    # and a seed must deal the same cards again.
    from collections import Counter

    from rummoli.envs.chance import chance_generator, deal

    rng = chance_generator(11)
    draws = 24_000
    counts = Counter(tuple(deal(rng, [3, 17, 30, 51], 2)) for _ in range(draws))
    assert len(counts) == 12
    expected = draws / 12
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi_square < 31.3, counts
    whole = deal(chance_generator(5), list(range(52)), 52)
    assert sorted(whole) == list(range(52))
    assert deal(chance_generator(5), list(range(52)), 52) == whole
    assert deal(chance_generator(6), list(range(52)), 52) != whole
    with pytest.raises(ValueError, match="cannot deal 5 cards from 4"):
        deal(rng, [1, 2, 3, 4], 5)


@pytest.mark.parametrize("settlement", ["one_poker_hand", "poker_per_pot", "high_card"])
def test_a_whole_games_settlement_is_dealt_by_explicit_chance(settlement: str) -> None:
    # A whole Rummoli game ends by dealing for the board's chips: every card of it is a
    # chance node (each remaining card of a fresh deck per pot equally likely), so that
    # OpenSpiel's algorithms see it as unknown, and the engine settles with those cards.
    from rummoli.envs.chance import chance_generator

    config = adapter_for("rummoli").config(
        {"length": "game", "rounds": 2, "settlement": settlement, "dealer": 0}
    )
    rng = chance_generator(3)
    settled_games = 0
    for _ in range(12):
        table = Table(config)
        settle_nodes: list[int] = []
        while not table.is_terminal():
            if table.is_chance():
                outcomes = table.chance_outcomes()
                if table.phase == SETTLE:
                    settle_nodes.append(len(outcomes))
                    assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
                table.apply(outcomes[rng.below(len(outcomes))][0])
            else:
                legal = table.legal_actions()
                table.apply(legal[rng.below(len(legal))])
        events = [item for who, item in table.log if who < 0]
        per_card = 1 if settlement == "high_card" else 5
        shown = sum(1 for e in events if e[0] in ("settle_cut", "settle_hand")) * per_card
        assert len(settle_nodes) == shown
        if not shown:
            continue
        settled_games += 1
        # Each draw starts from a whole deck: 52 outcomes, then one fewer a card.
        assert settle_nodes[0] == 52
        assert all(b in (a - 1, 52) for a, b in itertools.pairwise(settle_nodes))
        # The cards the table dealt are the ones the settlement shows, in order: a cut
        # card, or a five-card hand, for each player in each pot.
        dealt = table.history[-shown:]
        shown_masks = [e[2] for e in events if e[0] in ("settle_cut", "settle_hand")]
        if settlement == "high_card":
            assert shown_masks == dealt
        else:
            hands = [sum(1 << c for c in dealt[i : i + 5]) for i in range(0, shown, 5)]
            assert shown_masks == hands
        # The returns are the engine's chips, and add up to zero.
        assert sum(table.returns()) == pytest.approx(0.0)
        again = Table.replay(config, table.history)
        assert again.returns() == table.returns() and again.log == table.log
    assert settled_games >= 6
