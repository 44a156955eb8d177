"""The operator's side of the web server: what the metrics cost per action, and how long
a SIGTERM takes to stop a server under play.

- **metrics**: the hooks every action runs (:meth:`rummoli.web.metrics.Metrics.action_done`:
  a histogram, a counter, the per-second ring) and each group commit runs
  (:meth:`~rummoli.web.metrics.Metrics.timed_commit`), timed alone, in microseconds, and a
  scrape of ``/metrics``' text with ``--tables`` rooms in memory;
- **drain**: ``rummoli serve`` (a subprocess on loopback, a temporary SQLite file) with
  ``--tables`` tables of four people playing (bench_web_load's players), SIGTERM after
  ``--seconds``: the seconds until the process has exited, and the drain's own time as
  its log says (``drained in ...``).

    .venv/bin/python bench/bench_ops.py                    # 50 tables, 10 s of play
    .venv/bin/python bench/bench_ops.py --tables 200 --seconds 20

Figures for this machine are in docs/performance.md ("Running it as a service").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx

from bench_web_load import HOST, Options, Stats, _free_port, table_loop
from rummoli.web.metrics import Metrics
from rummoli.web.room import Seat


def metrics_costs(tables: int) -> dict[str, float]:
    """Microseconds per hook call, and milliseconds per scrape with ``tables`` rooms."""
    rooms = {
        str(i): SimpleNamespace(
            status="playing", clients=[SimpleNamespace(seat=s) for s in range(4)],
            seats=[Seat(s, f"p{s}") for s in range(4)],
        )
        for i in range(tables)
    }  # fmt: skip
    hub: Any = SimpleNamespace(rooms=rooms, draining=False)
    metrics = Metrics(hub)
    n = 200_000

    def best(call: Any) -> float:
        return min(timeit.repeat(call, number=n, repeat=5))

    action = best(lambda: metrics.action_done(time.perf_counter()))
    commit, bare = best(lambda: metrics.timed_commit(int)), best(int)
    scrape = min(timeit.repeat(metrics.text, number=50, repeat=5))
    return {
        "action_done_us": round(1e6 * action / n, 3),
        "timed_commit_overhead_us": round(1e6 * (commit - bare) / n, 3),
        "scrape_ms": round(1000 * scrape / 50, 2),
        "scrape_bytes": len(metrics.text()),
    }


async def play(base: str, stats: Stats, options: Options) -> None:
    """Every table playing (each replaced when its game ends) until cancelled."""
    setup = asyncio.Semaphore(options.setup_concurrency)
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        tasks = [
            asyncio.create_task(table_loop(http, ws_base, i, setup, stats, options))
            for i in range(options.tables)
        ]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def drain_under_play(tables: int, seconds: float, shutdown: float) -> dict[str, Any]:
    """``tables`` tables playing for ``seconds``, then SIGTERM (see the module's doc)."""
    options = Options(tables, seconds, 0.5, 20, 0, 1, False)
    port = _free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory(prefix="rummoli-drain-") as tmp:
        command = [str(Path(sys.executable).with_name("rummoli")), "serve", "--host", HOST]
        command += ["--port", str(port), "--db", f"sqlite:///{tmp}/drain.db"]
        command += ["--connections-per-address", "100000", "--tables-per-minute", "100000"]
        command += ["--log-format", "json", "--shutdown-seconds", str(shutdown)]
        log = Path(tmp) / "server.log"
        with log.open("wb") as err:
            proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + 30
            while not _ready(base):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")
                time.sleep(0.1)
            stats = Stats()
            loop = asyncio.new_event_loop()
            players = loop.create_task(play(base, stats, options))
            loop.run_until_complete(_measured(stats, tables, seconds, players))
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)  # while the players still play
            loop.run_until_complete(asyncio.to_thread(proc.wait, 120))
            exited = time.monotonic() - started
            players.cancel()
            loop.run_until_complete(asyncio.gather(players, return_exceptions=True))
            loop.close()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        text = log.read_text()
    drained = re.findall(r"drained in ([0-9.]+) s: (\d+) tables stopped, (\d+) cut", text)
    took, stopped, cut = drained[-1] if drained else ("nan", "0", "0")
    return {
        "tables": tables,
        "seats": tables * 4,
        "actions_in_the_last_seconds": stats.actions,
        "sigterm_to_exit_s": round(exited, 2),
        "drain_s": float(took),
        "tables_stopped": int(stopped),
        "tables_cut_at_bound": int(cut),
        "shutdown_seconds": shutdown,
        "exit_code": proc.returncode,
    }


def _ready(base: str) -> bool:
    try:
        return httpx.get(f"{base}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


async def _measured(stats: Stats, tables: int, seconds: float, players: asyncio.Task[None]) -> None:
    """Wait until every table is seated, then ``seconds`` of counted play."""
    deadline = time.monotonic() + 300
    while stats.held() < tables:
        if players.done() or time.monotonic() > deadline:
            players.result()
            raise SystemExit("the tables did not get going")
        await asyncio.sleep(0.05)
    stats.measuring = True
    await asyncio.sleep(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables playing at the SIGTERM")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play first")
    parser.add_argument("--shutdown-seconds", type=float, default=10.0)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 0 < args.seconds <= 120:
        parser.error("--tables from 1 to 500, --seconds up to 120")
    result = {
        "metrics": metrics_costs(args.tables),
        "drain": drain_under_play(args.tables, args.seconds, args.shutdown_seconds),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
