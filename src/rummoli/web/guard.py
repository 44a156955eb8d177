"""The first thing every request meets: the Host check, the body limit, the JSON depth
limit and the security headers (a plain ASGI middleware, around the whole app).

- **Host**: a request (HTTP or WebSocket) whose ``Host`` is not one of this server's
  names is refused (``400``; a WebSocket handshake is refused with ``403``) before any
  route runs: see :func:`.security.host_allowed` (DNS rebinding).
- **Body**: at most ``max_body`` bytes are *read*, whatever ``Content-Length`` says or
  whether it is sent at all (chunked uploads have none): past it, ``413``. The body is
  read here whole (it is small), then handed to the app.
- **Depth**: a JSON body nesting deeper than ``max_depth`` is refused (``400``) before
  the app parses it (the parser recurses once per level).
- **Headers**: every HTTP answer gets the Content-Security-Policy and its cousins.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummoli.web.protocol import nesting_depth
from rummoli.web.security import host_allowed

#: Largest request body read (a create-table request is under 2 KB).
MAX_BODY_BYTES = 64 * 1024
#: Deepest JSON body (the deepest legal one, a create request, nests 2 levels).
MAX_BODY_DEPTH = 8


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _security_headers(host: str, sockets: str = "") -> list[tuple[bytes, bytes]]:
    # Defence in depth behind textContent: even if a name slipped into markup somewhere,
    # no inline script could run, and no other site may frame the table. ``sockets``:
    # the sibling processes' WebSocket origins (a table's socket is at its owner).
    policy = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self' ws://{host} wss://{host}{sockets}; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    )
    return [
        (b"content-security-policy", policy.encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
    ]


async def _answer(send: Send, status: int, detail: str, host: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *_security_headers(host),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class PeopleMiddleware:
    """A plain ASGI middleware that looks only at what people send, HTTP requests and
    WebSockets (``kind``: ``http`` or ``websocket``), in :meth:`handle`: any other scope
    (the lifespan) goes straight to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind in ("http", "websocket"):
            await self.handle(kind, scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def handle(self, kind: str, scope: Scope, receive: Receive, send: Send) -> None:
        """What the middleware does with a request or a WebSocket."""
        raise NotImplementedError


class Guard(PeopleMiddleware):
    """The ASGI middleware of the module's doc."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_hosts: Collection[str] = (),
        max_body: int = MAX_BODY_BYTES,
        max_depth: int = MAX_BODY_DEPTH,
        sockets: Collection[str] = (),
    ) -> None:
        super().__init__(app)
        self.sockets = "".join(f" {source}" for source in sockets)
        self.allowed_hosts = frozenset(h.lower() for h in allowed_hosts)
        self.max_body = max_body
        self.max_depth = max_depth

    async def handle(self, kind: str, scope: Scope, receive: Receive, send: Send) -> None:
        host = _header(scope, b"host")
        if not host_allowed(host, self.allowed_hosts):
            if kind == "websocket":
                await receive()  # the handshake's websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # HTTP 403
            else:
                await _answer(send, 400, "this server does not answer to that Host", "")
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        shown_host = host or ""
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > self.max_body:
                await _answer(send, 413, "request too large", shown_host)
                return
        if body and nesting_depth(body.decode("utf-8", "replace")) > self.max_depth:
            await _answer(send, 400, "the request's JSON nests too deeply", shown_host)
            return
        sending = _with_headers(send, shown_host, self.sockets)
        await self.app(scope, _replay(bytes(body), receive), sending)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body already read, then the real events."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def _with_headers(send: Send, host: str, sockets: str = "") -> Send:
    extra = _security_headers(host, sockets)

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers: list[Any] = list(message.get("headers", []))
            message = {**message, "headers": headers + extra}
        await send(message)

    return sending


__all__ = ["MAX_BODY_BYTES", "Guard", "PeopleMiddleware"]
