"""Seat tokens, link secrets, and the Host and Origin checks.

A seat token is the only proof that a connection may act for a seat, so it is 128 random
bits, shown once (to the browser that joined, which keeps it in ``localStorage``), and
stored only as its SHA-256: a copy of the database lets nobody act for anyone. SHA-256
without salt is enough here because the token is random, not a password: there is no
dictionary to try.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
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
    before the game is over (drawn from :mod:`secrets`, the system's own randomness)."""
    return secrets.randbits(62)


def stream_seed(seed: int, purpose: str) -> int:
    """The seed of one random stream of a table other than its deck: a computer player's
    (``computer:2``), the stand-in playing for an away person (``standin:2``), the hint's
    (``hint:2``): 256 bits of BLAKE2b keyed with the *whole* game seed, over the label.

    Why a keyed hash: a computer's public moves (its bids, its bets) reveal something of
    its stream. When the stream was seeded by arithmetic on the game seed (``(seed * 31 +
    seat) mod 2**32``), those moves narrowed the deck's seed to a search of 2**32, then
    2**30 decks checked against one's own hand. Now a stream's seed is a pseudo-random
    function of the whole seed: knowing any number of streams tells nothing of the seed,
    nor of another stream (each label gives an unrelated one). The deck itself is the
    engine's: BLAKE2b of the whole seed and the deal's purpose (:mod:`rummoli.engine.rng`).
    """
    key = seed.to_bytes(16, "little", signed=True)
    digest = hashlib.blake2b(
        purpose.encode("utf-8"), key=key, digest_size=32, person=b"rummoli-table"
    )
    return int.from_bytes(digest.digest(), "little")


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


#: Bytes of randomness in an invitation, spectator link or host secret (192 bits: they
#: travel in links, so longer than a seat token).
SECRET_BYTES = 24


def new_secret() -> str:
    """A fresh link secret: 192 random bits, URL-safe text (32 characters)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def host_allowed(host: str | None, allowed: Collection[str]) -> bool:
    """Whether a request's ``Host`` header names this server.

    DNS rebinding: a page of ``evil.example`` whose name is made to resolve to this
    server's address talks to it as ``evil.example`` (its ``Origin`` and ``Host`` agree,
    so the Origin check alone lets it in). So the Host itself must be one of ours: a
    name of a configured origin (``--origin``), ``localhost``, or an IP address (a page
    can only reach an address literal under that literal, which no other site can be).
    """
    if not host:
        return False
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8000
        name = host[1 : host.find("]")] if "]" in host else host[1:]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    if not name:
        return False
    if name in allowed or name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def hosts_of(origins: Collection[str]) -> set[str]:
    """The host names of configured origins (``https://cards.example.org`` ->
    ``cards.example.org``): the names the Host header may have besides the defaults."""
    names = set()
    for origin in origins:
        name = urlsplit(origin.strip().lower()).hostname
        if name:
            names.add(name)
    return names
