"""Why Basic Rummy refuses an action, in words as specific as the state allows.

Read only when an action is refused (:meth:`RummyState._refusal`), so it lives apart
from the state machine's hot path and is not compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.cards import card_str, format_cards
from rummoli.engine.apply import legal_summary
from rummoli.engine.base import CHANCE, CHANCE_ACTION
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import meld_cards

if TYPE_CHECKING:
    from rummoli.games.rummy.state import RummyState

_BIT = tuple(1 << card for card in range(52))


def refusal(state: RummyState, action: int) -> str:
    """The reason an action is refused, as specific as the state allows (the shared
    :func:`~rummoli.engine.apply.why_illegal` has ruled out the game's end and an
    action that is not a whole number)."""
    if not 0 <= action < act.NUM_ACTIONS:
        return f"{action} is not an action of Basic Rummy (0..{act.NUM_ACTIONS - 1})"
    text = act.action_to_text(action)
    legal = legal_summary(state.options, act.action_to_text)
    if state.to_move == CHANCE:
        return f"{text} is not legal now: the next step is chance (deal)"
    name = state.names[state.to_move]
    why = _reason(state, action, name)
    return f"{text} is not legal now: {why}; {name} decides among: {legal}"


def _reason(state: RummyState, action: int, name: str) -> str:
    from rummoli.games.rummy.state import DRAW  # (the state imports this module)

    hand = state.hands[state.to_move]
    if action == CHANCE_ACTION:
        return f"it is {name}'s decision, not a chance step"
    if state.phase == DRAW:
        if action == act.DRAW_DISCARD:
            return "the discard pile is empty, so the only draw is from the stock"
        return f"{name} must first draw, from the stock or the discard pile"
    if action in (act.DRAW_STOCK, act.DRAW_DISCARD):
        if state.taken < 0 and not state.discard:
            # Nothing was discarded since the draw: the pile was empty then too.
            return (
                f"{name} has already drawn this turn: the discard pile was empty, "
                "so the top card of the stock was drawn for him"
            )
        return f"{name} has already drawn this turn"
    if act.is_discard_action(action):
        card = act.discard_of(action)
        if not hand & _BIT[card]:
            return f"{name} does not hold {card_str(card)}"
        return f"{card_str(card)} was taken from the discard pile this turn"
    if act.is_meld_action(action):
        meld = act.meld_of(action)
        if meld & ~hand:
            return f"{name} does not hold {format_cards(meld_cards(meld & ~hand))}"
        if state.rules.one_meld_per_turn and state.melded_this_turn:
            return f"{name} has melded this turn (house rule one_meld_per_turn)"
        return _last_card_reason(state)
    card, slot = act.layoff_of(action)
    if slot >= len(state.melds):
        return f"the table has no meld in slot {slot} (it has {len(state.melds)})"
    if not hand & _BIT[card]:
        return f"{name} does not hold {card_str(card)}"
    if not state.fits[slot] & _BIT[card]:
        cards = format_cards(meld_cards(state.melds[slot]))
        return f"{card_str(card)} does not fit the meld in slot {slot} ({cards})"
    return _last_card_reason(state)


def _last_card_reason(state: RummyState) -> str:
    taken = card_str(state.taken) if state.taken >= 0 else "?"
    return (
        f"it would leave only {taken}, taken from the discard pile this turn, which may "
        "not be discarded and would fit no meld"
    )
