"""What each seat, and a spectator, may see of a Rummy match: the one place that decides it.

A seat sees its own hand; of the others only how many cards they hold. The stock is a
count: which cards it holds may be known (after a reshuffle they are the old discard pile)
but its order never leaves the state. The discard pile is face up, all of it (players may
remember every discard; showing them is fairer than testing memory); the melds on the
table, the card taken from the discard pile this turn and the scores are public. When a
hand ends, every hand left is shown (the losers lay down their cards to be counted), so
from then on they are public too.

Events follow the same rule: every event is public except a seat's own new hand (``hand``)
and the card it drew from the stock (``drew``); the table sees ``draw_stock`` without the
card. The test of this module: change every card a seat cannot see (other hands and the
stock, keeping counts) and its view and observation must not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from rummoli.cards import card_str, cards_of
from rummoli.engine.base import CHANCE, TERMINAL
from rummoli.engine.event_json import EventFormat, by_player, card_text
from rummoli.games.rummy.actions import action_to_text
from rummoli.games.rummy.melds import meld_cards, sorted_hand
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.state import PHASE_NAMES

if TYPE_CHECKING:
    from rummoli.games.rummy.state import RummyState

#: Events only one seat may see, with the index of that seat in the event.
PRIVATE_EVENTS = {"hand": 1, "drew": 1}

# How to write each event's fields as JSON (see rummoli.engine.event_json): kind -> field
# names, each with a conversion: "player" a seat (as its name, None for -1), "card" a card,
# "cards" a hand mask (as held), "meld" a meld mask (as read), "why" a stalemate's case
# (null when none), "by_player" a tuple by seat; others as they are.
_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "cut": ("player", "card"),
    "dealer": ("player",),
    "hand": ("player", "cards"),
    "upcard": ("card",),
    "draw_stock": ("player",),
    "drew": ("player", "card"),
    "draw_discard": ("player", "card"),
    "reshuffle": ("count",),
    "meld": ("player", "slot", "cards:meld"),
    "lay_off": ("player", "card", "slot"),
    "discard": ("player", "card"),
    "goes_out": ("player", "going_rummy"),
    "show": ("player", "cards", "points"),
    "hand_won": ("player", "points"),
    "stalemate": ("reason", "why"),
    "hand_over": ("hand",),
    "game_over": ("scores:by_player", "winner:player"),
}


def _hand_text(mask: int) -> list[str]:
    return [card_str(c) for c in sorted_hand(cards_of(mask))]


def _meld_text(mask: int) -> list[str]:
    return [card_str(c) for c in meld_cards(mask)]


def _seat_name_or_none(seat: int, names: Sequence[str]) -> str | None:
    return names[seat] if seat >= 0 else None


def _hand_json(mask: int, names: Sequence[str]) -> list[str]:
    return _hand_text(mask)


def _meld_json(mask: int, names: Sequence[str]) -> list[str]:
    return _meld_text(mask)


def _why_json(why: str, names: Sequence[str]) -> str | None:
    """The detection's case of a stalemate (``one_card_each``, ``no_meld``), else null."""
    return why or None


#: How this game's events are written: its tables above, with what each conversion does.
EVENT_FORMAT: Final = EventFormat(
    _EVENT_FIELDS,
    {
        "player": _seat_name_or_none,
        "card": card_text,
        "cards": _hand_json,
        "meld": _meld_json,
        "why": _why_json,
        "by_player": by_player,
    },
    PRIVATE_EVENTS,
)


# What the interfaces call, read off the format (one definition for every game, in
# ``engine/event_json.py``): whether ``seat`` (None: a spectator) may see an event, the
# events it may see, an event as JSON (players by name, cards as text), and the events
# it may see as JSON.
is_visible: Final = EVENT_FORMAT.is_visible
visible_events: Final = EVENT_FORMAT.visible_events
event_to_json: Final = EVENT_FORMAT.to_json
events_for: Final = EVENT_FORMAT.events_for
events_for_seats: Final = EVENT_FORMAT.events_for_seats


