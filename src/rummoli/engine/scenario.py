"""The skeleton every game's scenario runner shares: read, check, play, answer.

A game's scenario runner (``games/rummoli/scenario.py``, ``games/rummy/scenario.py``)
declares its :class:`ScenarioForm` (the fields a scenario and each of its deals may have,
an example choice, its words for a round and a game, its error class) and says how one
round and one whole game are set up and what their answers hold. The rest is the same
for every game and lives here once: a scenario is a JSON object whose unknown fields are
refused (a misspelt ``"hand"`` silently ignored would play a shuffled deck and answer
the wrong question); ``choices`` and every deal are checked before anything is played;
bad input becomes ``{"error": "..."}`` naming the problem; ``"views": true`` adds what
every seat and a spectator sees at the end. The loops that play the choices are
:mod:`rummoli.engine.choices`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummoli.engine.base import Event, GameError
from rummoli.engine.choices import Playable, play_deals, play_until, seat_views

#: What a game's runner does with a decoded scenario: the state at the end, the answer,
#: and every event (for the seats' views).
Played = tuple[Playable, dict[str, Any], list[Event]]


@dataclass(frozen=True, slots=True)
class ScenarioForm:
    """One game's scenario format, and the steps every game's runner takes with it."""

    #: The fields a scenario may have, and one item of its ``deals``.
    keys: frozenset[str]
    deal_keys: frozenset[str]
    #: Fields a whole game gives in each deal instead of at the top.
    per_deal: tuple[str, ...]
    #: The fields of a deal that give its cards.
    deal_cards: tuple[str, ...]
    #: A choice as the messages show one (``"Bob: bid 5"``).
    example: str
    #: Raised for a scenario that cannot be played as written.
    error: type[Exception]
    #: ``event_to_json(event, names)`` and ``events_for(events, seat, names)``: the game's.
    event_to_json: Callable[[Event, Sequence[str]], dict[str, Any]]
    events_for: Callable[[Iterable[Event], int | None, Sequence[str]], list[dict[str, Any]]]
    #: The game's words for a deal and for a whole game (``round``, ``game``).
    unit: str = "round"
    whole: str = "game"
    #: The ``"game"`` a scenario must name (None: any, or none).
    game: str | None = None
    #: Said after the refusal of a per-deal field at the top of a whole game.
    per_deal_note: str = ""

    def run(
        self,
        data: object,
        one: Callable[[Mapping[str, Any]], Played],
        whole: Callable[[Mapping[str, Any]], Played],
    ) -> dict[str, Any]:
        """Play a decoded scenario (``whole`` if it lists ``deals``, else ``one``) and
        return the answer as JSON data.

        Returns ``{"error": "..."}`` instead for bad input: an unknown card, field or
        house rule, an illegal or left-over choice. Errors of the engine's own making
        (anything but a ``ValueError``) are not caught here, so tests and the command's
        "internal error" line see them.
        """
        try:
            if not isinstance(data, dict):
                raise self.error("a scenario must be a JSON object")
            self._check_fields(data)
            views = data.get("views", False)
            if not isinstance(views, bool):
                raise self.error("views must be true or false")
            state, result, events = whole(data) if "deals" in data else one(data)
            if views:
                result["views"] = seat_views(state, events, self.events_for)
            return result
        except (GameError, ValueError) as error:  # SetupError, IllegalActionError, CardError
            return {"error": str(error)}

    def _check_fields(self, data: Mapping[str, Any]) -> None:
        unknown = sorted(str(key) for key in data if key not in self.keys)
        if unknown:
            kind = f"{self.game} scenario" if self.game else "scenario"
            raise self.error(
                f"unknown {kind} field {', '.join(map(repr, unknown))}; "
                f"fields are {', '.join(sorted(self.keys))}"
            )
        if self.game is not None and data.get("game") != self.game:
            raise self.error(f"not a {self.game} scenario (game: {data.get('game')!r})")

    def choices(self, value: object, what: str) -> list[object]:
        """``value`` if it is a list of choices; ``what`` names it in the error."""
        if not isinstance(value, list):
            raise self.error(f"{what} must be a list of actions such as {self.example!r}")
        return value

    def deals(self, data: Mapping[str, Any]) -> list[tuple[list[object], bool]]:
        """A whole game's deals, checked: each one's choices and whether the table asks
        to stop during it (``request_end``)."""
        given = [key for key in self.per_deal if key in data]
        if given:
            raise self.error(
                f"a whole {self.whole} gives each {self.unit}'s cards and choices in deals, "
                f"not {given[0]} at the top{self.per_deal_note}"
            )
        deals = data["deals"]
        if not isinstance(deals, list) or not deals:
            raise self.error(f"deals must be a non-empty list of {self.unit}s")
        plays: list[tuple[list[object], bool]] = []
        for number, deal in enumerate(deals, start=1):
            if not isinstance(deal, dict):
                raise self.error(f"deal {number} must be an object")
            unknown = sorted(str(key) for key in deal if key not in self.deal_keys)
            if unknown:
                raise self.error(
                    f"deal {number}: unknown field {', '.join(map(repr, unknown))}; "
                    f"fields are {', '.join(sorted(self.deal_keys))}"
                )
            stop = deal.get("request_end", False)
            if not isinstance(stop, bool):
                raise self.error(f"deal {number}: request_end must be true or false")
            plays.append((self.choices(deal.get("choices", []), f"deal {number}: choices"), stop))
        return plays

    def whole_setup(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The setup of a whole game: the scenario's fields, the first deal's cards, and
        every later deal's cards as ``later_deals``."""
        setup = {k: v for k, v in data.items() if k not in ("deals", "views", "description")}
        deals = data["deals"]
        for key in self.deal_cards:
            if key in deals[0]:
                setup[key] = deals[0][key]
        setup["later_deals"] = [
            {key: deal[key] for key in self.deal_cards if key in deal} for deal in deals[1:]
        ]
        return setup

    def play_one(
        self, state: Playable, choices: Sequence[object], result: Callable[[], dict[str, Any]]
    ) -> Played:
        """Play one round by ``choices``; the answer is ``result()`` at its end, and every
        event."""
        events = play_until(
            state, choices, lambda: False, error=self.error, example=self.example, unit=self.unit
        )
        answer = result()
        answer["events"] = self.events_json(events, state.names)
        return state, answer, events

    def play_whole(
        self,
        state: Playable,
        plays: Sequence[tuple[Sequence[object], bool]],
        *,
        round_number: Callable[[], int],
        between_rounds: Callable[[], bool],
        over: str,
        summary: Callable[[], dict[str, Any]],
        final: Sequence[object] = (),
        final_begun: Callable[[], bool] | None = None,
    ) -> tuple[list[dict[str, Any]], list[Event]]:
        """Play a whole game deal by deal (:func:`rummoli.engine.choices.play_deals`, with
        its ``final`` choices); returns ``summary()`` at the end of each round (an
        ``over`` event), and every event."""
        summaries: list[dict[str, Any]] = []

        def after(new: list[Event]) -> None:
            if any(event[0] == over for event in new):
                summaries.append(summary())

        events = play_deals(
            state,
            plays,
            round_number=round_number,
            between_rounds=between_rounds,
            error=self.error,
            example=self.example,
            unit=self.unit,
            after=after,
            final=final,
            final_begun=final_begun,
        )
        return summaries, events

    def events_json(self, events: Iterable[Event], names: Sequence[str]) -> list[dict[str, Any]]:
        """Every event as JSON, as a referee sees them (all hands too)."""
        return [self.event_to_json(event, names) for event in events]
