"""The database engine for a URL: SQLite with its pragmas, or PostgreSQL through psycopg 3.

Apart from :mod:`.storage` so that the storage module stays small; :mod:`.storage` and
:mod:`.leases` share the engine it makes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers (history, statistics) run beside the writer; synchronous=NORMAL
    # keeps every commit safe from a crash of the server (not of the machine) at a
    # fraction of the cost of a full sync per action.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
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