@dataclass(slots=True, init=False)
class RummyObservation:
    """Everything one seat (``seat is None``: a spectator) may know, as plain numbers.

    Treat it as read-only. Cards are ints, hands and melds masks (:mod:`rummoli.cards`),
    seats indexes. Bots read this; people get the JSON view made from it by
    :func:`observation_to_view`; both come from :func:`build_observation`.
    """

    seat: int | None
    names: tuple[str, ...]
    rules: Rules
    target: int
    hand_no: int
    phase: str
    dealer: int
    #: The seat to decide, CHANCE or TERMINAL.
    to_move: int
    #: Whose turn it is (-1 between hands).
    turn: int
    scores: tuple[int, ...]
    card_counts: tuple[int, ...]
    #: This seat's hand (0 for a spectator).
    hand: int
    stock_count: int
    #: The discard pile, bottom first (its top is the last card).
    discard: tuple[int, ...]
    #: The melds on the table, in slot order.
    melds: tuple[int, ...]
    #: The card taken from the discard pile this turn (it may not be discarded), or -1.
    taken: int
    #: How often the stock was rebuilt from the discard pile this hand (0 or 1).
    reshuffles: int
    #: Whether each seat has melded or laid off in an earlier turn of this hand.
    played_before: tuple[bool, ...]
    #: Whether the player whose turn it is has melded / melded or laid off this turn.
    melded_this_turn: bool
    played_this_turn: bool
    #: The end of the last hand: its winner (-1: none yet or a stalemate), whether he went
    #: Rummy, the stalemate reason ("" if none), the points won and every hand shown.
    winner: int
    going_rummy: bool
    stalemate: str
    hand_points: tuple[int, ...]
    shown: tuple[tuple[int, int], ...]
    match_winner: int
    #: This seat's legal actions when it is to move, else empty.
    legal: tuple[int, ...]

    def __init__(
        self,
        seat: int | None,
        names: tuple[str, ...],
        rules: Rules,
        target: int,
        hand_no: int,
        phase: str,
        dealer: int,
        to_move: int,
        turn: int,
        scores: tuple[int, ...],
        card_counts: tuple[int, ...],
        hand: int,
        stock_count: int,
        discard: tuple[int, ...],
        melds: tuple[int, ...],
        taken: int,
        reshuffles: int,
        played_before: tuple[bool, ...],
        melded_this_turn: bool,
        played_this_turn: bool,
        winner: int,
        going_rummy: bool,
        stalemate: str,
        hand_points: tuple[int, ...],
        shown: tuple[tuple[int, int], ...],
        match_winner: int,
        legal: tuple[int, ...],
    ) -> None:
        # Written out rather than generated by ``dataclass``: this module is compiled
        # (see rummoli.compiled), and a compiled class's generated ``__init__`` would
        # still run as Python, once per decision of a simulation or an environment.
        self.seat = seat
        self.names = names
        self.rules = rules
        self.target = target
        self.hand_no = hand_no
        self.phase = phase
        self.dealer = dealer
        self.to_move = to_move
        self.turn = turn
        self.scores = scores
        self.card_counts = card_counts
        self.hand = hand
        self.stock_count = stock_count
        self.discard = discard
        self.melds = melds
        self.taken = taken
        self.reshuffles = reshuffles
        self.played_before = played_before
        self.melded_this_turn = melded_this_turn
        self.played_this_turn = played_this_turn
        self.winner = winner
        self.going_rummy = going_rummy
        self.stalemate = stalemate
        self.hand_points = hand_points
        self.shown = shown
        self.match_winner = match_winner
        self.legal = legal


def build_observation(state: RummyState, seat: int | None) -> RummyObservation:
    """What ``seat`` (None: a spectator) may see of ``state``: the one place that decides."""
    over = state.winner >= 0 or bool(state.stalemate)
    return RummyObservation(
        seat,
        state.names,
        state.rules,
        state.target,
        state.hand_no,
        PHASE_NAMES[state.phase],
        state.dealer,
        state.to_move,
        state.turn,
        tuple(state.scores),
        tuple(map(int.bit_count, state.hands)),
        state.hands[seat] if seat is not None else 0,
        len(state.stock),
        tuple(state.discard),
        tuple(state.melds),
        state.taken,
        state.reshuffles,
        tuple(state.played_before),
        state.melded_this_turn,
        state.played_this_turn,
        state.winner,
        state.going_rummy,
        state.stalemate,
        tuple(state.hand_points),
        tuple((s, h) for s, h in enumerate(state.hands) if h) if over else (),
        state.match_winner,
        tuple(state.options) if seat is not None and state.to_move == seat else (),
    )


def _seat_or_none(seat: int) -> int | None:
    return seat if seat >= 0 else None


def observation_to_view(obs: RummyObservation) -> dict[str, Any]:
    """The JSON-ready view of an observation, for people and the wire."""
    players = [
        {
            "name": name,
            "score": obs.scores[s],
            "cards": obs.card_counts[s],
            "has_melded": obs.played_before[s] or (s == obs.turn and obs.played_this_turn),
        }
        for s, name in enumerate(obs.names)
    ]
    to_move: int | str | None
    if obs.to_move == CHANCE:
        to_move = "chance"
    elif obs.to_move == TERMINAL:
        to_move = None
    else:
        to_move = obs.to_move
    result = None
    if obs.winner >= 0 or obs.stalemate:
        result = {
            "winner": _seat_or_none(obs.winner),
            "going_rummy": obs.going_rummy,
            "stalemate": obs.stalemate or None,
            "points": list(obs.hand_points),
            "shown": {str(s): _hand_text(h) for s, h in obs.shown},
        }
    view: dict[str, Any] = {
        "game": "rummy",
        "seat": obs.seat,
        "hand_no": obs.hand_no,
        "phase": obs.phase,
        "dealer": _seat_or_none(obs.dealer),
        "to_move": to_move,
        "turn": _seat_or_none(obs.turn),
        "target": obs.target,
        "players": players,
        "stock": obs.stock_count,
        "discard": [card_str(c) for c in obs.discard],
        "melds": [_meld_text(m) for m in obs.melds],
        "taken_discard": card_str(obs.taken) if obs.taken >= 0 else None,
        "reshuffled": obs.reshuffles > 0,
        "result": result,
        "match_winner": _seat_or_none(obs.match_winner),
    }
    if obs.seat is not None:
        view["hand"] = _hand_text(obs.hand)
        if obs.legal:
            view["legal_actions"] = [{"action": a, "text": action_to_text(a)} for a in obs.legal]
    return view


def build_view(state: RummyState, seat: int | None) -> dict[str, Any]:
    """The whole table as ``seat`` (None: a spectator) may see it, as JSON-ready data."""
    return observation_to_view(build_observation(state, seat))
