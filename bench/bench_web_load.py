"""Load on the web table: many tables of four WebSocket players, on loopback.

Starts ``rummoli serve`` (a subprocess, on 127.0.0.1, a temporary SQLite file, its
per-address limits lifted), creates tables through the HTTP API (four people's seats
each, no turn timer), joins every seat and connects one WebSocket client per seat. The
clients run in ``--clients`` processes (one per 250 tables by default), each on a
loopback address of its own (127.0.0.2, 127.0.0.3, ...), so that the load client is not
the bottleneck and a server already running (``--url``) keeps its limits per address.
Each client plays like a person: when its view says it is to move, it thinks a little
(a random pause), then sends the first legal action or one of the first few. A table
whose game is over is replaced by a new one, so the number of tables stays up for the
whole run. After ``--seconds`` it stops, closes everything and stops the server.

``--workers N`` starts ``rummoli serve --workers N`` instead (a supervisor and N
processes on consecutive ports sharing the database, a cluster secret of its own in
``RUMMOLI_CLUSTER_SECRET``): tables are made at the first process, which places each on
the least loaded one, and every seat asks ``/api/tables/{id}/socket`` where its table's
WebSocket is, as the page does, and goes again on a close with code 4308 (another
process owns the table). The server's CPU is then that of all its processes.
``--postgres`` puts the database on a private PostgreSQL server started for the run
(``tests/web/pgserver.py``: Debian's ``postgresql``) instead of a temporary SQLite file.

The load clients run their garbage collector as the server does
(:data:`CLIENT_GC_THRESHOLDS`, after freezing what the ramp made) and time its pauses;
``--ramp-seconds`` bounds how long the tables may take to be seated; meanwhile each
client process says on stderr every 15 s how many of its tables are seated, and the
script says when the measured seconds start.

Reported: tables and seats held (sampled every second), actions per second, and the
latency of an action: from the moment the client sends it to the moment the same client
has received the update that applies it (server queue, SQLite commit, engine, views for
every seat, JSON, the network and the client's own parsing, all included).

    .venv/bin/python bench/bench_web_load.py                       # 200 tables, 60 s
    .venv/bin/python bench/bench_web_load.py --tables 20 --seconds 10 --json out.json
    .venv/bin/python bench/bench_web_load.py --tables 1000 --clients 4
    .venv/bin/python bench/bench_web_load.py --tables 1000 --seconds 30 --workers 2
    .venv/bin/python bench/bench_web_load.py --tables 400 --workers 2 --postgres

Figures for this machine are in docs/performance.md ("Web table").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib
import json
import multiprocessing
import os
import queue
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

try:  # the dev extra's orjson parses a frame in a third of the standard library's time
    from orjson import loads
except ImportError:  # pragma: no cover - a bare install
    from json import loads

SEATS = 4
HOST = "127.0.0.1"
MAX_TABLES = 2000
#: Tables one load-client process holds by default: at 1,000 tables one process's own
#: loop lag reached 755 ms at p99 (it was part of the latency it measured).
TABLES_PER_CLIENT = 250
MAX_CLIENTS = 16
MAX_WORKERS = 8
#: How long the tables may take to be seated and connected (``--ramp-seconds``), by
#: default and at most: a saturated server seats 2,000 tables slowly, since the tables
#: seated first play while the others sit down.
RAMP_SECONDS = 300
MAX_RAMP_SECONDS = 1800
#: How often each load-client process says how many of its tables are seated (a ramp
#: can take minutes).
RAMP_REPORT_SECONDS = 15.0
#: How many times a setup request answered 503 with Retry-After is sent again.
BUSY_RETRIES = 5
#: Where ``serve --workers`` takes its cluster's secret (rummoli.web.supervisor.SECRET_ENV).
CLUSTER_SECRET_ENV = "RUMMOLI_CLUSTER_SECRET"
#: The close code of a socket opened at a process that does not own its table
#: (rummoli.web.protocol.CLOSE_MOVED): ask ``/api/tables/{id}/socket`` again.
CLOSE_MOVED = 4308
#: The load client's collector thresholds while measuring: young collections once
#: 50,000 more objects are alive, not 700 (the frames it parses die young, by their
#: reference counts; collecting them 700 at a time took a fifth of its time).
CLIENT_GC_THRESHOLDS = (50_000, 20, 100)
#: How many times a seat opens its socket again when the opening handshake times out
#: (a saturated server: a page would reconnect too); counted in ``errors``.
HANDSHAKE_RETRIES = 5


@dataclass
class Stats:
    """What every client reports; latencies only while ``measuring``."""

    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    sent: int = 0
    frames: int = 0
    frame_bytes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    games_started: int = 0
    games_finished: int = 0
    connected: dict[str, int] = field(default_factory=dict)
    held_samples: list[int] = field(default_factory=list)
    loop_lag: list[float] = field(default_factory=list)
    moved: int = 0
    #: Connections made, by the server port they went to (one per process).
    ports: Counter[int] = field(default_factory=Counter)
    #: The pauses of this process's garbage collector while measuring, seconds each: the
    #: whole loop stops for one, so a long one is in every latency it overlaps.
    gc_pauses: list[float] = field(default_factory=list)

    def held(self) -> int:
        """Tables whose four seats are connected now."""
        return sum(1 for n in self.connected.values() if n == SEATS)


@dataclass(frozen=True)
class Options:
    tables: int
    seconds: float
    think: float
    setup_concurrency: int
    rounds: int
    seed: int
    deflate: bool
    route: bool = False
    ramp_seconds: float = RAMP_SECONDS


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def server(
    db_path: Path,
    port: int,
    extra: list[str] | None = None,
    *,
    workers: int = 1,
    db_url: str | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """``rummoli serve`` on loopback, stopped (SIGINT, then SIGKILL) however we leave.

    Every client of this benchmark comes from a few loopback addresses, so the
    per-address limits (100 connections, 300 new ones and 30 new tables a minute) are
    lifted to ``serve``'s bound unless ``extra`` says otherwise. ``workers`` > 1: ``serve
    --workers N`` (a supervisor and N children on ``port``, ``port`` + 1, ...; one cluster
    secret for them, in the environment), ready when every child answers ``/readyz``.
    ``db_url`` (a PostgreSQL URL) instead of the SQLite file ``db_path``. The server's
    messages go to a file beside ``db_path`` (a pipe nobody reads would fill and stall it).
    """
    exe = Path(sys.executable).with_name("rummoli")
    command = [str(exe), "serve", "--host", HOST, "--port", str(port)]
    command += ["--db", db_url or f"sqlite:///{db_path}", "--log-level", "warning"]
    if workers > 1:
        command += ["--workers", str(workers)]
    lifted = [
        *("--connections-per-address", "1000000", "--connects-per-minute", "1000000"),
        *("--tables-per-minute", "1000000"),
    ]
    command += extra if extra is not None else lifted
    env = dict(os.environ)
    if workers > 1:
        env.setdefault(CLUSTER_SECRET_ENV, secrets.token_urlsafe(24))
    log_path = db_path.with_name(db_path.name + ".log")
    with log_path.open("wb") as log:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=env)
    children: list[int] = []
    try:
        deadline = time.monotonic() + 60
        path = "/readyz" if workers > 1 else "/api/options"
        for child_port in range(port, port + workers):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the server exited: {log_path.read_text()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    url = f"http://{HOST}:{child_port}{path}"
                    if httpx.get(url, timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start in 60 s (port {child_port})")
                time.sleep(0.1)
        children = _descendants(proc.pid)
        yield proc
    finally:
        children = sorted(set(children) | set(_descendants(proc.pid)))
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20 if workers == 1 else 60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pid in children:  # a supervisor killed leaves its children: by their own ids
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (children, theirs, ...), from /proc's parent ids."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(stat[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [child for child, up in parents.items() if up == parent]
        found += kids
        frontier += kids
    return found


def _tree(pid: int) -> list[int]:
    """The server's processes: ``pid`` and, under ``serve --workers``, its children."""
    return [pid, *_descendants(pid)]


