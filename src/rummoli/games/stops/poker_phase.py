"""The cards held at the deal, and the poker stage: a showdown, or a round of betting.

The family's rules held here. First, after the widow: the pay spaces won by the cards
*held* (Tripoley's stage 1, Poch's first stage) go to their holders, one claim an event;
a space held by several (the 8-9-10 of two suits) goes to the first from the dealer's
left, or is shared (``split``); a card in the spare hand or the talon wins nothing, and
its chips stay. Then the poker stage, by the layout: none; ``showdown``, every hand
still in shows its best five cards and the best takes the poker space; ``betting``, one
round of betting (check, call, raise or fold, within the limit; opened by the dealer's
left or the dealer; under ``open_with_set`` only a player holding a set may bet first,
Poch's "ich poche"), the bets go on the poker space, an uncalled bet goes back, and the
hands left show for the main pot and each side pot. Hands rank as poker hands (best
five of all one holds) or by sets alone (Poch: quads, trips, pairs; the higher rank;
the set holding the trump breaks a tie). Ties split, odd chips stay on the space. Then
the first run (:mod:`.runs`, :mod:`.ranks`) is led by the layout's leader: the winner of
the main pot (the first of them, on a tie), the dealer, his left, or the holder of a
card.

Why a module of its own: these are the rules that move chips by betting and compare
poker hands; the pot arithmetic itself (who may bet what, side pots) is in
:mod:`.betting`, which knows nothing of the state, and the other phases are in their own
modules (see :mod:`.state` for the whole layout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.cards import NUM_RANKS
from rummoli.engine.base import Event, SetupError
from rummoli.games.stops import actions as act
from rummoli.games.stops import layout as lay
from rummoli.games.stops.betting import Betting
from rummoli.games.stops.constants import BETTING, BIT, SETTLE
from rummoli.games.stops.ranks import start_ranks
from rummoli.games.stops.runs import start_play
from rummoli.poker import five_of, hand_key

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState


def after_widow(state: StopsState, events: list[Event]) -> None:
    """The widow is settled: the cards held win their spaces, then the poker stage."""
    if state.tables.held:
        claim_held(state, events)
    start_poker(state, events)


def claim_held(state: StopsState, events: list[Event]) -> None:
    """Each held space to the players holding its cards, claimed in turn from the
    dealer's left (the first takes it; or they share, odd chips staying)."""
    board = state.board
    hands = state.hands
    for space, ways, split in state.tables.held:
        holders: list[tuple[int, int]] = []
        for seat in state.in_round:
            hand = hands[seat]
            for way in ways:
                if all(hand >> card & 1 for card in way):
                    shown = 0
                    for card in way:
                        shown |= BIT[card]
                    holders.append((seat, shown))
                    break
        if not holders or not board[space]:
            continue
        if not split:
            holders = holders[:1]
        share = board[space] // len(holders)
        for seat, shown in holders:
            board[space] -= share
            state.chips[seat] += share
            state.claims.append((seat, space, share, shown))
            events.append(("claim", seat, state.spaces[space], share, shown))


def start_poker(state: StopsState, events: list[Event]) -> None:
    """No poker stage (the first run at once), the showdown, or the first bettor."""
    poker = state.plan.poker
    if poker == lay.NONE:
        lead_first(state, -1, events)
        return
    if poker == lay.SHOWDOWN:
        contenders = state.in_round
        keys = show(state, contenders, events)
        award_poker(state, [(state.board[0], contenders)], keys, events)
        return
    order = state.in_round
    if state.plan.poker_opener == lay.DEALER:
        order = order[-1:] + order[:-1]
    state.betting = new_betting(state, order)
    state.poker_dead = state.board[0]
    state.phase = BETTING
    next_bettor(state, events)


