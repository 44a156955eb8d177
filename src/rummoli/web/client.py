"""One connection as its room sees it (:class:`Client`), and the encoder of every frame.

Apart from the room because both sides use it: the room's broadcasting (:mod:`.broadcast`)
fills a client's outbox, and the connection's writer task (:mod:`.socket`) empties it. The
encoder is here because :meth:`Client.send` encodes a frame given as a dict itself.
"""

from __future__ import annotations

import asyncio
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from rummoli.web.people import Person

#: Frames waiting for one slow connection before it is dropped (it may reconnect).
OUTBOX_LIMIT = 512


def encode(value: Any) -> str:
    """A frame as compact JSON text. orjson, not ``json``: encoding the views was the
    largest single cost of the server under load, and orjson does it about 9 times faster.

    A dict keyed by numbers is written with its keys as strings, as ``json`` does.
    orjson's option for such keys makes every frame take 1.6 times as long, and no game's
    frames have one today, so a frame is encoded without it and, only if that fails,
    again with it (the same bytes either way)."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _outbox() -> asyncio.Queue[str | None]:
    return asyncio.Queue(OUTBOX_LIMIT)


@dataclass(slots=True, eq=False)
class Client:
    """One WebSocket connection: its seat (None: a spectator) and its outbox.

    The owner never waits for a client: frames go into the outbox, and the connection's
    own writer task sends them. A client too slow to keep up is dropped (``None`` in the
    outbox tells the writer to close), so one bad connection cannot stall a table.

    Its chat: ``sender`` is its person's id in the chat (``p2`` for seat 2, ``s5`` for a
    spectator: :mod:`.people`), ``name`` a spectator's chosen name, ``muted`` the senders
    its person does not want to read (the person's own set, shared by his tabs),
    ``listen_spectators`` whether a player reads the spectators' chat. ``browser``: the
    id its page sent (a spectator's person), ``via``: what let it in (``seat``, or a
    spectator's ``public``, ``invite``, ``watch``, ``host``): a revoked link closes the
    connections that came in by it. ``pace`` and ``seen``: what its page said it is
    showing (a ``watching`` message), ``watch_until`` and ``waited``: the table's wait
    for it, and how much of this round's it used (:meth:`.room.Room.watch_time`).

    A dataclass for its fields' one declaration each (``eq=False``: a client is itself,
    not equal to another with the same fields).
    """

    seat: int | None
    address: str = ""
    name: str | None = None
    _: KW_ONLY
    browser: str | None = None
    via: str = "seat"
    person: Person | None = field(default=None, init=False)
    sender: str = field(default="", init=False)
    muted: set[str] = field(default_factory=set, init=False)
    listen_spectators: bool = field(default=False, init=False)
    outbox: asyncio.Queue[str | None] = field(default_factory=_outbox, init=False)
    closed: bool = field(default=False, init=False)
    #: How this page shows a run (seconds per laid card; 0: at once, or never said)
    #: and the last step it has shown: the table waits for what its people watch.
    pace: float = field(default=0.0, init=False)
    seen: int = field(default=-1, init=False)
    watch_until: float = field(default=0.0, init=False)
    #: (round, seconds the table waited for this page in that round).
    waited: tuple[int, float] = field(default=(0, 0.0), init=False)
    #: What the page had shown when it came (its hello's ``shown``): its snapshot
    #: goes on with a run from there (:func:`.broadcast.snapshot`).
    resume: tuple[int, int] | None = field(default=None, init=False)

    def send(self, frame: dict[str, Any] | str) -> None:
        if self.closed:
            return
        text = frame if isinstance(frame, str) else encode(frame)
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Ask the writer to close the connection after what is already queued."""
        if self.closed:
            return
        self.closed = True
        while True:
            try:
                self.outbox.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()


__all__ = ["OUTBOX_LIMIT", "Client", "encode"]
