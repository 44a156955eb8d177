"""Real players' latency while 300 hostile clients flood one table of the server.

Starts ``rummoli serve`` (a subprocess, on 127.0.0.1, a temporary SQLite file, the
default per-address limits). ``--tables`` public tables (1 by default) each hold two
players: WebSocket clients that play the first legal action whenever they are to move,
after ``--think`` seconds (0: at once, so there are many actions to time; a person's
pace is about a second). Each table is created and played from a loopback address of
its own (127.0.0.10 to .13, in turn), as people at home would be. A table whose game
ends is replaced by a new one.

After ``--quiet-seconds`` the hostile clients (``--spectators``, 300 by default) come,
all to the first table, from three loopback addresses (127.0.0.2, .3, .4: at most 100
connections an address by default), in a child process of their own at the lowest
priority (so their client work does not slow the players' measurements), for
``--seconds``. Each sends a message
``--rate`` times a second; what it sends is ``--mix``:

- ``moves``: a move (spectators may not move: every one is refused), as issue 12 had it;
- ``chat``: chat lines (issue 22's flood: 298 spammers raised the honest tables' median
  to 190-446 ms);
- ``all``: chat lines, refused moves, reactions and garbage (bad JSON, unknown types,
  oversized and deeply nested messages) in turn, and **churn**: each client leaves and
  connects again every ``--churn`` seconds.

A client the server closes connects again a second later (a determined attacker).

Reported: the players' latency (send to the update that applies it) p50, p99 and max,
before the hostile clients (quiet, after ``--warmup`` seconds of tables being made) and
while they flood (from 3 s after they came); the messages they sent by kind, the chat
lines and refusals they got back, the connections made and refused; the server's own
CPU seconds per second of each phase (what the flood costs it, whatever else the machine
runs); and the machine's load average (1 minute) at the start and end of each phase.
The target of issue 22: with 300 hostile clients at one table (chat, refused moves,
garbage, churn), 50 honest tables keep p99 under 50 ms on a quiet machine:

    .venv/bin/python bench/bench_hostile_spectators.py --tables 50 --think 0.5 --mix all
    .venv/bin/python bench/bench_hostile_spectators.py --spectators 300 --seconds 20 --json out.json

Loopback only; every loop is bounded in time, and the script stops the server itself.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from bench_web_load import _cpu_seconds, _cpu_wait_seconds, server

HOST = "127.0.0.1"
ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
#: Where the honest tables are created and played from, in turn.
HONEST = ("127.0.0.10", "127.0.0.11", "127.0.0.12", "127.0.0.13")
#: Seconds a closed client waits before it connects again (as the table page does).
RECONNECT = 1.0
#: What ``--mix all`` sends, in turn (each a JSON text, or a kind of garbage).
GARBAGE = (
    "{not json",
    json.dumps({"type": "teleport"}),
    json.dumps({"type": "chat", "text": "x" * 3000}),
    "[" * 50 + "]" * 50,
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _load() -> float:
    return round(os.getloadavg()[0], 2)


async def _table(base: str, address: str) -> tuple[str, list[str]]:
    """A public table of two players (both played here); their seat tokens."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
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


async def _seat(
    url: str,
    token: str,
    address: str,
    deadline: float,
    think: float,
    timed: list[tuple[float, float]],
) -> None:
    """One player: the first legal action whenever he is to move (after ``think``
    seconds), each timed as (sent at, latency)."""
    async with connect(url, max_size=2**20, ping_interval=None, local_addr=(address, 0)) as ws:
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
                timed.append((time.monotonic(), time.perf_counter() - sent_at))
                sent_step = -1
            if view is None:
                continue
            if view["phase"] == "over":
                return
            if view["to_move"] == seat and view.get("legal_actions") and sent_step < 0:
                if think:
                    await asyncio.sleep(think)
                action = view["legal_actions"][0]["action"]
                sent_step, sent_at = step, time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action, "step": step}))


async def _play_table(
    base: str,
    address: str,
    deadline: float,
    think: float,
    timed: list[tuple[float, float]],
    first: asyncio.Future[str] | None = None,
) -> int:
    """Play one table's two seats until ``deadline`` (a new table when a game ends);
    how many tables it took. ``first`` learns the first table's id."""
    tables = 0
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < deadline:
        table, tokens = await _table(base, address)
        if first is not None and not first.done():
            first.set_result(table)
        tables += 1
        url = f"{ws_base}/ws/{table}"
        await asyncio.gather(*(_seat(url, t, address, deadline, think, timed) for t in tokens))
    return tables


def _message(kind: str, n: int) -> str:
    if kind == "chat":
        return json.dumps({"type": "chat", "channel": "spectators", "text": f"spam {n}"})
    if kind == "react":
        return json.dumps({"type": "react", "emote": "party"})
    if kind == "move":
        return json.dumps({"type": "action", "action": 3, "step": 0})
    return GARBAGE[n % len(GARBAGE)]


KINDS = {
    "moves": ("move",),
    "chat": ("chat",),
    "all": ("chat", "move", "react", "garbage"),
}