def lead_first(state: StopsState, poker_winner: int, events: list[Event]) -> None:
    """The first run, led by the layout's leader (the poker winner, when there is one
    and the layout says so; else the dealer's left)."""
    plan = state.plan
    leader = plan.leader
    if leader == lay.POKER_WINNER and poker_winner >= 0:
        seat = poker_winner
    elif leader == lay.DEALER:
        seat = state.dealer
    elif leader == lay.LOWEST_OF_SUIT:
        seat = -1
    else:
        seat = state.in_round[0]
    if plan.play == lay.RANK:
        state.leader = seat
        events.append(("leads", seat))
        start_ranks(state, seat, events)
        return
    if seat >= 0:
        state.leader = seat
        events.append(("leads", seat))
    start_play(state, seat, events)


def new_betting(state: StopsState, order: list[int]) -> Betting:
    """A betting round among ``order`` (clockwise from the dealer's left) by the house
    rules ``bet_limit`` and ``heads_up_raises``, and the game's rules version."""
    return Betting(order, len(state.names), state._limit, state._heads_up, state._legacy)


def next_bettor(state: StopsState, events: list[Event]) -> None:
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
    options = betting.legal(seat, state.chips, pot, state.codec.raise_base)
    if (
        betting.high == 0
        and state.plan.open_with_set
        and state.phase == BETTING
        and not sets_key(state.hands[seat], state.trump)
    ):
        options = [act.CHECK]  # no set: he may not open (Poch: only a set "poches")
        betting.acted[seat] = True
        events.append(("check", seat))
        state.bet_log.append((seat, "check", 0))
        next_bettor(state, events)
        return
    state.options = options


def bet(state: StopsState, seat: int, action: int, events: list[Event]) -> None:
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


def end_betting(state: StopsState, events: list[Event]) -> None:
    """The uncalled bet goes back; one player left takes the pot, else the hands show."""
    if state.phase == SETTLE:  # a pot of the settlement (settlement_betting)
        from rummoli.games.stops.settlement import end_pot

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
    elif betting.high == 0 and state.plan.open_with_set and not state.plan.unopened_showdown:
        events.append(("unopened",))  # nobody could or would open: the pool stays
        lead_first(state, -1, events)
    else:
        keys = show(state, contenders, events)
        award_poker(state, betting.pots(state.poker_dead), keys, events)


def show(state: StopsState, seats: list[int], events: list[Event]) -> dict[int, int]:
    """Show the best five cards of each seat (or, ranked by sets, each seat's best set);
    returns the hands' keys by seat."""
    keys = {}
    if state.plan.hands == lay.SETS:
        for seat in seats:
            key = keys[seat] = sets_key(state.hands[seat], state.trump)
            cards = set_cards(state.hands[seat], key)
            state.shown[seat] = cards
            events.append(("show_set", seat, cards))
        return keys
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
    state: StopsState,
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
            if not best and state.plan.hands == lay.SETS:
                winners = []  # no set at all: nobody takes the pool, it stays
        if not winners:
            events.append(("poker_pot", index, amount, (), 0))
            continue
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
    if state.plan.leader == lay.POKER_WINNER and state.plan.play == lay.SUIT and leader >= 0:
        state.leader = leader
        events.append(("leads", leader))
        start_play(state, leader, events)
        return
    lead_first(state, leader, events)


def sets_key(hand: int, trump: int) -> int:
    """A hand's best set, as a number that compares (0: no set): the most cards of one
    rank (quads, trips, a pair), then the rank, then whether it holds the trump of that
    rank (Poch: "Atout" breaks a tie)."""
    best = 0
    for rank in range(NUM_RANKS):
        column = hand >> rank
        count = (column & 1) + (column >> 13 & 1) + (column >> 26 & 1) + (column >> 39 & 1)
        if count < 2:
            continue
        trump_held = trump >= 0 and hand >> (trump * NUM_RANKS + rank) & 1
        key = count * 64 + rank * 2 + (1 if trump_held else 0)
        if key > best:
            best = key
    return best


def set_cards(hand: int, key: int) -> int:
    """The cards of the set a :func:`sets_key` names (0 for no set)."""
    if not key:
        return 0
    rank = key % 64 // 2
    mask = 0
    for suit in range(4):
        mask |= hand & (1 << (suit * NUM_RANKS + rank))
    return mask
