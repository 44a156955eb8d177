"""The chance step that opens a round: the end of the game, eliminations, the cut for
the first dealer, the ante and the deal.

The family's rules held here: a player who cannot pay the ante (his stakes, the dealer's
when they are more; or what he can under ``short_ante="pay_what_you_can"``) is out; with
fewer than two players left, or after the last round (``rounds``) or a request to stop,
the game is settled instead (:mod:`.round_end`). When fewer than two can pay, the game
ends by elimination even if a stop was asked for at the same time: the players who
cannot pay are out (all of them, when nobody can pay). The players still in cut for the
first dealer (highest rank deals, ties cut again); the deal then passes to the left.
Each player stakes the board as the layout says (Rummoli: a chip a space; Michigan: the
dealer two; Nain Jaune: one to five); chips placed by choice are placed next
(:mod:`.stake`). Then the layout's deal: every card one at a time from the dealer's
left with the spare hand after the dealer (Rummoli's widow) or first (Michigan's), or a
count each and a talon (Nain Jaune, Poch); a card turned for trumps (Pope Joan, Poch).
The widow phase (:mod:`.widow`) follows.

Why a module of its own: this is the one chance step between rounds, and every part of
it draws on the game's seed; the rules of each phase of a round are in their own module
(see :mod:`.state` for the whole layout). Functions take the state as their first
argument: compiled, they are native calls that read its fields directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummoli.cards import NUM_RANKS
from rummoli.engine.base import Event, SetupError
from rummoli.games.stops import layout as lay
from rummoli.games.stops.constants import (
    BIT,
    DRAW_CUT,
    DRAW_DEAL,
    IN_WIDOW,
    LAID,
    PLAY,
    REMOVED,
    TURNED,
)
from rummoli.games.stops.ranks import resume_ranks
from rummoli.games.stops.round_end import end_round, fixed_draw, highest_cut, settle
from rummoli.games.stops.runs import resume_play
from rummoli.games.stops.stake import start_stakes
from rummoli.games.stops.tables import board_tables
from rummoli.games.stops.widow import start_widow

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState


def cut_for_dealer(state: StopsState, events: list[Event]) -> None:
    """Players still in cut; the highest rank deals, tied players cut again.

    A scenario may fix the cut's cards (``setup.cut``): each cut takes the next cards, one
    per player cutting, in seat order; they must all be used."""
    contenders = [s for s in range(len(state.names)) if not state.out[s]]
    fixed = list(state.setup.cut)
    given = len(fixed)
    while len(contenders) > 1:
        if given:
            deck = fixed_draw(fixed, len(contenders), "the cut for the first dealer")
        else:
            deck = state._draw_deck(DRAW_CUT)
        contenders = highest_cut(contenders, deck, "cut", events)
    if fixed:
        raise SetupError(
            f"the cut for the first dealer used {given - len(fixed)} of its "
            f"{given} cards: {len(fixed)} left over"
        )
    state.dealer = contenders[0]


def who_can_pay_ante(state: StopsState) -> list[int]:
    """The seats still in that can pay the ante (all of it, under ``short_ante="out"``:
    the dealer's, when the dealer stakes more, since the deal comes to everyone)."""
    need = state.tables.full_ante if state.plan.short_ante == "out" else 1
    return [s for s in range(len(state.names)) if not state.out[s] and state.chips[s] >= need]


def check_hands(
    state: StopsState, hands: Sequence[Sequence[int]], playing: list[int], where: str
) -> None:
    """Fixed hands for a round must fit who plays it: cards for every player who pays the
    ante, none for the others (``where`` names the deal in the message)."""
    for seat, name in enumerate(state.names):
        if seat in playing and not hands[seat]:
            raise SetupError(f"{where}{name} plays this round but holds no card")
        if seat not in playing and hands[seat]:
            why = "is out of the game" if state.out[seat] else "cannot pay the ante"
            raise SetupError(f"{where}{name} {why}, so cannot hold cards")
    if len(playing) < 2:
        raise SetupError(f"{where}fewer than two players can pay the ante")


def begin_round(state: StopsState, events: list[Event], rotate: bool) -> None:
    """Ante, elimination, end of game, or the deal of a new round."""
    if state.round_no == 0 and state.setup.laid is not None:
        begin_in_play(state, events)
        return
    plan = state.plan
    stop = (plan.rounds and state.round_no >= plan.rounds) or state.end_requested
    playing = who_can_pay_ante(state)
    # Fewer than two players able to pay (fewer than a deal by table is for) end the game
    # by elimination, whether or not the table asked to stop: those who cannot pay are
    # out (rules version 1 settled a stop first, with nobody out).
    fewest = plan.fewest_dealt
    if stop and (len(playing) >= fewest or state._legacy):
        settle(state, events)
        return
    for seat in range(len(state.names)):
        if not state.out[seat] and seat not in playing:
            state.out[seat] = True
            events.append(("out", seat))
    if len(playing) < fewest:
        settle(state, events)
        return
    n = len(state.names)
    if state.dealer < 0:
        cut_for_dealer(state, events)
    elif rotate or state.out[state.dealer]:
        seat = state.dealer
        for _ in range(n):
            seat = (seat + 1) % n
            if not state.out[seat]:
                break
        state.dealer = seat
    events.append(("dealer", state.dealer))
    state._clear_round()
    state.round_no += 1
    order = [(state.dealer + 1 + i) % n for i in range(n)]
    state.in_round = [s for s in order if not state.out[s]]
    for i, seat in enumerate(state.in_round):
        state.next_in_round[seat] = state.in_round[(i + 1) % len(state.in_round)]
    ante(state, events)
    if plan.chosen_stake:
        start_stakes(state, events)
        return
    deal(state, events)


def ante(state: StopsState, events: list[Event]) -> None:
    """Every player dealt in stakes the board. One chip a space (Rummoli's) is paid in
    one pass; stakes that differ by space or for the dealer, space by space. A player
    short of chips (``pay_what_you_can``) pays a chip a space in board order while his
    chips last."""
    board = state.board
    chips = state.chips
    spaces = len(board)
    plan = state.plan
    if state.tables.uniform_ante:
        full = 0
        for seat in state.in_round:
            if chips[seat] >= spaces:
                chips[seat] -= spaces
                full += 1
                events.append(("ante", seat, spaces))
            else:  # pay_what_you_can: one chip a space, in board order, while chips last
                paid = chips[seat]
                chips[seat] = 0
                for space in range(paid):
                    board[space] += 1
                events.append(("ante", seat, paid))
        if full:
            for space in range(spaces):
                board[space] += full
        return
    for seat in state.in_round:
        dealer = seat == state.dealer
        stakes = [s.stake + (s.dealer_stake if dealer else 0) for s in plan.spaces]
        paid = 0
        if chips[seat] >= sum(stakes) + plan.chosen_stake:
            for space, stake in enumerate(stakes):
                board[space] += stake
                paid += stake
        else:  # pay_what_you_can: a chip a space in board order, round after round
            left = min(chips[seat], sum(stakes))
            owed = stakes[:]
            while left:
                for space in range(spaces):
                    if owed[space] and left:
                        owed[space] -= 1
                        board[space] += 1
                        left -= 1
                        paid += 1
        chips[seat] -= paid
        events.append(("ante", seat, paid))


def deal(state: StopsState, events: list[Event]) -> None:
    """Deal the layout's way: one card at a time from the dealer's left, the widow right
    after the dealer (or first); or a count each and the rest as a talon. A card turned
    for trumps is the last of the pack (kept back) or the talon's top."""
    plan = state.plan
    setup = state.setup
    by_table = plan.deal == lay.TABLE
    spare = plan.spare
    if spare == lay.FIRST and not by_table:
        receivers = [IN_WIDOW, *state.in_round]
    else:
        receivers = [*state.in_round, IN_WIDOW]
    # Fixed cards only in a scenario's (or its record's) rounds: one check per round.
    fixed = setup.fixed_deal(state.round_no) if state.round_no == 1 or setup.later_deals else None
    turned = -1
    if fixed is not None and fixed.hands is not None:
        fixed_hands = fixed.hands
        if state.round_no > 1:
            check_hands(state, fixed_hands, state.in_round, f"deal {state.round_no}: ")
        given: list[Sequence[int]] = [fixed_hands[seat] for seat in state.in_round]
        given.append(fixed_hands[-1])
        receivers = [*state.in_round, IN_WIDOW]
        turned = fixed.turned
    else:
        if fixed is not None and fixed.deck is not None:
            deck = list(fixed.deck)
        else:
            deck = state._draw_deck(DRAW_DEAL)
        if plan.trump == lay.KEPT_BACK:
            turned = deck.pop()
        if by_table or spare == lay.NONE:
            players = len(state.in_round)
            count = dict(plan.deal_counts)[players] if by_table else len(deck) // players
            if not by_table:
                count += 1
            given = [deck[g : players * count : players] for g in range(players)]
            talon = deck[players * count :]
            if plan.trump == lay.TALON_TOP and talon:
                turned = talon.pop(0)
            given.append(talon)
        else:
            groups = len(receivers)
            given = [deck[g::groups] for g in range(groups)]
    owner = state.owner
    hands = state.hands
    for holder, cards in zip(receivers, given, strict=True):
        mask = 0
        for card in cards:
            mask |= BIT[card]
            owner[card] = holder
        if holder == IN_WIDOW:
            state.widow = mask
        else:
            hands[holder] = mask
            events.append(("hand", holder, mask))
    events.append(("widow_dealt", state.widow.bit_count()))
    if plan.deck != 52:
        outside = ((1 << 52) - 1) ^ state.tables.deck
        while outside:
            low = outside & -outside
            owner[low.bit_length() - 1] = REMOVED
            outside ^= low
    if turned >= 0 and turn_trump(state, turned, events):
        return  # the turned card ended the deal (Pope Joan's Pope)
    start_widow(state, events)


def turn_trump(state: StopsState, card: int, events: list[Event]) -> bool:
    """``card`` is turned face up: its suit is trumps (the board's trump spaces follow
    it). A turned card that wins a single space pays it to the dealer when the layout
    says so; one the layout names ends the deal too, the dealer taking the kitty
    (returns True then)."""
    plan = state.plan
    state.turned = card
    state.trump = card // NUM_RANKS
    state.owner[card] = TURNED
    state._use_tables(board_tables(plan, state.trump))
    events.append(("turned", card))
    if not plan.turned_pays_dealer:
        return False
    dealer = state.dealer
    board = state.board
    for index, space in enumerate(plan.spaces):
        if len(space.cards) != 1 or (card,) not in _ways(state, index):
            continue
        if board[index]:
            amount = board[index]
            board[index] = 0
            state.chips[dealer] += amount
            events.append(("turn_pays", dealer, space.name, amount))
        if space.name in plan.turned_ends_deal:
            kitty = state._kitty
            if kitty >= 0 and board[kitty]:
                amount = board[kitty]
                board[kitty] = 0
                state.chips[dealer] += amount
                events.append(("turn_pays", dealer, state.spaces[kitty], amount))
            events.append(("deal_ends", card))
            end_round(state, events)
            return True
    return False


def _ways(state: StopsState, space: int) -> list[tuple[int, ...]]:
    return lay.space_cards(state.plan.spaces[space], state.trump)


def begin_in_play(state: StopsState, events: list[Event]) -> None:
    """The first round from a position in the play of the runs (``setup.laid``): the
    players holding cards are in it (the others out of the game), the cards laid so far
    are on the table, and play goes on from the last of them (:func:`.runs.resume_play`)."""
    setup = state.setup
    hands = setup.hands
    assert hands is not None and setup.laid is not None
    n = len(state.names)
    state._clear_round()
    state.round_no = 1
    events.append(("dealer", state.dealer))
    for seat in range(n):
        state.out[seat] = not hands[seat]
    order = [(state.dealer + 1 + i) % n for i in range(n)]
    state.in_round = [s for s in order if not state.out[s]]
    for i, seat in enumerate(state.in_round):
        state.next_in_round[seat] = state.in_round[(i + 1) % len(state.in_round)]
    owner = state.owner
    for seat in state.in_round:
        mask = 0
        for card in hands[seat]:
            mask |= BIT[card]
            owner[card] = seat
        state.hands[seat] = mask
        events.append(("hand", seat, mask))
    widow = 0
    for card in hands[-1]:
        widow |= BIT[card]
    state.widow = widow
    for seat, card in setup.laid:
        state.laid.append((seat, card))
        state.laid_mask |= BIT[card]
        owner[card] = LAID
    if state.plan.deck != 52:
        outside = ((1 << 52) - 1) ^ state.tables.deck
        for card in range(52):
            if outside >> card & 1:
                owner[card] = REMOVED
    if setup.turned >= 0:
        state.turned = setup.turned
        state.trump = setup.turned // NUM_RANKS
        owner[setup.turned] = TURNED
        state._use_tables(board_tables(state.plan, state.trump))
    state.phase = PLAY
    if setup.laid:
        state.leader = setup.laid[0][0]
    else:
        assert setup.lead is not None
        state.leader = setup.lead
        events.append(("leads", state.leader))
    if state._by_rank:
        resume_ranks(state, events)
    else:
        resume_play(state, events)
