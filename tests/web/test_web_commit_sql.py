"""The group commit's statements in the driver's own SQL (:mod:`rummoli.web.commit_sql`):
the same rows and the same refusals as the SQLAlchemy statements they replace, for any
number of tables in a batch, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

import pytest
from pgserver import sqlite_or_postgres
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from storetools import actions_of, storage_with

from rummoli.web.commit_sql import FENCE_CHUNK, statements_for
from rummoli.web.leases import Leases, StaleOwner
from rummoli.web.schema import LeaseRow


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return sqlite_or_postgres(request, tmp_path, "commit_sql")


def test_the_fence_reads_every_epoch_whatever_the_number_of_tables(url: str) -> None:
    # More tables than one statement takes, so the last sizes span two chunks.
    count = FENCE_CHUNK + 3
    ids = [f"t{i}" for i in range(count)]
    storage = storage_with(url, *ids)
    ann = Leases(storage.engine, "ann", ttl=30)
    taken = ann.acquire(ids[: count - 2])  # the last two have no lease
    ann.acquire([ids[0]], force=True)  # t0 at epoch 2: the epochs are not all alike
    with storage.engine.connect() as connection:
        stored = dict(connection.execute(select(LeaseRow.game_id, LeaseRow.epoch)).all())
        statements = statements_for(connection.dialect)
        for size in [1, 2, 3, 5, 8, 9, 64, 100, FENCE_CHUNK, FENCE_CHUNK + 1, count]:
            asked = ids[count - size :]  # always the two without a lease among them
            expected = {i: stored[i] for i in asked if i in stored}
            assert statements.epochs(connection, asked) == expected, size
    assert stored["t0"] == 2 and taken["t1"] == 1 and f"t{count - 1}" not in stored
    storage.close()


def test_a_batch_is_stored_whole_or_refused_whole(url: str) -> None:
    storage = storage_with(url, "a", "b")
    epochs = Leases(storage.engine, "ann", ttl=30).acquire(["a", "b"])
    storage.append_rows([("a", 0, 5), ("b", 0, 7), ("a", 1, 2**40)], fence=epochs)
    assert actions_of(storage, "a") == [5, 2**40] and actions_of(storage, "b") == [7]
    # A repeated index: SQLAlchemy's IntegrityError, as before, and b's row not stored.
    with pytest.raises(IntegrityError):
        storage.append_rows([("b", 1, 8), ("a", 1, 9)], fence=epochs)
    assert actions_of(storage, "b") == [7]
    # A stale epoch: refused, nothing stored.
    with pytest.raises(StaleOwner):
        storage.append_rows([("b", 1, 8)], fence={"b": epochs["b"] + 1})
    assert actions_of(storage, "b") == [7]
    storage.close()
