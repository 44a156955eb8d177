"""An action shown as the steps a family follows: a run of laid cards, card by card.

One action can lay a whole run (the engine plays every forced card inside it). A page
shows such an action one laid card at a time, and at each card the table must be what
the game was then: the chips a pay space gave go to their player when its card is
shown, the centre fills or empties when the round ends, not before. So the server, not
the page, makes each step's view: the game's web part plays the action again one step
at a time (``WebPart.steps``: Rummoli's :func:`rummoli.games.stops.steps.card_by_card`)
and each step's view is the engine's view of that step's state, sent as a patch of the
final view (:mod:`.patch`).

A frame that shows an action in several steps carries ``parts``: for each step, how many
of the frame's ``events`` it shows, and (but for the last, whose view is the frame's
``view``) the patch that makes its view from the frame's view. While a step before the
last is shown nobody is to move: its view has ``to_move`` null and no legal actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rummoli.engine.base import Event
from rummoli.web.games import AnyState, seat_views, seats_events, web_part
from rummoli.web.patch import Patch, Shared, diff_shared


@dataclass(slots=True)
class Steps:
    """A run's steps without a state kept for each: how many of the action's events each
    step shows, the state after the last, and what to play again to walk through the
    others (:meth:`walk`).

    A copy of the state at every step was a tenth of a Stops action's CPU on the web
    table; the steps' views are made once, in order, right after the action
    (:func:`seats_parts`), so the action is played again on one copy instead, and the
    rare reader that needs a step again (a page coming back mid-run) plays it again."""

    game: str
    #: The state before the action (the caller's own copy: never changed here).
    before: AnyState
    action: int
    #: For each step, in order, how many of the action's events it shows.
    counts: list[int]
    #: Where the game was after the action (the last step's state, a copy of its own).
    final: AnyState

    def __len__(self) -> int:
        return len(self.counts)

    def walk(self) -> Iterator[tuple[int, AnyState]]:
        """``(number of events, state after them)`` for each step, in order; the states
        before the last are one copy changed in place by the next step (read what you
        need of one before asking for the next); the last is :attr:`final`."""
        steps = web_part(self.game).steps
        assert steps is not None
        last = len(self.counts) - 1
        for index, (_, state) in enumerate(steps(self.before, self.action)):
            if index == last:
                break
            yield self.counts[index], state
        yield self.counts[last], self.final


@dataclass(slots=True)
class Run:
    """One action shown in several steps: each step's share of the events, and the
    steps themselves (:class:`Steps`; the last's state is where the game was after the
    action)."""

    #: The table's step once the action is shown (``Room.step``).
    step: int
    #: Where the action's events start in the room's log (``Room.events``).
    offset: int
    events: list[Event]
    parts: Steps


def run_parts(game: str, before: AnyState, action: int, events: list[Event]) -> Steps | None:
    """The steps of ``before --action--> events`` as a page shows them, or None when the
    action is shown in one step (no paced event after its first event). ``before`` is
    kept (to play the steps again): the caller gives its own copy and leaves it be."""
    part = web_part(game)
    if part.steps is None or not any(event[0] in part.paced for event in events[1:]):
        return None
    counts: list[int] = []
    final = before
    for chunk, state in part.steps(before, action):
        counts.append(len(chunk))
        final = state
    if len(counts) < 2:
        return None
    # Events the table adds after the engine's (the next forced turn's own notice) are
    # shown with the last step.
    counts[-1] = len(events) - sum(counts[:-1])
    return Steps(game, before, action, counts, final)


def seat_parts(
    game: str,
    parts: Steps,
    events: Sequence[Event],
    seat: int | None,
    names: Sequence[str],
    final: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    """What a frame sends ``seat`` of a run: the events it may see, all of them, and for
    each step ``[count]`` or ``[count, patch]`` (see the module's doc). ``final``: the
    frame's view (the last step's). :func:`seats_parts` for one seat."""
    return seats_parts(game, parts, events, [seat], names, [final])[0]


def seats_parts(
    game: str,
    parts: Steps,
    events: Sequence[Event],
    seats: Sequence[int | None],
    names: Sequence[str],
    finals: Sequence[dict[str, Any]],
) -> list[tuple[list[dict[str, Any]], list[list[Any]]]]:
    """:func:`seat_parts` of each of ``seats`` (``finals``: each one's frame view), the
    same answers, at once: each step's patches are made for every seat together (the
    game's ``WebPart.step_patches``, else :func:`step_patches`), and each event made JSON
    once (:func:`.games.seats_events`)."""
    seen: list[list[dict[str, Any]]] = [[] for _ in seats]
    out: list[list[list[Any]]] = [[] for _ in seats]
    start = 0
    last = len(parts) - 1
    make = web_part(game).step_patches
    patcher = None if make is None else make(parts.final, seats, finals)
    for index, (count, state) in enumerate(parts.walk()):
        chunk = events[start : start + count]
        start += count
        counts = []
        for i, mine in enumerate(seats_events(game, chunk, seats, names)):
            seen[i].extend(mine)
            counts.append(len(mine))
        if index == last:
            for i in range(len(seats)):
                out[i].append([counts[i]])
            continue
        patches = step_patches(game, state, seats, finals) if patcher is None else patcher(state)
        for i, patch in enumerate(patches):
            out[i].append([counts[i], patch])
    return list(zip(seen, out, strict=True))


def step_patches(
    game: str, state: AnyState, seats: Sequence[int | None], finals: Sequence[dict[str, Any]]
) -> list[Patch]:
    """Each of ``seats``' patch of a run's step (``state``) against its frame view (in
    ``finals``), the plain way: the step's views of every seat made together
    (:func:`.games.seat_views`, without choices, nobody to move) and each diffed against
    its frame view, what every seat sees alike patched once (:func:`.patch.diff_shared`).
    A game's web part may make the same patches cheaper (``WebPart.step_patches``: the
    Stops family's :class:`rummoli.web.stops.steps.StepPatches`)."""
    shared: Shared = {}
    patches = []
    for final, view in zip(finals, seat_views(game, state, seats, choices=False), strict=True):
        # A step's view while the rest of its action is still to be shown: nobody to
        # move, no decision offered mid-run.
        view["to_move"] = None
        patches.append(diff_shared(final, view, shared))
    return patches


__all__ = ["Run", "Steps", "run_parts", "seat_parts", "seats_parts", "step_patches"]
