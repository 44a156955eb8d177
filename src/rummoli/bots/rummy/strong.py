"""The strong Rummy bot: plays for Going Rummy, counts live cards, and watches its left.

Three ideas, each measured against the basic bot (``docs/rummy.md``):

- **Hold the melds while it pays** (default rules). Melding early never makes going out
  easier (a meld held in hand takes the same extra cards as one on the table: a fourth
  card, the next card of a run), but it gives the others lay-off spots and throws away
  the double score of Going Rummy. Holding has one cost: whoever goes out first scores
  every card held. So the bot holds while the double it hopes for, times its chance of
  going out first, outweighs the points it would save by laying down, times the chance
  that another player goes out first (from the cards each holds). Against the basic bot
  this doubles its points per hand; laying down at once, it only ties (``docs/rummy.md``).
  Once it has played in a turn (no Going Rummy left), or under ``one_meld_per_turn``
  (a whole hand can seldom go down in one turn), it lays down what it can.
- **Live cards.** A card helps only if it can still be drawn: cards in the discard pile,
  on the table, or known to be in another hand (the bot remembers which of its discards
  the next player took) are dead. Each candidate discard is judged by the hand it leaves:
  minus its unmatched cards, plus the expected help of the next draw, counted over the
  live cards only (a card that makes a set of a pair removes three unmatched cards, one
  that extends a meld one), with a bonus for cards that would let it go out at once, and
  a little for the points the discard takes out of the hand. The same measure decides
  the draw: take the discard pile's top (if it makes a meld or fits one at all) only
  when the hand it leaves beats what a stock draw is expected to give.
- **Watch the next player** (the only one who may take its discard): it avoids giving
  him a card of a rank, or near in a suit, of one he took from the discard pile before.

It reads only its observation (and remembers what earlier observations showed); no
randomness is needed, so the seed is kept only for the interface.
"""

from __future__ import annotations

from typing import Any

from rummoli.bots import Decision
from rummoli.bots.rummy.hand import best_plan, fits, forms_meld, meld_allowance, outs, plan_step
from rummoli.cards import FULL_DECK, card_str
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import card_points, hand_points, low_rank
from rummoli.games.rummy.view import RummyObservation

#: Weights of a hand's value: each unmatched card counts -1; the expected number of
#: unmatched cards the next draw removes counts OUTS_WEIGHT; the chance that the next
#: draw lets the hand go out counts GO_OUT_WEIGHT.
OUTS_WEIGHT = 1.0
GO_OUT_WEIGHT = 2.0
#: Value lost by a discard the next player is likely to want (near a card he took).
DANGER_WEIGHT = 0.4
#: Taking the discard pile's top shows the others what the hand collects.
TAKE_COST = 0.1
#: A rough chance that a player holding 0, 1, 2, ... cards goes out in his next turn (a
#: player with one card goes out when his draw or his card fits the table).
#: Calibrated: these are 0.15 x a first guess of (0.4, 0.25, 0.15, 0.08, 0.04, 0.02),
#: the scale that did best against the basic bot at two seats (0.03 to 1.6 tried; the
#: basic bot's own hands need longer than a guess from the card count alone says).
OUT_CHANCE = (1.0, 0.06, 0.04, 0.02, 0.012, 0.006, 0.003)
#: The least chance the bot gives itself of going out next (a discard may help too).
MY_MIN_CHANCE = 0.03
#: Points of an unknown card: (1 + 2 + ... + 9 + 4 * 10) / 13.
AVERAGE_CARD = 85 / 13
#: Value of each point a discard takes out of the hand: less to give away if someone
#: else goes out (a ten-point card is worth 0.3 of an unmatched card; measured against
#: the basic bot, a little better than a mere tie-break).
POINTS_WEIGHT = 0.03


