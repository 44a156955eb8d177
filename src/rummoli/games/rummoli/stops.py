"""The Rummoli phase: the cards laid in runs, the pay spaces they win, the stops, the
deadlock, and the player who goes out.

Rummoli rules held here (house rules ``lead``, ``switch_lead``, ``must_claim``,
``cant_lead_fine``, ``deadlock``): the winner of the poker phase leads his lowest card
(or the lowest of a suit he chooses); whoever holds the next card of the suit must lay
it, so a run goes on by itself until it stops (the next card is in the widow, laid, or
after an ace); laying a pay card (or completing AKD or 789) wins that space's chips,
unless ``must_claim`` asks for the claim and the player forgets it. After a stop, the
player who stopped leads the lowest card of the other colour; a player without one
passes the duty on and pays the fine; when nobody has one, the deadlock rule ends the
round or lets it go on in any colour. The first player with no card left wins the round
(:mod:`.round_end`).

Why a module of its own: this is the engine's hot loop (:func:`run`, about thirty cards
a round), with the tables it reads; nothing else of a round needs them. Functions take
the state as their first argument: compiled, they are native calls that read its fields
directly, as fast as its own methods were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from rummoli.cards import ACE, BLACK_MASK, NUM_RANKS, RED_MASK, SUIT_FIELD
from rummoli.engine.base import Event
from rummoli.games.rummoli import actions as act
from rummoli.games.rummoli.board import (
    ACE_DIAMONDS,
    KING_DIAMONDS,
    NINE,
    NO_SPACE,
    pay_card_mask,
)
from rummoli.games.rummoli.constants import BIT, LAID, PLAY
from rummoli.games.rummoli.round_end import end_round, win_round

if TYPE_CHECKING:
    from rummoli.games.rummoli.state import RummoliState

#: Cards that can complete a two- or three-card pay space (AD for AKD, any 9 for 789).
_COMBO_END: Final = tuple(card == ACE_DIAMONDS or card % NUM_RANKS == NINE for card in range(52))
_LAY_BASE: Final = act.LAY_BASE
_CLAIM_BASE: Final = act.CLAIM_BASE
#: In a per-state ``lay_space`` table: the card may complete AKD or 789 (look closer).
_COMBO: Final = -3

# The "lay" and "stop" events and the ``laid`` entries, one shared tuple per (seat, card):
# a round lays about thirty cards, and a tuple made once costs nothing to hand out again.
_MAX_SEATS: Final = 8
_LAY_EVENT: Final = tuple(
    tuple(("lay", seat, card) for card in range(52)) for seat in range(_MAX_SEATS)
)
_LAID_ENTRY: Final = tuple(tuple((seat, card) for card in range(52)) for seat in range(_MAX_SEATS))
#: Why a run stopped, as its "stop" event says: the card was an ace (nothing follows it),
#: the next card was laid before, or it is in the widow (nobody holds it: whoever holds
#: the next card must lay it, so every player can tell this too; the event says it for
#: people, who should not have to work it out).
STOP_REASONS: Final = ("ace", "laid", "widow")
_STOP_EVENT: Final = tuple(tuple(("stop", card, why) for why in STOP_REASONS) for card in range(52))
#: For each card, the cards of the other colour (where the lead goes after a stop on it).
_OTHER_COLOUR: Final = tuple(BLACK_MASK if 13 <= card < 39 else RED_MASK for card in range(52))
#: The aces: nothing follows them in their suit, so a run stops on them.
_ACES: Final = sum(1 << (suit * NUM_RANKS + ACE) for suit in range(4))
#: Cards that need a closer look when laid: aces, and every card that may win a space
#: (the single pay cards, AD for AKD, the nines for 789). The others, four in five,
#: take the short path through the lay loop.
_SPECIAL: Final = (
    _ACES
    | sum(1 << card for card in range(52) if _COMBO_END[card])
    | pay_card_mask(ace_of_spades=True)
)
#: For a 4-bit pattern of suits holding one rank: ``suit * 13`` when it holds one suit
#: only, else -1 (the lowest card of a colour is then a choice, or needs one).
_ONLY_SUIT: Final = tuple(
    (pattern.bit_length() - 1) * NUM_RANKS if pattern and not pattern & (pattern - 1) else -1
    for pattern in range(16)
)


#: ``_CARDS_OF_RANK[rank][pattern]``: the cards of ``rank`` in the suits of a 4-bit pattern.
_CARDS_OF_RANK: Final = tuple(
    tuple(
        tuple(suit * NUM_RANKS + rank for suit in range(4) if pattern >> suit & 1)
        for pattern in range(16)
    )
    for rank in range(NUM_RANKS)
)
#: The lowest rank of every non-empty 13-bit rank mask.
_LOWEST_RANK: Final = tuple((ranks & -ranks).bit_length() - 1 for ranks in range(1 << NUM_RANKS))


def _lowest_cards(mask: int) -> tuple[int, ...]:
    """The cards of the lowest rank present in ``mask`` (one per suit holding that rank)."""
    rank = _LOWEST_RANK[(mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT_FIELD]
    column = mask >> rank
    return _CARDS_OF_RANK[rank][
        (column & 1) | (column >> 12 & 2) | (column >> 24 & 4) | (column >> 36 & 8)
    ]


def _lowest_per_suit(mask: int) -> tuple[int, ...]:
    """The lowest card of each suit present in ``mask``."""
    cards = []
    for suit_shift in (0, 13, 26, 39):
        field = (mask >> suit_shift) & SUIT_FIELD
        if field:
            cards.append(suit_shift + _LOWEST_RANK[field])
    return tuple(cards)


def lay_space_table(single_space: Sequence[int]) -> tuple[int, ...]:
    """For each card: the space laying it wins outright, NO_SPACE, or _COMBO (it may
    complete AKD or 789: look closer). A game's rules fix it, so the state makes it once."""
    return tuple(_COMBO if _COMBO_END[card] else single_space[card] for card in range(52))


