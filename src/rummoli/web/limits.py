"""What one address may cost the server: connections, new tables, refused messages.

A hostile client can open thousands of WebSockets, create tables by the thousand, or
send refused moves as fast as it can. Each of these is bounded per address (the
client's IP, as uvicorn gives it; behind a proxy, the proxy's ``X-Forwarded-For``),
with defaults a table of friends never reaches, all configurable (``rummoli serve``'s
options; :class:`Limits`):

- **connections**: at most ``connections_per_address`` open WebSockets (100: a family
  behind one router with every tab open is far below it), and ``connects_per_minute``
  new ones a minute (300: a page reconnects a few times at most); more are refused at
  the handshake (HTTP 403), before the server spends anything on them;
- **new tables**: at most ``tables_per_minute`` a minute (30), else ``429``;
- **refused messages**: a connection's refusals (illegal moves, spectators' moves,
  floods) draw on its address's budget (a burst of ``refused_burst``, then
  ``refused_per_second``). Once it is spent, that connection's reader waits before it
  reads another message: the cost lands on the sender (his messages queue in his own
  socket), not on other tables; a connection made to wait ten times is closed.
  Refusals are also decided in the reader, before the room's queue, so a flood never
  delays a room's owner;
- **chat**: a line draws on its connection's budget, its address's
  (``chat_address_burst``, ``chat_address_per_second``: forty connections of one address
  share one) and its table's channel's (``chat_table_burst``, ``chat_table_per_second``:
  a crowd of addresses cannot flood a table either); a table keeps ``chat_kept`` lines in
  memory and stores at most ``chat_stored`` a game;
- **waiting tables** expire after ``waiting_ttl`` seconds without starting, and
  **finished games** are unloaded from memory once nobody has looked for
  ``idle_unload`` seconds (a sweep every ``sweep_every`` seconds).
"""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass

from rummoli.web.protocol import RateLimiter

#: The largest per-address limit (connections, connects and tables): a benchmark lifts
#: them to it, and a typo cannot make one unbounded.
MAX_PER_ADDRESS = 1_000_000


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits (see the module's doc); ``rummoli serve`` can change each."""

    connections_per_address: int = 100
    #: New WebSockets an address may open a minute (a reconnecting flood is cut off).
    connects_per_minute: int = 300
    tables_per_minute: int = 30
    refused_burst: int = 20
    refused_per_second: float = 2.0
    #: Seconds a table may wait for its players before it expires.
    waiting_ttl: float = 6 * 3600.0
    #: Seconds a started game waits, paused, once every person at it has left, before it
    #: ends as abandoned (counted in nobody's statistics).
    abandon_after: float = 6 * 3600.0
    #: Seconds a finished game stays loaded with nobody watching.
    idle_unload: float = 60.0
    sweep_every: float = 30.0
    #: Chat lines a connection may send: a burst, then so many a second.
    chat_burst: int = 5
    chat_per_second: float = 0.5
    #: ...an address, whatever its connections (forty tabs of one address are one budget).
    chat_address_burst: int = 10
    chat_address_per_second: float = 1.0
    #: ...a table's channel, whoever sends (a crowd cannot flood the others' screens, and
    #: the spectators' flood never takes the players' channel).
    chat_table_burst: int = 20
    chat_table_per_second: float = 2.0
    #: Chat lines a table keeps in memory (a newcomer gets the latest 100 of them).
    chat_kept: int = 200
    #: Chat lines stored for one game; past it, its chat is full.
    chat_stored: int = 2000
    #: Public tables listed in the lobby at most (the latest).
    listed_tables: int = 100
    #: Seconds a table's lease lasts unrenewed (:mod:`.leases`): a process that dies
    #: leaves its tables to the others about this long after (renewed every third).
    lease_seconds: float = 10.0

    def __post_init__(self) -> None:
        for name in (
            "connections_per_address",
            "connects_per_minute",
            "tables_per_minute",
            "refused_burst",
            "chat_burst",
            "chat_address_burst",
            "chat_table_burst",
            "chat_kept",
            "chat_stored",
            "listed_tables",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1")
        for name in ("connections_per_address", "connects_per_minute", "tables_per_minute"):
            if getattr(self, name) > MAX_PER_ADDRESS:
                raise ValueError(f"limit {name} must be at most {MAX_PER_ADDRESS:,}")
        for name in (
            "refused_per_second",
            "waiting_ttl",
            "abandon_after",
            "idle_unload",
            "sweep_every",
            "lease_seconds",
            "chat_per_second",
            "chat_address_per_second",
            "chat_table_per_second",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"limit {name} must be more than 0")


def take(buckets: dict[str, RateLimiter], key: str, burst: int, per_second: float) -> bool:
    """Take one token from ``key``'s bucket (made full on first use): False if empty."""
    bucket = buckets.get(key)
    if bucket is None:
        bucket = buckets[key] = RateLimiter(burst, per_second)
    return bucket.allow()


class Addresses:
    """What each address is using now: open connections, recent tables, refusals."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.connections: Counter[str] = Counter()
        self._created: dict[str, deque[float]] = {}
        self._opened: dict[str, deque[float]] = {}
        self._refused: dict[str, RateLimiter] = {}
        self._chat: dict[str, RateLimiter] = {}

    def connect(self, address: str) -> bool:
        """Count a new connection of ``address``, unless it has too many open, or opened
        too many this minute (False)."""
        if self.connections[address] >= self.limits.connections_per_address:
            return False
        if not self._within(self._opened, address, self.limits.connects_per_minute):
            return False
        self.connections[address] += 1
        return True

    @staticmethod
    def _within(windows: dict[str, deque[float]], address: str, limit: int) -> bool:
        """Count one more event of ``address`` this minute, if fewer than ``limit`` were."""
        now = time.monotonic()
        recent = windows.setdefault(address, deque())
        while recent and recent[0] <= now - 60.0:
            recent.popleft()
        if len(recent) >= limit:
            return False
        recent.append(now)
        return True

    def disconnect(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    def may_create(self, address: str) -> bool:
        """Count a new table of ``address`` if it made fewer than the limit this minute."""
        return self._within(self._created, address, self.limits.tables_per_minute)

    def refused(self, address: str) -> float:
        """A message of ``address`` was refused: 0 if its budget pays for it, else the
        seconds to wait before asking again (the connection reads nothing meanwhile)."""
        limits = self.limits
        if take(self._refused, address, limits.refused_burst, limits.refused_per_second):
            return 0.0
        return 1.0 / limits.refused_per_second

    def chat(self, address: str) -> bool:
        """Whether ``address`` may send one more chat line now (its budget, whatever its
        connections)."""
        limits = self.limits
        return take(self._chat, address, limits.chat_address_burst, limits.chat_address_per_second)

    def sweep(self) -> None:
        """Forget addresses with nothing recent (so the maps do not grow forever)."""
        now = time.monotonic()
        for windows in (self._created, self._opened):
            for address in [a for a, d in windows.items() if not d or d[-1] <= now - 60.0]:
                del windows[address]
        for buckets in (self._refused, self._chat):
            for address in [a for a, b in buckets.items() if b.idle(now)]:
                del buckets[address]


__all__ = ["Addresses", "Limits", "take"]
