"""Load on the web table: many tables of four WebSocket players, on loopback.

Starts ``rummoli serve`` (a subprocess, on 127.0.0.1, a temporary SQLite file), creates
tables through the HTTP API (four people's seats each, no turn timer), joins every seat
and connects one WebSocket client per seat. Each client plays like a person: when its
view says it is to move, it thinks a little (a random pause), then sends the first legal
action or one of the first few. A table whose game is over is replaced by a new one, so
the number of tables stays up for the whole run. After ``--seconds`` it stops, closes
everything and stops the server.

Reported: tables and seats held (sampled every second), actions per second, and the
latency of an action: from the moment the client sends it to the moment the same client
has received the update that applies it (server queue, SQLite commit, engine, views for
every seat, JSON, the network and the client's own parsing, all included).

    .venv/bin/python bench/bench_web_load.py                       # 200 tables, 60 s
    .venv/bin/python bench/bench_web_load.py --tables 20 --seconds 10 --json out.json

Figures for this machine are in docs/performance.md ("Web table").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

SEATS = 4
HOST = "127.0.0.1"


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


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def server(
    db_path: Path, port: int, extra: list[str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``rummoli serve`` on loopback, stopped (SIGINT, then SIGKILL) however we leave.

    Every client of this benchmark comes from 127.0.0.1, so the per-address limits
    (100 connections, 30 new tables a minute) are lifted unless ``extra`` says otherwise.
    """
    exe = Path(sys.executable).with_name("rummoli")
    command = [str(exe), "serve", "--host", HOST, "--port", str(port)]
    command += ["--db", f"sqlite:///{db_path}", "--log-level", "warning"]  # stderr is a pipe
    command += extra or ["--connections-per-address", "100000", "--tables-per-minute", "100000"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the server exited: {err}")
            try:
                if httpx.get(f"http://{HOST}:{port}/api/options", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 30 s")
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_wait_seconds(pid: int) -> float:
    """Time the process's threads spent runnable but waiting for a CPU (Linux schedstat):
    on a shared machine, the part of the latency that is other people's work."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def _choose(view: dict[str, Any], rng: random.Random) -> int:
    """A person's choice: mostly the first legal action, sometimes one of the first few
    (a uniform choice would bid and raise big, and every game would be all-in)."""
    legal = [a["action"] for a in view["legal_actions"]]
    return legal[0] if rng.random() < 0.7 else rng.choice(legal[:3])


async def player(
    ws_url: str, token: str, table: str, stats: Stats, rng: random.Random, options: Options
) -> None:
    """One seat: play until the game is over (or the task is cancelled)."""
    think = options.think
    # Browsers offer permessage-deflate, and the server accepts it: so do we, by default.
    compression = "deflate" if options.deflate else None
    async with connect(
        ws_url, open_timeout=60, max_size=2**22, ping_interval=None, compression=compression
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
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
                frame = json.loads(raw)
                kind = frame["type"]
                if kind == "error":
                    stats.errors[frame["code"]] += 1
                    sent_at, acted = None, -1
                    continue
                if kind not in ("state", "update"):
                    continue
                if kind == "state":
                    seat = frame["seat"]
                    if not counted:
                        counted = True
                        stats.connected[table] = stats.connected.get(table, 0) + 1
                step = frame["step"]
                if sent_at is not None and step > sent_step:
                    if stats.measuring:
                        stats.latencies.append(now - sent_at)
                        stats.actions += 1
                    sent_at = None
                view = frame["view"]
                if view is None:
                    continue
                if view["phase"] == "over":
                    return
                if view["to_move"] == seat and view.get("legal_actions") and step != acted:
                    acted = step
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                    message = {"type": "action", "action": _choose(view, rng), "step": step}
                    sent_step = step
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps(message))
                    stats.sent += 1
        finally:
            if counted:
                stats.connected[table] -= 1


async def _post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> httpx.Response:
    """A setup request, sent again if the connection drops: on a busy machine a kept-alive
    connection can pass uvicorn's 5 s keep-alive while it waits, and be closed under it."""
    for attempt in range(3):
        try:
            return await http.post(path, json=body)
        except httpx.TransportError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def table_loop(
    http: httpx.AsyncClient,
    ws_base: str,
    index: int,
    setup: asyncio.Semaphore,
    stats: Stats,
    options: Options,
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
            tokens = []
            for seat in range(SEATS):
                name = f"T{index}g{game}s{seat}"
                joined = await _post(
                    http,
                    f"/api/tables/{table}/join",
                    {"name": name, "seat": seat, "invite": invite},
                )
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            players = [
                asyncio.create_task(
                    player(
                        f"{ws_base}/ws/{table}",
                        token,
                        table,
                        stats,
                        random.Random(rng.random()),
                        options,
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


async def run(base: str, pid: int | None, options: Options) -> dict[str, Any]:
    stats = Stats()
    ws_base = base.replace("http://", "ws://")
    setup = asyncio.Semaphore(options.setup_concurrency)
    limits = httpx.Limits(max_connections=options.setup_concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        sampler = asyncio.create_task(sample(stats))
        ramp_start = time.perf_counter()
        tasks = [
            asyncio.create_task(table_loop(http, ws_base, i, setup, stats, options))
            for i in range(options.tables)
        ]
        try:
            while stats.held() < options.tables:
                if any(t.done() for t in tasks):
                    failed = next(t for t in tasks if t.done())
                    failed.result()  # raises what went wrong
                    raise RuntimeError("a table stopped during the ramp")
                if time.perf_counter() - ramp_start > 300:
                    raise RuntimeError(f"only {stats.held()} tables held after 300 s")
                await asyncio.sleep(0.05)
            ramp = time.perf_counter() - ramp_start
            print(f"ramp: {options.tables} tables seated and connected in {ramp:.1f} s")
            cpu_server = _cpu_seconds(pid) if pid else 0.0
            wait_server = _cpu_wait_seconds(pid) if pid else 0.0
            wait_client = _cpu_wait_seconds(os.getpid())
            cpu_client = time.process_time()
            frames, frame_bytes, sent = stats.frames, stats.frame_bytes, stats.sent
            games_before = stats.games_finished
            stats.measuring = True
            start = time.perf_counter()
            await asyncio.sleep(options.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - start
            cpu_server = _cpu_seconds(pid) - cpu_server if pid else 0.0
            wait_server = _cpu_wait_seconds(pid) - wait_server if pid else 0.0
            wait_client = _cpu_wait_seconds(os.getpid()) - wait_client
            cpu_client = time.process_time() - cpu_client
            frames, frame_bytes = stats.frames - frames, stats.frame_bytes - frame_bytes
            sent = stats.sent - sent
            crashed = [t for t in tasks if t.done() and t.exception() is not None]
        finally:
            for task in [*tasks, sampler]:
                task.cancel()
            await asyncio.gather(*tasks, sampler, return_exceptions=True)
    for task in crashed[:3]:
        print(f"a table failed: {task.exception()!r}", file=sys.stderr)
    lat = stats.latencies
    held = stats.held_samples or [0]
    return {
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "tables": options.tables,
        "seats": options.tables * SEATS,
        "seconds": round(elapsed, 1),
        "think_s": options.think,
        "deflate": options.deflate,
        "ramp_s": round(ramp, 1),
        "tables_held_min": min(held),
        "tables_held_mean": round(sum(held) / len(held), 1),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "actions_sent": sent,
        "latency_ms": {
            "p50": round(1000 * _percentile(lat, 0.50), 2),
            "p90": round(1000 * _percentile(lat, 0.90), 2),
            "p99": round(1000 * _percentile(lat, 0.99), 2),
            "max": round(1000 * max(lat, default=float("nan")), 2),
        },
        "frames_per_s": round(frames / elapsed, 1),
        "mb_per_s": round(frame_bytes / elapsed / 1e6, 2),
        "games_finished": stats.games_finished - games_before,
        "errors": dict(stats.errors),
        "failed_tables": len(crashed),
        "server_cpu": round(cpu_server / elapsed, 2) if pid else None,
        "server_cpu_ms_per_action": round(1000 * cpu_server / max(1, len(lat)), 2) if pid else None,
        "server_waiting_for_cpu": round(wait_server / elapsed, 2) if pid else None,
        "client_cpu": round(cpu_client / elapsed, 2),
        "client_waiting_for_cpu": round(wait_client / elapsed, 2),
        "client_loop_lag_ms_p99": round(1000 * _percentile(stats.loop_lag, 0.99), 2),
    }


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
    parser.add_argument("--no-deflate", action="store_true", help="do not offer permessage-deflate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--url", help="load a server already running (http://127.0.0.1:PORT) instead"
    )
    parser.add_argument("--server-pid", type=int, help="with --url: its pid, for its CPU time")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.seconds <= 600:
        parser.error("--tables from 1 to 1000, --seconds up to 600")
    options = Options(
        args.tables,
        args.seconds,
        args.think,
        args.setup_concurrency,
        args.rounds,
        args.seed,
        not args.no_deflate,
    )
    before = [round(x, 2) for x in os.getloadavg()]
    # One file descriptor per client here, one per connection in the server.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * options.tables * SEATS + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    if args.url and urlsplit(args.url).hostname not in ("127.0.0.1", "localhost"):
        parser.error("--url: a server on loopback only (127.0.0.1)")
    if args.url:  # a server already running (on loopback): nothing to start or clean
        pid = args.server_pid
        result = _run_loop(run(args.url.rstrip("/"), pid, options))
        result["load_average_before"] = before
        _report(result, args.json)
        return
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="rummoli-load-") as tmp:
        db_path = Path(tmp) / "load.db"
        with server(db_path, port) as proc:
            try:
                result = _run_loop(run(f"http://{HOST}:{port}", proc.pid, options))
            except (ConnectionClosed, InvalidStatus, OSError) as error:
                raise SystemExit(f"the load run failed: {error!r}") from None
        result["load_average_before"] = before
        result["db_mb"] = round(sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6, 1)
    _report(result, args.json)


def _report(result: dict[str, Any], path: Path | None) -> None:
    print(json.dumps(result, indent=2))
    if path:
        path.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