def start_play(state: RummoliState, leader: int, events: list[Event]) -> None:
    """The poker phase is over: ``leader`` leads the first card."""
    state.phase = PLAY
    hand = state.hands[leader]
    cards = _lowest_cards(hand) if state.rules.lead == "lowest_in_hand" else _lowest_per_suit(hand)
    offer_lay(state, leader, cards, events)


def resume_play(state: RummoliState, events: list[Event]) -> None:
    """Play on from a position in the Rummoli phase, after its last laid card, as
    :func:`run` would have after laying it: the holder of the next card of the suit lays
    it, or the run stops there and the player who laid it leads after the stop. With no
    card laid yet, the leader leads the first."""
    if not state.laid:
        start_play(state, state.leader, events)
        return
    seat, card = state.laid[-1]
    holder = -1 if BIT[card] & _ACES else state.owner[card + 1]
    if holder >= 0:
        card += 1
        if state.rules.must_claim:
            space = space_for(state, holder, card)
            if space != NO_SPACE and state.board[space]:
                offer_lay(state, holder, (card,), events)
                return
        lay_forced(state, holder, card, events)
        return
    events.append(_STOP_EVENT[card][0 if BIT[card] & _ACES else 1 if holder == LAID else 2])
    nxt = after_stop(state, seat, card, events)
    if nxt is not None:
        lay_forced(state, nxt[0], nxt[1], events)


def space_for(state: RummoliState, seat: int, card: int) -> int:
    """The space that laying ``card`` now would win for ``seat`` (or NO_SPACE)."""
    space = state.single_space[card]
    if space != NO_SPACE or not _COMBO_END[card]:
        return space
    laid = state.laid
    if card == ACE_DIAMONDS:
        if laid and laid[-1] == (seat, KING_DIAMONDS):
            return state.space_index["AKD"]
    elif (
        card % NUM_RANKS == NINE
        and len(laid) >= 2
        and laid[-1] == (seat, card - 1)
        and laid[-2] == (seat, card - 2)
    ):
        return state.space_index["789"]
    return NO_SPACE


