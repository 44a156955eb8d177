"""``rummoli serve --workers N``: N server processes on one machine, sharing the database.

The supervisor is this small parent process: it starts N ``rummoli serve --shared``
children, each on its own port (``--port``, ``--port`` + 1, ...) and address, all with
one cluster secret (:mod:`.cluster`), and each allowing the others' pages to open its
WebSockets (a page served by one process opens its table's socket at the owner). A
child that dies is started again (its tables are taken over by the others meanwhile,
from the stored actions: :meth:`.hub.Hub.adopt`); SIGTERM or Ctrl-C is passed to every
child, which drains (:func:`.ops.drain`) and releases its tables. SIGHUP is a rolling
restart: one child after the other is stopped, started again and waited for.

On several machines, each runs ``rummoli serve --shared`` (or ``--workers``) with the same
PostgreSQL URL and the same ``RUMMOLI_CLUSTER_SECRET``, and ``--public-url`` saying
where browsers reach it.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Sequence
from types import FrameType

log = logging.getLogger(__name__)

#: The environment variable that holds the cluster's secret (never on a command line,
#: where ``ps`` shows it).
SECRET_ENV = "RUMMOLI_CLUSTER_SECRET"
#: Options of ``serve`` the supervisor sets itself for each child.
OWN_OPTIONS = ("--workers", "--port", "--public-url")


def passed_options(argv: Sequence[str]) -> list[str]:
    """The ``serve`` options of the command line, without those set per child."""
    args = list(argv)
    if "serve" in args:
        args = args[args.index("serve") + 1 :]
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in OWN_OPTIONS:
            skip = "=" not in arg
            continue
        if arg == "--shared":
            continue
        kept.append(arg)
    return kept


def child_commands(workers: int, host: str, port: int, options: Sequence[str]) -> list[list[str]]:
    """The command of each child: the same options, its own port and address, shared,
    and every sibling's origin allowed."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    ports = [port + i for i in range(workers)]
    origins: list[str] = []
    for p in ports:
        origins += ["--origin", f"http://{shown}:{p}", "--origin", f"http://localhost:{p}"]
    run = [sys.executable, "-c", "from rummoli.cli import main; main()", "serve"]
    return [
        [
            *run,
            *options,
            *origins,
            "--shared",
            "--port",
            str(p),
            "--public-url",
            f"http://{shown}:{p}",
        ]
        for p in ports
    ]


def _ready(port: int, timeout: float = 60.0) -> bool:
    """Whether the child on ``port`` answers ``/readyz`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def _roll(
    children: list[subprocess.Popen[bytes]],
    commands: list[list[str]],
    env: dict[str, str],
    port: int,
    stopping: Callable[[], bool],
) -> None:
    """A rolling restart (SIGHUP): each child in turn drains and stops (its tables go to
    the others, released at once), is started again, and is ready before the next goes;
    so the tables are never all stopped, and none for more than a few seconds."""
    for i in range(len(children)):
        if stopping():
            return
        log.warning("rolling restart: the worker on port %d", port + i)
        children[i].send_signal(signal.SIGTERM)
        children[i].wait()
        children[i] = subprocess.Popen(commands[i], env=env)
        if not _ready(port + i):
            log.error("the worker on port %d is not ready: the restart stops here", port + i)
            return


def supervise(workers: int, host: str, port: int, argv: Sequence[str]) -> int:
    """Run ``workers`` children until SIGTERM or Ctrl-C; returns the exit status."""
    env = dict(os.environ)
    env.setdefault(SECRET_ENV, secrets.token_urlsafe(24))
    commands = child_commands(workers, host, port, passed_options(argv))
    children = [subprocess.Popen(command, env=env) for command in commands]
    stopping = False

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)

    rolling = False

    def roll(signum: int, _frame: FrameType | None) -> None:
        nonlocal rolling
        rolling = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, roll)
    while not stopping:
        time.sleep(0.5)
        if rolling:
            rolling = False
            _roll(children, commands, env, port, lambda: stopping)
            continue
        for i, child in enumerate(children):
            if child.poll() is not None and not stopping:
                log.warning(
                    "worker on port %d ended (%s): starting it again", port + i, child.returncode
                )
                time.sleep(1.0)
                children[i] = subprocess.Popen(commands[i], env=env)
    deadline = time.monotonic() + 330.0
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    return 0


__all__ = ["SECRET_ENV", "child_commands", "passed_options", "supervise"]
