"""What the learning environments show, as digests to compare between two checkouts.

A speed change must leave every observation the same: this prints one SHA-256 per
stream, for random play with fixed seeds:

- every PettingZoo observation (tensor and action mask), reward, termination and agent
  of ``--episodes`` episodes of ``rummoli_v0`` (exact and compact actions, and a whole
  game of three rounds) and of ``basic_rummy_v0`` (a hand, and a match of four players),
  as ``env.last()`` gives them to each agent in turn;
- the observation and information-state tensors and strings of every seat at every
  step of ``--tables`` random tables of each game (the OpenSpiel front end's data).

    PYTHONPATH=BEFORE/src python bench/envs_fingerprint.py > before.txt
    PYTHONPATH=AFTER/src python bench/envs_fingerprint.py > after.txt && diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import random
from typing import Any

import numpy as np


def pettingzoo_digest(module: str, params: dict[str, Any], episodes: int) -> str:
    env = importlib.import_module(f"rummoli.envs.pettingzoo.{module}").raw_env(**params)
    digest = hashlib.sha256()
    rng = random.Random(1)
    for episode in range(episodes):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            digest.update(agent.encode())
            digest.update(np.asarray(obs["observation"], np.float32).tobytes())
            digest.update(np.asarray(obs["action_mask"], np.int8).tobytes())
            digest.update(repr((float(reward), terminated, truncated)).encode())
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    return digest.hexdigest()


def table_digest(game: str, params: dict[str, Any], tables: int) -> str:
    from rummoli.envs.adapters import adapter_for
    from rummoli.envs.table import Table

    config = adapter_for(game).config(params)
    digest = hashlib.sha256()
    rng = random.Random(2)
    for _ in range(tables):
        table = Table(config)
        while not table.is_terminal():
            for seat in range(table.num_players):
                digest.update(table.observation_tensor(seat).tobytes())
                digest.update(table.information_state_tensor(seat).tobytes())
                digest.update(table.observation_string(seat).encode())
                digest.update(table.information_state_string(seat).encode())
            legal = table.legal_actions()
            table.apply(legal[rng.randrange(len(legal))])
        digest.update(repr(table.returns()).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    e, t = args.episodes, args.tables
    streams = [
        ("rummoli_v0", {}, e),
        ("rummoli_v0", {"actions": "compact", "players": 3}, e),
        ("rummoli_v0", {"length": "game", "rounds": 3}, e // 10),
        ("basic_rummy_v0", {}, e // 3),
        ("basic_rummy_v0", {"players": 4, "length": "game", "max_hands": 3}, e // 30),
    ]
    for module, params, episodes in streams:
        print(f"pettingzoo {module} {params}: {pettingzoo_digest(module, params, episodes)}")
    for game, params in (("rummoli", {}), ("rummoli", {"actions": "compact"}), ("rummy", {})):
        print(f"table {game} {params}: {table_digest(game, params, t)}")


if __name__ == "__main__":
    main()
