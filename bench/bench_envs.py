"""Random play through each learning environment, beside other card-game environments.

Run in one sitting, on one machine (the figures in docs/performance.md came from it):

    python setup.py build_ext --inplace      # compiled (else plain Python, slower)
    PYTHONPATH=src .venv/bin/python bench/bench_envs.py --seconds 3

Each line is a uniformly random legal action at every decision (chance as each library
draws it), for ``--seconds`` of wall time:

- the Table (the explicit-chance layer every front end uses), each game;
- PettingZoo AEC with action masks (``env.last()``, a masked sample, ``env.step``),
  through ``raw_env()``, the documented ``env()`` and (for comparison) ``raw_env()`` in
  PettingZoo's two checking wrappers, what ``env()`` was before; the
  sample drawn two ways: numpy's ``Generator.choice`` over ``np.flatnonzero(mask)`` (about
  15 microseconds a draw, more than a step of the environment) and Python's
  ``randrange`` over ``mask.nonzero()[0]`` (about 2), the cost of the agent's side;
  seeded once (``reset(seed=0)``, then ``reset()`` for each game), as a training loop is;
- Gymnasium (one random seat against random computer players; steps of the learner),
  seeded once too;
- OpenSpiel through pyspiel: the Python games here (every chance node a step), and
  OpenSpiel's C++ ``gin_rummy`` and ``leduc_poker``;
- the information-state string late in a hand (its size, a call's time);
- RLCard's gin rummy (``rlcard`` is installed with the rl extra for this comparison);
- Basic Rummy hands per second: the engine alone, random players, one hand each, the
  random choice made by Python's ``random.Random.randrange`` (a third of the loop's time
  with the engine compiled) or by the project's compiled ``SeededRandom.below``.

A step is one decision (chance steps are not counted, except where a library makes
them part of its loop: OpenSpiel's are counted apart). Each figure is per second of
wall-clock time, then per second of this process's CPU time (which other jobs on a
shared machine disturb less).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

#: A rate: per second of wall-clock time, and per second of CPU time.
Rate = tuple[float, float]


def _timed(run: Callable[[], int], seconds: float) -> Rate:
    """Steps per second of ``run`` (one episode, returning its steps) over ``seconds``."""
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += run()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return steps / wall, steps / max(cpu, 1e-9)


def _text(rate: Rate) -> str:
    return f"{rate[0]:,.0f} ({rate[1]:,.0f} per CPU-s)"


def bench_table(game: str, seconds: float) -> Rate:
    from rummoli.envs import chance
    from rummoli.envs.adapters import adapter_for
    from rummoli.envs.table import Table

    config = adapter_for(game).config({})
    # The table's chance generator (random.Random before the environments had their own,
    # so that this runs on an earlier commit too, for a before/after comparison).
    make = getattr(chance, "chance_generator", random.Random)
    rng = make(0)
    below = getattr(rng, "below", rng.randrange)

    def run() -> int:
        table = Table(config, keep_log=False)
        steps = 0
        while True:
            table.play_chance(rng)
            if table.is_terminal():
                return steps
            legal = table.legal_actions()
            table.apply(legal[below(len(legal))])
            steps += 1

    return _timed(run, seconds)


def bench_pettingzoo(
    module: str, seconds: float, sampler: str = "numpy", entry: str = "raw_env"
) -> Rate:
    """Masked random play through the AEC API; ``sampler``: ``numpy`` or ``python``;
    ``entry``: ``raw_env``, ``env`` (the documented one) or ``wrapped`` (``raw_env``
    inside PettingZoo's OrderEnforcingWrapper and AssertOutOfBoundsWrapper: what ``env``
    was before the environment did their checks itself)."""
    import importlib

    made = importlib.import_module(f"rummoli.envs.pettingzoo.{module}")
    if entry == "wrapped":
        from pettingzoo.utils import wrappers

        env = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(made.raw_env()))
    else:
        env = getattr(made, entry)()
    rng = np.random.default_rng(0)
    py_rng = random.Random(0)
    env.reset(seed=0)  # seeded once, as a training loop is: each reset goes on from it

    def sample(mask: np.ndarray) -> int:
        if sampler == "numpy":
            return int(rng.choice(np.flatnonzero(mask)))
        legal = mask.nonzero()[0]
        return int(legal[py_rng.randrange(len(legal))])

    def run() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(sample(obs["action_mask"]))
            steps += 1
        return steps

    return _timed(run, seconds)


def bench_gymnasium(env_id: str, seconds: float) -> Rate:
    import gymnasium as gym

    import rummoli.envs.gymnasium  # noqa: F401

    env = gym.make(env_id, opponents="random").unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=0)  # seeded once, as for PettingZoo

    def run() -> int:
        _, info = env.reset()
        steps, done = 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, done, _, info = env.step(action)
            steps += 1
        return steps

    return _timed(run, seconds)


def bench_pyspiel(name: str, seconds: float) -> tuple[Rate, float]:
    """(decisions per second of wall-clock and of CPU time, all steps per wall-clock
    second) of random play in an OpenSpiel game."""
    import pyspiel

    import rummoli.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    total = [0]

    def run() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            total[0] += 1
        return decisions

    start = time.perf_counter()
    rate = _timed(run, seconds)
    return rate, total[0] / (time.perf_counter() - start)


def bench_infostate(name: str, seconds: float, decisions: int = 200) -> str:
    """The information-state string of the player to move late in a hand (at its
    ``decisions``-th decision, or its last): its size, and the time one call takes."""
    import pyspiel

    import rummoli.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(name)
    rng = random.Random(3)
    while True:
        state = game.new_initial_state()
        done, last = 0, None
        while not state.is_terminal() and done < decisions:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            last = state.clone()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
        if last is not None:
            break
    player = last.current_player()
    size = len(last.information_state_string(player).encode())
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        last.information_state_string(player)
        calls += 1
    each = (time.perf_counter() - start) / calls
    return f"{size:,} bytes, {each * 1e6:,.0f} microseconds a call (decision {done})"


def bench_rlcard(seconds: float) -> Rate:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = random.Random(0)

    def run() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return _timed(run, seconds)


def bench_rummy_hands(seconds: float, sampler: str = "python") -> Rate:
    """Random hands of Basic Rummy per second, the engine alone (one hand a game);
    ``sampler``: ``python`` (``random.Random``) or ``seeded`` (``SeededRandom``)."""
    from rummoli.engine.base import CHANCE_ACTION
    from rummoli.engine.rng import SeededRandom
    from rummoli.games import registry

    description = registry.describe("rummy")
    rng = random.Random(0)
    fast = SeededRandom(0)
    below = rng.randrange if sampler == "python" else fast.below
    seed = [0]

    def run() -> int:
        seed[0] += 1
        setup = {"players": ["a", "b"], "dealer": 0, "single_hand": True}
        state = description.stored_game({}, setup, seed[0])
        state.apply(CHANCE_ACTION)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[below(len(legal))])
        return 1

    return _timed(run, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument(
        "--only", action="append", default=[], help="measure only lines naming this (repeatable)"
    )
    args = parser.parse_args()
    s = args.seconds
    measures: list[tuple[str, Callable[[], str]]] = []
    for game in ("rummoli", "rummy"):
        measures.append((f"Table, {game}, decisions/s", lambda g=game: _text(bench_table(g, s))))
    for sampler in ("numpy", "python"):
        for module in ("rummoli_v0", "basic_rummy_v0"):
            for entry in ("raw_env", "env", "wrapped"):
                if entry == "wrapped" and sampler == "numpy":
                    continue
                measures.append(
                    (
                        f"PettingZoo {module}.{entry}(), masked steps/s ({sampler} sample)",
                        lambda m=module, sa=sampler, e=entry: _text(bench_pettingzoo(m, s, sa, e)),
                    )
                )
    for env_id in ("rummoli/Rummoli-v0", "rummoli/BasicRummy-v0"):
        measures.append(
            (
                f"Gymnasium {env_id} vs random, learner steps/s",
                lambda i=env_id: _text(bench_gymnasium(i, s)),
            )
        )
    for name in ("python_rummoli", "python_basic_rummy", "gin_rummy", "leduc_poker"):

        def spiel(n: str = name) -> str:
            decisions, steps = bench_pyspiel(n, s)
            return f"{_text(decisions)}, all steps {steps:,.0f}"

        measures.append((f"pyspiel {name}, decisions/s", spiel))

    for name in ("python_rummoli", "python_basic_rummy"):
        measures.append(
            (
                f"pyspiel {name}, information-state string late in a hand",
                lambda n=name: bench_infostate(n, min(s, 1.0)),
            )
        )

    def rlcard() -> str:
        try:
            return _text(bench_rlcard(s))
        except ImportError:
            return "rlcard not installed"

    measures.append(("RLCard gin-rummy, steps/s", rlcard))
    for sampler in ("python", "seeded"):
        measures.append(
            (
                f"Basic Rummy engine, random hands/s ({sampler} choice)",
                lambda sa=sampler: _text(bench_rummy_hands(s, sa)),
            )
        )
    for name, measure in measures:
        if not args.only or any(part in name for part in args.only):
            print(f"{name:66s} {measure()}", flush=True)


if __name__ == "__main__":
    main()
