"""Who is who at a table: a stable id per person, his chat name, his mutes, the bans.

A connection is not a person: one comes back after a reload, another has two tabs open.
What the chat says about someone must follow the person, or it is dodged by reconnecting
(a mute was per connection, so a muted spectator was heard again after a reload, and two
spectators could share a name). So each table keeps its :class:`People`:

- a **player** is his seat (sender ``p2``);
- a **spectator** is his browser: the page keeps a random id (``rummoli.person`` in
  ``localStorage``, 128 bits) and sends it in its hello (``"person"``); the table knows
  him by its SHA-256, gives him a sender id of his own (``s5``) and keeps his chat name
  for as long as it remembers him (:data:`REMEMBERED` spectators, the longest gone first
  forgotten). A client that sends no id is a person for one connection;
- **mutes** are the person's (every tab of his sees them), at most :data:`MAX_MUTED`,
  told as changes (``{"type": "muted", "who", "on", "count"}``), never the whole list
  again;
- a **spectator's name** is checked like a player's against the seats and every other
  spectator the table remembers: nobody else may chat under it, or under a look-alike;
- the host's **bans** (``remove``): the removed seat's name (and its look-alikes), its
  seat token and the browsers it was connected from may not sit again, nor watch; they
  are stored with the game (``games.banned``), so a restart keeps them.

The id is a browser's own secret: it is never sent to anyone else (others see ``s5``).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from rummoli.web.names import skeletons
from rummoli.web.security import hash_token

#: Senders a person may mute at most.
MAX_MUTED = 100
#: Spectators a table remembers (names, mutes); past it the one gone longest is forgotten.
REMEMBERED = 1000


@dataclass(slots=True, eq=False)
class Person:
    """One person at a table: his sender id in the chat, his chat name, whom he mutes."""

    sender: str
    name: str | None = None
    muted: set[str] = field(default_factory=set)
    #: His open connections (a spectator is forgotten only once none is left).
    connections: int = 0


@dataclass(slots=True)
class Bans:
    """What the host removed from the table: names, seat tokens' and browsers' hashes."""

    names: list[str] = field(default_factory=list)
    tokens: set[str] = field(default_factory=set)
    browsers: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> Bans:
        data = data or {}
        return cls(
            list(data.get("names", [])), set(data.get("tokens", [])), set(data.get("browsers", []))
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "tokens": sorted(self.tokens),
            "browsers": sorted(self.browsers),
        }

    def name_banned(self, name: str) -> bool:
        """Whether ``name`` reads like a removed person's."""
        mine = skeletons(name)
        return any(skeletons(banned) & mine for banned in self.names)

    def token_banned(self, token: str | None) -> bool:
        return token is not None and hash_token(token) in self.tokens

    def browser_banned(self, browser: str | None) -> bool:
        return browser is not None and hash_token(browser) in self.browsers


class People:
    """A table's persons (see the module's doc)."""

    def __init__(self) -> None:
        self._players: dict[int, Person] = {}
        self._spectators: OrderedDict[str, Person] = OrderedDict()
        self._numbered = 0

    def player(self, seat: int) -> Person:
        found = self._players.get(seat)
        if found is None:
            found = self._players[seat] = Person(f"p{seat}")
        return found

    def spectator(self, browser: str | None) -> Person:
        """The spectator of this browser id (a new one for None: one connection)."""
        self._numbered += 1
        key = f"connection:{self._numbered}" if browser is None else hash_token(browser)
        found = self._spectators.get(key)
        if found is None:
            found = self._spectators[key] = Person(f"s{self._numbered}")
            self._forget()
        self._spectators.move_to_end(key)
        return found

    def _forget(self) -> None:
        """Past :data:`REMEMBERED`, the spectators gone longest are forgotten."""
        while len(self._spectators) > REMEMBERED:
            for key, person in self._spectators.items():
                if person.connections == 0:
                    del self._spectators[key]
                    break
            else:
                return  # all connected: the connection limits bound them already

    def spectator_names(self, but: Person | None = None) -> list[str]:
        """The chat names spectators have taken (``but``'s own left out)."""
        return [p.name for p in self._spectators.values() if p.name and p is not but]

    def spectator_of(self, browser: str) -> Person | None:
        """The spectator this browser id was, if the table remembers him."""
        return self._spectators.get(hash_token(browser))


def mute(person: Person, sender: str, on: bool) -> bool:
    """Mute (or hear again) ``sender`` for ``person``; False past :data:`MAX_MUTED`."""
    if not on:
        person.muted.discard(sender)
        return True
    if sender not in person.muted and len(person.muted) >= MAX_MUTED:
        return False
    person.muted.add(sender)
    return True


__all__ = [
    "MAX_MUTED",
    "REMEMBERED",
    "Bans",
    "People",
    "Person",
    "mute",
]
