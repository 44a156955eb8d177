"""The chance step that opens a Rummy hand: the cut for the first dealer, and the deal.

The seed shuffles (``engine/rng.py``), unless the set-up fixes the cards
(:class:`~rummoli.games.rummy.setup.Setup`): a position for the first hand (perhaps from
the middle of it), a deck in dealing order, a later hand's position or deck, or the cut's
cards. A module of its own so that the state keeps to the turn's rules; functions take
the state as their first argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rummoli.cards import format_cards
from rummoli.engine.base import Event, SetupError
from rummoli.games.rummy.melds import fit_mask, low_rank

if TYPE_CHECKING:
    from rummoli.games.rummy.state import RummyState

# Purposes of the seeded draws (see rummoli.engine.rng).
DRAW_CUT: Final = 1
DRAW_DEAL: Final = 2
DRAW_RESHUFFLE: Final = 3

_BIT: Final = tuple(1 << card for card in range(52))


def cards_per_player(players: int) -> int:
    """The seed's deal: 10 cards each for two players, 7 each for three or four."""
    return 10 if players == 2 else 7


def cut_for_dealer(state: RummyState, events: list[Event]) -> None:
    """Every player cuts a card; the highest deals (aces low: the king is highest, suits
    do not count); tied players cut again from a fresh deck. Fixed cut cards
    (``setup.cut``) are taken in order, one per player cutting, and must all be used."""
    contenders = list(range(len(state.names)))
    fixed = list(state.setup.cut)
    given = len(fixed)
    while len(contenders) > 1:
        deck = _fixed_draw(fixed, len(contenders)) if given else state._draw_deck(DRAW_CUT)
        cut = dict(zip(contenders, deck, strict=False))
        for seat in contenders:
            events.append(("cut", seat, cut[seat]))
        best = max(low_rank(cut[s]) for s in contenders)
        contenders = [s for s in contenders if low_rank(cut[s]) == best]
    if fixed:
        raise SetupError(
            f"the cut for the first dealer used {given - len(fixed)} of its {given} cards: "
            f"{len(fixed)} left over"
        )
    state.dealer = contenders[0]


def _fixed_draw(cards: list[int], count: int) -> list[int]:
    if len(cards) < count:
        raise SetupError(
            f"the cut for the first dealer needs {count} more cards, but only {len(cards)} are left"
        )
    draw = cards[:count]
    del cards[:count]
    if len(set(draw)) != count:
        raise SetupError(
            f"the cut for the first dealer: a card comes twice in one cut ({format_cards(draw)})"
        )
    return draw


def deal_hand(state: RummyState) -> int:
    """Put the hand's cards in place; returns the upcard (-1: a position, none turned)."""
    setup = state.setup
    n = len(state.names)
    if state.hand_no == 1 and setup.hands is not None:
        state.hands = [sum(_BIT[c] for c in hand) for hand in setup.hands]
        state.stock = list(reversed(setup.stock))
        state.discard = list(setup.discard)
        state.melds = [sum(_BIT[c] for c in meld) for meld in setup.melds]
        state.fits = [fit_mask(meld) for meld in state.melds]
        state.reshuffles = 1 if setup.reshuffled else 0
        for seat in setup.played:
            state.played_before[seat] = True
        return -1
    fixed = setup.deal_for(state.hand_no)
    if fixed is not None and fixed.hands is not None:
        state.hands = [sum(_BIT[c] for c in hand) for hand in fixed.hands]
        state.stock = list(reversed(fixed.stock))
        state.discard = list(fixed.discard)
        return -1
    deck = list(fixed.deck) if fixed is not None and fixed.deck else state._draw_deck(DRAW_DEAL)
    dealt = cards_per_player(n) * n
    for i in range(dealt):
        state.hands[(state.dealer + 1 + i) % n] |= _BIT[deck[i]]
    upcard = deck[dealt]
    state.discard = [upcard]
    state.stock = deck[:dealt:-1]
    return upcard
