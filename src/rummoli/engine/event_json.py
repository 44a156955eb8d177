"""Events as JSON, and which seat may see which: one converter for every game.

An event is a tuple whose first item names its kind (:data:`rummoli.engine.base.Event`);
people and the wire get it as a JSON object, ``{"type": kind, field: value, ...}``. Each
game says how in a table of its own, given to :class:`EventFormat`:

- ``fields``: for each kind of event, the names of its fields in order, each optionally
  with a conversion after a colon (``"dealer:player"``: the field ``dealer``, written as
  a player); a field without one is converted by its own name (``"card"`` as a card);
- ``conversions``: what each conversion name does to a value, given the players' names.
  A name the table does not list leaves the value as it is (chips, counts, flags);
- ``private``: the events only one seat may see, with the index of that seat in the
  event; every other event is public.

The shared conversions below (a seat as its name, a card as text, a tuple by seat as a
mapping from names) are what both games mean; how a hand of cards is ordered, or a seat
of -1 written, is each game's own, so each game's table names its own functions.

Why one module: both games built ``event_to_json``, ``events_for`` and
``visible_events`` the same way from their tables; here that is written once. Each
game's ``view`` module keeps those public functions, made from its own
:class:`EventFormat`. The table is read once, when the format is made, into a plan per
kind of event, so converting an event parses no field names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rummoli.cards import card_str
from rummoli.engine.base import Event

#: A conversion: the event's value and the players' names -> the JSON value.
Conversion = Callable[[Any, Sequence[str]], Any]


def seat_name(seat: int, names: Sequence[str]) -> str:
    """A seat, as the player's name."""
    return names[seat]


def seat_names(seats: Sequence[int], names: Sequence[str]) -> list[str]:
    """Seats, as the players' names, in order."""
    return [names[s] for s in seats]


def card_text(card: int, names: Sequence[str]) -> str:
    """A card, as text (``"QS"``)."""
    return card_str(card)


def by_player(values: Sequence[Any], names: Sequence[str]) -> dict[str, Any]:
    """A value per seat, as a mapping from the players' names."""
    return dict(zip(names, values, strict=True))


class EventFormat:
    """One game's way of writing its events as JSON, and of telling who may see them."""

    __slots__ = ("_plans", "private")

    def __init__(
        self,
        fields: Mapping[str, tuple[str, ...]],
        conversions: Mapping[str, Conversion],
        private: Mapping[str, int],
    ) -> None:
        #: Events only one seat may see, with the index of that seat in the event.
        self.private = dict(private)
        #: For each kind: (JSON key, conversion or None for "as it is") per field.
        self._plans: dict[str, tuple[tuple[str, Conversion | None], ...]] = {}
        for kind, specs in fields.items():
            plan = []
            for spec in specs:
                key, _, conversion = spec.partition(":")
                plan.append((key, conversions.get(conversion or key)))
            self._plans[kind] = tuple(plan)

    def is_visible(self, event: Event, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see ``event``."""
        index = self.private.get(event[0])
        return index is None or (seat is not None and event[index] == seat)

    def visible_events(self, events: Iterable[Event], seat: int | None) -> list[Event]:
        """The events ``seat`` (None: a spectator) may see, in order."""
        return [e for e in events if self.is_visible(e, seat)]

    def to_json(self, event: Event, names: Sequence[str]) -> dict[str, Any]:
        """An event as JSON, with players by name and cards as text."""
        kind = event[0]
        out: dict[str, Any] = {"type": kind}
        for (key, convert), value in zip(self._plans[kind], event[1:], strict=True):
            out[key] = value if convert is None else convert(value, names)
        return out

    def events_for(
        self, events: Iterable[Event], seat: int | None, names: Sequence[str]
    ) -> list[dict[str, Any]]:
        """The events ``seat`` may see, as JSON."""
        return [self.to_json(e, names) for e in events if self.is_visible(e, seat)]

    def events_for_seats(
        self, events: Iterable[Event], seats: Sequence[int | None], names: Sequence[str]
    ) -> list[list[dict[str, Any]]]:
        """:meth:`events_for` of each of ``seats``, the same lists, each event made JSON
        once for all the seats that see it (a table sends every seat its frame at once).
        The seats' lists share those objects: read them, never change them."""
        out: list[list[dict[str, Any]]] = [[] for _ in seats]
        for event in events:
            index = self.private.get(event[0])
            if index is None:
                item = self.to_json(event, names)
                for mine in out:
                    mine.append(item)
                continue
            owner = event[index]
            for seat, mine in zip(seats, out, strict=True):
                if seat is not None and seat == owner:
                    mine.append(self.to_json(event, names))
        return out