class _Memory:
    """What the bot remembers of one hand: which of its discards the next player took,
    recovered by comparing the discard pile with what it left there."""

    __slots__ = ("hand_id", "pending", "took")

    def __init__(self, hand_id: tuple[object, ...], players: int) -> None:
        self.hand_id = hand_id
        self.took = [0] * players
        #: After its discard: (pile size before it, the card, reshuffles then, next seat).
        self.pending: tuple[int, int, int, int] | None = None

    def update(self, obs: RummyObservation) -> None:
        if self.pending is None:
            return
        size, card, reshuffles, seat = self.pending
        if obs.reshuffles != reshuffles or len(obs.discard) <= size:
            return  # the pile was turned into the stock: nothing to read
        self.pending = None
        # The pile only ever loses its top card before the next push, so the card left
        # at its old place tells whether the next player took it.
        if obs.discard[size] != card:
            self.took[seat] |= 1 << card


def _near(card: int, mask: int) -> bool:
    """Whether ``card`` is of a rank in ``mask`` or within two of a card of its suit."""
    low, suit = low_rank(card), card // 13
    for other in range(52):
        if mask >> other & 1:
            if low_rank(other) == low:
                return True
            if other // 13 == suit and abs(low_rank(other) - low) <= 2:
                return True
    return False


