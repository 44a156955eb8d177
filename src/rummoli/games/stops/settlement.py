"""The settlement played with betting (house rule ``settlement_betting``).

The encyclopedia: "After the agreed end of the round play, all chips on the board are
placed into one pot and a round of poker dealt and played for it. A variation is to play
a round for each pot that still has chips in it, starting with the pot with the fewest
chips." With this house rule each such deal (``settlement``: ``one_poker_hand``, or
``poker_per_pot`` for each space) is followed by one betting round, as the poker phase's
(``bet_limit``, ``heads_up_raises``): each player still in gets five cards from a fresh
deck, from the dealer's left, sees only his own, and bets; the bets go on the pot played
for (the whole board gathered on the poker space, or the space being settled). The hands
left are shown, and the pot, with side pots when a player is all-in, goes to the best
hand among those who matched it; ties split, the odd chips to the first winner from the
dealer's left (as every settlement). A fold gives up that pot only. A player with no
chips is all-in from the start.

Why a module of its own: the plain settlement is one chance step (:mod:`.round_end`);
this one waits for decisions between deals, so it keeps its place in the state
(``settle_queue``, ``settle_hands``, ``settle_cards``, ``pot_space``) and plays the poker
phase's betting (:mod:`.poker_phase`, :mod:`.betting`), whose end comes back here
(:func:`end_pot`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.engine.base import Event, SetupError
from rummoli.games.stops.constants import SETTLE
from rummoli.games.stops.poker_phase import new_betting, next_bettor
from rummoli.games.stops.round_end import deal_five, finish, share_out, spaces_by_size
from rummoli.poker import hand_key

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState


def start_settlement(state: StopsState, seats: list[int], events: list[Event]) -> None:
    """The settlement's pots in order, each dealt and bet for by ``seats`` (in order from
    the dealer's left)."""
    state.in_round = seats
    state.auction_log = []  # the last round's: the settlement has no auction
    state.settle_cards = list(state.setup.settlement)
    board = state.board
    if state.plan.settlement == "poker_per_pot":
        state.settle_queue = spaces_by_size(state)
    else:  # one pot: the whole board, gathered on the poker space
        total = sum(board)
        for space in range(len(board)):
            board[space] = 0
        board[0] = total
        state.settle_queue = [0]
    next_pot(state, events)


def next_pot(state: StopsState, events: list[Event]) -> None:
    """Deal the next pot's hands and open its betting; after the last, the game ends."""
    if not state.settle_queue:
        left = state.settle_cards
        if left:
            given = len(state.setup.settlement)
            raise SetupError(
                f"the settlement used {given - len(left)} of its {given} cards: "
                f"{len(left)} left over"
            )
        state.pot_space = 0
        state.betting = None
        finish(state, events)
        return
    space = state.settle_queue.pop(0)
    one_pot = state.plan.settlement != "poker_per_pot"
    name = "all" if one_pot else state.spaces[space]
    seats = state.in_round
    hands = deal_five(state, name, seats, state.settle_cards)
    state.settle_hands = [hands.get(s, 0) for s in range(len(state.names))]
    for seat in seats:
        events.append(("settle_dealt", seat, hands[seat]))
    state.settle_name = name
    state.pot_space = space
    state.poker_dead = state.board[space]
    state.bet_log = []
    state.shown = {}
    state.betting = new_betting(state, seats)
    state.phase = SETTLE
    next_bettor(state, events)


def end_pot(state: StopsState, events: list[Event]) -> None:
    """The uncalled bet goes back; the hands left are shown; the pot and its side pots
    go to the best hands that matched them."""
    betting = state.betting
    assert betting is not None
    space = state.pot_space
    board = state.board
    seat, uncalled = betting.take_back_uncalled()
    if uncalled:
        state.chips[seat] += uncalled
        board[space] -= uncalled
        events.append(("returned", seat, uncalled))
    contenders = betting.contenders()
    name = state.settle_name
    if len(contenders) == 1:
        amount = board[space]
        board[space] = 0
        share_out(state, name, amount, contenders, events)
    else:
        keys = {}
        for seat in contenders:
            hand = state.settle_hands[seat]
            keys[seat] = hand_key(hand)
            events.append(("settle_hand", seat, hand, keys[seat]))
        for amount, eligible in betting.pots(state.poker_dead):
            best = max(keys[s] for s in eligible)
            board[space] -= amount
            share_out(state, name, amount, [s for s in eligible if keys[s] == best], events)
    assert board[space] == 0
    next_pot(state, events)
