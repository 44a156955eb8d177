"""A seat's view and the events it saw, as short lines a person can read.

The observation and information-state strings of the environments (and PettingZoo's
``ansi`` rendering) are written here from the engine's own JSON: the view of a seat
(``state.view(seat)``, the one place that decides what a seat sees) and its events
(``events_for``). Nothing here names a game: a view is a dict of fields, each written as
``field: value`` with cards and lists joined by spaces and seats by name, so a game's new
field is written too. The text is a function of the JSON alone: equal views give equal
strings (what OpenSpiel asks of an observation string), and a hidden card never appears
unless the JSON shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummoli.envs.table import Table

#: Fields of a view or an event that hold a seat's index (written by name).
SEAT_FIELDS = frozenset(
    (
        "to_move",
        "dealer",
        "turn",
        "leader",
        "round_winner",
        "high_bidder",
        "taken_by",
        "winner",
        "match_winner",
        "poker_winners",
        "passed",
        "player",
    )
)
#: Fields of a view whose dict is keyed by seat (written by name).
SEAT_KEYED_FIELDS = frozenset(("shown",))
#: Fields of an event written as bare values (``lay p0 4C``), the others as ``name=value``.
BARE_FIELDS = frozenset(("player", "card", "cards", "hand"))
#: Fields of a view left out of its text: the header says them.
HEADER_FIELDS = ("game", "seat", "phase", "round", "hand_no")

#: The lines of an event already written, by (event, seat, names): an information
#: state is rewritten at every call from the whole log, and an event's lines never change.
_EVENT_LINES: dict[tuple[Any, ...], list[str]] = {}
_EVENT_LINES_MAX = 200_000


def _seat(value: Any, names: Sequence[str]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, list):
        return [_seat(v, names) for v in value]
    return value


def value_text(value: Any, names: Sequence[str], key: str = "") -> str:
    """One field's value: lists joined by spaces (lists of lists and of dicts by `` | ``),
    dicts as ``name value`` pairs, seats by name, nothing as ``-``."""
    kind = type(value)
    if kind is str:
        return value  # type: ignore[no-any-return]
    if key in SEAT_FIELDS:
        value = _seat(value, names)
        kind = type(value)
    if value is None:
        return "-"
    if kind is bool:
        return "yes" if value else "no"
    if kind is dict or isinstance(value, Mapping):
        keyed = key in SEAT_KEYED_FIELDS
        parts = [
            f"{_seat(int(k), names) if keyed and str(k).isdigit() else k} {value_text(v, names, k)}"
            for k, v in value.items()
        ]
        return ", ".join(parts) if parts else "-"
    if kind is list or kind is tuple:
        if not value:
            return "-"
        if all(type(v) is str for v in value):
            return " ".join(value)
        if all(isinstance(v, (dict, list)) for v in value):
            return " | ".join(value_text(v, names) for v in value)
        return " ".join(value_text(v, names) for v in value)
    return str(value)


def view_text(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """A seat's (or a spectator's) view: a header line, then one line per field (in
    the view's own order: the engine writes every view of a game the same way)."""
    head = []
    for key in ("round", "hand_no"):
        if key in view:
            head.append(f"{'round' if key == 'round' else 'hand'} {view[key]}")
    if "phase" in view:
        head.append(str(view["phase"]))
    if view.get("seat") is not None:
        head.append(f"seen by {_seat(view['seat'], names)}")
    lines = [", ".join(head)] if head else []
    for key, value in view.items():
        if key not in HEADER_FIELDS:
            lines.append(f"{key}: {value_text(value, names, key)}")
    return "\n".join(lines)


def event_text(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """An event's JSON as one short line: its type, then its fields (``lay p0 4C``,
    ``call p1 all_in=no chips=10 total=20``: the player first)."""
    parts = [str(event.get("type", "?"))]
    for key in sorted(event, key=lambda k: (k != "player", k)):
        if key == "type":
            continue
        text = value_text(event[key], names, key)
        parts.append(text if key in BARE_FIELDS else f"{key}={text}")
    return " ".join(parts)


def event_lines(event: Any, seat: int | None, names: Sequence[str], events_for: Any) -> list[str]:
    """The lines ``seat`` (None: a spectator) reads of one engine event (none when it
    may not see it), written once per event and seat."""
    key = (event, seat, tuple(names))
    try:
        return _EVENT_LINES[key]
    except KeyError:
        pass
    except TypeError:  # an event holding something unhashable: written every time
        return [event_text(shown, names) for shown in events_for([event], seat, names)]
    lines = [event_text(shown, names) for shown in events_for([event], seat, names)]
    if len(_EVENT_LINES) >= _EVENT_LINES_MAX:
        _EVENT_LINES.clear()
    _EVENT_LINES[key] = lines
    return lines


def private_part(mine: Any, public: Any) -> Any:
    """What of a seat's view ``mine`` a spectator's view ``public`` does not show: the
    fields that differ, dicts compared field by field (None: nothing)."""
    if isinstance(mine, Mapping) and isinstance(public, Mapping):
        out = {}
        for key, value in mine.items():
            if key in ("game", "seat"):
                continue
            if key not in public:
                out[key] = value
                continue
            inner = private_part(value, public[key])
            if inner is not None:
                out[key] = inner
        return out or None
    if mine == public:
        return None
    return mine


def seen_lines(
    entries: Sequence[tuple[int, Any]], seat: int, names: Sequence[str], events_for: Any
) -> list[str]:
    """The lines of an information state that a table's log ``entries`` (``(-1, an
    engine event)`` or ``(seat, its decision's text)``) give ``seat``: the events it may
    see and its own decisions (``me: ...``)."""
    lines: list[str] = []
    for who, item in entries:
        if who < 0:
            lines.extend(event_lines(item, seat, names, events_for))
        elif who == seat:
            lines.append(f"me: {item}")
    return lines


def seen_part(
    log: Sequence[tuple[int, Any]],
    seat: int,
    public: bool,
    names: Sequence[str],
    events_for: Any,
) -> list[str]:
    """Of :func:`seen_lines`, the public lines (``public``: a spectator's), or the rest
    (what only ``seat`` saw, and its decisions)."""
    lines: list[str] = []
    for who, item in log:
        if who < 0:
            shown = event_lines(item, None, names, events_for)
            if public:
                lines.extend(shown)
            else:
                lines.extend(
                    line for line in event_lines(item, seat, names, events_for) if line not in shown
                )
        elif who == seat and not public:
            lines.append(f"me: {item}")
    return lines


def table_text(table: Table, seat: int, public: bool, private: bool) -> str:
    """A table's observation string for ``seat`` (:meth:`Table.observation_string`): a
    header of the table's phase, then the engine's view of the seat, or of a spectator
    (``public`` only), or what of the seat's a spectator does not see (``private`` only)."""
    from rummoli.envs.table import DEAL, PHASES

    if not (public or private):
        return ""
    head = f"{table.description.title}: {PHASES[table.phase]}, game round {table.rounds + 1}"
    if table.phase == DEAL:
        head += f", {len(table.drawn)} cards dealt"
    lines = [head] if public else []
    engine = table.engine
    if engine is not None:
        if public and private:
            view = engine.view(seat)
        elif public:
            view = engine.view(None)
        else:
            view = private_part(engine.view(seat), engine.view(None)) or {}
        if view:
            lines.append(view_text(view, table.names))
    return "\n".join(lines)