def _free_ports(count: int) -> int:
    """A free port followed by ``count`` - 1 free ones (``serve --workers`` takes
    ``--port``, ``--port`` + 1, ...)."""
    while True:
        port = _free_port()
        try:
            with contextlib.ExitStack() as held:
                for other in range(port + 1, port + count):
                    probe = held.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
                    probe.bind((HOST, other))
        except OSError:
            continue
        return port


@contextlib.contextmanager
def _postgres() -> Iterator[str]:
    """A private PostgreSQL server for the run (the tests' ``pgserver``: Debian's
    ``postgresql`` programs, a temporary cluster, fsync off); its database's URL."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
    pgserver = importlib.import_module("pgserver")
    try:
        with pgserver.postgres_server() as url:
            yield url
    except pgserver.Unavailable as why:
        raise RuntimeError(f"PostgreSQL cannot run here: {why}") from None


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_seconds(pid: int, measure: Callable[[int], float]) -> dict[int, float]:
    """``measure`` of each of the server's processes (the supervisor and its workers
    under ``--workers``), by pid: one that has ended meanwhile is left out."""
    found = {}
    for member in _tree(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            found[member] = measure(member)
    return found


def _cpu_wait_seconds(pid: int) -> float:
    """Time the process's threads spent runnable but waiting for a CPU (Linux schedstat):
    on a shared machine, the part of the latency that is other people's work."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def _choose(legal: list[int], rng: random.Random) -> int:
    """A person's choice: mostly the first legal action, sometimes one of the first few
    (a uniform choice would bid and raise big, and every game would be all-in)."""
    chosen: int = legal[0] if rng.random() < 0.7 else rng.choice(legal[:3])
    return chosen


