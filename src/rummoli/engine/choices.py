"""Playing a position by a list of choices: the loops every game's scenario runner shares.

Each choice is an action text, optionally after the deciding player's name and a colon
(``"Bob: bid 5"``); chance steps are taken by the game's seed (or the scenario's fixed
cards), and once the choices run out every decision takes the first legal action in
canonical order.

- :func:`play_until`: one round (a Rummy hand) until it ends or a condition holds;
- :func:`play_deals`: a whole game, deal by deal, each with its own choices, and the
  table's request to stop where the scenario asks for it;
- :func:`seat_views`: what every seat and a spectator sees at the end (``"views": true``).

The scenario format's reading and checking, shared too, is :mod:`rummoli.engine.scenario`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from rummoli.engine.base import CHANCE, CHANCE_ACTION, Event, GameError, SetupError

#: Far more decisions than one Rummoli round or Rummy hand can take (52 cards, a few bids,
#: bets or melds a turn; a Rummy hand's turns are bounded by its stall rule, some
#: thousands); only an engine bug that never ends the play could reach it.
MAX_STEPS = 100_000


class Playable(Protocol):
    """What the loops need of a game: the engine protocol, the names, a request to end."""

    @property
    def names(self) -> tuple[str, ...]: ...

    def current_player(self) -> int: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> list[Event]: ...

    def action_to_text(self, action: int) -> str: ...

    def action_from_text(self, text: str) -> int: ...

    def request_end(self) -> None: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...


def choice_action(
    state: Playable, choice: object, label: str, error: type[Exception], example: str
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


def play_until(
    state: Playable,
    choices: Sequence[object],
    done: Callable[[], bool],
    *,
    error: type[Exception],
    example: str,
    unit: str,
    where: str = "",
    after: Callable[[list[Event]], None] | None = None,
) -> list[Event]:
    """Play ``state`` by ``choices`` until ``done()`` (or the game's end); returns the
    events, as the engine made them.

    ``unit`` names what is played ("round", "hand") in the messages, ``where`` prefixes
    them (``"deal 2: "``); ``after`` sees the events of every step. A choice that is
    illegal, names the wrong player or is left over raises ``error``.
    """
    events: list[Event] = []
    used = 0
    for _ in range(MAX_STEPS):
        if state.is_terminal() or done():
            break
        label = ""
        if state.current_player() == CHANCE:
            action = CHANCE_ACTION
        elif used < len(choices):
            label = f"{where}choice {used + 1} ({choices[used]!r})"
            action = choice_action(state, choices[used], label, error, example)
            used += 1
        else:
            legal = state.legal_actions()
            if not legal:
                raise RuntimeError(f"the engine offers no legal action: {state!r}")
            action = legal[0]
        try:
            new = state.apply(action)
        except SetupError as exc:  # the scenario's cards do not fit this moment
            prefix = label or where.rstrip(": ")
            raise error(f"{prefix}: {exc}" if prefix else str(exc)) from None
        except GameError as exc:
            if not label:  # the engine refused its own chance or default action
                raise
            raise error(f"{label}: {exc}") from None
        events.extend(new)
        if after is not None:
            after(new)
    else:
        raise RuntimeError(f"the {unit} did not end within {MAX_STEPS} steps: {state!r}")
    if used < len(choices):
        left = len(choices) - used
        raise error(
            f"{where}{left} choice{'s' if left > 1 else ''} left over after the {unit} "
            f"ended, from choice {used + 1} ({choices[used]!r})"
        )
    return events


def play_deals(
    state: Playable,
    deals: Sequence[tuple[Sequence[object], bool]],
    *,
    round_number: Callable[[], int],
    between_rounds: Callable[[], bool],
    error: type[Exception],
    example: str,
    unit: str,
    after: Callable[[list[Event]], None] | None = None,
    final: Sequence[object] = (),
    final_begun: Callable[[], bool] | None = None,
) -> list[Event]:
    """Play a whole game: deal k (from 1) by the k-th ``(choices, request_end)``, then, when
    the listed deals are played, every further deal by the first legal actions, to the
    game's end. With ``request_end`` the table asks to stop during that deal (the game
    ends after it); a deal listed after the game ended is an error naming it. ``final``:
    the choices of what follows the deals once ``final_begun()`` (Rummoli's settlement
    played with betting); their messages say ``settlement``."""
    events: list[Event] = []
    for number, (choices, stop) in enumerate(deals, start=1):

        def done(number: int = number) -> bool:
            return round_number() == number and between_rounds()

        def begun(number: int = number) -> bool:
            return round_number() >= number

        where = f"deal {number}: "
        # The deal's chance step (and what it forces): the deal begins, or the game ends.
        events += play_until(
            state, [], begun, error=error, example=example, unit=unit, where=where, after=after
        )
        if round_number() < number:
            raise error(f"deal {number} is listed, but the game ended after deal {number - 1}")
        if stop:  # the table asks to stop during this deal: the game ends after it
            state.request_end()
        events += play_until(
            state,
            choices,
            done,
            error=error,
            example=example,
            unit=unit,
            where=where,
            after=after,
        )
    if final:
        assert final_begun is not None
        events += play_until(
            state, [], final_begun, error=error, example=example, unit="game", after=after
        )
    events += play_until(
        state,
        final,
        lambda: False,
        error=error,
        example=example,
        unit="game",
        where="settlement: " if final else "",
        after=after,
    )
    return events


def seat_views(
    state: Playable,
    events: Iterable[Event],
    events_for: Callable[[Iterable[Event], int | None, Sequence[str]], list[dict[str, Any]]],
) -> dict[str, Any]:
    """What a spectator and every player sees at the end: the view, and the events of the
    whole scenario that reached that seat (``events_for`` decides, as at the table)."""
    played = list(events)
    names = state.names

    def one(seat: int | None) -> dict[str, Any]:
        return {"view": state.view(seat), "events": events_for(played, seat, names)}

    return {
        "spectator": one(None),
        "players": {name: one(seat) for seat, name in enumerate(names)},
    }
