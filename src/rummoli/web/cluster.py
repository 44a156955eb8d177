"""Several server processes on one database: every table's requests at its owner.

Each unfinished table is run by one process, its owner (:mod:`.leases`), and each game
over that people look at is kept by one (with its rematch, if any). A client is
routed to it the way Colyseus does, without a proxy: the table's page (served by any
process) asks ``/api/tables/{id}/socket`` where the table's WebSocket is, and opens it
there; a process that is asked for a WebSocket of a table it does not own closes it
with :data:`.protocol.CLOSE_MOVED`, and the page asks again (after a takeover, the new
owner). The table's few HTTP calls (its information, joining, the host's powers) are
forwarded by whichever process gets them to the owner (:class:`Forwarding`), so the
page's origin and its stored secrets never change. A new table is made by the least
loaded process (the entry process forwards the ``POST``). The lobby's list is each live
process's own tables, merged (:func:`open_tables`); the history and players' pages read
the database, the same from any process.

Why no LISTEN/NOTIFY (or Redis) for chat and presence: every socket of a table is at
its owner, so a table's chat and who is here never cross processes; what does cross
(the lobby's list) is asked for when a lobby asks. ``docs/web.md`` says more.

Forwarded requests carry the cluster's secret (``X-Rummoli-Cluster``): the receiving
process serves them itself (no second hop, even while leases move) and takes the
person's address from ``X-Rummoli-Client`` (the per-address limits count people, not
the entry process).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp

from rummoli.i18n import N_

if TYPE_CHECKING:
    from rummoli.web.hub import Hub

#: The header a forwarded request carries: the cluster's secret.
CLUSTER_HEADER = "x-rummoli-cluster"
#: ...and the person's own address.
CLIENT_HEADER = "x-rummoli-client"
#: The requests of one table, run by its owner.
TABLE_PATH = re.compile(r"^/api/tables/([A-Za-z0-9_-]{1,32})(?:/(?:host|join))?$")
#: The request headers a forward keeps (what the table's endpoints read).
KEPT_HEADERS = ("content-type", "accept-language", "x-rummoli-key", "x-rummoli-token")
#: Seconds a forwarded request may take.
FORWARD_SECONDS = 10.0
#: Seconds the siblings' tables, asked for by a lobby, serve the lobbies after it.
LISTING_SECONDS = 1.0


class SiblingTables:
    """The siblings' tables for the lobby, asked for at most once a :data:`LISTING_SECONDS`.

    Why: each lobby's list asked every sibling over HTTP, so under many lobbies (a page
    polls it) every process spent its time answering the others; a second's staleness
    in a list of tables waiting for players costs nobody anything. Lobbies asking while
    the siblings are being asked wait for that answer (one ask, not one each)."""

    def __init__(self, seconds: float = LISTING_SECONDS) -> None:
        self.seconds = seconds
        self._tables: list[dict[str, Any]] = []
        self._at = float("-inf")
        self._asking: asyncio.Task[list[dict[str, Any]]] | None = None

    async def get(self, ask: Callable[[], Awaitable[list[dict[str, Any]]]]) -> list[dict[str, Any]]:
        """The siblings' tables (a copy: the caller may add its own), from ``ask`` unless
        asked for less than :attr:`seconds` ago."""
        if time.monotonic() - self._at < self.seconds:
            return list(self._tables)
        if self._asking is None:
            self._asking = asyncio.ensure_future(ask())
        asking = self._asking
        try:
            tables = await asyncio.shield(asking)
        finally:
            if self._asking is asking and asking.done():
                self._asking = None
        if not asking.cancelled() and asking.exception() is None:
            self._tables, self._at = tables, time.monotonic()
        return list(tables)


@dataclass(frozen=True, slots=True)
class Cluster:
    """This process's place among those sharing the database.

    ``address``: where people's browsers reach this process (``http://host:port``);
    ``secret``: what its siblings' forwarded requests carry (the same in every process).
    """

    address: str
    secret: str
    #: The siblings' tables for the lobby, asked for at most once a second.
    listings: SiblingTables = field(default_factory=SiblingTables, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not re.match(r"^https?://[^/\s]+$", self.address):
            raise ValueError(
                f"a process's address is http(s)://host:port, without a path: {self.address!r}"
            )
        if len(self.secret) < 16:
            raise ValueError("the cluster's secret must be at least 16 characters")

    def forwarded(self, request: Request) -> bool:
        """Whether the request comes from a sibling process (it carries the secret)."""
        given = request.headers.get(CLUSTER_HEADER)
        return given is not None and hmac.compare_digest(given, self.secret)


def socket_url(address: str, table_id: str) -> str:
    """The WebSocket of a table at the process reached at ``address``."""
    scheme = "wss" if address.startswith("https://") else "ws"
    return f"{scheme}://{address.split('://', 1)[1]}/ws/{table_id}"


def socket_origin(origin: str) -> str:
    """The WebSocket origin of a page origin (``http://h:p`` -> ``ws://h:p``): what a
    page's Content-Security-Policy must allow to open a sibling's socket."""
    return ("wss://" if origin.startswith("https://") else "ws://") + origin.split("://", 1)[-1]


async def owner_address(hub: Hub, table_id: str) -> str | None:
    """The address of the live process that owns the table (or keeps it, a game over,
    or keeps its rematch: :meth:`.leases.Leases.keeper`), if it is another one (None:
    this process does, or nobody does and this one may take it)."""
    if table_id in hub.held or not hub.shared:
        return None
    keeper = await hub.kept_elsewhere(table_id)
    if keeper is None:
        return None
    for worker in await hub.db(hub.leases.workers):
        if worker.id == keeper:
            return worker.address
    return None  # its owner stopped saying it is alive: its lease ends soon


async def least_loaded(hub: Hub) -> str | None:
    """The address of the process a new table goes to, if not this one: the one with
    the fewest tables (this one on a tie)."""
    if not hub.shared:
        return None
    workers = await hub.db(hub.leases.workers)
    mine = hub.tables_run()
    best = min(
        (w for w in workers if w.id != hub.owner), key=lambda w: (w.tables, w.id), default=None
    )
    return best.address if best is not None and best.tables < mine else None


def _call(
    method: str, url: str, body: bytes | None, headers: dict[str, str]
) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=FORWARD_SECONDS) as answer:
            kind = answer.headers.get("content-type", "application/json")
            return int(answer.status), kind, answer.read()
    except urllib.error.HTTPError as refused:  # the owner's own refusal, passed on
        kind = refused.headers.get("content-type", "application/json")
        return int(refused.code), kind, refused.read()


async def forward(request: Request, address: str, cluster: Cluster) -> Response:
    """Send the request to the process at ``address``; its answer is the answer."""
    headers = {k: v for k, v in request.headers.items() if k.lower() in KEPT_HEADERS}
    headers[CLUSTER_HEADER] = cluster.secret
    headers[CLIENT_HEADER] = request.client.host if request.client else ""
    query = f"?{request.url.query}" if request.url.query else ""
    body = await request.body()
    try:
        status, kind, content = await asyncio.to_thread(
            _call, request.method, f"{address}{request.url.path}{query}", body or None, headers
        )
    except (OSError, urllib.error.URLError):
        # The owner is gone (a kill): its lease ends within seconds and another process
        # takes the table; the page tries again.
        moving = N_("this table is moving to another server: try again in a moment")
        return Response(
            json.dumps({"detail": moving, "text": moving, "params": {}}),
            503,
            media_type="application/json",
            headers={"Retry-After": "2"},
        )
    return Response(content, status, media_type=kind)


class Forwarding(BaseHTTPMiddleware):
    """Sends a table's HTTP requests to its owner, and a new table to the least loaded
    process (only when the hub shares its database; a forwarded request stays)."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)

    async def dispatch(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        cluster: Cluster | None = getattr(request.app.state, "cluster", None)
        hub: Hub | None = getattr(request.app.state, "hub", None)
        if cluster is None or hub is None or cluster.forwarded(request):
            return await call_next(request)
        path = request.url.path
        address: str | None = None
        if path == "/api/tables" and request.method == "POST":
            address = await least_loaded(hub)
        elif (found := TABLE_PATH.match(path)) is not None:
            address = await owner_address(hub, found.group(1))
        if address is None or address == cluster.address:
            return await call_next(request)
        return await forward(request, address, cluster)


def _listing(address: str, secret: str) -> list[dict[str, Any]]:
    status, _, content = _call(
        "GET", f"{address}/api/tables?here=1", None, {CLUSTER_HEADER: secret}
    )
    if status != 200:
        return []
    tables: list[dict[str, Any]] = json.loads(content)["tables"]
    return tables


async def _siblings_tables(hub: Hub, secret: str) -> list[dict[str, Any]]:
    """Every live sibling's own tables, asked for in parallel (one that does not answer
    lists none)."""
    others = [w.address for w in await hub.db(hub.leases.workers) if w.id != hub.owner]
    found = await asyncio.gather(
        *(asyncio.to_thread(_listing, a, secret) for a in others), return_exceptions=True
    )
    return [table for listed in found if isinstance(listed, list) for table in listed]


async def open_tables(hub: Hub, cluster: Cluster | None, here: bool) -> list[dict[str, Any]]:
    """The lobby's list: this process's public tables and, unless ``here`` (a sibling
    asks for this process's own), every live sibling's, merged, the latest first."""
    tables = hub.open_tables()
    if cluster is None or here or not hub.shared:
        return tables
    tables.extend(await cluster.listings.get(lambda: _siblings_tables(hub, cluster.secret)))
    tables.sort(key=lambda t: str(t.get("created_at", "")), reverse=True)
    return tables[: hub.limits.listed_tables]


def client_address(request: Request) -> str:
    """The person's address: a sibling's forwarded request says it."""
    cluster: Cluster | None = getattr(request.app.state, "cluster", None)
    if cluster is not None and cluster.forwarded(request):
        return request.headers.get(CLIENT_HEADER, "")
    return request.client.host if request.client else ""


__all__ = [
    "CLIENT_HEADER",
    "CLUSTER_HEADER",
    "Cluster",
    "Forwarding",
    "SiblingTables",
    "client_address",
    "forward",
    "least_loaded",
    "open_tables",
    "owner_address",
    "socket_origin",
    "socket_url",
]