def offer_lay(state: RummoliState, seat: int, cards: Sequence[int], events: list[Event]) -> None:
    """Let ``seat`` choose among ``cards``; lay at once when there is no real choice."""
    options = [_LAY_BASE + (c % NUM_RANKS) * 4 + c // NUM_RANKS for c in cards]
    if state.rules.must_claim:
        for card in cards:
            space = space_for(state, seat, card)
            if space != NO_SPACE and state.board[space]:
                options.append(_CLAIM_BASE + (card % NUM_RANKS) * 4 + card // NUM_RANKS)
    if len(options) == 1:
        lay_forced(state, seat, cards[0], events)
        return
    options.sort()
    state.to_move = seat
    state.options = options


def play(state: RummoliState, seat: int, action: int, events: list[Event]) -> None:
    """``seat`` lays the card it chose (claiming its space, when ``must_claim`` asks), or
    the forced card a state that lays card by card paused before."""
    card = act.lay_card(action)
    if state.paused:
        state.paused = False
        run(state, seat, card, True, events)
        return
    claim = action >= _CLAIM_BASE or not state.rules.must_claim
    run(state, seat, card, claim, events)


def lay_forced(state: RummoliState, seat: int, card: int, events: list[Event]) -> None:
    """``seat`` must lay ``card`` (the rules leave no choice): at once, or, in a state
    that lays card by card, at the next step (:func:`pause_before`)."""
    if state.card_by_card:
        pause_before(state, seat, card)
    else:
        run(state, seat, card, True, events)


def pause_before(state: RummoliState, seat: int, card: int) -> None:
    """Stop before the forced ``card`` (a state that lays card by card): its one legal
    action is laying it, which :func:`play` takes as the rules' move, not a choice.

    Why: a table shows a run one laid card at a time, each with the chips it moved, and
    takes each step's view from the engine itself (:mod:`.steps`), never rebuilds one.
    """
    state.paused = True
    state.to_move = seat
    state.options = [_LAY_BASE + (card % NUM_RANKS) * 4 + card // NUM_RANKS]


def run(state: RummoliState, seat: int, card: int, claim: bool, events: list[Event]) -> None:
    """Lay ``card`` and every card the rules force after it, until a real choice.

    The hot loop of the engine (about thirty cards a round). Rules and tables are
    read into locals once, ``laid_mask`` is kept in a local and written back before
    anything else may read it, the per-card events are shared tuples, and a card
    that can neither win a space nor end its suit (most of them) skips those checks.
    """
    owner = state.owner
    hands = state.hands
    board = state.board
    lay_space = state._lay_space
    lay = state.laid.append
    emit = events.append
    must_claim = state.rules.must_claim
    single_lead = state._single_lead
    laid_mask = state.laid_mask
    by_card = state.card_by_card
    bits = BIT
    laid_entry = _LAID_ENTRY
    lay_event = _LAY_EVENT
    space = NO_SPACE
    while True:
        bit = bits[card]
        special = bit & _SPECIAL
        if special:
            space = lay_space[card]
            if space == _COMBO:
                space = space_for(state, seat, card)
        hand = hands[seat] ^ bit
        hands[seat] = hand
        laid_mask |= bit
        owner[card] = LAID
        lay(laid_entry[seat][card])
        emit(lay_event[seat][card])
        if special:
            if space >= 0 and board[space]:
                if claim:
                    amount = board[space]
                    board[space] = 0
                    state.chips[seat] += amount
                    emit(("space", seat, state.spaces[space], amount))
                else:
                    emit(("unclaimed", seat, state.spaces[space]))
            holder = -1 if bit & _ACES else owner[card + 1]
        else:
            holder = owner[card + 1]
        if not hand:
            state.laid_mask = laid_mask
            win_round(state, seat, events)
            return
        if holder >= 0:
            card += 1
            if must_claim:
                space = space_for(state, holder, card)
                if space != NO_SPACE and board[space]:
                    state.laid_mask = laid_mask
                    offer_lay(state, holder, (card,), events)
                    return
            if by_card:
                state.laid_mask = laid_mask
                pause_before(state, holder, card)
                return
            seat = holder
            claim = True
            continue
        emit(_STOP_EVENT[card][0 if bit & _ACES else 1 if holder == LAID else 2])
        # After a stop, the fast path of _after_stop: the player who stopped holds the
        # other colour, and its lowest card is in one suit only, so the rules lay it.
        mine = hand & _OTHER_COLOUR[card]
        if mine and single_lead:
            rank = _LOWEST_RANK[(mine | mine >> 13 | mine >> 26 | mine >> 39) & SUIT_FIELD]
            column = mine >> rank
            suit = _ONLY_SUIT[
                (column & 1) | (column >> 12 & 2) | (column >> 24 & 4) | (column >> 36 & 8)
            ]
            if suit >= 0:
                card = suit + rank
                if by_card:
                    state.laid_mask = laid_mask
                    pause_before(state, seat, card)
                    return
                claim = True
                continue
        state.laid_mask = laid_mask
        nxt = after_stop(state, seat, card, events)
        if nxt is None:
            return
        seat, card = nxt
        if by_card:
            pause_before(state, seat, card)
            return
        claim = True


def after_stop(
    state: RummoliState, seat: int, card: int, events: list[Event]
) -> tuple[int, int] | None:
    """Who leads after a stop, and what; None when a decision or the round's end waits."""
    colour = BLACK_MASK if (13 <= card < 39) else RED_MASK
    hands = state.hands
    leader = seat
    mine = hands[seat] & colour
    if not mine:
        skipped = []
        while not hands[leader] & colour:
            skipped.append(leader)
            leader = state.next_in_round[leader]
            if leader == seat:
                return deadlock(state, seat, events)
        fine = state.rules.cant_lead_fine
        for passer in skipped:
            paid = min(fine, state.chips[passer])
            if paid:
                state.chips[passer] -= paid
                state.board[-1] += paid
            events.append(("duty_passes", passer, paid))
        mine = hands[leader] & colour
    if state.rules.switch_lead == "lowest_of_colour":
        cards = _lowest_cards(mine)
    else:
        cards = _lowest_per_suit(mine)
    if len(cards) == 1 and not state.rules.must_claim:
        return leader, cards[0]
    offer_lay(state, leader, cards, events)
    return None


def choose_or_lay(
    state: RummoliState, seat: int, cards: Sequence[int], events: list[Event]
) -> tuple[int, int] | None:
    if len(cards) == 1 and not state.rules.must_claim:
        return seat, cards[0]
    offer_lay(state, seat, cards, events)
    return None


def deadlock(state: RummoliState, seat: int, events: list[Event]) -> tuple[int, int] | None:
    if state.rules.deadlock == "any_colour":
        events.append(("deadlock_continue", seat))
        return choose_or_lay(state, seat, _lowest_cards(state.hands[seat]), events)
    state.deadlocked = True
    events.append(("deadlock",))
    for player in state.in_round:
        paid = min(state.hands[player].bit_count(), state.chips[player])
        state.chips[player] -= paid
        state.board[-1] += paid
        events.append(("deadlock_pays", player, paid))
    end_round(state, events)
    return None
