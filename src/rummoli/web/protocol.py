"""Messages from clients: size limit, rate limit, and validation, before anything acts.

Every client message passes :class:`Gate` and :func:`parse_message` first. A message that
fails gets an error message to that client only, and changes nothing: the room never sees
it. The protocol itself is described in ``docs/web.md``.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from rummoli.i18n import N_
from rummoli.web.wording import Worded, wording_of

#: Largest client message, in bytes of UTF-8. The longest legal one (an action with its
#: step number, or a hello with a token) is under 150 bytes.
MAX_MESSAGE_BYTES = 2048
#: Token bucket per connection: bursts of this many messages...
RATE_BURST = 20
#: ...refilled at this many a second. A person clicks far slower; a runaway script not.
RATE_PER_SECOND = 10.0
#: After this many refused messages in a row the connection is closed.
MAX_STRIKES = 100
#: Deepest nesting of arrays and objects in a message. The deepest legal one is 1 (an
#: object of numbers and strings); Python's parser recurses once per level, and a
#: message of 1,000 ``[`` ended in a RecursionError that dropped the connection.
MAX_DEPTH = 4
#: Largest action number: the engine's actions are 64-bit integers at most (the
#: ``actions.action`` column is a BIGINT).
MAX_ACTION = (1 << 63) - 1
#: Longest chat message, in characters (after trimming).
MAX_CHAT = 300
#: The quick reactions a person may send (the page draws each as an emoji).
EMOTES = ("thumbs_up", "clap", "laugh", "wow", "sad", "party")
CHANNELS = ("players", "spectators")
#: A browser's id, as the page makes it (:mod:`.people`).
PERSON_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: The slowest pace a page may ask its table to wait for, in milliseconds per laid card
#: (the page's "slow" is 1,100).
MAX_PACE_MS = 2000


class ProtocolError(Worded):
    """A client message that is refused: ``code`` for programs, the text (a message id
    with ``params``: :mod:`.wording`) for people."""

    def __init__(self, code: str, message: str, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.code = code


def error_message(
    code: str, message: str | BaseException, step: int | None = None
) -> dict[str, Any]:
    """The error frame sent to the one client that caused it: ``code`` for programs,
    ``message`` the English sentence, ``text`` and ``params`` its wording for the page
    (:mod:`.wording`: each person reads it in his own language)."""
    said = wording_of(message) if isinstance(message, BaseException) else {"text": message}
    frame: dict[str, Any] = {
        "type": "error",
        "code": code,
        "message": str(message),
        "text": said["text"],
        "params": said.get("params", {}),
    }
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

    def idle(self, now: float) -> bool:
        """Whether the bucket would be full by ``now`` (nothing to remember about it)."""
        return self._tokens + (now - self._stamp) * self.per_second >= self.burst


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: take a seat with its token, or watch (no token). At a
    private table a spectator needs ``key``: the invitation's or the spectator link's
    secret. ``name``: a spectator's name in the spectators' chat."""

    token: str | None
    key: str | None = None
    name: str | None = None
    #: The step and the part of it this page had shown when it last left (a reload in
    #: the middle of a run): the table goes on showing the run from there.
    shown: tuple[int, int] | None = None
    #: The browser's own id (:mod:`.people`): a spectator is the same person after a
    #: reload (his sender id, his name, his mutes).
    person: str | None = None


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


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line for a channel: ``players`` (seated players) or ``spectators``."""

    channel: str
    text: str


@dataclass(frozen=True, slots=True)
class React:
    """A quick reaction, one of :data:`EMOTES`, on the sender's channel."""

    emote: str


@dataclass(frozen=True, slots=True)
class Mute:
    """Stop (``on``) or start again receiving the chat of one sender, for this person."""

    sender: str
    on: bool


@dataclass(frozen=True, slots=True)
class Listen:
    """A player reads the spectators' chat too (``on``), or no more."""

    on: bool


