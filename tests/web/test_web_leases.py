"""Table ownership by lease (issue 27): one owner per unfinished table at a time, an
expiry its owner renews, and a fencing epoch that refuses a stale owner's writes; on
SQLite and on a real PostgreSQL server the tests start (``pgserver.py``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from pgserver import sqlite_or_postgres
from webtools import run_coroutine

from rummoli.web.hub import Hub
from rummoli.web.leases import Leases, StaleOwner
from rummoli.web.limits import Limits
from rummoli.web.storage import FINISHED, PLAYING, Storage, StoredGame, StoredSeat, utcnow


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return sqlite_or_postgres(request, tmp_path, "leases")


def _storage(url: str, *games: str) -> Storage:
    storage = Storage(url)
    for game_id in games:
        storage.create_game(
            StoredGame(id=game_id, status=PLAYING, rules={}, seed=1, seats=[StoredSeat(0)])
        )
    return storage


def _actions(storage: Storage, game_id: str) -> list[int]:
    game = storage.load_game(game_id)
    assert game is not None
    return game.actions


def test_one_owner_at_a_time_and_each_takeover_moves_the_epoch(url: str) -> None:
    storage = _storage(url, "t1", "t2")
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
    storage = _storage(url, "t1", "t2")
    ann, bob = Leases(storage.engine, "ann", ttl=30), Leases(storage.engine, "bob", ttl=30)
    assert ann.acquire(["t1", "t2"]) == {"t1": 1, "t2": 1}
    storage.append_rows([("t1", 0, 10), ("t2", 0, 20)], fence={"t1": 1, "t2": 1})
    assert bob.acquire(["t1"], force=True) == {"t1": 2}
    # Ann still thinks she owns t1: her batch is refused whole, t2's row with it.
    with pytest.raises(StaleOwner) as refused:
        storage.append_rows([("t1", 1, 11), ("t2", 1, 21)], fence={"t1": 1, "t2": 1})
    assert refused.value.game_ids == ["t1"]
    assert _actions(storage, "t1") == [10] and _actions(storage, "t2") == [20]
    # The new owner writes; the stale one still cannot, even the index it is due.
    storage.append_rows([("t1", 1, 12)], fence={"t1": 2})
    with pytest.raises(StaleOwner):
        storage.append_rows([("t1", 2, 13)], fence={"t1": 1})
    assert _actions(storage, "t1") == [10, 12]
    # Nor can it end the game (a timer of its own, an abandon) or start it again.
    with pytest.raises(StaleOwner):
        storage.finish_game("t1", [0], utcnow(), FINISHED, fence={"t1": 1})
    with pytest.raises(StaleOwner):
        storage.start_game("t1", {}, utcnow(), fence={"t1": 1})
    game = storage.load_game("t1")
    assert game is not None and game.status == PLAYING and game.setup is None
    assert bob.lease("t1") is not None  # its lease is still the new owner's
    storage.close()


def test_a_game_over_needs_no_owner(url: str) -> None:
    storage = _storage(url, "t1")
    ann = Leases(storage.engine, "ann", ttl=30)
    ann.acquire(["t1"])
    storage.finish_game("t1", [0], utcnow(), FINISHED)
    assert ann.lease("t1") is None and ann.orphans() == []
    storage.close()


def test_the_hub_fences_its_writes_and_drops_a_table_taken_over(url: str) -> None:
    """Two processes' hubs on one database: the first owns a table; once its lease
    expires unrenewed (as if it were paused), the second takes it over, and the first's
    next action is refused, not stored, and its claim on the table is dropped."""
    storage_a, storage_b = _storage(url, "t1", "t2"), Storage(url)

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
    assert _actions(storage_a, "t1") == [10, 12]
    assert _actions(storage_a, "t2") == [20]
    # Ann stopped cleanly: her lease of t2 is released, anyone may take it now.
    assert Leases(storage_a.engine, "carl").acquire(["t2"]) == {"t2": 2}
    storage_a.close()
    storage_b.close()


def test_a_row_made_before_the_table_was_lost_is_refused(url: str) -> None:
    """A row waiting for the group commit when its table is lost (the renewal found
    it taken, and the hub let it go) is checked against the epoch it was made under,
    not written unchecked because the hub holds no lease for it any more."""
    storage = _storage(url, "t1")

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
    assert _actions(storage, "t1") == []
    storage.close()
