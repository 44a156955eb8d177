"""Bringing a database's schema up to date: Alembic migrations, run when storage opens.

Every change of the web server's tables is an Alembic revision in ``web/migrations/``
(``0001``: the tables as they were before migrations, ``0002``: 64-bit actions, private
tables, chat). :func:`upgrade` runs when :class:`~.storage.Storage` opens a database, so
``rummoli serve`` (or ``rummoli db upgrade``) always runs on the current schema:

- a new, empty database gets the tables at once and is stamped with the newest revision
  (``create_all``, as Alembic's documentation advises: the same tables, faster);
- a database written before migrations existed (tables, but no ``alembic_version``) is
  stamped ``0001``, the schema it has, and then upgraded;
- any other database is upgraded from the revision it records.

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


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    revision = ScriptDirectory.from_config(config).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The revision a database records (None: none, or no migrations yet)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest revision (see the module's doc)."""
    from rummoli.web.storage import Base

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
                tables = set(inspect(connection).get_table_names())
                config = _config(connection)
                if "alembic_version" not in tables:
                    if "games" not in tables:
                        Base.metadata.create_all(connection)
                        command.stamp(config, "head")
                        return
                    command.stamp(config, BASELINE)
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


__all__ = ["BASELINE", "MIGRATIONS", "current", "head", "upgrade"]
