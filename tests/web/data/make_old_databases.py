"""How the old databases of the migration tests were made (kept for the record).

Run once with the server's code as it was before storage had migrations (commit
a590e73, "today's code" of issue 12), from the tests/web directory:

    RUMMOLI_PURE=1 PYTHONPATH=../../src python data/make_old_databases.py

It plays, with that code, a finished Rummoli game, a Rummoli game half-way, a waiting
table and a Basic Rummy match half-way, into ``old.db`` (SQLite) and into a private
PostgreSQL server whose dump is ``old_pg.sql``; ``old_games.json`` says what each table
held (ids, tokens, actions) so the tests can check the upgraded database resumes them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from fastapi.testclient import TestClient  # noqa: E402
from pgserver import _bin_dir, postgres_server  # noqa: E402
from webtools import FAST, choose, connect, create_table, drive, join  # noqa: E402

from rummoli.web.app import create_app  # noqa: E402


def fill(url: str) -> dict[str, object]:
    app = create_app(url, timing=FAST)
    out: dict[str, object] = {}
    with TestClient(app) as client:
        rng = random.Random(12)
        done = create_table(client, ["human", "random"], rules={"rounds": 1})
        token = join(client, done, "Ann")["token"]
        with connect(client, done, token) as conn:
            drive([conn], rng)
        half = create_table(
            client, ["human", "random", "random"], rules={"rounds": 3, "bet_limit": 2}
        )
        half_token = join(client, half, "Bea")["token"]
        with connect(client, half, half_token) as conn:
            for _ in range(4):
                view = conn.wait_view(lambda v: v["to_move"] == conn.seat)
                conn.send({"type": "action", "action": choose(view, rng), "step": conn.step})
                conn.until(lambda f: f["type"] == "update")
            conn.wait_view(lambda v: v["to_move"] == conn.seat)
        waiting = create_table(client, ["human", "human"])
        join(client, waiting, "Cy")
        rummy = create_table(client, ["human", "random"], game="rummy", rules={"target": 50})
        rummy_token = join(client, rummy, "Dee")["token"]
        with connect(client, rummy, rummy_token) as conn:
            view = conn.wait_view(lambda v: v["to_move"] == conn.seat)
            conn.send(
                {"type": "action", "action": view["legal_actions"][0]["action"], "step": conn.step}
            )
            conn.until(lambda f: f["type"] == "update")
            conn.wait_view(lambda v: v["to_move"] == conn.seat)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        for table in (done, half, rummy):
            out[table] = hub.storage.load_game(table).actions
        out["tables"] = {"finished": done, "playing": half, "waiting": waiting, "rummy": rummy}
        out["tokens"] = {"playing": half_token, "rummy": rummy_token, "finished": token}
    return out


def main() -> None:
    sqlite = HERE / "old.db"
    sqlite.unlink(missing_ok=True)
    games = {"sqlite": fill(f"sqlite:///{sqlite}")}
    with postgres_server() as url:
        games["postgresql"] = fill(url)
        port = url.split(":")[-1].split("/")[0]
        dump = subprocess.run(
            [
                str(_bin_dir() / "pg_dump"),
                "-h",
                "127.0.0.1",
                "-p",
                port,
                "-U",
                "rummoli",
                "--no-owner",
                "--no-privileges",
                "--inserts",
                "rummoli",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        (HERE / "old_pg.sql").write_text(dump.stdout, encoding="utf-8")
    (HERE / "old_games.json").write_text(json.dumps(games, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