@dataclass(frozen=True, slots=True)
class Seen:
    """What a seat's player takes from a frame: the frame itself is dropped at once.

    A parsed frame is some 500 objects; kept while its connection waits for the next one
    (a thousand connections per process), they were half a million objects alive that
    every collection of the oldest generation walked (pauses up to 270 ms)."""

    kind: str
    code: str | None = None
    seat: int | None = None
    step: int = -1
    view: bool = False
    over: bool = False
    to_move: int | None = None
    legal: list[int] | None = None


def read_frame(raw: str | bytes) -> Seen:
    """The parts of a server frame (docs/web.md, "Server -> client") a player acts on."""
    frame = loads(raw)
    kind = frame["type"]
    if kind == "error":
        return Seen(kind, code=frame["code"])
    if kind not in ("state", "update"):
        return Seen(kind)
    view = frame["view"]
    seat = frame.get("seat")
    if view is None:
        return Seen(kind, seat=seat, step=frame["step"])
    actions = view.get("legal_actions")
    return Seen(
        kind,
        seat=seat,
        step=frame["step"],
        view=True,
        over=view["phase"] == "over",
        to_move=view["to_move"],
        legal=[a["action"] for a in actions] if actions else None,
    )


@dataclass(frozen=True)
class Player:
    """One seat's player: its token at its table, the run's counters and options, its own
    random choices, and the loopback address its connections leave from."""

    token: str
    table: str
    stats: Stats
    rng: random.Random
    options: Options
    address: str


async def player(ws_base: str, http: httpx.AsyncClient, me: Player) -> None:
    """One seat: play until the game is over (or the task is cancelled). With
    ``options.route`` (several server processes) the seat asks where its table's socket
    is (``/api/tables/{id}/socket``, as the page does) and, on a close with
    :data:`CLOSE_MOVED` (the table has another owner), asks again and goes there."""
    while True:
        url = f"{ws_base}/ws/{me.table}"
        if me.options.route:
            answer = await _request(http, "GET", f"/api/tables/{me.table}/socket")
            answer.raise_for_status()
            url = answer.json()["url"] or url
        me.stats.ports[urlsplit(url).port or 0] += 1
        for attempt in range(HANDSHAKE_RETRIES + 1):
            try:
                moved = await _seat(url, me)
                break
            except TimeoutError:  # the opening handshake: the server is saturated
                me.stats.errors["handshake_timeout"] += 1
                if attempt == HANDSHAKE_RETRIES:
                    raise
                await asyncio.sleep(1.0)
        if not moved:
            return
        me.stats.moved += 1


