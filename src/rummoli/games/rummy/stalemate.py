"""Basic Rummy's stalemates: when a hand ends with nobody out, and why every hand ends.

The seed: "There are two cases where the game can end in a stalemate. One ... is when
the stock has been depleted twice. The other is when the game detects that none of the
players will be able to finish their hands." The engine ends a hand in a stalemate for
those two reasons, and a third only under a house rule:

- ``STOCK_OUT``: the stock ran out a second time (the seed's rule);
- ``BLOCKED``: the detection (:func:`hopeless`) found that nobody can ever go out. It
  must be *sound*: it never ends a hand that some sequence of moves could still win. The
  event says which of its two cases holds (:data:`ONE_CARD_EACH`, :data:`NO_MELD`), so
  the interfaces can tell the players why in words;
- ``STALLED``: :data:`STALL_TURNS` idle turns in a row, only with the house rule
  ``stall_rule`` (the default of rules version 1).

Why every hand ends anyway. The seed's clock is the stock: each draw from it brings the
second depletion nearer. A draw from the discard pile does not: the pile loses its top
and gets a discard back, the stock stays as it is. Players who keep taking the discard
top (and melding nothing) could play the same few cards round and round for ever, and
no sound detection may stop them while a draw from the stock could still let someone go
out: the hand is not hopeless, only stalled. So a turn that takes the discard top and
puts no card on the table (no meld, no lay-off) is an *idle* turn, and after
``STALL_TURNS`` idle turns in a row the player to move must draw from the stock (the
engine draws for him: it is his only draw). That is progress: the stock shrinks, so the
second depletion comes, and no winnable hand is called off (he may go out with the card
he draws, and the pile's top is there again for the next player). With it every hand
ends within :func:`max_turns` turns, whatever the players do; the computer players never
come near it (their longest idle runs, in 1,500 hands per table: 17 turns between two
random players, 4 between two strong ones).
"""

from __future__ import annotations

from rummoli.cards import FULL_DECK
from rummoli.games.rummy.melds import can_form_meld

#: Why a hand ended in a stalemate: the stock ran out a second time (or ran out with an
#: empty discard pile), the engine found that nobody can ever go out, or the hand stalled.
STOCK_OUT = "stock"
BLOCKED = "blocked"
STALLED = "stalled"

#: Idle turns in a row (no draw from the stock, no card put on the table) after which the
#: player to move must draw from the stock (or, with ``stall_rule``, the hand ends).
STALL_TURNS = 40

#: Why the detection found a hand hopeless (the ``stalemate`` event's ``why``): no card
#: still in play fits a meld on the table, and every player holds one card
#: (``ONE_CARD_EACH``, the seed's example) or no three of those cards make a meld
#: (``NO_MELD``).
ONE_CARD_EACH = "one_card_each"
NO_MELD = "no_meld"


def live_cards(hands: list[int], stock: list[int], discard: list[int], reshuffled: bool) -> int:
    """The cards that can still reach a player's hand or the table, as a mask.

    The hands and the stock always. The discard pile: all of it before the reshuffle (the
    reshuffle turns it into the stock), only its top after it. After the reshuffle there
    is no second one, and the pile never gives back a card below its top: a draw takes
    the top, and the same turn ends with a discard onto the card below it (or with the
    player out, which ends the hand). So a card below the top stays there to the end.
    """
    live = 0
    for hand in hands:
        live |= hand
    for card in stock:
        live |= 1 << card
    if reshuffled:
        if discard:
            live |= 1 << discard[-1]
    else:
        for card in discard:
            live |= 1 << card
    return live


def hopeless(hands: list[int], melds: list[int], fits: list[int], live: int) -> str:
    """Why it is certain, at the start of a turn (before the draw), that no player can ever
    go out (:data:`ONE_CARD_EACH` or :data:`NO_MELD`), or "" when it is not: the engine's
    stalemate detection. ``live`` is :func:`live_cards`.

    It answers when (a) no live card can be laid off on any meld on the table, and
    (b) no new meld can ever be made: every player holds one card, or no three live cards
    form a meld.

    Why this is sound (never yes while someone could still go out). Suppose (a) and (b)
    hold at the start of a turn. The player to move draws a live card and holds h + 1
    live cards, h >= 1 being what he held (a player with no card has already won). He
    cannot lay off, by (a). He cannot meld: with h = 1 he has 2 cards and a meld needs 3,
    and if no three live cards form a meld, no three of his do. So he can only discard,
    and ends his turn with h cards again, at least one, not out. The table is unchanged
    (only melds and lay-offs change it), and no card becomes live: cards only move
    between the hands, the stock and the pile, a card below the pile's top after the
    reshuffle stays dead (:func:`live_cards`), and the reshuffle, if it is still to come,
    only turns the pile (all live until then) into the stock. So (a) and (b) hold at the
    next turn's start as well, and by induction at every later turn: nobody ever goes
    out. Both are checked on all the live cards, not on what a player could actually
    collect, so they may miss a hopeless hand, but never call a live one dead. The seed's
    example, "all players have only one card left, and there are no possible lay offs",
    is (a) with the first case of (b).
    """
    # Lists, and loops written out: the engine asks this at the start of every turn.
    table = 0
    reach = 0
    for meld in melds:
        table |= meld
    for fit in fits:
        reach |= fit
    live &= FULL_DECK & ~table
    if reach & live:
        return ""
    for hand in hands:
        if hand & (hand - 1):  # two cards or more
            return "" if can_form_meld(live) else NO_MELD
    return ONE_CARD_EACH


def nobody_can_go_out(hands: list[int], melds: list[int], fits: list[int], live: int) -> bool:
    """Whether :func:`hopeless` finds a reason: nobody can ever go out."""
    return hopeless(hands, melds, fits, live) != ""


def max_turns(players: int, stock: int, table: int) -> int:
    """The most turns a hand can last, whatever the players do: a hand that starts with
    ``stock`` cards in the stock and ``table`` cards in melds, at ``players`` players.

    A turn makes *progress* when it draws from the stock or puts a card on the table.

    - Draws from the stock: ``stock`` before the reshuffle, and after it at most the pile
      it turns into the stock, which holds at most ``52 - table - players`` cards (every
      player holds a card at that moment); the stock running out again ends the hand.
    - Turns that put cards on the table: at most ``52 - table - (players - 1)``, one card
      each at least (the cards stay there, and every player but a winner keeps a card).

    So at most ``P = stock + (52 - table - players) + (53 - table - players)`` turns make
    progress, and between two of them, before the first and after the last, at most
    ``STALL_TURNS`` idle turns in a row (then the player to move must draw from the stock,
    or with ``stall_rule`` the hand ends): the hand lasts at most
    ``P + STALL_TURNS * (P + 1)`` turns. A dealt hand: 5,452 turns at two players, 5,329
    at three, 4,960 at four. Far
    more than any real hand (the longest of 1,500 between two random players: 162 turns),
    but a true bound, which "two passes through the stock" is not.
    """
    progress = stock + (52 - table - players) + (53 - table - players)
    return progress + STALL_TURNS * (progress + 1)
