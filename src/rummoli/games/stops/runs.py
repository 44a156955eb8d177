"""The runs by suit: the cards laid, the pay spaces they win, the stops, the deadlock,
and the player who goes out.

The family's rules held here, read from the layout (house rules ``lead``,
``switch_lead``, ``must_claim``, ``cant_lead_fine``, ``deadlock``): the leader lays his
lowest card, or the lowest of a suit he chooses, or any card (Pope Joan), or the lowest
club (Newmarket); whoever holds the next card of the suit must lay it, so a run goes on
by itself until it stops (the next card is in the widow or the talon, laid, out of the
pack or turned for trumps, or the card was the top of its suit: the ace, or the king
when aces are low); laying a pay card (or completing a space of several cards) wins
that space's chips, unless ``must_claim`` asks for the claim and the player forgets it.
After a stop, the player who stopped leads again by the layout: the lowest card of the
other colour (Rummoli), of another suit (Michigan), of a suit of his choice, or any
card (Pope Joan); a player without one passes the duty on and pays the fine; when
nobody has one, the deadlock rule ends the round or lets it go on in any suit. The
first player with no card left wins the round (:mod:`.round_end`).

Why a module of its own: this is the engine's hot loop (:func:`run`, about thirty cards
a round), with the tables it reads (:mod:`.tables`); nothing else of a round needs them.
Functions take the state as their first argument: compiled, they are native calls that
read its fields directly, as fast as its own methods were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from rummoli.cards import ACE, NUM_RANKS, SUIT_FIELD
from rummoli.engine.base import Event
from rummoli.games.stops import actions as act
from rummoli.games.stops import layout as lay
from rummoli.games.stops.constants import BIT, LAID, PLAY
from rummoli.games.stops.layout import MAX_SEATS
from rummoli.games.stops.round_end import end_round, win_round
from rummoli.games.stops.tables import COMBO, MANY, NO_SPACE

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState

_LAY_BASE: Final = act.LAY_BASE
_CLAIM_BASE: Final = act.CLAIM_BASE

# The "lay" and "stop" events and the ``laid`` entries, one shared tuple per (seat, card):
# a round lays about thirty cards, and a tuple made once costs nothing to hand out again.
# Typed as tuples of any length (an entry as ``Any``), not ``tuple[int, int]``: compiled,
# a tuple of known length is unpacked into a C struct when read, and handing it out made
# a new tuple each time (two per card laid, and the 5-tuple below at every stop).
_LAY_EVENT: Final[tuple[tuple[Event, ...], ...]] = tuple(
    tuple(("lay", seat, card) for card in range(52)) for seat in range(MAX_SEATS)
)
_LAID_ENTRY: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple((seat, card) for card in range(52)) for seat in range(MAX_SEATS)
)
#: Why a run stopped, as its "stop" event says: the card was an ace (nothing follows it),
#: the next card was laid before, it is in the widow (nobody holds it: whoever holds
#: the next card must lay it, so every player can tell this too; the event says it for
#: people, who should not have to work it out), it is not in the pack, it was turned for
#: trumps, or the card was a king, the top of its suit when aces are low; in the runs by
#: rank (:mod:`.ranks`), nobody holds a card of the next rank.
STOP_REASONS: Final = ("ace", "laid", "widow", "removed", "turned", "king", "nobody")
_STOP_EVENT: Final[tuple[tuple[Event, ...], ...]] = tuple(
    tuple(("stop", card, why) for why in STOP_REASONS) for card in range(52)
)
#: The reason of a stop by the place of the next card (``owner``: -1 the widow, -2 laid,
#: -3 out of the pack, -4 turned), indexed by minus that place.
_WHY_BY_PLACE: Final[tuple[int, ...]] = (0, 2, 1, 3, 4)
#: The aces, by suit.
_ACES: Final = sum(1 << (suit * NUM_RANKS + ACE) for suit in range(4))
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


def lowest_cards(state: StopsState, mask: int) -> tuple[int, ...]:
    """The lowest cards of a non-empty ``mask`` (the aces, when aces are low)."""
    if state._ace_low and mask & _ACES:
        return tuple(card for card in range(ACE, 52, NUM_RANKS) if mask >> card & 1)
    return _lowest_cards(mask)


def lowest_per_suit(state: StopsState, mask: int) -> tuple[int, ...]:
    """The lowest card of each suit of ``mask`` (an ace, when aces are low)."""
    if not state._ace_low:
        return _lowest_per_suit(mask)
    cards = []
    for shift in (0, 13, 26, 39):
        field = (mask >> shift) & SUIT_FIELD
        if field:
            cards.append(shift + ACE if field >> ACE & 1 else shift + _LOWEST_RANK[field])
    return tuple(cards)


def _cards(mask: int) -> tuple[int, ...]:
    return tuple(card for card in range(52) if mask >> card & 1)


def start_play(state: StopsState, leader: int, events: list[Event]) -> None:
    """The first run: ``leader`` leads by the layout's lead rule (Newmarket's leader, -1
    here, is the holder of the lowest club: he is found and named)."""
    state.phase = PLAY
    plan = state.plan
    if leader < 0:
        card = _lowest_of_suits(state, plan.lead_suits)
        leader = state.owner[card]
        state.leader = leader
        events.append(("leads", leader))
        offer_lay(state, leader, (card,), events)
        return
    hand = state.hands[leader]
    lead = plan.lead
    if lead == lay.LOWEST_IN_HAND:
        cards = lowest_cards(state, hand)
    elif lead == lay.LOWEST_OF_ANY_SUIT:
        cards = lowest_per_suit(state, hand)
    else:
        cards = _cards(hand)
    offer_lay(state, leader, cards, events)


def _lowest_of_suits(state: StopsState, suits: Sequence[int]) -> int:
    """The lowest card any player holds of the first of ``suits`` that a player holds."""
    held = 0
    for seat in state.in_round:
        held |= state.hands[seat]
    for suit in (*suits, 0, 1, 2, 3):
        field = held >> (suit * NUM_RANKS) & SUIT_FIELD
        if field:
            return lowest_per_suit(state, field << (suit * NUM_RANKS))[0]
    raise AssertionError("nobody holds a card")


def resume_play(state: StopsState, events: list[Event]) -> None:
    """Play on from a position in the runs, after its last laid card, as :func:`run`
    would have after laying it: the holder of the next card of the suit lays it, or the
    run stops there and the player who laid it leads after the stop. With no card laid
    yet, the leader leads the first."""
    if not state.laid:
        start_play(state, state.leader, events)
        return
    seat, card = state.laid[-1]
    top = BIT[card] & state._tops
    holder = -1 if top else state.owner[state._next[card]]
    if holder >= 0:
        card = state._next[card]
        if state.plan.must_claim:
            space = space_for(state, holder, card)
            if space == MANY or (space != NO_SPACE and state.board[space]):
                offer_lay(state, holder, (card,), events)
                return
        lay_forced(state, holder, card, events)
        return
    events.append(_STOP_EVENT[card][_top_why(state) if top else _WHY_BY_PLACE[-holder]])
    nxt = after_stop(state, seat, card, events)
    if nxt is not None:
        lay_forced(state, nxt[0], nxt[1], events)


def _top_why(state: StopsState) -> int:
    """The stop reason of a suit's top card: an ace, or a king when aces are low."""
    return 5 if state._ace_low else 0


