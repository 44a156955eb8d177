"""What each seat, and a spectator, may see: the one place that decides it.

Everything a person or a bot receives (a table view, a log line, a showdown) is built
here from the state and its events. A seat sees its own hand, the widow's cards only if
it gave its own hand to the widow (it knows what it gave), and what the table sees: chip
counts, card counts, the board, laid cards, bets and shown hands. A spectator sees only
what the table sees. The test of this module: change every card a seat cannot see
(keeping the counts) and its view must not change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rummoli.cards import card_str, cards_of, sorted_by_suit
from rummoli.engine.base import CHANCE, TERMINAL, Event
from rummoli.poker import category_name

if TYPE_CHECKING:
    from rummoli.games.rummoli.state import RummoliState

#: Events only one seat may see, with the index of that seat in the event.
PRIVATE_EVENTS = {"hand": 1, "blocked": 1}

# How to write each event's fields as JSON: kind -> field names, each with a conversion:
# "player" a seat (as its name), "card" a card, "cards" a mask, others as they are.
_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "dealer": ("player",),
    "cut": ("player", "card"),
    "out": ("player",),
    "ante": ("player", "chips"),
    "hand": ("player", "cards"),
    "widow_dealt": ("count",),
    "widow_dead": (),
    "blocked": ("player",),
    "keep": ("player",),
    "exchange": ("player",),
    "pass": ("player",),
    "bid": ("player", "chips"),
    "no_bid": (),
    "bought": ("player", "chips", "dealer:player"),
    "check": ("player",),
    "fold": ("player",),
    "call": ("player", "total", "chips", "all_in"),
    "raise": ("player", "total", "chips", "all_in"),
    "returned": ("player", "chips"),
    "show": ("player", "cards", "hand:key"),
    "poker_pot": ("pot", "chips", "winners:players", "share"),
    "leads": ("player",),
    "lay": ("player", "card"),
    "space": ("player", "space", "chips"),
    "unclaimed": ("player", "space"),
    "stop": ("card",),
    "duty_passes": ("player", "fine"),
    "deadlock_continue": ("player",),
    "deadlock": (),
    "deadlock_pays": ("player", "chips"),
    "round_won": ("player", "chips"),
    "pays": ("player", "to:player", "chips"),
    "round_over": ("round",),
    "settle_cut": ("player", "card"),
    "settle_hand": ("player", "cards", "hand:key"),
    "settled": ("space", "chips", "winners:players"),
    "game_over": ("chips:by_player",),
}


def is_visible(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see ``event``."""
    index = PRIVATE_EVENTS.get(event[0])
    return index is None or (seat is not None and event[index] == seat)


def visible_events(events: Iterable[Event], seat: int | None) -> list[Event]:
    return [e for e in events if is_visible(e, seat)]


def event_to_json(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """An event as JSON, with players by name and cards as text."""
    kind = event[0]
    out: dict[str, Any] = {"type": kind}
    for spec, value in zip(_EVENT_FIELDS[kind], event[1:], strict=True):
        key, _, conversion = spec.partition(":")
        conversion = conversion or key
        if conversion == "player":
            out[key] = names[value]
        elif conversion == "players":
            out[key] = [names[s] for s in value]
        elif conversion == "card":
            out[key] = card_str(value)
        elif conversion == "cards":
            out[key] = [card_str(c) for c in sorted_by_suit(cards_of(value))]
        elif conversion == "key":
            out[key] = category_name(value)
        elif conversion == "by_player":
            out[key] = dict(zip(names, value, strict=True))
        else:
            out[key] = value
    return out


def events_for(
    events: Iterable[Event], seat: int | None, names: Sequence[str]
) -> list[dict[str, Any]]:
    """The events ``seat`` may see, as JSON."""
    return [event_to_json(e, names) for e in events if is_visible(e, seat)]


def _cards(mask: int) -> list[str]:
    return [card_str(c) for c in sorted_by_suit(cards_of(mask))]


def build_view(state: RummoliState, seat: int | None) -> dict[str, Any]:
    """The whole table as ``seat`` (None: a spectator) may see it, as JSON-ready data."""
    from rummoli.games.rummoli.state import PHASE_NAMES

    names = state.names
    betting = state.betting
    players = []
    for s, name in enumerate(names):
        players.append(
            {
                "name": name,
                "chips": state.chips[s],
                "cards": state.hands[s].bit_count(),
                "out": state.out[s],
                "in_round": s in state.in_round,
                "bet": betting.committed[s] if betting else 0,
                "folded": bool(betting and betting.folded[s]),
                "laid": [card_str(c) for p, c in state.laid if p == s],
            }
        )
    to_move: int | str | None
    if state.to_move == CHANCE:
        to_move = "chance"
    elif state.to_move == TERMINAL:
        to_move = None
    else:
        to_move = state.to_move
    taker = state.widow_taker
    view: dict[str, Any] = {
        "game": "rummoli",
        "seat": seat,
        "round": state.round_no,
        "phase": PHASE_NAMES[state.phase],
        "dealer": state.dealer,
        "to_move": to_move,
        "players": players,
        "board": state.board_dict(),
        "widow": {
            "cards": state.widow.bit_count(),
            "taken_by": taker if taker >= 0 else None,
            "known": _cards(state.known_widow) if seat is not None and seat == taker else [],
        },
        "laid": [{"player": s, "card": card_str(c)} for s, c in state.laid],
        "shown": {str(s): _cards(m) for s, m in state.shown.items()},
        "poker_winners": list(state.poker_winners),
        "leader": state.leader if state.leader >= 0 else None,
        "round_winner": state.round_winner if state.round_winner >= 0 else None,
        "deadlock": state.deadlocked,
    }
    if state.phase == 2:  # auction
        high = state._auction_high_bidder
        view["auction"] = {
            "high_bid": state.auction_high,
            "high_bidder": high if high >= 0 else None,
            "passed": [s for s in state.in_round if state.auction_passed[s]],
        }
    if betting is not None:
        view["betting"] = {"high": betting.high, "pot": state.board[0]}
    if seat is not None:
        view["hand"] = _cards(state.hands[seat])
        if state.to_move == seat:
            view["legal_actions"] = [
                {"action": a, "text": state.codec.to_text(a)} for a in state.options
            ]
    return view
