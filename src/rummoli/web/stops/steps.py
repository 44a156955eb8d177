"""A run's steps as the Stops family's frames send them: each seat's patch of the final
view, made once for what every seat sees alike.

A run shown card by card (:mod:`rummoli.web.runs`) sends, for every step but the last,
each seat's view of that step as a patch of its frame's view (the final one). Made the
plain way, that is every seat's whole view of every step, then a diff of each against
its final view: about twenty steps a run, four seats or more, most of a Stops action's
CPU on the web table. But a family view is the spectator's view with the seat's own keys
(:func:`rummoli.games.stops.view.seat_view_for`): only ``seat`` and ``widow`` in place,
the hand (and the poker hand, the choices, the board's layout) after every key the table
sees alike. So :class:`StepPatches` makes, for each step:

- the spectator's view once, from the final one (``observation_to_view``'s ``later``:
  the laid cards are the first of the final view's, shared with it, so comparing them
  is by identity, not card by card), and its patch against the final spectator's view
  once, in its parts (:func:`rummoli.web.patch.dict_parts`);
- for each seat, its own keys alone patched, and joined to that
  (:func:`rummoli.web.patch.joined`).

The same patches, key for key, as diffing each seat's whole views (a property test over
random games of every family game checks it, ``tests/web/test_web_step_patches.py``).
Where the split would not hold (a seat's frame view that is not made of the final
spectator's view, a widow only that seat knows changing, keys that are the table's in
one view and the seat's in the other) that seat's patch is the plain diff.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any

from rummoli.games.stops.state import StopsState
from rummoli.games.stops.view import (
    Observation,
    build_observation,
    observation_to_view,
    seat_own,
    seat_view_for,
)
from rummoli.web.patch import Parts, Patch, Shared, dict_parts, diff_shared, joined
from rummoli.web.stops.views import finish

#: The keys of a family view that a seat's view sets in place (the rest of the table's
#: keys it holds as the spectator's view has them).
_IN_PLACE = ("seat", "widow")


class StepPatches:
    """Each seat's patch of a run's steps (:attr:`rummoli.web.games.WebPart.step_patches`):
    made once a run from its final state, the seats and their frame views; called with
    each step's state, in any order."""

    __slots__ = ("_final", "_finals", "_last", "_own", "_public_widow", "_seats")

    def __init__(
        self, final: StopsState, seats: Sequence[int | None], finals: Sequence[dict[str, Any]]
    ) -> None:
        obs = build_observation(final, None)
        obs.legal = ()
        view = observation_to_view(obs)
        self._final: tuple[Observation, dict[str, Any]] = (obs, view)
        self._seats = list(seats)
        self._finals = list(finals)
        #: Each seat's own keys of its frame view (those after the table's), or None:
        #: its frame view is not the final spectator's with its own keys (diff it whole).
        self._own: list[dict[str, Any] | None] = []
        # Every seat's frame view holds the same objects for what the table sees alike
        # (:func:`.views.seat_views`): those of the first one found right are not
        # compared again.
        like: dict[str, Any] | None = None
        for seat, mine in zip(seats, finals, strict=True):
            own = _own_keys(view, seat, mine, like)
            self._own.append(own)
            if own is not None and like is None:
                like = mine
        #: Whether each seat's frame view shows the widow as the spectator's does.
        self._public_widow = [mine.get("widow") == view["widow"] for mine in finals]
        #: Each seat's own keys at the step before, and their parts.
        self._last: list[tuple[dict[str, Any], Parts] | None] = [None] * len(self._seats)

    def __call__(self, state: StopsState) -> list[Patch]:
        """Each seat's patch (in :attr:`_seats`' order) that makes its view of ``state``
        (without choices, nobody to move) from its frame view."""
        final_view = self._final[1]
        obs = build_observation(state, None)
        obs.legal = ()
        public = observation_to_view(obs, self._final)
        public["to_move"] = None
        shared = dict_parts(final_view, public)
        same_keys = public.keys() == final_view.keys()
        widow_unchanged = public["widow"] == final_view["widow"]
        memo: Shared = {}
        patches: list[Patch] = []
        for i, seat in enumerate(self._seats):
            widow: dict[str, Any] | None = None
            if seat is None:
                mine = finish(state, {}, ())
            else:
                widow, mine, _ = seat_own(public, obs, state, seat)
                finish(state, mine, ())
            final = self._finals[i]
            own = self._own[i]
            if (
                own is None
                or not _splits(public, final_view, own, mine, same_keys)
                or not (
                    (widow is None and self._public_widow[i])
                    or (widow_unchanged and (widow or public["widow"]) == final["widow"])
                )
            ):
                patches.append(diff_shared(final, _view(state, public, obs, seat), memo))
                continue
            # A seat's own keys are mostly what they were at the step before (only the
            # player who laid a card has another hand): their parts are kept.
            last = self._last[i]
            if last is None or last[0] != mine:
                last = self._last[i] = (mine, dict_parts(own, mine))
            patches.append(joined(shared, last[1]))
        return patches


def _view(
    state: StopsState, public: dict[str, Any], obs: Observation, seat: int | None
) -> dict[str, Any]:
    """A seat's whole view of a step, as :func:`.views.seat_views` makes it without choices
    (the plain way: a seat whose patch is not made from the parts)."""
    if seat is None:
        return finish(state, dict(public), ())
    return finish(state, seat_view_for(public, obs, state, seat)[0], ())


def _own_keys(
    view: dict[str, Any],
    seat: int | None,
    mine: dict[str, Any],
    like: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """``mine``'s keys after those of ``view`` (the final spectator's view), when ``mine``
    holds ``view``'s keys first, in its order, with its values, ``seat`` as its seat (a
    widow of its own aside: see :meth:`StepPatches.__call__`); else None. ``like``: a
    frame view found so already, whose values ``mine`` need not be compared with again."""
    size = len(view)
    if len(mine) < size or list(islice(mine, size)) != list(view) or mine["seat"] != seat:
        return None
    for key, value in view.items():
        if key in _IN_PLACE:
            continue
        held = mine[key]
        if (like is None or held is not like[key]) and held != value:
            return None
    return dict(islice(mine.items(), size, None))


def _splits(
    public: dict[str, Any],
    final_view: dict[str, Any],
    own: dict[str, Any],
    mine: dict[str, Any],
    same_keys: bool,
) -> bool:
    """Whether a seat's own keys are its own in both views: none of the final's is the
    step spectator's, none of the step's the final spectator's (always so when the two
    spectator views have the same keys: a dict holds a key once)."""
    if same_keys:
        return True
    return not any(key in public for key in own) and not any(key in final_view for key in mine)


__all__ = ["StepPatches"]
