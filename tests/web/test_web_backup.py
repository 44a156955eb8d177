"""``rummoli backup``: a consistent copy of the SQLite database, even while it is being
written, checked before it gets its name; and every bad request refused with its reason,
nothing written."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner
from webtools import choose, connect, create_table, db_url, join, server

from rummoli.cli import app
from rummoli.web.backup import BackupError, backup
from rummoli.web.storage import Storage


def played_database(path: Path) -> None:
    """A database with a table that has played some actions."""
    rng = random.Random(4)
    with server(path) as client:
        table = create_table(client, ["human", "random", "random"])
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as ann:
            for _ in range(4):
                ann.wait_view(lambda v: v["to_move"] == ann.seat and v.get("legal_actions"))
                ann.send({"type": "action", "action": choose(ann.view, rng), "step": ann.step})
                ann.until(lambda f: f["type"] in ("update", "error"))


def test_the_copy_holds_every_game_as_stored(tmp_path: Path) -> None:
    source = tmp_path / "live.db"
    played_database(source)
    made = backup(db_url(source), tmp_path / "copy.db")
    assert made.games == 1 and made.size == (tmp_path / "copy.db").stat().st_size
    original, copy = Storage(db_url(source)), Storage(db_url(tmp_path / "copy.db"))
    try:
        (game,) = original.load_unfinished()
        assert len(game.actions) > 4
        assert copy.load_game(game.id) == game
    finally:
        original.close()
        copy.close()
    assert not (tmp_path / "copy.db-wal").exists()  # one file, whole
    assert not list(tmp_path.glob(".*partial"))


def test_a_backup_while_the_database_is_written_is_consistent(tmp_path: Path) -> None:
    source = tmp_path / "live.db"
    Storage(db_url(source)).close()
    with sqlite3.connect(source) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(
            "INSERT INTO games (id, game, status, rules, seed, turn_timer, time_limit, "
            "created_at, public, players_chat_public) "
            "VALUES ('g', 'rummoli', 'playing', '{}', 1, 0, 0, '2026-01-01', 0, 0)"
        )
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:  # another process's writes, as the server's
        with sqlite3.connect(source, isolation_level=None) as db:
            i = 0
            while not stop.is_set():
                db.execute("INSERT INTO actions (game_id, idx, action) VALUES ('g', ?, ?)", (i, i))
                written.append(i)
                i += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(written) < 200:
            pass
        copies = [backup(db_url(source), tmp_path / f"copy{n}.db") for n in range(3)]
    finally:
        stop.set()
        thread.join()
    for made in copies:
        with sqlite3.connect(made.destination) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            rows = [i for (i,) in db.execute("SELECT idx FROM actions ORDER BY idx")]
        assert rows == list(range(len(rows))) and len(rows) >= 200  # a prefix, no gap


@pytest.mark.parametrize(
    ("url", "destination", "code"),
    [
        ("postgresql://u@localhost/rummoli", "copy.db", "not_sqlite"),
        ("sqlite://", "copy.db", "no_file"),
        ("sqlite:///{tmp}/nowhere.db", "copy.db", "no_database"),
        ("sqlite:///{tmp}/live.db", "exists.db", "exists"),
        ("sqlite:///{tmp}/live.db", "no/such/folder/copy.db", "no_folder"),
        ("sqlite:///{tmp}/other.db", "copy.db", "not_ours"),
        ("not a url", "copy.db", "bad_url"),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(
    tmp_path: Path, url: str, destination: str, code: str
) -> None:
    Storage(db_url(tmp_path / "live.db")).close()
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE notes (x)")
    (tmp_path / "exists.db").write_bytes(b"keep me")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(BackupError) as refused:
        backup(url.format(tmp=tmp_path), tmp_path / destination)
    assert refused.value.code == code
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_command_says_what_it_did_in_the_readers_language(tmp_path: Path) -> None:
    Storage(db_url(tmp_path / "live.db")).close()
    runner = CliRunner()
    url = db_url(tmp_path / "live.db")
    done = runner.invoke(app, ["backup", "--db", url, str(tmp_path / "copy.db")])
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"backed up {tmp_path / 'live.db'} to {tmp_path / 'copy.db'}")
    assert ": 0 games," in done.output
    again = runner.invoke(app, ["backup", "--db", url, str(tmp_path / "copy.db")])
    assert again.exit_code == 1
    assert "exists already: a backup never overwrites a file" in again.output
    from rummoli import i18n

    with i18n.language("fr"):
        french = runner.invoke(app, ["backup", "--db", "postgresql://u@h/db", "x.db"])
    assert french.exit_code == 1
    assert "pg_dump" in french.output and "aucune sauvegarde faite\u202f:" in french.output
