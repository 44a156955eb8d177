"""Resampling a round of a Stops family game: the bots' sampler, two facts it leaves out,
a check of the showdown, and the deck that deals a sampled set of hands.

The bots' sampler of hidden cards (:mod:`rummoli.bots.stops.knowledge`) redraws the hands
and the widow (or talon); the dealt hands follow from them (a seat dealt what it holds
and has laid; the widow and its taker swapped back), and the deck that deals them from
the engine's own deal: which position of the pack goes to whom is read off a deal of
the pack in order (:func:`deal_positions`), so that every deal of the family (a spare
hand after the dealer or first, a deal by counts and a talon, a card turned for trumps)
is inverted the same way, with nothing of a game named here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummoli.bots.stops.knowledge import Knowledge, infer
from rummoli.engine.base import CHANCE, CHANCE_ACTION, GameState
from rummoli.games.stops.layout import FIVE_CARDS
from rummoli.games.stops.view import Observation
from rummoli.poker import five_of, hand_key

if TYPE_CHECKING:
    from rummoli.envs.table import LogEntry

__all__ = ["deal_positions", "deck_for", "infer", "shows_the_same", "with_facts"]

#: The receivers of a deal's positions besides the seats: the widow (or talon), and the
#: card turned for trumps.
WIDOW = -1
TURNED = -2


def deal_positions(engine: GameState, pack: Sequence[int]) -> list[int]:
    """For each position of a deck dealt by ``engine`` (a round built from ``pack`` in
    that order, before its deal), who receives it: a seat, :data:`WIDOW` or
    :data:`TURNED`, read off the engine's deal events."""
    owner = {card: WIDOW for card in pack}
    steps = 0
    while engine.current_player() == CHANCE and steps < 4:
        steps += 1
        dealt = False
        for event in engine.apply(CHANCE_ACTION):
            if event[0] == "hand":
                dealt = True
                for card in pack:
                    if event[2] >> card & 1:
                        owner[card] = event[1]
            elif event[0] == "turned":
                owner[event[1]] = TURNED
        if dealt:
            break
    return [owner[card] for card in pack]


def deck_for(
    obs: Observation,
    positions: Sequence[int],
    hands: list[int],
    widow: int,
    laid: list[int],
) -> list[int] | None:
    """The deck that deals ``hands`` and ``widow`` (as they are now, the cards laid back
    in their hands, the widow and its taker's hand swapped back, the turned card where it
    was) to the deal's ``positions``; None if their sizes are not a deal's."""
    dealt = {s: hands[s] | laid[s] for s in obs.in_round}
    dealt_widow = widow
    taker = obs.widow_taker
    if taker >= 0:
        dealt[taker], dealt_widow = widow, hands[taker] | laid[taker]
    dealt[WIDOW] = dealt_widow
    dealt[TURNED] = 1 << obs.turned if obs.turned >= 0 else 0
    piles = {who: _cards(mask) for who, mask in dealt.items()}
    for pile in piles.values():
        pile.reverse()  # popped from the end: the lowest card first
    deck: list[int] = []
    for who in positions:
        cards = piles.get(who)
        if not cards:
            return None
        deck.append(cards.pop())
    return None if any(piles.values()) else deck


def with_facts(knowledge: Knowledge, obs: Observation, log: Sequence[LogEntry]) -> Knowledge:
    """The bots' knowledge with two more facts a seat can read from the table, which the
    bots' inference leaves out: a seat that bid for the widow held no pay card (under
    ``pay_card_blocks_exchange`` it could not have bid), nor does it now, unless it took
    the widow (its old hand is the widow, which the inference knows); and a run stopped
    by the widow on the last card laid (the inference reads a stop from the card laid
    after it) puts the next card in the widow. Without them most draws after such an
    auction or stop fail the check, and the resampler falls back on its walk."""
    places = knowledge.places
    excluded = knowledge.excluded[:]
    no_pay = knowledge.no_pay[:]
    known = knowledge.known[:]
    need = knowledge.need[:]
    unknown = knowledge.unknown
    if obs.plan.pay_card_blocks_exchange:
        for who, chips in obs.auction_history:
            if chips and who != obs.widow_taker and who in places:
                index = places.index(who)
                excluded[index] |= knowledge.single_pay
                no_pay[index] = True
    widow = len(places) - 1
    for who, event in log:
        if who < 0 and event[0] == "stop" and event[2] == "widow":
            card = event[1] + 1
            if unknown >> card & 1:
                known[widow] |= 1 << card
                need[widow] -= 1
                unknown &= ~(1 << card)
    if excluded == knowledge.excluded and unknown == knowledge.unknown:
        return knowledge
    constrained: list[tuple[int, list[int]]] = []
    free: list[int] = []
    open_places = [p for p in range(len(places)) if need[p]]
    for card in _cards(unknown):
        allowed = [p for p in open_places if not excluded[p] >> card & 1]
        if len(allowed) == len(open_places):
            free.append(card)
        else:
            constrained.append((card, allowed))
    constrained.sort(key=lambda item: len(item[1]))
    return dataclasses.replace(
        knowledge,
        known=known,
        need=need,
        excluded=excluded,
        no_pay=no_pay,
        unknown=unknown,
        constrained=constrained,
        free=free,
    )


def shows_the_same(obs: Observation, hands: list[int], laid: list[int]) -> bool:
    """Whether every seat that showed its best five at the showdown would show the same
    five with the sampled hand (the hand then: what it holds now and has laid since).
    The sampler knows that no single card beats a five shown, not that no two do (a pair
    of tens beside three fives): this is the check, the engine's own choice of five."""
    if obs.plan.hands != FIVE_CARDS:
        return True  # hands ranked by sets (Poch): the table's exact check decides
    for who, five in obs.shown:
        if who == obs.seat:
            continue
        hand = hands[who] | laid[who]
        shown = 0
        for card in five_of(hand, hand_key(hand)):
            shown |= 1 << card
        if shown != five:
            return False
    return True


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]
