"""The basic bot: a few clear rules of thumb, each decision in microseconds.

One player for every game of the family: what it values is read from the game's board
(:mod:`.board`: its pay cards, pots and payments), so Michigan's boodles and Tripoley's
hearts count as Rummoli's pay cards do.

It is the opponent most people should meet first, and it is also the *model of the other
players* inside the strong bot's rollouts, so every rule is a plain function of numbers
(hand masks, chip counts), usable without an observation:

- **Hand value** (:func:`hand_value`): what a hand is worth in chips this round, as the
  sum of three parts: the poker space times the chance of the best poker hand; the pay
  spaces whose cards it holds (a held pay card is usually laid before anyone goes out);
  and the rummoli space plus the payments times a rough chance of going out first, which
  falls with the number of runs the hand holds (each run ends in a stop).
- **Widow**: exchange (dealer) or bid (others) when the expected value of an unseen hand
  of the widow's size beats this hand's value; bid at most part of that gain, and never
  more than a quarter of one's chips.
- **Betting**: the chance to hold the best hand against the players still in, against
  the pot odds: fold when calling costs more than it is worth, call when it is worth it,
  bet or raise with a strong hand, more with a stronger one.
- **Cards**: claim every space that can be claimed; among equally low cards, lead the one
  that lays most of its own cards in a row (its run continues in this hand), then the one
  whose run ends in a dead card (the next card laid or known in the widow, or an ace:
  the stop gives the lead back), then the one that lays a pay card.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Any, Final

from rummoli.bots import Decision, only_choice
from rummoli.bots.stops.board import BoardValues, board_values
from rummoli.bots.stops.estimate import own_run_length, run_starts, win_chance
from rummoli.cards import NUM_RANKS, card_str
from rummoli.engine.rng import SeededRandom
from rummoli.games.stops import actions as act
from rummoli.games.stops import layout as lay
from rummoli.games.stops.tables import holds_pay_card
from rummoli.games.stops.view import Observation
from rummoli.poker import category_name, hand_key

#: Betting answers of :func:`bet_policy` besides a raise-to total (> 0).
FOLD_CODE: Final = -1
CHECK_OR_CALL: Final = 0

#: Chips the lead in the Rummoli phase is worth to the poker winner (it lays first).
LEAD_VALUE: Final = 2.0
#: Win chance from which a hand bets (no bet yet) or raises (facing one).
BET_AT: Final = 0.55
RAISE_AT: Final = 0.75
#: A held pay card is laid before someone goes out about this often.
PAY_CARD_ODDS: Final = 0.85
#: How fast the chance of going out first falls with each run a hand holds.
RUN_PENALTY: Final = 0.45


def pay_value(hand: int, board: dict[str, int], values: BoardValues) -> float:
    """Chips of the pay spaces this hand would win by laying its own cards (those won by
    holding them count in full: they pay at the deal)."""
    total = 0
    for name, card in values.singles:
        if hand >> card & 1:
            total += board.get(name, 0)
    for name, mask in values.combos:
        if hand & mask == mask:
            total += board.get(name, 0)
    held = 0
    for name, mask in values.held:
        if hand & mask == mask:
            held += board.get(name, 0)
    return total * PAY_CARD_ODDS + held


def expected_runs(size: int, unseen: int) -> float:
    """Mean number of runs of a random ``size``-card hand drawn from ``unseen`` cards: a
    card starts a run unless the card below it is in the same hand."""
    if unseen <= 1:
        return float(size)
    return size * (1.0 - 0.95 * (size - 1) / (unseen - 1))


def go_out_share(runs: float, other_runs: list[float]) -> float:
    """A rough chance of going out first: each run costs a stop, so weigh hands by
    ``exp(-RUN_PENALTY * runs)`` and share the chance in proportion."""
    mine = math.exp(-RUN_PENALTY * runs)
    return mine / (mine + sum(math.exp(-RUN_PENALTY * r) for r in other_runs))


def hand_value(
    hand: int,
    opponent_sizes: list[int],
    board: dict[str, int],
    *,
    unseen: int,
    values: BoardValues,
) -> float:
    """What ``hand`` is worth in chips this round against opponents of the given sizes."""
    size = hand.bit_count()
    poker = 0.0
    if values.poker:
        poker = board.get(values.poker, 0) * win_chance(hand_key(hand), size, opponent_sizes)
    others = [expected_runs(m, unseen) for m in opponent_sizes]
    race_prize = board.get(values.kitty, 0) + sum(opponent_sizes) * 0.5 * values.per_card
    race = go_out_share(run_starts(hand), others) * race_prize
    return poker + pay_value(hand, board, values) + race


def unseen_hand_value(
    size: int,
    opponent_sizes: list[int],
    board: dict[str, int],
    *,
    unseen: int,
    excluded_pay: float,
    values: BoardValues,
) -> float:
    """Expected value of a hand of ``size`` cards nobody has seen (the widow).

    ``excluded_pay`` is the pay value of the cards known to be elsewhere (one's own
    hand), which the unseen hand cannot hold.
    """
    share = size / max(unseen, 1)
    total_pay = sum(board.get(name, 0) for name, _ in values.singles)
    pay = max(0.0, total_pay * PAY_CARD_ODDS - excluded_pay) * share
    poker = board.get(values.poker, 0) / (len(opponent_sizes) + 1) if values.poker else 0.0
    others = [expected_runs(m, unseen) for m in opponent_sizes]
    race_prize = board.get(values.kitty, 0) + sum(opponent_sizes) * 0.5 * values.per_card
    race = go_out_share(expected_runs(size, unseen), others) * race_prize
    return poker + pay + race


def widow_gain(
    hand: int,
    widow_size: int,
    opponent_sizes: list[int],
    board: dict[str, int],
    values: BoardValues,
) -> float:
    """Chips expected from swapping ``hand`` for the unseen widow (negative: keep)."""
    unseen = values.plan.deck - hand.bit_count()
    mine = hand_value(hand, opponent_sizes, board, unseen=unseen, values=values)
    widow = unseen_hand_value(
        widow_size,
        opponent_sizes,
        board,
        unseen=unseen,
        excluded_pay=pay_value(hand, board, values),
        values=values,
    )
    return widow - mine


def max_bid(gain: float, chips: int) -> int:
    """The most a player bids for the widow: part of the expected gain, and at most a
    quarter of his chips (the auction is a gamble on unseen cards)."""
    return max(0, min(int(gain * 0.6), chips // 4))


def bet_policy(
    strength: float,
    owed: int,
    pot: int,
    high: int,
    low_raise: int,
    high_raise: int,
) -> int:
    """A betting answer: :data:`FOLD_CODE`, :data:`CHECK_OR_CALL`, or a raise-to total.

    ``strength`` is the chance of the best hand among the players still in; ``pot`` the
    chips on the poker space now; ``low_raise..high_raise`` the totals one may raise to
    (empty when ``low_raise > high_raise``). A fold is only answered when ``owed > 0``.
    """
    can_raise = low_raise <= high_raise
    prize = pot + owed + LEAD_VALUE
    if can_raise and strength >= (RAISE_AT if owed else BET_AT):
        # Bet a share of the pot that grows with the strength of the hand.
        size = int((pot + owed) * (0.4 + strength)) + 1
        return min(max(high + size, low_raise), high_raise)
    if owed == 0:
        return CHECK_OR_CALL
    if strength * prize >= owed:
        return CHECK_OR_CALL
    return FOLD_CODE


def lead_score(hand: int, card: int, dead: int, pay_cards: int) -> tuple[int, int, int]:
    """How good ``card`` is to lead from ``hand`` (higher is better; compare as tuples).

    ``dead`` holds the cards known to be out of play (laid, or in the widow as far as
    this seat knows): a run that ends below a dead card stops on us, and we lead again.
    """
    length = own_run_length(hand, card)
    top = card + length - 1
    ends_on_us = top % NUM_RANKS == NUM_RANKS - 1 or bool(dead >> (top + 1) & 1)
    run_mask = ((1 << length) - 1) << card
    return length, int(ends_on_us), int(bool(run_mask & pay_cards))


class BasicBot:
    """Rules of thumb for every decision (see the module docstring).

    The value of the widow depends only on the hand and on public counts that do not
    change during an auction, which asks the same bidders again after every raise of one
    chip, so it is kept in a small per-bot cache: the same decisions, computed once.
    """

    level = "basic"

    def __init__(self, seed: int) -> None:
        # Basic decisions are deterministic; the generator only breaks exact ties, so a
        # table of basic bots still varies with the seed.
        self._rng = SeededRandom(seed)
        #: (hand, widow size, opponents' card counts, board) -> widow gain.
        self._gains: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], float] = {}
        #: The poker key of the last hand that bet (-1: none yet).
        self._keyed_hand = -1
        self._hand_key = 0

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        obs: Observation = observation
        forced = only_choice(legal, "the only choice")
        if forced is not None:
            return forced
        phase = obs.phase
        if phase == "play":  # the most frequent decision first
            return self._play(obs, legal)
        if phase == "betting" or phase == "settlement":  # the settlement's own poker
            return self._betting(obs, legal)
        if phase == "widow":
            return self._widow(obs, legal)
        if phase == "auction":
            return self._auction(obs, legal)
        if phase == "stake":
            return _stake(obs, legal)
        return self._play(obs, legal)

    # -------------------------------------------------------------- widow and auction

    def _gain(self, obs: Observation) -> float:
        seat = _seat(obs)
        counts = obs.card_counts
        others = tuple([counts[s] for s in obs.in_round if s != seat])
        key = (obs.hand, obs.widow_count, others, obs.board)
        gain = self._gains.get(key)
        if gain is None:
            board = dict(zip(obs.spaces, obs.board, strict=True))
            values = board_values(obs.plan, obs.trump)
            gain = widow_gain(obs.hand, obs.widow_count, list(others), board, values)
            if len(self._gains) >= _CACHE_LIMIT:
                self._gains.clear()
            self._gains[key] = gain
        return gain

    def _widow(self, obs: Observation, legal: list[int]) -> Decision:
        gain = self._gain(obs)
        if act.EXCHANGE in legal and gain > 1.0:
            return Decision(act.EXCHANGE, f"exchange: the widow is worth about {gain:.0f} more")
        return Decision(act.KEEP, "keep: this hand is worth at least the unseen widow")

    def _auction(self, obs: Observation, legal: list[int]) -> Decision:
        seat = _seat(obs)
        limit = max_bid(self._gain(obs), obs.chips[seat])
        bid = act.BID_BASE + obs.auction_high + 1
        if obs.auction_high + 1 <= limit and _contains(legal, bid):
            return Decision(bid, f"bid {obs.auction_high + 1}: the widow looks worth {limit}")
        return Decision(act.PASS, "pass: the widow is not worth the price")

    # -------------------------------------------------------------- poker betting

    def _betting(self, obs: Observation, legal: list[int]) -> Decision:
        seat = _seat(obs)
        counts = obs.card_counts
        folded = obs.folded
        contenders = [counts[s] for s in obs.in_round if s != seat and not folded[s]]
        hand = obs.hand
        # A betting round asks the same seat several times with the same hand.
        if hand != self._keyed_hand:
            self._keyed_hand = hand
            self._hand_key = hand_key(hand)
        key = self._hand_key
        strength = win_chance(key, hand.bit_count(), contenders)
        answer = bet_policy(strength, *_betting_numbers(obs, legal))
        return _bet_decision(obs, legal, answer, f"{category_name(key)}, {strength:.0%} to win")

    # -------------------------------------------------------------- the Rummoli phase

    def _play(self, obs: Observation, legal: list[int]) -> Decision:
        # Without claims (the default rules) every legal action is a plain lay.
        plain = legal[0] >= act.LAY_BASE and legal[-1] < act.CLAIM_BASE
        choices = legal if plain else claim_first(legal)
        if len(choices) == 1:
            return Decision(choices[0], "claim the space" if choices[0] >= act.CLAIM_BASE else "")
        hand = obs.hand
        dead = obs.laid_mask | obs.known_widow
        if obs.turned >= 0:
            dead |= 1 << obs.turned
        plan = obs.plan
        pay = board_values(plan, obs.trump).pay_cards
        card_of = _CARD_OF_ACTION
        if plan.play == lay.RANK:
            scored = [(rank_lead_score(hand, card_of[a], pay), a) for a in choices]
        elif plan.ace_low:
            scored = [(low_lead_score(hand, card_of[a], dead, pay), a) for a in choices]
        else:
            scored = [(lead_score(hand, card_of[a], dead, pay), a) for a in choices]
        best = max([s for s, _ in scored])
        top = [a for s, a in scored if s == best]
        action = top[0] if len(top) == 1 else self._rng.choice(top)
        length, ends, _ = best
        why = f"lead {card_str(card_of[action])}: lays {length} of my cards"
        return Decision(action, why + (" and keeps the lead" if ends else ""))


#: Entries a per-bot cache holds before it starts again (a few rounds' worth).
_CACHE_LIMIT: Final = 256


#: The card of every LAY and LAY-and-CLAIM action, indexed by the action.
_CARD_OF_ACTION: Final = tuple(
    act.lay_card(a) if act.is_lay(a) else -1 for a in range(act.BID_BASE)
)


def _contains(legal: list[int], action: int) -> bool:
    """``action in legal`` for a sorted list, without scanning hundreds of raise sizes."""
    index = bisect_left(legal, action)
    return index < len(legal) and legal[index] == action


def claim_first(legal: list[int]) -> list[int]:
    """The card choices, with "lay and claim" replacing "lay" wherever both are legal:
    claiming wins the space's chips, not claiming leaves them on the board."""
    claims = {act.lay_card(a) for a in legal if a >= act.CLAIM_BASE and act.is_lay(a)}
    return [
        a for a in legal if act.is_lay(a) and (a >= act.CLAIM_BASE or act.lay_card(a) not in claims)
    ]


