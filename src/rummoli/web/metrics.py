"""The server's Prometheus metrics (``GET /metrics``, the text format of
``prometheus-client``).

What an operator watches, and where each figure comes from:

- ``rummoli_tables{status}``, ``rummoli_seats{kind}``, ``rummoli_connections{role}``:
  counted from the hub's rooms when scraped (:class:`HubCollector`), so nothing is
  counted twice or forgotten on a path that changes them;
- ``rummoli_actions_total`` (every stored action: people's, computers', deals) and
  ``rummoli_actions_per_second`` (the last :data:`WINDOW` seconds, for a dashboard
  without PromQL; ``rate(rummoli_actions_total[1m])`` is the same);
- ``rummoli_action_seconds``: from storing an accepted action to sending it to every
  connection (its commit, the engine's step, the frames), by :meth:`Metrics.action_done`;
- ``rummoli_db_commit_seconds``: one group commit of actions on the storage thread
  (:meth:`.hub.Hub.store_action`);
- ``rummoli_refused_messages_total{reason}``: messages refused with an error frame, by
  its code (``stale``, ``not_your_turn``, ``rate_limited``, ``illegal``...: a fixed set
  in the code, so the label stays small);
- ``rummoli_draining``: 1 once a SIGTERM's drain began; and the process's own (CPU,
  memory, open files) from ``prometheus-client``.

Each hub has its own registry (tests run many servers in one process); the cost per
action is two observations and a counter (docs/performance.md has the figure).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Final, ParamSpec, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from rummoli.web.storage import FINISHED, PLAYING, WAITING

if TYPE_CHECKING:
    from rummoli.web.hub import Hub

P = ParamSpec("P")
T = TypeVar("T")

#: Seconds over which ``rummoli_actions_per_second`` is averaged.
WINDOW: Final = 10
#: Buckets (seconds) of the latency histograms: a commit takes about a millisecond on
#: SQLite and a few on PostgreSQL; an action is sent within tens of them under load.
BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class ActionRate:
    """Actions in each of the last :data:`WINDOW` whole seconds (a ring of counts)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seconds = [-1] * WINDOW
        self.counts = [0] * WINDOW

    def add(self) -> None:
        second = int(self.clock())
        slot = second % WINDOW
        if self.seconds[slot] != second:
            self.seconds[slot] = second
            self.counts[slot] = 0
        self.counts[slot] += 1

    def per_second(self) -> float:
        """The mean over the last :data:`WINDOW` whole seconds (the current one apart)."""
        now = int(self.clock())
        done = sum(
            c for s, c in zip(self.seconds, self.counts, strict=True) if now - WINDOW <= s < now
        )
        return done / WINDOW


class HubCollector(Collector):
    """Tables, seats and connections, counted from the hub's rooms at each scrape (on the
    event loop: the endpoint runs there, as do the rooms)."""

    def __init__(self, hub: Hub, rate: ActionRate) -> None:
        self.hub = hub
        self.rate = rate

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily(
            "rummoli_tables", "Tables in memory, by status.", labels=["status"]
        )
        seats = GaugeMetricFamily(
            "rummoli_seats",
            "Seats of the tables waiting or playing: a person's, a computer's, free.",
            labels=["kind"],
        )
        connections = GaugeMetricFamily(
            "rummoli_connections", "Open WebSockets, by role.", labels=["role"]
        )
        status = dict.fromkeys((WAITING, PLAYING, FINISHED), 0)
        kinds = {"person": 0, "computer": 0, "free": 0}
        roles = {"player": 0, "spectator": 0}
        for room in self.hub.rooms.values():
            status[room.status] = status.get(room.status, 0) + 1
            for client in room.clients:
                roles["player" if client.seat is not None else "spectator"] += 1
            if room.status not in (WAITING, PLAYING):
                continue
            for seat in room.seats:
                kind = "computer" if seat.bot else "person" if seat.name else "free"
                kinds[kind] += 1
        for family, values in ((tables, status), (seats, kinds), (connections, roles)):
            for label, value in values.items():
                family.add_metric([label], value)
            yield family
        yield GaugeMetricFamily(
            "rummoli_actions_per_second",
            f"Actions stored per second, over the last {WINDOW} seconds.",
            value=self.rate.per_second(),
        )
        yield GaugeMetricFamily(
            "rummoli_draining",
            "1 once the server is draining (SIGTERM): new tables are refused.",
            value=1.0 if self.hub.draining else 0.0,
        )


class Metrics:
    """One server's metrics, in a registry of its own."""

    def __init__(self, hub: Hub) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.rate = ActionRate()
        self.actions = Counter(
            "rummoli_actions", "Actions stored and sent.", registry=self.registry
        )
        self.action_seconds = Histogram(
            "rummoli_action_seconds",
            "From storing an accepted action to sending it to every connection.",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "rummoli_db_commit_seconds",
            "One group commit of actions, on the storage thread.",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.refused_messages = Counter(
            "rummoli_refused_messages",
            "Messages refused with an error frame, by its code.",
            ["reason"],
            registry=self.registry,
        )
        self.registry.register(HubCollector(hub, self.rate))
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)

    def action_done(self, started: float) -> None:
        """An action was stored, applied and sent; ``started``: ``perf_counter()`` when
        its storing began."""
        self.action_seconds.observe(time.perf_counter() - started)
        self.actions.inc()
        self.rate.add()

    def timed_commit(self, commit: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``commit`` (on the storage thread) and observe how long it took."""
        started = time.perf_counter()
        try:
            return commit(*args, **kwargs)
        finally:
            self.commit_seconds.observe(time.perf_counter() - started)

    def refused(self, reason: str) -> None:
        self.refused_messages.labels(reason).inc()

    def text(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


__all__ = ["WINDOW", "ActionRate", "HubCollector", "Metrics"]
