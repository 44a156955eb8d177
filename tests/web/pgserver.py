"""A private PostgreSQL server for the storage tests, started and stopped by the tests.

Debian's ``postgresql`` package (``make system-deps`` installs it) brings the server's
programs under ``/usr/lib/postgresql/N/bin``; the tests run ``initdb`` in a temporary
directory and ``postgres`` on a free loopback port and a socket in that directory, as an
unprivileged user (PostgreSQL refuses to run as root: when the tests run as root, the
package's ``postgres`` user runs it). Nothing is shared with a system cluster.

Where no server can be started (no package, no such user), :func:`start` raises
:class:`Unavailable` with the reason, and the tests skip with that message.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_names = itertools.count()


class Unavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def _bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    if not found:
        found_on_path = shutil.which("postgres")
        if found_on_path is None:
            raise Unavailable(
                "no PostgreSQL server programs: `make system-deps` installs Debian's postgresql"
            )
        return Path(os.path.realpath(found_on_path)).parent
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_user() -> tuple[list[str], int | None, int | None]:
    """The command prefix (and the uid, gid to own the files) to run the server unprivileged."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable(
            "running as root, and there is no 'postgres' user to run the server"
        ) from None
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"
    return [runuser, "-u", "postgres", "--"], user.pw_uid, user.pw_gid


@contextmanager
def postgres_server() -> Iterator[str]:
    """A fresh PostgreSQL server for the block; yields the URL of its ``rummoli`` database."""
    bin_dir = _bin_dir()
    prefix, uid, gid = _as_user()
    root = Path(tempfile.mkdtemp(prefix="rummoli-pg-"))
    data = root / "data"
    data.mkdir()
    if uid is not None and gid is not None:
        for path in (root, data):
            os.chown(path, uid, gid)
    port = _free_port()
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}

    def run(*args: str) -> None:
        done = subprocess.run(
            [*prefix, *args], env=env, capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise Unavailable(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    server: subprocess.Popen[bytes] | None = None
    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "rummoli", "-A", "trust", "-E", "UTF8")
        server = subprocess.Popen(
            [
                *prefix,
                str(bin_dir / "postgres"),
                "-D",
                str(data),
                "-p",
                str(port),
                "-k",
                str(root),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise Unavailable("the PostgreSQL server did not start") from None
                time.sleep(0.1)
        time.sleep(0.2)  # accepting connections is a little after listening
        run(
            str(bin_dir / "createdb"),
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-U",
            "rummoli",
            "rummoli",
        )
        yield f"postgresql://rummoli@127.0.0.1:{port}/rummoli"
    finally:
        if server is not None:
            server.terminate()  # a "smart" shutdown: it waits for clients; then fast
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
        shutil.rmtree(root, ignore_errors=True)


def new_database(url: str, name: str) -> str:
    """A new empty database on the server of ``url``; returns its URL."""
    import psycopg

    base = url.replace("postgresql://", "postgresql://", 1)
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return base.rsplit("/", 1)[0] + f"/{name}"


def sqlite_or_postgres(request: Any, tmp_path: Path, stem: str) -> str:
    """The database URL for a test run on both back ends (``params=["sqlite",
    "postgresql"]``): a file in ``tmp_path``, or a new database on the module's server
    (the ``postgres`` fixture of ``conftest.py``, started only when a test asks)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / f'{stem}.db'}"
    return new_database(request.getfixturevalue("postgres"), f"{stem}{next(_names)}")