async def _seat(ws_url: str, me: Player) -> bool:
    """One connection of a seat, played on until the game is over; True if the server
    closed it because another process owns the table (the seat is to go there)."""
    stats, table, rng, options = me.stats, me.table, me.rng, me.options
    think = options.think
    # Browsers offer permessage-deflate; the server may accept it: so do we, by default.
    compression = "deflate" if options.deflate else None
    async with connect(
        ws_url,
        open_timeout=60,
        max_size=2**22,
        ping_interval=None,
        compression=compression,
        local_addr=(me.address, 0),  # this client process's own loopback address
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": me.token}))
        seat: int | None = None
        acted = -1
        sent_at: float | None = None
        sent_step = -1
        counted = False
        try:
            async for raw in ws:
                now = time.perf_counter()
                stats.frames += 1
                stats.frame_bytes += len(raw)
                seen = read_frame(raw)
                if seen.kind == "error":
                    if seen.code != "moved":  # the close that follows says where to go
                        stats.errors[str(seen.code)] += 1
                    sent_at, acted = None, -1
                    continue
                if seen.kind not in ("state", "update"):
                    continue
                if seen.kind == "state":
                    seat = seen.seat
                    if not counted:
                        counted = True
                        stats.connected[table] = stats.connected.get(table, 0) + 1
                step = seen.step
                if sent_at is not None and step > sent_step:
                    if stats.measuring:
                        stats.latencies.append(now - sent_at)
                        stats.actions += 1
                    sent_at = None
                if not seen.view:
                    continue
                if seen.over:
                    return False
                if seen.to_move == seat and seen.legal and step != acted:
                    acted = step
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                    message = {"type": "action", "action": _choose(seen.legal, rng), "step": step}
                    sent_step = step
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps(message))
                    stats.sent += 1
        except ConnectionClosed:
            if ws.close_code != CLOSE_MOVED:
                raise
        finally:
            if counted:
                stats.connected[table] -= 1
        return ws.close_code == CLOSE_MOVED


async def _post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> httpx.Response:
    """A setup request, sent again if the connection drops (:func:`_request`)."""
    return await _request(http, "POST", path, body)


async def _request(
    http: httpx.AsyncClient, method: str, path: str, body: dict[str, Any] | None = None
) -> httpx.Response:
    """A setup request, sent again if the connection drops: on a busy machine a kept-alive
    connection can pass uvicorn's 5 s keep-alive while it waits, and be closed under it.
    A ``503`` with ``Retry-After`` (a sibling process too busy to answer a forwarded
    request in time, at 2,000 tables on two processes) is waited out and sent again, up
    to :data:`BUSY_RETRIES` times, as a person would try again."""
    drops = 0
    for _ in range(BUSY_RETRIES + 1):
        try:
            answer = await http.request(method, path, json=body)
        except httpx.TransportError:
            drops += 1
            if drops == 3:
                raise
            await asyncio.sleep(0.5)
            continue
        wait = answer.headers.get("retry-after")
        if answer.status_code != 503 or wait is None or not wait.isdigit():
            return answer
        await asyncio.sleep(float(wait))
    return answer


