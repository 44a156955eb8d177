"""The table's chat and reactions (issue 12): two channels, mute, limits, stored with the
game, in the replay for its players only, and part of the frame-leak checks."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from webtools import (
    HOSTS,
    Conn,
    connect,
    create_table,
    drive,
    join,
    people,
    server,
)

from conftest import cards_in, check_rummoli_frames
from e2e.rummoli_truth import expanded, shown_reference

Frame = dict[str, Any]


def _chat(conn: Conn) -> list[Frame]:
    return [f for f in conn.frames if f["type"] == "chat"]


def _game_frames(conn: Conn) -> list[Frame]:
    return [f for f in conn.frames if f["type"] not in ("chat", "muted", "listening")]


@contextmanager
def _two_players_and_zed(
    client: TestClient, table: str, tokens: list[str]
) -> Iterator[tuple[Conn, Conn, Conn]]:
    """The connections of the two seated people (by their tokens) and of a spectator
    called Zed: the three sides of a table's chat."""
    with (
        connect(client, table, tokens[0]) as first,
        connect(client, table, tokens[1]) as second,
        connect(client, table, name="Zed") as zed,
    ):
        yield first, second, zed


def test_players_and_spectators_each_have_their_chat(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "random"], rules={"rounds": 1})
        tokens = [join(client, table, n)["token"] for n in ("Ann", "<b>Bea</b>")]
        with _two_players_and_zed(client, table, tokens) as (ann, bea, zed):
            ann.send({"type": "chat", "channel": "players", "text": "good luck"})
            line = bea.until(lambda f: f["type"] == "chat")
            assert (line["name"], line["text"], line["from"]) == ("Ann", "good luck", "p0")
            zed.send({"type": "chat", "channel": "spectators", "text": "go Bea"})
            zed.until(lambda f: f["type"] == "chat" and f["text"] == "go Bea")
            bea.send({"type": "react", "emote": "clap"})
            ann.until(lambda f: f["type"] == "chat" and f["kind"] == "emote")
            for conn in (ann, bea, zed):
                conn.sync()
            assert [f["text"] for f in _chat(zed)] == ["go Bea"]  # not the players'
            assert [f["text"] for f in _chat(ann)] == ["good luck", "clap"]  # not the watchers'
            # A player may read the spectators' chat; then he does.
            ann.send({"type": "listen", "spectators": True})
            ann.until(lambda f: f["type"] == "listening")
            zed.send({"type": "chat", "channel": "spectators", "text": "nice"})
            assert ann.until(lambda f: f["type"] == "chat")["text"] == "nice"
            # Spectators cannot write in the players' chat, nor players in theirs.
            zed.send({"type": "chat", "channel": "players", "text": "psst"})
            assert zed.until(lambda f: f["type"] == "error")["code"] == "not_your_channel"
            # The host opens the players' chat to spectators: they get it from then on.
            opened = client.post(
                f"/api/tables/{table}/host",
                json={"host": HOSTS[table], "do": "players_chat", "value": True},
            )
            assert opened.status_code == 200
            zed.until(lambda f: f["type"] == "state" and f["table"]["players_chat_public"])
            bea.send({"type": "chat", "channel": "players", "text": "thanks all"})
            assert zed.until(lambda f: f["type"] == "chat")["text"] == "thanks all"
        names = {f["name"] for f in _chat(ann) + _chat(zed)}
        assert "<b>Bea</b>" in names  # as typed: the page writes it as text


def test_mute_limits_and_refusals(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "random"])
        tokens = [join(client, table, n)["token"] for n in ("Ann", "Bob")]
        with connect(client, table, tokens[0]) as ann, connect(client, table, tokens[1]) as bob:
            ann.send({"type": "mute", "who": "p1", "on": True})
            ann.until(lambda f: f["type"] == "muted")
            bob.send({"type": "chat", "text": "spam"})
            bob.until(lambda f: f["type"] == "chat")
            assert not [f for f in ann.sync() if f["type"] == "chat"]  # muted, for Ann only
            for bad, code in [
                ({"type": "chat", "text": "x" * 301}, "too_big"),
                ({"type": "chat", "text": "   "}, "bad_message"),
                ({"type": "chat", "text": "abc\u202edef"}, "bad_message"),
                ({"type": "react", "emote": "<script>"}, "bad_message"),
            ]:
                time.sleep(0.3)
                bob.send(bad)
                assert bob.until(lambda f: f["type"] == "error")["code"] == code
            time.sleep(2.5)  # the chat budget refills
            for _ in range(8):  # a burst of 5, then slow
                bob.send({"type": "chat", "text": "again"})
            codes = [bob.until(lambda f: f["type"] in ("chat", "error")) for _ in range(8)]
            assert [f["type"] for f in codes].count("error") >= 2
            assert {f["code"] for f in codes if f["type"] == "error"} == {"rate_limited"}


def test_chat_is_stored_replayed_for_players_only_and_leaks_no_card(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "random"], rules={"rounds": 1})
        tokens = [join(client, table, n)["token"] for n in ("Ann", "Bob")]
        with _two_players_and_zed(client, table, tokens) as (ann, bob, zed):
            ann.send({"type": "chat", "text": "hello Bob"})
            zed.send({"type": "chat", "channel": "spectators", "text": "hi all"})
            ann.until(lambda f: f["type"] == "chat" and f["text"] == "hello Bob")
            bob.send({"type": "chat", "text": "well played"})
            ann.until(lambda f: f["type"] == "chat" and f["text"] == "well played")
            drive([ann, bob, zed], random.Random(6))
            # A finished game's chat takes no more lines (they would reach its replay).
            bob.send({"type": "chat", "text": "too late"})
            assert bob.until(lambda f: f["type"] == "error")["code"] == "game_over"
            frames = {0: ann.frames, 1: bob.frames, None: zed.frames}
            games = {0: _game_frames(ann), 1: _game_frames(bob), None: _game_frames(zed)}
        hub = client.app.state.hub  # type: ignore[attr-defined]
        stored = hub.storage.load_chat(table)
        assert [(c.channel, c.text) for c in stored] == [
            ("players", "hello Bob"),
            ("spectators", "hi all"),
            ("players", "well played"),
        ]
        record = client.get(f"/api/games/{table}/record", headers=people(table)).json()
        public = client.get(f"/api/games/{table}/replay", headers=people(table)).json()
        player = client.get(
            f"/api/games/{table}/replay", params={"seat": 0}, headers={"x-rummoli-token": tokens[0]}
        ).json()
    assert public["chat"] is None
    assert [c["text"] for c in player["chat"]] == ["hello Bob", "hi all", "well played"]
    assert "chat" not in record  # the engine's record is the game only
    # The frame-leak check, chat included: every game frame is the engine's view of the
    # game as shown, no chat frame carries a card, and the spectator read no player's line.
    shown, events = shown_reference(record)
    for seat, got in games.items():
        assert check_rummoli_frames(expanded(got), seat, shown, events) > 0
        chat = [f for f in frames[seat] if f["type"] == "chat"]
        assert chat and not cards_in(chat)
    assert {f["channel"] for f in frames[None] if f["type"] == "chat"} == {"spectators"}
