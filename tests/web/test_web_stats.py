"""The players' page counts people apart from computer players, and computers by level:
"Bot 4" is whichever computer sat in seat 4 (any level, any game), so it is never a
player of its own; each game's levels are counted by level, whatever their seats' names."""

from __future__ import annotations

from pathlib import Path

from webtools import db_url, server

from rummoli.web.storage import Storage, StoredGame, StoredSeat, utcnow

START = 100


def _finished(
    storage: Storage, game_id: str, game: str, seats: list[tuple[str, str | None, int]]
) -> None:
    """A finished game straight into storage: (name, bot level or None, final amount)."""
    stored = StoredGame(
        id=game_id,
        status="waiting",
        rules={"starting_chips": START} if game == "rummoli" else {},
        seed=1,
        seats=[StoredSeat(i, name, None, bot) for i, (name, bot, _) in enumerate(seats)],
        game=game,
        public=True,
    )
    storage.create_game(stored)
    storage.finish_game(game_id, [amount for _, _, amount in seats], utcnow())


def test_people_apart_from_computers_and_computers_by_level(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    storage = Storage(db_url(path))
    # Two games of Rummoli at the same seats, the computers' levels shuffled.
    names = ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    for game_id, levels, amounts in (
        ("g1", [None, "basic", "strong", "strong"], [90, 80, 150, 80]),
        ("g2", [None, "strong", "random", "basic"], [160, 70, 40, 130]),
    ):
        _finished(storage, game_id, "rummoli", list(zip(names, levels, amounts, strict=True)))
    _finished(storage, "g3", "rummy", [("Cy", None, 40), ("Bot 2", "strong", 120)])
    storage.close()
    with server(path) as client:
        listing = client.get("/api/players").json()
        # People only, by name: no "Bot 2" or "Bot 4" merged across games and levels.
        assert listing["players"] == [{"name": "Ann", "games": 2}, {"name": "Cy", "games": 1}]
        by_level = {(b["game"], b["level"]): (b["label"], b["games"]) for b in listing["bots"]}
        assert by_level == {
            ("rummoli", "random"): ("Beginner", 1),
            ("rummoli", "basic"): ("Casual", 2),
            ("rummoli", "strong"): ("Expert", 3),
            ("rummy", "strong"): ("Expert", 1),
        }
        # Weakest first within each game, as the descriptions list them.
        assert [b["level"] for b in listing["bots"] if b["game"] == "rummoli"] == [
            "random",
            "basic",
            "strong",
        ]

        strong = client.get("/api/bots/stats", params={"game": "rummoli", "level": "strong"}).json()
        assert (strong["games"], strong["wins"]) == (3, 1)  # g1's Bot 3 won; g2's lost
        assert strong["chips_won"] == (150 - START) + (80 - START) + (70 - START)
        assert strong["mean_won"] == round(strong["chips_won"] / 3, 2)
        assert strong["label"] == "Expert" and strong["help"]
        assert {(g["id"], g["seat"]) for g in strong["recent"]} == {("g1", 2), ("g1", 3), ("g2", 1)}
        basic = client.get("/api/bots/stats", params={"game": "rummoli", "level": "basic"}).json()
        assert (basic["games"], basic["wins"], basic["chips_won"]) == (
            2,
            0,
            (80 - START) + (130 - START),
        )
        rummy = client.get("/api/bots/stats", params={"game": "rummy", "level": "strong"}).json()
        assert (rummy["games"], rummy["wins"], rummy["amount"]) == (1, 1, "points")

        # A person's statistics count his own seats only; a computer's seat name is nobody.
        ann = client.get("/api/players/stats", params={"name": "Ann"}).json()
        assert (ann["games"], ann["wins"], ann["chips_won"]) == (2, 1, -10 + 60)
        assert client.get("/api/players/stats", params={"name": "Bot 4"}).json()["games"] == 0

        refused = client.get("/api/bots/stats", params={"game": "rummoli", "level": "wizard"})
        assert refused.status_code == 404 and "wizard" in refused.json()["detail"]
        assert (
            client.get("/api/bots/stats", params={"game": "chess", "level": "strong"}).status_code
            == 404
        )
