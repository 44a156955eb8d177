"""``rummoli simulate --game rummy``: the same numbers whatever the workers, figures that add
up, hands and matches, rotation, the report and JSON, option errors, and Ctrl-C.

Most tests use the cheap levels (``basic`` against ``random``): a hand takes a
millisecond or two, so the suite stays fast; one test checks the strong bot through the
whole pipeline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import set_bot_levels
from rummoli.bots import BotError, Decision
from rummoli.cli import app
from rummoli.games.rummy import Rules
from rummoli.sim.rummy.figures import quantile, summarize_rummy
from rummoli.sim.rummy.stats import RummyStats
from rummoli.sim.runner import Merger, run
from rummoli.sim.spec import GAMES, ROUNDS, SimSpec
from test_sim import interrupted_run, the_seed_decides

RUMMY = "rummy"


def spec(bots: str = "basic,random", rules: Rules | None = None, **kwargs: Any) -> SimSpec:
    return SimSpec(tuple(bots.split(",")), rules or Rules(), game=RUMMY, **kwargs)


def figures_of(sim: SimSpec, **kwargs: Any) -> dict[str, Any]:
    return summarize_rummy(run(sim, **kwargs), sim)


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, ["simulate", "--game", "rummy", *args])


# ------------------------------------------------------------------ reproducibility


def test_same_seed_same_numbers_whatever_the_jobs_another_seed_others() -> None:
    sim = spec("basic,random,basic", total=360, seed=7, rotate=True, chunk_size=60)
    one = the_seed_decides(sim, summarize_rummy)
    assert isinstance(one, RummyStats)
    assert one.rounds == 360 and one.chunks == 6


def test_chunks_finishing_in_any_order_merge_to_the_same_numbers() -> None:
    sim = spec(total=200, seed=4, chunk_size=50)
    in_order = run(sim)
    from rummoli.sim.runner import play_indexed

    finished = [play_indexed(chunk) for chunk in sim.chunks()]
    merger = Merger(sim)
    for index, stats in reversed(finished):
        merger.add(index, stats)
    assert merger.result() == in_order


# ------------------------------------------------------------------ figures


def test_figures_add_up() -> None:
    sim = spec("basic,random,random,basic", total=300, seed=3, rotate=True, chunk_size=50)
    stats = run(sim)
    figures = summarize_rummy(stats, sim)
    assert figures["hands"] == 300 and figures["complete"]
    won = sum(bot["hands_won"] for bot in figures["bots"])
    assert won + figures["stalemate"]["hands"] == 300
    assert won == figures["hands_won"] == sum(p["hands_won"] for p in figures["positions"])
    assert figures["points"]["consistent"]
    points = sum(bot["points_per_hand"]["mean"] * 300 for bot in figures["bots"])
    assert points == pytest.approx(stats.winner_points.total)
    assert figures["going_rummy"]["hands"] == sum(bot["going_rummy"] for bot in figures["bots"])
    assert figures["going_rummy"]["hands"] <= won
    assert sum(figures["hand_length"]["turns_histogram"].values()) == 300
    # Every hand is played by every seat: each bot's hands by seat add up to all hands.
    assert all(sum(bot["hands_by_seat"]) == 300 for bot in figures["bots"])
    # Bots of one level pooled hand by hand: the level's mean is the mean of its bots.
    basic = next(level for level in figures["levels"] if level["level"] == "basic")
    mean = basic["points_per_hand_per_bot"]["mean"]
    bots = [b["points_per_hand"]["mean"] for b in figures["bots"] if b["level"] == "basic"]
    assert mean == pytest.approx(sum(bots) / 2)
    # The random bot hardly ever goes out against basic ones.
    assert (
        mean
        > next(lv for lv in figures["levels"] if lv["level"] == "random")[
            "points_per_hand_per_bot"
        ]["mean"]
    )
    first = figures["first_player"]
    assert first["points_per_hand"] == figures["positions"][0]["points_per_hand"]
    assert first["fair_win_rate"] == pytest.approx(won / 300 / 4)


def test_matches_mode_plays_whole_matches() -> None:
    sim = spec(mode=GAMES, total=12, seed=5, rotate=True, chunk_size=4)
    figures = figures_of(sim)
    matches = figures["matches"]
    assert matches["started"] == matches["finished"] == 12
    assert sum(bot["matches_won"] for bot in figures["bots"]) == 12
    assert sum(int(k) * v for k, v in matches["length_histogram"].items()) == figures["hands"]
    # Rotated per match over whole chunks: each bot sat in each seat for 6 matches.
    stats = run(sim)
    assert stats.games_finished == 12
    assert figures["config"]["mode"] == "matches"


def test_hands_mode_cuts_the_last_match_short() -> None:
    sim = spec(total=7, seed=1, chunk_size=7)
    figures = figures_of(sim)
    assert figures["hands"] == 7
    assert figures["matches"]["started"] >= figures["matches"]["finished"]
    assert figures["config"]["mode"] == "hands"


def test_strong_bot_runs_in_the_simulation() -> None:
    figures = figures_of(spec("strong,basic", total=40, seed=2, rotate=True, chunk_size=20))
    assert figures["hands"] == 40 and figures["points"]["consistent"]


def test_house_rules_reach_the_engine() -> None:
    short = figures_of(spec(rules=Rules(target=1), mode=GAMES, total=6, chunk_size=3))
    # To 1 point, every match ends with its first won hand.
    lengths = short["matches"]["length_histogram"]
    assert sum(lengths.values()) == 6 and short["hands_won"] == 6
    assert short["config"]["target"] == 1
    assert short["hands"] == sum(int(k) * v for k, v in lengths.items())


def test_quantile() -> None:
    assert quantile({10: 1, 20: 2, 30: 1}, 0.5) == 20
    assert quantile({10: 1, 20: 2, 30: 1}, 0.9) == 30
    assert quantile({}, 0.5) is None


def test_spec_checks_the_table() -> None:
    with pytest.raises(ValueError, match="give 2 to 4 bots"):
        spec("basic,basic,basic,basic,basic")
    from rummoli.games.rummoli import Rules as RummoliRules

    with pytest.raises(ValueError, match="rules must be rummy's"):
        SimSpec(("basic", "basic"), RummoliRules(), game=RUMMY)
    with pytest.raises(ValueError, match="full_table is not for rummy"):
        spec(full_table=True)
    with pytest.raises(ValueError, match="unknown game 'chess'; games are rummoli, rummy"):
        SimSpec(("basic", "basic"), Rules(), game="chess")
    assert spec().per_chunk == 200 and spec(mode=GAMES).per_chunk == 5
    assert spec().mode == ROUNDS and spec().game == RUMMY


# ------------------------------------------------------------------ the command


def test_cli_prints_every_table_and_writes_json(tmp_path: Path) -> None:
    path = tmp_path / "rummy.json"
    result = invoke(
        "--bots", "basic,random", "--hands", "60", "--rotate", "--jobs", "1", "--json", str(path)
    )
    assert result.exit_code == 0, result.output
    for title in ("Points per hand, by bot", "Order of play", "Hands", "Going Rummy"):
        assert title in result.stdout
    data = json.loads(path.read_text())
    assert data["game"] == "rummy" and data["hands"] == 60
    assert data["config"]["bots"] == ["basic", "random"] and data["config"]["rotate"] is True
    for key in ("hand_length", "stalemate", "going_rummy", "first_player", "positions"):
        assert key in data
    assert data["run"]["jobs"] == 1 and data["run"]["interrupted"] is False


def test_cli_default_is_two_basic_bots() -> None:
    result = invoke("--hands", "20", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "bots basic#1, basic#2" in " ".join(result.stdout.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "basic,genius"], "unknown bot level genius for rummy"),
        (["--bots", "basic"], "give 2 to 4 bots"),
        (["--bots", "basic,basic,basic,basic,basic"], "not 5"),
        (
            ["--rule", "colour=red"],
            "unknown Basic Rummy house rule colour; house rules are target",
        ),
        (["--rule", "target=0"], "target must be a whole number from 1 to 10000"),
        (["--rule", "nonsense"], "NAME=VALUE"),
        (["--preset", "grandma"], "Basic Rummy has no printed rule sets"),
        (["--full-table"], "Rummy tables never shrink"),
        (["--plot", "charts"], "Basic Rummy simulations draw no charts"),
        (["--hands", "5", "--rounds", "5"], "give one"),
        (["--hands", "5", "--games", "5"], "not both"),
    ],
)
def test_bad_options_give_clear_errors(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output


def test_unknown_game() -> None:
    result = CliRunner().invoke(app, ["simulate", "--game", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_figures_so_far(
    jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--bots", "basic,random", "--hands", "400", "--chunk-size", "20", "--jobs", jobs]
    _, data = interrupted_run(
        monkeypatch, tmp_path, lambda path: invoke(*args, "--json", str(path))
    )
    assert data["hands"] == 20 * data["chunks_done"]


def test_a_bot_answering_an_illegal_action_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Illegal:
        def __init__(self, seed: int) -> None:
            self.seed = seed

        def choose(self, observation: Any, legal: list[int]) -> Decision:
            return Decision(-5)

    set_bot_levels(monkeypatch, "rummy", {"illegal": Illegal})
    with pytest.raises(BotError, match=r"Illegal \(illegal\) chose -5"):
        run(spec("basic,illegal", total=5))


class Staller:
    """Takes the discard top every turn and discards another card: never draws from the
    stock while it may take, never melds, so with the house rule stall_rule every hand
    ends by it (without it, the forced draws from the stock run the stock out)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        from rummoli.games.rummy import actions as act

        if act.DRAW_DISCARD in legal:
            return Decision(act.DRAW_DISCARD)
        return Decision(max(a for a in legal if act.is_discard_action(a)))


