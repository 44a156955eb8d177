"""The table waits for its people to see a run: a page says its pace and what it has
shown (``watching``), and computer players do not move until the seated people's pages
have had time to show the cards laid, or say they have shown them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from webtools import Conn, connect, create_table, join, room, server

from rummoli.web.protocol import MAX_PACE_MS, ProtocolError, Watching, parse_message
from rummoli.web.room import MAX_WATCH, Timing

WATCHING = Timing(bot_delay=0.0, round_pause=0.0, watch=True)


def test_a_watching_message_is_read_and_bad_ones_are_refused() -> None:
    assert parse_message('{"type": "watching", "pace": 650, "seen": 12}') == Watching(650, 12)
    assert parse_message('{"type": "watching", "seen": 3}') == Watching(None, 3)
    for bad, word in (
        (f'{{"type": "watching", "pace": {MAX_PACE_MS + 1}}}', "pace"),
        ('{"type": "watching", "pace": -1}', "pace"),
        ('{"type": "watching", "pace": true}', "pace"),
        ('{"type": "watching", "seen": "12"}', "seen"),
        ('{"type": "watching", "seen": 1.5}', "seen"),
    ):
        with pytest.raises(ProtocolError) as refused:
            parse_message(bad)
        assert refused.value.code == "bad_message" and word in str(refused.value)


def _lays(n: int) -> list[tuple[object, ...]]:
    return [("lay", 0, card) for card in range(n)]


def test_the_wait_is_the_seated_peoples_slowest_pace_and_spectators_do_not_hold_it(
    tmp_path: Path,
) -> None:
    with server(tmp_path / "t.db", WATCHING) as client:
        table = create_table(client, ["human", "random", "random"], rules={"rounds": 1})
        with connect(client, table) as spectator:
            spectator.send({"type": "watching", "pace": MAX_PACE_MS})
            spectator.sync()
            ann = join(client, table, "Ann")
            the_room = room(client, table)
            assert the_room.watch_time(_lays(5)) == 0.0  # only a spectator said a pace
            with connect(client, table, ann["token"]) as a:
                a.send({"type": "watching", "pace": 500})
                a.sync()
                assert the_room.watch_time(_lays(5)) == pytest.approx(2.5)
                assert the_room.watch_time([("pass", 1)]) == 0.0  # not a laid card
                assert the_room.watch_time(_lays(100)) == MAX_WATCH
                a.send({"type": "watching", "pace": 0})
                a.sync()
                assert the_room.watch_time(_lays(5)) == 0.0  # "instant" waits for nothing


def test_a_turns_clock_shows_its_whole_time_while_the_table_waits_for_a_run(
    tmp_path: Path,
) -> None:
    # After a run the table waits for its people before a turn's clock starts (the
    # room's turn_started is then ahead): the clock a page is sent shows the whole turn,
    # never more (it showed the wait on top: 38 s of a 30 s turn).
    from rummoli.web.broadcast import table_info

    with server(tmp_path / "t.db", WATCHING) as client:
        table = create_table(client, ["human", "human"], rules={"rounds": 1}, turn_timer=30)
        ann = join(client, table, "Ann")
        join(client, table, "Bea")
        the_room = room(client, table)
        with connect(client, table, ann["token"]) as a:
            # The owner deals by itself, once a person is at the table.
            a.wait_view(lambda view: view["to_move"] not in (None, "chance"))
            the_room.turn_started = time.monotonic() + 8.0  # a run being shown, 8 s to go
            assert table_info(the_room)["turn"]["seconds_left"] == 30.0
            the_room.turn_started = time.monotonic() - 10.0  # the clock started 10 s ago
            assert 19.0 <= table_info(the_room)["turn"]["seconds_left"] <= 20.0


def _until_a_run_before_a_computer(a: Conn) -> dict[str, object]:
    """Play Ann's turns until an update lays at least five cards and leaves a computer
    player to move: the table must now wait for Ann's page."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        frame = a.recv()
        assert frame["type"] != "error", frame
        if frame["type"] == "update":
            lays = sum(1 for e in frame["events"] if e["type"] == "lay")
            view = frame["view"]
            if lays >= 5 and view["to_move"] not in (None, a.seat) and view["phase"] != "over":
                return frame
        if a.my_turn():
            assert a.view is not None
            a.send(
                {"type": "action", "action": a.view["legal_actions"][0]["action"], "step": a.step}
            )
    raise AssertionError("no run of five cards before a computer's turn")


def test_a_computer_waits_for_the_run_to_be_shown_until_the_page_has_shown_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server(tmp_path / "t.db", WATCHING) as client:
        for seed in range(30):
            monkeypatch.setattr("rummoli.web.hub.new_seed", lambda seed=seed: seed)  # fixed deals
            table = create_table(
                client, ["human", "random", "random", "random"], rules={"rounds": 1}
            )
            ann = join(client, table, "Ann")
            with connect(client, table, ann["token"]) as a:
                a.send({"type": "watching", "pace": MAX_PACE_MS, "seen": a.step})
                try:
                    frame = _until_a_run_before_a_computer(a)
                except AssertionError:
                    continue  # this deal never left a computer to move after a long run
                # At 2 s a card the table waits at least 10 s: nothing moves meanwhile...
                assert a.poll(0.5) is None
                # ...until the page says it has shown the run: then the computer plays.
                said = time.monotonic()
                a.send({"type": "watching", "seen": frame["step"]})
                a.until(lambda f: f["type"] == "update")
                assert time.monotonic() - said < 5.0
                return
    raise AssertionError("no deal of 30 left a computer to move after a run of five")


def test_a_page_that_never_says_it_has_seen_holds_its_table_three_runs_a_round_at_most(
    tmp_path: Path,
) -> None:
    """One slow client cannot slow the table (issue 22): a seated page that says it shows
    runs at the slowest pace and never says it has seen them held every run 30 s. Now
    its waits are capped in all, per round, at three runs' worth; an honest page that
    says it has seen a run gets the wait it did not use back, and goes on being waited
    for."""
    from rummoli.web.room import WATCH_BUDGET

    with server(tmp_path / "t.db", WATCHING) as client:
        table = create_table(client, ["human", "human", "random"], rules={"rounds": 1})
        tokens = [join(client, table, n)["token"] for n in ("Ann", "Bea")]
        the_room = room(client, table)
        with connect(client, table, tokens[0]) as ann, connect(client, table, tokens[1]) as bea:
            ann.send({"type": "watching", "pace": MAX_PACE_MS})  # and never "seen"
            bea.send({"type": "watching", "pace": 500})
            ann.sync()
            bea.sync()
            waits = []
            for _ in range(6):
                wait = the_room.watch_time(_lays(20))
                waits.append(wait)
                the_room.turn_started = time.monotonic() + wait  # as a shown step does
                bea.send({"type": "watching", "seen": the_room.step})
                bea.sync()
            # Ann held three runs 30 s each, then no more; Bea's 10 s were never spent
            # (she said at once that she had seen them), so the table still waits for her.
            assert waits[:3] == [MAX_WATCH] * 3
            assert waits[3:] == [pytest.approx(10.0)] * 3
            slow = next(c for c in the_room.clients if c.seat == 0)
            quick = next(c for c in the_room.clients if c.seat == 1)
            assert slow.waited[1] == pytest.approx(WATCH_BUDGET)
            assert quick.waited[1] < 1.0
            # A new round, a new budget.
            slow.waited = (slow.waited[0] - 1, slow.waited[1])
            assert the_room.watch_time(_lays(20)) == MAX_WATCH
