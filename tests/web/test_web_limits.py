"""What a hostile client cannot do to the server (issue 12's findings 1, 2, 4-8, 10):
settings out of range, huge actions, deep JSON, big chunked bodies, floods of connections,
tables and refused moves, a foreign Host, finished games kept in memory, bad rules and
public API docs. Each test fails on the server as it was before (see the issue)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import INVITES, connect, create_table, drive, join, offered, refused, room, server

from rummoli.engine.base import SetupError
from rummoli.engine.description import CHOICE_OR_INT, INT, OPTIONAL_INT
from rummoli.games import registry
from rummoli.web.games import games as web_games
from rummoli.web.limits import Limits
from rummoli.web.ops import WEBSOCKETS
from rummoli.web.protocol import Act, ProtocolError, parse_message
from rummoli.web.security import hash_token
from rummoli.web.storage import PLAYING, Storage, StoredGame, StoredSeat

FRAME_LIMIT = WEBSOCKETS["ws_max_size"]  # what `rummoli serve` takes

# ---------------------------------------------------------------------- 1. bounds


def _numeric_rules() -> Iterator[tuple[str, Any]]:
    """The numeric house rules of the games a web table may hold (a form's fields)."""
    for game in web_games():
        description = registry.describe(game)
        for rule in description.house_rules:
            if rule.kind in (INT, CHOICE_OR_INT, OPTIONAL_INT):
                yield description.name, rule


@pytest.mark.parametrize(("game", "rule"), list(_numeric_rules()), ids=lambda r: str(r))
def test_every_numeric_house_rule_has_a_range_the_rules_enforce(game: str, rule: Any) -> None:
    description = registry.describe(game)
    assert rule.minimum is not None and rule.maximum is not None, rule.name
    assert rule.minimum < rule.maximum
    try:
        description.rules({rule.name: rule.maximum})  # the largest is allowed
    except SetupError as error:
        # ... unless the rule needs another to go with it (Michigan's fine for not
        # leading goes on a kitty, which its default board has not): not its range.
        assert "do not go together" in str(error), error
        with_kitty = {rule.name: rule.maximum, "kitty": True}
        description.rules(with_kitty)
    for bad in (rule.maximum + 1, 10**12, rule.minimum - 1):
        with pytest.raises(SetupError, match=rule.name):
            description.rules({rule.name: bad})


@pytest.mark.parametrize(
    ("game", "rule", "value"),
    [
        ("rummoli", "starting_chips", 10**12),
        ("rummoli", "rounds", 10**15),
        ("rummoli", "cant_lead_fine", 10**12),
        ("rummoli", "bet_limit", 10**12),
        ("rummy", "target", 10**12),
    ],
)
def test_huge_settings_are_refused_naming_the_setting(
    tmp_path: Path, game: str, rule: str, value: int
) -> None:
    with server(tmp_path / "t.db") as client:
        body = {"game": game, "seats": ["human", "random"], "rules": {rule: value}}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400, response.text
        assert rule in response.json()["detail"]
        options = offered(client, game)
        entry = next(r for r in options["rules"] if r["name"] == rule)
        assert entry["maximum"] < value  # the lobby says the range too


def _rich_table(path: Path) -> tuple[str, str]:
    """A stored Rummoli game at the largest allowed amounts: the chips of eight players
    of 1,000 at a table of two, 7,000 of them one person's."""
    storage = Storage(f"sqlite:///{path}")
    token = "rich-token-of-the-test"
    storage.create_game(
        StoredGame(
            id="rich",
            status=PLAYING,
            rules={"starting_chips": 1000, "pay_card_blocks_exchange": False},
            seed=12,
            seats=[StoredSeat(0, "Ann", hash_token(token)), StoredSeat(1, "Bot 2", None, "random")],
            setup={"players": ["Ann", "Bot 2"], "chips": [7000, 1000], "dealer": 0},
            public=True,
        )
    )
    storage.take_seat("rich", 0, "Ann", hash_token(token))
    storage.close()
    return "rich", token


def test_no_frame_exceeds_64_kb_at_the_largest_settings(tmp_path: Path) -> None:
    """Bids and raises are offered as a range: a seat that may raise to any of some 7,000
    amounts gets one small item, not a list of every amount (about 250 KB before)."""
    path = tmp_path / "t.db"
    table, token = _rich_table(path)
    largest = 0
    with server(path) as client, connect(client, table, token) as ann:
        deadline = time.monotonic() + 30
        while largest < 6000 and time.monotonic() < deadline:
            view = ann.wait_view(lambda v: v["to_move"] == 0 or v["phase"] in ("play", "over"))
            if view["phase"] in ("play", "over"):
                break
            for item in view["legal_actions"]:
                if "kind" in item:
                    assert item["step"] >= 1 and item["min"] <= item["max"]
                    largest = max(largest, item["max"])
            first = view["legal_actions"][0]["action"]
            ann.send({"type": "action", "action": first, "step": ann.step})
            ann.until(lambda f: f["type"] in ("update", "error"))
        texts = [json.dumps(f) for f in ann.frames]
    assert largest >= 6000, "the test never offered a large raise"
    assert max(len(t.encode()) for t in texts) < FRAME_LIMIT


# ---------------------------------------------------------------------- 2. 64-bit actions


def test_actions_of_64_bits_are_messages_and_storable(tmp_path: Path) -> None:
    message = parse_message(json.dumps({"type": "action", "action": 2**31 + 5, "step": 2**33}))
    assert message == Act(2**31 + 5, 2**33)
    with pytest.raises(ProtocolError):
        parse_message(json.dumps({"type": "action", "action": 2**63}))
    storage = Storage(f"sqlite:///{tmp_path / 't.db'}")
    storage.create_game(StoredGame(id="g", status=PLAYING, rules={}, seed=1, seats=[]))
    storage.append_actions([("g", 0, 2**40), ("g", 1, 2**63 - 1)])
    game = storage.load_game("g")
    assert game is not None and game.actions == [2**40, 2**63 - 1]


# ---------------------------------------------------------------------- 4. deep JSON


def test_deeply_nested_json_is_refused_as_a_bad_message(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        with connect(client, table) as watcher:
            watcher.send("[" * 1000)
            assert watcher.recv()["code"] == "bad_message"
            watcher.send('{"type": "action", "action": [[[[[[1]]]]]]}')
            assert watcher.recv()["code"] == "bad_message"
            watcher.sync()  # the connection is still there
        deep = client.post(
            "/api/tables", content=b"[" * 1000, headers={"content-type": "application/json"}
        )
        assert deep.status_code == 400


# ---------------------------------------------------------------------- 5. body limit


def test_the_body_limit_counts_the_bytes_read_not_the_header(tmp_path: Path) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"seats": ["human", "random"], "pad": "'
        for _ in range(64):
            yield b"x" * 16384
        yield b'"}'

    with server(tmp_path / "t.db") as client:
        response = client.post(
            "/api/tables", content=chunks(), headers={"content-type": "application/json"}
        )
        assert response.status_code == 413
        small = client.post(
            "/api/tables",
            content=iter([b'{"seats": ["human", ', b'"random"]}']),
            headers={"content-type": "application/json"},
        )
        assert small.status_code == 201


# ---------------------------------------------------------------------- 6. per address


def test_connections_per_address_are_limited(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", limits=Limits(connections_per_address=3)) as client:
        table = create_table(client, ["human", "random"])
        with (
            connect(client, table),
            connect(client, table),
            connect(client, table),
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/{table}"),
        ):
            pass
        with connect(client, table) as again:  # closed ones no longer count
            assert again.seat is None


def test_new_tables_per_address_and_minute_are_limited(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", limits=Limits(tables_per_minute=3)) as client:
        for _ in range(3):
            create_table(client, ["human", "random"])
        refused = client.post("/api/tables", json={"seats": ["human", "random"]})
        assert refused.status_code == 429 and "a minute" in refused.json()["detail"]


def test_refused_moves_are_refused_before_the_room_and_cost_their_sender(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = Limits(refused_burst=5, refused_per_second=10.0)
    with server(tmp_path / "t.db", limits=limits) as client:
        table = create_table(client, ["human", "random"])
        token = join(client, table, "Ann")["token"]
        the_room = room(client, table)
        queued: list[object] = []
        submit = the_room.submit
        monkeypatch.setattr(the_room, "submit", lambda c: (queued.append(c), submit(c)))
        with connect(client, table, token) as ann, connect(client, table) as spammer:
            ann.wait_view(lambda v: v["to_move"] in (0, 1))
            before = len(queued)
            start = time.monotonic()
            for _ in range(15):
                spammer.send({"type": "action", "action": 3})
            codes = [spammer.until(lambda f: f["type"] == "error")["code"] for _ in range(15)]
            spent = time.monotonic() - start
            assert set(codes) == {"spectator"}
            assert len(queued) == before  # the room never saw them
            # Past the burst of 5, each refusal waited a tenth of a second: the
            # spammer's own connection was slowed (about 1 s), nobody else's.
            assert spent >= 0.8
            ann.sync()


def test_waiting_tables_expire(tmp_path: Path) -> None:
    limits = Limits(waiting_ttl=0.2, sweep_every=0.1)
    path = tmp_path / "t.db"
    with server(path, limits=limits) as client:
        table = create_table(client, ["human", "human"], public=True)
        join(client, table, "Ann")
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table]
        time.sleep(0.6)
        assert client.get("/api/tables").json()["tables"] == []
        assert client.get(f"/api/tables/{table}").status_code == 404
        late = client.post(
            f"/api/tables/{table}/join", json={"name": "Bob", "invite": INVITES[table]}
        )
        assert late.status_code == 404
    with server(path) as client:  # an expired table is not resumed either
        assert table not in client.app.state.hub.rooms  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- 7. Host


def test_the_host_header_must_name_this_server(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", allowed_hosts=(), allowed_origins=["https://cards.example"]):
        pass
    app_kwargs: dict[str, Any] = {"allowed_hosts": (), "allowed_origins": ["https://cards.example"]}
    with server(tmp_path / "t.db", **app_kwargs) as client:
        for host in ("evil.example", "evil.example:8000", "cards.example.evil", "testserver"):
            response = client.get("/api/options", headers={"host": host})
            assert response.status_code == 400, host
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "cards.example"):
            assert client.get("/api/options", headers={"host": host}).status_code == 200, host
        table = create_table_at(client, "127.0.0.1:8000")
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(
                f"/ws/{table}",
                headers={"host": "evil.example:8000", "origin": "http://evil.example:8000"},
            ),
        ):
            pass


def create_table_at(client: TestClient, host: str) -> str:
    response = client.post(
        "/api/tables", json={"seats": ["human", "random"]}, headers={"host": host}
    )
    assert response.status_code == 201
    table_id: str = response.json()["id"]
    return table_id


# ---------------------------------------------------------------------- 8. idle games


def test_finished_games_are_not_kept_in_memory(tmp_path: Path) -> None:
    import random

    with server(tmp_path / "t.db", limits=Limits(idle_unload=0.1, sweep_every=0.1)) as client:
        table = create_table(client, ["human", "random"], rules={"rounds": 1})
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as ann:
            drive([ann], random.Random(4))
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert table not in hub.rooms
        info = client.get(f"/api/tables/{table}", headers={"x-rummoli-key": INVITES[table]})
        assert info.status_code == 200 and info.json()["status"] == "finished"
        assert table not in hub.rooms  # read over HTTP: not loaded for good
        with connect(client, table):
            assert table in hub.rooms
        time.sleep(0.4)
        assert table not in hub.rooms  # nobody watching: unloaded by the sweep


# ---------------------------------------------------------------------- 10. rules, docs


@pytest.mark.parametrize("rules", [[], "", 0, False, "rounds=2"])
def test_rules_that_are_not_an_object_are_refused(tmp_path: Path, rules: object) -> None:
    with server(tmp_path / "t.db") as client:
        response = client.post("/api/tables", json={"seats": ["human", "random"], "rules": rules})
        assert response.status_code == 400
        assert "rules must be an object" in response.json()["detail"]


def test_api_docs_only_when_asked_for(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        assert client.get("/api/docs").status_code == 404
        assert client.get("/openapi.json").status_code == 404
    with server(tmp_path / "t.db", api_docs=True) as client:
        assert client.get("/api/docs").status_code == 200
        assert client.get("/openapi.json").status_code == 200


def test_a_refused_hello_closes_with_its_reason(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"])
        assert refused(client, table, {"type": "hello"}) == ("private", 4403)


@pytest.mark.parametrize("name", [field.name for field in dataclasses.fields(Limits)])
def test_every_server_limit_refuses_zero_by_name(name: str) -> None:
    # Every limit has a bound: none may be set to nothing (a table that is abandoned
    # the moment its people step out, a lease that is never held, a chat of no lines).
    with pytest.raises(ValueError, match=rf"^limit {name} must be"):
        Limits(**{name: 0})
    assert getattr(Limits(), name) > 0
