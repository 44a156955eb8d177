"""CPU of one group commit of the web table, by the number of actions it stores.

The group commit (``rummoli.web.hub.Hub.store_action``) stores the actions every room
accepted meanwhile in one transaction: their rows, then the fence's read of their tables'
epochs (``rummoli.web.leases.check_fence``), then the commit. This times exactly that,
``rummoli.web.storage.Storage.append_rows`` with a fence, on a temporary SQLite file (or
the database of ``--db``), for a few batch sizes: ``time.process_time()`` over
``--commits`` commits of each size, best of ``--repeats``. A busy server's commits hold a
few actions each (a commit runs while the next actions arrive), a quiet one's one.

    PYTHONPATH=src .venv/bin/python bench/bench_commit.py
    PYTHONPATH=src .venv/bin/python bench/bench_commit.py --sizes 1 4 16 64 --commits 1000
    PYTHONPATH=src .venv/bin/python bench/bench_commit.py --db postgresql://USER@HOST/DB

Figures: docs/performance.md ("The client's frames and the commit's SQL").
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rummoli.web.leases import Leases
from rummoli.web.storage import PLAYING, Storage, StoredGame, StoredSeat

#: Tables the commits write to (each commit takes the next ones in turn).
TABLES = 256


def _storage(url: str) -> tuple[Storage, list[str], dict[str, int]]:
    """A storage with :data:`TABLES` playing tables, all leased by one owner."""
    storage = Storage(url)
    ids = [f"bench-commit-{i}" for i in range(TABLES)]
    for game_id in ids:
        storage.create_game(
            StoredGame(id=game_id, status=PLAYING, rules={}, seed=1, seats=[StoredSeat(0)])
        )
    epochs = Leases(storage.engine, "bench", ttl=600).acquire(ids, force=True)
    return storage, ids, epochs


def time_commits(
    storage: Storage,
    ids: list[str],
    epochs: dict[str, int],
    size: int,
    commits: int,
    next_index: dict[str, int],
) -> float:
    """CPU seconds per commit of ``size`` actions (each of another table), with its fence."""
    started = time.process_time()
    for k in range(commits):
        first = (k * size) % TABLES
        tables = [ids[(first + j) % TABLES] for j in range(size)]
        rows = []
        for game_id in tables:
            rows.append((game_id, next_index[game_id], 7))
            next_index[game_id] += 1
        storage.append_rows(rows, fence={game_id: epochs[game_id] for game_id in tables})
    return (time.process_time() - started) / commits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--commits", type=int, default=400, help="commits of each size")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--db", help="a database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    if not all(1 <= size <= TABLES for size in args.sizes):
        parser.error(f"--sizes from 1 to {TABLES}")
    if not 1 <= args.commits <= 100_000 or not 1 <= args.repeats <= 20:
        parser.error("--commits from 1 to 100,000, --repeats from 1 to 20")
    with tempfile.TemporaryDirectory(prefix="rummoli-commit-") as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'commit.db'}"
        storage, ids, epochs = _storage(url)
        next_index = dict.fromkeys(ids, 0)
        try:
            for size in args.sizes:
                runs = [
                    time_commits(storage, ids, epochs, size, args.commits, next_index)
                    for _ in range(args.repeats)
                ]
                best = min(runs)
                print(
                    f"{size:4d} actions a commit: best {1000 * best:.3f} ms CPU a commit, "
                    f"{1000 * best / size:.3f} ms an action "
                    f"(runs {', '.join(f'{1000 * r:.3f}' for r in runs)})"
                )
        finally:
            if args.db:  # a database of the user's: the tables made here go again
                for game_id in ids:
                    storage.delete_game(game_id)
            storage.close()


if __name__ == "__main__":
    main()