async def table_loop(
    http: httpx.AsyncClient,
    ws_base: str,
    index: int,
    setup: asyncio.Semaphore,
    stats: Stats,
    options: Options,
    address: str,
) -> None:
    """Keep one table going: create it, seat four players, play; again when it ends."""
    rng = random.Random(options.seed * 100_003 + index)
    game = 0
    while True:
        async with setup:
            body = {
                "seats": ["human"] * SEATS,
                "rules": {"rounds": options.rounds},
                "turn_timer": 0,
            }
            response = await _post(http, "/api/tables", body)
            response.raise_for_status()
            table = response.json()["id"]
            invite = response.json()["invite"]
            owner = ""  # the joins at the table's owner: the entry process would forward them
            if options.route:
                where = await _request(http, "GET", f"/api/tables/{table}/socket")
                where.raise_for_status()
                found = where.json()["url"]
                owner = "" if found is None else "http" + found.split("/ws/")[0][2:]
            tokens = []
            for seat in range(SEATS):
                name = f"T{index}g{game}s{seat}"
                joined = await _post(
                    http,
                    f"{owner}/api/tables/{table}/join",
                    {"name": name, "seat": seat, "invite": invite},
                )
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            players = [
                asyncio.create_task(
                    player(
                        ws_base,
                        http,
                        Player(token, table, stats, random.Random(rng.random()), options, address),
                    )
                )
                for token in tokens
            ]
            # Hold the setup slot until the four are connected (bounds the connect storm).
            while stats.connected.get(table, 0) < SEATS and not all(p.done() for p in players):
                await asyncio.sleep(0.01)
        stats.games_started += 1
        try:
            await asyncio.gather(*players)
        finally:
            for task in players:
                task.cancel()
            stats.connected.pop(table, None)
        stats.games_finished += 1
        game += 1


def _gc_timer(stats: Stats) -> Callable[[str, dict[str, int]], None]:
    """A ``gc.callbacks`` entry that times each collection while measuring."""
    began = 0.0

    def timer(phase: str, info: dict[str, int]) -> None:
        nonlocal began
        if phase == "start":
            began = time.perf_counter()
        elif stats.measuring:
            stats.gc_pauses.append(time.perf_counter() - began)

    return timer


async def sample(stats: Stats) -> None:
    """Every second: how many tables are held. Every 50 ms: this client's loop lag."""
    next_held = time.perf_counter() + 1.0
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        lag = time.perf_counter() - before - 0.05
        if stats.measuring:
            stats.loop_lag.append(lag)
            if time.perf_counter() >= next_held:
                stats.held_samples.append(stats.held())
                next_held += 1.0