def _seat(obs: Observation) -> int:
    if obs.seat is None:
        raise ValueError("a spectator's observation cannot decide")
    return obs.seat


def _betting_numbers(obs: Observation, legal: list[int]) -> tuple[int, int, int, int, int]:
    """``(owed, pot, high, low_raise, high_raise)`` for :func:`bet_policy`.

    Legal actions are sorted and the raises come last, so the lowest and highest raise
    are found by bisection instead of a pass over up to a few hundred raise sizes.
    """
    seat = _seat(obs)
    base = obs.codec.raise_base
    first = bisect_left(legal, base)
    owed = obs.high_bet - obs.bets[seat]
    if first < len(legal):
        low, high = legal[first] - base, legal[-1] - base
    else:
        low, high = 1, 0
    return owed, obs.pot, obs.high_bet, low, high


def _bet_decision(obs: Observation, legal: list[int], answer: int, why: str) -> Decision:
    """The action for a :func:`bet_policy` answer, with the reason written out."""
    if answer == FOLD_CODE and _contains(legal, act.FOLD):
        return Decision(act.FOLD, f"fold: {why}, not worth the call")
    if answer > 0:
        action = obs.codec.raise_to(answer)
        if _contains(legal, action):
            word = "raise to" if obs.high_bet else "bet"
            return Decision(action, f"{word} {answer}: {why}")
    if _contains(legal, act.CHECK):
        return Decision(act.CHECK, f"check: {why}")
    return Decision(act.CALL, f"call: {why}")


