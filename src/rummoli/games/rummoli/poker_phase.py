"""The poker phase: a showdown, or a round of betting, for the poker space's chips.

Rummoli rules held here (house rules ``poker``, ``bet_limit``): under
``poker="showdown"`` every hand still in shows its best five cards and the best takes
the poker space; under ``poker="betting"`` there is one round of betting (check, call,
raise or fold, within the limit), the bets go on the poker space, an uncalled bet goes
back, and the hands left show for the main pot and each side pot. Ties split, odd chips
stay on the space. The winner of the main pot (the first of them, on a tie) leads the
Rummoli phase (:mod:`.stops`).

Why a module of its own: these are the rules that move chips by betting and compare
poker hands; the pot arithmetic itself (who may bet what, side pots) is in
:mod:`.betting`, which knows nothing of the state, and the other phases are in their own
modules (see :mod:`.state` for the whole layout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.engine.base import Event, SetupError
from rummoli.games.rummoli import actions as act
from rummoli.games.rummoli.betting import Betting
from rummoli.games.rummoli.constants import BETTING, BIT, SETTLE
from rummoli.games.rummoli.stops import start_play
from rummoli.poker import five_of, hand_key

if TYPE_CHECKING:
    from rummoli.games.rummoli.state import RummoliState


def start_poker(state: RummoliState, events: list[Event]) -> None:
    """The showdown at once, or the first bettor's decision."""
    if state.rules.poker == "showdown":
        contenders = state.in_round
        keys = show(state, contenders, events)
        award_poker(state, [(state.board[0], contenders)], keys, events)
        return
    state.betting = new_betting(state, state.in_round)
    state.poker_dead = state.board[0]
    state.phase = BETTING
    next_bettor(state, events)


def new_betting(state: RummoliState, order: list[int]) -> Betting:
    """A betting round among ``order`` (clockwise from the dealer's left) by the house
    rules ``bet_limit`` and ``heads_up_raises``, and the game's rules version."""
    return Betting(order, len(state.names), state._limit, state._heads_up, state._legacy)


def next_bettor(state: RummoliState, events: list[Event]) -> None:
    """Ask the next player who can act, or end the betting."""
    betting = state.betting
    assert betting is not None
    seat = betting.next_seat(state.chips)
    if seat < 0:
        end_betting(state, events)
        return
    betting.seat = seat
    state.to_move = seat
    pot = state.board[state.pot_space]  # the poker space, or the pot being settled
    state.options = betting.legal(seat, state.chips, pot, state.codec.raise_base)


def bet(state: RummoliState, seat: int, action: int, events: list[Event]) -> None:
    """``seat`` checks, folds, calls or raises (in the poker phase, or at a settlement
    played with betting: its chips go on the pot in play, ``pot_space``)."""
    betting = state.betting
    assert betting is not None
    if action == act.CHECK:
        betting.acted[seat] = True
        events.append(("check", seat))
        state.bet_log.append((seat, "check", betting.committed[seat]))
    elif action == act.FOLD:
        betting.folded[seat] = True
        events.append(("fold", seat))
        state.bet_log.append((seat, "fold", betting.committed[seat]))
    else:
        if action == act.CALL:
            total = min(betting.high, betting.committed[seat] + state.chips[seat])
        else:
            total = action - state.codec.raise_base
        raising = total > betting.high
        added = betting.put_in(seat, total, state.chips)
        state.board[state.pot_space] += added
        all_in = state.chips[seat] == 0
        events.append(("raise" if raising else "call", seat, total, added, all_in))
        state.bet_log.append((seat, "raise" if raising else "call", total))
    next_bettor(state, events)


def end_betting(state: RummoliState, events: list[Event]) -> None:
    """The uncalled bet goes back; one player left takes the pot, else the hands show."""
    if state.phase == SETTLE:  # a pot of the settlement (settlement_betting)
        from rummoli.games.rummoli.settlement import end_pot

        end_pot(state, events)
        return
    betting = state.betting
    assert betting is not None
    seat, uncalled = betting.take_back_uncalled()
    if uncalled:
        state.chips[seat] += uncalled
        state.board[0] -= uncalled
        events.append(("returned", seat, uncalled))
    contenders = betting.contenders()
    if len(contenders) == 1:
        award_poker(state, [(state.board[0], contenders)], {}, events)
    else:
        keys = show(state, contenders, events)
        award_poker(state, betting.pots(state.poker_dead), keys, events)


def show(state: RummoliState, seats: list[int], events: list[Event]) -> dict[int, int]:
    """Show the best five cards of each seat; returns the hands' keys by seat."""
    keys = {}
    for seat in seats:
        hand = state.hands[seat]
        if hand.bit_count() < 5:  # only a scenario's position can hold fewer
            raise SetupError(
                f"{state.names[seat]} holds {hand.bit_count()} cards: a showdown needs at "
                "least 5 (give that hand five cards, or play without a showdown)"
            )
        key = keys[seat] = hand_key(hand)
        five = 0
        for card in five_of(hand, key):
            five |= BIT[card]
        state.shown[seat] = five
        events.append(("show", seat, five, key))
    return keys


def award_poker(
    state: RummoliState,
    pots: list[tuple[int, list[int]]],
    keys: dict[int, int],
    events: list[Event],
) -> None:
    """Each pot to the best hand among its seats (``keys``: the shown hands' strength);
    ties split, odd chips stay on the space."""
    winners_all: list[int] = []
    leader = -1
    for index, (amount, eligible) in enumerate(pots):
        if len(eligible) == 1:
            winners = eligible
        else:
            best = max(keys[s] for s in eligible)
            winners = [s for s in eligible if keys[s] == best]
        share = amount // len(winners)
        for seat in winners:
            state.chips[seat] += share
            state.board[0] -= share
            if seat not in winners_all:
                winners_all.append(seat)
        events.append(("poker_pot", index, amount, tuple(winners), share))
        if index == 0:
            leader = winners[0]
    state.poker_winners = sorted(winners_all)
    state.leader = leader
    events.append(("leads", leader))
    start_play(state, leader, events)
