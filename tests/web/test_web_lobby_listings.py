"""The lobby's list across processes (issue 27): the siblings' tables are asked for at
most once a second, however many lobbies ask (``cluster.SiblingTables``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from webtools import run_coroutine

from rummoli.web.cluster import SiblingTables


class Siblings:
    """What the siblings answer: a new list each time they are asked, after a while."""

    def __init__(self) -> None:
        self.asked = 0
        self.fail = False

    async def ask(self) -> list[dict[str, Any]]:
        self.asked += 1
        await asyncio.sleep(0.05)
        if self.fail:
            raise ConnectionError("a sibling's answer broke")
        return [{"id": f"t{self.asked}"}]


def test_lobbies_asking_together_or_within_a_second_ask_the_siblings_once() -> None:
    async def play() -> None:
        listings, siblings = SiblingTables(seconds=0.3), Siblings()
        together = await asyncio.gather(*(listings.get(siblings.ask) for _ in range(20)))
        assert siblings.asked == 1 and all(t == [{"id": "t1"}] for t in together)
        together[0].append({"id": "mine"})  # a caller's own tables are not kept
        assert await listings.get(siblings.ask) == [{"id": "t1"}] and siblings.asked == 1
        await asyncio.sleep(0.35)  # stale: asked again, and the new answer is served
        assert await listings.get(siblings.ask) == [{"id": "t2"}] and siblings.asked == 2

    run_coroutine(play())


def test_a_broken_answer_is_not_kept() -> None:
    async def play() -> None:
        listings, siblings = SiblingTables(seconds=30), Siblings()
        siblings.fail = True
        with pytest.raises(ConnectionError):
            await listings.get(siblings.ask)
        siblings.fail = False
        assert await listings.get(siblings.ask) == [{"id": "t2"}]
        assert await listings.get(siblings.ask) == [{"id": "t2"}] and siblings.asked == 2

    run_coroutine(play())


def test_a_lobby_that_goes_away_does_not_cancel_the_others_answer() -> None:
    async def play() -> None:
        listings, siblings = SiblingTables(), Siblings()
        first = asyncio.ensure_future(listings.get(siblings.ask))
        second = asyncio.ensure_future(listings.get(siblings.ask))
        await asyncio.sleep(0.01)
        first.cancel()  # its page was closed
        assert await second == [{"id": "t1"}] and siblings.asked == 1

    run_coroutine(play())
