"""Alembic's environment for the web server's tables: migrations run on the connection
that :func:`rummoli.web.migrate.upgrade` hands over (no ``alembic.ini``, no URL here)."""

from __future__ import annotations

from alembic import context

from rummoli.web.schema import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through rummoli.web.migrate.upgrade")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite cannot change a column in place: Alembic copies the table ("batch").
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
