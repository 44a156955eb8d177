"""Helpers for the web tests: an in-process server, seats, and a WebSocket client that
never waits forever (TestClient's own ``receive`` has no timeout)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from conftest import mostly_cheap
from rummoli.engine.base import Event
from rummoli.games.rummoli import Rules, RummoliState, setup_from_dict
from rummoli.web.app import create_app
from rummoli.web.protocol import RATE_PER_SECOND
from rummoli.web.room import Room, Timing

Frame = dict[str, Any]
FAST = Timing(bot_delay=0.0, round_pause=0.0)
#: The invitation and host secrets of the tables the tests created, by table id.
INVITES: dict[str, str] = {}
HOSTS: dict[str, str] = {}
#: ``connect``'s default: the table's invitation as a spectator's key.
INVITED = object()
#: The most messages a connection that plays like a person (:meth:`Conn.act`) sends in any
#: second: under the server's rate limit, which refuses a script's faster clicks as a flood
#: (a seat that plays many cards in a row would be refused, and wait for ever).
PACE = int(RATE_PER_SECOND) - 1


def db_url(path: Path) -> str:
    return f"sqlite:///{path}"


@contextmanager
def server(path: Path, timing: Timing = FAST, **kwargs: Any) -> Iterator[TestClient]:
    """The app on an SQLite file, started (lifespan) and stopped around the block."""
    kwargs.setdefault("allowed_hosts", ["testserver"])
    app = create_app(db_url(path), timing=timing, **kwargs)
    with TestClient(app) as client:
        yield client


def room(client: TestClient, table_id: str) -> Room:
    """The server's room (tests only: to compare what clients got with the truth)."""
    found: Room = client.app.state.hub.rooms[table_id]  # type: ignore[attr-defined]
    return found


def people(table_id: str) -> dict[str, str]:
    """The headers of a private game's host: its record and every seat's replay."""
    return {"x-rummoli-key": HOSTS[table_id]}


def mine() -> dict[str, str]:
    """The headers of a browser that hosted the tables these tests made (the latest
    200): the listings (history, players, statistics) show their private games."""
    pairs = list(HOSTS.items())[-200:]
    return {"x-rummoli-games": " ".join(f"{table}:{secret}" for table, secret in pairs)}


def offered(client: TestClient, game: str, **params: str) -> dict[str, Any]:
    """What the lobby's options offer of ``game`` (its title, seats, rules, levels...);
    ``params``: the query's (``lang``)."""
    games: dict[str, dict[str, Any]] = client.get("/api/options", params=params).json()["games"]
    return games[game]


def create_table(client: TestClient, seats: list[str], **settings: Any) -> str:
    """A new table (private, unless ``public=True``); its secrets go to INVITES, HOSTS."""
    response = client.post("/api/tables", json={"seats": seats, **settings})
    assert response.status_code == 201, response.text
    answer = response.json()
    table_id: str = answer["id"]
    INVITES[table_id] = answer["invite"]
    HOSTS[table_id] = answer["host"]
    return table_id


def refused_table(client: TestClient, body: dict[str, Any]) -> str:
    """Asks for a table with ``body``, which must be refused (400) and make no table;
    the reason it was given."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert client.get("/api/tables").json()["tables"] == []
    detail: str = response.json()["detail"]
    return detail


def join(client: TestClient, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
    """Take a seat through the table's invitation."""
    body: dict[str, Any] = {"name": name, "invite": INVITES.get(table_id)}
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/tables/{table_id}/join", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