class StrongRummyBot:
    """Live-card counting and Going Rummy (see the module docstring)."""

    level = "strong"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._memory: _Memory | None = None

    # ------------------------------------------------------------------ interface

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        obs: RummyObservation = observation
        if not legal:
            raise ValueError("no legal action to choose from")
        memory = self._remember(obs)
        if len(legal) == 1:
            decision = Decision(legal[0], "the only legal action")
        elif act.DRAW_STOCK in legal:
            decision = self._draw(obs, legal, memory)
        else:
            decision = self._play(obs, legal, memory)
        if act.is_discard_action(decision.action):
            seat = obs.seat if obs.seat is not None else 0
            memory.pending = (
                len(obs.discard),
                act.discard_of(decision.action),
                obs.reshuffles,
                (seat + 1) % len(obs.names),
            )
        return decision

    def _remember(self, obs: RummyObservation) -> _Memory:
        hand_id = (obs.names, obs.hand_no, obs.scores)
        memory = self._memory
        if memory is None or memory.hand_id != hand_id:
            memory = self._memory = _Memory(hand_id, len(obs.names))
        memory.update(obs)
        return memory

    # ------------------------------------------------------------------ knowledge

    @staticmethod
    def _live(obs: RummyObservation, memory: _Memory, extra: int = 0) -> int:
        """Cards that may still come to this hand: not held, not on the table, not in the
        discard pile, not known to be in another hand."""
        seen = obs.hand | extra
        for meld in obs.melds:
            seen |= meld
        for card in obs.discard:
            seen |= 1 << card
        for took in memory.took:
            seen |= took
        return FULL_DECK & ~seen

    def _value(self, hand: int, obs: RummyObservation, live: int) -> float:
        """How good ``hand`` (after a discard) is: minus its unmatched cards, plus what the
        next draw is expected to bring (over the cards that may still be drawn)."""
        dead = best_plan(hand, obs.melds).dead_count
        unseen = max(live.bit_count(), 1)
        total, winners = outs(hand, obs.melds, live)
        return -dead + (OUTS_WEIGHT * total + GO_OUT_WEIGHT * winners) / unseen

    def _danger(self, card: int, obs: RummyObservation, memory: _Memory) -> float:
        seat = obs.seat if obs.seat is not None else 0
        following = (seat + 1) % len(obs.names)
        took = memory.took[following]
        if took and _near(card, took):
            return DANGER_WEIGHT
        return 0.0

    def _best_discard(
        self, hand: int, options: list[int], obs: RummyObservation, memory: _Memory
    ) -> tuple[float, int]:
        """The best of ``options`` (cards) to discard from ``hand``: (value, card)."""
        live = self._live(obs, memory, hand)
        best: tuple[float, int] | None = None
        for card in options:
            value = self._value(hand & ~(1 << card), obs, live)
            value += POINTS_WEIGHT * card_points(card) - self._danger(card, obs, memory)
            if best is None or value > best[0]:
                best = (value, card)
        assert best is not None
        return best

    @staticmethod
    def _discard_options(hand: int, deadwood: int, taken: int) -> list[int]:
        """Cards worth considering as a discard: the unmatched ones (all cards if every one
        is matched), never the card taken from the discard pile this turn."""
        pool = deadwood if deadwood & ~(1 << taken if taken >= 0 else 0) else hand
        return [c for c in range(52) if pool >> c & 1 and c != taken]

    def _lay_down(self, obs: RummyObservation, deadwood: int, memory: _Memory) -> bool:
        """Whether to meld and lay off now rather than hold the cards for Going Rummy.

        Holding doubles what the bot wins when it goes out (Going Rummy), but everything
        held is scored by whoever goes out first. So it lays down once it has lost the
        double anyway (it played in an earlier turn), under ``one_meld_per_turn``, and
        when the points it would save, times the chance that another player goes out
        first, outweigh the extra points of Going Rummy times the chance that it goes
        out first (the others' hands valued at an average card each).
        """
        seat = obs.seat if obs.seat is not None else 0
        if obs.played_before[seat] or obs.played_this_turn or obs.rules.one_meld_per_turn:
            return True
        saved = hand_points(obs.hand) - hand_points(deadwood)
        if not saved:
            return False
        others = [c for s, c in enumerate(obs.card_counts) if s != seat]
        theirs = 1.0
        for count in others:
            theirs *= 1 - OUT_CHANCE[min(count, len(OUT_CHANCE) - 1)]
        theirs = 1 - theirs
        live = self._live(obs, memory)
        _, winners = outs(obs.hand & ~(1 << obs.taken if obs.taken >= 0 else 0), obs.melds, live)
        mine = max(winners / max(live.bit_count(), 1), MY_MIN_CHANCE)
        first = theirs / (theirs + mine)
        double = AVERAGE_CARD * sum(others)
        return first * saved / len(others) > (1 - first) * double

    # ------------------------------------------------------------------ decisions

    def _draw(self, obs: RummyObservation, legal: list[int], memory: _Memory) -> Decision:
        if act.DRAW_DISCARD not in legal:
            return Decision(act.DRAW_STOCK, "the discard pile is empty")
        hand, top = obs.hand, obs.discard[-1]
        taking = best_plan(hand | 1 << top, obs.melds, meld_allowance(obs), top)
        if taking.goes_out(top):
            return Decision(act.DRAW_DISCARD, f"take {card_str(top)} and go out")
        plan = best_plan(hand, obs.melds)
        if not forms_meld(hand, top) and not (fits(obs.melds) | fits(plan.melds)) >> top & 1:
            return Decision(act.DRAW_STOCK, f"{card_str(top)} makes no meld: draw from the stock")
        live = self._live(obs, memory)
        unseen = max(live.bit_count(), 1)
        total, winners = outs(hand, obs.melds, live)
        # A stock draw now, and another next turn: twice the expected help of one draw.
        stock = -plan.dead_count + 2 * (OUTS_WEIGHT * total + GO_OUT_WEIGHT * winners) / unseen
        after = hand | 1 << top
        options = self._discard_options(after, taking.deadwood, top)
        take, _ = self._best_discard(after, options, obs, memory)
        if take - TAKE_COST > stock:
            return Decision(
                act.DRAW_DISCARD, f"take {card_str(top)}: {take:+.2f} against {stock:+.2f}"
            )
        return Decision(act.DRAW_STOCK, f"draw from the stock: {stock:+.2f} against {take:+.2f}")

    def _play(self, obs: RummyObservation, legal: list[int], memory: _Memory) -> Decision:
        hand, taken = obs.hand, obs.taken
        plan = best_plan(hand, obs.melds, meld_allowance(obs), taken)
        if plan.goes_out(taken):
            step = plan_step(plan, legal)
            if step is not None:
                return Decision(step, "go out" + ("" if obs.played_this_turn else " (Rummy?)"))
        elif self._lay_down(obs, plan.deadwood, memory):
            step = plan_step(plan, legal)
            if step is not None:
                return Decision(step, "lay down what fits: too much to lose in hand")
        options = self._discard_options(hand, plan.deadwood, taken)
        allowed = {act.discard_of(a) for a in legal if act.is_discard_action(a)}
        options = [c for c in options if c in allowed] or sorted(allowed)
        if not options:
            return Decision(legal[0], "no card may be discarded")
        value, card = self._best_discard(hand, options, obs, memory)
        return Decision(act.discard_action(card), f"discard {card_str(card)} ({value:+.2f})")
