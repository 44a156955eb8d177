"""Basic Rummy at the web table, in-process: tables, play over the WebSocket, refusals,
restarts, history, replays and statistics.

Every frame a client received is checked against the engine, rebuilt from the record:
exactly the engine's view of that client's seat, and no card that seat may not see
(another hand before it is shown, or the stock)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from webtools import Conn, connect, create_table, join, mine, people, room, server

from conftest import cards_in
from e2e.rummy_truth import (
    check_rummy_frames,
    hidden_cards,
    public_cards,
    rummy_reference,
)
from rummoli.bots import levels_for
from rummoli.games import registry
from rummoli.games.rummy import Rules, RummyState
from rummoli.games.rummy.view import events_for
from rummoli.web.rummy import HandCounts
from rummoli.web.storage import Storage, StoredGame, StoredSeat, utcnow

Frame = dict[str, Any]


def greedy(view: Frame, rng: random.Random) -> int:
    """A person who melds and lays off whenever he can, else discards at random."""
    legal = view["legal_actions"]
    words = {a["text"].split()[0]: a["action"] for a in legal}
    if "stock" in words:
        return words["stock"] if rng.random() < 0.8 or "discard" not in words else 2
    plays = [a["action"] for a in legal if a["text"].split()[0] in ("meld", "layoff")]
    if plays:
        return plays[0]
    return rng.choice([a["action"] for a in legal])


def drive_rummy(conns: list[Conn], rng: random.Random, *, seconds: float = 150.0) -> None:
    """Play every seated connection until each has seen the end of the match, at a
    person's pace (:meth:`Conn.act`: a Rummy turn is many actions)."""
    deadline = time.monotonic() + seconds
    acted: dict[int, int] = {}
    while not all(c.view and c.view["phase"] == "over" for c in conns):
        assert time.monotonic() < deadline, "the match did not end in time"
        for conn in conns:
            frame = conn.poll()
            assert frame is None or frame["type"] != "error", frame
            if conn.my_turn() and acted.get(id(conn)) != conn.step:
                assert conn.view is not None
                acted[id(conn)] = conn.step
                conn.act(greedy(conn.view, rng))


# ---------------------------------------------------------------------- the lobby


