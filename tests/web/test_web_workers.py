"""Several server processes on one database (issue 27): the test starts three real
``rummoli serve --shared`` processes (and PostgreSQL, for its half), creates tables
through one of them, plays them with WebSocket clients that ask where each table is, and
kills the owner of a table with SIGKILL in the middle of play. The others take its
tables over from the stored actions, the clients reconnect by themselves, and every
action they saw accepted is still there. Also: new tables go to the least loaded
process, the lobby is the same from every process, and a paused (stale) owner that
wakes up after the takeover writes nothing more."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from pgserver import sqlite_or_postgres
from websockets.asyncio.client import connect
from webtools import run_coroutine

from rummoli.web.leases import Leases
from rummoli.web.storage import Storage

SRC = Path(__file__).resolve().parents[2] / "src"
SECRET = "a-test-cluster-secret-of-enough-length"
LEASE = 2.0
_T = TypeVar("_T")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return sqlite_or_postgres(request, tmp_path, "cluster")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _two_free_ports() -> int:
    """A free port whose next one is free too, for ``serve --workers 2``."""
    port = _free_port()
    while True:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                port = _free_port()


def _wait_up(
    bases: list[str], path: str, log: Path, parents: list[subprocess.Popen[bytes]] | None = None
) -> None:
    """Wait up to a minute until each of ``bases`` answers 200 at ``/path``; fail with the
    log if the time runs out (or, where ``parents`` are given, as soon as one has ended)."""
    deadline = time.monotonic() + 60
    for base in bases:
        while True:
            try:
                if httpx.get(f"{base}/{path}", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            for parent in parents or []:
                assert parent.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)


@dataclass
class Process:
    port: int
    popen: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def cluster(url: str, tmp_path: Path, count: int) -> Iterator[list[Process]]:
    ports = [_free_port() for _ in range(count)]
    origins = [a for p in ports for a in ("--origin", f"http://127.0.0.1:{p}")]
    env = {**os.environ, "PYTHONPATH": str(SRC), "RUMMOLI_CLUSTER_SECRET": SECRET}
    processes: list[Process] = []
    try:
        for i, port in enumerate(ports):
            command = [
                sys.executable,
                "-c",
                "from rummoli.cli import main; main()",
                "serve",
                "--shared",
                "--db",
                url,
                "--port",
                str(port),
                "--lease-seconds",
                str(LEASE),
                "--tables-per-minute",
                "1000",
                "--shutdown-seconds",
                "2",
                "--log-level",
                os.environ.get("RUMMOLI_TEST_LOG", "warning"),
                *origins,
            ]
            log = (tmp_path / f"server{i}.log").open("wb")
            popen = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=log, stderr=log)
            processes.append(Process(port, popen))
        bases = [process.base for process in processes]
        popens = [process.popen for process in processes]
        _wait_up(bases, "healthz", tmp_path / "server0.log", popens)
        yield processes
    finally:
        for process in processes:
            if process.popen.poll() is None:
                process.popen.send_signal(signal.SIGCONT)
                process.popen.terminate()
        for process in processes:
            try:
                process.popen.wait(20)
            except subprocess.TimeoutExpired:
                process.popen.kill()
                process.popen.wait()


@dataclass
class Table:
    id: str
    tokens: list[str]
    #: The highest step any of its clients was shown (each step: an accepted action).
    seen: int = 0
    #: The steps of the ``state`` frames its clients got on (re)connecting.
    states: list[int] = field(default_factory=list)
    over: bool = False


async def _socket_url(bases: list[str], table: Table, http: httpx.AsyncClient) -> str | None:
    for base in bases:
        try:
            answer = await http.get(f"{base}/api/tables/{table.id}/socket", timeout=2)
        except httpx.TransportError:
            continue  # that process is dead: ask another
        if answer.status_code == 200:
            where = answer.json()["url"]
            return where or f"ws://{base.split('://')[1]}/ws/{table.id}"
    return None


async def _seat(bases: list[str], table: Table, token: str, stop: asyncio.Event) -> None:
    """One person: plays whenever it is his turn; reconnects (asking where) when cut."""
    rng = random.Random(token)
    async with httpx.AsyncClient() as http:
        while not stop.is_set() and not table.over:
            where = await _socket_url(bases, table, http)
            if where is None:
                await asyncio.sleep(0.3)
                continue
            acted = -1
            try:
                async with connect(where, open_timeout=5, ping_interval=None) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    async for raw in ws:
                        frame = json.loads(raw)
                        if frame["type"] not in ("state", "update"):
                            continue
                        step = frame["step"]
                        table.seen = max(table.seen, step)
                        if frame["type"] == "state":
                            table.states.append(step)
                            seat = frame["seat"]
                        view = frame["view"]
                        if view is None:
                            continue
                        if view["phase"] == "over":
                            table.over = True
                            return
                        legal = view.get("legal_actions")
                        mine = view["to_move"] == seat and legal and step != acted
                        if mine and not stop.is_set():
                            acted = step
                            await asyncio.sleep(0.02)
                            action = (
                                legal[0]["action"]
                                if rng.random() < 0.7
                                else rng.choice([a["action"] for a in legal[:3]])
                            )
                            await ws.send(
                                json.dumps({"type": "action", "action": action, "step": step})
                            )
            except Exception:  # cut (or refused: moved): ask where, and again
                pass
            await asyncio.sleep(0.2)


def _create(base: str) -> Table:
    made = httpx.post(
        f"{base}/api/tables", json={"seats": ["human"] * 3, "public": True}, timeout=10
    )
    assert made.status_code == 201, made.text
    answer = made.json()
    return Table(answer["id"], [], 0)


def _owner(storage: Storage, table_id: str) -> str:
    lease = Leases(storage.engine, "test").lease(table_id)
    assert lease is not None
    return lease.owner


def _address_of(storage: Storage, owner: str) -> str:
    found = {w.id: w.address for w in Leases(storage.engine, "test", LEASE * 3).workers()}
    return found[owner]


async def _until(test: Any, seconds: float) -> float:
    start = time.monotonic()
    while not test():
        assert time.monotonic() - start < seconds, "timed out"
        await asyncio.sleep(0.05)
    return time.monotonic() - start


def _take_seats(base: str, table: Table, names: list[str]) -> None:
    """People called ``names`` take the table's seats in order, through ``base`` (the
    owner, or a process that forwards to it); their tokens go to ``table.tokens``."""
    for seat, name in enumerate(names):
        joined = httpx.post(
            f"{base}/api/tables/{table.id}/join",
            json={"name": name, "seat": seat},
            timeout=10,
        )
        assert joined.status_code == 200, joined.text
        table.tokens.append(joined.json()["token"])


async def _play_through(
    bases: list[str],
    tables: list[Table],
    interruption: Callable[[], Awaitable[_T]],
    warm_up: int = 10,
) -> tuple[_T, float]:
    """Every seat of ``tables`` plays until each table has seen ``warm_up`` steps; then
    ``interruption`` (a kill, a pause, a restart) runs while they go on, and play must
    reach 10 more steps of the first table (or its end) within 40 seconds. What
    ``interruption`` answered, and how long the 10 steps took."""
    stop = asyncio.Event()
    seats = [
        asyncio.create_task(_seat(bases, table, token, stop))
        for table in tables
        for token in table.tokens
    ]
    await _until(lambda: all(table.seen >= warm_up for table in tables), 60)
    answer = await interruption()
    watched = tables[0]
    before = watched.seen
    took = await _until(lambda: watched.seen >= before + 10 or watched.over, 40)
    stop.set()
    for task in seats:
        task.cancel()
    await asyncio.gather(*seats, return_exceptions=True)
    return answer, took


@pytest.mark.parametrize("how", ["kill", "term"])
def test_a_killed_process_loses_no_table_and_no_accepted_action(
    url: str, tmp_path: Path, how: str, record_property: Any
) -> None:
    """``kill``: SIGKILL, the owner dies at once; ``term``: SIGTERM, the owner drains and
    releases its tables (one step of a rolling restart): either way the game goes on."""
    with cluster(url, tmp_path, 3) as processes:
        bases = [p.base for p in processes]
        entry = bases[0]
        # Two tables, made through the first process: the second goes elsewhere (the
        # first process owns one table then, the others none).
        tables = [_create(entry) for _ in range(2)]
        storage = Storage(url)
        owners = [_owner(storage, t.id) for t in tables]
        assert owners[0] != owners[1]
        # Seats taken through another process: forwarded to each table's owner.
        for table in tables:
            invite_free = httpx.get(f"{bases[1]}/api/tables/{table.id}", timeout=10).json()
            assert invite_free["id"] == table.id
            _take_seats(bases[1], table, [f"P{seat}{table.id[:3]}" for seat in range(3)])
        # The lobby is the same from every process.
        listed = [
            {t["id"] for t in httpx.get(f"{b}/api/tables", timeout=10).json()["tables"]}
            for b in bases
        ]
        assert listed[0] == listed[1] == listed[2] == {t.id for t in tables}

        victim_address = _address_of(storage, owners[0])
        victim = next(p for p in processes if p.base == victim_address)
        live = [b for b in bases if b != victim_address]

        async def stop_the_owner() -> tuple[int, list[int]]:
            victim.popen.send_signal(signal.SIGKILL if how == "kill" else signal.SIGTERM)
            victim.popen.wait(30)
            # Stored before sent: what the dead process had stored is every action it
            # had accepted (and maybe one it had not sent yet).
            dead = storage.load_game(tables[0].id)
            assert dead is not None
            return tables[0].seen, dead.actions

        # The game goes on at another process, within a few seconds.
        (before, at_kill), took = run_coroutine(
            _play_through(bases, tables, stop_the_owner, warm_up=15)
        )
        # Taken over from the stored actions: the clients came back to a step no earlier
        # than the last they had been shown (nothing accepted was lost).
        assert min(s for s in tables[0].states[3:]) >= before
        assert took < 20
        record_property("seconds_to_ten_more_steps", round(took, 2))
        new_owner = _owner(storage, tables[0].id) if not tables[0].over else None
        assert new_owner != owners[0]
        # Every action stored by the dead owner is kept, in order, and play went on.
        stored = storage.load_game(tables[0].id)
        assert stored is not None
        assert stored.actions[: len(at_kill)] == at_kill
        assert len(stored.actions) > len(at_kill) or tables[0].over
        # The living processes still list the same tables.
        listed = [
            {t["id"] for t in httpx.get(f"{b}/api/tables", timeout=10).json()["tables"]}
            for b in live
        ]
        assert listed[0] == listed[1]
        storage.close()


def test_a_paused_owner_is_taken_over_and_writes_nothing_after(url: str, tmp_path: Path) -> None:
    """SIGSTOP the owner (a process that stops without dying): its lease expires, the
    other process takes the table; when the paused one wakes up it believes, for a
    moment, that it still owns it. Whatever it then tries to write is refused (the
    epoch moved), it lets the table go, and its clients follow the table."""
    with cluster(url, tmp_path, 2) as processes:
        bases = [p.base for p in processes]
        table = _create(bases[0])
        storage = Storage(url)
        paused_owner = _owner(storage, table.id)
        paused = next(p for p in processes if p.base == _address_of(storage, paused_owner))
        _take_seats(bases[1], table, [f"Q{seat}" for seat in range(3)])

        async def pause_the_owner() -> list[int]:
            paused.popen.send_signal(signal.SIGSTOP)
            await asyncio.sleep(0.3)  # what it was writing is written
            at_pause = storage.load_game(table.id)
            assert at_pause is not None
            await _until(lambda: _owner(storage, table.id) != paused_owner, 20)
            paused.popen.send_signal(signal.SIGCONT)
            return at_pause.actions

        at_pause, _ = run_coroutine(_play_through(bases, [table], pause_the_owner))
        stored = storage.load_game(table.id)
        assert stored is not None
        assert stored.actions[: len(at_pause)] == at_pause
        assert len(stored.actions) > len(at_pause) or table.over
        # The woken process knows it lost the table: it sends people to the new owner.
        where = httpx.get(f"{paused.base}/api/tables/{table.id}/socket", timeout=10).json()
        assert where["url"] is not None and str(paused.port) not in where["url"]
        storage.close()


def test_a_burst_of_new_tables_is_spread_over_the_processes(tmp_path: Path) -> None:
    """Tables made one after the other faster than a renewal go to the least loaded
    process as they are made: each process says its new count at once (with the counts
    of the last renewal, every table after the first went to the same sibling)."""
    url = f"sqlite:///{tmp_path / 'burst.db'}"
    with cluster(url, tmp_path, 2) as (first, second):
        made = [_create(first.base).id for _ in range(8)]
        storage = Storage(url)
        owners = Counter(_owner(storage, table_id) for table_id in made)
        assert len(owners) == 2, owners
        assert max(owners.values()) - min(owners.values()) <= 1, owners
        assert second.popen.poll() is None


def test_the_supervisor_passes_the_options_and_gives_each_child_its_own_port() -> None:
    from rummoli.web.supervisor import child_commands, passed_options

    argv = ["serve", "--workers", "3", "--port=9000", "--db", "sqlite:///x.db", "--shared"]
    assert passed_options(argv) == ["--db", "sqlite:///x.db"]
    commands = child_commands(2, "0.0.0.0", 9000, ["--db", "sqlite:///x.db"])
    for port, command in zip((9000, 9001), commands, strict=True):
        tail = command[command.index("serve") + 1 :]
        assert tail[:2] == ["--db", "sqlite:///x.db"]
        assert tail[-5:] == [
            "--shared",
            "--port",
            str(port),
            "--public-url",
            f"http://127.0.0.1:{port}",
        ]
        # Every sibling's page may open this child's WebSockets.
        assert {"http://127.0.0.1:9000", "http://127.0.0.1:9001"} <= set(tail)


def test_serve_workers_runs_processes_with_one_lobby(tmp_path: Path) -> None:
    """``rummoli serve --workers 2``: two processes, one lobby; SIGTERM stops them."""
    port = _two_free_ports()
    command = [sys.executable, "-c", "from rummoli.cli import main; main()", "serve"]
    command += ["--workers", "2", "--port", str(port), "--db", f"sqlite:///{tmp_path}/w.db"]
    env = {k: v for k, v in os.environ.items() if k != "RUMMOLI_CLUSTER_SECRET"}
    env["PYTHONPATH"] = str(SRC)
    log = (tmp_path / "supervisor.log").open("wb")
    parent = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=log, stderr=log)
    bases = [f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"]
    try:
        _wait_up(bases, "healthz", tmp_path / "supervisor.log", [parent])
        made = [_create(bases[0]).id for _ in range(2)]
        listed = [
            {t["id"] for t in httpx.get(f"{b}/api/tables", timeout=10).json()["tables"]}
            for b in bases
        ]
        assert listed[0] == listed[1] == set(made)
        # The tables are on different processes (the second went to the idle one), and
        # each process sends a table's socket to its owner: itself (None) or the other.
        owners = []
        for table_id in made:
            answers = [
                httpx.get(f"{b}/api/tables/{table_id}/socket", timeout=10).json()["url"]
                for b in bases
            ]
            owner = answers.index(None)
            assert answers[1 - owner] == f"ws://127.0.0.1:{port + owner}/ws/{table_id}"
            owners.append(owner)
        assert sorted(owners) == [0, 1]
    finally:
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(60) == 0
    for base in bases:
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{base}/healthz", timeout=1)


def test_serve_shared_refuses_a_missing_secret_or_a_bad_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from rummoli import cli

    started: list[Any] = []
    monkeypatch.setattr("rummoli.web.app.create_app", lambda *a, **k: started.append(k))
    monkeypatch.setattr("rummoli.web.ops.serve", lambda *args, **kwargs: None)
    monkeypatch.setattr("rummoli.web.storage.refuse_newer_schema", lambda url: None)
    monkeypatch.delenv("RUMMOLI_CLUSTER_SECRET", raising=False)
    runner = CliRunner()
    refused = runner.invoke(cli.app, ["serve", "--shared"])
    assert refused.exit_code == 1
    assert "RUMMOLI_CLUSTER_SECRET" in refused.output and "16" in refused.output
    monkeypatch.setenv("RUMMOLI_CLUSTER_SECRET", SECRET)
    refused = runner.invoke(cli.app, ["serve", "--shared", "--public-url", "cards.example/x"])
    assert refused.exit_code == 1
    assert "--public-url" in refused.output and "cards.example/x" in refused.output
    assert started == []  # nothing was started
    served = runner.invoke(cli.app, ["serve", "--shared", "--lease-seconds", "3"])
    assert served.exit_code == 0, served.output
    (options,) = started
    assert options["cluster"].address == "http://127.0.0.1:8000"
    assert options["limits"].lease_seconds == 3.0


def test_a_rolling_restart_loses_nothing(tmp_path: Path) -> None:
    """SIGHUP to ``serve --workers 2``: each process in turn drains, stops and starts
    again, while a table plays; it goes on, every stored action kept."""
    port = _two_free_ports()
    url = f"sqlite:///{tmp_path}/r.db"
    command = [sys.executable, "-c", "from rummoli.cli import main; main()", "serve"]
    command += ["--workers", "2", "--port", str(port), "--db", url, "--lease-seconds", "2"]
    command += ["--shutdown-seconds", "2"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    log_path = tmp_path / "supervisor.log"
    parent = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=log_path.open("wb"), stderr=subprocess.STDOUT
    )
    bases = [f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"]
    try:
        _wait_up(bases, "readyz", log_path)
        table = _create(bases[0])
        _take_seats(bases[1], table, [f"R{seat}" for seat in range(3)])
        storage = Storage(url)

        async def restart() -> list[int]:
            parent.send_signal(signal.SIGHUP)
            await asyncio.sleep(0.5)
            await _until(lambda: log_path.read_text().count("rolling restart") >= 2, 60)
            await asyncio.sleep(0.5)
            stored = storage.load_game(table.id)
            assert stored is not None
            return stored.actions

        during, _ = run_coroutine(_play_through(bases, [table], restart))
        stored = storage.load_game(table.id)
        assert stored is not None and stored.actions[: len(during)] == during
        assert len(stored.actions) > len(during) or table.over
        storage.close()
    finally:
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(60) == 0