def test_a_stalled_hand_is_counted_as_stalled(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from rummoli.sim.rummy.report import hands_table

    set_bot_levels(monkeypatch, "rummy", {"staller": Staller})
    # By default idle turns never end a hand: the draws they force run the stock out.
    stats = run(spec("staller,staller", total=6, seed=2, chunk_size=3))
    assert (stats.stalemate_stalled, stats.stalemate_stock, stats.stalemate_blocked) == (0, 6, 0)
    stalled = spec("staller,staller", Rules(stall_rule=True), total=6, seed=2, chunk_size=3)
    stats = run(stalled)
    assert (stats.stalemate_stalled, stats.stalemate_stock, stats.stalemate_blocked) == (6, 0, 0)
    figures = summarize_rummy(stats, stalled)
    assert figures["stalemate"] == {
        "hands": 6,
        "rate": 1.0,
        "stock_ran_out": 0,
        "detected": 0,
        "stalled": 6,
    }
    assert figures["points"]["consistent"]
    out = io.StringIO()
    Console(file=out, width=120).print(hands_table(figures))
    assert "stalemates (stock ran out twice / detected / stalled)" in out.getvalue()
    assert "100.0% (0 / 0 / 6)" in out.getvalue()
    # Real bots never come near the stall rule (docs/rummy.md).
    assert run(spec("random,random", total=40, seed=1)).stalemate_stalled == 0