class Conn:
    """A WebSocket client of one table: every frame it gets is kept in ``frames``."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.frames: list[Frame] = []
        self.view: Frame | None = None
        self.step = 0
        self.seat: int | None = None
        #: When each message of the last second was sent (:meth:`act` keeps to :data:`PACE`).
        self.sent: deque[float] = deque()

    def send(self, message: Any) -> None:
        self.sent.append(time.monotonic())
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def act(self, action: int, step: int | None = None) -> None:
        """Play ``action`` at ``step`` (the latest seen unless given) no faster than a
        person clicks: at most :data:`PACE` messages in any second, waiting if need be."""
        now = time.monotonic()
        while self.sent and self.sent[0] <= now - 1.0:
            self.sent.popleft()
        if len(self.sent) >= PACE:
            time.sleep(self.sent[0] + 1.0 - now)
        self.send({"type": "action", "action": action, "step": self.step if step is None else step})

    def play(self, action: int) -> Frame:
        """Play ``action`` at the latest step seen (:meth:`act`) and wait for the table to
        move past that step: its first frame after it. A refusal fails the test at once
        (it would leave the table waiting for this seat, and the test for ever)."""
        sent = self.step
        self.act(action, sent)
        answer = self.until(lambda f: f["type"] == "error" or f.get("step", sent) > sent)
        assert answer["type"] != "error", answer
        return answer

    def recv(self, timeout: float = 10.0) -> Frame:
        """The next frame; fails the test after ``timeout`` seconds of silence."""
        ws = self.ws

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await ws._send_rx.receive()

        message = ws.portal.call(get)
        if message["type"] == "websocket.close":
            raise ConnectionClosed(message.get("code", 1000))
        frame: Frame = json.loads(message["text"])
        self.frames.append(frame)
        if frame["type"] in ("state", "update"):
            self.view = frame["view"]
            self.step = frame["step"]
            if frame["type"] == "state":
                self.seat = frame["seat"]
        return frame

    def poll(self, timeout: float = 0.02) -> Frame | None:
        """The next frame if one comes within ``timeout`` seconds, else None."""
        try:
            return self.recv(timeout)
        except TimeoutError:
            return None

    def until(
        self, test: Callable[[Frame], bool], timeout: float = 10.0, limit: int = 5000
    ) -> Frame:
        for _ in range(limit):
            frame = self.recv(timeout)
            if test(frame):
                return frame
        raise AssertionError("the awaited frame never came")

    def wait_view(self, test: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        """The current view once ``test(view)`` holds (now, or after more frames)."""
        while self.view is None or not test(self.view):
            self.recv(timeout)
        return self.view

    def sync(self) -> list[Frame]:
        """Ping and wait for the pong: returns every frame received before it."""
        start = len(self.frames)
        self.send({"type": "ping"})
        self.until(lambda f: f["type"] == "pong")
        return self.frames[start:-1]

    def my_turn(self) -> bool:
        v = self.view
        return bool(v and v["to_move"] == self.seat and v.get("legal_actions"))


class ConnectionClosed(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


def refused(client: TestClient, table_id: str, first: Frame | None) -> tuple[str, int]:
    """A new connection to a table says ``first`` (None: nothing), which the server must
    refuse: the code of the error it answers, and the code it then closes the socket with."""
    with connect(client, table_id, hello=False) as conn:
        if first is not None:
            conn.send(first)
        error = conn.recv()["code"]
        with pytest.raises(ConnectionClosed) as closed:
            conn.recv()
    return error, closed.value.code


@contextmanager
def connect(
    client: TestClient,
    table_id: str,
    token: str | None = None,
    *,
    hello: bool = True,
    key: object = INVITED,
    name: str | None = None,
    **kw: Any,
) -> Iterator[Conn]:
    """A connection to a table: with ``token`` a seat's, else a spectator's (with the
    table's invitation as its key, unless ``key`` says otherwise: None for a stranger)."""
    with client.websocket_connect(f"/ws/{table_id}", **kw) as ws:
        conn = Conn(ws)
        if hello:
            message: dict[str, Any] = {"type": "hello"}
            if token:
                message["token"] = token
            else:
                secret = INVITES.get(table_id) if key is INVITED else key
                if secret is not None:
                    message["key"] = secret
                if name is not None:
                    message["name"] = name
            conn.send(message)
            conn.until(lambda f: f["type"] == "state")
        yield conn


def reference(record: dict[str, Any]) -> tuple[list[RummoliState], list[list[Event]]]:
    """The state after each number of actions (index = step) and the events of each
    step, rebuilt from a finished game's record: the truth to check frames against."""
    rules = Rules.from_dict(record["rules"])
    setup = setup_from_dict(record["setup"], rules.starting_chips)
    state = RummoliState(rules, setup, record["seed"])
    states = [state.clone()]
    events: list[list[Event]] = [[]]
    for action in record["actions"]:
        events.append(state.apply(action))
        states.append(state.clone())
    return states, events


def choose(view: Frame, rng: random.Random) -> int:
    """A person's choice: random, but mostly the cheap ones (as in the engine tests)."""
    return mostly_cheap([a["action"] for a in view["legal_actions"]], rng, uniform=0.4)


def drive(conns: list[Conn], rng: random.Random, *, seconds: float = 60.0) -> None:
    """Play every seated connection until each has seen the end of the game."""
    deadline = time.monotonic() + seconds
    acted: dict[int, int] = {}
    while not all(c.view and c.view["phase"] == "over" for c in conns):
        assert time.monotonic() < deadline, "the game did not end in time"
        for conn in conns:
            frame = conn.poll()
            assert frame is None or frame["type"] != "error", frame
            if conn.my_turn() and acted.get(id(conn)) != conn.step:
                assert conn.view is not None
                acted[id(conn)] = conn.step
                conn.act(choose(conn.view, rng))


_T = TypeVar("_T")


def run_coroutine(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` on a fresh event loop in a thread of its own: in the whole suite
    the browser tests' Playwright session keeps an event loop running in the main thread,
    where ``asyncio.run`` refuses to start another (a test run alone never sees it)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def run_in_thread(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``function(*args, **kwargs)`` in a thread of its own, for code that calls
    ``asyncio.run`` itself (see :func:`run_coroutine`)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args, **kwargs).result()