def space_for(state: StopsState, seat: int, card: int) -> int:
    """The space that laying ``card`` now would win for ``seat``: NO_SPACE, a space, or
    MANY (more than one: :func:`spaces_won` lists them). Asked before the card is laid."""
    single = state.single_space[card]
    combos = state._combos[card]
    if not combos:
        return single
    won = single
    for space, way, in_a_row in combos:
        if _completes(state, seat, card, way, in_a_row):
            if won != NO_SPACE:
                return MANY
            won = space
    return won


def spaces_won(state: StopsState, seat: int, card: int) -> list[int]:
    """Every space laying ``card`` now wins for ``seat`` (asked before it is laid)."""
    won = [] if state.single_space[card] == NO_SPACE else [state.single_space[card]]
    for space, way, in_a_row in state._combos[card]:
        if _completes(state, seat, card, way, in_a_row):
            won.append(space)
    return won


def _completes(
    state: StopsState, seat: int, card: int, way: tuple[int, ...], in_a_row: bool
) -> bool:
    """Whether laying ``card`` completes ``way`` for ``seat``: the cards before it laid
    just before, one after another, by him (in a row); or all laid by him this round."""
    laid = state.laid
    if in_a_row:  # loops, not all() over a generator: this is asked at every 9 and AD
        before = len(way) - 1
        count = len(laid)
        if count < before:
            return False
        for back in range(1, before + 1):
            entry = laid[count - back]
            if entry[0] != seat or entry[1] != way[before - back]:
                return False
        return True
    for other in way:  # noqa: SIM110 (a loop: all() over a generator is slower compiled)
        if other != card and (seat, other) not in laid:
            return False
    return True