@dataclass(frozen=True, slots=True)
class Rematch:
    """A player of a finished table asks for (or accepts) a rematch."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The strong computer player's suggestion for this seat's decision (:mod:`.hints`);
    with ``step``, only if the game is still at that step."""

    step: int | None


@dataclass(frozen=True, slots=True)
class Watching:
    """How this page shows a run (``pace_ms`` per laid card; 0: at once), and the last
    step it has finished showing (``seen``). The table waits for its seated people to see
    a run before its next move (:meth:`.room.Room.watch_time`); either may be None."""

    pace_ms: int | None
    seen: int | None


ClientMessage = Hello | Act | Back | Ping | Chat | React | Mute | Listen | Rematch | Hint | Watching


def _whole(value: object, what: str, high: int = MAX_ACTION) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise ProtocolError("bad_message", f"{what} must be a whole number from 0 to {high}")
    return value


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets inside strings do
    not count). Read before parsing, so a deep message never reaches the parser."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


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
    if nesting_depth(raw) > MAX_DEPTH:
        raise ProtocolError("bad_message", f"a message nests at most {MAX_DEPTH} levels deep")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
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
        token = _secret(data.get("token"), "token")
        key = _secret(data.get("key"), "key")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise ProtocolError("bad_message", "name must be text")
        person = data.get("person")
        if person is not None and not (
            isinstance(person, str) and PERSON_ID.match(person) is not None
        ):
            raise ProtocolError("bad_message", "person must be the id this browser made")
        return Hello(token, key, name, _shown(data.get("shown")), person)
    if kind == "back":
        return Back()
    if kind == "ping":
        return Ping()
    if kind == "chat":
        channel = data.get("channel", "players")
        if channel not in CHANNELS:
            raise ProtocolError("bad_message", f"channel must be one of {', '.join(CHANNELS)}")
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ProtocolError("bad_message", "a chat message is some text")
        text = text.strip()
        if len(text) > MAX_CHAT:
            raise ProtocolError(
                "too_big", N_("a chat message has at most {n} characters"), n=MAX_CHAT
            )
        return Chat(channel, text)
    if kind == "react":
        emote = data.get("emote")
        if emote not in EMOTES:
            raise ProtocolError("bad_message", f"emote must be one of {', '.join(EMOTES)}")
        return React(str(emote))
    if kind == "mute":
        sender = data.get("who")
        on = data.get("on", True)
        if not isinstance(sender, str) or not 0 < len(sender) <= 16 or not isinstance(on, bool):
            raise ProtocolError("bad_message", "mute needs who (a sender's id) and on")
        return Mute(sender, on)
    if kind == "listen":
        on = data.get("spectators")
        if not isinstance(on, bool):
            raise ProtocolError("bad_message", "listen needs spectators: true or false")
        return Listen(on)
    if kind == "rematch":
        return Rematch()
    if kind == "hint":
        step = data.get("step")
        return Hint(None if step is None else _whole(step, "step"))
    if kind == "watching":
        pace, seen = data.get("pace"), data.get("seen")
        return Watching(
            None if pace is None else _whole(pace, "pace", MAX_PACE_MS),
            None if seen is None else _whole(seen, "seen"),
        )
    raise ProtocolError(
        "unknown_type",
        f"unknown message type {kind!r}: use hello, action, back, ping, chat, react, mute, "
        "listen, rematch, hint or watching",
    )


def _shown(value: object) -> tuple[int, int] | None:
    """A hello's ``shown``: ``{"step": S, "part": P}``, the part of step S a page had
    shown (a run has at most one part per card)."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"step", "part"}:
        raise ProtocolError("bad_message", "shown must be {step, part}: what the page had shown")
    return _whole(value["step"], "shown's step"), _whole(value["part"], "shown's part", 52)


def _secret(value: object, what: str) -> str | None:
    if value is not None and (not isinstance(value, str) or not 0 < len(value) <= 64):
        raise ProtocolError("bad_message", f"{what} must be the text you were given")
    return value
