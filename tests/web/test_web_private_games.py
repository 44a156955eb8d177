"""A private game stays private for its whole life (issue 22): once finished, nothing of
it answers a stranger, on any endpoint; its people still have all of it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from webtools import HOSTS, ConnectionClosed, connect, create_table, drive, join, room, server

NAME = "Quintessa"
CHAT = "zebra-plan-42"


def _finished_private_game(client: TestClient) -> dict[str, Any]:
    """A short private game of Quintessa and a computer, with a chat line and a spectator
    link; the truths a stranger must not learn."""
    table = create_table(client, ["human", "basic"], rules={"rounds": 1}, turn_timer=0)
    watch = client.post(
        f"/api/tables/{table}/host", json={"host": HOSTS[table], "do": "watch_link"}
    ).json()["secret"]
    token = join(client, table, NAME)["token"]
    seed = room(client, table).seed
    with connect(client, table, token) as conn:
        conn.send({"type": "chat", "channel": "players", "text": CHAT})
        conn.until(lambda f: f["type"] == "chat")
        drive([conn], random.Random(4))
    return {"id": table, "token": token, "watch": watch, "seed": seed}


def _requests(app: Any, table: str) -> list[tuple[str, str, dict[str, Any]]]:
    """One request for every HTTP endpoint of the app, about this table where it takes
    an id (the method, the path, and the query or body)."""
    requests = []
    for route in app.routes:
        if not isinstance(route, APIRoute):
            continue
        path = route.path
        values = {"table_id": table, "game_id": table, "lang": "fr", "game": "rummoli"}
        for name, value in values.items():
            path = path.replace("{" + name + "}", value)
        assert "{" not in path, f"a path parameter this test does not fill: {route.path}"
        for method in route.methods:
            extra: dict[str, Any] = {}
            if path == "/api/players/stats":
                extra = {"params": {"name": NAME}}
            elif path == "/api/bots/stats":
                extra = {"params": {"game": "rummoli", "level": "basic"}}
            elif path.startswith("/api/games/") and path.endswith("/replay"):
                for seat in (None, 0, 1):
                    params = {} if seat is None else {"seat": seat}
                    requests.append((method, path, {"params": params}))
                continue
            elif method == "POST" and path.endswith("/join"):
                extra = {"json": {"name": "Eve", "seat": 0}}
            elif method == "POST" and path.endswith("/host"):
                extra = {"json": {"host": "x" * 32, "do": "public", "value": True}}
            elif method == "POST":
                extra = {"json": {"seats": ["human", "basic"]}}
            requests.append((method, path, extra))
    return requests


def _leaks(text: str, game: dict[str, Any], asked_for_name: bool) -> list[str]:
    """What of the game ``text`` holds: its id, its seed, its chat, its person's name
    (but for a request that named her: its own echo)."""
    if asked_for_name:
        text = text.replace(json.dumps(NAME), "")
    found = [what for what in (game["id"], CHAT, NAME) if what in text]
    if re.search(rf"\b{game['seed']}\b", text):
        found.append("seed")
    return found


def test_a_finished_private_game_answers_no_stranger_anywhere(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        game = _finished_private_game(client)
        table = game["id"]
        # A stranger with secrets of his own (a public game he played) lists his own.
        other = create_table(client, ["human", "random"], rules={"rounds": 1}, public=True)
        eve = join(client, other, "Eve")
        with connect(client, other, eve["token"]) as conn:
            drive([conn], random.Random(5))
        strangers = [
            {},
            {"x-rummoli-games": f"{other}:{eve['token']} {table}:{eve['token']}"},
            {"x-rummoli-token": eve["token"], "x-rummoli-key": "y" * 32},
            {"x-rummoli-games": f"{table}:{'z' * 22}", "x-rummoli-key": HOSTS[other]},
        ]
        asked = 0
        for method, path, extra in _requests(client.app, table):
            for headers in strangers:
                answer = client.request(method, path, headers=headers, **extra)
                asked += 1
                named = "name" in extra.get("params", {})
                assert _leaks(answer.text, game, named) == [], (method, path, headers)
                if path.startswith(f"/api/games/{table}") or path == f"/api/tables/{table}":
                    assert answer.status_code == 403, (method, path, answer.text)
        assert asked > 60
        stats = client.get("/api/players/stats", params={"name": NAME}).json()
        assert stats["games"] == 0 and all(g["games"] == 0 for g in stats["by_game"].values())
        # The WebSocket: no key, a wrong key, a wrong token, another table's token.
        for hello in (
            {"type": "hello"},
            {"type": "hello", "key": "k" * 32},
            {"type": "hello", "key": HOSTS[other]},
            {"type": "hello", "token": eve["token"]},
            {"type": "hello", "token": "t" * 22, "name": "Eve"},
        ):
            with connect(client, table, hello=False) as peeker:
                peeker.send(hello)
                refusal = peeker.recv()
                assert refusal["type"] == "error", hello
                assert refusal["code"] in ("private", "bad_token")
                with pytest.raises(ConnectionClosed):
                    peeker.recv()
                assert _leaks(json.dumps(peeker.frames), game, False) == []


def test_its_people_still_have_all_of_it(tmp_path: Path) -> None:
    """Its player (his seat token): listed, counted, the record, every replay and the
    chat. Its host (his secret): the record and the replays, not the chat. A spectator
    link: the spectators' replay only."""
    with server(tmp_path / "t.db") as client:
        game = _finished_private_game(client)
        table, token = game["id"], game["token"]
        mine = {"x-rummoli-games": f"{table}:{token}"}
        listed = [g["id"] for g in client.get("/api/history", headers=mine).json()["games"]]
        assert listed == [table]
        hosted = {"x-rummoli-games": f"{table}:{HOSTS[table]}"}
        assert [g["id"] for g in client.get("/api/history", headers=hosted).json()["games"]] == [
            table
        ]
        names = client.get("/api/players", headers=mine).json()["players"]
        assert names == [{"name": NAME, "games": 1}]
        stats = client.get("/api/players/stats", params={"name": NAME}, headers=mine).json()
        assert stats["games"] == 1 and stats["recent"][0]["id"] == table
        basic = client.get(
            "/api/bots/stats", params={"game": "rummoli", "level": "basic"}, headers=mine
        ).json()
        assert basic["games"] == 1
        player = {"x-rummoli-token": token}
        record = client.get(f"/api/games/{table}/record", headers=player)
        assert record.status_code == 200 and record.json()["seed"] == game["seed"]
        replay = client.get(f"/api/games/{table}/replay", params={"seat": 1}, headers=player)
        assert replay.status_code == 200 and [c["text"] for c in replay.json()["chat"]] == [CHAT]
        host = {"x-rummoli-key": HOSTS[table]}
        assert client.get(f"/api/games/{table}/record", headers=host).status_code == 200
        by_host = client.get(f"/api/games/{table}/replay", params={"seat": 0}, headers=host)
        assert by_host.status_code == 200 and by_host.json()["chat"] is None
        watch = {"x-rummoli-key": game["watch"]}
        assert client.get(f"/api/games/{table}/replay", headers=watch).status_code == 200
        assert (
            client.get(f"/api/games/{table}/replay", params={"seat": 0}, headers=watch).status_code
            == 403
        )
        assert client.get(f"/api/games/{table}/record", headers=watch).status_code == 403
        # Made public by its host, it is everyone's, as any public game.
        client.post(
            f"/api/tables/{table}/host",
            json={"host": HOSTS[table], "do": "public", "value": True},
        )
        assert table in client.get("/api/history").text
        assert client.get(f"/api/games/{table}/record").status_code == 200
