"""Links and kicks that bite (issue 22): a revoked link or a table made private closes
the connections that came by it; the host's "remove" bans the seat's name, token and
browser from the table; a mute follows the person, not the connection; the host may
watch over the WebSocket with his secret."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webtools import (
    HOSTS,
    INVITES,
    Conn,
    ConnectionClosed,
    connect,
    create_table,
    join,
    refused,
    room,
    server,
)

from rummoli.web.people import MAX_MUTED

ANN = "AnnBrowser-0123456789"
ZED = "ZedBrowser-0123456789"


def _host(client: TestClient, table: str, what: str, **args: object) -> Any:
    return client.post(f"/api/tables/{table}/host", json={"host": HOSTS[table], "do": what, **args})


def _closed_after(conn: Conn, code: str) -> None:
    """The connection is told ``code``, then closed."""
    assert conn.until(lambda f: f["type"] == "error")["code"] == code
    with pytest.raises(ConnectionClosed):
        conn.until(lambda f: False, timeout=5)


def test_a_revoked_link_closes_the_connections_that_came_by_it(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"])
        ann = join(client, table, "Ann")
        watch = _host(client, table, "watch_link").json()["secret"]
        with (
            connect(client, table, ann["token"]) as seated,
            connect(client, table) as invited,
            connect(client, table, key=watch) as watcher,
        ):
            new_watch = _host(client, table, "watch_link").json()["secret"]
            _closed_after(watcher, "revoked")
            assert [f["type"] for f in invited.sync()] == []  # the invitation still works
            _host(client, table, "invite_link")
            _closed_after(invited, "revoked")
            seated.sync()  # a seat came by its token: it stays
        for old in (watch, INVITES[table]):
            with connect(client, table, hello=False) as again:
                again.send({"type": "hello", "key": old})
                assert again.recv()["code"] == "private"
        with connect(client, table, key=new_watch) as fresh:
            assert fresh.seat is None


def test_a_table_made_private_closes_who_watched_only_because_it_was_listed(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"], public=True)
        watch = _host(client, table, "watch_link").json()["secret"]
        with connect(client, table, key=None) as passer_by, connect(client, table, key=watch) as w:
            _host(client, table, "public", value=False)
            _closed_after(passer_by, "revoked")
            w.sync()  # his link still lets him watch


def test_the_host_watches_over_the_websocket_with_his_secret(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"])
        with connect(client, table, key=HOSTS[table]) as host:
            assert host.seat is None and host.frames[-1]["table"]["id"] == table


def test_remove_bans_the_seats_name_token_and_browser(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with server(path) as client:
        table = create_table(client, ["human", "human", "human"])
        ann = join(client, table, "Ann")
        with (
            connect(client, table, ann["token"], hello=False) as seat,
            connect(client, table, name="Zed", hello=False) as other,
        ):
            seat.send({"type": "hello", "token": ann["token"], "person": ANN})
            seat.until(lambda f: f["type"] == "state")
            # Ann also watches from another tab of the same browser.
            other.send({"type": "hello", "key": INVITES[table], "person": ANN})
            other.until(lambda f: f["type"] == "state")
            assert _host(client, table, "remove", seat=0).json() == {"ok": True}
            _closed_after(seat, "removed")
            _closed_after(other, "removed")
        _check_banned(client, table, ann["token"])
        # "Free seat" is not a kick: a released person sits again; so may anyone else.
        bob = join(client, table, "Bob")
        assert _host(client, table, "release", seat=bob["seat"]).json() == {"ok": True}
        assert join(client, table, "Bob")["name"] == "Bob"
    with server(path) as client:  # a restart keeps the bans
        _check_banned(client, table, ann["token"])


def _check_banned(client: TestClient, table: str, token: str) -> None:
    for name in ("Ann", "ANN", "\u0410nn"):  # her name, and what reads like it
        sat = client.post(
            f"/api/tables/{table}/join", json={"name": name, "invite": INVITES[table]}
        )
        assert sat.status_code == 409, name
    by_browser = client.post(
        f"/api/tables/{table}/join", json={"name": "Nina", "invite": INVITES[table], "person": ANN}
    )
    assert by_browser.status_code == 403
    for hello in (
        {"type": "hello", "token": token},
        {"type": "hello", "key": INVITES[table], "person": ANN},
    ):
        assert refused(client, table, hello) == ("removed", 4410)


def test_a_mute_follows_the_person_and_is_sent_as_changes(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "human"])
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            with connect(client, table, hello=False) as zed:
                zed.send({"type": "hello", "key": INVITES[table], "name": "Zed", "person": ZED})
                zed.until(lambda f: f["type"] == "state")
                who = zed.frames[-1]["me"]
            a.send({"type": "listen", "spectators": True})
            a.send({"type": "mute", "who": who, "on": True})
            change = a.until(lambda f: f["type"] == "muted")
            assert change == {"type": "muted", "who": who, "on": True, "count": 1}
        # Both come back: Zed is the same sender with the same name, and still muted.
        with connect(client, table, ann["token"]) as a, connect(client, table, hello=False) as z:
            assert a.frames[-1]["muted"] == [who]
            z.send({"type": "hello", "key": INVITES[table], "name": "Zed", "person": ZED})
            z.until(lambda f: f["type"] == "state")
            assert z.frames[-1]["me"] == who and not [f for f in z.frames if f["type"] == "error"]
            a.send({"type": "listen", "spectators": True})
            a.until(lambda f: f["type"] == "listening")
            z.send({"type": "chat", "channel": "spectators", "text": "still here"})
            z.until(lambda f: f["type"] == "chat")
            assert not [f for f in a.sync() if f["type"] == "chat"]
            # A mute list is bounded: past it, the person is told to unmute someone. (Her
            # list is filled on the server: a hundred mutes at once would be a flood.)
            person = next(c.person for c in room(client, table).clients if c.seat == 0)
            assert person is not None
            person.muted |= {f"s{1000 + n}" for n in range(MAX_MUTED - 2)}
            a.send({"type": "mute", "who": "s9998", "on": True})
            a.send({"type": "mute", "who": "s9999", "on": True})
            frames = a.sync()
            assert [f["count"] for f in frames if f["type"] == "muted"] == [MAX_MUTED]
            refused = [f for f in frames if f["type"] == "error"]
            assert [f["code"] for f in refused] == ["too_many_muted"]
