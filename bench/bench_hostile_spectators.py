"""A real player's latency while 300 hostile spectators flood the server with refused moves.

Starts ``rummoli serve`` (a subprocess, on 127.0.0.1, a temporary SQLite file, the
default per-address limits). One public table holds two players (WebSocket clients that
play the first legal action whenever they are to move, at once: no computer's pause, so
there are many actions to time). The
hostile spectators (``--spectators``, 300 by default) watch that table (so each also
gets every frame of the game) from three loopback addresses (127.0.0.2, .3, .4: at most
100 connections an address by default), and each sends a move ``--rate`` times a second:
spectators may not move, so every one is refused; a spectator the server closes
connects again a second later. They run in a child process of their
own, so their client work does not slow the player's measurements. Should the players'
game end within the run, they go on at a new table the spectators do not watch; the
report says at how many tables they played.

Reported: the players' latency (send to the update that applies it) p50 and p99, first
without the spectators (``--quiet-seconds``), then with them (``--seconds``); the
refusals the spectators got back, and how many of their messages were read at all.
The target (issue 12): p99 under 20 ms with 300 hostile spectators.

    .venv/bin/python bench/bench_hostile_spectators.py
    .venv/bin/python bench/bench_hostile_spectators.py --spectators 300 --seconds 20 --json out.json

Loopback only; every loop is bounded in time, and the script stops the server itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from bench_web_load import server

HOST = "127.0.0.1"
ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
#: Seconds a closed spectator waits before it connects again (as the table page does).
RECONNECT = 1.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


async def _table(base: str) -> tuple[str, list[str]]:
    """A public table of two players (both played here); their seat tokens."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        body = {"seats": ["human", "human"], "rules": {"starting_chips": 1000}, "public": True}
        made = (await http.post("/api/tables", json=body)).json()
        tokens = []
        for name in ("Ann", "Bob"):
            seat = await http.post(
                f"/api/tables/{made['id']}/join", json={"name": name, "invite": made["invite"]}
            )
            seat.raise_for_status()
            tokens.append(seat.json()["token"])
        return made["id"], tokens


async def _seat(url: str, token: str, deadline: float, latencies: list[float]) -> None:
    """One player: the first legal action whenever he is to move, each timed."""
    async with connect(url, max_size=2**20, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_step, sent_at, seat = -1, 0.0, None
        while time.monotonic() < deadline:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
            except TimeoutError:
                return
            if frame["type"] == "error":
                sent_step = -1  # refused (the table moved on): choose again
                continue
            if frame["type"] not in ("state", "update"):
                continue
            if frame["type"] == "state":
                seat = frame["seat"]
            view, step = frame["view"], frame["step"]
            if frame["type"] == "update" and sent_step >= 0 and step == sent_step + 1:
                latencies.append(time.perf_counter() - sent_at)
                sent_step = -1
            if view is None:
                continue
            if view["phase"] == "over":
                return
            if view["to_move"] == seat and view.get("legal_actions") and sent_step < 0:
                action = view["legal_actions"][0]["action"]
                sent_step, sent_at = step, time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action, "step": step}))


async def _play(
    base: str, seconds: float, first: tuple[str, list[str]] | None = None
) -> tuple[list[float], int]:
    """Play both seats for ``seconds`` (at ``first``, then new tables as games end); the
    latency of each action, and how many tables were played at."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    ws_base = base.replace("http://", "ws://")
    tables = 0
    while time.monotonic() < deadline:
        table, tokens = first if first is not None and tables == 0 else await _table(base)
        tables += 1
        url = f"{ws_base}/ws/{table}"
        await asyncio.gather(*(_seat(url, t, deadline, latencies) for t in tokens))
    return latencies, tables


async def _spectator(
    url: str, address: str, rate: float, until: float, counts: dict[str, int]
) -> None:
    """One hostile spectator: connects, then sends refused moves ``rate`` times a second;
    when the server closes it, it connects again (a determined attacker)."""
    while time.monotonic() < until:
        try:
            async with connect(
                url, max_size=2**20, ping_interval=None, open_timeout=10, local_addr=(address, 0)
            ) as ws:
                counts["connections"] += 1
                await ws.send(json.dumps({"type": "hello"}))

                async def read(ws: Any = ws) -> None:
                    async for raw in ws:
                        counts["frames"] += 1
                        if '"error"' in str(raw):
                            counts["refused"] += 1

                reader = asyncio.create_task(read())
                while time.monotonic() < until and not reader.done():
                    await ws.send(json.dumps({"type": "action", "action": 3, "step": 0}))
                    counts["sent"] += 1
                    await asyncio.sleep(1.0 / rate)
                reader.cancel()
        except Exception:
            counts["closed"] += 1
            await asyncio.sleep(RECONNECT)


def _swarm(url: str, spectators: int, rate: float, seconds: float, out: Any) -> None:
    """The hostile spectators, in their own process; their counts go to ``out``."""

    async def run() -> dict[str, int]:
        counts = {"connections": 0, "sent": 0, "frames": 0, "refused": 0, "closed": 0}
        until = time.monotonic() + seconds
        tasks = [
            _spectator(url, ADDRESSES[i % len(ADDRESSES)], rate, until, counts)
            for i in range(spectators)
        ]
        await asyncio.gather(*tasks)
        return counts

    out.put(asyncio.run(run()))


def _figures(latencies: list[float]) -> dict[str, float]:
    if len(latencies) < 2:
        return {"actions": len(latencies)}
    ms = sorted(1000 * x for x in latencies)
    return {
        "actions": len(ms),
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[min(len(ms) - 1, int(0.99 * len(ms)))], 2),
        "max_ms": round(ms[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20.0, help="moves a spectator sends a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--quiet-seconds", type=float, default=8.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not 0 < args.seconds <= 300 or not 0 < args.quiet_seconds <= 300:
        parser.error("runs are bounded: at most 300 seconds each")
    port = _free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "bench.db", port, []):
        quiet, _ = asyncio.run(_play(base, args.quiet_seconds))
        first = asyncio.run(_table(base))
        watched = first[0]
        queue: Any = multiprocessing.Queue()
        swarm = multiprocessing.Process(
            target=_swarm,
            args=(
                f"ws://{HOST}:{port}/ws/{watched}",
                args.spectators,
                args.rate,
                args.seconds + 4,
                queue,
            ),
        )
        swarm.start()
        time.sleep(3)  # every spectator connected and flooding
        loud, tables = asyncio.run(_play(base, args.seconds, first))
        counts = queue.get(timeout=120)
        swarm.join(30)
    result = {
        "spectators": args.spectators,
        "rate_per_spectator": args.rate,
        "quiet": _figures(quiet),
        "hostile": _figures(loud),
        "tables_played_while_hostile": tables,
        "spectator_messages": counts,
    }
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
