"""SIGTERM during real play: ``rummoli serve`` in its own process, two people playing as
fast as they can over real WebSockets, and the signal sent while their actions are in
flight. Nothing anyone was told of is lost, every page is told to reconnect, the server
exits within its bound, and on the next start the table resumes where it was.

Each person's client keeps the highest step it was sent (an update is sent only once its
action is stored): after the restart the table's step is at least that, and the table
plays on. The server's log (``--log-format json``) is read too: every line is one JSON
object, and the table's lines carry its id.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from rummoli.web.ops import CLOSE_SECONDS

T = TypeVar("T")
SHUTDOWN_SECONDS = 5.0
#: The stop must be over within the owners' bound, the connections' and a margin for a
#: loaded machine (the figure it takes is in docs/performance.md).
EXIT_BOUND = SHUTDOWN_SECONDS + CLOSE_SECONDS + 5.0


#: Seconds between one person's messages: the server takes ten a second from each.
PACE = 0.105


def run_apart(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` in a thread of its own: the test's thread may already run an
    event loop (another test's, left by a library), where ``asyncio.run`` is refused."""
    done: list[T] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            done.append(asyncio.run(main))
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=target, name="drain-test-clients")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return done[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``rummoli serve`` as a process of its own, on a loopback port and one SQLite file."""

    def __init__(self, db: Path, port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        args = [sys.executable, "-c", "from rummoli.cli import main; main()", "serve"]
        args += ["--port", str(port), "--db", f"sqlite:///{db}", "--log-format", "json"]
        args += ["--shutdown-seconds", str(SHUTDOWN_SECONDS)]
        with log.open("ab") as err:
            self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, f"the server stopped: {log.read_text()[-2000:]}"
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)

    def terminate(self) -> float:
        """SIGTERM, then the seconds until the process has exited (or fail)."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(EXIT_BOUND)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
            raise AssertionError("the server did not exit within its bound") from None
        return time.monotonic() - started

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


class Player:
    """One person's page: plays at once whenever it is his turn; keeps what it was sent."""

    def __init__(self, ws: ClientConnection, rng: random.Random) -> None:
        self.ws = ws
        self.rng = rng
        self.step = -1
        self.highest = -1
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        #: The step of the first snapshot this connection was sent.
        self.first: int | None = None
        self.restarting = False
        self.close_code: int | None = None
        self.sent = 0
        self.acted = -1
        self.refused: list[str] = []
        self.last_sent = 0.0

    async def play(self, stop_after: float) -> None:
        """Read and play until the connection closes (or ``stop_after`` seconds)."""
        try:
            async with asyncio.timeout(stop_after):
                async for raw in self.ws:
                    frame = json.loads(raw)
                    if frame["type"] in ("state", "update"):
                        self.view, self.step = frame["view"], frame["step"]
                        self.highest = max(self.highest, self.step)
                        if frame["type"] == "state":
                            self.seat = frame["seat"]
                            if self.first is None:
                                self.first = self.step
                    elif frame["type"] == "error" and frame["code"] == "restarting":
                        self.restarting = True
                    elif frame["type"] == "error":
                        self.refused.append(frame["code"])
                        self.acted = -1  # as a person would: choose again
                    await self.act()
        except ConnectionClosed:
            pass
        except TimeoutError:
            return
        self.close_code = self.ws.close_code

    async def act(self) -> None:
        view = self.view
        if self.acted == self.step:
            return  # once a step, as a page: a second try would be refused as stale
        if view and view["to_move"] == self.seat and view.get("legal_actions"):
            self.acted = self.step
            action = self.rng.choice([a["action"] for a in view["legal_actions"]])
            # As fast as the server lets one connection send (10 messages a second).
            await asyncio.sleep(max(0.0, self.last_sent + PACE - time.monotonic()))
            self.last_sent = time.monotonic()
            try:
                await self.ws.send(
                    json.dumps({"type": "action", "action": action, "step": self.step})
                )
                self.sent += 1
            except ConnectionClosed:
                pass


async def seated(url: str, table: str, token: str, rng: random.Random) -> Player:
    ws = await connect(f"{url.replace('http', 'ws')}/ws/{table}", open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return Player(ws, rng)


async def play_then_terminate(
    server: Server, table: str, tokens: list[str]
) -> tuple[list[Player], float]:
    """Both people play; after a second of play, SIGTERM: how long the exit took."""
    players = [await seated(server.url, table, t, random.Random(i)) for i, t in enumerate(tokens)]
    games = [asyncio.create_task(p.play(stop_after=EXIT_BOUND + 30)) for p in players]
    await asyncio.sleep(1.5)
    assert all(p.highest > 0 for p in players), "the game did not get going"
    took = await asyncio.to_thread(server.terminate)
    await asyncio.wait_for(asyncio.gather(*games), 30)
    return players, took


async def resumed(server: Server, table: str, tokens: list[str]) -> list[Player]:
    """Both people back: their snapshots, then play until the table has moved on."""
    players = [
        await seated(server.url, table, t, random.Random(10 + i)) for i, t in enumerate(tokens)
    ]
    games = [asyncio.create_task(p.play(stop_after=30.0)) for p in players]
    deadline = time.monotonic() + 20.0
    while time.monotonic() < deadline:
        firsts = [p.first for p in players]
        if None not in firsts and max(p.highest for p in players) > min(firsts):  # type: ignore[type-var]
            break
        await asyncio.sleep(0.05)
    for game in games:
        game.cancel()
    await asyncio.gather(*games, return_exceptions=True)
    for p in players:
        await p.ws.close()
    return players


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM is a POSIX signal")
def test_sigterm_during_play_loses_no_action_and_the_table_resumes(tmp_path: Path) -> None:
    db, port, log = tmp_path / "t.db", free_port(), tmp_path / "server.log"
    server = Server(db, port, log)
    try:
        created = httpx.post(
            f"{server.url}/api/tables",
            json={"game": "rummy", "seats": ["human", "human"], "turn_timer": 0},
        ).json()
        table = created["id"]
        tokens = [
            httpx.post(
                f"{server.url}/api/tables/{table}/join",
                json={"name": name, "invite": created["invite"]},
            ).json()["token"]
            for name in ("Ann", "Bob")
        ]
        players, took = run_apart(play_then_terminate(server, table, tokens))
    finally:
        server.kill()
    assert took < EXIT_BOUND
    seen = max(p.highest for p in players)
    assert seen > 5, "too little was played before the signal to test anything"
    assert sum(p.sent for p in players) > 5
    for p in players:
        assert p.restarting, "a page was not told the server is restarting"
        assert p.close_code == 1012  # service restart: the page reconnects by itself

    server = Server(db, port, log)
    try:
        back = run_apart(resumed(server, table, tokens))
        for p in back:
            assert p.seat is not None and p.view is not None
        # Nothing anyone was sent is lost (a stored action not yet sent may be there too).
        first = min(p.first for p in back if p.first is not None)
        assert first >= seen
        assert max(p.highest for p in back) > first  # and the table plays on
        took_again = server.terminate()
    finally:
        server.kill()
    assert took_again < EXIT_BOUND

    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert len(lines) == len(log.read_text().splitlines())  # every line is one JSON object
    ours = [line for line in lines if line["table"] == table]
    assert any("table created" in line["message"] for line in ours)
    drained = [line["message"] for line in lines if line["message"].startswith("drained in")]
    assert len(drained) == 2 and "1 tables stopped, 0 cut" in drained[0]
