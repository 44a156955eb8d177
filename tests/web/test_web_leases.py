"""Table ownership by lease (issue 27): one owner per unfinished table at a time, an
expiry its owner renews, and a fencing epoch that refuses a stale owner's writes; on
SQLite and on a real PostgreSQL server the tests start (``pgserver.py``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pgserver import sqlite_or_postgres
from storetools import actions_of, storage_with
from webtools import run_coroutine

from rummoli.web.cluster import owner_address
from rummoli.web.commands import Host
from rummoli.web.hub import Hub
from rummoli.web.leases import Leases, StaleOwner
from rummoli.web.limits import Limits
from rummoli.web.room import Room
from rummoli.web.seating import Timing
from rummoli.web.settings import settings_from_request
from rummoli.web.storage import (
    EXPIRED,
    FINISHED,
    PLAYING,
    WAITING,
    Storage,
    StoredGame,
    StoredSeat,
    utcnow,
)
from rummoli.web.wording import Refused


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return sqlite_or_postgres(request, tmp_path, "leases")


def test_one_owner_at_a_time_and_each_takeover_moves_the_epoch(url: str) -> None:
    storage = storage_with(url, "t1", "t2")
    ann, bob = Leases(storage.engine, "ann", ttl=0.5), Leases(storage.engine, "bob", ttl=30)
    assert ann.acquire(["t1", "t2"]) == {"t1": 1, "t2": 1}
    # Ann's leases are alive: Bob gets neither, and they stay hers.
    assert bob.acquire(["t1", "t2"]) == {}
    lease = ann.lease("t1")
    assert lease is not None and (lease.owner, lease.epoch) == ("ann", 1)
    # No table of that id: no lease (the foreign key refuses it), nothing else changes.
    assert bob.acquire(["nope"]) == {}
    assert ann.orphans() == []
    time.sleep(0.6)
    # Expired unrenewed: both are orphans, and Bob takes them with the next epoch.
    assert sorted(bob.orphans()) == ["t1", "t2"]
    assert bob.acquire(["t1"]) == {"t1": 2}
    assert ann.renew({"t1": 1, "t2": 1}) == {"t2"}  # t1 is lost; t2 was not taken yet
    lease = ann.lease("t2")
    assert lease is not None and lease.expires_at > utcnow()  # renewed
    # Released, a lease is free at once, whatever its expiry said.
    ann.release({"t2": 1})
    assert bob.acquire(["t2"]) == {"t2": 2}
    # Forced (the only server on its database): taken from a live owner.
    assert ann.acquire(["t1"], force=True) == {"t1": 3}
    storage.close()


def test_a_stale_owners_write_is_refused_and_writes_nothing(url: str) -> None:
    storage = storage_with(url, "t1", "t2")
    ann, bob = Leases(storage.engine, "ann", ttl=30), Leases(storage.engine, "bob", ttl=30)
    assert ann.acquire(["t1", "t2"]) == {"t1": 1, "t2": 1}
    storage.append_rows([("t1", 0, 10), ("t2", 0, 20)], fence={"t1": 1, "t2": 1})
    assert bob.acquire(["t1"], force=True) == {"t1": 2}
    # Ann still thinks she owns t1: her batch is refused whole, t2's row with it.
    with pytest.raises(StaleOwner) as refused:
        storage.append_rows([("t1", 1, 11), ("t2", 1, 21)], fence={"t1": 1, "t2": 1})
    assert refused.value.game_ids == ["t1"]
    assert actions_of(storage, "t1") == [10] and actions_of(storage, "t2") == [20]
    # The new owner writes; the stale one still cannot, even the index it is due.
    storage.append_rows([("t1", 1, 12)], fence={"t1": 2})
    with pytest.raises(StaleOwner):
        storage.append_rows([("t1", 2, 13)], fence={"t1": 1})
    assert actions_of(storage, "t1") == [10, 12]
    # Nor can it end the game (a timer of its own, an abandon) or start it again.
    with pytest.raises(StaleOwner):
        storage.finish_game("t1", [0], utcnow(), FINISHED, fence={"t1": 1})
    with pytest.raises(StaleOwner):
        storage.start_game("t1", {}, utcnow(), fence={"t1": 1})
    game = storage.load_game("t1")
    assert game is not None and game.status == PLAYING and game.setup is None
    assert bob.lease("t1") is not None  # its lease is still the new owner's
    storage.close()


def test_a_game_over_is_kept_until_released_and_never_taken_over(url: str) -> None:
    """The end keeps the owner's lease (it keeps the game over while people look); no
    live process takes it over; released, the next keeper's epoch is one more, never
    given again (a keeper paused since cannot write under it)."""
    storage = storage_with(url, "t1")
    ann, bob = Leases(storage.engine, "ann", ttl=30), Leases(storage.engine, "bob", ttl=30)
    assert ann.acquire(["t1"]) == {"t1": 1}
    storage.finish_game("t1", [0], utcnow(), FINISHED, fence={"t1": 1})
    lease = ann.lease("t1")
    assert lease is not None and (lease.owner, lease.epoch) == ("ann", 1)
    assert ann.orphans() == [] and bob.acquire(["t1"]) == {}
    assert bob.keeper("t1") == "ann"
    ann.release({"t1": 1})
    assert bob.keeper("t1") is None
    assert bob.acquire(["t1"]) == {"t1": 2}
    with pytest.raises(StaleOwner):
        storage.set_game("t1", fence={"t1": 1}, banned={"names": ["Eve"]})
    storage.set_game("t1", fence={"t1": 2}, banned={"names": ["Eve"]})
    game = storage.load_game("t1")
    assert game is not None and game.banned == {"names": ["Eve"]}
    storage.close()


def test_a_game_over_goes_where_its_rematch_is(url: str) -> None:
    """A game over nobody keeps is kept by the process that runs its rematch (and so
    on down a rematch's rematch); nobody's rematch: nobody's, anyone may keep it."""
    storage = storage_with(url, "t1", "t2", "t3", status=FINISHED)
    storage.create_game(
        StoredGame(id="r3", status=WAITING, rules={}, seed=1, seats=[StoredSeat(0)])
    )
    storage.set_game("t1", rematch_id="t2")
    storage.set_game("t2", rematch_id="t3")
    storage.set_game("t3", rematch_id="r3")
    ann, bob = Leases(storage.engine, "ann", ttl=30), Leases(storage.engine, "bob", ttl=30)
    assert bob.keeper("t1") is None
    assert ann.acquire(["r3"]) == {"r3": 1}
    assert bob.keeper("t1") == bob.keeper("t3") == "ann"
    assert bob.acquire(["t2"]) == {"t2": 1}  # t2 kept by Bob: t1 goes to Bob, t3 to Ann
    assert ann.keeper("t1") == "bob" and ann.keeper("t3") == "ann"
    # A rematch that waited too long is gone, though its lease lasts a few seconds more.
    storage.expire_waiting(utcnow(), ["r3"])
    assert bob.keeper("t3") is None and bob.keeper("r3") is None
    storage.close()


def _finished_with_two_hubs(
    url: str, play: Callable[[Hub, Hub, Storage], Awaitable[None]], *games: str
) -> None:
    storage_a, storage_b = storage_with(url, *games, status=FINISHED), Storage(url)

    async def both() -> None:
        ann = Hub(storage_a, timing=STILL, shared=True, address="http://ann:1")
        bob = Hub(storage_b, timing=STILL, shared=True, address="http://bob:2")
        await ann.heartbeat()
        await bob.heartbeat()
        try:
            await play(ann, bob, storage_a)
        finally:
            await ann.stop()
            await bob.stop()

    run_coroutine(both())
    storage_a.close()
    storage_b.close()


def test_a_game_over_is_in_one_process_at_a_time(url: str) -> None:
    """Two processes asked for one finished table (two players' pages, each reloaded
    at another process): the first keeps it, the second sends its pages there (no
    second room, no second rematch); once the first unloads it, the second keeps it,
    and the first's old room can write nothing more."""

    async def play(ann: Hub, bob: Hub, storage: Storage) -> None:
        kept = await ann.room("t1")
        assert kept is not None and kept.fence == {"t1": 1}
        assert await bob.room("t1") is None and "t1" not in bob.rooms
        assert await owner_address(bob, "t1") == "http://ann:1"
        assert await owner_address(ann, "t1") is None
        ann.forget_if_idle(kept)  # nobody looks at it any more
        assert "t1" not in ann.rooms and "t1" not in ann.held
        assert await owner_address(bob, "t1") == "http://ann:1"  # until the next renewal
        await ann.renew()
        assert await owner_address(bob, "t1") is None
        again = await bob.room("t1")
        assert again is not None and again.fence == {"t1": 2}
        with pytest.raises(StaleOwner):
            await ann.write(storage.set_game, "t1", kept.fence, banned={"names": ["Eve"]})
        await bob.write(storage.set_game, "t1", again.fence, banned={"names": ["Eve"]})

    _finished_with_two_hubs(url, play, "t1")


def test_a_rematch_at_another_process_hands_the_game_over_there(url: str) -> None:
    """A finished table kept here whose rematch another process runs (it took the
    rematch over): asked for the rematch, this process makes no second one; it lets
    the finished table go, its pages are sent to the rematch's process, and that one
    keeps it."""

    async def play(ann: Hub, bob: Hub, storage: Storage) -> None:
        storage.create_game(
            StoredGame(id="r1", status=WAITING, rules={}, seed=1, seats=[StoredSeat(0)])
        )
        storage.set_game("t1", rematch_id="r1")
        kept = await bob.room("t1")  # nobody runs r1 yet: Bob keeps t1
        assert kept is not None and kept.rematch_id == "r1"
        assert await ann.take(["r1"]) == {"r1": 1}  # Ann takes the rematch over
        assert await bob.rematch_of(kept) is None
        for _ in range(100):  # the room stops from outside its own step
            if "t1" not in bob.rooms:
                break
            await asyncio.sleep(0.01)
        assert "t1" not in bob.rooms and "t1" not in bob.held
        game = storage.load_game("t1")
        assert game is not None and game.rematch_id == "r1"  # no second rematch
        assert await owner_address(bob, "t1") == "http://ann:1"
        assert await bob.room("t1") is None
        moved = await ann.room("t1")
        assert moved is not None and moved.fence == {"t1": 2}
        assert await ann.rematch_of(moved) is await ann.room("r1")

    _finished_with_two_hubs(url, play, "t1")


def test_a_rematch_made_by_a_stale_keeper_goes_at_once(url: str) -> None:
    """A keeper that lost its finished table (paused past its lease, another process
    keeps it now) and is then asked for the rematch: its write of the rematch's id is
    refused, and the rematch it made, which no page can reach, expires at once instead
    of waiting out ``waiting_ttl`` as a private table nobody can join."""

    async def play(ann: Hub, bob: Hub, storage: Storage) -> None:
        kept = await ann.room("t1")
        assert kept is not None
        ann.forget_if_idle(kept)
        await ann.renew()
        assert await bob.room("t1") is not None  # Bob keeps it now
        with pytest.raises(StaleOwner):
            await ann.rematch_of(kept)
        game = storage.load_game("t1")
        assert game is not None and game.rematch_id is None
        made = [g for g in storage.load_unfinished() if g.rematch_of == "t1"]
        assert made == []
        assert [t for t in ann.rooms if t != "t1"] == [] and list(ann.held) == []
        # Bob, the keeper, makes the one rematch.
        again = await bob.room("t1")
        assert again is not None
        rematch = await bob.rematch_of(again)
        assert rematch is not None and rematch.status == WAITING

    _finished_with_two_hubs(url, play, "t1")


def test_the_hub_fences_its_writes_and_drops_a_table_taken_over(url: str) -> None:
    """Two processes' hubs on one database: the first owns a table; once its lease
    expires unrenewed (as if it were paused), the second takes it over, and the first's
    next action is refused, not stored, and its claim on the table is dropped."""
    storage_a, storage_b = storage_with(url, "t1", "t2"), Storage(url)

    async def play() -> tuple[BaseException | None, ...]:
        ann = Hub(storage_a, limits=Limits(lease_seconds=0.5))
        bob = Hub(storage_b, limits=Limits(lease_seconds=30), shared=True)
        assert await ann.take(["t1", "t2"]) == {"t1": 1, "t2": 1}
        assert await bob.take(["t1"]) == {}  # shared: a live owner's table is not taken
        await ann.store_action("t1", 0, 10)
        await asyncio.sleep(0.6)
        await ann.renew()  # late: t2 is renewed (nobody took it), t1 is about to go
        assert await bob.take(["t1"]) == {}  # not yet: Ann's renewal kept it
        await asyncio.sleep(0.6)
        assert await bob.take(["t1"]) == {"t1": 2}
        results = await asyncio.gather(
            ann.store_action("t1", 1, 11),  # stale
            ann.store_action("t2", 0, 20),  # still Ann's: the same batch, stored
            return_exceptions=True,
        )
        await bob.store_action("t1", 1, 12)
        await asyncio.sleep(0)  # the hub drops the table it lost
        assert "t1" not in ann.held and "t2" in ann.held
        await ann.stop()
        await bob.stop()
        return tuple(results)

    stale, fine = run_coroutine(play())
    assert isinstance(stale, StaleOwner) and fine is None
    assert actions_of(storage_a, "t1") == [10, 12]
    assert actions_of(storage_a, "t2") == [20]
    # Ann stopped cleanly: her lease of t2 is released, anyone may take it now.
    assert Leases(storage_a.engine, "carl").acquire(["t2"]) == {"t2": 2}
    storage_a.close()
    storage_b.close()


def test_a_row_made_before_the_table_was_lost_is_refused(url: str) -> None:
    """A row waiting for the group commit when its table is lost (the renewal found
    it taken, and the hub let it go) is checked against the epoch it was made under,
    not written unchecked because the hub holds no lease for it any more."""
    storage = storage_with(url, "t1")

    async def play() -> BaseException | None:
        ann = Hub(storage, limits=Limits(lease_seconds=30))
        await ann.take(["t1"])
        Leases(storage.engine, "bob").acquire(["t1"], force=True)
        pending = asyncio.ensure_future(ann.store_action("t1", 0, 10))
        await asyncio.sleep(0)  # the row is queued; its commit is next
        ann.held.pop("t1")  # let go meanwhile, as Hub.lose does
        result = (await asyncio.gather(pending, return_exceptions=True))[0]
        await ann.stop()
        return result

    assert isinstance(run_coroutine(play()), StaleOwner)
    assert actions_of(storage, "t1") == []
    storage.close()


#: The writes of a table's rows by its owner (:mod:`rummoli.web.owned`), each given its
#: fence, with what it changes in the stored table.
OWNED_WRITES: dict[str, tuple[Callable[[Storage, dict[str, int]], object], Any]] = {
    "take_seat": (
        lambda s, fence: s.take_seat("t1", 0, "Ann", "a" * 64, fence),
        lambda g: (g.seats[0].name, g.seats[0].token_hash),
    ),
    "release_seat": (lambda s, fence: s.release_seat("t1", 1, fence), lambda g: g.seats[1].name),
    "set_bot": (
        lambda s, fence: s.set_bot("t1", 0, "Computer 1", "easy", fence),
        lambda g: g.seats[0].bot,
    ),
    "set_game": (lambda s, fence: s.set_game("t1", fence, public=True), lambda g: g.public),
    "request_end": (
        lambda s, fence: s.request_end("t1", 0, fence),
        lambda g: g.end_requested_after,
    ),
    "start_game": (
        lambda s, fence: s.start_game("t1", {"names": ["A"]}, utcnow(), fence),
        lambda g: (g.status, g.setup),
    ),
    "finish_game": (
        lambda s, fence: s.finish_game("t1", [5, 6], utcnow(), FINISHED, 1, fence=fence),
        lambda g: (g.status, [seat.final_chips for seat in g.seats]),
    ),
    "expire_waiting": (
        lambda s, fence: s.expire_waiting(utcnow() + timedelta(hours=1), None, fence),
        lambda g: g.status,
    ),
}


@pytest.mark.parametrize("write", sorted(OWNED_WRITES))
def test_a_stale_owners_seat_setting_or_end_is_refused_and_the_new_owners_stored(
    url: str, write: str
) -> None:
    storage = Storage(url)
    storage.create_game(
        StoredGame(
            id="t1", status=WAITING, rules={}, seed=1, seats=[StoredSeat(0), StoredSeat(1, "Bo")]
        ),
        owner="ann",
        lease_until=utcnow() + timedelta(seconds=30),
    )
    assert Leases(storage.engine, "bob").acquire(["t1"], force=True) == {"t1": 2}
    make, seen = OWNED_WRITES[write]
    before = storage.load_game("t1")
    with pytest.raises(StaleOwner) as refused:
        make(storage, {"t1": 1})
    assert refused.value.game_ids == ["t1"]
    assert storage.load_game("t1") == before  # nothing stored, the lease still Bob's
    lease = Leases(storage.engine, "bob").lease("t1")
    assert lease is not None and (lease.owner, lease.epoch) == ("bob", 2)
    make(storage, {"t1": 2})
    after = storage.load_game("t1")
    assert before is not None and after is not None and seen(after) != seen(before)
    storage.close()


def _host(what: str, **args: Any) -> Callable[[Hub, Room], Awaitable[object]]:
    """A host's power, asked of the room as the API asks it."""

    async def ask(hub: Hub, room: Room) -> object:
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        room.submit(Host(what, reply, args))
        return await reply

    return ask


def _join(hub: Hub, room: Room) -> Awaitable[object]:
    return hub.join(room, 1, "Cy")


#: The requests whose commands write a table's rows: the state the table must be in
#: (``seated``: Ann in seat 1; ``playing``: started by its host), the request, and
#: what it changes in the stored table.
COMMANDS: dict[str, tuple[str, Callable[[Hub, Room], Awaitable[object]], Any]] = {
    "join": ("waiting", _join, lambda g: g.seats[1].name),
    "release": ("seated", _host("release", seat=0), lambda g: g.seats[0].name),
    "remove": ("seated", _host("remove", seat=0), lambda g: (g.seats[0].name, g.banned)),
    "start": ("seated", _host("start"), lambda g: (g.status, g.seats[1].bot)),
    "public": ("waiting", _host("public", value=True), lambda g: g.public),
    "players_chat": ("waiting", _host("players_chat", value=True), lambda g: g.players_chat_public),
    "invite_link": ("waiting", _host("invite_link"), lambda g: g.invite_hash),
    "end": ("playing", _host("end"), lambda g: g.end_requested_after),
}
#: Nothing moves by itself (a table with nobody connected waits for its people).
STILL = Timing(bot_delay=60.0, round_pause=60.0)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_stale_owners_command_is_refused_and_drops_the_table(url: str, command: str) -> None:
    """A process paused past its lease (another took the table over) carries out a join
    or a host's power: the write is refused, nothing is stored, the request is answered
    503 (try again: the new owner), and the table is dropped; the new owner's same
    request is stored."""
    stage, request, seen = COMMANDS[command]
    storage_a, storage_b = Storage(url), Storage(url)

    async def play() -> None:
        ann, bob = Hub(storage_a, timing=STILL), Hub(storage_b, timing=STILL)
        room, _, _ = await ann.create(settings_from_request({"seats": ["human", "human"]}))
        if stage != "waiting":
            await ann.join(room, 0, "Ann")
        if stage == "playing":
            await _host("start")(ann, room)
        before = storage_a.load_game(room.id)
        assert await bob.take([room.id]) == {room.id: 2}  # alone: forced, as at a restart
        with pytest.raises(Refused) as refused:
            await request(ann, room)
        assert refused.value.status_code == 503
        assert storage_a.load_game(room.id) == before
        for _ in range(100):  # the hub stops the room from outside the room's step
            if room.task is None:
                break
            await asyncio.sleep(0.01)
        assert room.id not in ann.rooms and room.id not in ann.held and room.task is None
        fresh = await bob.room(room.id)
        assert fresh is not None and fresh.fence == {room.id: 2}
        await request(bob, fresh)
        after = storage_b.load_game(room.id)
        assert before is not None and after is not None and seen(after) != seen(before)
        await ann.stop()
        await bob.stop()

    run_coroutine(play())
    storage_a.close()
    storage_b.close()


def test_a_request_queued_behind_the_refused_write_is_answered(url: str) -> None:
    """The requests waiting for the dropped table's owner are answered too (503), not
    left waiting for an owner that has stopped."""
    storage_a, storage_b = Storage(url), Storage(url)

    async def play() -> tuple[BaseException | object, ...]:
        ann, bob = Hub(storage_a, timing=STILL), Hub(storage_b, timing=STILL)
        room, _, _ = await ann.create(settings_from_request({"seats": ["human", "human"]}))
        await bob.take([room.id])
        results = await asyncio.gather(
            _host("public", value=True)(ann, room),
            _join(ann, room),
            return_exceptions=True,
        )
        stored = storage_a.load_game(room.id)
        assert stored is not None and not stored.public and stored.seats[1].name is None
        await ann.stop()
        await bob.stop()
        return tuple(results)

    results = run_coroutine(play())
    assert [getattr(r, "status_code", r) for r in results] == [503, 503]
    storage_a.close()
    storage_b.close()


def test_the_sweep_expires_only_the_tables_it_still_owns(url: str) -> None:
    """A paused owner's sweep finds a waiting table past its time that another process
    took over: it expires nothing of it (the refusal drops it); its own expire."""
    storage = storage_with(url, "t1", "t2", status=WAITING)

    async def play() -> None:
        ann = Hub(storage, limits=Limits(waiting_ttl=0.001), shared=True)
        assert await ann.take(["t1", "t2"]) == {"t1": 1, "t2": 1}
        await asyncio.sleep(0.01)  # both past their time
        Leases(storage.engine, "bob").acquire(["t1"], force=True)
        await ann.sweep()  # refused: t1 is Bob's; Ann lets it go
        await asyncio.sleep(0)
        assert "t1" not in ann.held and "t2" in ann.held
        await ann.sweep()  # her own expires
        await ann.stop()

    run_coroutine(play())
    statuses = {g: getattr(storage.load_game(g), "status", None) for g in ("t1", "t2")}
    assert statuses == {"t1": WAITING, "t2": EXPIRED}
    storage.close()
