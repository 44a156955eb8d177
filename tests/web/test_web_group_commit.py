"""Group commit: the actions (and chat lines) several rooms accept at once share one
transaction, each room's row is committed before its call returns, and a refused row
fails only its own room."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError
from storetools import actions_of, storage_with
from webtools import db_url, run_coroutine

from rummoli.web.hub import Hub
from rummoli.web.storage import ChatLine, utcnow


def test_actions_of_one_moment_share_a_commit_and_are_stored_on_return(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = storage_with(db_url(tmp_path / "t.db"), "a", "b", "c")
    batches: list[list[Any]] = []
    append_rows = storage.append_rows

    def recording(
        rows: Sequence[tuple[str, int, int]], chat: Sequence[Any] = (), fence: Any = None
    ) -> None:
        batches.append([*rows, *((g, line.text) for g, line in chat)])
        append_rows(rows, chat, fence)

    monkeypatch.setattr(storage, "append_rows", recording)
    line = ChatLine(0, utcnow(), "players", "p0", "Ann", "text", "hi")

    async def play() -> None:
        hub = Hub(storage)
        # Three rooms and a chat line in the same event-loop turn: one transaction.
        await asyncio.gather(
            hub.store_action("a", 0, 10),
            hub.store_action("b", 0, 20),
            hub.store_chat("b", line),
            hub.store_action("c", 0, 30),
        )
        assert [actions_of(storage, g) for g in "abc"] == [[10], [20], [30]]
        assert [c.text for c in storage.load_chat("b")] == ["hi"]
        # One room after the other: each waits for its own commit.
        await hub.store_action("a", 1, 11)
        assert actions_of(storage, "a") == [10, 11]
        await hub.stop()

    run_coroutine(play())
    assert batches == [[("a", 0, 10), ("b", 0, 20), ("c", 0, 30), ("b", "hi")], [("a", 1, 11)]]


def test_a_refused_row_fails_its_own_room_only(tmp_path: Path) -> None:
    storage = storage_with(db_url(tmp_path / "t.db"), "a", "b")
    storage.append_action("a", 0, 10)

    async def play() -> list[BaseException | None]:
        hub = Hub(storage)
        # "a" 0 is stored already: the primary key refuses the repeat, in the same batch
        # as two good rows.
        results = await asyncio.gather(
            hub.store_action("b", 0, 20),
            hub.store_action("a", 0, 99),
            hub.store_action("a", 1, 11),
            return_exceptions=True,
        )
        await hub.stop()
        return results

    results = run_coroutine(play())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], IntegrityError)
    assert actions_of(storage, "a") == [10, 11]
    assert actions_of(storage, "b") == [20]
