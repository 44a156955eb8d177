"""The load client of ``bench/bench_web_load.py``: the players, their tables, one process's share.

Each client process (``multiprocessing``, spawned) holds its share of the tables from a
loopback address of its own: it creates each table through the HTTP API, seats four
players, connects one WebSocket per seat and plays like a person (a pause, then one of
the first legal actions), and a table whose game is over is replaced by a new one. Once
every table is seated it waits at the run's barrier, measures for the run's seconds,
and reports what it saw (latencies, frames, its CPU and loop lag, its collector's pauses)
to the script, which merges the processes' figures.

Apart from the script so that each module has one job: this one is the client, the
script starts the server, the processes and the report.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

try:  # the dev extra's orjson parses a frame in a third of the standard library's time
    from orjson import loads
except ImportError:  # pragma: no cover - a bare install
    from json import loads

SEATS = 4
#: How long the tables may take to be seated and connected by default (``--ramp-seconds``):
#: a saturated server seats 2,000 tables slowly, since the tables seated first play while
#: the others sit down.
RAMP_SECONDS = 300
#: How often each load-client process says how many of its tables are seated (a ramp
#: can take minutes).
RAMP_REPORT_SECONDS = 15.0
#: How many times a setup request answered 503 with Retry-After is sent again.
BUSY_RETRIES = 5
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
    #: The CPUs the load-client processes may run on (``--client-cpus``); empty: any.
    cpus: frozenset[int] = frozenset()


def cpu_wait_seconds(pid: int) -> float:
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
            wait_client = cpu_wait_seconds(os.getpid())
            cpu_client = time.process_time()
            frames, frame_bytes, sent = stats.frames, stats.frame_bytes, stats.sent
            games_before = stats.games_finished
            stats.measuring = True
            started = time.perf_counter()
            await asyncio.sleep(options.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - started
            wait_client = cpu_wait_seconds(os.getpid()) - wait_client
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


def client_process(base: str, options: Options, share: Share, start: Any, out: Any) -> None:
    """A load-client process's body: its figures, or what went wrong, go to ``out``."""
    raise_file_limit(share.tables)
    if options.cpus:
        os.sched_setaffinity(0, options.cpus)
    try:
        out.put(_run_loop(client(base, options, share, start)))
    except BaseException as error:  # reported by the parent, which stops the others
        start.abort()
        out.put({"error": f"{share.address}: {error!r}"})


def raise_file_limit(tables: int) -> None:
    """One file descriptor per client here, one per connection in the server."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * tables * SEATS + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
