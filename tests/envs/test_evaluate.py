"""``rummoli evaluate``: duplicate deals, the agent in every seat, 95% intervals."""

from __future__ import annotations

import math
import statistics
import sys
import types

import pytest
from typer.testing import CliRunner

from rummoli import i18n
from rummoli.cli import app
from rummoli.envs.adapters import adapter_for
from rummoli.envs.policies import BotPolicy, first_legal, uniform_random
from rummoli.envs.table import Table
from rummoli.sim.evaluate import (
    DuplicateChance,
    EvaluationError,
    Figures,
    evaluate,
    load_agent,
    play_deal,
)

runner = CliRunner()


@pytest.mark.parametrize("game", ["rummoli", "rummy"])
def test_a_deterministic_policy_against_itself_scores_exactly_zero(game: str) -> None:
    # Duplicate deals: the same cards, first dealer and stock whoever sits where, so a
    # policy that always plays the same against copies of itself plays the same game
    # from every seat, and its average over the seats is the zero-sum game's mean: 0.
    config = adapter_for(game).config({"players": 3})
    values = evaluate(first_legal, first_legal, config, rounds=6, seed=1)
    assert values == [pytest.approx(0.0, abs=1e-9)] * 6
    # Not so for a policy that plays differently from the others (the test can fail).
    other = evaluate(uniform_random(2), first_legal, config, rounds=6, seed=1)
    assert any(abs(v) > 1e-9 for v in other)


def test_every_seating_of_a_deal_gets_the_same_cards() -> None:
    config = adapter_for("rummoli").config({})
    deals = []
    for _ in range(2):
        chance = DuplicateChance(17)
        table = Table(config, keep_log=False)
        while table.is_chance():
            table.apply(chance.pick([o for o, _ in table.chance_outcomes()]))
        deals.append(table.history[:])
    assert deals[0] == deals[1] and sorted(deals[0][1:]) == list(range(52))
    assert deals[0] != _deal_of(18, config)


def _deal_of(seed: int, config: object) -> list[int]:
    chance = DuplicateChance(seed)
    table = Table(config, keep_log=False)  # type: ignore[arg-type]
    while table.is_chance():
        table.apply(chance.pick([o for o, _ in table.chance_outcomes()]))
    return table.history[:]


def test_the_interval_is_196_standard_errors_of_the_deals() -> None:
    config = adapter_for("rummoli").config({"players": 3})
    values = [play_deal(config, BotPolicy("basic"), "random", 100 + d, 0) for d in range(8)]
    figures = Figures("basic", values)
    assert figures.mean() == pytest.approx(statistics.fmean(values))
    assert figures.half() == pytest.approx(1.96 * statistics.stdev(values) / math.sqrt(8))
    assert Figures("one", [3.0]).half() == 0.0


def test_the_command_reports_chips_per_round_with_intervals() -> None:
    result = runner.invoke(
        app,
        [
            "evaluate",
            "--agent", "rummoli.envs.policies:first_legal",
            "--against", "random",
            "--rounds", "6",
            "--players", "3",
            "--baseline", "basic",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.strip().split("\n")
    assert lines[0] == "Rummoli, 3 players, against Beginner (random)"
    assert lines[1] == "6 duplicate deals, each played with the agent in every seat"
    assert lines[2].startswith("rummoli.envs.policies:first_legal: chips per round ")
    assert lines[2].endswith("(95% CI)") and " ± " in lines[2]
    assert lines[3].startswith("basic: chips per round ")
    assert lines[4].startswith("rummoli.envs.policies:first_legal minus basic, deal by deal: ")


def test_the_command_speaks_french_and_russian() -> None:
    base = ["evaluate", "--agent", "random", "--against", "basic", "--rounds", "2"]
    with i18n.language("fr"):
        french = runner.invoke(app, [*base, "--game", "rummy"])
    with i18n.language("ru"):
        russian = runner.invoke(app, base)
    assert french.exit_code == 0 and russian.exit_code == 0, french.output + russian.output
    assert "points par donne" in french.output and "2 joueurs" in french.output
    assert "фишек за раунд" in russian.output and "4 игрока" in russian.output


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("nomodule", "an agent is MODULE:NAME"),
        ("no.such.module:x", "cannot import the module no.such.module"),
        ("rummoli.envs.policies:nothing", "has no nothing"),
        ("rummoli.envs.policies:__doc__", "is not a policy"),
    ],
)
def test_a_bad_agent_is_refused_by_name(agent: str, message: str) -> None:
    levels = ["random", "basic", "strong"]
    with pytest.raises(EvaluationError, match=message):
        load_agent(agent, levels)
    result = runner.invoke(app, ["evaluate", "--agent", agent, "--rounds", "1"])
    assert result.exit_code == 2 and message.split()[0] in result.output


def test_an_agent_that_plays_an_illegal_action_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("bad_agents")
    module.policy = lambda observation, mask: len(mask) + 5  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bad_agents", module)
    result = runner.invoke(app, ["evaluate", "--agent", "bad_agents:policy", "--rounds", "1"])
    assert result.exit_code == 2
    assert "bad_agents:policy chose an illegal action" in " ".join(result.output.split())
