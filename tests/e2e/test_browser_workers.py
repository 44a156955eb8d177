"""A page and a table on different server processes (issue 27), in Chromium: the page is
served by one process, its table is owned by another; the page opens its socket at the
owner (the server says where), joins through its own process (forwarded to the owner),
plays; the owner is killed with SIGKILL, and the page reconnects by itself to the process
that took the table over, at the step it had reached."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from e2e.pages import INSTANT_PACE, NO_GUIDE, TIMEOUT_MS, get_json, post_json

SRC = Path(__file__).resolve().parents[2] / "src"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    ports = [_free_port(), _free_port()]
    origins = [a for p in ports for a in ("--origin", f"http://127.0.0.1:{p}")]
    env = {**os.environ, "PYTHONPATH": str(SRC), "RUMMOLI_CLUSTER_SECRET": "e2e-secret-" * 3}
    started = []
    for i, port in enumerate(ports):
        command = [sys.executable, "-c", "from rummoli.cli import main; main()", "serve"]
        command += ["--shared", "--db", f"sqlite:///{tmp_path}/e2e.db", "--port", str(port)]
        command += ["--lease-seconds", "2", "--log-level", "warning", *origins]
        log = (tmp_path / f"server{i}.log").open("wb")
        popen = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=log, stderr=log)
        started.append((f"http://127.0.0.1:{port}", popen))
    try:
        deadline = time.monotonic() + 60
        for base, popen in started:
            while True:
                try:
                    get_json(f"{base}/healthz")
                    break
                except OSError:
                    if popen.poll() is not None or time.monotonic() > deadline:
                        logs = [(tmp_path / f"server{i}.log").read_text() for i in range(2)]
                        raise AssertionError(f"a server did not start: {logs}") from None
                    time.sleep(0.2)
        yield started
    finally:
        for _, popen in started:
            if popen.poll() is None:
                popen.terminate()
        for _, popen in started:
            try:
                popen.wait(20)
            except subprocess.TimeoutExpired:
                popen.kill()


def test_a_page_follows_its_table_to_its_owner_and_after_a_kill(
    browser: Browser, two_processes: list[tuple[str, subprocess.Popen[bytes]]]
) -> None:
    (entry, _), (other, owner) = two_processes
    body = {"seats": ["human", "basic", "basic"], "public": True, "rules": {"rounds": 3}}
    post_json(f"{entry}/api/tables", body)  # the entry process takes the first
    made = post_json(f"{entry}/api/tables", body)  # the idle one, the second
    table_id = made["id"]
    other_ws = other.replace("http://", "ws://")
    assert get_json(f"{entry}/api/tables/{table_id}/socket")["url"].startswith(other_ws)

    context = browser.new_context()
    context.add_init_script(NO_GUIDE)
    context.add_init_script(INSTANT_PACE)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(f"{entry}{made['invite_url']}")  # the page: the entry process's
        page.get_by_test_id("join-name").fill("Ann")
        page.get_by_test_id("join-submit").click()  # forwarded to the owner
        page.wait_for_selector('#table[data-status="playing"][data-seat="0"]')
        assert sockets and sockets[-1].startswith(f"{other_ws}/ws/{table_id}")
        page.wait_for_selector("#connection:not(.problem)")
        step = int(page.eval_on_selector("#table", "t => t.dataset.step"))

        owner.send_signal(signal.SIGKILL)
        owner.wait(10)
        entry_ws = entry.replace("http://", "ws://")
        deadline = time.monotonic() + 30
        while not sockets[-1].startswith(f"{entry_ws}/ws/{table_id}"):
            assert time.monotonic() < deadline, sockets
            page.wait_for_timeout(100)
        page.wait_for_selector("#connection:not(.problem)")
        page.wait_for_selector('#table[data-status="playing"][data-seat="0"]')
        assert int(page.eval_on_selector("#table", "t => t.dataset.step")) >= step
    finally:
        context.close()
