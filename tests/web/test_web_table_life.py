"""A table's life as its people live it (issue 20): a table nobody is at stops, and ends
as abandoned if they never come back (kept in the history, marked, counted in nobody's
statistics); a player back from away is told what the computer did for him; a late
rematch is refused in words; the history says the rounds a game really played."""

from __future__ import annotations

import random
import time
from pathlib import Path

from webtools import HOSTS, connect, create_table, drive, join, room, server

from rummoli.web.limits import Limits
from rummoli.web.room import Timing

QUICK = Timing(bot_delay=0.0, round_pause=0.0, watch=False)


def _steps_for(the_room: object, seconds: float) -> list[int]:
    """The table's step, read every few milliseconds for ``seconds``."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen.append(the_room.step)  # type: ignore[attr-defined]
        time.sleep(0.01)
    return seen


def test_a_table_whose_people_left_stops_and_plays_on_when_one_is_back(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", QUICK) as client:
        table = create_table(client, ["human", "random", "random"], rules={"rounds": 3})
        ann = join(client, table, "Ann")
        the_room = room(client, table)
        # Seated through the lobby, not at the table yet: nothing is dealt.
        assert set(_steps_for(the_room, 0.3)) == {0}
        with connect(client, table, ann["token"]) as a:
            a.wait_view(lambda view: view["round"] >= 1)
            assert a.frames[-1]["table"]["paused"] is None
        # Ann has left: whatever the computers would do, the table stands still.
        stood = set(_steps_for(the_room, 0.4)[5:])
        assert len(stood) == 1, stood
        with connect(client, table) as spectator:
            assert spectator.frames[0]["table"]["paused"]["abandon_in"] > 3600
            # A spectator is not one of its people: the table still waits.
            assert len(set(_steps_for(the_room, 0.3))) == 1
        with connect(client, table, ann["token"]) as a:
            assert a.frames[0]["table"]["paused"] is None
            drive([a], random.Random(4))  # the game goes on to its end
        assert the_room.status == "finished"


def test_a_table_nobody_comes_back_to_ends_abandoned_and_counts_for_nobody(
    tmp_path: Path,
) -> None:
    limits = Limits(abandon_after=0.5, sweep_every=60)
    with server(tmp_path / "t.db", QUICK, limits=limits) as client:
        # A finished game of Bea's, to compare with.
        done = create_table(client, ["human", "random"], rules={"rounds": 1}, public=True)
        bea = join(client, done, "Bea")
        with connect(client, done, bea["token"]) as b:
            drive([b], random.Random(1))
        table = create_table(client, ["human", "basic"], rules={"rounds": 5}, public=True)
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            a.wait_view(lambda view: view["round"] >= 1)
        the_room = room(client, table)
        deadline = time.monotonic() + 10
        while the_room.status != "abandoned":
            assert time.monotonic() < deadline, the_room.status
            time.sleep(0.05)
        history = client.get("/api/history").json()["games"]
        game = next(g for g in history if g["id"] == table)
        assert game["abandoned"] is True and game["rounds_played"] == 1
        assert next(g for g in history if g["id"] == done)["abandoned"] is False
        # Counted in nobody's statistics: Ann's only game was abandoned.
        names = [p["name"] for p in client.get("/api/players").json()["players"]]
        assert "Ann" not in names and "Bea" in names
        assert client.get("/api/players/stats", params={"name": "Ann"}).json()["games"] == 0
        basic = client.get("/api/bots/stats", params={"game": "rummoli", "level": "basic"})
        assert basic.json()["games"] == 0
        # It is over: its record and replay are there, and nothing more can be played.
        record = client.get(f"/api/games/{table}/record")
        assert record.status_code == 200 and record.json()["actions"]
        assert client.get(f"/api/games/{table}/replay").status_code == 200
        with connect(client, table, ann["token"]) as a:
            a.send({"type": "action", "action": 0, "step": a.step})
            assert a.until(lambda f: f["type"] == "error")["code"] == "game_over"


def test_the_history_says_the_rounds_a_game_played(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", QUICK) as client:
        table = create_table(client, ["human", "random"], rules={"rounds": 5}, public=True)
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            a.wait_view(lambda view: view["round"] >= 1)
            host = client.post(
                f"/api/tables/{table}/host", json={"host": HOSTS[table], "do": "end"}
            )
            assert host.json() == {"ok": True}
            drive([a], random.Random(2))
        game = next(g for g in client.get("/api/history").json()["games"] if g["id"] == table)
        assert game["rounds"] == 5 and game["rounds_played"] == 1


def test_a_player_back_from_away_is_told_what_the_computer_did_for_him(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", QUICK) as client:
        table = create_table(
            client, ["human", "random", "random"], rules={"rounds": 1}, turn_timer=0.2
        )
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            # Ann does not answer: away, and the computer plays for her.
            a.until(lambda f: f["type"] == "table" and f["table"]["seats"][0]["away"], 20)
            a.until(lambda f: f["type"] == "update" and _by(f, "Ann"), 20)
            a.send({"type": "back"})
            told = a.until(lambda f: f["type"] == "while_away", 10)
        assert told["level"] == "basic"
        assert told["events"] and all(e["player"] == "Ann" for e in told["events"])
        assert all(e["type"] not in ("hand", "dealer") for e in told["events"])


def _by(frame: dict[str, object], name: str) -> bool:
    return any(e.get("player") == name for e in frame["events"])  # type: ignore[attr-defined]


def test_a_late_rematch_is_refused_in_words(tmp_path: Path) -> None:
    with server(tmp_path / "t.db", QUICK) as client:
        table = create_table(client, ["human", "human", "random"], rules={"rounds": 1})
        ann, bob = join(client, table, "Ann"), join(client, table, "Bob")
        with connect(client, table, ann["token"]) as a, connect(client, table, bob["token"]) as b:
            drive([a, b], random.Random(3))
            a.send({"type": "rematch"})
            new = a.until(lambda f: f["type"] == "rematch")["table"]
        # The host starts the rematch without Bob: a computer takes his seat.
        started = client.post(f"/api/tables/{new}/host", json={"host": HOSTS[table], "do": "start"})
        assert started.json() == {"ok": True}
        with connect(client, table, bob["token"]) as b:
            b.send({"type": "rematch"})
            refused = b.until(lambda f: f["type"] in ("error", "rematch"))
        assert refused["type"] == "error" and refused["code"] == "rematch_started"
        assert refused["text"] == "the rematch has already started without you"


def test_a_game_whose_end_was_stored_but_not_said_is_over_after_a_restart(
    tmp_path: Path,
) -> None:
    # The server stored the last action, then died before it marked the game over (a kill
    # between the two): on the next start the game is over, with its final chips, and
    # counts in the history and the statistics as any finished game.
    from sqlalchemy import update

    from rummoli.web.storage import GameRow, SeatRow

    db = tmp_path / "t.db"
    with server(db, QUICK) as client:
        table = create_table(client, ["human", "random"], rules={"rounds": 1}, public=True)
        ann = join(client, table, "Ann")
        with connect(client, table, ann["token"]) as a:
            drive([a], random.Random(5))
            final = a.view
        storage = client.app.state.hub.storage  # type: ignore[attr-defined]
        with storage.engine.begin() as connection:
            connection.execute(update(GameRow).where(GameRow.id == table).values(status="playing"))
            connection.execute(
                update(SeatRow).where(SeatRow.game_id == table).values(final_chips=None)
            )
    with server(db, QUICK) as client:
        game = next(g for g in client.get("/api/history").json()["games"] if g["id"] == table)
        assert final is not None
        assert [p["chips"] for p in game["players"]] == [p["chips"] for p in final["players"]]
        assert client.get("/api/players/stats", params={"name": "Ann"}).json()["games"] == 1
