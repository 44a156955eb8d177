"""Bringing a database's schema up to date: Alembic migrations, run when storage opens.

Every change of the web server's tables is an Alembic revision in ``web/migrations/``
(``0001``: the tables as they were before migrations, ``0002``: 64-bit actions, private
tables, chat). :func:`upgrade` runs when :class:`~.storage.Storage` opens a database, so
``rummoli serve`` (or ``rummoli db upgrade``) always runs on the current schema:

- a new, empty database gets the tables at once and is stamped with the newest revision
  (``create_all``, as Alembic's documentation advises: the same tables, faster);
- a database written before migrations existed (tables, but no ``alembic_version``) is
  stamped ``0001``, the schema it has, and then upgraded;
- any other database is upgraded from the revision it records;
- a database that records a revision this code does not know (written by a newer
  Rummoli) is refused: :class:`NewerDatabase`, one sentence that says what to do.

Why Alembic rather than ``create_all`` alone: ``create_all`` only creates missing
tables, so a changed column (the 32-bit ``actions.action`` that overflowed) stays as it
was in every existing database. Migrations change it in place, on SQLite (by copying the
table, Alembic's "batch" mode) and on PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).parent / "migrations"
#: The revision of the schema before migrations (what ``create_all`` made until then).
BASELINE = "0001"
#: The PostgreSQL advisory lock an upgrade holds (any number: this project's own).
LOCK = 0x52554D4D


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision."""
    revision = _script().get_current_head()
    assert revision is not None
    return revision


class NewerDatabase(RuntimeError):
    """The database records a schema revision this code does not know: it was written
    by a newer Rummoli. Upgrading it is impossible and running on it unsafe (a column
    this code does not fill, a table it does not clean), so it is refused, in one
    sentence that says what to do (``rummoli serve`` prints it, without a traceback)."""

    def __init__(self, revision: str, newest: str) -> None:
        super().__init__(
            f"this database was written by a newer version of Rummoli (its schema is at "
            f"revision {revision}, this version knows revisions up to {newest}): run that "
            f"newer version, or give this one another database with --db"
        )
        self.revision = revision
        self.newest = newest


def _script() -> ScriptDirectory:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def refuse_newer(recorded: str | None) -> None:
    """Raise :class:`NewerDatabase` if ``recorded`` (a database's revision) is not one of
    this code's revisions."""
    if recorded is None:
        return
    script = _script()
    if recorded not in {r.revision for r in script.walk_revisions()}:
        raise NewerDatabase(recorded, head())


def current(engine: Engine) -> str | None:
    """The revision a database records (None: none, or no migrations yet)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest revision (see the module's doc)."""
    from rummoli.web.schema import Base

    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            # Copying a table (batch mode) drops the old one: with foreign keys on, that
            # would cascade and delete every seat and action. The pragma only takes
            # effect outside a transaction, so before this one begins.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    # Several processes starting together on one database (serve
                    # --workers) upgrade it one after the other: the others then find
                    # it done. SQLite: the write lock from the start, for the same.
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK})")
                elif sqlite:
                    connection.exec_driver_sql("BEGIN IMMEDIATE")  # the writer's lock first
                tables = set(inspect(connection).get_table_names())
                config = _config(connection)
                if "alembic_version" not in tables:
                    if "games" not in tables:
                        Base.metadata.create_all(connection)
                        command.stamp(config, "head")
                        return
                    command.stamp(config, BASELINE)
                else:
                    refuse_newer(MigrationContext.configure(connection).get_current_revision())
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


__all__ = [
    "BASELINE",
    "MIGRATIONS",
    "NewerDatabase",
    "current",
    "head",
    "refuse_newer",
    "upgrade",
]
