"""Fixtures for the browser tests: a live server on a free loopback port (in a thread of
this process, so it can be stopped and started again on the same SQLite file) and
Debian's Chromium driven by Playwright (never a downloaded browser), headless."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, sync_playwright

from rummoli.web.app import create_app
from rummoli.web.ops import WEBSOCKETS
from rummoli.web.room import Timing

CHROMIUM = os.environ.get("RUMMOLI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Computer players move quickly, but not instantly: the pages still see every step.
E2E_TIMING = Timing(bot_delay=0.03, round_pause=0.2)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer:
    """``rummoli serve`` in a background thread: uvicorn on 127.0.0.1, one SQLite file.

    ``restart()`` stops the server (its rooms and connections close) and starts a new
    app on the same port and database, as a real restart would.
    """

    def __init__(self, db_path: Path, timing: Timing = E2E_TIMING) -> None:
        self.db_url = f"sqlite:///{db_path}"
        self.timing = timing
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 20.0) -> None:
        config = uvicorn.Config(
            create_app(self.db_url, timing=self.timing),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=3,
            **WEBSOCKETS,  # as `rummoli serve` serves them
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="e2e-server", daemon=True)
        thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError(f"the server did not start on port {self.port}")
            if time.monotonic() > deadline:
                server.should_exit = True
                raise RuntimeError("the server took too long to start")
            time.sleep(0.02)
        self._server, self._thread = server, thread

    def stop(self, timeout: float = 20.0) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is None or thread is None:
            return
        server.should_exit = True
        thread.join(timeout)
        if thread.is_alive():  # a connection would not close: stop waiting for it
            server.force_exit = True
            thread.join(timeout)
        assert not thread.is_alive(), "the server did not stop"

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "e2e.db")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless (no display needed). A missing browser is a failure,
    not a skip: ``make test`` installs it first (the ``system-deps`` target)."""
    if shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `make system-deps` installs Debian's")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()
