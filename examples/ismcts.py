"""OpenSpiel's ISMCTS, through the adapter, against the project's strong computer player.

    RUMMOLI_PURE=1 PYTHONPATH=src .venv/bin/python examples/ismcts.py --game rummoli \
        --rounds 60 --simulations 60

Seat 0 is OpenSpiel's information-set MCTS (its Python implementation, random rollouts,
a fresh deal sampled for every simulation by ``resample_from_infostate``); every other
seat is the game's ``strong`` player. Each round (Rummy: hand) is a separate OpenSpiel
game with a random first dealer; the result is seat 0's mean return per round (chips or
points) with a 95% interval, beside what a uniformly random seat 0 gets against the same
players.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rummoli.envs.openspiel  # noqa: F401  (registers the games)
from rummoli.bots import ask_bot
from rummoli.envs.adapters import adapter_for


def play_round(
    game: pyspiel.Game,
    seat0: str,
    strong: dict[int, object],
    rng: random.Random,
    bot: ismcts.ISMCTSBot | None,
) -> float:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        elif state.current_player() == 0:
            if seat0 == "ismcts":
                assert bot is not None
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        else:
            seat = state.current_player()
            table = state.table
            state.apply_action(ask_bot(strong[seat], table.engine, seat).action)
    return float(state.returns()[0])


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+.2f} ± {half:.2f} (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="rummoli", choices=["rummoli", "rummy"])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    adapter = adapter_for(args.game)
    players = args.players or adapter.description().default_players
    params = {"players": players}
    if args.game == "rummy":
        params["max_moves"] = 300
    game = pyspiel.load_game(f"python_{adapter.env_name}", params)
    factory = adapter.description().bot_factory("strong")
    results: dict[str, list[float]] = {"ismcts": [], "random": []}
    start = time.perf_counter()
    for number in range(args.rounds):
        for seat0 in ("ismcts", "random"):
            strong = {s: factory(args.seed * 1000 + number * 10 + s) for s in range(1, players)}
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(number))
            bot = ismcts.ISMCTSBot(
                game,
                evaluator,
                2.0 * adapter.utility_bounds(game.config)[1],
                args.simulations,
                random_state=np.random.RandomState(number),
            )
            # The same deal for both (Rummy's later stock draws may differ).
            deal = random.Random(args.seed * 7919 + number)
            results[seat0].append(play_round(game, seat0, strong, deal, bot))
        print(
            f"round {number + 1}: ismcts {interval(results['ismcts'])}, "
            f"random {interval(results['random'])}",
            flush=True,
        )
    amount = adapter.description().amount
    print(
        f"\n{adapter.description().title}, {players} players, seat 0 against the strong "
        f"player, {args.simulations} simulations a decision, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for seat0, values in results.items():
        print(f"  {seat0:7s} {amount} per {adapter.description().round_word}: {interval(values)}")


if __name__ == "__main__":
    main()
