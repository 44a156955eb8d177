"""Computer players: decision times per level and kind of decision, and a quick tournament.

    python bench/bench_bots.py times                  # median and p90 per decision type
    python bench/bench_bots.py tournament --rounds 2000 --jobs 1
    python bench/bench_bots.py tournament --rule poker=showdown --rounds 2000
    python bench/bench_bots.py tournament --levels strong,basic,strong,basic --jobs 2
    python bench/bench_bots.py decisions --phase betting --situations 2000

**Times**: whole 4-seat games (default rules) with a mixed table; every real decision of
a ``basic`` or ``strong`` bot is timed in CPU time (``ask_bot``: the observation is
built, the bot decides, the answer is checked), by phase: widow, auction, betting, play.

**Tournament**: games of ``--game-rounds`` rounds (100 chips each at the start) at 4
seats. The line-ups are every seating of the three levels with one of them twice (36), so
every level sits in every seat equally often. A round's chips
won by a seat are its chips at the end of the round minus at its start (the ante
included); only seats dealt in the round count. The figure per level is total chips won /
seat-rounds played, and its 95% confidence interval treats each game as one sample (a
ratio estimator over games), because rounds of one game are not independent (chips
carried on the board, eliminations). Same seed, same figures.

**Decisions**: the quality of one kind of decision, with far less noise than a
tournament. Situations are taken from games of basic bots (a real decision of a seat,
``--phase`` widow, auction, betting or play); each level decides in each situation, and
the chips its choice is worth are measured exactly: the state is cloned, the choice
applied, and the round played out by the table's own bots (``--table``, default four
basic bots; the deciding seat plays on as a basic bot), averaged over a few play-outs
when a random bot makes them uncertain. The figure is the mean difference to the first
level, paired by situation, with its 95% interval; ``best`` is the choice that turned out
best in hindsight (what a player seeing every card would choose).
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.rummoli import Rules, RummoliState
from rummoli.tui.options import parse_house_rules

LEVELS = ("strong", "basic", "random")
SEATS = 4


def lineups(levels: Sequence[str] = LEVELS) -> list[tuple[str, ...]]:
    """Seatings of the levels at 4 seats in which each level sits in each seat equally
    often: with 3 levels, every seating with one of them twice (36 line-ups); with 2,
    every seating with each twice (6); with 4, every permutation (24)."""
    levels = list(levels)
    if len(levels) == 3:
        out: list[tuple[str, ...]] = []
        for doubled in levels:
            out.extend(sorted(set(itertools.permutations([*levels, doubled]))))
        return out
    if len(levels) == 2:
        return sorted(set(itertools.permutations(levels * 2)))
    if len(levels) == 4:
        return sorted(itertools.permutations(levels))
    raise ValueError("give 2, 3 or 4 levels")


# ---------------------------------------------------------------------- one game


def play_game(
    lineup: Sequence[str], rules: Rules, seed: int, timing: dict[tuple[str, str], list[float]]
) -> list[tuple[str, int]]:
    """Play one game; returns (level, chips won) for every seat of every round played,
    and ``("", 0)`` once per round."""
    names = [f"P{i}" for i in range(len(lineup))]
    state = RummoliState.new_game(names, rules, seed)
    bots = {s: make_bot(level, seed * 16 + s) for s, level in enumerate(lineup)}
    results: list[tuple[str, int]] = []
    before = snapshot = list(state.chips)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            snapshot = list(state.chips)  # before the ante of the round this deals
            events = state.apply(CHANCE_ACTION)
        else:
            level = lineup[seat]
            phase = state.observation(seat).phase
            # CPU time: what the decision costs on a core of its own, even on a busy
            # machine (wall time there counts other processes' turns too).
            start = time.process_time()
            decision = ask_bot(bots[seat], state, seat)
            timing[(level, phase)].append(time.process_time() - start)
            events = state.apply(decision.action)
        for event in events:
            if event[0] == "dealer":
                before = snapshot
            elif event[0] == "round_over":
                for s in state.in_round:
                    results.append((lineup[s], state.chips[s] - before[s]))
                results.append(("", 0))  # marks one round played
    return results


def _game_job(
    args: tuple[int, tuple[str, ...], Rules, int],
) -> tuple[int, list[tuple[str, int]], dict[tuple[str, str], list[float]]]:
    index, lineup, rules, seed = args
    timing: dict[tuple[str, str], list[float]] = defaultdict(list)
    return index, play_game(lineup, rules, seed, timing), dict(timing)


# ---------------------------------------------------------------------- figures


def level_figures(games: list[list[tuple[str, int]]], level: str) -> tuple[float, float, int]:
    """Mean chips won per seat-round by ``level`` and the half-width of its 95% interval
    (ratio estimator, one sample per game), and the seat-rounds counted."""
    sums = []
    counts = []
    for game in games:
        values = [chips for lv, chips in game if lv == level]
        sums.append(float(sum(values)))
        counts.append(float(len(values)))
    total_n = sum(counts)
    if not total_n:
        return 0.0, 0.0, 0
    mean = sum(sums) / total_n
    g = len([c for c in counts if c])
    if g < 2:
        return mean, math.inf, int(total_n)
    mean_n = total_n / len(counts)
    residuals = [(s - mean * c) / mean_n for s, c in zip(sums, counts, strict=True)]
    var = statistics.fmean(r * r for r in residuals) * len(residuals) / (len(residuals) - 1)
    half = 1.96 * math.sqrt(var / len(residuals))
    return mean, half, int(total_n)


def tournament(
    rounds: int,
    game_rounds: int,
    rules: Rules,
    seed: int,
    jobs: int,
    levels: Sequence[str] = LEVELS,
) -> tuple[list[list[tuple[str, int]]], dict[tuple[str, str], list[float]], float]:
    """Play games until at least ``rounds`` rounds are done (whole line-up cycles)."""
    cycle = lineups(levels)
    rules = Rules.from_dict({**rules.to_dict(), "rounds": game_rounds})
    per_cycle = len(cycle) * game_rounds
    cycles = max(1, math.ceil(rounds / per_cycle))
    jobs_list = [
        (i, cycle[i % len(cycle)], rules, seed * 1_000_003 + i) for i in range(cycles * len(cycle))
    ]
    games: list[list[tuple[str, int]]] = [[] for _ in jobs_list]
    timing: dict[tuple[str, str], list[float]] = defaultdict(list)
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for index, results, times in pool.map(_game_job, jobs_list, chunksize=4):
                games[index] = results
                for key, values in times.items():
                    timing[key].extend(values)
    else:
        for job in jobs_list:
            index, results, times = _game_job(job)
            games[index] = results
            for key, values in times.items():
                timing[key].extend(values)
    return games, timing, time.perf_counter() - start


def decision_quality(
    phase: str, situations: int, rules: Rules, table: Sequence[str], levels: Sequence[str]
) -> dict[str, list[float]]:
    """Chips each level's choice is worth, situation by situation (see the docstring)."""
    from rummoli.bots import LEVELS as BOT_LEVELS
    from rummoli.bots.stops.basic import BasicBot

    replays = 1 if all(level != "random" for level in table) else 6
    found: list[RummoliState] = []
    game = 0
    while len(found) < situations:
        state = RummoliState.new_game(
            [f"P{i}" for i in range(len(table))],
            Rules.from_dict({**rules.to_dict(), "rounds": 3}),
            9000 + game,
        )
        bots = {s: make_bot(level, game * 16 + s) for s, level in enumerate(table)}
        game += 1
        while not state.is_terminal() and len(found) < situations:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(CHANCE_ACTION)
                continue
            legal = state.legal_actions()
            take = table[seat] == "basic" and len(legal) > 1 and len(state.actions) % 2 == 0
            if take and state.observation(seat).phase == phase:
                found.append(state.clone())
            state.apply(bots[seat].choose(state.observation(seat), legal).action)

    worth: dict[tuple[int, int], float] = {}

    def value(index: int, action: int) -> float:
        if (index, action) not in worth:
            total = 0
            for replay in range(replays):
                state = found[index].clone()
                seat = state.current_player()
                state.apply(action)
                players = {
                    s: BasicBot(s) if s == seat else make_bot(table[s], 77 * replay + s)
                    for s in range(len(table))
                }
                while state.current_player() >= 0:
                    mover = state.current_player()
                    obs = state.observation(mover)
                    state.apply(players[mover].choose(obs, state.legal_actions()).action)
                total += state.chips[seat]
            worth[(index, action)] = total / replays
        return worth[(index, action)]

    results: dict[str, list[float]] = {}
    for level in levels:
        values = []
        for index, state in enumerate(found):
            seat = state.current_player()
            if level == "best":
                values.append(max(value(index, a) for a in state.legal_actions()))
                continue
            bot = BOT_LEVELS[level](index)
            choice = bot.choose(state.observation(seat), state.legal_actions()).action
            values.append(value(index, choice))
        results[level] = values
    return results


