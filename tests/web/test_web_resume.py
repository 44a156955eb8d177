"""Coming back: a reconnect returns the seat, a restart resumes every table exactly, and
a player away past the turn timer is played by the computer until he is back."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from pathlib import Path

from webtools import choose, connect, create_table, drive, join, room, server

from rummoli.web.room import Timing
from rummoli.web.storage import utcnow


def _play_some(conn, rng: random.Random, steps: int) -> None:  # type: ignore[no-untyped-def]
    """Make ``steps`` decisions for the seat of ``conn`` (the others are bots)."""
    for _ in range(steps):
        view = conn.wait_view(lambda v: v["phase"] == "over" or v["to_move"] == conn.seat)
        if view["phase"] == "over":
            return
        conn.send({"type": "action", "action": choose(view, rng), "step": conn.step})
        conn.until(lambda f: f["type"] in ("update", "error"))


def test_reconnect_with_the_token_returns_the_seat(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random", "random"], rules={"rounds": 3})
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as conn:
            _play_some(conn, random.Random(1), 3)
            conn.wait_view(lambda v: v["phase"] == "over" or v["to_move"] == 0)
            view, step = conn.view, conn.step
        with connect(client, table, token) as again:
            assert again.seat == 0
            assert again.step == step and again.view == view
            assert again.view is not None and "hand" in again.view
            table_frame = again.frames[0]["table"]
            assert table_frame["seats"][0]["connected"]


def test_restart_resumes_the_unfinished_table_exactly(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    rng = random.Random(5)
    with server(path) as client:
        table = create_table(
            client,
            ["human", "human", "random", "random"],
            rules={"rounds": 4, "bet_limit": 2},  # nobody goes broke in a few moves
            turn_timer=0,
            public=True,
        )
        tokens = [join(client, table, name)["token"] for name in ("Ann", "Bob")]
        with connect(client, table, tokens[0]) as a, connect(client, table, tokens[1]) as b:
            for _ in range(6):
                for conn in (a, b):
                    conn.sync()
                    if conn.my_turn():
                        _play_some(conn, rng, 1)
            the_room = room(client, table)
            truth = the_room.state
            assert truth is not None
            deadline = time.monotonic() + 20.0
            # Until it waits for a person's own choice (not a forced pass being shown:
            # that turn would not survive the restart, by design).
            while the_room.to_move() not in (0, 1) or the_room.unfolding is not None:
                # (Never forever: a game over, or a person out of chips, would never wait.)
                assert not truth.is_terminal() and time.monotonic() < deadline
                if the_room.unfolding is not None and the_room.to_move() in (0, 1):
                    _play_some((a, b)[the_room.to_move() or 0], rng, 1)  # his forced pass
                time.sleep(0.01)
            for conn in (a, b):
                while conn.step < the_room.step:
                    conn.recv()
            before = {0: (a.step, a.view), 1: (b.step, b.view)}
            assert a.step > 3 and not truth.is_terminal()
            actions = list(truth.actions)
    # A new server on the same file: the table is where it was, to the card.
    with server(path) as client:
        resumed = room(client, table).state
        assert resumed is not None and resumed.actions == actions
        assert any(t["id"] == table for t in client.get("/api/tables").json()["tables"])
        with connect(client, table, tokens[0]) as a, connect(client, table, tokens[1]) as b:
            assert (a.step, a.view) == before[0]
            assert (b.step, b.view) == before[1]
            drive([a, b], rng)
        assert client.get(f"/api/games/{table}/record").status_code == 200


def test_away_player_is_played_by_the_computer_until_back(tmp_path: Path) -> None:
    timing = Timing(bot_delay=0.02, round_pause=0.0)
    with server(tmp_path / "t.db", timing=timing) as client:
        table = create_table(client, ["human", "random"], rules={"rounds": 3}, turn_timer=0.3)
        token = join(client, table, "Sleepy")["token"]
        with connect(client, table, token) as conn:
            start = time.monotonic()
            away = conn.until(lambda f: "table" in f and f["table"]["seats"][0]["away"])
            assert time.monotonic() - start >= 0.25
            assert away["table"]["seats"][0]["away"]
            # The computer now plays his turns: the game moves without him.
            step = conn.step
            conn.until(lambda f: f["type"] == "update" and f["step"] > step + 1)
            conn.send({"type": "back"})
            back = conn.until(
                lambda f: (
                    ("table" in f and not f["table"]["seats"][0]["away"])
                    or (bool(f.get("view")) and f["view"]["phase"] == "over")
                )
            )
            if back["type"] != "update" or back["view"]["phase"] != "over":
                assert not back["table"]["seats"][0]["away"]


def test_time_limit_makes_the_round_the_last(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"], time_limit=1)
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as conn:
            the_room = room(client, table)
            the_room.started_at = utcnow() - timedelta(minutes=2)  # as if a minute ago
            conn.send({"type": "back"})  # any command wakes the owner, who sees the time
            frame = conn.until(lambda f: "table" in f and f["table"]["last_round"])
            assert frame["table"]["ends_at"]
            hub = client.app.state.hub  # type: ignore[attr-defined]
            stored = hub.storage.load_game(table)
            assert stored.end_requested_after == len(the_room.state.actions)
            drive([conn], random.Random(2))  # the game ends after this round
            assert conn.view is not None and conn.view["round"] == 1
