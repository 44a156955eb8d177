"""A seat's legal actions as the frames offer them: discrete choices, and ranges.

The engine lists every legal action, one integer each: a bid of 5, of 6, ... up to all
of a player's chips. Sent as such, a bidder's frame grew with the chips in the game (40.9
MB at a million chips). Frames instead offer a continuous choice (a bid, a raise) as one
item, a **range**::

    {"kind": "bid", "text": "bid", "min": 5, "max": 812, "step": 1, "action": 117}

meaning: any amount ``n`` from ``min`` to ``max`` with ``(n - min) % step == 0``, and
the action of amount ``n`` is ``action + (n - min)``. Discrete choices stay as they were:
``{"action": 3, "text": "pass"}``. The engine's integer actions are unchanged: a client
sends the integer, and the server checks it against the engine's ``legal_actions()``.

Which actions form a range is the game's to say (its web part's ``amount_of``: an action
to ``(kind, amount)``, or None for a discrete one; or, where each choice is a block of
action numbers, those blocks: :func:`offered_blocks`); this module only groups them, for
any game.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: An action's continuous choice and amount (``("bid", 12)``), or None if it is discrete.
AmountOf = Callable[[int], tuple[str, int] | None]
#: A continuous choice as a block of action numbers: ``(start, end, kind)``, the action
#: ``start + n`` (below ``end``) being the amount ``n`` of ``kind``.
Block = tuple[int, int, str]


def offered(
    actions: Iterable[int], amount_of: AmountOf, text_of: Callable[[int], str]
) -> list[dict[str, Any]]:
    """``actions`` (in the engine's order) as frames offer them: runs of actions of one
    kind whose amounts step evenly become one range; every other action stays itself."""
    items: list[dict[str, Any]] = []
    run: dict[str, Any] | None = None
    for action in actions:
        amount = amount_of(action)
        if amount is None:
            run = None
            items.append({"action": action, "text": text_of(action)})
            continue
        kind, value = amount
        if run is not None and run["kind"] == kind:
            step = value - run["max"]
            if run["count"] == 1 and step > 0 and action - run["last"] == step:
                run["step"] = step
            if step == run["step"] and action - run["last"] == step:
                run["max"] = value
                run["last"] = action
                run["count"] += 1
                continue
        run = {
            "kind": kind,
            "text": kind,
            "min": value,
            "max": value,
            "step": 1,
            "action": action,
            "last": action,
            "count": 1,
        }
        items.append(run)
    for item in items:
        item.pop("last", None)
        item.pop("count", None)
    return items


def offered_blocks(
    actions: Sequence[int], blocks: Sequence[Block], text_of: Callable[[int], str]
) -> list[dict[str, Any]]:
    """:func:`offered` of ``actions`` whose continuous choices are ``blocks`` (in order,
    apart, each of its own kind): the same items, made without a call per action. A
    bidder's actions are hundreds of amounts (thousands at the largest settings), every
    one looked at in Python by :func:`offered`; here each block's actions are found by
    bisection, and a block that steps evenly, as bids and raises do, is one range after
    one comparison. Actions out of order are left to :func:`offered` itself."""
    if sorted(actions) != list(actions):  # (at C speed, as the rest)
        return offered(actions, _amounts(blocks), text_of)
    items: list[dict[str, Any]] = []
    done = 0
    for start, end, kind in blocks:
        low = bisect_left(actions, start, done)
        high = bisect_left(actions, end, low)
        items.extend({"action": a, "text": text_of(a)} for a in actions[done:low])
        if high > low:
            first, count = actions[low], high - low
            step = actions[low + 1] - first if count > 1 else 1
            if step > 0 and list(actions[low:high]) == list(
                range(first, first + step * count, step)
            ):
                value = first - start
                items.append(
                    {
                        "kind": kind,
                        "text": kind,
                        "min": value,
                        "max": value + step * (count - 1),
                        "step": step,
                        "action": first,
                    }
                )
            else:
                items.extend(offered(actions[low:high], _amounts([(start, end, kind)]), text_of))
        done = high
    items.extend({"action": a, "text": text_of(a)} for a in actions[done:])
    return items


def _amounts(blocks: Sequence[Block]) -> AmountOf:
    """``amount_of`` for :func:`offered`, of actions whose continuous choices are ``blocks``."""

    def amount_of(action: int) -> tuple[str, int] | None:
        for start, end, kind in blocks:
            if start <= action < end:
                return kind, action - start
        return None

    return amount_of


def action_for(item: dict[str, Any], amount: int) -> int:
    """The action of ``amount`` in a range item (what a client computes to send it)."""
    return int(item["action"]) + (amount - int(item["min"]))


__all__ = ["AmountOf", "Block", "action_for", "offered", "offered_blocks"]
