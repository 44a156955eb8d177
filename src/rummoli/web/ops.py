"""What whoever hosts the tables needs: health and readiness, metrics, and a graceful stop.

- ``GET /healthz``: the process and its event loop answer (liveness; no database).
- ``GET /readyz``: the database answers and its schema is at the newest migration, and
  the server is not draining; else ``503`` with what is wrong (readiness: a load
  balancer or systemd's watchdog sends no one to it meanwhile).
- ``GET /metrics``: :mod:`.metrics`, in Prometheus' text format. A reverse proxy should
  not pass these three to the world (docs/deploy.md).

**The drain** (:func:`drain`), on SIGTERM (or Ctrl-C) before anything closes, and again
(a no-op then) when the app stops:

1. new tables, seats and host requests (every ``POST``) are refused with ``503``, and a
   new WebSocket is told the server is restarting and closed (:class:`Draining`);
2. each room's owner finishes the step under way and stops (:meth:`.room.Room.drain`):
   an action is stored before it is applied and sent, so every action anyone was told
   of is already durable, and nothing is left half done; past the bound, the owner is
   cancelled (a stored action it had not sent is replayed on the next start);
3. the group commit under way is awaited (:meth:`.hub.Hub.committed`);
4. every connection is told the server is restarting (an ``error`` frame, code
   ``restarting``); uvicorn then closes them with code 1012 (service restart), and the
   page reconnects by itself, to the server's next start, where every unfinished
   table resumes from its stored actions (:meth:`.hub.Hub.start`).

The whole stop is bounded: :func:`serve` gives the owners ``shutdown_seconds`` and the
connections :data:`CLOSE_SECONDS` more.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import socket
import time
from typing import TYPE_CHECKING, Any, Final

import uvicorn
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.engine import Engine
from starlette.types import Receive, Scope, Send

from rummoli.i18n import N_
from rummoli.web import migrate
from rummoli.web.client import encode
from rummoli.web.commands import refuse_waiting
from rummoli.web.guard import PeopleMiddleware
from rummoli.web.logs import TABLE
from rummoli.web.protocol import error_message
from rummoli.web.wording import Refused

if TYPE_CHECKING:
    from rummoli.web.hub import Hub

log = logging.getLogger(__name__)

#: What a page reads when the server stops or refuses a change meanwhile.
RESTARTING = N_("the server is restarting: you will be reconnected in a moment")
#: Seconds the owners get to finish their step, by default (``rummoli serve
#: --shutdown-seconds``), and the bounds of that setting.
SHUTDOWN_SECONDS: Final = 10.0
SHUTDOWN_RANGE: Final = (1.0, 300.0)
#: Seconds uvicorn then waits for the connections to close.
CLOSE_SECONDS: Final = 3.0
#: How uvicorn serves the WebSockets, for ``rummoli serve`` and the browser tests' server
#: alike. The sans-I/O protocol of ``websockets``, named rather than left to ``auto``
#: (which picks it from uvicorn 0.50, and its older, task-per-connection protocol
#: before): 0.8-0.94x the server's CPU an action under load against the older one
#: (docs/performance.md, "WebSocket protocol"); uvicorn >= 0.52.1 for its keepalive
#: pings and its write flow control. Frames of at most 64 KiB (a page sends far less);
#: a ping every 20 s, and a peer that does not answer in 20 s is gone.
WEBSOCKETS: Final[dict[str, Any]] = {
    "ws": "websockets-sansio",
    "ws_max_size": 64 * 1024,
    "ws_ping_interval": 20.0,
    "ws_ping_timeout": 20.0,
}
#: The garbage collector's thresholds for a serving process (:func:`settle_collector`):
#: a young collection once 50,000 more objects are alive, not Python's 700, and older
#: ones rarer. A busy server's youngest objects are its pending awaits (a coroutine, a
#: future, a frame's locals for every connection waiting): at 700 they were walked over
#: and over and promoted, and the promoted ones brought full collections of the whole
#: heap, up to 765 ms each, every table stopped, a third of the server's CPU at 1,000
#: tables. At these thresholds: 1.3x the actions a second and under half the p99
#: (docs/performance.md, "The garbage collector"). Most of what dies is freed by its
#: reference count at once, whatever the thresholds.
GC_THRESHOLDS: Final = (50_000, 20, 100)
#: Seconds the readiness check waits for the database.
READY_TIMEOUT: Final = 2.0
#: Paths that name a table: their log lines carry its id (:mod:`.logs`).
TABLE_PATH = re.compile(r"^/(?:api/tables|ws|table)/([A-Za-z0-9_-]{1,64})")


def _hub(app: Any) -> Hub | None:
    return getattr(app.state, "hub", None)


class Draining(PeopleMiddleware):
    """ASGI middleware: the table a request is about goes into the log's context, and
    while the server drains every ``POST`` and every new WebSocket is refused."""

    async def handle(self, kind: str, scope: Scope, receive: Receive, send: Send) -> None:
        found = TABLE_PATH.match(scope.get("path", ""))
        if found is not None:
            TABLE.set(found.group(1))
        hub = _hub(scope["app"]) if "app" in scope else None
        if hub is not None and hub.draining:
            if kind == "websocket":
                await receive()  # the handshake's websocket.connect
                await send({"type": "websocket.accept"})
                frame = error_message("restarting", RESTARTING)
                await send({"type": "websocket.send", "text": encode(frame)})
                await send({"type": "websocket.close", "code": 1012})
                hub.metrics.refused("restarting")
                return
            if scope.get("method") == "POST":
                refused = Refused(503, RESTARTING)
                body = {"detail": refused.detail, **refused.wording}
                response = JSONResponse(body, status_code=503, headers={"Retry-After": "5"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def add_routes(app: FastAPI) -> None:
    """``/healthz``, ``/readyz`` and ``/metrics`` (see the module's doc)."""
    newest = migrate.head()

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> dict[str, Any]:
        hub = _hub(request.app)
        return {"status": "ok", "draining": bool(hub and hub.draining)}

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        hub = _hub(request.app)
        answer: dict[str, Any] = {"ready": False, "draining": bool(hub and hub.draining)}
        if hub is None:
            answer["database"] = "not open"
            return JSONResponse(answer, status_code=503)
        try:
            revision = await asyncio.wait_for(hub.db(_revision, hub.storage.engine), READY_TIMEOUT)
        except TimeoutError:
            answer["database"] = f"no answer within {READY_TIMEOUT:g} s"
        except Exception as error:  # any failure of the database is "not ready"
            answer["database"] = f"{type(error).__name__}: {error}"[:300]
        else:
            answer["database"] = "ok"
            answer["migrations"] = {"current": revision, "head": newest}
            answer["ready"] = revision == newest and not answer["draining"]
        return JSONResponse(answer, status_code=200 if answer["ready"] else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        hub = _hub(request.app)
        if hub is None:
            return Response("the server is not started\n", status_code=503)
        return Response(hub.metrics.text(), media_type=CONTENT_TYPE)


def _revision(engine: Engine) -> str | None:
    """The schema's revision, read as plain SQL (a probe every few seconds: Alembic's
    own reader logs two lines each time)."""
    with engine.connect() as connection:
        found = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        return None if found is None else str(found)


#: The content type of Prometheus' text format (version 0.0.4).
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"


async def drain(hub: Hub, timeout: float = SHUTDOWN_SECONDS) -> float:
    """Stop taking changes and leave every table durable (see the module's doc); the
    seconds it took. A second call does nothing."""
    if hub.draining:
        return 0.0
    started = time.monotonic()
    hub.draining = True
    rooms = list(hub.rooms.values())
    log.info("draining: %d tables, %d connections", len(rooms), sum(len(r.clients) for r in rooms))
    stopped = await asyncio.gather(*(room.drain(timeout) for room in rooms))
    await hub.committed()
    clients = []
    for room in rooms:
        refuse_waiting(room, Refused(503, RESTARTING))
        for client in list(room.clients):
            client.send(error_message("restarting", RESTARTING))
            clients.append(client)
    # The connections' writers send it before uvicorn closes them (briefly bounded: a
    # client too slow to take it reconnects all the same).
    deadline = time.monotonic() + 1.0
    while any(not c.closed and not c.outbox.empty() for c in clients):
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.01)
    took = time.monotonic() - started
    cut = len(stopped) - sum(stopped)
    log.info("drained in %.2f s: %d tables stopped, %d cut at the bound", took, sum(stopped), cut)
    return took


class DrainingServer(uvicorn.Server):
    """uvicorn's server, with :func:`drain` before it closes anything."""

    def __init__(self, config: uvicorn.Config, app: FastAPI, shutdown_seconds: float) -> None:
        super().__init__(config)
        self.app = app
        self.shutdown_seconds = shutdown_seconds
        self.drain_seconds: float | None = None

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        hub = _hub(self.app)
        if hub is not None:
            try:
                self.drain_seconds = await drain(hub, self.shutdown_seconds)
            except Exception:  # a drain that fails must not keep the server up
                log.exception("the drain failed; stopping anyway")
        await super().shutdown(sockets)


def serve(app: FastAPI, shutdown_seconds: float = SHUTDOWN_SECONDS, **options: Any) -> None:
    """Run ``app`` on uvicorn (``options``: uvicorn's, over :data:`WEBSOCKETS`), draining
    on SIGTERM or Ctrl-C."""
    low, high = SHUTDOWN_RANGE
    if not low <= shutdown_seconds <= high:
        raise ValueError(f"shutdown seconds must be from {low:g} to {high:g}")
    options = {**WEBSOCKETS, **options}
    config = uvicorn.Config(app, timeout_graceful_shutdown=int(CLOSE_SECONDS), **options)
    DrainingServer(config, app, shutdown_seconds).run()


def settle_collector() -> None:
    """Before serving: what is loaded by now (about 100,000 objects: modules, classes,
    functions) lives as long as the process, so it is kept out of the collector's full
    passes, which pause every table; and the collector runs at :data:`GC_THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


__all__ = [
    "CONTENT_TYPE",
    "GC_THRESHOLDS",
    "RESTARTING",
    "SHUTDOWN_SECONDS",
    "WEBSOCKETS",
    "Draining",
    "DrainingServer",
    "add_routes",
    "drain",
    "serve",
    "settle_collector",
]
