"""The database engine for a URL: SQLite with its pragmas, or PostgreSQL through psycopg 3.

Apart from :mod:`.storage` so that the storage module stays small; :mod:`.storage` and
:mod:`.leases` share the engine it makes.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url

#: How long a connection keeps trying to switch a new database to WAL while another
#: process holds its lock (the same 30 s a writer waits for a lock).
WAL_SWITCH_SECONDS = 30.0


def _use_wal(cursor: Any) -> None:
    """Put the database in WAL mode, waiting for other processes that hold its lock.

    The switch needs the database to itself, and SQLite answers "database is locked"
    at once rather than through the busy timeout when another connection holds it:
    several processes opening one new database together (``serve --workers``) met
    that. A database already in WAL mode (every connection but the very first) is
    left as it is without asking for the lock.
    """
    deadline = time.monotonic() + WAL_SWITCH_SECONDS
    while True:
        try:
            if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (history, statistics) run beside the writer; synchronous=NORMAL
    # keeps every commit safe from a crash of the server (not of the machine) at a
    # fraction of the cost of a full sync per action.
    cursor = dbapi_connection.cursor()
    _use_wal(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def engine_for(url: str) -> Engine:
    parsed: URL = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        # A writer waits up to 30 s for another's lock (sqlite3's default is 5 s): several
        # processes starting together (serve --workers) upgrade the schema one after the
        # other, and on a busy machine the first one's upgrade can outlast 5 s.
        engine = create_engine(parsed, connect_args={"timeout": 30.0})
        event.listen(engine, "connect", sqlite_pragmas)
        return engine
    if parsed.drivername == "postgresql":
        # psycopg 3 (the ``postgres`` extra), not SQLAlchemy's default psycopg2.
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(parsed, pool_pre_ping=True)


__all__ = ["engine_for", "sqlite_pragmas"]
