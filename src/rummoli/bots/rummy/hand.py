"""What a Rummy hand can do: the best way to lay it down, and the cards that would help it.

Both Rummy bots build on one question: if this hand were laid down now, which cards would
be left over? A :class:`Plan` answers it: the melds to make from the hand, the lay-offs
onto the table (and onto those new melds, in an order that works, since laying 7H on
4H 5H 6H lets 8H follow) and the **deadwood**, the cards that fit nowhere. A hand whose
deadwood is at most one card that may be discarded goes out this turn.

The search is exact: it tries every set of disjoint melds the hand holds (a card that fits
two melds is tried in each), lays off what it can of the rest, and keeps the plan with the
fewest deadwood cards, then the fewest deadwood points. Hands hold at most 11 cards, so
this takes tens of microseconds; results are cached because bots ask about the same hands
again and again within a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import (
    CATALOGUE,
    MELD_INDEX,
    card_at,
    fit_mask,
    hand_points,
    low_rank,
    melds_in,
)

if TYPE_CHECKING:
    from rummoli.games.rummy.view import RummyObservation

_BIT = tuple(1 << card for card in range(52))
#: ``fit_mask`` of every meld met so far (the catalogue's, and the table's as they grow).
_FITS: dict[int, int] = {meld: fit_mask(meld) for meld in CATALOGUE}


def _fit(meld: int) -> int:
    fit = _FITS.get(meld)
    if fit is None:
        fit = _FITS[meld] = fit_mask(meld)
    return fit


@dataclass(frozen=True, slots=True)
class Plan:
    """How to lay a hand down: new melds in order, lay-offs ``(card, slot)`` in order (slots
    count the table's melds first, then the new ones), and the deadwood left over."""

    melds: tuple[int, ...]
    layoffs: tuple[tuple[int, int], ...]
    deadwood: int

    @property
    def dead_count(self) -> int:
        return self.deadwood.bit_count()

    @property
    def dead_points(self) -> int:
        return hand_points(self.deadwood)

    def goes_out(self, taken: int = -1) -> bool:
        """Whether following the plan empties the hand this turn: at most one card left,
        and not the card taken from the discard pile (it may not be discarded)."""
        dead = self.deadwood
        if not dead:
            return True
        return dead.bit_count() == 1 and not (taken >= 0 and dead == _BIT[taken])

    def actions(self) -> list[int]:
        """The plan's melds and lay-offs as actions, in the order to play them."""
        out = [act.meld_action(MELD_INDEX[meld]) for meld in self.melds]
        out += [act.layoff_action(card, slot) for card, slot in self.layoffs]
        return out


def _lay_off(left: int, melds: list[int]) -> tuple[int, list[tuple[int, int]]]:
    """Lay off what can be laid off of ``left`` onto ``melds`` (changed in place), runs
    first, repeating while a lay-off opens a new one. Returns the rest and the lay-offs."""
    done: list[tuple[int, int]] = []
    progress = True
    while progress and left:
        progress = False
        for slot, meld in enumerate(melds):
            fits = _fit(meld) & left
            while fits:
                bit = fits & -fits
                left ^= bit
                meld |= bit
                done.append((bit.bit_length() - 1, slot))
                progress = True
                fits = _fit(meld) & left
            melds[slot] = meld
    return left, done


def fits(melds: tuple[int, ...]) -> int:
    """Every card that can be laid off on one of ``melds`` now."""
    return _reach(melds)


def _reach(melds: tuple[int, ...]) -> int:
    reach = 0
    for meld in melds:
        reach |= _fit(meld)
    return reach


@lru_cache(maxsize=200_000)
def best_plan(hand: int, table: tuple[int, ...], max_melds: int = 99, taken: int = -1) -> Plan:
    """The plan that leaves the fewest deadwood cards, then the fewest deadwood points.

    ``max_melds`` bounds the new melds (house rule ``one_meld_per_turn``); ``taken`` is the
    card taken from the discard pile this turn: left over, it counts as one card more,
    since it may not be discarded.
    """
    candidates = _useful_melds(hand)
    taken_bit = _BIT[taken] if taken >= 0 else 0
    table_reach = _reach(table)
    best_key = (99, 999)
    best: tuple[int, ...] = ()

    def leaf(chosen: tuple[int, ...], left: int) -> None:
        nonlocal best_key, best
        reach = table_reach
        for meld in chosen:
            reach |= _fit(meld)
        if left & reach:
            left, _ = _lay_off(left, [*table, *chosen])
        count = left.bit_count() + (1 if left & taken_bit else 0)
        if count > best_key[0]:
            return
        key = (count, hand_points(left))
        if key < best_key:
            best_key = key
            best = chosen

    # Cards that might be laid off somewhere: every card of a suit with a run (lay-offs
    # chain along a run), every card of a rank with a set. A card left out of the melds
    # and outside this mask is surely deadwood: that bounds the search.
    reachable = 0
    for meld in (*table, *candidates):
        reachable |= _SPAN[meld]

    def search(pool: int, avail: int, chosen: tuple[int, ...], dead: int) -> None:
        # ``pool``: cards still to decide (each in some candidate meld); ``avail``: cards
        # not melded and not left out; ``dead``: cards surely left over so far. Every
        # card is decided once (in a meld, or out), so no set of melds is tried twice.
        if not pool or len(chosen) >= max_melds:
            leaf(chosen, hand & ~_union(chosen))
            return
        low = pool & -pool
        for meld in candidates:
            if meld & low and not meld & ~avail:
                search(pool & ~meld, avail & ~meld, (*chosen, meld), dead)
        if not low & reachable:
            dead += 1
            if dead > best_key[0]:
                return
        search(pool ^ low, avail ^ low, chosen, dead)  # ``low`` stays out of the melds

    pool = 0
    for meld in candidates:
        pool |= meld
    search(pool, hand, (), (hand & ~pool & ~reachable).bit_count())
    # The plan's lay-offs follow all its melds, so every meld they need is down first.
    left, layoffs = _lay_off(hand & ~_union(best), [*table, *best])
    return Plan(best, tuple(layoffs), left)


#: The catalogue lists the 65 sets first, then the runs.
_SETS = frozenset(CATALOGUE[:65])


def _span(meld: int) -> int:
    """Every card that could ever be laid off on ``meld``, directly or after others: its
    rank's column for a set, its whole suit for a run."""
    low = (meld & -meld).bit_length() - 1
    if meld in _SETS:
        return sum(_BIT[suit * 13 + low % 13] for suit in range(4))
    return ((1 << 13) - 1) << (low // 13 * 13)


#: ``_span`` of every meld (all melds are in the catalogue).
_SPAN = {meld: _span(meld) for meld in CATALOGUE}


def _useful_melds(hand: int) -> list[int]:
    """The melds of ``hand`` worth trying. A part of a longer meld helps only when the
    rest is needed elsewhere: a set of three out of four, or a shorter run, is kept only
    when the meld shares a card with a meld of the other kind; otherwise the whole meld
    leaves fewer cards (and what a part would leave over lays off on it anyway)."""
    melds = [CATALOGUE[i] for i in melds_in(hand)]
    sets = [m for m in melds if m in _SETS]
    runs = [m for m in melds if m not in _SETS]
    set_cards = 0
    for meld in sets:
        set_cards |= meld
    run_cards = 0
    for meld in runs:
        run_cards |= meld
    out = []
    for group, other_kind in ((sets, run_cards), (runs, set_cards)):
        for meld in group:
            # The longest meld of this rank (set) or stretch (run) that holds it.
            whole = 0
            for other in group:
                if other & meld:
                    whole |= other
            if whole & other_kind or whole == meld:
                out.append(meld)
    return out


def _union(melds: tuple[int, ...]) -> int:
    mask = 0
    for meld in melds:
        mask |= meld
    return mask


def _partners(card: int) -> tuple[int, tuple[int, ...]]:
    """What ``card`` needs to make a meld: its rank in the other suits (two of them make a
    set), and the pairs of same-suit cards that make a run with it (aces low)."""
    suit, low = card // 13, low_rank(card)
    rank = 0
    for other in range(4):
        if other != suit:
            rank |= _BIT[card_at(other, low)]
    pairs = []
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if low + a >= 0 and low + b <= 12:
            pairs.append(_BIT[card_at(suit, low + a)] | _BIT[card_at(suit, low + b)])
    return rank, tuple(pairs)


PARTNERS = tuple(_partners(card) for card in range(52))


def forms_meld(hand: int, card: int) -> bool:
    """Whether ``card`` makes a meld with two or more cards of ``hand``."""
    rank, pairs = PARTNERS[card]
    if (hand & rank).bit_count() >= 2:
        return True
    return any(hand & pair == pair for pair in pairs)


def outs(hand: int, table: tuple[int, ...], live: int) -> tuple[int, int]:
    """How much drawing each ``live`` card would help ``hand`` (before its draw): the sum,
    over live cards, of the deadwood cards it removes once the worst one is discarded
    (0 for a useless card, 1 for a card that joins a meld or fits the table, 3 for the
    card that turns a pair into a set), and the number of live cards that would let the
    hand go out at once.

    Only cards that make a new meld with the hand need the full search; a card that
    merely fits a meld (on the table or in the plan) removes exactly one.
    """
    plan = best_plan(hand, table)
    base = plan.dead_count
    fitting = (_reach(table) | _reach(plan.melds)) & live & ~hand
    total = 0
    winners = 0
    candidates = live & ~hand
    while candidates:
        bit = candidates & -candidates
        candidates ^= bit
        card = bit.bit_length() - 1
        if forms_meld(hand, card):
            dead = best_plan(hand | bit, table).dead_count
        elif bit & fitting:
            dead = base
        else:
            continue
        gain = base + 1 - dead
        if gain > 0:
            total += gain
            if dead <= 1:
                winners += 1
    return total, winners


def meld_allowance(obs: RummyObservation) -> int:
    """How many more melds the player to move may lay down this turn (99: no limit)."""
    if not obs.rules.one_meld_per_turn:
        return 99
    return 0 if obs.melded_this_turn else 1


def plan_step(plan: Plan, legal: list[int]) -> int | None:
    """The plan's next meld or lay-off that is legal now, if any."""
    allowed = set(legal)
    for action in plan.actions():
        if action in allowed:
            return action
    return None
