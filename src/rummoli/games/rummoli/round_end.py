"""The end of a round and of the game: the round's winner is paid, and at the end the
chips left on the board are settled.

Rummoli rules held here (house rule ``settlement``): the player who goes out takes the
pot and a chip for every card each other player still holds (what he has, at most).
When the game ends (the last round of ``rounds``, fewer than two players able to pay the
ante, or a request to stop), the chips on the board go to the players still in: to one
player left, all of them; else, by the house rule, each space (smallest first, under
``poker_per_pot``) or the whole board to the best five-card hand or the highest cut,
dealt from the game's seed.

Why a module of its own: this is where a round's chips are finally counted, the same
way after a win (:mod:`.stops`) or a deadlock, and where the game ends
(:mod:`.deal` ends it at a round's start); the other phases are in their own modules
(see :mod:`.state` for the whole layout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummoli.cards import NUM_RANKS, format_cards, mask_of
from rummoli.engine.base import CHANCE, CHANCE_ACTION, TERMINAL, Event, SetupError
from rummoli.games.rummoli.constants import DRAW_SETTLE, NEXT_ROUND, OVER
from rummoli.poker import hand_key

if TYPE_CHECKING:
    from rummoli.games.rummoli.state import RummoliState


def win_round(state: RummoliState, seat: int, events: list[Event]) -> None:
    """``seat`` has laid its last card: it takes the pot, and a chip a card from the others."""
    state.round_winner = seat
    pot = state.board[-1]
    state.board[-1] = 0
    state.chips[seat] += pot
    events.append(("round_won", seat, pot))
    for player in state.in_round:
        if player != seat:
            paid = min(state.hands[player].bit_count(), state.chips[player])
            state.chips[player] -= paid
            state.chips[seat] += paid
            events.append(("pays", player, seat, paid))
    end_round(state, events)


def end_round(state: RummoliState, events: list[Event]) -> None:
    """The round is over: the next is a chance step (the end, for a one-round scenario)."""
    events.append(("round_over", state.round_no))
    state.phase = NEXT_ROUND
    if state.setup.single_round:
        finish(state, events)
        return
    state.to_move = CHANCE
    state.options = [CHANCE_ACTION]


def settle(state: RummoliState, events: list[Event]) -> None:
    """Board chips go to the players still in, by the ``settlement`` house rule."""
    seats = [s for s in range(len(state.names)) if not state.out[s]] or list(
        range(len(state.names))
    )
    n = len(state.names)
    left = (state.dealer + 1) % n
    seats.sort(key=lambda s: (s - left) % n)
    method = state.rules.settlement
    fixed = list(state.setup.settlement)
    betting = state.rules.settlement_betting and method != "high_card"
    if betting and len(seats) > 1 and sum(state.board) > 0:
        # "A round of poker dealt and played": a betting round for each pot.
        from rummoli.games.rummoli.settlement import start_settlement

        start_settlement(state, seats, events)
        return
    if sum(state.board) == 0:
        pass
    elif len(seats) == 1:
        total = sum(state.board)
        state.board = [0] * len(state.board)
        state.chips[seats[0]] += total
        events.append(("settled", "all", total, (seats[0],)))
    elif method == "poker_per_pot":
        for space in spaces_by_size(state):
            amount = state.board[space]
            state.board[space] = 0
            settle_pot(state, state.spaces[space], amount, seats, events, fixed)
    else:
        total = sum(state.board)
        state.board = [0] * len(state.board)
        settle_pot(state, "all", total, seats, events, fixed)
    if fixed:
        given = len(state.setup.settlement)
        raise SetupError(
            f"the settlement used {given - len(fixed)} of its {given} cards: {len(fixed)} left over"
        )
    finish(state, events)


def spaces_by_size(state: RummoliState) -> list[int]:
    """The spaces still holding chips, the fewest chips first (ties in board order)."""
    board = state.board
    return sorted((i for i, c in enumerate(board) if c), key=lambda i: (board[i], i))


def settle_pot(
    state: RummoliState,
    name: str,
    amount: int,
    seats: list[int],
    events: list[Event],
    fixed: list[int],
) -> None:
    """One space's chips (or the whole board's) to the best cut or five-card hand dealt
    from the seed; ties split, the odd chips to the first winner from the dealer's left.

    A scenario may fix the cards (``setup.settlement``, consumed from ``fixed``): each
    pot's draw takes the next ones, a card (a cut) or five (a hand) per player still in,
    in order from the dealer's left."""
    if state.rules.settlement == "high_card":
        winners = settle_cut(state, name, seats, events, fixed)
    else:
        hands = deal_five(state, name, seats, fixed)
        for seat in seats:
            events.append(("settle_hand", seat, hands[seat], hand_key(hands[seat])))
        keys = {s: hand_key(hands[s]) for s in seats}
        best = max(keys.values())
        winners = [s for s in seats if keys[s] == best]
    share_out(state, name, amount, winners, events)


def settle_cut(
    state: RummoliState, name: str, seats: list[int], events: list[Event], fixed: list[int]
) -> list[int]:
    """A cut for a pot: the highest rank takes it. A tie splits it, or (house rule
    ``high_card_tie="cut_again"``, the rulebook's "the high man will take all") the tied
    players cut again, each time from a fresh deck, until one is highest."""
    while True:
        if state.setup.settlement:
            deck = fixed_draw(fixed, len(seats), f"the settlement of {name}")
        else:
            deck = state._draw_deck(DRAW_SETTLE)
        cut = dict(zip(seats, deck, strict=False))
        for seat in seats:
            events.append(("settle_cut", seat, cut[seat]))
        best = max(cut[s] % NUM_RANKS for s in seats)
        winners = [s for s in seats if cut[s] % NUM_RANKS == best]
        if len(winners) == 1 or state.rules.high_card_tie != "cut_again":
            return winners
        seats = winners


def deal_five(state: RummoliState, name: str, seats: list[int], fixed: list[int]) -> dict[int, int]:
    """Five cards for each of ``seats`` (in order from the dealer's left) from a fresh
    deck, for the pot ``name``: the scenario's fixed cards, else the seed's."""
    if state.setup.settlement:
        deck = fixed_draw(fixed, len(seats) * 5, f"the settlement of {name}")
    else:
        deck = state._draw_deck(DRAW_SETTLE)
    return {s: mask_of(deck[5 * i : 5 * i + 5]) for i, s in enumerate(seats)}


def share_out(
    state: RummoliState, name: str, amount: int, winners: list[int], events: list[Event]
) -> None:
    """``amount`` to ``winners`` (in order from the dealer's left): ties split, the odd
    chips to the first of them."""
    share, odd = divmod(amount, len(winners))
    for seat in winners:
        state.chips[seat] += share
    state.chips[winners[0]] += odd
    events.append(("settled", name, amount, tuple(winners)))


def finish(state: RummoliState, events: list[Event]) -> None:
    """The game is over (or, for a one-round scenario, the round is)."""
    state.phase = OVER
    state.to_move = TERMINAL
    state.options = []
    if not state.setup.single_round:
        events.append(("game_over", tuple(state.chips)))


def fixed_draw(cards: list[int], count: int, what: str) -> list[int]:
    """The next ``count`` of a scenario's fixed cards for a draw (removed from ``cards``):
    a draw is from a fresh deck, so no card twice in it."""
    if len(cards) < count:
        raise SetupError(f"{what} needs {count} more cards, but only {len(cards)} are left")
    draw = cards[:count]
    del cards[:count]
    if len(set(draw)) != count:
        raise SetupError(f"{what}: a card comes twice in one draw ({format_cards(draw)})")
    return draw
