"""A table's chat and reactions: who may say what on which channel, and who reads it.

Two channels per table:

- ``players``: the seated players talk among themselves. Spectators read it only if
  the host opens it to them (``players_chat_public``);
- ``spectators``: the spectators talk among themselves; a player reads it only if he
  turns it on for himself (``listen``), so watchers' remarks never reach a player who
  did not ask.

A line is plain text (at most :data:`.protocol.MAX_CHAT` characters: :func:`clean_text`
says what it may hold), or a reaction (one of :data:`.protocol.EMOTES`). A chat is
bounded however many send to it (:func:`refusal`, in the connection's reader, before the
room's queue): each line draws on its connection's budget, its address's and its
table's channel's (:class:`.limits.Limits`); a table keeps its latest lines in memory
(``chat_kept``) and stores a bounded number a game (``chat_stored``); a finished game's
chat takes no more lines. Anyone may mute a sender for himself (:mod:`.people`: the mute
follows the person). Names are the seats' names (the players') or a spectator's chosen
name, checked as players' names are; the page writes them as text, like every name.

Each line is stored with the game before anyone reads it, in the same group commit as
the actions (:meth:`.hub.Hub.store_chat`), and a finished game's replay includes its chat
for its players only (their seat token proves it). Nothing in a chat frame comes from the
game state: it cannot carry a card the sender could not type.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummoli.i18n import N_
from rummoli.web.limits import take
from rummoli.web.names import invisible
from rummoli.web.protocol import RateLimiter
from rummoli.web.storage import OVER, ChatLine
from rummoli.web.wording import Worded

if TYPE_CHECKING:
    from rummoli.web.client import Client
    from rummoli.web.limits import Limits
    from rummoli.web.room import Room

PLAYERS = "players"
SPECTATORS = "spectators"
#: Chat lines a connection gets when it arrives (the latest it may read).
CHAT_LOG = 100
#: Combining marks a chat line may stack on one letter (Vietnamese and pointed Hebrew
#: need two or three; the 299 of a "zalgo" line drew over the lines around it).
MAX_CHAT_MARKS = 3
#: Joiners kept inside a word or an emoji sequence (a family emoji, Persian words).
JOINERS = frozenset({"\u200c", "\u200d"})
#: Emoji tag characters (a subdivision flag: England's), after the black flag.
_TAGS = range(0xE0020, 0xE0080)


class ChatError(Worded):
    """A line that cannot be said; ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str, /, **params: object) -> None:
        super().__init__(message, **params)
        self.code = code


@dataclass(slots=True)
class ChatLog:
    """A table's chat: its latest lines (``lines``, at most ``kept``), how many it has
    stored (``count``, the next line's index), and each channel's budget."""

    lines: deque[ChatLine]
    count: int
    limits: Limits
    buckets: dict[str, RateLimiter] = field(default_factory=dict)

    @classmethod
    def of(cls, stored: list[ChatLine], limits: Limits) -> ChatLog:
        count = stored[-1].idx + 1 if stored else 0
        return cls(deque(stored[-limits.chat_kept :], maxlen=limits.chat_kept), count, limits)

    def next_index(self) -> int:
        return self.count

    def full(self) -> bool:
        return self.count >= self.limits.chat_stored

    def allow(self, channel: str) -> bool:
        """Whether the table's ``channel`` takes one more line now."""
        limits = self.limits
        return take(self.buckets, channel, limits.chat_table_burst, limits.chat_table_per_second)


def _refused_character(text: str, i: int) -> bool:
    """Whether ``text[i]`` may not be in a line: controls, formats (a ``\\u202e`` would
    turn the rest of the page around), private use, separators; but a joiner inside a
    word or an emoji sequence, and an emoji's tags, are kept."""
    ch = text[i]
    category = unicodedata.category(ch)
    if category not in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp"):
        return False
    if ch in JOINERS:
        before = text[i - 1] if i > 0 else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        return before.isspace() or after.isspace() or before in JOINERS or after in JOINERS
    if ord(ch) in _TAGS or ord(ch) == 0xE007F:
        return "\U0001f3f4" not in text[max(0, i - 8) : i]
    return True


def visible(ch: str) -> bool:
    """Whether ``ch`` draws something: not a space, a mark or an invisible character."""
    return not (ch.isspace() or invisible(ch) or unicodedata.category(ch).startswith("M"))


def clean_text(text: str) -> str:
    """A chat line as it is kept: NFC, with nothing that draws outside its line or
    nothing at all (see :func:`_refused_character`, :data:`MAX_CHAT_MARKS`)."""
    text = unicodedata.normalize("NFC", text)
    if any(_refused_character(text, i) for i in range(len(text))):
        raise ChatError("bad_message", N_("a chat message cannot hold control characters"))
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MAX_CHAT_MARKS:
            raise ChatError(
                "bad_message",
                N_("a chat message stacks at most {n} marks on a letter"),
                n=MAX_CHAT_MARKS,
            )
    if not any(visible(ch) for ch in text):
        raise ChatError("bad_message", N_("a chat message must show something"))
    return text


def refusal(room: Room, client: Client, address_allows: bool) -> tuple[str, str] | None:
    """Why a line from ``client`` must be refused now (the connection's own budget was
    drawn already; ``address_allows``: its address's); None: it may be said. In the
    connection's reader, before the room's queue: a flood never reaches the owner."""
    if room.status in OVER:
        return "game_over", N_("the game is over: its chat is closed")
    if not address_allows:
        return "rate_limited", N_("too many chat messages from your address: slow down")
    if room.chat.full():
        return "chat_full", N_("this table's chat is full")
    if not room.chat.allow(channel_of(client)):
        return "rate_limited", N_("the chat is busy: wait a moment")
    return None


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
    "refusal",
    "replay_chat",
    "sender_name",
    "visible",
]
