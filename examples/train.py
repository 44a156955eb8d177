"""Train a small policy on this machine's CPU and show it beating the random player.

    python setup.py build_ext --inplace      # the compiled modules (else slower)
    PYTHONPATH=src .venv/bin/python examples/train.py --minutes 8 \
        --png docs/img/train_rummoli.png

The method: REINFORCE with a running-mean baseline on a linear softmax policy over the
legal actions (the mask of ``info["action_mask"]``), numpy only, Adam steps; the
environment: ``rummoli/Rummoli-v0`` (four players, compact betting actions), the learner
in seat 0 against three ``random`` computer players, one round an episode, the reward the
round's chips (won, lost, and the board's change shared). Nothing is downloaded.

Every ``--every`` episodes the policy, acting greedily, is evaluated on a fixed set of
deals (seat 0); at the end the trained policy (greedy) and a uniformly random one are
evaluated as ``rummoli evaluate`` does (``rummoli.sim.evaluate``): ``--final`` duplicate
deals, each played with the policy in every seat against three random players, chips per
round with 95% intervals and the paired difference. The learning curve goes to ``--png``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import gymnasium as gym
import numpy as np
import numpy.typing as npt

import rummoli.envs.gymnasium  # noqa: F401  (registers the environments)
from rummoli.envs.policies import uniform_random
from rummoli.sim.evaluate import Figures
from rummoli.sim.evaluate import evaluate as duplicate

Array = npt.NDArray[np.float64]


class LinearPolicy:
    """Logits ``W x + b`` over every action; illegal ones masked out."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (actions, features))
        self.b = np.zeros(actions)
        self.m = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self.v = [np.zeros_like(self.w), np.zeros_like(self.b)]
        self.t = 0

    def probabilities(self, x: Array, mask: npt.NDArray[np.int8]) -> Array:
        logits = self.w @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def step(self, grads: list[Array], lr: float) -> None:
        """One Adam step up the gradient."""
        self.t += 1
        for i, (param, grad) in enumerate(zip((self.w, self.b), grads, strict=True)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * grad
            self.v[i] = 0.999 * self.v[i] + 0.001 * grad * grad
            m = self.m[i] / (1 - 0.9**self.t)
            v = self.v[i] / (1 - 0.999**self.t)
            param += lr * m / (np.sqrt(v) + 1e-8)


def evaluate(env: gym.Env, policy: LinearPolicy | None, seeds: range) -> list[float]:
    """Chips per round on fixed deals: greedy policy, or uniformly random (None)."""
    rng = np.random.default_rng(0)
    results = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            if policy is None:
                action = int(rng.choice(legal))
            else:
                action = int(np.argmax(policy.probabilities(obs, info["action_mask"])))
            obs, reward, done, _, info = env.step(action)
            total += reward
        results.append(total)
    return results


def interval(values: list[float]) -> str:
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):+.2f} ± {half:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--every", type=int, default=2000, help="episodes between evaluations")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation deals")
    parser.add_argument("--final", type=int, default=2000, help="duplicate deals at the end")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--png", default="")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = gym.make("rummoli/Rummoli-v0", opponents="random", actions="compact", players=4).unwrapped
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(env.observation_space.shape[0], int(env.action_space.n), rng)
    eval_seeds = range(10**6, 10**6 + args.eval)
    curve: list[tuple[int, float, float]] = []
    baseline, episodes = 0.0, 0
    start = time.perf_counter()
    deadline = start + 60 * args.minutes

    def checkpoint() -> None:
        scores = evaluate(env, policy, eval_seeds)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
        curve.append((episodes, statistics.fmean(scores), half))
        print(
            f"{episodes:7d} episodes, {time.perf_counter() - start:5.0f} s: "
            f"greedy policy {interval(scores)} chips a round",
            flush=True,
        )

    checkpoint()
    while time.perf_counter() < deadline:
        obs, info = env.reset(seed=args.seed * 10**7 + episodes)
        steps: list[tuple[Array, npt.NDArray[np.int8], int]] = []
        total, done = 0.0, False
        while not done:
            p = policy.probabilities(obs, info["action_mask"])
            action = int(rng.choice(len(p), p=p))
            steps.append((obs, info["action_mask"], action))
            obs, reward, done, _, info = env.step(action)
            total += reward
        episodes += 1
        advantage = (total - baseline) / 100.0  # chips, scaled to about one
        baseline += 0.01 * (total - baseline)
        if steps and advantage:
            gw = np.zeros_like(policy.w)
            gb = np.zeros_like(policy.b)
            for x, mask, action in steps:
                p = policy.probabilities(x, mask)
                g = -p
                g[action] += 1.0
                gw += advantage * np.outer(g, x)
                gb += advantage * g
            policy.step([gw, gb], args.lr)
        if episodes % args.every == 0:
            checkpoint()
    checkpoint()
    seconds = time.perf_counter() - start
    random_play = evaluate(env, None, eval_seeds)

    def greedy(x: Array, mask: npt.NDArray[np.int8]) -> int:
        return int(np.argmax(policy.probabilities(x, mask)))

    config = env.config
    trained = Figures("trained", duplicate(greedy, "random", config, args.final, seed=1))
    uniform = Figures("random", duplicate(uniform_random(1), "random", config, args.final, 1))
    gain = Figures("gain", [a - b for a, b in zip(trained.values, uniform.values, strict=True)])
    print(f"\n{episodes} episodes in {seconds:.0f} s")
    print(f"{args.final} duplicate deals, each policy in every seat against 3 random players:")
    for name, figures in (("trained policy (greedy)", trained), ("random policy", uniform)):
        print(f"  {name:24s} {figures.mean():+.2f} ± {figures.half():.2f} chips a round")
    print(f"  {'difference, deal by deal':24s} {gain.mean():+.2f} ± {gain.half():.2f}")
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = [c[0] for c in curve]
        ys = [c[1] for c in curve]
        err = [c[2] for c in curve]
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label="trained policy (greedy)")
        mean_random = statistics.fmean(random_play)
        ax.axhline(mean_random, color="grey", linestyle="--", label="random policy")
        ax.set_xlabel("training rounds (episodes)")
        ax.set_ylabel("chips a round, seat 0, vs 3 random players")
        ax.set_title("REINFORCE, linear policy, Rummoli (4 players)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)
        print(f"learning curve: {args.png}")


if __name__ == "__main__":
    main()
