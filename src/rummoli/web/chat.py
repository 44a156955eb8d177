"""A table's chat and reactions: who may say what on which channel, and who reads it.

Two channels per table:

- ``players``: the seated players talk among themselves. Spectators read it only if
  the host opens it to them (``players_chat_public``);
- ``spectators``: the spectators talk among themselves; a player reads it only if he
  turns it on for himself (``listen``), so watchers' remarks never reach a player who
  did not ask.

A line is plain text (at most :data:`.protocol.MAX_CHAT` characters, control
characters refused), or a reaction (one of :data:`.protocol.EMOTES`). Every connection
has its own budget of lines (a burst, then a slow rate: :class:`.limits.Limits`), and
anyone may mute a sender for himself (the server stops sending him that sender's
lines). Names are the seats' names (the players') or a spectator's chosen name, checked
as players' names are and never a look-alike of a player's; the page writes them as
text, like every name.

Each line is stored with the game before anyone reads it (as actions are), and a
finished game's replay includes its chat for its players only (their seat token proves
it). Nothing in a chat frame comes from the game state: it cannot carry a card the
sender could not type.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummoli.i18n import N_
from rummoli.web.storage import ChatLine
from rummoli.web.wording import Worded

if TYPE_CHECKING:
    from rummoli.web.client import Client
    from rummoli.web.room import Room

PLAYERS = "players"
SPECTATORS = "spectators"
#: Chat lines a connection gets when it arrives (the latest it may read).
CHAT_LOG = 100


class ChatError(Worded):
    """A line that cannot be said; ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str, /, **params: object) -> None:
        super().__init__(message, **params)
        self.code = code


@dataclass(slots=True)
class ChatLog:
    """A table's chat so far, in order."""

    lines: list[ChatLine] = field(default_factory=list)

    def next_index(self) -> int:
        return self.lines[-1].idx + 1 if self.lines else 0


def clean_text(text: str) -> str:
    """A chat line as it is kept: NFC, no control or format characters (a line of
    ``\\u202e`` would turn the rest of the page's text around)."""
    text = unicodedata.normalize("NFC", text)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp") for ch in text):
        raise ChatError("bad_message", N_("a chat message cannot hold control characters"))
    return text


def may_read(room: Room, client: Client, channel: str) -> bool:
    """Whether ``client`` reads ``channel`` now."""
    if channel == PLAYERS:
        return client.seat is not None or room.players_chat_public
    return client.seat is None or client.listen_spectators


def channel_of(client: Client) -> str:
    """The channel a connection writes to: players write to the players', spectators to
    the spectators'."""
    return PLAYERS if client.seat is not None else SPECTATORS


def sender_name(room: Room, client: Client) -> str:
    if client.seat is not None:
        return room.seats[client.seat].name or f"Seat {client.seat + 1}"
    return client.name or f"Spectator {client.sender[1:]}"


def deliver(room: Room, line: ChatLine) -> None:
    """Send a stored line to every connection that reads its channel and has not muted
    its sender."""
    frame: str | None = None
    for client in list(room.clients):
        if line.sender in client.muted or not may_read(room, client, line.channel):
            continue
        if frame is None:
            from rummoli.web.client import encode

            frame = encode(line.to_json())
        client.send(frame)


def history_for(room: Room, client: Client) -> list[dict[str, Any]]:
    """The latest lines this connection may read (for its first frame)."""
    lines = [
        line
        for line in room.chat.lines
        if may_read(room, client, line.channel) and line.sender not in client.muted
    ]
    return [line.to_json() for line in lines[-CHAT_LOG:]]


def replay_chat(lines: list[ChatLine]) -> list[dict[str, Any]]:
    """A finished game's chat, for its players' replay."""
    return [line.to_json() for line in lines]


__all__ = [
    "CHAT_LOG",
    "PLAYERS",
    "SPECTATORS",
    "ChatError",
    "ChatLog",
    "channel_of",
    "clean_text",
    "deliver",
    "history_for",
    "may_read",
    "replay_chat",
    "sender_name",
]
