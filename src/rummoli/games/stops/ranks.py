"""The runs by rank (Nain Jaune): the family's second way of laying cards.

Nain Jaune is played by rank, not by suit: the first player lays any card and then as
many cards of the next ranks as he holds, in any suits (aces low: ace, 2, ..., 10,
jack, queen, king), saying "sans" the first rank he lacks; whoever holds that rank,
first clockwise from his left, goes on. If nobody holds it, the last player goes on from
the rank after (house rule ``missing_rank``: or starts a new sequence with any card).
A king ends the sequence, and its player starts a new one with any card. Holding two
cards of the next rank, a player chooses which to lay (one of them may win a space).
Laying a board card wins its space (unless ``must_claim`` asks for the claim and the
player forgets it); the first player with no card left wins the round
(:mod:`.round_end`).

Why a second mode and not a case of :mod:`.runs`: the next card is any of four, not one
card of a suit, so who must lay is found by rank, clockwise, and a stop is a king or a
rank nobody holds; what the two share (laying a card, winning a space, choosing among
cards, pausing before a forced card) is :mod:`.runs`' own functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rummoli.cards import NUM_RANKS
from rummoli.engine.base import Event
from rummoli.games.stops import actions as act
from rummoli.games.stops import layout as lay
from rummoli.games.stops.constants import BIT, LAID, PLAY
from rummoli.games.stops.round_end import win_round
from rummoli.games.stops.runs import _pay, lay_options, pause_before

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState

#: The four cards of each rank (index 0 = twos ... 12 = aces).
_RANK_CARDS: Final = tuple(
    tuple(suit * NUM_RANKS + rank for suit in range(4)) for rank in range(NUM_RANKS)
)
#: The rank of each place in the sequence, aces low: ace, 2, ..., king.
_RANK_AT: Final = (12, *range(12))


def _place(card: int) -> int:
    """A card's place in the sequence, aces low (0 = ace ... 12 = king)."""
    rank = card % NUM_RANKS
    return 0 if rank == 12 else rank + 1


def _held(state: StopsState, seat: int, place: int) -> tuple[int, ...]:
    """The cards of the rank at ``place`` that ``seat`` holds."""
    hand = state.hands[seat]
    return tuple(card for card in _RANK_CARDS[_RANK_AT[place]] if hand & BIT[card])


def start_ranks(state: StopsState, leader: int, events: list[Event]) -> None:
    """The first sequence: ``leader`` lays any card."""
    state.phase = PLAY
    new_sequence(state, leader, events)


def new_sequence(state: StopsState, seat: int, events: list[Event]) -> None:
    """``seat`` starts a sequence with any card he holds."""
    state.sequence = -1
    hand = state.hands[seat]
    offer(state, seat, tuple(card for card in range(52) if hand & BIT[card]), events)


def offer(state: StopsState, seat: int, cards: tuple[int, ...], events: list[Event]) -> None:
    """Let ``seat`` choose among ``cards``; lay at once when there is no real choice."""
    options = lay_options(state, seat, cards)
    if len(options) == 1:
        if state.card_by_card:
            pause_before(state, seat, cards[0])
        else:
            run_ranks(state, seat, cards[0], True, events)
        return
    options.sort()
    state.to_move = seat
    state.options = options


def play_rank(state: StopsState, seat: int, action: int, events: list[Event]) -> None:
    """``seat`` lays the card it chose (or the forced card a state paused before)."""
    card = act.lay_card(action)
    if state.paused:
        state.paused = False
        run_ranks(state, seat, card, True, events)
        return
    claim = action >= act.CLAIM_BASE or not state.plan.must_claim
    run_ranks(state, seat, card, claim, events)


def run_ranks(state: StopsState, seat: int, card: int, claim: bool, events: list[Event]) -> None:
    """Lay ``card``, then what the rules make follow it, until a choice or the end."""
    bit = BIT[card]
    state.hands[seat] ^= bit
    state.laid_mask |= bit
    state.owner[card] = LAID
    state.laid.append((seat, card))
    events.append(("lay", seat, card))
    space = state.single_space[card]
    if space >= 0:
        _pay(state, seat, space, claim, events)
    if not state.hands[seat]:
        win_round(state, seat, events)
        return
    after_lay(state, seat, card, events)


def resume_ranks(state: StopsState, events: list[Event]) -> None:
    """Play on from a position in the runs by rank, after its last laid card, as
    :func:`run_ranks` would have after laying it (none laid: the leader starts)."""
    state.phase = PLAY
    if not state.laid:
        new_sequence(state, state.leader, events)
        return
    seat, card = state.laid[-1]
    after_lay(state, seat, card, events)


def after_lay(state: StopsState, seat: int, card: int, events: list[Event]) -> None:
    """``seat`` has laid ``card`` and holds more: who lays the next rank, or anew."""
    place = _place(card)
    if place == NUM_RANKS - 1:  # a king: its player starts again
        events.append(("stop", card, "sequence_king"))
        new_sequence(state, seat, events)
        return
    target = place + 1
    order = state.in_round
    start = order.index(seat)
    count = len(order)
    # The player goes on with the next rank if he holds it; "sans" the rank, whoever
    # holds it, clockwise from the player's left, goes on; if nobody holds it, the same
    # player goes on from the rank after (or starts anew).
    while True:
        state.sequence = target
        mine = _held(state, seat, target)
        if mine:
            offer(state, seat, mine, events)
            return
        events.append(("sans", seat, _RANK_AT[target]))
        for step in range(1, count + 1):
            other = order[(start + step) % count]
            cards = _held(state, other, target)
            if cards:
                offer(state, other, cards, events)
                return
        events.append(("stop", card, "nobody"))
        if state.plan.missing_rank == lay.NEW_SEQUENCE or target == NUM_RANKS - 1:
            new_sequence(state, seat, events)
            return
        target += 1
