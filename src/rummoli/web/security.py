"""Seat tokens and the WebSocket Origin check.

A seat token is the only proof that a connection may act for a seat, so it is 128 random
bits, shown once (to the browser that joined, which keeps it in ``localStorage``), and
stored only as its SHA-256: a copy of the database lets nobody act for anyone. SHA-256
without salt is enough here because the token is random, not a password: there is no
dictionary to try.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Collection
from urllib.parse import urlsplit

#: Bytes of randomness in a seat token (128 bits).
TOKEN_BYTES = 16


def new_token() -> str:
    """A fresh seat token: 128 random bits, URL-safe text (22 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256, as hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash`` (constant-time compare)."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_table_id() -> str:
    """A table id for links: 64 random bits, so tables cannot be found by counting."""
    return secrets.token_urlsafe(8)


def new_seed() -> int:
    """The secret seed of a game: it decides every card, so it never leaves the server
    before the game is over."""
    return secrets.randbits(62)


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """Whether a WebSocket handshake with this ``Origin`` header may go on.

    A browser always sends ``Origin`` on a WebSocket handshake, and a page of another site
    cannot forge it: refusing foreign origins stops another site's page from playing at
    our tables with the visitor's browser (cross-site WebSocket hijacking). Allowed: an
    origin listed in ``allowed``, or, when ``allowed`` is empty, the server's own origin
    (the same host and port as the ``Host`` header). Programs other than browsers (the
    load benchmark, tests) send no ``Origin``; they could send any, so refusing them would
    protect nothing.
    """
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if allowed:
        return origin in {a.strip().lower().rstrip("/") for a in allowed}
    if not host:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return parts.netloc == host.strip().lower()
