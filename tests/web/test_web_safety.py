"""Safety of the table's WebSocket: tokens, Origin, limits, and refusals that change nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import Conn, connect, create_table, join, refused, room, server

from rummoli.web.protocol import MAX_MESSAGE_BYTES, RATE_BURST, RATE_PER_SECOND


@contextmanager
def two_people(tmp_path: Path) -> Iterator[tuple[TestClient, str, Conn, Conn]]:
    """A started table of two people; yields the one to move first, then the other."""
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"])
        tokens = [join(client, table, name)["token"] for name in ("Ann", "Bob")]
        with connect(client, table, tokens[0]) as a, connect(client, table, tokens[1]) as b:
            for conn in (a, b):  # the deal may still be under way
                conn.wait_view(lambda v: v["to_move"] in (0, 1))
            to_move = a.view["to_move"] if a.view else None
            yield (client, table, a, b) if to_move == 0 else (client, table, b, a)


def _unchanged(client: TestClient, table: str, conn: Conn, before: tuple[int, dict]) -> None:
    """No update reached the client, and the server's game is where it was."""
    frames = conn.sync()
    assert not [f for f in frames if f["type"] == "update"]
    state = room(client, table).state
    assert state is not None
    assert (len(state.actions), state.view(conn.seat)) == before


def _snapshot(client: TestClient, table: str, conn: Conn) -> tuple[int, dict]:
    state = room(client, table).state
    assert state is not None
    return len(state.actions), state.view(conn.seat)


def _errors(frames: list[dict]) -> list[str]:
    return [f["code"] for f in frames if f["type"] == "error"]


def test_illegal_and_out_of_turn_actions_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with two_people(tmp_path) as (client, table, mover, other):
        before = _snapshot(client, table, mover)
        legal = {a["action"] for a in mover.view["legal_actions"]}
        illegal = next(a for a in range(1, 400) if a not in legal)
        attempts = [
            (mover, {"type": "action", "action": illegal}, "illegal"),
            (mover, {"type": "action", "action": 10**9}, "illegal"),
            (mover, {"type": "action", "action": min(legal), "step": mover.step + 1}, "stale"),
            (other, {"type": "action", "action": min(legal)}, "not_your_turn"),
            (mover, {"type": "action", "action": "keep"}, "bad_message"),
            (mover, {"type": "action", "action": -1}, "bad_message"),
            (mover, {"type": "action", "action": True}, "bad_message"),
            (mover, {"type": "launch"}, "unknown_type"),
            (mover, [1, 2], "bad_message"),
            (mover, "{not json", "bad_json"),
            (mover, {"type": "hello"}, "bad_message"),
        ]
        for conn, message, code in attempts:
            time.sleep(3 / RATE_PER_SECOND)  # stay under the rate limit (3 messages each)
            conn.send(message)
            frames = conn.sync()
            assert _errors(frames) == [code], (message, frames)
            error = next(f for f in frames if f["type"] == "error")
            assert error["message"]
            _unchanged(client, table, mover, before)
        # ... and a legal action still works afterwards.
        mover.send({"type": "action", "action": min(legal), "step": mover.step})
        mover.until(lambda f: f["type"] == "update")


def test_oversized_and_binary_messages_are_refused(tmp_path: Path) -> None:
    with two_people(tmp_path) as (client, table, mover, _):
        before = _snapshot(client, table, mover)
        action = mover.view["legal_actions"][0]["action"]
        big = json.dumps({"type": "action", "action": action, "pad": "x" * MAX_MESSAGE_BYTES})
        mover.send(big)
        assert _errors(mover.sync()) == ["too_big"]
        mover.ws.send_bytes(b'{"type": "ping"}')
        assert _errors(mover.sync()) == ["bad_message"]
        _unchanged(client, table, mover, before)


def test_rate_limit_refuses_floods_and_changes_nothing(tmp_path: Path) -> None:
    with two_people(tmp_path) as (client, table, mover, _):
        before = _snapshot(client, table, mover)
        illegal = 10**6  # beyond every action of the game
        for _ in range(RATE_BURST * 2):
            mover.send({"type": "action", "action": illegal})
        frames = [mover.recv() for _ in range(RATE_BURST * 2)]
        codes = _errors(frames)
        assert codes.count("rate_limited") >= RATE_BURST // 2
        assert set(codes) == {"illegal", "rate_limited"}
        time.sleep(0.5)  # the bucket refills
        _unchanged(client, table, mover, before)


def test_wrong_token_is_refused(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        other = create_table(client, ["human", "random"])
        token_elsewhere = join(client, other, "Eve")["token"]
        for token in ("x" * 22, token_elsewhere):
            assert refused(client, table, {"type": "hello", "token": token}) == ("bad_token", 4401)


def test_hello_comes_first_and_unknown_tables_are_refused(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        assert refused(client, table, {"type": "action", "action": 1})[0] == "no_hello"
        assert refused(client, "no-such-table", None) == ("no_table", 4404)


def test_spectators_cannot_act(tmp_path: Path) -> None:
    with two_people(tmp_path) as (client, table, mover, _):
        before = _snapshot(client, table, mover)
        with connect(client, table) as watcher:
            assert watcher.seat is None
            assert "hand" not in watcher.view and "legal_actions" not in watcher.view
            watcher.send({"type": "action", "action": mover.view["legal_actions"][0]["action"]})
            assert _errors(watcher.sync()) == ["spectator"]
        _unchanged(client, table, mover, before)


def test_origin_check_on_the_handshake(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        for origin in ("http://evil.example", "http://testserver.evil.example", "null"):
            with (
                pytest.raises(WebSocketDisconnect),
                client.websocket_connect(f"/ws/{table}", headers={"origin": origin}),
            ):
                pass
        # The server's own origin (same host and port) and non-browser clients may connect.
        with connect(client, table, headers={"origin": "http://testserver"}) as conn:
            assert conn.seat is None
        with connect(client, table) as conn:
            assert conn.seat is None


def test_configured_origins(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", allowed_origins=["https://rummoli.example"]) as client:
        table = create_table(client, ["human", "random"])
        with connect(client, table, headers={"origin": "https://rummoli.example"}):
            pass
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}),
        ):
            pass
