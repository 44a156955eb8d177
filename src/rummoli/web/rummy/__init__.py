"""Basic Rummy's part of the web table: its players' statistics.

A match is won by the player the engine names in ``game_over``: the one who reached the
target, else the one highest score (nobody on a tie: a loss for all). Its hands are
counted from the game's events, replayed on the server: a hand is won by the player who
went out, and **a stalemate is a loss for everyone**, as the seed says. A finished game
never changes, so each game's hands are replayed once and remembered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rummoli.i18n import N_
from rummoli.web.games import WebPart
from rummoli.web.history import game_summary
from rummoli.web.storage import StoredGame

#: Finished Rummy games whose hands have been counted ((id, actions) -> per seat).
_HANDS_CACHE: dict[tuple[str, int], tuple[HandCounts, ...]] = {}
_HANDS_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class HandCounts:
    """One seat's hands in one Rummy match."""

    hands: int = 0
    won: int = 0
    stalemates: int = 0
    going_rummy: int = 0

    @property
    def lost(self) -> int:
        """Every hand not won is lost: another player went out, or nobody did."""
        return self.hands - self.won


def count_hands(game: StoredGame) -> tuple[HandCounts, ...]:
    """Each seat's hands of a finished Rummy game (a whole game: its seed and actions),
    from the engine's own events."""
    key = (game.id, len(game.actions))
    cached = _HANDS_CACHE.get(key)
    if cached is not None:
        return cached
    from rummoli.web.replay import rebuild

    _, events = rebuild(game)
    n = len(game.seats)
    won = [0] * n
    rummy = [0] * n
    hands_total = stalemates = 0
    for event in events:
        kind = event[0]
        if kind == "hand_over":
            hands_total += 1
        elif kind == "hand_won":
            won[event[1]] += 1
        elif kind == "goes_out" and event[2]:
            rummy[event[1]] += 1
        elif kind == "stalemate":
            stalemates += 1

    counts = tuple(HandCounts(hands_total, won[s], stalemates, rummy[s]) for s in range(n))
    if len(_HANDS_CACHE) >= _HANDS_CACHE_SIZE:
        _HANDS_CACHE.pop(next(iter(_HANDS_CACHE)))
    _HANDS_CACHE[key] = counts
    return counts


def rummy_stats(
    name: str, games: Iterable[StoredGame], hands: Mapping[str, tuple[HandCounts, ...]]
) -> dict[str, Any]:
    """A player's Basic Rummy: matches and hands. ``hands``: :func:`count_hands` by game."""
    played = []
    totals = {"hands": 0, "won": 0, "lost": 0, "stalemates": 0, "going_rummy": 0}
    wins = points = 0
    for game in games:
        summary = game_summary(game)
        mine = next(p for p in summary["players"] if p["name"] == name)
        counts = hands[game.id][mine["seat"]]
        wins += bool(mine["won"])
        points += mine["chips"] or 0
        for key in totals:
            totals[key] += getattr(counts, key)
        played.append(
            {
                "id": game.id,
                "seat": mine["seat"],
                "finished_at": summary["finished_at"],
                "points": mine["chips"] or 0,
                "won": mine["won"],
                "hands": counts.hands,
                "hands_won": counts.won,
                "stalemates": counts.stalemates,
                "players": [p["name"] for p in summary["players"]],
            }
        )
    return {
        "games": len(played),
        "wins": wins,
        "win_rate": round(wins / len(played), 3) if played else 0.0,
        "points": points,
        "hands": totals["hands"],
        "hands_won": totals["won"],
        "hands_lost": totals["lost"],
        "stalemates": totals["stalemates"],
        "going_rummy": totals["going_rummy"],
        "hand_win_rate": round(totals["won"] / totals["hands"], 3) if totals["hands"] else 0.0,
        "recent": played[:50],
    }


def _player_stats(name: str, games: list[StoredGame]) -> dict[str, Any]:
    hands = {game.id: count_hands(game) for game in games}
    return rummy_stats(name, games, hands)


WEB = WebPart(
    player_stats=_player_stats,
    intro=N_(
        "Basic Rummy: draw from the stock or the discard pile, lay down sets and runs, "
        "lay off on any meld, discard; the first out scores the cards left in the other hands."
    ),
    ties_win=False,
    whole_games=True,
)
