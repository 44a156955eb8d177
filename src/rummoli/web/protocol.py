"""Messages from clients: size limit, rate limit, and validation, before anything acts.

Every client message passes :class:`Gate` and :func:`parse_message` first. A message that
fails gets an error message to that client only, and changes nothing: the room never sees
it. The protocol itself is described in ``docs/web.md``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

#: Largest client message, in bytes of UTF-8. The longest legal one (an action with its
#: step number, or a hello with a token) is under 150 bytes.
MAX_MESSAGE_BYTES = 2048
#: Token bucket per connection: bursts of this many messages...
RATE_BURST = 20
#: ...refilled at this many a second. A person clicks far slower; a runaway script not.
RATE_PER_SECOND = 10.0
#: After this many refused messages in a row the connection is closed.
MAX_STRIKES = 100


class ProtocolError(ValueError):
    """A client message that is refused: ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def error_message(code: str, message: str, step: int | None = None) -> dict[str, Any]:
    """The error frame sent to the one client that caused it."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if step is not None:
        frame["step"] = step
    return frame


class RateLimiter:
    """A token bucket: ``burst`` messages at once, then ``per_second`` on average."""

    __slots__ = ("_stamp", "_tokens", "burst", "per_second")

    def __init__(self, burst: int = RATE_BURST, per_second: float = RATE_PER_SECOND) -> None:
        self.burst = burst
        self.per_second = per_second
        self._tokens = float(burst)
        self._stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one; False means the message must be refused."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: take a seat with its token, or watch (no token)."""

    token: str | None


@dataclass(frozen=True, slots=True)
class Act:
    """Play ``action`` (an int from the view's ``legal_actions``); with ``step``, only if
    the game is still at that step (a stale click is refused, not misapplied)."""

    action: int
    step: int | None


@dataclass(frozen=True, slots=True)
class Back:
    """An away player is back: the computer stops playing for him."""


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered with ``pong``."""


ClientMessage = Hello | Act | Back | Ping


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 31:
        raise ProtocolError("bad_message", f"{what} must be a whole number >= 0")
    return value


def parse_message(raw: str | bytes | None) -> ClientMessage:
    """Check one raw frame and return the message it holds, or raise :class:`ProtocolError`."""
    if raw is None:
        raise ProtocolError("bad_message", "empty message")
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_big", f"message of {size} bytes refused: the limit is {MAX_MESSAGE_BYTES}"
        )
    if isinstance(raw, bytes):
        raise ProtocolError("bad_message", "send JSON text frames, not binary ones")
    try:
        data = json.loads(raw)
    except ValueError:
        raise ProtocolError("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind == "action":
        step = data.get("step")
        return Act(
            _whole(data.get("action"), "action"),
            None if step is None else _whole(step, "step"),
        )
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 64):
            raise ProtocolError("bad_message", "token must be the text you were given")
        return Hello(token)
    if kind == "back":
        return Back()
    if kind == "ping":
        return Ping()
    raise ProtocolError(
        "unknown_type", f"unknown message type {kind!r}: use hello, action, back or ping"
    )