def blocked(hand: int, obs: Observation) -> bool:
    """Whether ``pay_card_blocks_exchange`` keeps this hand from the widow."""
    if not obs.plan.pay_card_blocks_exchange:
        return False
    tables = board_values(obs.plan, obs.trump).tables
    return holds_pay_card(hand, tables.pay_cards, tables.pay_combos)


def _stake(obs: Observation, legal: list[int]) -> Decision:
    """A chip placed by choice before the deal (Newmarket's horses): on the space with
    the fewest chips, spreading the chips (before the deal every space is as likely to
    be won by anyone; a space with few chips is cheap company)."""
    codec = obs.codec
    index = {name: i for i, name in enumerate(obs.spaces)}

    def chips_on(action: int) -> int:
        return obs.board[index[codec.stake_spaces[action - codec.stake_base]]]

    action = min(legal, key=lambda a: (chips_on(a), a))
    return Decision(action, f"stake on {codec.to_text(action).split()[-1]}: the fewest chips")


def low_lead_score(hand: int, card: int, dead: int, pay_cards: int) -> tuple[int, int, int]:
    """:func:`lead_score` when aces are low (the ace leads to the two; the king ends)."""
    length = 1
    top = card
    rank = card % NUM_RANKS
    while rank != NUM_RANKS - 2:  # the king ends the suit
        nxt = top - 12 if rank == NUM_RANKS - 1 else top + 1
        if not hand >> nxt & 1:
            break
        top = nxt
        rank = top % NUM_RANKS
        length += 1
    rank = top % NUM_RANKS
    nxt = top - 12 if rank == NUM_RANKS - 1 else top + 1
    ends_on_us = rank == NUM_RANKS - 2 or bool(dead >> nxt & 1)
    run_mask = 0
    seen = card
    for _ in range(length):
        run_mask |= 1 << seen
        seen = seen - 12 if seen % NUM_RANKS == NUM_RANKS - 1 else seen + 1
    return length, int(ends_on_us), int(bool(run_mask & pay_cards))


#: The four cards of each place of a sequence by rank, aces low (0 = aces ... 12 = kings).
_RANK_PLACE: Final = tuple(
    tuple(suit * NUM_RANKS + (12 if place == 0 else place - 1) for suit in range(4))
    for place in range(NUM_RANKS)
)


def rank_lead_score(hand: int, card: int, pay_cards: int) -> tuple[int, int, int]:
    """How good ``card`` is to lay in a sequence by rank (Nain Jaune): the most cards of
    the next ranks this hand lays after it, then whether it wins a space, then the
    lowest (a long sequence from a low card)."""
    rank = card % NUM_RANKS
    place = 0 if rank == 12 else rank + 1
    length = 1
    for nxt in range(place + 1, NUM_RANKS):
        if not any(hand >> c & 1 for c in _RANK_PLACE[nxt]):
            break
        length += 1
    return length, int(bool(pay_cards >> card & 1)), -place
