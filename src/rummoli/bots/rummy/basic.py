"""The basic Rummy bot: the rules of thumb a casual player follows.

- **Draw**: take the top of the discard pile when it pays its way: with it the hand leaves
  no more cards unmatched than without it (it joins a meld, fits one on the table, or
  lets the hand go out). Otherwise draw from the stock.
- **Go out** whenever the hand can (all cards melded or laid off, at most one discard).
- **Going Rummy**: a player who has not yet melded and whose hand is one card from going
  out keeps his melds in hand, to go out in one turn for double points.
- **Otherwise meld** every meld the hand holds and **lay off** every card that fits, to
  leave as few points as possible for whoever goes out.
- **Discard** the least useful unmatched card: one with no partner (no card of its rank,
  none near it in its suit), and among those the one worth the most points.

It reads only its observation; every choice is a plain function of it, so the strong bot
and tests can reason about it.
"""

from __future__ import annotations

from typing import Any

from rummoli.bots import Decision, only_choice
from rummoli.bots.rummy.hand import Plan, best_plan, meld_allowance, plan_step
from rummoli.cards import card_str, cards_of
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.melds import card_points, low_rank
from rummoli.games.rummy.view import RummyObservation


def usefulness(card: int, hand: int) -> int:
    """How much an unmatched card helps the rest of ``hand``: 2 for each other card of its
    rank (a pair waits for a set), 2 for each card next to it in its suit and 1 for each
    two steps away (a run waits for the card between or beside)."""
    score = 0
    suit, low = card // 13, low_rank(card)
    for other in cards_of(hand):
        if other == card:
            continue
        if low_rank(other) == low:
            score += 2
        elif other // 13 == suit:
            distance = abs(low_rank(other) - low)
            score += 2 if distance == 1 else 1 if distance == 2 else 0
    return score


def discard_choice(hand: int, plan: Plan, legal: list[int]) -> int:
    """The discard of the rules of thumb: among the legal discards of unmatched cards (all
    legal discards if none is unmatched), the least useful, then the highest in points."""
    options = [a for a in legal if act.is_discard_action(a)]
    dead = [a for a in options if plan.deadwood >> act.discard_of(a) & 1]
    pool = dead or options
    return min(
        pool,
        key=lambda a: (
            usefulness(act.discard_of(a), hand),
            -card_points(act.discard_of(a)),
            a,
        ),
    )


class BasicRummyBot:
    """Rules of thumb (see the module docstring); deterministic, the seed is not needed."""

    level = "basic"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        obs: RummyObservation = observation
        forced = only_choice(legal, "the only legal action")
        if forced is not None:
            return forced
        if act.DRAW_STOCK in legal:
            return self._draw(obs, legal)
        return self._play(obs, legal)

    def _draw(self, obs: RummyObservation, legal: list[int]) -> Decision:
        if act.DRAW_DISCARD not in legal:
            return Decision(act.DRAW_STOCK, "the discard pile is empty")
        top = obs.discard[-1]
        without = best_plan(obs.hand, obs.melds).dead_count
        with_top = best_plan(obs.hand | 1 << top, obs.melds, meld_allowance(obs), top)
        if with_top.goes_out(top) or with_top.dead_count <= without:
            return Decision(act.DRAW_DISCARD, f"take {card_str(top)}: it fits a meld")
        return Decision(act.DRAW_STOCK, f"{card_str(top)} fits nothing: draw from the stock")

    def _play(self, obs: RummyObservation, legal: list[int]) -> Decision:
        hand, taken = obs.hand, obs.taken
        plan = best_plan(hand, obs.melds, meld_allowance(obs), taken)
        if plan.goes_out(taken):
            step = plan_step(plan, legal)
            if step is not None:
                return Decision(step, "go out")
        seat = obs.seat if obs.seat is not None else 0
        waiting = not obs.played_before[seat] and not obs.played_this_turn
        if not (waiting and plan.dead_count <= 2):
            step = plan_step(plan, legal)
            if step is not None:
                return Decision(step, "meld and lay off what fits")
        action = discard_choice(hand, plan, legal)
        card = card_str(act.discard_of(action))
        why = "hold the melds for Going Rummy; " if waiting and plan.melds else ""
        return Decision(action, f"{why}discard {card}, the least useful card")
