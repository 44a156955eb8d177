"""Resampling a table: another deal of this round that a seat cannot tell from this one.

Why a module of its own: it is the table's one long algorithm, and it reads the table
only through what any caller may (its history, log and adapter; :class:`Table` keeps
:meth:`~Table.resample_from` and :meth:`~Table.replay_round` as its methods, which call
these). Nothing here names a game: the game's sampler and the cards a seat cannot see
are asked of its adapter. Compiled by mypyc with the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummoli.engine.base import IllegalActionError
from rummoli.envs.table import (
    DEAL,
    DEALER,
    OVER,
    Table,
)

#: Draws of the game's sampler :func:`resample_from` tries (each checked exactly)
#: before its fallback, and the swaps of that fallback's random walk.
RESAMPLE_TRIES = 20
WALK_STEPS = 40
#: Where a resampled table came from (:func:`resample_from`).
SAMPLER, WALK, SAME = "sampler", "walk", "same"


def resample_from(table: Table, seat: int, rng: random.Random) -> tuple[Table, str]:
    """A table ``seat`` cannot tell from this one, and how it was found: never fails.

    1. ``"sampler"``: the game's sampler of hidden cards draws this round's deal (and
       chance) afresh, and the round is replayed so that ``seat`` sees the same
       events and makes the same decisions (:meth:`replay_round`); kept when the
       seat's information state is exactly the same, up to :data:`RESAMPLE_TRIES`
       draws.
    2. ``"walk"``: when every draw failed (a fact the sampler does not know), a random
       walk from this very deal: :data:`WALK_STEPS` swaps of two cards the seat
       cannot see (:meth:`GameAdapter.hidden_cards`), each replayed and kept when the
       seat's information state stays the same. A symmetric proposal kept only
       inside the information set: the walk's deals tend to the uniform draw among
       those reachable by such swaps.
    3. ``"same"``: a walk whose every swap showed the seat something new returns this
       deal itself (a copy): consistent by definition.
    """
    if table.phase in (DEALER, DEAL) or table.engine is None:
        return table.clone(), SAME
    target = table.information_state_string(seat)
    for _ in range(RESAMPLE_TRIES):
        outcomes = table.adapter.resample_round(table, seat, rng)
        if outcomes is None:
            continue
        other = replay_round(table, seat, outcomes)
        if other is not None and other.information_state_string(seat) == target:
            return other, SAMPLER
    return _walk(table, seat, rng, target)


def _walk(table: Table, seat: int, rng: random.Random, target: str) -> tuple[Table, str]:
    """Step 2 and 3 of :meth:`resample_from`."""
    start = table.round_start
    outcomes = [
        a for a, m in zip(table.history[start:], table.movers[start:], strict=True) if m < 0
    ]
    hidden = table.adapter.hidden_cards(table, seat)
    cards = [c for c in range(52) if hidden >> c & 1]
    current: Table | None = None
    if len(cards) >= 2:
        for _ in range(WALK_STEPS):
            a, b = rng.sample(cards, 2)
            swapped = [b if o == a else a if o == b else o for o in outcomes]
            if swapped == outcomes:
                continue  # neither card was dealt or drawn (both still in the stock)
            other = replay_round(table, seat, swapped)
            if other is not None and other.information_state_string(seat) == target:
                outcomes, current = swapped, other
    if current is None:
        return table.clone(), SAME
    return current, WALK


def replay_round(table: Table, seat: int, outcomes: Sequence[int]) -> Table | None:
    """This round again with other chance ``outcomes`` (the deal, then each chance
    node in order): ``seat`` decides as it did; every other seat takes, at each of
    its decisions, an action that shows ``seat`` the same events as it saw (first the
    action it took here, if it still does). None if no such replay exists: a decision
    here may be forced there, and the other way round, since what is forced depends
    on the hidden cards; so the other seats' decisions are matched by what ``seat``
    saw, not by position."""
    start = table.round_start
    target = table.seen(table.round_log(), seat)
    origin = table._origin
    if origin is not None and len(origin.history) == start:
        other = origin.clone()
    else:
        other = Table.replay(table.config, table.history[:start])
    mine = [
        a for a, m in zip(table.history[start:], table.movers[start:], strict=True) if m == seat
    ]
    hints: dict[int, list[int]] = {}
    for action, mover in zip(table.history[start:], table.movers[start:], strict=True):
        if mover >= 0 and mover != seat:
            hints.setdefault(mover, []).append(action)
    chance = list(reversed(outcomes))
    mine.reverse()
    for hint in hints.values():
        hint.reverse()
    position = 0
    while len(other.history) < len(table.history) * 4 + 64:
        if (
            position == len(target)
            and not mine
            and (other.phase == table.phase and other.current_player() == table.current_player())
        ):
            return other
        if other.rounds != table.rounds or other.phase == OVER:
            return None
        if other.is_chance() or other.current_player() == seat:
            # One way on: applied in place (no copy to fall back to is needed).
            given = chance if other.is_chance() else mine
            if not given:
                return None
            before = len(other.log)
            try:
                other.apply(given.pop())
            except IllegalActionError:
                return None
            new = other.seen(other.log[before:], seat)
            if target[position : position + len(new)] != new:
                return None
            position += len(new)
            continue
        hint = hints.get(other.current_player(), [])
        legal = other.legal_actions()
        for action in ([hint[-1]] if hint and hint[-1] in legal else []) + legal:
            trial = other.clone()
            before = len(trial.log)
            trial.apply(action)
            new = trial.seen(trial.log[before:], seat)
            if target[position : position + len(new)] == new:
                if hint and hint[-1] == action:
                    hint.pop()
                position += len(new)
                other = trial
                break
        else:
            return None
    return None
