"""Who may see a game once it is over: a game's visibility is its table's, for its life.

A public game is everyone's: listed in the history, counted in the statistics, its
record and replays served to anyone with its id. A private one (the default) stays
private when it ends, as during play:

- it is **listed** (the history, the players and their statistics, the computers'
  statistics) only to its people: a request lists the private games whose secrets it
  brings (header ``X-Rummoli-Games``: ``id:secret`` pairs, the seat tokens and host
  secrets this browser keeps), and no other;
- its **record** (the seed, every card) and its seats' **replays** are served only with
  one of its persons' seat tokens (``X-Rummoli-Token``) or its host's secret
  (``X-Rummoli-Key``); the spectators' replay also with its invitation or spectator link
  (they could watch it live); its **chat** only to its players (a seat token), public or
  not, as before.

Each replay is built on the server from the chosen seat's views, so a seat's replay
shows that seat's cards only (every card is in the record, which is the people's).
"""

from __future__ import annotations

import re
from enum import Enum

from rummoli.web.security import token_matches
from rummoli.web.storage import StoredGame

#: Pairs a listing request may bring (a browser that played thousands of games sends
#: its latest ones).
MAX_KEYS = 200
_PAIR = re.compile(r"^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{1,64})$")


class Access(Enum):
    """What a request may see of a finished game."""

    #: A public game: everything but the chat (its players').
    PUBLIC = "public"
    #: One of its persons (a seat token): everything, its chat too.
    PLAYER = "player"
    #: Its host (the host's secret): everything but the chat.
    HOST = "host"
    #: A holder of its invitation or spectator link: the spectators' replay.
    WATCHER = "watcher"
    STRANGER = "stranger"

    @property
    def whole(self) -> bool:
        """The record and every seat's replay."""
        return self in (Access.PUBLIC, Access.PLAYER, Access.HOST)

    @property
    def watching(self) -> bool:
        """The spectators' replay."""
        return self.whole or self is Access.WATCHER


def access(stored: StoredGame, token: str | None, key: str | None) -> Access:
    """What a request with this seat ``token`` and table ``key`` may see of ``stored``."""
    if token is not None and any(
        s.bot is None and token_matches(token, s.token_hash) for s in stored.seats
    ):
        return Access.PLAYER
    if stored.public:
        return Access.PUBLIC
    if key is not None:
        if token_matches(key, stored.host_hash):
            return Access.HOST
        if token_matches(key, stored.invite_hash) or token_matches(key, stored.watch_hash):
            return Access.WATCHER
    return Access.STRANGER


def game_keys(header: str | None) -> list[tuple[str, str]]:
    """The ``id:secret`` pairs of an ``X-Rummoli-Games`` header (separated by commas or
    spaces), at most :data:`MAX_KEYS`; what is not a pair is left out."""
    if not header:
        return []
    pairs = []
    for part in re.split(r"[\s,]+", header.strip()):
        found = _PAIR.match(part)
        if found is not None:
            pairs.append((found.group(1), found.group(2)))
        if len(pairs) >= MAX_KEYS:
            break
    return pairs


__all__ = ["MAX_KEYS", "Access", "access", "game_keys"]
