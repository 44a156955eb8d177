"""Finished games as the history and statistics pages show them.

The history list and a player's page are written once for every game: a finished game is
summed up from what is stored when it ends (each seat's final amount: Rummoli's chips,
Rummy's points), and each game's web part (``web/<game>/``) counts its own statistics
for a player (Rummoli's chips won; Rummy's hands, replayed from the stored actions). A
game with no web part gets :data:`GENERIC`: games, wins and final amounts.

People and computer players are counted apart. A person is known by his name; a computer
player by its game and level (``Expert``, ``strong``), never by its seat's name: "Bot 4"
is whichever computer sat in seat 4, at any level, in any game
(:func:`bot_stats`, :func:`bot_list`).
"""

from __future__ import annotations

from typing import Any

from rummoli.i18n.terms import bot_label, game_title
from rummoli.web.games import WebPart, description, games, levels, web_part
from rummoli.web.storage import ABANDONED, StoredGame


def _iso(game: StoredGame, what: str) -> str | None:
    moment = getattr(game, what)
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def _winners(game: StoredGame) -> set[int]:
    """The seats that finished with the most; tied seats each win, unless the game says
    a tie names nobody (Rummy: the engine's ``game_over`` winner is then null)."""
    finals = [s.final_chips for s in game.seats if s.final_chips is not None]
    if not finals:
        return set()
    best = max(finals)
    seats = {s.seat for s in game.seats if s.final_chips == best}
    if len(seats) > 1 and not web_part(game.game).ties_win:
        return set()
    return seats


def game_summary(game: StoredGame) -> dict[str, Any]:
    """A game that is over, for the history list: who played, with what result (the
    final amount, in the ``chips`` field for every game: Rummy's points too), how many
    rounds it played, and whether it was abandoned (its people left: no statistics)."""
    start = web_part(game.game).starting_amount(game.rules)
    winners = _winners(game)
    about = description(game.game)
    return {
        "id": game.id,
        "game": game.game,
        "title": about.title,
        "amount": about.amount,
        "started_at": _iso(game, "started_at"),
        "finished_at": _iso(game, "finished_at"),
        "rounds": game.rules.get("rounds", 0),
        "rounds_played": game.rounds_played,
        "abandoned": game.status == ABANDONED,
        "starting_chips": start,
        "players": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "chips": s.final_chips,
                "won": s.seat in winners,
            }
            for s in game.seats
        ],
    }


def _played(game_id: str, summary: dict[str, Any], player: dict[str, Any]) -> dict[str, Any]:
    """One game of a list of recent games (a person's, or a computer level's), from its
    :func:`game_summary` and the ``player`` of it this list is about: his seat, his final
    amount and what he won by (final less starting: a loss is negative), and who played."""
    amount = player["chips"] or 0
    return {
        "id": game_id,
        "seat": player["seat"],
        "finished_at": summary["finished_at"],
        "chips": amount,
        "change": amount - summary["starting_chips"],
        "won": player["won"],
        "players": [p["name"] for p in summary["players"]],
    }


def amount_stats(name: str, games: list[StoredGame]) -> dict[str, Any]:
    """Games, wins and the amount won (final less starting: losses count too) by the
    player of this exact name, with his 50 most recent games."""
    played = []
    wins = 0
    won = 0
    for game in games:
        summary = game_summary(game)
        mine = next(p for p in summary["players"] if p["name"] == name)
        entry = _played(game.id, summary, mine)
        wins += bool(mine["won"])
        won += entry["change"]
        played.append(entry)
    return {
        "games": len(played),
        "wins": wins,
        "chips_won": won,
        "win_rate": round(wins / len(played), 3) if played else 0.0,
        "recent": played[:50],
    }


#: The statistics of a game that brings no web part of its own.
GENERIC = WebPart(player_stats=amount_stats)


def player_stats(name: str, stored: list[StoredGame]) -> dict[str, Any]:
    """Every game's statistics for the player of this exact name, by game
    (``by_game``), each counted by its game's web part (``stored``: whole games for the
    parts that ask for them). The default game's are also at
    the top level, as before there was a second game."""
    by_game: dict[str, dict[str, Any]] = {}
    for game in games():
        mine = [g for g in stored if g.game == game]
        stats = web_part(game).player_stats(name, mine)
        by_game[game] = {"title": description(game).title, **stats}
    first = by_game[games()[0]]
    return {"name": name, **{k: v for k, v in first.items() if k != "title"}, "by_game": by_game}


def bot_stats(game: str, level: str, stored: list[StoredGame]) -> dict[str, Any]:
    """One computer level of one game over its finished games: each seat it held is one
    game played (two experts at a table are two), with its wins and what it won (final
    less starting amount), whatever its seat was called."""
    about = description(game)
    seats = wins = won = 0
    recent: list[dict[str, Any]] = []
    for one in stored:
        if one.game != game:
            continue
        summary = game_summary(one)
        for player in summary["players"]:
            if player["bot"] != level:
                continue
            entry = _played(one.id, summary, player)
            seats += 1
            wins += bool(player["won"])
            won += entry["change"]
            if len(recent) < 50:
                recent.append(entry)
    title, help_text = bot_label(about, level)
    return {
        "game": game,
        "title": game_title(about),
        "level": level,
        "label": title,
        "help": help_text,
        "amount": about.amount,
        "games": seats,
        "wins": wins,
        "win_rate": round(wins / seats, 3) if seats else 0.0,
        "chips_won": won,
        "mean_won": round(won / seats, 2) if seats else 0.0,
        "recent": recent,
    }


def bot_list(seen: list[tuple[str, str, int]]) -> list[dict[str, Any]]:
    """The computer levels that have played, for the players' page: by game, weakest
    first, each with its label and how many games (seats) it played. A level no longer
    offered (or a game no longer installed) is left out."""
    rows = []
    for game in games():
        about = description(game)
        counts = {level: n for g, level, n in seen if g == game}
        for level in levels(game):
            if level in counts:
                title, help_text = bot_label(about, level)
                rows.append(
                    {
                        "game": game,
                        "title": game_title(about),
                        "level": level,
                        "label": title,
                        "help": help_text,
                        "games": counts[level],
                    }
                )
    return rows
