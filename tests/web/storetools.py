"""Helpers for the tests of the storage itself: a database with bare tables in it, and
what it holds of one."""

from __future__ import annotations

from rummoli.web.storage import PLAYING, Storage, StoredGame, StoredSeat


def storage_with(url: str, *games: str, status: str = PLAYING) -> Storage:
    """A storage at ``url`` with these tables, one seat each, no lease (their owner is
    whoever takes them)."""
    storage = Storage(url)
    for game_id in games:
        storage.create_game(
            StoredGame(id=game_id, status=status, rules={}, seed=1, seats=[StoredSeat(0)])
        )
    return storage


def actions_of(storage: Storage, game_id: str) -> list[int]:
    """The table's actions as stored."""
    game = storage.load_game(game_id)
    assert game is not None
    return game.actions
