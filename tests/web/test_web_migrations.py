"""Storage migrations (issue 12): a database written before migrations existed is
upgraded when the server opens it, and its games still resume and replay; on SQLite and
on a real PostgreSQL server the tests start (``pgserver.py``). Also the 64-bit action
column on PostgreSQL (finding 2), and that the migrations make the same schema as the
models."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine
from webtools import connect, drive, reference, room

from rummoli.web.migrate import current, head
from rummoli.web.replay import rebuild
from rummoli.web.storage import Base, Storage, StoredGame, StoredSeat

DATA = Path(__file__).parent / "data"
OLD = json.loads((DATA / "old_games.json").read_text(encoding="utf-8"))


def _pg_database(base: str, name: str, dump: bool) -> str:
    import psycopg

    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    url = base.rsplit("/", 1)[0] + f"/{name}"
    if dump:
        # (psql's own commands, such as pg_dump's \restrict lines, are not SQL.)
        lines = (DATA / "old_pg.sql").read_text(encoding="utf-8").splitlines()
        sql = "\n".join(line for line in lines if not line.startswith("\\"))
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(sql)  # type: ignore[call-overload]
    return url


def _check_upgraded(url: str, old: dict[str, Any]) -> None:
    tables = old["tables"]
    with _server_url(url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert current(hub.storage.engine) == head()
        playing = room(client, tables["playing"])
        assert playing.state is not None and list(playing.state.actions) == old[tables["playing"]]
        assert room(client, tables["rummy"]).state.actions == old[tables["rummy"]]
        assert room(client, tables["waiting"]).status == "waiting"
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert {tables["playing"], tables["waiting"], tables["rummy"]} <= listed  # still public
        # The finished game still replays, and its record rebuilds it.
        record = client.get(f"/api/games/{tables['finished']}/record").json()
        assert record["actions"] == old[tables["finished"]]
        replay = client.get(f"/api/games/{tables['finished']}/replay", params={"seat": 0}).json()
        states, _ = reference(record)
        assert len(replay["frames"]) == len(states)
        # The half-played game resumes with its old seat token, and is played to the end.
        with connect(client, tables["playing"], old["tokens"]["playing"]) as bea:
            assert bea.seat == 0
            drive([bea], random.Random(3), seconds=90)
        stored = hub.storage.load_game(tables["playing"])
        state, _ = rebuild(stored)
        assert (
            state.is_terminal()
            and stored.actions[: len(old[tables["playing"]])] == (old[tables["playing"]])
        )


def _server_url(url: str):  # type: ignore[no-untyped-def]
    from contextlib import contextmanager

    from fastapi.testclient import TestClient
    from webtools import FAST

    from rummoli.web.app import create_app
    from rummoli.web.limits import Limits

    # The old databases were made once, on one day: their waiting table must not expire
    # because the test runs later than the server's time to wait (its own tests cover
    # expiry). It did, six hours after they were made.
    keep_waiting = Limits(waiting_ttl=100 * 365 * 86400.0)

    @contextmanager
    def run() -> Iterator[TestClient]:
        app = create_app(url, timing=FAST, allowed_hosts=["testserver"], limits=keep_waiting)
        with TestClient(app) as client:
            yield client

    return run()


def test_an_sqlite_database_of_before_is_upgraded_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(DATA / "old.db", path)
    _check_upgraded(f"sqlite:///{path}", OLD["sqlite"])


def test_a_postgresql_database_of_before_is_upgraded_and_resumes(postgres: str) -> None:
    _check_upgraded(_pg_database(postgres, "old", dump=True), OLD["postgresql"])


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migrations_make_the_models_schema(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """From nothing through every revision (not ``create_all``): the same schema as the
    models, so a database made by either way is the same."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'm.db'}"
    else:
        url = _pg_database(request.getfixturevalue("postgres"), "fresh", dump=False)
    from alembic import command

    from rummoli.web.migrate import _config

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as connection:
        command.upgrade(_config(connection), "head")
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert diff == []


def test_64_bit_actions_on_postgresql(postgres: str) -> None:
    storage = Storage(_pg_database(postgres, "wide", dump=False))
    storage.create_game(StoredGame(id="g", status="playing", rules={}, seed=1, seats=[]))
    storage.create_game(
        StoredGame(id="h", status="playing", rules={}, seed=2, seats=[StoredSeat(0)])
    )
    storage.append_actions([("g", 0, 2**31), ("g", 1, 2**62), ("h", 0, 5)])
    game = storage.load_game("g")
    storage.close()
    assert game is not None and game.actions == [2**31, 2**62]


def test_a_newer_database_is_refused_in_one_sentence(tmp_path: Path) -> None:
    """A database whose revision this code does not know (a newer Rummoli wrote it) is
    neither upgraded nor used: ``Storage`` refuses it, and ``rummoli serve`` says so in
    one sentence (no traceback) and exits 1, leaving the database as it was."""
    from sqlalchemy import text
    from typer.testing import CliRunner

    from rummoli.cli import app
    from rummoli.web.migrate import NewerDatabase

    path = tmp_path / "newer.db"
    url = f"sqlite:///{path}"
    Storage(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    before = path.read_bytes()
    with pytest.raises(NewerDatabase, match=r"revision 0099, this version knows revisions up"):
        Storage(url)
    result = CliRunner().invoke(app, ["serve", "--db", url, "--port", "1"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[-1].startswith("rummoli serve: the database") and "0099" in lines[-1]
    assert "Traceback" not in result.output and "--db" in lines[-1]
    assert current(engine) == "0099" and path.read_bytes() == before
    engine.dispose()
