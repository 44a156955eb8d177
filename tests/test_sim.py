"""``rummoli simulate``: reproducible numbers, exact merging, conserved chips, the
report, JSON and charts, option errors, Ctrl-C, and the Ray backend.

Most tests use a trivial bot (``first``: always the first legal action, so nobody ever
bets or bids) and short games (``rounds=2``): whole games in microseconds, so the suite
stays fast. The random bot covers the busy paths (auctions, all-ins, eliminations).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import set_bot_levels
from rummoli.bots import Bot, BotError, Decision
from rummoli.cli import app
from rummoli.compiled import compiled_modules
from rummoli.games.rummoli import Rules
from rummoli.games.rummoli.board import space_names
from rummoli.games.rummy import Rules as RummyRules
from rummoli.games.stops.view import Observation
from rummoli.sim import command
from rummoli.sim.runner import Merger, run
from rummoli.sim.spec import GAMES, ROUNDS, SimSpec
from rummoli.sim.stats import Histogram, Moments, batch_ci95, merge_counters
from rummoli.sim.stops.figures import summarize
from rummoli.sim.stops.play import play_chunk
from rummoli.sim.stops.stats import SimStats

RUMMY = "rummy"

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class FirstBot:
    """Always the first legal action; checks that it is given an observation only."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        assert isinstance(observation, Observation), type(observation)
        assert list(observation.legal) == legal
        return Decision(legal[0])


class IllegalBot:
    def __init__(self, seed: int) -> None:
        pass

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        return Decision(-5)


def _first(seed: int) -> Bot:
    return FirstBot(seed)


def _illegal(seed: int) -> Bot:
    return IllegalBot(seed)