def print_times(timing: dict[tuple[str, str], list[float]]) -> None:
    print("| level | decision | count | median ms | p90 ms |")
    print("|---|---|---:|---:|---:|")
    for level in sorted({lv for lv, _ in timing if lv != "random"}):
        for phase in ("widow", "auction", "betting", "play"):
            values = sorted(timing.get((level, phase), []))
            if not values:
                continue
            p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
            print(
                f"| {level} | {phase} | {len(values)} | {statistics.median(values) * 1e3:.3f} "
                f"| {p90 * 1e3:.3f} |"
            )
        every = sorted(v for (lv, _), vs in timing.items() if lv == level for v in vs)
        if every:
            p90 = every[min(len(every) - 1, int(len(every) * 0.9))]
            print(
                f"| {level} | all | {len(every)} | {statistics.median(every) * 1e3:.3f} "
                f"| {p90 * 1e3:.3f} |"
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["times", "tournament", "decisions"])
    parser.add_argument("--rounds", type=int, default=1200, help="rounds to play (at least)")
    parser.add_argument("--game-rounds", type=int, default=10, help="rounds per game")
    parser.add_argument("--rule", action="append", default=[], help="house rule NAME=VALUE")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS), help="2-4 levels, comma-separated")
    parser.add_argument("--phase", default="betting", help="decisions: widow, auction, ...")
    parser.add_argument("--situations", type=int, default=1000, help="decisions: how many")
    parser.add_argument("--table", default="basic,basic,basic,basic", help="decisions: bots")
    args = parser.parse_args(argv)
    levels = [lv.strip() for lv in args.levels.split(",")]
    rules = Rules.from_dict(dict(parse_house_rules(args.rule)))
    if args.mode == "decisions":
        start = time.perf_counter()
        compared = ["strong", "basic", "random"] if args.levels == ",".join(LEVELS) else levels
        if args.phase in ("widow", "play"):
            compared.append("best")  # few choices: hindsight's best is cheap to find
        table = [lv.strip() for lv in args.table.split(",")]
        results = decision_quality(args.phase, args.situations, rules, table, compared)
        print(
            f"rules: {rules.changed() or 'defaults'}; {args.phase} decisions of a basic seat; "
            f"table {','.join(table)}; {args.situations} situations; "
            f"{time.perf_counter() - start:.0f} s"
        )
        print(f"| level | chips at the end of the round | vs {compared[0]} (95% interval) |")
        print("|---|---:|---:|")
        base = results[compared[0]]
        for level, values in results.items():
            diffs = [v - b for v, b in zip(values, base, strict=True)]
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0
            print(
                f"| {level} | {statistics.fmean(values):.2f} | "
                f"{statistics.fmean(diffs):+.2f} ± {half:.2f} |"
            )
        return
    rounds = args.rounds if args.mode == "tournament" else min(args.rounds, 240)
    games, timing, seconds = tournament(
        rounds, args.game_rounds, rules, args.seed, args.jobs, levels
    )
    played = sum(1 for g in games for level, _ in g if level == "")
    print(
        f"rules: {rules.changed() or 'defaults'}; seed {args.seed}; {len(games)} games, "
        f"about {played} rounds, {seconds:.1f} s ({played / seconds:.1f} rounds/s), "
        f"jobs {args.jobs}"
    )
    if args.mode == "times":
        print_times(timing)
        return
    print("| level | chips won per round | 95% interval | seat-rounds |")
    print("|---|---:|---:|---:|")
    for level in dict.fromkeys(levels):
        mean, half, n = level_figures(games, level)
        print(f"| {level} | {mean:+.2f} | {mean - half:+.2f} .. {mean + half:+.2f} | {n} |")
    print_times(timing)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
