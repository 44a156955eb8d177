"""The engine's truth about a Basic Rummy table, to check what clients received.

Shared by the in-process tests (``tests/web/test_web_rummy.py``) and the browser test
(``tests/e2e/test_browser_rummy.py``): rebuild a finished match from its record, step by
step, and check that each frame a client got is exactly the engine's view of its seat,
with the events that seat may see, and no card it may not see.
"""

from __future__ import annotations

from typing import Any

from conftest import checked_game_frames
from rummoli.cards import card_str, cards_of
from rummoli.engine.base import Event
from rummoli.games.rummy import Rules, RummyState, setup_from_dict
from rummoli.games.rummy.view import events_for

Frame = dict[str, Any]
#: The cut for the first dealer uses a deck of its own: its cards say nothing of the deal.
OWN_DECK = {"cut"}


def rummy_reference(record: dict[str, Any]) -> tuple[list[RummyState], list[list[Event]]]:
    """The state after each number of actions (index = step) and each step's events."""
    state = RummyState(
        Rules.from_dict(record["rules"]), setup_from_dict(record["setup"]), record["seed"]
    )
    states, events = [state.clone()], [[]]
    for action in record["actions"]:
        events.append(state.apply(action))
        states.append(state.clone())
    return states, events


#: Public events and the fields naming the cards they show to everybody.
PUBLIC_CARDS = {
    "upcard": "card",
    "draw_discard": "card",
    "discard": "card",
    "lay_off": "card",
    "meld": "cards",
    "show": "cards",
}


def public_cards(events: list[list[Event]], names: tuple[str, ...]) -> list[set[str]]:
    """For each step, the cards everybody has seen face up in the hand being played
    (the discard pile, a card taken from it, melds): a player who took one holds a card
    everybody knows. A new deal starts afresh."""
    seen: set[str] = set()
    out = []
    for step_events in events:
        for event in events_for(step_events, None, names):
            if event["type"] == "dealer":
                seen = set()
            field = PUBLIC_CARDS.get(event["type"])
            if field is not None:
                value = event[field]
                seen |= set(value) if isinstance(value, list) else {value}
        out.append(set(seen))
    return out


def hidden_cards(state: RummyState, seat: int | None, public: set[str]) -> set[str]:
    """The cards ``seat`` may not see: in the stock or another hand (until the end of
    the hand shows them), and never face up in this hand."""
    mask = 0
    for card in state.stock:
        mask |= 1 << card
    if state.winner < 0 and not state.stalemate:
        for other, hand in enumerate(state.hands):
            if other != seat:
                mask |= hand
    return {card_str(c) for c in cards_of(mask)} - public


def check_rummy_frames(
    frames: list[Frame],
    seat: int | None,
    states: list[RummyState],
    events: list[list[Event]],
) -> int:
    """Each game frame is the engine's output for ``seat`` at its step and holds no
    card that seat may not see; returns how many game frames were checked."""
    names = states[0].names
    public = public_cards(events, names)
    checked = 0
    for frame, _, shown in checked_game_frames(
        frames,
        seat,
        states,
        events,
        lambda step: hidden_cards(states[step], seat, public[step]),
        OWN_DECK,
        events_for,
    ):
        checked += 1
        assert "stock" not in frame["view"] or isinstance(frame["view"]["stock"], int)
        if seat is None:
            assert "hand" not in frame["view"] and "legal_actions" not in frame["view"]
        for event in shown:
            if event["type"] in ("hand", "drew"):
                assert seat is not None and event["player"] == names[seat]
    return checked
