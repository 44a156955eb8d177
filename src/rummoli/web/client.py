"""One connection as its room sees it (:class:`Client`), and the encoder of every frame.

Apart from the room because both sides use it: the room's broadcasting (:mod:`.broadcast`)
fills a client's outbox, and the connection's writer task (:mod:`.socket`) empties it. The
encoder is here because :meth:`Client.send` encodes a frame given as a dict itself.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from rummoli.web.people import Person

#: Frames waiting for one slow connection before it is dropped (it may reconnect).
OUTBOX_LIMIT = 512


def encode(value: Any) -> str:
    """A frame as compact JSON text. orjson, not ``json``: encoding the views was the
    largest single cost of the server under load, and orjson does it about 9 times faster."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


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
    """

    __slots__ = (
        "address",
        "browser",
        "closed",
        "listen_spectators",
        "muted",
        "name",
        "outbox",
        "pace",
        "person",
        "resume",
        "seat",
        "seen",
        "sender",
        "via",
        "waited",
        "watch_until",
    )

    def __init__(
        self,
        seat: int | None,
        address: str = "",
        name: str | None = None,
        *,
        browser: str | None = None,
        via: str = "seat",
    ) -> None:
        self.seat = seat
        self.address = address
        self.name = name
        self.browser = browser
        self.via = via
        self.person: Person | None = None
        self.sender = ""
        self.muted: set[str] = set()
        self.listen_spectators = False
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)
        self.closed = False
        #: How this page shows a run (seconds per laid card; 0: at once, or never said)
        #: and the last step it has shown: the table waits for what its people watch.
        self.pace = 0.0
        self.seen = -1
        self.watch_until = 0.0
        #: (round, seconds the table waited for this page in that round).
        self.waited: tuple[int, float] = (0, 0.0)
        #: What the page had shown when it came (its hello's ``shown``): its snapshot
        #: goes on with a run from there (:func:`.broadcast.snapshot`).
        self.resume: tuple[int, int] | None = None

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
