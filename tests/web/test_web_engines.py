"""The SQLite engine's switch to WAL while another process holds the database's lock.

``serve --workers`` starts several processes on one new database together; one of
them upgrading the schema held a write lock while another opened its first connection,
whose ``PRAGMA journal_mode=WAL`` SQLite refuses at once (not through the busy timeout).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from rummoli.web import engines


def _writer_holding_the_lock(path: Path) -> sqlite3.Connection:
    """A connection in the middle of a write, as another process's migration would be."""
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("CREATE TABLE marks (n INTEGER)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO marks VALUES (7)")
    return writer


def test_a_new_connection_waits_for_the_writer_then_switches_to_wal(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    writer = _writer_holding_the_lock(path)
    threading.Timer(0.5, lambda: writer.execute("COMMIT")).start()
    engine = engines.engine_for(f"sqlite:///{path}")
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("SELECT n FROM marks")).scalars().all() == [7]
    engine.dispose()
    writer.close()


def test_a_lock_held_past_the_wait_is_still_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engines, "WAL_SWITCH_SECONDS", 0.3)
    path = tmp_path / "held.db"
    writer = _writer_holding_the_lock(path)
    engine = engines.engine_for(f"sqlite:///{path}")
    with pytest.raises(Exception, match="database is locked"):
        engine.connect()
    engine.dispose()
    writer.execute("COMMIT")
    writer.close()
