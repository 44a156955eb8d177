"""Private tables, invitations, the host's powers and the rematch (issue 12)."""

from __future__ import annotations

import random
from pathlib import Path

from webtools import HOSTS, INVITES, connect, create_table, drive, join, refused, server


def _host(client, table: str, what: str, **args: object):  # type: ignore[no-untyped-def]
    return client.post(f"/api/tables/{table}/host", json={"host": HOSTS[table], "do": what, **args})


def test_a_new_table_is_private_and_its_secrets_stay_secret(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "random"])
        invite, host = INVITES[table], HOSTS[table]
        assert len(invite) >= 32 and len(host) >= 32 and invite != host
        assert client.get("/api/tables").json()["tables"] == []  # not listed
        assert client.get(f"/api/tables/{table}").status_code == 403
        stranger = client.post(f"/api/tables/{table}/join", json={"name": "Eve"})
        assert stranger.status_code == 403 and "invitation" in stranger.json()["detail"]
        wrong = client.post(f"/api/tables/{table}/join", json={"name": "Eve", "invite": host})
        assert wrong.status_code == 403
        assert refused(client, table, {"type": "hello"})[0] == "private"
        ann = join(client, table, "Ann")  # through the invitation
        texts = [client.get(f"/api/tables/{table}", headers={"x-rummoli-key": invite}).text]
        with connect(client, table) as watcher, connect(client, table, ann["token"]) as seat:
            join(client, table, "Bob")
            watcher.until(lambda f: f["type"] == "state" and f["view"] is not None)
            seat.sync()
            texts += [str(f) for f in watcher.frames + seat.frames]
        assert all(invite not in t and host not in t for t in texts)


def test_the_host_opens_the_table_or_makes_a_spectator_link(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"])
        watch = _host(client, table, "watch_link").json()["secret"]
        with connect(client, table, key=watch) as watcher:
            assert watcher.seat is None
        refused = client.post(f"/api/tables/{table}/join", json={"name": "W", "invite": watch})
        assert refused.status_code == 403  # the spectator link seats nobody
        assert _host(client, table, "public", value=True).json() == {"ok": True}
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table]
        assert client.post(f"/api/tables/{table}/join", json={"name": "Zed"}).status_code == 200
        with connect(client, table, key=None) as anyone:
            assert anyone.frames[0]["table"]["public"] is True
        not_host = client.post(
            f"/api/tables/{table}/host", json={"host": INVITES[table], "do": "public", "value": 0}
        )
        assert not_host.status_code == 403


def test_the_host_takes_back_a_seat_before_the_start_and_starts_with_bots(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "human"])
        ann = join(client, table, "Ann")
        bob = join(client, table, "Bob")
        with connect(client, table, bob["token"]) as bob_conn:
            assert _host(client, table, "release", seat=bob["seat"]).json() == {"ok": True}
            assert bob_conn.until(lambda f: f["type"] == "error")["code"] == "released"
        with connect(client, table, bob["token"], hello=False) as again:
            again.send({"type": "hello", "token": bob["token"]})
            assert again.recv()["code"] == "bad_token"
        seats = client.get(f"/api/tables/{table}", headers={"x-rummoli-key": INVITES[table]})
        assert seats.json()["seats"][bob["seat"]]["name"] is None
        assert _host(client, table, "release", seat=2).status_code == 409  # nobody there
        assert _host(client, table, "start", level="random").json() == {"ok": True}
        info = client.get(f"/api/tables/{table}", headers={"x-rummoli-key": INVITES[table]}).json()
        assert info["status"] == "playing"
        assert [s["bot"] for s in info["seats"]] == [None, "random", "random"]
        assert _host(client, table, "release", seat=ann["seat"]).status_code == 409  # started
        with connect(client, table, ann["token"]) as conn:
            # (The table waits for its person before it deals: Ann is here now.)
            conn.wait_view(lambda view: view["round"] == 1)
            assert _host(client, table, "end").json() == {"ok": True}
            conn.until(lambda f: f["type"] in ("table", "update") and f["table"]["last_round"])
            drive([conn], random.Random(1))
            assert conn.view is not None and conn.view["round"] == 1


def test_a_rematch_seats_the_same_players_once_each_accepts(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human", "random"], rules={"rounds": 1})
        ann, bob = join(client, table, "Ann"), join(client, table, "Bob")
        with connect(client, table, ann["token"]) as a, connect(client, table, bob["token"]) as b:
            drive([a, b], random.Random(2))
            a.send({"type": "rematch"})
            offer = a.until(lambda f: f["type"] == "rematch")
            new = offer["table"]
            seen = b.until(lambda f: f["type"] == "table" and f["table"]["rematch"])
            assert seen["table"]["rematch"] == {"id": new, "accepted": [a.seat]}
        key = {"x-rummoli-key": INVITES[table]}
        info = client.get(f"/api/tables/{new}", headers={"x-rummoli-key": HOSTS[table]}).json()
        assert info["status"] == "waiting" and info["rematch_of"] == table
        assert info["rules"] == client.get(f"/api/tables/{table}", headers=key).json()["rules"]
        assert [s["bot"] for s in info["seats"]] == [None, None, "random"]
        with connect(client, table, bob["token"]) as b:
            b.send({"type": "rematch"})
            assert b.until(lambda f: f["type"] == "rematch")["table"] == new
        with connect(client, new, ann["token"]) as a2:  # the same token, at the new table
            assert a2.seat == ann["seat"] and a2.frames[0]["table"]["status"] == "playing"