def test_options_offer_rummy_with_its_rules_levels_and_seats(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        options = client.get("/api/options").json()
    rummy = options["games"]["rummy"]
    assert rummy["title"] == "Basic Rummy"
    assert rummy["seats"] == {"min": 2, "max": 4}
    assert rummy["levels"] == list(levels_for("rummy"))
    assert rummy["standin"] in rummy["levels"]
    rules = {r["name"]: r for r in rummy["rules"]}
    assert set(rules) == set(Rules().to_dict()) - {"rules_version"}  # no house rule
    assert rules["target"]["default"] is None and rules["target"]["suggested"] == [100, 150, 200]
    assert rules["target"]["kind"] == "optional_int"
    assert rules["target"]["by_players"] == {"2": 100, "3": 150, "4": 200}
    assert rules["one_meld_per_turn"] == {
        "name": "one_meld_per_turn",
        "default": False,
        "kind": "bool",
        "help": rules["one_meld_per_turn"]["help"],
        "title": "One meld per turn",
    }
    assert all(r["help"] for r in rummy["rules"])
    # Rummoli's part is unchanged at the top level, and listed among the games.
    assert options["games"]["rummoli"]["rules"] == options["rules"]


def test_create_and_join_a_rummy_table(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(
            client,
            ["human", "human", "random"],
            game="rummy",
            rules={"target": 50, "one_meld_per_turn": True},
            public=True,
        )
        info = client.get(f"/api/tables/{table}").json()
        assert info["game"] == "rummy" and info["status"] == "waiting"
        assert info["changed"] == {"target": 50, "one_meld_per_turn": True}
        assert info["standin"] in levels_for("rummy")
        listed = client.get("/api/tables").json()["tables"]
        assert [(t["id"], t["game"]) for t in listed] == [(table, "rummy")]
        join(client, table, "Ann")
        with connect(client, table) as spectator:
            join(client, table, "Bob")
            frame = spectator.until(lambda f: f["type"] == "state" and f["view"] is not None)
        view = frame["view"]
        assert view["game"] == "rummy" and view["target"] == 50
        assert [p["name"] for p in view["players"]] == ["Ann", "Bob", "Bot 3"]
        assert "hand" not in view
        state = room(client, table).state
        assert isinstance(state, RummyState) and state.rules.one_meld_per_turn


# ---------------------------------------------------------------------- play


def test_whole_rummy_match_over_the_socket_without_leaks(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(
            client, ["human", "human", "random"], game="rummy", rules={"target": 5}
        )
        with connect(client, table) as spectator:
            tokens = [join(client, table, name)["token"] for name in ("Ann", "Bob")]
            with connect(client, table, tokens[0]) as a, connect(client, table, tokens[1]) as b:
                assert (a.seat, b.seat) == (0, 1)
                drive_rummy([a, b, spectator], random.Random(11))
                conns: list[tuple[Conn, int | None]] = [(a, 0), (b, 1), (spectator, None)]
        response = client.get(f"/api/games/{table}/record", headers=people(table))
        assert response.status_code == 200
        assert f'filename="rummy-{table}.json"' in response.headers["content-disposition"]
        record = response.json()
        history = client.get("/api/history", headers=mine()).json()["games"]
        replay = client.get(
            f"/api/games/{table}/replay", params={"seat": 0}, headers=people(table)
        ).json()
        watched = client.get(f"/api/games/{table}/replay", headers=people(table)).json()

    assert record["game"] == "rummy"
    states, events = rummy_reference(record)
    final = states[-1]
    assert final.is_terminal() and max(final.scores) >= 5
    assert registry.replay(record).scores == final.scores
    # The check can fail: after the deal, seat 0's hand is hidden from seat 1.
    public = public_cards(events, final.names)
    dealt = next(k for k, s in enumerate(states) if s.hand_no == 1 and s.hands[0])
    assert cards_in(states[dealt].view(0)) & hidden_cards(states[dealt], 1, public[dealt])
    for conn, seat in conns:
        assert check_rummy_frames(conn.frames, seat, states, events) > len(states) // 2

    game = next(g for g in history if g["id"] == table)
    assert game["game"] == "rummy"
    assert [p["chips"] for p in game["players"]] == final.scores
    assert [p["won"] for p in game["players"]] == [s == final.match_winner for s in range(3)]
    for frames, seat in ((replay["frames"], 0), (watched["frames"], None)):
        assert len(frames) == len(states)
        for step in (0, len(states) // 2, len(states) - 1):
            assert frames[step]["view"] == states[step].view(seat)
            assert frames[step]["events"] == events_for(events[step], seat, states[0].names)


def _my_turn_to_draw(conn: Conn) -> Frame:
    return conn.wait_view(lambda v: v["to_move"] == conn.seat and v["phase"] == "draw")


def test_illegal_and_malformed_rummy_messages_are_refused_and_change_nothing(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "t.db") as client:
        table = create_table(client, ["human", "random"], game="rummy")
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as conn:
            view = _my_turn_to_draw(conn)
            truth = room(client, table).state
            assert truth is not None
            before = (conn.step, list(truth.actions))
            card = view["hand"][0]
            discard = truth.action_from_text(f"discard {card}")  # not before the draw
            hidden = sorted(hidden_cards(truth, 0, set(view["discard"])))[0]
            cases = [
                ({"type": "action", "action": discard, "step": conn.step}, "illegal"),
                ({"type": "action", "action": 99_999, "step": conn.step}, "illegal"),
                ({"type": "action", "action": -1}, "bad_message"),
                ({"type": "action", "action": "stock"}, "bad_message"),
                ({"type": "action", "action": 1, "step": conn.step + 5}, "stale"),
                ('{"type": "action", "action": ', "bad_json"),
                ({"type": "meld", "cards": ["7C", "7D", "7H"]}, "unknown_type"),
            ]
            for message, code in cases:
                conn.send(message)
                error = conn.until(lambda f: f["type"] in ("error", "update"))
                assert error["type"] == "error" and error["code"] == code, (message, error)
                assert hidden not in error.get("message", "")
            assert (conn.step, list(truth.actions)) == before
            assert [f for f in conn.sync() if f["type"] == "update"] == []
            # Drawing is still his to do, and works.
            conn.send({"type": "action", "action": 1, "step": conn.step})
            update = conn.until(lambda f: f["type"] == "update")
            assert update["view"]["phase"] == "play" and len(update["view"]["hand"]) == 11
            assert [e["type"] for e in update["events"]][:2] == ["draw_stock", "drew"]


def test_restart_resumes_an_unfinished_rummy_table_exactly(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    rng = random.Random(4)
    with server(path) as client:
        table = create_table(client, ["human", "random", "random"], game="rummy")
        token = join(client, table, "Ann")["token"]
        with connect(client, table, token) as conn:
            for _ in range(4):
                view = _my_turn_to_draw(conn)
                while conn.view is not None and conn.view["to_move"] == 0:
                    conn.act(greedy(conn.view, rng))
                    conn.until(lambda f: f["type"] in ("update", "error"))
            view = _my_turn_to_draw(conn)
            before = (conn.step, view)
            truth = room(client, table).state
            assert truth is not None and not truth.is_terminal()
            actions = list(truth.actions)
    with server(path) as client:
        resumed = room(client, table).state
        assert isinstance(resumed, RummyState) and resumed.actions == actions
        with connect(client, table, token) as again:
            assert (again.step, again.view) == before
            assert again.view is not None and again.view["legal_actions"]


# ---------------------------------------------------------------------- statistics


def _match_with_a_stalemate() -> tuple[RummyState, int]:
    """A finished match (half default moves, half random ones) in which at least one
    hand was a stalemate; the first such seed is found in a few tries."""
    for seed in range(50):
        rng = random.Random(seed)
        state = RummyState.new_game(["Ann", "Bob", "Cy"], Rules(target=30), seed)
        stalemates = 0
        while not state.is_terminal() and state.hand_no <= 20:
            legal = state.legal_actions()
            events = state.apply(legal[0] if rng.random() < 0.5 else rng.choice(legal))
            stalemates += sum(e[0] == "stalemate" for e in events)
        if stalemates and state.is_terminal():
            return state, stalemates
    raise AssertionError("no finished match with a stalemate among 50 seeds")


def test_stats_count_a_rummy_stalemate_as_a_loss_for_everyone(tmp_path: Path) -> None:
    state, stalemates = _match_with_a_stalemate()
    record = state.record()
    path = tmp_path / "t.db"
    storage = Storage(f"sqlite:///{path}")
    seats = [StoredSeat(s, name) for s, name in enumerate(state.names)]
    storage.create_game(
        StoredGame(
            "g1", "waiting", record["rules"], record["seed"], seats, game="rummy", public=True
        )
    )
    for s, name in enumerate(state.names):
        storage.take_seat("g1", s, name, "x" * 64)
    storage.start_game("g1", record["setup"], utcnow())
    for index, action in enumerate(record["actions"]):
        storage.append_action("g1", index, action)
    storage.finish_game("g1", state.scores, utcnow())
    storage.close()

    events = [e for evs in rummy_reference(record)[1] for e in evs]
    hands = sum(e[0] == "hand_over" for e in events)
    with server(path) as client:
        assert client.get("/api/games/g1/record").json()["actions"] == record["actions"]
        for seat, name in enumerate(state.names):
            stats = client.get("/api/players/stats", params={"name": name}).json()
            assert stats["games"] == 0  # no Rummoli
            rummy = stats["by_game"]["rummy"]
            won = sum(e[0] == "hand_won" and e[1] == seat for e in events)
            assert rummy["games"] == 1
            assert rummy["wins"] == int(seat == state.match_winner)
            assert rummy["points"] == state.scores[seat]
            assert (rummy["hands"], rummy["hands_won"]) == (hands, won)
            assert rummy["stalemates"] == stalemates
            # Every hand nobody won counts against every player: won + lost = all hands.
            assert rummy["hands_lost"] == hands - won >= stalemates
        history = client.get("/api/history").json()["games"]
    assert history[0]["game"] == "rummy"
    assert HandCounts(hands=3, won=1, stalemates=1).lost == 2
