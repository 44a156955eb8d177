"""Finished games as the history and statistics pages show them.

Statistics are counted from what is stored when a game ends (each seat's final chips),
so they need no replay. A win is finishing with the most chips (tied players each count
one); "chips won" is final chips less starting chips, so losses count too. Rummoli has
no draws or stalemates: a game always ends with a count of chips.
"""

from __future__ import annotations

from typing import Any

from rummoli.web.storage import StoredGame


def _iso(game: StoredGame, what: str) -> str | None:
    moment = getattr(game, what)
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def game_summary(game: StoredGame) -> dict[str, Any]:
    """A finished game for the history list: who played, with what result."""
    start = int(game.rules.get("starting_chips", 0))
    finals = [s.final_chips for s in game.seats if s.final_chips is not None]
    best = max(finals) if finals else None
    return {
        "id": game.id,
        "started_at": _iso(game, "started_at"),
        "finished_at": _iso(game, "finished_at"),
        "rounds": game.rules.get("rounds", 0),
        "starting_chips": start,
        "players": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "chips": s.final_chips,
                "won": best is not None and s.final_chips == best,
            }
            for s in game.seats
        ],
    }


def player_stats(name: str, games: list[StoredGame]) -> dict[str, Any]:
    """Games, wins and chips won by the player of this exact name."""
    played = []
    wins = 0
    chips_won = 0
    for game in games:
        summary = game_summary(game)
        mine = next(p for p in summary["players"] if p["name"] == name)
        chips = mine["chips"] or 0
        wins += bool(mine["won"])
        chips_won += chips - summary["starting_chips"]
        played.append(
            {
                "id": game.id,
                "seat": mine["seat"],
                "finished_at": summary["finished_at"],
                "chips": chips,
                "change": chips - summary["starting_chips"],
                "won": mine["won"],
                "players": [p["name"] for p in summary["players"]],
            }
        )
    return {
        "name": name,
        "games": len(played),
        "wins": wins,
        "chips_won": chips_won,
        "win_rate": round(wins / len(played), 3) if played else 0.0,
        "recent": played[:50],
    }
