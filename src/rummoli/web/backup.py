"""A copy of the web server's SQLite database, taken while the server runs
(``rummoli backup``).

Why SQLite's online backup API (:meth:`sqlite3.Connection.backup`) and not a file
copy: a copy of ``rummoli.db`` while the server writes it (and its ``-wal`` file beside
it) can be torn and miss the latest commits. The backup API reads the database through
SQLite, as one consistent snapshot in one step: the server keeps writing meanwhile (WAL:
readers do not block the writer), and the copy holds every game committed before it
began. The copy is written beside its destination under a temporary name, checked
(``PRAGMA integrity_check``), and only then renamed into place, so a failed backup never
leaves a half file under the name asked for.

PostgreSQL has its own tool for this, ``pg_dump`` (docs/deploy.md): this module refuses
any database but SQLite, saying so.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError


class BackupError(Exception):
    """Why no backup was made (``code``: which problem; ``path``, where it applies)."""

    def __init__(self, code: str, path: str = "") -> None:
        super().__init__(f"{code}: {path}" if path else code)
        self.code = code
        self.path = path


@dataclass(frozen=True, slots=True)
class Backup:
    """A backup made: where, its size in bytes, the games it holds, how long it took."""

    source: Path
    destination: Path
    size: int
    games: int
    seconds: float


def sqlite_path(url: str) -> Path:
    """The file of an SQLite database URL; :class:`BackupError` for any other database
    (``not_sqlite``: PostgreSQL's is ``pg_dump``) or a bad URL."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BackupError("bad_url", url) from None
    if parsed.get_backend_name() != "sqlite":
        raise BackupError("not_sqlite", parsed.get_backend_name())
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("no_file", url)
    return Path(parsed.database)


def backup(url: str, destination: Path) -> Backup:
    """Copy the SQLite database of ``url`` to ``destination`` (which must not exist: a
    backup never overwrites one), consistently, while the server may be writing it."""
    started = time.monotonic()
    source = sqlite_path(url)
    if not source.is_file():
        raise BackupError("no_database", str(source))
    if destination.exists():
        raise BackupError("exists", str(destination))
    if not destination.parent.is_dir():
        raise BackupError("no_folder", str(destination.parent))
    partial = destination.with_name(f".{destination.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db:
            _check_is_ours(db, source)
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                db.backup(copy)  # every page in one step: one consistent snapshot
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
                if copy.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                    raise BackupError("damaged", str(destination))
                (games,) = copy.execute("SELECT count(*) FROM games").fetchone()
        os.replace(partial, destination)
    except sqlite3.Error as error:
        raise BackupError("sqlite", f"{source}: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    seconds = time.monotonic() - started
    return Backup(source, destination, destination.stat().st_size, int(games), seconds)


def _check_is_ours(db: sqlite3.Connection, source: Path) -> None:
    """A database of the web table (its ``games`` table), not any SQLite file."""
    try:
        found = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
        ).fetchone()
    except sqlite3.DatabaseError:
        found = None
    if found is None:
        raise BackupError("not_ours", str(source))


__all__ = ["Backup", "BackupError", "backup", "sqlite_path"]