@pytest.fixture(autouse=True)
def test_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test bots as levels (pool workers are forked, so they see them too)."""
    set_bot_levels(monkeypatch, "rummoli", {"first": _first, "illegal": _illegal})


def spec(
    bots: str = "random,random,random,random", rules: Rules | None = None, **kwargs: Any
) -> SimSpec:
    return SimSpec(tuple(bots.split(",")), rules or Rules(), **kwargs)


def figures_of(sim: SimSpec, **kwargs: Any) -> dict[str, Any]:
    return summarize(run(sim, **kwargs), sim)


def the_seed_decides(sim: SimSpec, summary: Callable[[Any, SimSpec], Any]) -> Any:
    """``sim`` run by one worker and by two: the same statistics and the same figures
    (``summary``, the game's); with the next seed, the bots' figures differ. Shared
    with ``test_sim_rummy.py``; the statistics."""
    one = run(sim, jobs=1)
    two = run(sim, jobs=2)
    assert one == two
    figures = summary(one, sim)
    assert figures == summary(two, sim)
    other = dataclasses.replace(sim, seed=sim.seed + 1)
    assert summary(run(other), other)["bots"] != figures["bots"]
    return one


def interrupted_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, simulate: Callable[[Path], Any]
) -> tuple[Any, dict[str, Any]]:
    """``simulate(path)`` (a ``rummoli simulate`` saving its JSON to ``path``), Ctrl-C'd
    (a KeyboardInterrupt) when its second chunk is done. It does what it must whatever
    the game: exits with its own code (no traceback), prints the figures so far and
    saves them marked incomplete. Its result and the saved figures."""
    seen: list[int] = []

    def interrupt(index: int) -> None:
        seen.append(index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(command, "chunk_hook", interrupt)
    path = tmp_path / "partial.json"
    result = simulate(path)
    assert result.exit_code == command.INTERRUPTED
    assert isinstance(result.exception, SystemExit)  # not a KeyboardInterrupt traceback
    assert "Interrupted: figures so far" in result.stdout
    data: dict[str, Any] = json.loads(path.read_text())
    assert data["complete"] is False and data["run"]["interrupted"] is True
    assert 2 <= data["chunks_done"] < 20
    return result, data


# ------------------------------------------------------------------ reproducibility


def test_same_seed_same_numbers_whatever_the_jobs_another_seed_others() -> None:
    sim = spec(total=1200, seed=7, rotate=True, chunk_size=200)
    one = the_seed_decides(sim, summarize)
    assert one.rounds == 1200 and one.chunks == 6


def test_chunks_do_not_depend_on_workers_and_cover_the_total() -> None:
    sim = spec(total=4500, seed=3)
    chunks = sim.chunks()
    assert [c.quota for c in chunks] == [2000, 2000, 500]
    assert chunks == spec(total=4500, seed=3).chunks()
    assert len({c.seed for c in chunks}) == 3
    games = spec(mode=GAMES, total=25, seed=3).chunks()
    assert [(c.quota, c.first_game) for c in games] == [(10, 0), (10, 10), (5, 20)]


def test_chunks_finishing_in_any_order_merge_to_the_same_numbers() -> None:
    sim = spec(total=600, seed=5, chunk_size=200)
    merger = Merger(sim)
    for chunk in reversed(sim.chunks()):
        merger.add(chunk.index, play_chunk(chunk))
        assert merger.rounds_done == 200 * (3 - chunk.index)
    assert merger.result() == run(sim, jobs=1)


# ------------------------------------------------------------------ what is counted


def test_chips_are_conserved_over_a_simulation() -> None:
    for rules in (Rules(), Rules(rounds=4), Rules(poker="showdown", settlement="poker_per_pot")):
        stats = run(spec(rules=rules, total=500, seed=11, chunk_size=100), jobs=1)
        bots = sum(m.total for m in stats.bots)
        assert bots + stats.board_change == 0
        assert sum(m.total for m in stats.by_seat) == bots
        assert sum(m.total for m in stats.settlement) == stats.board_settled
        # Every chip put on the board was taken back, or settled, or is still there.
        assert stats.board_change == stats.board_settled + stats.board_left
        assert summarize(stats, spec(rules=rules))["chips"]["conserved"]


def test_rounds_mode_plays_exactly_n_rounds_and_cuts_the_last_game_short() -> None:
    stats = run(spec("first,first,first", Rules(rounds=10), total=25, seed=1), jobs=1)
    assert stats.rounds == 25
    assert (stats.games_started, stats.games_finished) == (3, 2)
    assert stats.game_lengths == {10: 2}
    assert all(m.n == 25 for m in stats.bots)


def test_games_mode_plays_whole_games() -> None:
    stats = run(spec("first,first,first", Rules(rounds=3), mode=GAMES, total=12), jobs=1)
    assert (stats.games_started, stats.games_finished, stats.rounds) == (12, 12, 36)
    assert stats.board_left == 0


def test_full_table_counts_only_rounds_played_by_every_seat() -> None:
    sim = spec("random,random,random,random", total=500, seed=8, full_table=True)
    stats = run(sim, jobs=1)
    assert stats.rounds == 500
    assert stats.dealt_in.n == 4 * 500
    # A game stops, unsettled, before the first round a player misses; it ends with the
    # settlement only when so many went broke at once that the engine ended it.
    assert stats.games_finished < stats.games_started
    assert stats.board_change == stats.board_left + stats.board_settled
    assert sum(m.total for m in stats.bots) + stats.board_change == 0
    figures = summarize(stats, sim)
    assert figures["players_dealt_in_per_round"] == 4
    assert figures["config"]["full_table"] is True
    whole = summarize(run(spec(total=500, seed=8), jobs=1), sim)
    assert whole["players_dealt_in_per_round"] < 4


def test_rotation_seats_every_bot_in_every_seat_equally() -> None:
    sim = spec("first,first,first", Rules(rounds=2), mode=GAMES, total=30, rotate=True)
    stats = run(sim, jobs=1)
    assert stats.bot_seat_rounds == [[20, 20, 20]] * 3
    fixed = run(spec("first,first,first", Rules(rounds=2), mode=GAMES, total=30), jobs=1)
    assert fixed.bot_seat_rounds == [[60, 0, 0], [0, 60, 0], [0, 0, 60]]


def test_widow_and_round_counts_add_up() -> None:
    stats = run(spec(total=400, seed=2), jobs=1)
    assert stats.widow_exchanged + stats.widow_bought + stats.widow_dead == stats.rounds
    assert stats.rounds_won + stats.deadlocks == stats.rounds
    assert stats.winning_bid.n == stats.widow_bought
    rummoli = stats.space["rummoli"]
    assert sum(rummoli.payouts.values()) == stats.rounds_won
    for space in stats.space.values():
        assert sum(space.payouts.values()) == sum(space.gaps.values())
        assert min(space.gaps, default=1) >= 1


def test_bots_of_one_level_are_pooled_round_by_round() -> None:
    stats = run(spec("random,first,random", total=300, seed=4), jobs=1)
    assert stats.levels == ("random", "first")
    random_level, first_level = stats.by_level
    assert random_level.total == stats.bots[0].total + stats.bots[2].total
    assert first_level == stats.bots[1]
    assert random_level.n == 300
    level = summarize(stats, spec("random,first,random"))["levels"][0]
    assert level["bots"] == 2
    assert level["chips_per_round_per_bot"]["mean"] == pytest.approx(random_level.total / 600)


def test_a_bot_answering_an_illegal_action_is_named() -> None:
    with pytest.raises(BotError, match="illegal"):
        run(spec("illegal,first"), jobs=1)


# ------------------------------------------------------------------ statistics


def test_confidence_interval_on_known_data() -> None:
    m = Moments()
    for x in (1, 2, 3, 4, 5):
        m.add(x)
    assert m.mean == 3 and m.variance == 2.5
    ci = m.ci95()
    assert ci is not None
    half = 2.776 * math.sqrt(2.5 / 5)  # t(0.975, 4 df) * sd / sqrt(n)
    assert ci == pytest.approx((3 - half, 3 + half))
    big = Moments()
    for i in range(1000):
        big.add(i % 2)  # mean 0.5, sd sqrt(1000 / 3996)
    ci = big.ci95()
    assert ci is not None
    sd = math.sqrt(0.25 * 1000 / 999)
    assert ci[1] - 0.5 == pytest.approx(1.959964 * sd / math.sqrt(1000))
    assert Moments(n=1, total=4, squares=16).ci95() is None


def test_moments_merge_exactly() -> None:
    a, b, both = Moments(), Moments(), Moments()
    for x in (3, -7, 10**12):
        a.add(x)
        both.add(x)
    for x in (0, 5):
        b.add(x)
        both.add(x)
    a.merge(b)
    assert a == both


def test_batch_interval_on_known_batches() -> None:
    # Five equal batches with means 1..5: the t interval of those five means.
    batches = [(10, 10 * k) for k in range(1, 6)]
    ci = batch_ci95(batches)
    assert ci is not None
    half = 2.776 * math.sqrt(2.5 / 5)
    assert ci == pytest.approx([3 - half, 3 + half])
    assert batch_ci95(batches[:3]) is None


def test_stats_of_different_tables_do_not_merge() -> None:
    with pytest.raises(ValueError, match="different tables"):
        SimStats.empty(3, ("poker",), ("first",)).merge(SimStats.empty(4, ("poker",), ("first",)))


# ------------------------------------------------------------------ the command

runner = CliRunner()
FAST = ["--bots", "first,first,first", "--rule", "rounds=2", "--jobs", "1"]


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["simulate", *args])


def test_cli_prints_every_table(tmp_path: Path) -> None:
    result = invoke("--rounds", "300", "--bots", "random,first,random", "--jobs", "2")
    assert result.exit_code == 0, result.output
    for title in ("Chips won per round", "Seat advantage", "Board spaces", "deadlocks"):
        assert title in result.stdout
    for name in ("random#1", "random#2", "first", "789", "AKD", "dealer+1", "mean winning bid"):
        assert name in result.stdout
    assert "300 rounds" in result.stdout


def test_json_has_every_figure(tmp_path: Path) -> None:
    path = tmp_path / "sim.json"
    result = invoke("--rounds", "200", "--bots", "random,random,first", "--json", str(path))
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    expected = {
        "config",
        "complete",
        "chunks_done",
        "chunks_total",
        "rounds",
        "games",
        "bots",
        "levels",
        "seats",
        "positions",
        "spaces",
        "deadlock",
        "round_winner",
        "widow",
        "poker",
        "chips",
        "sample_game",
        "players_dealt_in_per_round",
        "run",
    }
    assert set(data) == expected
    assert data["complete"] and data["rounds"] == 200
    assert [b["bot"] for b in data["bots"]] == ["random#1", "random#2", "first"]
    for seat, bot in enumerate(data["bots"]):
        assert len(bot["chips_per_round"]["ci95"]) == 2
        assert bot["rounds_by_seat"][seat] == 200
    assert [s["space"] for s in data["spaces"]] == list(space_names(True))
    for space in data["spaces"]:
        for key in ("pay_rate", "mean_payout", "mean_carry_over", "payout_histogram"):
            assert key in space
        if space["payouts"]:
            assert space["mean_carry_over"] == pytest.approx(1 / space["pay_rate"] - 1)
    assert set(data["widow"]) >= {"exchanged_rate", "bought_rate", "dead_rate", "winning_bid"}
    assert data["poker"]["method"] == "betting" and data["poker"]["pot"]["mean"] > 0
    assert data["deadlock"]["rate"] is not None
    assert data["chips"]["conserved"] is True
    run = data["run"]
    assert set(run) == {
        "backend",
        "jobs",
        "where",
        "seconds",
        "rounds_per_second",
        "interrupted",
        "compiled",
    }
    assert run["compiled"] is bool(compiled_modules())
    # The file holds exactly what summarize computes.
    sim = spec("random,random,first", total=200)
    assert {k: v for k, v in data.items() if k != "run"} == json.loads(
        json.dumps(figures_of(sim, jobs=1))
    )


def test_plots_are_png_files(tmp_path: Path) -> None:
    result = invoke("--rounds", "300", "--plot", str(tmp_path / "charts"), "--jobs", "1")
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "charts").iterdir())
    assert [f.name for f in files] == [
        "chips_over_time.png",
        "payout_gaps.png",
        "space_payouts.png",
    ]
    for file in files:
        assert file.read_bytes()[:8] == PNG_SIGNATURE
        assert file.stat().st_size > 5000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,genius"], "unknown bot level genius"),
        (["--bots", "random"], "give 2 to 8 bots"),
        (["--bots", ",".join(["random"] * 9)], "not 9"),
        (["--rule", "widow=maybe"], "widow must be one of"),
        (["--rule", "nonsense"], "NAME=VALUE"),
        (
            ["--rule", "colour=red"],
            "unknown Rummoli house rule colour; house rules are",
        ),
        (["--preset", "grandma"], "unknown preset"),
        (["--rounds", "5", "--games", "5"], "not both"),
        (["--backend", "spark"], "unknown backend"),
        (["--address", "ray://x:1"], "--backend ray"),
        (["--rounds", "0"], "greater than or equal to 1"),
    ],
)
def test_bad_options_give_clear_errors(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_figures_so_far(
    jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*FAST, "--games", "100", "--chunk-size", "5", "--jobs", jobs, "--json"]
    result, data = interrupted_run(monkeypatch, tmp_path, lambda path: invoke(*args, str(path)))
    assert "Board spaces" in result.stdout
    assert data["config"]["chunk_size"] == 5
    assert data["games"]["started"] == 5 * data["chunks_done"]


def test_ray_backend_gives_the_local_numbers_for_both_games() -> None:
    ray = pytest.importorskip("ray")
    rummoli = spec(total=2000, seed=9, rotate=True, chunk_size=500)
    rummy = SimSpec(
        ("basic", "random", "basic"), RummyRules(), total=240, seed=9, rotate=True,
        chunk_size=60, game=RUMMY,
    )  # fmt: skip
    local = [run(rummoli, jobs=1), run(rummy, jobs=1)]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = [run(rummoli, jobs=2, backend="ray"), run(rummy, jobs=2, backend="ray")]
        assert ray.is_initialized()  # a Ray the caller started is left running
    finally:
        ray.shutdown()
    assert remote == local
    assert local[1].rounds == 240 and local[1].chunks == 4


def test_modes_are_checked() -> None:
    with pytest.raises(ValueError, match="mode"):
        SimSpec(("first", "first"), Rules(), mode="hours")
    assert spec(total=5).mode == ROUNDS


def test_markdown_tables_compare_runs(tmp_path: Path) -> None:
    from rummoli.sim.stops.tables import main

    paths = []
    for seats in (3, 4):
        path = tmp_path / f"{seats}.json"
        bots = ",".join(["first"] * seats)
        assert invoke("--rounds", "50", "--bots", bots, "--json", str(path)).exit_code == 0
        paths.append(f"{seats} seats={path}")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(paths) == 0
    text = out.getvalue()
    assert "| 3 seats | 100.0% |" in text and "| 4 seats |" in text
    assert text.count("| run |") == 4


def test_charts_of_a_saved_run(tmp_path: Path) -> None:
    from rummoli.sim.stops.plots import main

    path = tmp_path / "run.json"
    assert invoke(*FAST, "--rounds", "40", "--json", str(path)).exit_code == 0
    assert main([str(path), str(tmp_path / "charts")]) == 0
    assert len(list((tmp_path / "charts").glob("*.png"))) == 3


# ------------------------------------------------------------------ shared pieces


def test_counters_merge_by_their_kind_and_skipped_fields_stay() -> None:
    @dataclass
    class Counts:
        games: int = 0
        wins: list[int] = field(default_factory=lambda: [0, 0])
        lengths: Histogram = field(default_factory=dict)
        points: Moments = field(default_factory=Moments)
        chunk: int = -1

    mine = Counts(2, [1, 0], {3: 1}, Moments(1, 4, 16), 0)
    theirs = Counts(5, [0, 2], {3: 2, 7: 1}, Moments(2, -1, 5), 9)
    merge_counters(mine, theirs, skip={"chunk"})
    assert mine == Counts(7, [1, 2], {3: 3, 7: 1}, Moments(3, 3, 21), 0)
    with pytest.raises(ValueError, match="different tables"):
        merge_counters(mine, Counts(wins=[0, 0, 0]))


def test_a_chunk_seats_the_bots_round_and_stops_at_its_quota() -> None:
    spec = SimSpec(("basic", "random", "basic"), Rules(), total=10, rotate=True)
    chunk = spec.chunks()[0]
    stats = SimStats.empty(3, spec.rules.layout().names, spec.levels)
    played: list[tuple[int, list[int], int]] = []

    def play_game(game: int, seat_bot: list[int], limit: int) -> int:
        played.append((game, seat_bot, limit))
        stats.rounds += 4  # each game plays four rounds
        return 4

    chunk.play(stats, play_game)
    # Rounds quota 10: games of 4, 4 and the last cut to the 2 rounds left; the seats
    # move one round after each game (the first chunk starts unrotated).
    assert played == [(0, [0, 1, 2], 10), (1, [2, 0, 1], 6), (2, [1, 2, 0], 2)]
    assert stats.bot_seat_rounds == [[4, 4, 4]] * 3
    assert (stats.chunks, stats.per_chunk) == (1, {0: (12, (0, 0, 0))})
