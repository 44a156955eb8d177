"""The third game of ``tests/test_third_game.py`` at the web table: the lobby offers it
and a table plays it to the end, with no web code for it (its description only)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from webtools import connect, create_table, join, mine, offered, server

from rummoli.engine.base import TERMINAL
from rummoli.games import registry
from test_third_game import HIGH_CARD, START_CHIPS


@pytest.fixture(autouse=True)
def high_card() -> Iterator[None]:
    registry.register(HIGH_CARD)
    yield
    registry.unregister("highcard")


def test_the_lobby_offers_it_and_a_table_plays_it_to_the_end(tmp_path: Path) -> None:
    with server(tmp_path / "t.db") as client:
        high = offered(client, "highcard")
        assert high["title"] == "High card"
        assert high["seats"] == {"min": 2, "max": 6}
        # A game without titles of its own gets its rules' code names, readably.
        assert high["rules"] == [
            {
                "name": "rounds",
                "default": 3,
                "kind": "int",
                "help": "rounds to play",
                "minimum": 1,
                "title": "Rounds",
            }
        ]
        assert high["levels"] == ["random"] and high["standin"] == "random"
        refused = client.post("/api/tables", json={"game": "highcard", "seats": ["human"] * 7})
        assert refused.status_code == 400 and "2 to 6" in refused.text

        table = create_table(client, ["human", "random", "random"], game="highcard")
        seat = join(client, table, "Ann")
        rng = random.Random(3)
        with connect(client, table, seat["token"]) as me:
            while True:
                view = me.wait_view(lambda v: v["to_move"] in (0, TERMINAL))
                if view["to_move"] == TERMINAL:
                    break
                me.play(rng.choice([a["action"] for a in view["legal_actions"]]))
            final = me.view
        assert final is not None and final["round"] == 3
        assert sum(p["chips"] for p in final["players"]) == 3 * START_CHIPS
        history = client.get("/api/history", headers=mine()).json()["games"]
        assert history[0]["game"] == "highcard" and history[0]["title"] == "High card"
        stats = client.get("/api/players/stats", params={"name": "Ann"}, headers=mine()).json()
        assert stats["by_game"]["highcard"]["games"] == 1