async def _hostile(
    url: str, address: str, rate: float, until: float, mix: str, churn: float, counts: Counter[str]
) -> None:
    """One hostile client: connects, then sends ``mix`` ``rate`` times a second; it leaves
    and comes back every ``churn`` seconds (0: never); when the server closes it, it
    connects again a second later."""
    kinds = itertools.cycle(KINDS[mix])
    n = 0
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
                        text = str(raw)
                        if text.startswith('{"type":"error"'):
                            counts["refused"] += 1
                        elif text.startswith('{"type":"chat"'):
                            counts["chat_read"] += 1

                reader = asyncio.create_task(read())
                leave = time.monotonic() + churn if churn else until
                while time.monotonic() < min(until, leave) and not reader.done():
                    kind = next(kinds)
                    await ws.send(_message(kind, n))
                    n += 1
                    counts[f"sent_{kind}"] += 1
                    await asyncio.sleep(1.0 / rate)
                reader.cancel()
        except Exception:
            counts["closed"] += 1
            await asyncio.sleep(RECONNECT)


def _swarm(
    url: str, clients: int, rate: float, seconds: float, mix: str, churn: float, out: Any
) -> None:
    """The hostile clients, in their own process, at the lowest priority (an attacker's
    client work runs on his own machine, not on the server's two cores: here it only
    takes what the server and the players leave); their counts go to ``out``."""
    os.nice(19)

    async def run() -> dict[str, int]:
        counts: Counter[str] = Counter()
        until = time.monotonic() + seconds
        tasks = [
            _hostile(url, ADDRESSES[i % len(ADDRESSES)], rate, until, mix, churn, counts)
            for i in range(clients)
        ]
        await asyncio.gather(*tasks)
        return dict(counts)

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


async def _run(args: argparse.Namespace, base: str, port: int, pid: int) -> dict[str, Any]:
    timed: list[tuple[float, float]] = []
    start = time.monotonic()
    warm = start + args.warmup  # the tables being made and their players arriving
    flood_at = start + args.quiet_seconds
    deadline = flood_at + args.seconds
    first: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    players = [
        asyncio.create_task(
            _play_table(
                base,
                HONEST[i % len(HONEST)],
                deadline,
                args.think,
                timed,
                first if i == 0 else None,
            )
        )
        for i in range(args.tables)
    ]
    watched = await first
    loads = {"start": _load()}
    await asyncio.sleep(max(0.0, warm - time.monotonic()))
    cpu = {"warm": _cpu_seconds(pid), "warm_wait": _cpu_wait_seconds(pid)}
    await asyncio.sleep(max(0.0, flood_at - time.monotonic()))
    loads["quiet_end"] = _load()
    cpu["flood"], cpu["flood_wait"] = _cpu_seconds(pid), _cpu_wait_seconds(pid)
    queue: Any = multiprocessing.Queue()
    swarm = multiprocessing.Process(
        target=_swarm,
        args=(
            f"ws://{HOST}:{port}/ws/{watched}",
            args.spectators,
            args.rate,
            args.seconds,
            args.mix,
            args.churn,
            queue,
        ),
    )
    swarm.start()
    tables = sum(await asyncio.gather(*players))
    loads["end"] = _load()
    cpu["end"], cpu["end_wait"] = _cpu_seconds(pid), _cpu_wait_seconds(pid)
    counts = await asyncio.to_thread(queue.get, True, 120)
    swarm.join(30)
    settle = flood_at + 3  # every hostile client connected and flooding
    return {
        "tables": args.tables,
        "think_seconds": args.think,
        "spectators": args.spectators,
        "mix": args.mix,
        "rate_per_client": args.rate,
        "churn_seconds": args.churn,
        "quiet": _figures([lat for at, lat in timed if warm <= at < flood_at]),
        "hostile": _figures([lat for at, lat in timed if at >= settle]),
        "tables_played": tables,
        "hostile_messages": counts,
        "load_average_1min": loads,
        # The server's own CPU (user + system) per second of each phase: what the flood
        # costs it, whatever else the machine runs.
        "server_cpu_per_second": {
            "quiet": round((cpu["flood"] - cpu["warm"]) / (flood_at - warm), 3),
            "hostile": round((cpu["end"] - cpu["flood"]) / args.seconds, 3),
        },
        # ...and its threads' seconds runnable but waiting for a core: other work's share.
        "server_cpu_wait_per_second": {
            "quiet": round((cpu["flood_wait"] - cpu["warm_wait"]) / (flood_at - warm), 3),
            "hostile": round((cpu["end_wait"] - cpu["flood_wait"]) / args.seconds, 3),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1, help="honest tables of two players")
    parser.add_argument("--think", type=float, default=0.0, help="a player's seconds a move")
    parser.add_argument("--spectators", type=int, default=300, help="hostile clients")
    parser.add_argument("--rate", type=float, default=20.0, help="messages a client sends a second")
    parser.add_argument("--mix", choices=sorted(KINDS), default="moves")
    parser.add_argument("--churn", type=float, default=5.0, help="seconds a client stays (all)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--quiet-seconds", type=float, default=8.0)
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="first seconds left out (tables being made)"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not 0 < args.seconds <= 300 or not 0 < args.quiet_seconds <= 300:
        parser.error("runs are bounded: at most 300 seconds each")
    if not 1 <= args.tables <= 200 or not 0 <= args.think <= 10 or not 0 < args.rate <= 100:
        parser.error("1 to 200 tables, 0 to 10 s of thinking, a rate from 0 to 100 a second")
    if args.mix != "all":
        args.churn = 0.0
    port = _free_port()
    base = f"http://{HOST}:{port}"
    if not 0 <= args.warmup < args.quiet_seconds:
        parser.error("the warm-up is a part of the quiet seconds")
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "bench.db", port, []) as proc:
        result = asyncio.run(_run(args, base, port, proc.pid))
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
