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
``--server-cpus`` and ``--client-cpus`` pin the server and the load clients to CPUs of
their own, so that a saturated run says how many actions a second the server carries
on the CPUs it was given, without the clients taking any of them.
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
    .venv/bin/python bench/bench_web_load.py --tables 1000 --server-cpus 0 --client-cpus 1

The players and their processes are ``bench/load_client.py``'s.
Figures for this machine are in docs/performance.md ("Web table").
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import multiprocessing
import os
import queue
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus

from load_client import (
    RAMP_SECONDS,
    SEATS,
    Options,
    client_process,
    cpu_wait_seconds,
    raise_file_limit,
    shares,
)

HOST = "127.0.0.1"
MAX_TABLES = 2000
#: Tables one load-client process holds by default: at 1,000 tables one process's own
#: loop lag reached 755 ms at p99 (it was part of the latency it measured).
TABLES_PER_CLIENT = 250
MAX_CLIENTS = 16
MAX_WORKERS = 8
#: The longest ``--ramp-seconds`` (the default is ``load_client.RAMP_SECONDS``).
MAX_RAMP_SECONDS = 1800
#: Where ``serve --workers`` takes its cluster's secret (rummoli.web.supervisor.SECRET_ENV).
CLUSTER_SECRET_ENV = "RUMMOLI_CLUSTER_SECRET"


def _cpu_list(text: str) -> frozenset[int]:
    """``--server-cpus`` / ``--client-cpus``: CPU numbers, comma-separated, each one this
    process may run on (``os.sched_getaffinity``)."""
    allowed = os.sched_getaffinity(0)
    try:
        cpus = frozenset(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of CPU numbers: {text!r}") from None
    if not cpus or not cpus <= allowed:
        raise argparse.ArgumentTypeError(
            f"CPUs {sorted(cpus)}: each must be one of this machine's {sorted(allowed)}"
        )
    return cpus


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
    cpus: frozenset[int] = frozenset(),
) -> Iterator[subprocess.Popen[bytes]]:
    """``rummoli serve`` on loopback, stopped (SIGINT, then SIGKILL) however we leave.

    Every client of this benchmark comes from a few loopback addresses, so the
    per-address limits (100 connections, 300 new ones and 30 new tables a minute) are
    lifted to ``serve``'s bound unless ``extra`` says otherwise. ``workers`` > 1: ``serve
    --workers N`` (a supervisor and N children on ``port``, ``port`` + 1, ...; one cluster
    secret for them, in the environment), ready when every child answers ``/readyz``.
    ``db_url`` (a PostgreSQL URL) instead of the SQLite file ``db_path``. ``cpus``: the
    CPUs the server (and every process and thread it starts) may run on. The server's
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
        proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=env,
            # set in the child before it runs the server: every thread inherits it
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )
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


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(base: str, pid: int | None, options: Options, clients: int) -> dict[str, Any]:
    """Load the server at ``base`` from ``clients`` processes; the merged figures."""
    context = multiprocessing.get_context("spawn")
    parts = shares(options.tables, clients)
    start = context.Barrier(len(parts) + 1)
    out = context.Queue()
    processes = [
        context.Process(target=client_process, args=(base, options, part, start, out))
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
        wait_before = _tree_seconds(pid, cpu_wait_seconds) if pid else {}
        measured = time.perf_counter()
        time.sleep(options.seconds)
        elapsed = time.perf_counter() - measured
        cpu_after = _tree_seconds(pid, _cpu_seconds) if pid else {}
        wait_after = _tree_seconds(pid, cpu_wait_seconds) if pid else {}
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
    parser.add_argument(
        "--server-cpus",
        type=_cpu_list,
        default=frozenset(),
        help="the CPUs the server may run on, e.g. 0 or 0,1 (default: any)",
    )
    parser.add_argument(
        "--client-cpus",
        type=_cpu_list,
        default=frozenset(),
        help="the CPUs the load-client processes may run on (default: any)",
    )
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
    if args.url and (args.workers > 1 or args.postgres or args.server_cpus):
        parser.error("--workers, --postgres and --server-cpus start a server: not with --url")
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
        cpus=args.client_cpus,
    )
    before = [round(x, 2) for x in os.getloadavg()]
    raise_file_limit(options.tables)  # the server started here inherits it
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
                    Path(tmp) / "load.db",
                    port,
                    workers=args.workers,
                    db_url=db_url,
                    cpus=args.server_cpus,
                ) as proc:
                    result = run(f"http://{HOST}:{port}", proc.pid, options, clients)
                if db_url is None:
                    files = Path(tmp).glob("load.db*")
                    result["db_mb"] = round(sum(p.stat().st_size for p in files) / 1e6, 1)
            result["workers"] = args.workers
            result["server_cpus"] = sorted(args.server_cpus)
            result["database"] = "postgresql" if args.postgres else "sqlite"
    except (ConnectionClosed, InvalidStatus, OSError, RuntimeError, httpx.HTTPError) as error:
        raise SystemExit(f"the load run failed: {error}") from None
    result["client_cpus"] = sorted(args.client_cpus)  # with --url too
    result["load_average_before"] = before
    _report(result, args.json)


def _report(result: dict[str, Any], path: Path | None) -> None:
    print(json.dumps(result, indent=2))
    if path:
        path.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
