"""Rummy computer players: decision times per level, table size and kind of decision.

    python bench/bench_rummy_bots.py                   # 2 and 4 players, 100 hands each
    python bench/bench_rummy_bots.py --hands 300 --players 2

Whole matches with one bot of each level at the table (``strong,basic`` at 2 seats,
``strong,basic,random,random`` at 4, rotated every match); every real decision is timed
through ``ask_bot`` (the observation is built, the bot decides, the answer is checked),
in CPU time (``time.process_time``: the machine may be shared), by level and by kind:
``draw`` (stock or discard pile) and ``play`` (meld, lay off, discard).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from rummoli.bots import ask_bot, make_bot
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.rummy import Rules, RummyState
from rummoli.games.rummy import actions as act
from spread import spread

LINEUPS = {
    2: ("strong", "basic"),
    3: ("strong", "basic", "random"),
    4: ("strong", "basic", "random", "random"),
}


def measure(players: int, hands: int, seed: int) -> dict[tuple[str, str], list[float]]:
    lineup = LINEUPS[players]
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    played = 0
    match = 0
    while played < hands:
        shift = match % players
        levels = [lineup[(seat - shift) % players] for seat in range(players)]
        bots = [make_bot(level, seed + 10 * match + i, "rummy") for i, level in enumerate(levels)]
        state = RummyState.new_game([f"P{i}" for i in range(players)], Rules(), seed + match)
        match += 1
        while not state.is_terminal() and played < hands:
            if state.to_move == CHANCE:
                events = state.apply(CHANCE_ACTION)
            else:
                seat = state.to_move
                kind = "draw" if act.DRAW_STOCK in state.legal_actions() else "play"
                start = time.process_time()
                decision = ask_bot(bots[seat], state, seat)
                times[(levels[seat], kind)].append(time.process_time() - start)
                events = state.apply(decision.action)
            played += sum(1 for e in events if e[0] == "hand_over")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--players", type=int, action="append", choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| players | level | decision | count | median ms | p90 ms | max ms |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for players in args.players or [2, 4]:
        times = measure(players, args.hands, args.seed)
        for (level, kind), samples in sorted(times.items()):
            count, median, p90, most = spread(1000 * t for t in samples)
            print(
                f"| {players} | {level} | {kind} | {count} | {median:.3f} | "
                f"{p90:.3f} | {most:.1f} |"
            )


if __name__ == "__main__":
    main()
