"""A position in the runs checked by replaying its history.

A scenario may start in the middle of the runs (Rummoli's "Rummoli phase": ``laid``,
``lead``): the hands still held and the cards laid so far, by whom. Not every such
history can happen: after a stop the player who stopped must lead the other colour, the
lead lays his lowest card, and whoever holds the next card of a run must lay it. So the
history is played again by the engine itself, from the hands as they were when the phase
began (the cards still held plus the cards each player laid), and every laid card must
be the one the rules made that player lay, or one he could choose: the first that is not
is a :class:`SetupError` naming it, who had to lay what, and why.

Why the engine and not a second statement of the rules: the check then cannot disagree
with the play that follows it. The scratch game's chips are thrown away (the position
gives the chips and board as they are now); so are the spaces it wins.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from rummoli.cards import card_str, format_cards
from rummoli.engine.base import CHANCE_ACTION, Event, SetupError
from rummoli.games.stops import actions as act
from rummoli.games.stops.runs import STOP_REASONS

if TYPE_CHECKING:
    from rummoli.games.stops.setup import Setup
    from rummoli.games.stops.state import FamilyRules

#: Why a run stopped, for people (the "stop" event's reason).
_STOPPED = dict(
    zip(
        STOP_REASONS,
        (
            "an ace",
            "the next card was laid before",
            "the next card is in the widow",
            "the next card is not in the pack",
            "the next card was turned for trumps",
            "a king",
            "nobody holds the next rank",
            "a king, which ends the sequence",
        ),
        strict=True,
    )
)
#: What the lead after a stop is, by the layout's rule, for people.
_AFTER_STOP = {
    "lowest_of_colour": "leads the other colour",
    "any_suit_of_colour": "leads the other colour",
    "lowest_of_other_suits": "leads another suit",
    "any_other_suit": "leads another suit",
    "lowest_of_any_suit": "leads any suit",
    "any_card": "leads any card",
}
#: What the first lead is, by the layout's rule, for people.
_FIRST_LEAD = {
    "lowest_in_hand": "the lowest card in hand",
    "lowest_of_any_suit": "the lowest card of a suit of the lead's choice (house rule lead: "
    "lowest_of_any_suit)",
    "any_card": "any card",
}


def check_history(rules: FamilyRules, setup: Setup) -> None:
    """Replay ``setup.laid`` from the hands the phase began with; a SetupError names the
    first card the rules did not allow."""
    laid = setup.laid
    if not laid:
        return
    from rummoli.games.stops.state import StopsState

    assert setup.hands is not None
    names = setup.players
    hands = [list(hand) for hand in setup.hands]
    for seat, card in laid:
        hands[seat].append(card)
    start = dataclasses.replace(
        setup,
        hands=tuple(tuple(hand) for hand in hands),
        laid=(),
        lead=laid[0][0],
        single_round=True,
    )
    scratch = StopsState(rules, start, 0)
    plan = scratch.plan
    events = scratch.apply(CHANCE_ACTION)
    done = 0
    why = f"the lead ({names[laid[0][0]]}) lays " + _FIRST_LEAD.get(plan.lead, "his card")
    while True:
        for event in events:
            if event[0] != "lay":
                why = _situation(event, names, why, _AFTER_STOP[plan.switch_lead])
                continue
            if done == len(laid):
                return  # the cards the rules force after the history
            seat, card = event[1], event[2]
            if (seat, card) != laid[done]:
                must = f"{names[seat]} had to lay {card_str(card)}"
                raise _impossible(done, laid[done], names, f"{why}: {must}")
            done += 1
            why = f"after {names[seat]} laid {card_str(card)}, the holder of the next card lays it"
        if done == len(laid):
            return
        if scratch.is_terminal():
            raise _impossible(done, laid[done], names, f"{why}, and the round was over")
        seat, card = laid[done]
        turn = scratch.current_player()
        cards = sorted({act.lay_card(a) for a in scratch.legal_actions()})
        choice = f"{names[turn]} " + (
            f"had to lay {card_str(cards[0])}"
            if len(cards) == 1
            else f"was to lay one of {format_cards(cards)}"
        )
        if turn != seat or card not in cards:
            raise _impossible(done, laid[done], names, f"{why}: {choice}")
        events = scratch.apply(act.lay_action(card))


def _situation(event: Event, names: tuple[str, ...], why: str, after: str) -> str:
    """What the rules ask next, as the events of the scratch game tell it."""
    kind = event[0]
    if kind == "stop":
        return (
            f"after the stop on {card_str(event[1])} ({_STOPPED[event[2]]}), the player who "
            f"laid it {after}"
        )
    if kind == "duty_passes":
        return f"{why} ({names[event[1]]} holds none: the duty passes on)"
    nobody = "nobody holds " + after.removeprefix("leads ")
    if kind == "deadlock_continue":
        return (
            f"{nobody}: {names[event[1]]}, who laid the last card, leads "
            "the lowest card in hand, of any suit (house rule deadlock: any_colour)"
        )
    if kind == "deadlock":
        return f"{nobody}: a deadlock ended the round"
    return why


def _impossible(index: int, item: tuple[int, int], names: tuple[str, ...], why: str) -> SetupError:
    seat, card = item
    return SetupError(
        f"laid card {index + 1} ({names[seat]} {card_str(card)}) is not what the rules allow: {why}"
    )
