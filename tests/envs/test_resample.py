"""``resample_from_infostate`` never fails: a scan of every house-rule set, the fallback
when the game's sampler always fails, and the facts the Rummoli sampler adds."""

from __future__ import annotations

import random

import pytest
from helpers import some_decisions, table_for

from rummoli.envs.adapters import adapter_for
from rummoli.envs.replay import SAME, SAMPLER, WALK
from rummoli.envs.resample_scan import house_rule_sets, scan
from rummoli.envs.stops import resample as stops_resample
from rummoli.envs.table import Table

SETS = [(game, params) for game in ("rummoli", "rummy") for params in house_rule_sets(game)]


def test_the_scan_covers_every_house_rule_and_table_size() -> None:
    for game in ("rummoli", "rummy"):
        description = adapter_for(game).description()
        sets = house_rule_sets(game)
        named = {name for params in sets for name in params}
        assert {rule.name for rule in description.house_rules} <= named
        sizes = {params.get("players", description.default_players) for params in sets}
        assert sizes == set(range(description.min_players, description.max_players + 1))
        assert any(params.get("length") == "game" for params in sets)


@pytest.mark.parametrize(("game", "params"), SETS, ids=[f"{g}-{p}" for g, p in SETS])
def test_a_scan_of_every_house_rule_set_finds_no_failure(game: str, params: dict) -> None:
    result = scan(game, params, positions=24, seed=len(str(params)))
    assert result.failures == []
    assert sum(result.sources.values()) == result.positions == 24
    assert result.changed, "no resample ever changed the deal"


def test_the_fallback_walk_keeps_the_information_state_when_the_sampler_always_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    for game in ("rummoli", "rummy"):
        adapter = adapter_for(game)
        monkeypatch.setattr(type(adapter), "resample_round", lambda *args: None)
        sources: dict[str, int] = {}
        moved = 0
        for table in some_decisions(game, {"players": 3}, rng, 12):
            seat = table.current_player()
            other, source = table.resample_from(seat, rng)
            sources[source] = sources.get(source, 0) + 1
            assert other.information_state_string(seat) == table.information_state_string(seat)
            assert other.legal_actions() == table.legal_actions()
            moved += other.history != table.history
        assert set(sources) <= {WALK, SAME} and sources.get(WALK), (game, sources)
        assert moved, f"{game}: the walk never moved a hidden card"
        monkeypatch.undo()


def test_a_walk_with_nothing_to_swap_returns_the_deal_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = some_decisions("rummoli", {}, random.Random(1), 1)[0]
    adapter = adapter_for("rummoli")
    monkeypatch.setattr(type(adapter), "resample_round", lambda *args: None)
    monkeypatch.setattr(type(adapter), "hidden_cards", lambda *args: 0)
    seat = table.current_player()
    other, source = table.resample_from(seat, random.Random(0))
    assert source == SAME and other is not table and other.history == table.history


def test_the_rummoli_samplers_added_facts_are_true_of_the_real_deal() -> None:
    # The resampler's Rummoli facts (bidders held no pay card, a stop by the widow on the
    # last card laid, the showdown's best five) must hold for the deal itself: else the
    # sampler would draw from a set that leaves the real deal out.
    rng = random.Random(5)
    checked = 0
    for params in ({"players": 3, "poker": "showdown"}, {}, {"players": 5}):
        for table in some_decisions("rummoli", params, rng, 40):
            engine = table.engine
            for seat in table.engine.observation(None).in_round:  # type: ignore[union-attr]
                obs = engine.observation(seat)  # type: ignore[union-attr]
                knowledge = stops_resample.with_facts(
                    stops_resample.infer(obs), obs, table.round_log()
                )
                hands = list(engine.hands)  # type: ignore[union-attr]
                assert knowledge.consistent(hands, engine.widow)  # type: ignore[union-attr]
                laid = [0] * table.num_players
                for who, card in obs.laid:
                    laid[who] |= 1 << card
                assert stops_resample.shows_the_same(obs, hands, laid)
                checked += 1
    assert checked > 100


def test_a_resample_is_drawn_from_the_samplers_deals_mostly() -> None:
    # The fallback is for the rare position: at the default rules, nearly every resample
    # is the game's sampler's own draw (so ISMCTS sees independent deals).
    for game in ("rummoli", "rummy"):
        result = scan(game, {}, positions=60, seed=2)
        assert result.sources[SAMPLER] >= 54, (game, result.sources)


def test_resampling_before_the_deal_is_done_copies_the_table() -> None:
    table: Table = table_for("rummoli", {"dealer": 0})
    table.apply(table.chance_outcomes()[0][0])
    other, source = table.resample_from(1, random.Random(0))
    assert source == SAME and other.history == table.history
