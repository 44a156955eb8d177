"""The widow: the dealer's exchange, then the auction of the widow among the others.

The family's spare hand (Rummoli's widow, Michigan's extra hand, Tripoley's dead hand,
Newmarket's dummy), by the layout's house rules (``widow``,
``pay_card_blocks_exchange``, ``auction``, ``auction_optional``): the dealer may
exchange his hand for the widow's or keep it; if he keeps it, under
``widow="exchange_or_auction"`` the others bid for the widow in turn, clockwise, until
all but the highest bidder have passed; the buyer pays the dealer and exchanges. Under
``auction="one_round"`` a pass is final; under ``"open"`` (the encyclopedia: "any player
except the dealer may bid at any time") a bid lets those who passed bid again, so the
turn goes round until all but the high bidder have passed in a row. With
``auction_optional`` (the rulebook: the dealer who keeps his hand "can auction" the
widow) the dealer may keep his hand and leave the widow dead. A player who holds a pay
card may not exchange when that house rule is on, and a player who cannot outbid passes:
both passes are forced, so nobody is asked (and stay final in an open auction: nothing
can change them). Then the poker phase (:mod:`.poker_phase`) begins
(:func:`.poker_phase.after_widow`: the cards held at the deal are paid first).

Why a module of its own: the exchange and the auction are one decision about one hand,
the widow's, and read nothing of the rest of the round; the other phases are in their
own modules (see :mod:`.state` for the whole layout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.cards import cards_of
from rummoli.engine.base import Event
from rummoli.games.stops import actions as act
from rummoli.games.stops.constants import AUCTION, IN_WIDOW, WIDOW
from rummoli.games.stops.poker_phase import after_widow
from rummoli.games.stops.tables import holds_pay_card

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState


def blocked(state: StopsState, seat: int) -> bool:
    """Whether ``seat`` may not exchange: it holds a pay card, and the house rule says so."""
    return state.plan.pay_card_blocks_exchange and holds_pay_card(
        state.hands[seat], state._pay_cards, state._pay_combos
    )


def start_widow(state: StopsState, events: list[Event]) -> None:
    """After the deal: the dealer's choice (forced when he is blocked), or no widow."""
    if state.plan.widow == "none":
        events.append(("widow_dead",))
        after_widow(state, events)
        return
    optional = state._optional_auction
    if blocked(state, state.dealer):
        events.append(("blocked", state.dealer))
        if not optional:
            events.append(("keep", state.dealer))
            after_keep(state, events)
            return
        options = [act.KEEP, act.NO_AUCTION]
    else:
        options = [act.KEEP, act.EXCHANGE, act.NO_AUCTION] if optional else [act.KEEP, act.EXCHANGE]
    state.phase = WIDOW
    state.to_move = state.dealer
    state.options = options


def widow_decision(state: StopsState, action: int, events: list[Event]) -> None:
    """The dealer keeps his hand (and the widow is auctioned, or stays dead) or exchanges
    it for the widow."""
    if action == act.EXCHANGE:
        exchange(state, state.dealer, events)
        after_widow(state, events)
    elif action == act.NO_AUCTION:
        events.append(("keep", state.dealer))
        events.append(("widow_dead",))
        after_widow(state, events)
    else:
        events.append(("keep", state.dealer))
        after_keep(state, events)


def exchange(state: StopsState, seat: int, events: list[Event]) -> None:
    """``seat`` takes the widow's hand and gives it his own (which he then knows)."""
    old = state.hands[seat]
    new = state.widow
    state.hands[seat] = new
    state.widow = old
    state.widow_taker = seat
    state.known_widow = old
    owner = state.owner
    for card in cards_of(new):
        owner[card] = seat
    for card in cards_of(old):
        owner[card] = IN_WIDOW
    events.append(("exchange", seat))
    events.append(("hand", seat, new))


def after_keep(state: StopsState, events: list[Event]) -> None:
    """The dealer kept his hand: the auction, if the house rules hold one."""
    if state.plan.widow != "exchange_or_auction":
        events.append(("widow_dead",))
        after_widow(state, events)
        return
    state._bidders = state.in_round[:-1]
    state.phase = AUCTION
    next_bidder(state, events)


def next_bidder(state: StopsState, events: list[Event]) -> None:
    """Ask the next player who may bid; pass for those who may not; or end the auction."""
    bidders = state._bidders
    count = len(bidders)
    start = bidders.index(state._bid_turn) + 1 if state._bid_turn >= 0 else 0
    for i in range(count):
        seat = bidders[(start + i) % count]
        if state.auction_passed[seat] or seat == state._auction_high_bidder:
            continue
        is_blocked = blocked(state, seat)
        if is_blocked or state.chips[seat] <= state.auction_high:
            state.auction_passed[seat] = True
            if is_blocked:
                events.append(("blocked", seat))
            events.append(("pass", seat))
            state.auction_log.append((seat, 0))
            continue
        state._bid_turn = seat
        state.to_move = seat
        state.options = [act.PASS]
        state.options.extend(
            range(act.BID_BASE + state.auction_high + 1, act.BID_BASE + state.chips[seat] + 1)
        )
        return
    end_auction(state, events)


def bid(state: StopsState, seat: int, action: int, events: list[Event]) -> None:
    """``seat`` passes or bids."""
    if action == act.PASS:
        state.auction_passed[seat] = True
        events.append(("pass", seat))
        state.auction_log.append((seat, 0))
    else:
        high = state.auction_high = action - act.BID_BASE
        state._auction_high_bidder = seat
        events.append(("bid", seat, high))
        state.auction_log.append((seat, high))
        if state._open_auction:
            # Those who passed may bid again, except those a rule keeps out for good (a
            # pay card, or no more chips than the high bid: nothing can change either).
            passed = state.auction_passed
            for other in state._bidders:
                if passed[other] and state.chips[other] > high and not blocked(state, other):
                    passed[other] = False
    next_bidder(state, events)


def end_auction(state: StopsState, events: list[Event]) -> None:
    """The highest bidder pays the dealer and exchanges; without a bid the widow is dead."""
    winner = state._auction_high_bidder
    if winner < 0:
        events.append(("no_bid",))
        events.append(("widow_dead",))
    else:
        price = state.auction_high
        state.chips[winner] -= price
        state.chips[state.dealer] += price
        events.append(("bought", winner, price, state.dealer))
        exchange(state, winner, events)
    after_widow(state, events)
