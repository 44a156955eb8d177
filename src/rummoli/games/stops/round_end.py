"""The end of a round and of the game: the round's winner is paid, and at the end the
chips left on the board are settled.

The family's rules held here (house rule ``settlement``): the player who goes out takes
the kitty (Rummoli's centre, Tripoley's Kitty, Pope Joan's Game), when the board has
one, and from each other player what the layout says, as far as his chips go: a chip a
card (Rummoli), a chip a point of his cards (Nain Jaune: ace 1, picture cards 10), or
nothing; a player left holding a board card then pays that space its stake, or as much
as lies on it (house rule ``held_board_cards``); going out before anyone else laid a
card takes the whole board (Nain Jaune's "grand opéra", a house rule).
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

from typing import TYPE_CHECKING, Final

from rummoli.cards import NUM_RANKS, format_cards, mask_of
from rummoli.engine.base import CHANCE, CHANCE_ACTION, TERMINAL, Event, SetupError
from rummoli.games.stops import layout as lay
from rummoli.games.stops.constants import DRAW_SETTLE, NEXT_ROUND, OVER
from rummoli.poker import hand_key

#: Each rank's points, by rank index (2..10 their face value, picture cards 10, ace 1).
POINTS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)


def hand_points(hand: int) -> int:
    """The points of the cards of ``hand`` (Nain Jaune's payment)."""
    total = 0
    while hand:
        low = hand & -hand
        total += POINTS[(low.bit_length() - 1) % NUM_RANKS]
        hand ^= low
    return total


if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState


def win_round(state: StopsState, seat: int, events: list[Event]) -> None:
    """``seat`` has laid its last card: it takes the kitty, and from the others a chip a
    card (or a point, or nothing); board cards still held pay their spaces."""
    state.round_winner = seat
    plan = state.plan
    kitty = state._kitty
    pot = 0
    if kitty >= 0:
        pot = state.board[kitty]
        state.board[kitty] = 0
        state.chips[seat] += pot
    events.append(("round_won", seat, pot))
    if plan.grand_opera and all(player == seat for player, _ in state.laid):
        total = sum(state.board)
        state.board = [0] * len(state.board)
        state.chips[seat] += total
        events.append(("grand_opera", seat, total))
    going_out = plan.going_out
    if going_out != lay.NONE:
        per_point = going_out == lay.PER_POINT
        for player in state.in_round:
            if player != seat:
                hand = state.hands[player]
                owed = hand_points(hand) if per_point else hand.bit_count()
                paid = min(owed, state.chips[player])
                state.chips[player] -= paid
                state.chips[seat] += paid
                events.append(("pays", player, seat, paid))
    if plan.held_board_cards != lay.NONE:
        pay_held_board_cards(state, seat, events)
    end_round(state, events)


def pay_held_board_cards(state: StopsState, winner: int, events: list[Event]) -> None:
    """Each player left holding the card of a single-card space pays that space its
    stake, or (``double``) as many chips as lie on it, as far as his chips go."""
    plan = state.plan
    double = plan.held_board_cards == lay.DOUBLE
    for player in state.in_round:
        if player == winner:
            continue
        hand = state.hands[player]
        for space, info in enumerate(plan.spaces):
            if info.role != lay.PAY or len(info.cards) != 1:
                continue
            if not any(hand >> way[0] & 1 for way in lay.space_cards(info, state.trump)):
                continue
            owed = state.board[space] if double else info.stake
            paid = min(owed, state.chips[player])
            if paid:
                state.chips[player] -= paid
                state.board[space] += paid
            events.append(("held_pays", player, info.name, paid))


def end_round(state: StopsState, events: list[Event]) -> None:
    """The round is over: the next is a chance step (the end, for a one-round scenario)."""
    events.append(("round_over", state.round_no))
    state.phase = NEXT_ROUND
    if state.setup.single_round:
        finish(state, events)
        return
    state.to_move = CHANCE
    state.options = [CHANCE_ACTION]


def settle(state: StopsState, events: list[Event]) -> None:
    """Board chips go to the players still in, by the ``settlement`` house rule."""
    seats = [s for s in range(len(state.names)) if not state.out[s]] or list(
        range(len(state.names))
    )
    n = len(state.names)
    left = (state.dealer + 1) % n
    seats.sort(key=lambda s: (s - left) % n)
    method = state.plan.settlement
    fixed = list(state.setup.settlement)
    betting = state.plan.settlement_betting and method not in ("high_card", "share")
    if betting and len(seats) > 1 and sum(state.board) > 0:
        # "A round of poker dealt and played": a betting round for each pot.
        from rummoli.games.stops.settlement import start_settlement

        start_settlement(state, seats, events)
        return
    if sum(state.board) == 0:
        pass
    elif len(seats) == 1:
        total = sum(state.board)
        state.board = [0] * len(state.board)
        state.chips[seats[0]] += total
        events.append(("settled", "all", total, (seats[0],)))
    elif method == "share":
        total = sum(state.board)
        state.board = [0] * len(state.board)
        share_out(state, "all", total, seats, events)
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


def spaces_by_size(state: StopsState) -> list[int]:
    """The spaces still holding chips, the fewest chips first (ties in board order)."""
    board = state.board
    return sorted((i for i, c in enumerate(board) if c), key=lambda i: (board[i], i))


def settle_pot(
    state: StopsState,
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
    if state.plan.settlement == "high_card":
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
    state: StopsState, name: str, seats: list[int], events: list[Event], fixed: list[int]
) -> list[int]:
    """A cut for a pot: the highest rank takes it. A tie splits it, or (house rule
    ``high_card_tie="cut_again"``, the rulebook's "the high man will take all") the tied
    players cut again, each time from a fresh deck, until one is highest."""
    while True:
        if state.setup.settlement:
            deck = fixed_draw(fixed, len(seats), f"the settlement of {name}")
        else:
            deck = state._draw_deck(DRAW_SETTLE)
        winners = highest_cut(seats, deck, "settle_cut", events)
        if len(winners) == 1 or state.plan.high_card_tie != "cut_again":
            return winners
        seats = winners


def deal_five(state: StopsState, name: str, seats: list[int], fixed: list[int]) -> dict[int, int]:
    """Five cards for each of ``seats`` (in order from the dealer's left) from a fresh
    deck, for the pot ``name``: the scenario's fixed cards, else the seed's."""
    if state.setup.settlement:
        deck = fixed_draw(fixed, len(seats) * 5, f"the settlement of {name}")
    else:
        deck = state._draw_deck(DRAW_SETTLE)
    return {s: mask_of(deck[5 * i : 5 * i + 5]) for i, s in enumerate(seats)}


def share_out(
    state: StopsState, name: str, amount: int, winners: list[int], events: list[Event]
) -> None:
    """``amount`` to ``winners`` (in order from the dealer's left): ties split, the odd
    chips to the first of them."""
    share, odd = divmod(amount, len(winners))
    for seat in winners:
        state.chips[seat] += share
    state.chips[winners[0]] += odd
    events.append(("settled", name, amount, tuple(winners)))


def finish(state: StopsState, events: list[Event]) -> None:
    """The game is over (or, for a one-round scenario, the round is)."""
    state.phase = OVER
    state.to_move = TERMINAL
    state.options = []
    if not state.setup.single_round:
        events.append(("game_over", tuple(state.chips)))


def highest_cut(seats: list[int], deck: list[int], kind: str, events: list[Event]) -> list[int]:
    """One cut, for the first dealer or at the settlement: each of ``seats`` in turn takes
    the next card of ``deck`` (an event ``kind`` each); the seats whose cards rank highest
    (suits do not count)."""
    cut = dict(zip(seats, deck, strict=False))
    for seat in seats:
        events.append((kind, seat, cut[seat]))
    best = max(cut[s] % NUM_RANKS for s in seats)
    return [s for s in seats if cut[s] % NUM_RANKS == best]


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