def _run_loop(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the clients on uvloop when it is installed (the server uses it too): this
    process's own event-loop lag is part of every latency measured, so keep it small."""
    try:
        import uvloop
    except ImportError:
        result = asyncio.run(main)
        result["client_loop"] = "asyncio"
        return result
    result = uvloop.run(main)
    result["client_loop"] = "uvloop"
    return result


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Share:
    """One load-client process's part of the tables, and the loopback address it comes
    from (127.0.0.2, 127.0.0.3, ...: a server already running keeps its per-address
    limits, and each process stays under them for its share)."""

    first: int
    tables: int
    address: str


def shares(tables: int, clients: int) -> list[Share]:
    """The tables dealt out to ``clients`` processes as evenly as they go."""
    base, extra = divmod(tables, clients)
    parts, first = [], 0
    for k in range(clients):
        count = base + (1 if k < extra else 0)
        parts.append(Share(first, count, f"127.0.0.{k + 2}"))
        first += count
    return [part for part in parts if part.tables]


async def client(base: str, options: Options, share: Share, start: Any) -> dict[str, Any]:
    """One load-client process: hold its share of the tables, wait at ``start`` (a
    multiprocessing barrier: every process measures the same seconds), measure, report
    what it saw."""
    stats = Stats()
    ws_base = base.replace("http://", "ws://")
    setup = asyncio.Semaphore(options.setup_concurrency)
    limits = httpx.Limits(max_connections=options.setup_concurrency)
    transport = httpx.AsyncHTTPTransport(local_address=share.address, limits=limits)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
        sampler = asyncio.create_task(sample(stats))
        ramp_start = time.perf_counter()
        tasks = [
            asyncio.create_task(
                table_loop(http, ws_base, share.first + i, setup, stats, options, share.address)
            )
            for i in range(share.tables)
        ]
        next_report = ramp_start + RAMP_REPORT_SECONDS
        try:
            while stats.held() < share.tables:
                if time.perf_counter() >= next_report:  # a long ramp shows how far it got
                    next_report += RAMP_REPORT_SECONDS
                    print(
                        f"{share.address}: {stats.held()} of {share.tables} tables seated "
                        f"after {time.perf_counter() - ramp_start:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
                if any(t.done() for t in tasks):
                    failed = next(t for t in tasks if t.done())
                    failed.result()  # raises what went wrong
                    raise RuntimeError("a table stopped during the ramp")
                if time.perf_counter() - ramp_start > options.ramp_seconds:
                    held = stats.held()
                    raise RuntimeError(f"only {held} tables held after {options.ramp_seconds} s")
                await asyncio.sleep(0.05)
            ramp = time.perf_counter() - ramp_start
            # What the ramp made (connections, tasks, tables) lives for the whole run: out
            # of the collector's full passes, which stop this loop; and young collections
            # rarer, as the server's (rummoli.web.ops.GC_THRESHOLDS). The pauses left are
            # timed (``client_gc_pause_ms``).
            gc.collect()
            gc.freeze()
            gc.set_threshold(*CLIENT_GC_THRESHOLDS)
            gc.callbacks.append(_gc_timer(stats))
            await asyncio.to_thread(start.wait, options.ramp_seconds + 60)
            wait_client = _cpu_wait_seconds(os.getpid())
            cpu_client = time.process_time()
            frames, frame_bytes, sent = stats.frames, stats.frame_bytes, stats.sent
            games_before = stats.games_finished
            stats.measuring = True
            started = time.perf_counter()
            await asyncio.sleep(options.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - started
            wait_client = _cpu_wait_seconds(os.getpid()) - wait_client
            cpu_client = time.process_time() - cpu_client
            crashed = [t for t in tasks if t.done() and t.exception() is not None]
        finally:
            for task in [*tasks, sampler]:
                task.cancel()
            await asyncio.gather(*tasks, sampler, return_exceptions=True)
    for task in crashed[:3]:
        print(f"a table failed: {task.exception()!r}", file=sys.stderr)
    return {
        "ramp": ramp,
        "elapsed": elapsed,
        "latencies": stats.latencies,
        "loop_lag": stats.loop_lag,
        "held": stats.held_samples,
        "frames": stats.frames - frames,
        "frame_bytes": stats.frame_bytes - frame_bytes,
        "sent": stats.sent - sent,
        "games_finished": stats.games_finished - games_before,
        "errors": dict(stats.errors),
        "failed_tables": len(crashed),
        "moved": stats.moved,
        "ports": dict(stats.ports),
        "cpu": cpu_client,
        "cpu_wait": wait_client,
        "gc_pauses": stats.gc_pauses,
    }


def _client_process(base: str, options: Options, share: Share, start: Any, out: Any) -> None:
    """A load-client process's body: its figures, or what went wrong, go to ``out``."""
    _raise_file_limit(share.tables)
    try:
        out.put(_run_loop(client(base, options, share, start)))
    except BaseException as error:  # reported by the parent, which stops the others
        start.abort()
        out.put({"error": f"{share.address}: {error!r}"})


def _raise_file_limit(tables: int) -> None:
    """One file descriptor per client here, one per connection in the server."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * tables * SEATS + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def run(base: str, pid: int | None, options: Options, clients: int) -> dict[str, Any]:
    """Load the server at ``base`` from ``clients`` processes; the merged figures."""
    context = multiprocessing.get_context("spawn")
    parts = shares(options.tables, clients)
    start = context.Barrier(len(parts) + 1)
    out = context.Queue()
    processes = [
        context.Process(target=_client_process, args=(base, options, part, start, out))
        for part in parts
    ]
    for process in processes:
        process.start()
    try:
        try:
            start.wait(options.ramp_seconds + 60)
        except threading.BrokenBarrierError:
            errors = [r["error"] for r in _results(out, len(parts), 30) if "error" in r]
            raise RuntimeError("; ".join(errors) or "a load client stopped") from None
        print(f"seated: measuring for {options.seconds:g} s", file=sys.stderr, flush=True)
        cpu_before = _tree_seconds(pid, _cpu_seconds) if pid else {}
        wait_before = _tree_seconds(pid, _cpu_wait_seconds) if pid else {}
        measured = time.perf_counter()
        time.sleep(options.seconds)
        elapsed = time.perf_counter() - measured
        cpu_after = _tree_seconds(pid, _cpu_seconds) if pid else {}
        wait_after = _tree_seconds(pid, _cpu_wait_seconds) if pid else {}
        # A process started meanwhile (a worker restarted) counts from 0.
        cpu_server = sum(t - cpu_before.get(p, 0.0) for p, t in cpu_after.items())
        wait_server = sum(t - wait_before.get(p, 0.0) for p, t in wait_after.items())
        results = _results(out, len(parts), 120)
    finally:
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.kill()
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError("; ".join(errors))
    lat = [x for r in results for x in r["latencies"]]
    # Every process samples its tables held once a second: the table's total a second.
    held = [sum(second) for second in zip(*(r["held"] for r in results), strict=False)] or [0]
    frames = sum(r["frames"] for r in results)
    frame_bytes = sum(r["frame_bytes"] for r in results)
    errors_seen: Counter[str] = Counter()
    for r in results:
        errors_seen.update(r["errors"])
    ramp = max(r["ramp"] for r in results)
    print(f"ramp: {options.tables} tables seated and connected in {ramp:.1f} s")
    return {
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "tables": options.tables,
        "seats": options.tables * SEATS,
        "client_processes": len(parts),
        "seconds": round(elapsed, 1),
        "think_s": options.think,
        "deflate": options.deflate,
        "ramp_s": round(ramp, 1),
        "tables_held_min": min(held),
        "tables_held_mean": round(sum(held) / len(held), 1),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "actions_sent": sum(r["sent"] for r in results),
        "latency_ms": {
            "p50": round(1000 * _percentile(lat, 0.50), 2),
            "p90": round(1000 * _percentile(lat, 0.90), 2),
            "p99": round(1000 * _percentile(lat, 0.99), 2),
            "max": round(1000 * max(lat, default=float("nan")), 2),
        },
        "frames_per_s": round(frames / elapsed, 1),
        "mb_per_s": round(frame_bytes / elapsed / 1e6, 2),
        "games_finished": sum(r["games_finished"] for r in results),
        "errors": dict(errors_seen),
        "moved": sum(r["moved"] for r in results),
        "connections_by_port": dict(sum((Counter(r["ports"]) for r in results), Counter())),
        "failed_tables": sum(r["failed_tables"] for r in results),
        "server_processes": len(cpu_after) if pid else None,
        "server_cpu": round(cpu_server / elapsed, 2) if pid else None,
        "server_cpu_ms_per_action": round(1000 * cpu_server / max(1, len(lat)), 2) if pid else None,
        "server_waiting_for_cpu": round(wait_server / elapsed, 2) if pid else None,
        "client_cpu": round(sum(r["cpu"] for r in results) / elapsed, 2),
        "client_waiting_for_cpu": round(sum(r["cpu_wait"] for r in results) / elapsed, 2),
        # The worst process's: any one of them lagging is part of its tables' latency.
        "client_loop_lag_ms_p99": round(
            1000 * max(_percentile(r["loop_lag"], 0.99) for r in results), 2
        ),
        "client_loop": results[0]["client_loop"],
        # The worst process's collector: its longest pause and its pauses in all.
        "client_gc_pause_ms": {
            "max": round(1000 * max(max(r["gc_pauses"], default=0.0) for r in results), 2),
            "total": round(1000 * max(sum(r["gc_pauses"]) for r in results), 1),
        },
    }


def _results(out: Any, count: int, timeout: float) -> list[dict[str, Any]]:
    """What the load-client processes put on ``out`` (as many as answer in time)."""
    results = []
    deadline = time.monotonic() + timeout
    for _ in range(count):
        try:
            results.append(out.get(timeout=max(0.1, deadline - time.monotonic())))
        except queue.Empty:
            break
    if len(results) < count and not any("error" in r for r in results):
        results.append({"error": f"{count - len(results)} load client(s) did not report"})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables held at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean think time of a player, seconds"
    )
    parser.add_argument("--rounds", type=int, default=0, help="rounds per game (0: no limit)")
    parser.add_argument(
        "--setup-concurrency", type=int, default=20, help="tables being set up at once"
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=0,
        help=f"load-client processes (default: one per {TABLES_PER_CLIENT} tables)",
    )
    parser.add_argument("--no-deflate", action="store_true", help="do not offer permessage-deflate")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes: rummoli serve --workers N (each seat goes to its table's owner)",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="the server's database on a private PostgreSQL server started for the run "
        "(tests/web/pgserver.py), not a temporary SQLite file",
    )
    parser.add_argument(
        "--route",
        action="store_true",
        help="with --url: ask each table's socket address (a server of several processes)",
    )
    parser.add_argument(
        "--ramp-seconds",
        type=float,
        default=RAMP_SECONDS,
        help=f"how long the tables may take to be seated (at most {MAX_RAMP_SECONDS})",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--url", help="load a server already running (http://127.0.0.1:PORT) instead"
    )
    parser.add_argument("--server-pid", type=int, help="with --url: its pid, for its CPU time")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not 1 <= args.tables <= MAX_TABLES or not 0 < args.seconds <= 600:
        parser.error(f"--tables from 1 to {MAX_TABLES:,}, --seconds up to 600")
    if not 0 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients from 1 to {MAX_CLIENTS} (0: one per {TABLES_PER_CLIENT} tables)")
    if not 1 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers from 1 to {MAX_WORKERS}")
    if not 0 < args.ramp_seconds <= MAX_RAMP_SECONDS:
        parser.error(f"--ramp-seconds up to {MAX_RAMP_SECONDS}")
    if args.url and (args.workers > 1 or args.postgres):
        parser.error("--workers and --postgres start a server: not with --url")
    clients = args.clients or -(-args.tables // TABLES_PER_CLIENT)
    options = Options(
        args.tables,
        args.seconds,
        args.think,
        args.setup_concurrency,
        args.rounds,
        args.seed,
        not args.no_deflate,
        route=args.workers > 1 or args.route,
        ramp_seconds=args.ramp_seconds,
    )
    before = [round(x, 2) for x in os.getloadavg()]
    _raise_file_limit(options.tables)  # the server started here inherits it
    if args.url and urlsplit(args.url).hostname not in ("127.0.0.1", "localhost"):
        parser.error("--url: a server on loopback only (127.0.0.1)")
    try:
        if args.url:  # a server already running (on loopback): nothing to start or clean
            result = run(args.url.rstrip("/"), args.server_pid, options, clients)
        else:
            port = _free_ports(args.workers)
            with contextlib.ExitStack() as stack:
                tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="rummoli-load-"))
                db_url = stack.enter_context(_postgres()) if args.postgres else None
                with server(
                    Path(tmp) / "load.db", port, workers=args.workers, db_url=db_url
                ) as proc:
                    result = run(f"http://{HOST}:{port}", proc.pid, options, clients)
                if db_url is None:
                    files = Path(tmp).glob("load.db*")
                    result["db_mb"] = round(sum(p.stat().st_size for p in files) / 1e6, 1)
            result["workers"] = args.workers
            result["database"] = "postgresql" if args.postgres else "sqlite"
    except (ConnectionClosed, InvalidStatus, OSError, RuntimeError, httpx.HTTPError) as error:
        raise SystemExit(f"the load run failed: {error}") from None
    result["load_average_before"] = before
    _report(result, args.json)


def _report(result: dict[str, Any], path: Path | None) -> None:
    print(json.dumps(result, indent=2))
    if path:
        path.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
