"""Playing a position by a list of choices: the loop every game's scenario runner shares.

Each choice is an action text, optionally after the deciding player's name and a colon
(``"Bob: bid 5"``); chance steps are taken by the game's seed, and once the choices run
out every decision takes the first legal action in canonical order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rummoli.engine.base import CHANCE, CHANCE_ACTION, Event, GameError

#: Far more decisions than a Rummoli round or a Rummy hand can take (52 cards, a few bids,
#: bets or melds a turn, two passes through a stock); only an engine bug that never ends
#: the play could reach it.
MAX_STEPS = 10_000


class _Playable(Protocol):
    @property
    def names(self) -> tuple[str, ...]: ...

    def current_player(self) -> int: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> list[Event]: ...

    def action_to_text(self, action: int) -> str: ...

    def action_from_text(self, text: str) -> int: ...


def choice_action(
    state: _Playable, choice: object, label: str, error: type[Exception], example: str
) -> int:
    """The action a choice names, after checking that its player (if named) decides now.

    The player's name is everything before the last colon: no action text has one, while
    a name may. Problems raise ``error`` with a message that starts with ``label``.
    """
    if not isinstance(choice, str):
        raise error(f"{label}: a choice must be text such as {example!r}")
    name, colon, text = choice.rpartition(":")
    if colon:
        name = name.strip()
        if name not in state.names:
            raise error(f"{label}: no player is called {name!r}")
        deciding = state.names[state.current_player()]
        if name != deciding:
            legal = ", ".join(state.action_to_text(a) for a in state.legal_actions()[:12])
            raise error(
                f"{label}: it is {deciding}'s decision now, not "
                f"{name}'s ({deciding} decides among: {legal})"
            )
    try:
        return state.action_from_text(text.strip())
    except GameError as exc:
        raise error(f"{label}: {exc}") from None


def play_choices(
    state: _Playable,
    choices: Sequence[object],
    to_json: Callable[[Event, Sequence[str]], dict[str, Any]],
    *,
    error: type[Exception],
    example: str,
    unit: str,
) -> list[dict[str, Any]]:
    """Play ``state`` to its end by ``choices``; returns every event as JSON.

    ``unit`` names what is played ("round", "hand") in the messages; a choice that is
    illegal, names the wrong player or is left over raises ``error``.
    """
    events: list[dict[str, Any]] = []
    used = 0
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        label = ""
        if state.current_player() == CHANCE:
            action = CHANCE_ACTION
        elif used < len(choices):
            label = f"choice {used + 1} ({choices[used]!r})"
            action = choice_action(state, choices[used], label, error, example)
            used += 1
        else:
            legal = state.legal_actions()
            if not legal:
                raise RuntimeError(f"the engine offers no legal action: {state!r}")
            action = legal[0]
        try:
            new = state.apply(action)
        except GameError as exc:
            if not label:  # the engine refused its own chance or default action
                raise
            raise error(f"{label}: {exc}") from None
        events.extend(to_json(event, state.names) for event in new)
    else:
        raise RuntimeError(f"the {unit} did not end within {MAX_STEPS} steps: {state!r}")
    if used < len(choices):
        left = len(choices) - used
        raise error(
            f"{left} choice{'s' if left > 1 else ''} left over after the {unit} ended, "
            f"from choice {used + 1} ({choices[used]!r})"
        )
    return events
