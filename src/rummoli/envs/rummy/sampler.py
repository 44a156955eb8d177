"""Basic Rummy hands a seat cannot tell from the real one, for ``resample_from_infostate``.

The Rummy bots keep no sampler of hidden cards (the Rummoli bots do), so this is one,
read only from the events the seat saw (``is_visible``, the game's one rule of what a
seat sees). What the seat knows: its own dealt cards and stock draws, the upcard, every
card laid, discarded or taken from the discard pile, and the pile turned into the stock.

Every other seat's hidden cards come from its **slots**: the cards it was dealt, and one
slot per stock draw it made, in the order made. A card it played that it had not taken
from the discard pile filled one of its slots that existed by then (any: later plays
find the same slots or more), from the right pool: the pile reshuffled into the stock,
or the deck. The slots left are filled with the unseen cards at random, and what is left
over is the stock. The round is then rebuilt from that deal and those draws, and the
table checks that the seat's information state is unchanged.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rummoli.games.rummy.state import cards_per_player
from rummoli.games.rummy.view import is_visible

if TYPE_CHECKING:
    from rummoli.envs.table import Table

_DECK, _PILE = 0, 1


def known_held(table: Table, me: int) -> list[int]:
    """For every seat (absolute), the cards ``me`` knows it holds: taken from the discard
    pile this hand and not laid or discarded since (from the events ``me`` saw)."""
    held = [0] * table.num_players
    for who, event in table.round_log():
        if who >= 0 or not is_visible(event, me):
            continue
        kind = event[0]
        if kind == "draw_discard":
            held[event[1]] |= 1 << event[2]
        elif kind in ("discard", "lay_off"):
            held[event[1]] &= ~(1 << event[2])
        elif kind == "meld":
            held[event[1]] &= ~event[3]
    return held


def resample_hand(table: Table, me: int, rng: random.Random) -> list[int] | None:
    """The round's chance outcomes (the deal, then each stock draw) with the hidden cards
    redrawn (None: no consistent draw)."""
    engine = table.engine
    assert engine is not None
    n = table.num_players
    k = cards_per_player(n)
    dealt_count = k * n
    start = table.round_start
    history = table.history[start:]
    movers = table.movers[start:]
    receivers = [(table.dealer + 1 + i) % n for i in range(dealt_count)]
    upcard = history[dealt_count]
    # [pool, card or -1] for each seat's slots; the first k are the dealt cards.
    slots: list[list[list[int]]] = [[[_DECK, -1] for _ in range(k)] for _ in range(n)]
    known_held: list[set[int]] = [set() for _ in range(n)]
    mine = {history[i] for i in range(dealt_count) if receivers[i] == me}
    my_pile_draws: set[int] = set()
    pile = [upcard]
    reshuffled: set[int] = set()
    draws: list[tuple[int, int]] = []
    #: Cards known to have filled a slot of each pool (a card of the reshuffled pile
    #: filled a deck slot before it was discarded, and may fill a pile slot after).
    assigned: tuple[set[int], set[int]] = (set(), set())

    def play(seat: int, cards: list[int]) -> bool:
        if seat == me:
            return True
        for card in cards:
            if card in known_held[seat]:
                known_held[seat].discard(card)
                continue
            pool = _PILE if card in reshuffled else _DECK
            free = [i for i, (p, c) in enumerate(slots[seat]) if p == pool and c < 0]
            if not free:
                return False
            slots[seat][rng.choice(free)][1] = card
            assigned[pool].add(card)
        return True

    for who, event in table.round_log():
        if who >= 0 or not is_visible(event, me):
            continue
        kind = event[0]
        ok = True
        if kind == "draw_stock":
            seat = event[1]
            if seat == me:
                draws.append((me, -1))
            else:
                slots[seat].append([_PILE if reshuffled else _DECK, -1])
                draws.append((seat, len(slots[seat]) - 1))
        elif kind == "drew" and reshuffled:
            my_pile_draws.add(event[2])
        elif kind == "drew":
            mine.add(event[2])
        elif kind == "draw_discard":
            pile.pop()
            if event[1] != me:
                known_held[event[1]].add(event[2])
        elif kind == "discard":
            pile.append(event[2])
            ok = play(event[1], [event[2]])
        elif kind == "lay_off":
            ok = play(event[1], [event[2]])
        elif kind == "meld":
            ok = play(event[1], [c for c in range(52) if event[3] >> c & 1])
        elif kind == "reshuffle":
            reshuffled = set(pile)
            pile = []
        if not ok:
            return None

    stock = int(engine.observation(None).stock_count)
    deck_unknown = [
        c for c in range(52) if c != upcard and c not in mine and c not in assigned[_DECK]
    ]
    pile_unknown = [c for c in reshuffled if c not in my_pile_draws and c not in assigned[_PILE]]
    for pool, unknown in ((_DECK, deck_unknown), (_PILE, pile_unknown)):
        empty = [
            slot
            for seat, held in enumerate(slots)
            if seat != me
            for slot in held
            if slot[0] == pool and slot[1] < 0
        ]
        in_stock = stock if (pool == _PILE) == bool(reshuffled) else 0
        if len(unknown) != len(empty) + in_stock:
            return None
        rng.shuffle(unknown)
        for slot, card in zip(empty, unknown, strict=False):
            slot[1] = card

    dealt_next = [0] * n
    new = []
    for i in range(dealt_count):
        seat = receivers[i]
        if seat == me:
            new.append(history[i])
        else:
            new.append(slots[seat][dealt_next[seat]][1])
            dealt_next[seat] += 1
    new.append(upcard)
    drawn = [
        item
        for item, mover in zip(history[dealt_count + 1 :], movers[dealt_count + 1 :], strict=True)
        if mover < 0
    ]
    if len(drawn) != len(draws):
        return None
    for original, (drawer, index) in zip(drawn, draws, strict=True):
        new.append(original if drawer == me else slots[drawer][index][1])
    return new
