"""The games a table can hold, and what the server needs to know about each.

The rooms, the replays, the lobby and the statistics are written once for every game:
they ask the game's description (:mod:`rummoli.games.registry`) for what differs (its
house rules, which events a seat may see, the pause between rounds, the number of seats,
the computer levels, what a seat ends the game with) and the game's web part
(:class:`WebPart`, ``web/<game>/``) for its players' statistics. Nothing here names a
game: a game registered later is offered by the lobby as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from rummoli.engine.base import Event, GameState, SetupError
from rummoli.engine.description import WEB, GameDescription
from rummoli.games import registry

if TYPE_CHECKING:
    from rummoli.web.storage import StoredGame

#: Computer players standing in for away players: the first level that exists.
STANDIN_PREFERENCE = ("basic", "random")


class Unfolding(Protocol):
    """Moves the engine forced inside one step, shown to the table as turns of their own.

    The engine makes a forced move (Rummoli: a pass by a bidder who holds a pay card)
    inside another player's step, and means it to look like a chosen one. Shown as it
    happens, it would not: the blocked player's turn never comes, and his pass arrives
    with the step before. So the table shows the step as it would have gone had the
    forced player chosen: ``state`` is a copy of the game where the forced seats are
    asked (views are taken from it), each forced seat takes its turn (the same frames,
    the same waiting), and :meth:`play` makes the forced move when it is his to make.
    Once every forced turn is played, ``state`` shows what the real game shows.
    """

    @property
    def state(self) -> AnyState:
        """The game as shown while the forced turns are played: views come from it."""
        ...

    @property
    def events(self) -> list[Event]:
        """The events of the step as shown now (the forced seats' moves held back)."""
        ...

    def next(self) -> tuple[int, int] | None:
        """The forced seat to move now and the one action it may take; None: done."""
        ...

    def play(self) -> list[Event]:
        """Make the next forced move in :attr:`state`; the events to show for it."""
        ...


class TableState(GameState, Protocol):
    """What a table needs of a game state beyond the engine protocol: every game of the
    project has these (names, the actions so far, the setup, asking for a last round)."""

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def actions(self) -> Sequence[int]: ...

    @property
    def end_requested(self) -> bool: ...

    @property
    def setup(self) -> Any:
        """The game's setup (dealer, chips, fixed cards): ``setup.to_dict()`` is stored."""
        ...

    def request_end(self) -> None: ...


#: A table's game state and house rules (the game's own objects).
AnyState = TableState
AnyRules = Any


#: Views of several seats, as :attr:`WebPart.views` makes them.
Views = list[dict[str, Any]]
#: Each seat's patch of a run's step, from that step's state (:attr:`WebPart.step_patches`).
StepPatcher = Callable[[Any], list[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class WebPart:
    """One game's part of the web table: its players' statistics page.

    ``player_stats(name, games)`` sums up one player's finished games of this game. It
    runs in a worker thread, never on the event loop: a game that counts from its events
    (``whole_games``) replays them.
    """

    player_stats: Callable[[str, list[StoredGame]], dict[str, Any]]
    #: Whether :attr:`player_stats` needs each game whole (its actions, to replay it).
    whole_games: bool = False
    #: A line for the lobby under the game's choice: what the game is, in a sentence.
    intro: str = ""
    #: Whether seats tied for the most at the end each win (else a tie names nobody).
    ties_win: bool = True
    #: What each seat started with, from the stored house rules (Rummoli's chips).
    starting_amount: Callable[[Mapping[str, Any]], int] = lambda rules: 0
    #: ``view(state, seat, only)``: the view frames send (``state.view(seat)``, but a
    #: continuous choice offered as one range: :mod:`.choices`); ``only``: the one
    #: action a seat may take in a forced turn, shown instead of its legal actions.
    view: Callable[[Any, int | None, int | None], dict[str, Any]] | None = None
    #: ``views(state, seats, only)``: :attr:`view` of several seats of one state at once
    #: (``only``: each seat's forced action or None), the same views, made cheaper by
    #: sharing what every seat sees alike (a table's frames want every seat's view of
    #: each state). None: :attr:`view` seat by seat.
    #: ``choices`` False: the views without legal actions (a run's steps offer none).
    views: Callable[[Any, Sequence[int | None], Sequence[int | None], bool], Views] | None = None
    #: Whether an action of this state may hide forced moves (only then is the state
    #: copied before the action, for :attr:`unfold`).
    may_unfold: Callable[[Any], bool] | None = None
    #: ``unfold(before, action, events)``: the step as the table shows it, when the
    #: engine made forced moves in it that must look chosen (:class:`Unfolding`).
    unfold: Callable[[Any, int, list[Event]], Unfolding | None] | None = None
    #: The kinds of event a page shows one at a time, at its pace (Rummoli's laid cards):
    #: the table waits for its people to see them before its next move.
    paced: frozenset[str] = frozenset()
    #: ``steps(before, action)``: the action played again one shown step at a time (a
    #: step before each paced event the rules forced), yielding each step's events and
    #: the state after them (one copy, changed by the next step): the views a page
    #: shows during a run are the engine's own (:mod:`.runs`). None: one step an action.
    steps: Callable[[Any, int], Iterator[tuple[list[Event], Any]]] | None = None
    #: ``step_patches(final, seats, finals)``: what makes each seat's patch of a run's
    #: step: called with a step's state, the patches that make its views (those of
    #: :func:`seat_views` without choices, ``to_move`` null) from ``finals``, each seat's
    #: view of ``final`` as its frame sends it: the same patches as diffing the views,
    #: made cheaper from what the game knows of its views (:mod:`.runs`). None: the views
    #: made and diffed.
    step_patches: (
        Callable[[Any, Sequence[int | None], Sequence[dict[str, Any]]], StepPatcher] | None
    ) = None


def description(game: str) -> GameDescription:
    return registry.describe(game)


def games() -> tuple[str, ...]:
    """The games a table may hold, in the lobby's order (those whose board the browser
    draws: a description's ``web_table``)."""
    return tuple(d.name for d in registry.descriptions() if d.web_table)


#: Each game's web part once found, with the description it came from: a frame asks for
#: it a dozen times per seat (resolving its import path each time was a tenth of the
#: CPU of an action). A game registered again under the same name is looked up afresh.
_WEB_PARTS: dict[str, tuple[GameDescription, WebPart]] = {}


def web_part(game: str) -> WebPart:
    """The game's web part; a game without one gets the generic statistics."""
    found = description(game)
    known = _WEB_PARTS.get(game)
    if known is not None and known[0] is found:
        return known[1]
    part = found.part(WEB)
    if part is None:
        from rummoli.web.history import GENERIC

        part = GENERIC
    if not isinstance(part, WebPart):
        raise TypeError(f"{game}'s web part is not a WebPart")
    _WEB_PARTS[game] = (found, part)
    return part


def check_game(game: object) -> str:
    if not isinstance(game, str) or game not in games():
        raise SetupError(f"game must be one of {', '.join(games())}, not {game!r}")
    return game


def rules_from_dict(game: str, data: Mapping[str, Any] | None) -> AnyRules:
    """A game's house rules from a JSON object (unknown names are an error)."""
    return description(game).rules(dict(data or {}))


def seat_limits(game: str) -> tuple[int, int]:
    d = description(game)
    return d.min_players, d.max_players


def levels(game: str) -> list[str]:
    """The computer players of ``game`` that exist now (more may be added at any time)."""
    return description(game).levels()


def standin_level(game: str) -> str:
    """The level that plays for a player who is away past the turn timer."""
    available = levels(game)
    for level in STANDIN_PREFERENCE:
        if level in available:
            return level
    return available[0]


def _table_state(state: GameState) -> AnyState:
    # Every game's state has TableState's parts too (names, actions, request_end).
    return cast(AnyState, state)


def new_state(game: str, names: Sequence[str], rules: AnyRules, seed: int) -> AnyState:
    return _table_state(description(game).new_game(list(names), rules, seed))


def initial_state(
    game: str, rules: Mapping[str, Any], setup: Mapping[str, Any], seed: int
) -> AnyState:
    """A stored game before its first action: its rules, setup and seed."""
    return _table_state(description(game).stored_game(rules, setup, seed))


def events_for(
    game: str, events: Iterable[Event], seat: int | None, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The events ``seat`` (None: a spectator) may see, as JSON: the engine decides."""
    return description(game).events_for(events, seat, names)


def seats_events(
    game: str, events: Sequence[Event], seats: Sequence[int | None], names: Sequence[str]
) -> list[list[dict[str, Any]]]:
    """:func:`events_for` of each of ``seats``, each event made JSON once for all of them
    (the lists share those objects: encode them, never change them)."""
    return description(game).seats_events(events, seats, names)


def between_rounds(game: str, state: GameState) -> bool:
    """Whether the next chance step deals a new round (people get a pause to look)."""
    return description(game).between_rounds(state)


def round_number(game: str, state: GameState) -> int:
    return description(game).round_number(state)


def seat_view(
    game: str, state: GameState, seat: int | None, only: int | None = None
) -> dict[str, Any]:
    """The view a frame sends ``seat``: the engine's ``state.view(seat)``, with the
    legal actions as :mod:`.choices` offers them (``only``: a forced turn's one action)."""
    part = web_part(game)
    if part.view is not None:
        return part.view(state, seat, only)
    view = state.view(seat)
    if only is not None and "legal_actions" in view:
        view["legal_actions"] = [{"action": only, "text": state.action_to_text(only)}]
    return view


def seat_views(
    game: str,
    state: GameState,
    seats: Sequence[int | None],
    only: Sequence[int | None] | None = None,
    *,
    choices: bool = True,
) -> list[dict[str, Any]]:
    """:func:`seat_view` of each of ``seats`` (``only``: each one's forced action), the
    same views, made at once where the game's web part can (:attr:`WebPart.views`). The
    views may share their parts: read them, never change more than their own keys.
    ``choices`` False: without ``legal_actions`` (not worked out, where the part can)."""
    forced: list[int | None] = [None] * len(seats) if only is None else list(only)
    part = web_part(game)
    if part.views is not None:
        return part.views(state, seats, forced, choices)
    views = [seat_view(game, state, seat, f) for seat, f in zip(seats, forced, strict=True)]
    if not choices:
        for view in views:
            view.pop("legal_actions", None)
    return views


def final_amounts(game: str, state: GameState) -> list[int]:
    """What each seat ends with, as stored: Rummoli's chips, Rummy's points."""
    return description(game).final_amounts(state)