def lay_options(state: StopsState, seat: int, cards: Sequence[int]) -> list[int]:
    """The actions that lay one of ``cards`` (and claim its space, under ``must_claim``)."""
    options = [_LAY_BASE + (c % NUM_RANKS) * 4 + c // NUM_RANKS for c in cards]
    if state.plan.must_claim:
        for card in cards:
            space = space_for(state, seat, card)
            if space == MANY or (space != NO_SPACE and state.board[space]):
                options.append(_CLAIM_BASE + (card % NUM_RANKS) * 4 + card // NUM_RANKS)
    return options


def offer_lay(state: StopsState, seat: int, cards: Sequence[int], events: list[Event]) -> None:
    """Let ``seat`` choose among ``cards``; lay at once when there is no real choice."""
    options = lay_options(state, seat, cards)
    if len(options) == 1:
        lay_forced(state, seat, cards[0], events)
        return
    options.sort()
    state.to_move = seat
    state.options = options


def play(state: StopsState, seat: int, action: int, events: list[Event]) -> None:
    """``seat`` lays the card it chose (claiming its space, when ``must_claim`` asks), or
    the forced card a state that lays card by card paused before."""
    card = act.lay_card(action)
    if state.paused:
        state.paused = False
        run(state, seat, card, True, events)
        return
    claim = action >= _CLAIM_BASE or not state.plan.must_claim
    run(state, seat, card, claim, events)


def lay_forced(state: StopsState, seat: int, card: int, events: list[Event]) -> None:
    """``seat`` must lay ``card`` (the rules leave no choice): at once, or, in a state
    that lays card by card, at the next step (:func:`pause_before`)."""
    if state.card_by_card:
        pause_before(state, seat, card)
    else:
        run(state, seat, card, True, events)


def pause_before(state: StopsState, seat: int, card: int) -> None:
    """Stop before the forced ``card`` (a state that lays card by card): its one legal
    action is laying it, which :func:`play` takes as the rules' move, not a choice.

    Why: a table shows a run one laid card at a time, each with the chips it moved, and
    takes each step's view from the engine itself (:mod:`.steps`), never rebuilds one.
    """
    state.paused = True
    state.to_move = seat
    state.options = [_LAY_BASE + (card % NUM_RANKS) * 4 + card // NUM_RANKS]


def _pay(state: StopsState, seat: int, space: int, claim: bool, events: list[Event]) -> None:
    """``seat`` laid the card that wins ``space``: its chips, if it claims them."""
    board = state.board
    if not board[space]:
        return
    if claim:
        amount = board[space]
        board[space] = 0
        state.chips[seat] += amount
        events.append(("space", seat, state.spaces[space], amount))
    else:
        events.append(("unclaimed", seat, state.spaces[space]))


def run(state: StopsState, seat: int, card: int, claim: bool, events: list[Event]) -> None:
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
    must_claim = state.plan.must_claim
    single_lead = state._single_lead
    laid_mask = state.laid_mask
    by_card = state.card_by_card
    special_cards = state._special
    tops = state._tops
    following = state._next
    switch = state._switch
    bits = BIT
    laid_entry = _LAID_ENTRY
    lay_event = _LAY_EVENT
    space = NO_SPACE
    won: list[int] = []
    while True:
        bit = bits[card]
        special = bit & special_cards
        if special:
            space = lay_space[card]
            if space == COMBO:
                space = space_for(state, seat, card)
                if space == MANY:
                    won = spaces_won(state, seat, card)
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
            elif space == MANY:
                for one in won:
                    _pay(state, seat, one, claim, events)
            holder = -1 if bit & tops else owner[following[card]]
        else:
            holder = owner[card + 1]
        if not hand:
            state.laid_mask = laid_mask
            win_round(state, seat, events)
            return
        if holder >= 0:
            card = following[card] if special else card + 1
            if must_claim:
                space = space_for(state, holder, card)
                if space == MANY or (space != NO_SPACE and board[space]):
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
        emit(_STOP_EVENT[card][_top_why(state) if bit & tops else _WHY_BY_PLACE[-holder]])
        # After a stop, the fast path of after_stop: the player who stopped holds a card
        # he may lead, and its lowest is in one suit only, so the rules lay it.
        mine = hand & switch[card]
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
        after = after_stop(state, seat, card, events)
        if after is None:
            return
        seat, card = after
        if by_card:
            pause_before(state, seat, card)
            return
        claim = True


def after_stop(
    state: StopsState, seat: int, card: int, events: list[Event]
) -> tuple[int, int] | None:
    """Who leads after a stop, and what; None when a decision or the round's end waits."""
    allowed = state._switch[card]
    hands = state.hands
    leader = seat
    mine = hands[seat] & allowed
    if not mine:
        skipped = []
        while not hands[leader] & allowed:
            skipped.append(leader)
            leader = state.next_in_round[leader]
            if leader == seat:
                return deadlock(state, seat, events)
        fine = state.plan.cant_lead_fine
        for passer in skipped:
            paid = min(fine, state.chips[passer])
            if paid:
                state.chips[passer] -= paid
                state.board[state._kitty] += paid
            events.append(("duty_passes", passer, paid))
        mine = hands[leader] & allowed
    switch = state.plan.switch_lead
    if switch == lay.LOWEST_OF_COLOUR or switch == lay.LOWEST_OF_OTHER_SUITS:
        cards = lowest_cards(state, mine)
    elif switch == lay.ANY_CARD:
        cards = _cards(mine)
    else:
        cards = lowest_per_suit(state, mine)
    return choose_or_lay(state, leader, cards, events)


def choose_or_lay(
    state: StopsState, seat: int, cards: Sequence[int], events: list[Event]
) -> tuple[int, int] | None:
    if len(cards) == 1 and not state.plan.must_claim:
        return seat, cards[0]
    offer_lay(state, seat, cards, events)
    return None


def deadlock(state: StopsState, seat: int, events: list[Event]) -> tuple[int, int] | None:
    if state.plan.deadlock == lay.CONTINUE:
        events.append(("deadlock_continue", seat))
        return choose_or_lay(state, seat, lowest_cards(state, state.hands[seat]), events)
    state.deadlocked = True
    events.append(("deadlock",))
    kitty = state._kitty
    for player in state.in_round:
        paid = min(state.hands[player].bit_count(), state.chips[player]) if kitty >= 0 else 0
        state.chips[player] -= paid
        if kitty >= 0:
            state.board[kitty] += paid
        events.append(("deadlock_pays", player, paid))
    end_round(state, events)
    return None
