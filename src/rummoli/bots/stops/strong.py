"""The strong bot: decides by playing the rest of the round out on sampled deals.

For each real decision it draws deals of the cards it cannot see that keep everything
its observation tells it (:mod:`rummoli.bots.stops.knowledge`), plays the rest of the round out
on each deal once per candidate action with fast rollout policies
(:mod:`rummoli.bots.stops.rollout`: the basic bot's rules for every seat, its own later
decisions included), and takes the action with the most chips on average over the deals.
Every candidate is scored on the same deals (common random numbers), so the comparison
is far less noisy than the values themselves. The design, the tuning and the figures are
in ``docs/bots.md``.

What is estimated, per decision:

- **Widow (dealer)**: keep (then the auction runs, and the dealer pockets the price)
  against exchange; each played out through the poker phase and the Rummoli phase.
- **Auction**: the gain of buying the widow against passing (the others may still buy
  it), before the price. It bids the minimum raise while the price stays below that gain
  (the right play in an ascending auction), and never more than a third of its chips.
  The gain is computed once per auction and kept, so its bids are consistent.
- **Betting**: fold, check or call, and a few raise sizes (the minimum, half the pot,
  the pot, all-in). Each is played out: the other seats answer with the basic rule,
  the poker pots are awarded, and the Rummoli phase is played from the poker winner's
  lead, so the value of leading counts as well as the pot. After a third of the deals
  only the three best candidates go on (successive halving). Opponents' bets are
  evidence: each deal is weighted by how likely the bets seen are with the hands it
  gives them (importance sampling).
- **Cards** (equally low cards, a suit to lead, claims): each legal card is played out.

**Opponent model.** Each opponent may bid, or bet, at random instead of by its cards (the
random bot does both; people overpay for the widow). The bot keeps, per opponent and per
game, the evidence for each trait, read from the round's public auction and betting
history at each decision: widow bids above anything a hand is worth (Bayes' rule on two
types of bidder, so one wild bid is nearly proof), modest bids, passes and exchanges
(evidence of care); bets shown down with hands too weak for them, and raises larger than
a careful player makes. In each rollout an opponent plays at random with the chance the
evidence gives; its bets then say nothing about its hand. A wrong "random" costs chips
(a dealer expecting wild bids keeps hands it should exchange, a bettor expecting wild
calls bets into strong hands), so the betting prior is small; the bid prior is a quarter,
since one modest bid corrects it (docs/bots.md has the figures).

The bot never reads the State: :func:`rummoli.bots.ask_bot` hands it the observation.
"""

from __future__ import annotations

from typing import Any

from rummoli.bots import Decision, only_choice
from rummoli.bots.stops.basic import BasicBot, claim_first
from rummoli.bots.stops.estimate import poker_percentile
from rummoli.bots.stops.knowledge import Knowledge, infer
from rummoli.bots.stops.rollout import Table, make_owner
from rummoli.cards import card_str
from rummoli.engine.rng import SeededRandom
from rummoli.games.stops import actions as act
from rummoli.games.stops.view import Observation
from rummoli.poker import hand_key

#: Deals sampled per decision, by kind of decision (fixed counts keep it deterministic).
SAMPLES = {"widow": 48, "auction": 48, "betting": 120, "play": 40}
#: How sharply a bet says "strong hand": a hand weaker than LIKELY_SCALE times the share
#: of the pot the bet paid for is weighted down by (strength / need) ** LIKELY_POWER.
#: Tuned on betting decisions against basic players (docs/bots.md).
LIKELY_SCALE = 1.3
LIKELY_POWER = 10
#: Betting candidates still played out after the first third of the deals.
KEEP_AFTER_FIRST_THIRD = 3
_PHASE_ORDER = {"widow": 0, "auction": 1, "betting": 2, "play": 3}
#: Chips a gain must exceed before the bot pays for the widow.
BID_MARGIN = 1.0
#: A widow bid above this is more than any hand is worth: a sign of a random bidder.
WILD_BID = 12
#: Priors of the opponent model (chances that a player bids / bets at random), worth
#: PRIOR_EVIDENCE observations. Bets are tested at every showdown, bids are seen rarely.
PRIOR_WILD_BID = 0.25
#: How often a bid is wild (above WILD_BID), for a player who bids at random (most of his
#: choices are big: any amount up to all his chips) and for one who bids by his cards
#: (rarely: no hand is worth that much). A wild bid is thus strong evidence of the type.
WILD_BID_IF_WILD = 0.85
WILD_BID_IF_SANE = 0.01
#: How often each type ends a round's auction without bidding (a pass forced by a pay
#: card, or for want of chips, looks the same as a pass by choice): weak evidence.
PASS_IF_WILD = 0.7
PASS_IF_SANE = 0.9
#: How often each type of dealer exchanges his hand for the widow: a random one at the
#: toss of a coin when his hand allows it, a careful one nearly always (the widow is
#: worth a few chips on average). An exchange is evidence of care.
EXCHANGE_IF_WILD = 0.17
EXCHANGE_IF_SANE = 0.33
PRIOR_WILD_BET = 0.05
#: How often a raise is larger than the basic rule makes, for a random bettor (he raises
#: to any total up to all-in) and for a careful one.
WILD_RAISE_IF_WILD = 0.8
WILD_RAISE_IF_SANE = 0.01
PRIOR_EVIDENCE = 3.0


class StrongBot:
    """Sampling and rollouts on top of the basic rules (see the module docstring)."""

    level = "strong"

    def __init__(self, seed: int, samples: dict[str, int] | None = None) -> None:
        self._rng = SeededRandom(seed)
        self.samples = dict(SAMPLES)
        if samples:
            self.samples.update(samples)
        self._auction_gain: dict[tuple[int, int, int], float] = {}
        # Opponent model: showdowns where a seat had bet, and how many of those hands
        # were weak for the bet (a bluff, or a random player).
        self._bets_seen: dict[int, int] = {}
        self._weak_bets: dict[int, int] = {}
        # Raises larger than the basic rule ever makes, per seat.
        self._wild_raises: dict[int, int] = {}
        # (round, seat) -> (its highest bid, 0 if it only passed; its chips then).
        self._bids: dict[tuple[int, int], tuple[int, int]] = {}
        # (round, dealer) of the exchanges seen.
        self._exchanges: set[tuple[int, int]] = set()
        # Betting actions already read from the public history, per round.
        self._bets_read: dict[int, int] = {}
        self._recorded_round = -1
        self._game: tuple[tuple[str, ...], int | None] | None = None
        self._moment = (0, 0, 0)
        self._seed = seed
        #: The settlement's bettor (made when first needed).
        self._basic: BasicBot | None = None

    @property
    def _settler(self) -> BasicBot:
        if self._basic is None:
            self._basic = BasicBot(self._seed)
        return self._basic

    def choose(self, observation: Any, legal: list[int]) -> Decision:
        obs: Observation = observation
        phase = obs.phase
        if phase == "settlement" or phase == "stake":
            # The settlement's betting (house rule settlement_betting) ends the game:
            # no runs to play out, so the basic rule decides (a forced choice too); so
            # does a chip placed by choice before the deal (Newmarket), when no card is
            # known yet.
            return self._settler.choose(obs, legal)
        forced = only_choice(legal, "the only choice")
        if forced is not None:
            return forced
        self._track_game(obs)
        if phase == "widow":
            return self._widow(obs, legal)
        if phase == "auction":
            return self._auction(obs, legal)
        if phase == "betting":
            return self._betting(obs, legal)
        return self._play(obs, legal)

    # -------------------------------------------------------------- set-up

    def _track_game(self, obs: Observation) -> None:
        """Forget the opponent model when a new game starts; learn from what is seen.

        A simulation may hand the same bot object game after game, in another seat; a
        new game shows as another table or seat, or as time going backwards (an earlier
        round, phase or fewer cards laid than at the last decision).
        """
        game = (obs.names, obs.seat)
        moment = (obs.round_no, _PHASE_ORDER.get(obs.phase, 0), len(obs.laid))
        if self._game != game or moment < self._moment:
            self._bets_seen.clear()
            self._weak_bets.clear()
            self._wild_raises.clear()
            self._bids.clear()
            self._exchanges.clear()
            self._bets_read.clear()
            self._auction_gain.clear()
            self._recorded_round = -1
        self._game = game
        self._moment = moment
        me = obs.seat
        for seat, price in obs.auction_history:
            if seat != me:
                self._note_bid(obs, seat, price)
        if obs.widow_taker == obs.dealer != me:
            self._exchanges.add((obs.round_no, obs.dealer))
        if obs.phase == "betting":
            self._learn_from_raises(obs)
        if obs.phase == "play" and obs.round_no != self._recorded_round:
            self._recorded_round = obs.round_no
            self._learn_from_showdown(obs)

    def _learn_from_raises(self, obs: Observation) -> None:
        """Count a raise larger than the basic rule ever makes (the pot and what is owed,
        times 1.4, and the minimum raise) as a bet made at random: the random bot raises
        to any total up to all-in. Each betting action of the history is read once."""
        if isinstance(obs.plan.bet_limit, int):
            return  # fixed limit: every raise has the same size
        history = obs.bet_history
        done = self._bets_read.get(obs.round_no, 0)
        if done >= len(history):
            return
        self._bets_read[obs.round_no] = len(history)
        pot = obs.board[0] - sum(obs.bets)
        committed = [0] * len(obs.names)
        high = last_raise = 0
        for index, (seat, action, total) in enumerate(history):
            if action not in ("call", "raise"):
                continue
            owed = high - committed[seat]
            if action == "raise":
                basic_top = high + int((pot + owed) * 1.4) + 1
                lowest = high + max(last_raise, 1)
                if index >= done and seat != obs.seat and total > max(basic_top, lowest):
                    self._wild_raises[seat] = self._wild_raises.get(seat, 0) + 1
                last_raise = max(last_raise, total - high)
                high = total
            pot += total - committed[seat]
            committed[seat] = total

    def _note_bid(self, obs: Observation, seat: int, price: int) -> None:
        """Keep a seat's highest bid of the round (0: it only passed) and its chips at
        the time (a buyer has paid his price once the auction is over)."""
        chips = obs.chips[seat]
        if obs.phase not in ("widow", "auction") and seat == obs.widow_taker != obs.dealer:
            chips += obs.auction_high
        key = (obs.round_no, seat)
        old = self._bids.get(key, (0, chips))[0]
        self._bids[key] = (max(price, old), chips)

    def _learn_from_showdown(self, obs: Observation) -> None:
        """Count each shown opponent's bet as weak when its hand (its best five, ranked
        among hands of its size) had far less chance than the bet asked for. The chips on
        the poker space before the betting are no longer visible; one per player stands
        in for them."""
        if obs.plan.poker != "betting" or obs.plan.hands != "five_cards" or len(obs.shown) < 2:
            return
        me = obs.seat
        contenders = len(obs.shown)
        for seat, five in obs.shown:
            bet = obs.bets[seat]
            if seat == me or bet <= 0:
                continue
            size = obs.card_counts[seat] + sum(1 for s, _ in obs.laid if s == seat)
            strength = poker_percentile(hand_key(five), size) ** (contenders - 1)
            self._bets_seen[seat] = self._bets_seen.get(seat, 0) + 1
            if strength < 0.6 * _bet_threshold(bet, len(obs.in_round)):
                self._weak_bets[seat] = self._weak_bets.get(seat, 0) + 1

    def wildness(self, seat: int) -> tuple[float, float]:
        """The chances that ``seat`` bids, and bets, at random rather than by its cards.

        Two traits, each learnt from its own evidence. Bids: the public auction history
        shows every bid; a round in which the seat bid above :data:`WILD_BID` (more than
        any hand is worth) is strong evidence that it bids at random, a round of modest
        bids evidence that it does not (Bayes' rule on the two types, from the prior
        :data:`PRIOR_WILD_BID`: one wild bid makes a random bidder likely, two nearly
        sure). Bets: bets shown down with hands too weak for them, and raises larger
        than a player betting by his cards makes, counted from a small prior worth
        :data:`PRIOR_EVIDENCE` observations.
        """
        odds = PRIOR_WILD_BID / (1.0 - PRIOR_WILD_BID)
        for (_, bidder), (price, chips) in self._bids.items():
            if bidder != seat:
                continue
            # A random bidder's bid is uniform up to his chips: a poor one bids low too.
            big = min(WILD_BID_IF_WILD, max(0.05, (chips - WILD_BID) / (chips + 1)))
            if price > WILD_BID:
                odds *= big / WILD_BID_IF_SANE
            elif price > 0:
                odds *= (1.0 - big) / (1.0 - WILD_BID_IF_SANE)
            else:
                odds *= PASS_IF_WILD / PASS_IF_SANE
        for _, dealer in self._exchanges:
            if dealer == seat:
                odds *= EXCHANGE_IF_WILD / EXCHANGE_IF_SANE
        bid = odds / (1.0 + odds)
        seen = self._bets_seen.get(seat, 0)
        weak = self._weak_bets.get(seat, 0)
        bet = (weak + PRIOR_WILD_BET * PRIOR_EVIDENCE) / (seen + PRIOR_EVIDENCE)
        raises = self._wild_raises.get(seat, 0)
        if raises:
            # A raise no careful player makes is near proof (Bayes' rule, as for bids):
            # a random bettor's raise is nearly always that large, a careful one's never.
            odds = bet / (1.0 - bet) * (WILD_RAISE_IF_WILD / WILD_RAISE_IF_SANE) ** raises
            bet = odds / (1.0 + odds)
        return bid, bet

    def _wild_chances(self, obs: Observation, table: Table) -> list[tuple[float, float]]:
        """Each seat's two wildness chances (0 for this seat); sets the table's generator."""
        table.rng = self._rng
        me = obs.seat
        return [(0.0, 0.0) if s == me else self.wildness(s) for s in range(len(obs.names))]

    def _draw_wild(self, table: Table, chances: list[tuple[float, float]]) -> None:
        """Which opponents play at random in the next rollout."""
        draw = self._rng.random
        table.wild_bid = [bid > 0.0 and draw() < bid for bid, _ in chances]
        table.wild_bet = [bet > 0.0 and draw() < bet for _, bet in chances]

    def _table(self, obs: Observation) -> Table:
        return Table(obs.plan, obs.in_round, obs.dealer, len(obs.names), obs.trump)

    # -------------------------------------------------------------- widow and auction

    def _widow(self, obs: Observation, legal: list[int]) -> Decision:
        auction = obs.plan.widow == "exchange_or_auction"
        gain = self._taking_widow(obs, "widow", -1 if auction else None)
        if gain > 0 and act.EXCHANGE in legal:
            return Decision(act.EXCHANGE, f"exchange: {gain:+.1f} chips over keeping")
        return Decision(act.KEEP, f"keep: exchanging is worth {gain:+.1f} chips")

    def _auction(self, obs: Observation, legal: list[int]) -> Decision:
        me = _seat(obs)
        key = (obs.round_no, obs.hand, me)
        gain = self._auction_gain.get(key)
        if gain is None:
            gain = self._auction_gain[key] = self._taking_widow(obs, "auction", me)
        price = obs.auction_high + 1
        limit = min(gain - BID_MARGIN, obs.chips[me] / 3)
        bid = act.BID_BASE + price
        if bid in legal and price <= limit:
            return Decision(bid, f"bid {price}: the widow is worth about {gain:.1f} chips")
        return Decision(act.PASS, f"pass: the widow is worth about {gain:.1f} chips")

    def _taking_widow(self, obs: Observation, kind: str, auction_skip: int | None) -> float:
        """Chips gained, on average over the ``kind`` samples, by taking the widow (before
        any price) over leaving it: the dealer's exchange against keeping, or a bidder's
        purchase against passing. Left, the widow may still be bought by another seat at
        the auction (``auction_skip``: the seat that has passed, -1 none; None: no auction)."""
        me = _seat(obs)
        table = self._table(obs)
        know = infer(obs)
        total = 0.0
        count = self.samples[kind]
        chances = self._wild_chances(obs, table)
        for _ in range(count):
            hands, widow = know.sample(self._rng)
            self._draw_wild(table, chances)
            chips = list(obs.chips)
            board = list(obs.board)
            h = hands[:]
            w = widow
            if auction_skip is not None:
                buyer = table.auction(h, w, chips, board, skip=auction_skip)
                if buyer >= 0:
                    h[buyer], w = w, h[buyer]
            left = _play_round(table, h, w, chips, board, me) - obs.chips[me]
            chips = list(obs.chips)
            board = list(obs.board)
            h = hands[:]
            h[me], w = widow, h[me]
            taken = _play_round(table, h, w, chips, board, me) - obs.chips[me]
            total += taken - left
        return total / count

    # -------------------------------------------------------------- poker betting

    def _betting(self, obs: Observation, legal: list[int]) -> Decision:
        """Each candidate played out on the same deals; after the first third of the deals
        only the best :data:`KEEP_AFTER_FIRST_THIRD` go on (successive halving: the
        samples go where the choice is close)."""
        me = _seat(obs)
        table = self._table(obs)
        know = infer(obs)
        candidates = _bet_candidates(obs, legal)
        base = table.betting_from_history(obs.bet_history, me)
        dead = obs.board[0] - sum(obs.bets)
        start = obs.chips[me]
        totals = [0.0] * len(candidates)
        weights = [0.0] * len(candidates)
        rng = self._rng
        raise_base = obs.codec.raise_base
        chances = self._wild_chances(obs, table)
        count = self.samples["betting"]
        active = list(range(len(candidates)))
        for n in range(count):
            if n == count // 3 and len(active) > KEEP_AFTER_FIRST_THIRD:
                active.sort(key=lambda i: -totals[i] / (weights[i] or 1.0))
                active = sorted(active[:KEEP_AFTER_FIRST_THIRD])
            hands, widow = know.sample(rng)
            self._draw_wild(table, chances)
            keys, pct = table.strengths(hands)
            weight = self._likelihood(obs, pct, dead, table.wild_bet)
            if weight <= 0.0:
                continue
            owner = make_owner(hands, widow)
            play_value: dict[int, int] = {}
            for i in active:
                action = candidates[i]
                betting = base.copy()
                chips = list(obs.chips)
                board = list(obs.board)
                if action == act.FOLD:
                    betting.folded[me] = True
                elif action == act.CHECK:
                    betting.acted[me] = True
                else:
                    if action == act.CALL:
                        total = min(betting.high, betting.committed[me] + chips[me])
                    else:
                        total = action - raise_base
                    board[0] += betting.put_in(me, total, chips)
                leader = table.finish_betting(betting, chips, board, keys, pct)
                value = play_value.get(leader)
                if value is None:
                    c = list(obs.chips)
                    table.start_play(hands[:], owner[:], c, list(obs.board), leader)
                    value = play_value[leader] = c[me] - obs.chips[me]
                totals[i] += weight * (chips[me] - start + value)
                weights[i] += weight
        means = [t / (w or 1.0) for t, w in zip(totals, weights, strict=True)]
        return _best(obs, [candidates[i] for i in active], [means[i] for i in active])

    def _likelihood(
        self, obs: Observation, pct: dict[int, float], dead: int, wild: list[bool]
    ) -> float:
        """How likely the bets seen are, given a deal's hands and which opponents play
        at random in it (up to a constant).

        A seat playing by its cards is taken to hold a hand that wins often enough to be
        worth the chips it put in (the basic rule's reasoning); a random seat's bets say
        nothing. Drawing the random seats from the opponent model and weighting by this
        is importance sampling of both the hands and the kinds of players.
        """
        me = obs.seat
        contenders = [s for s in obs.in_round if not obs.folded[s]]
        others = len(contenders) - 1
        weight = 1.0
        for seat in contenders:
            bet = obs.bets[seat]
            if seat == me or bet <= 0 or wild[seat]:
                continue
            strength = pct[seat] ** others
            need = min(0.9, LIKELY_SCALE * _bet_threshold(bet, dead))
            if strength < need:
                weight *= (strength / need) ** LIKELY_POWER
        return weight

    # -------------------------------------------------------------- the Rummoli phase

    def _play(self, obs: Observation, legal: list[int]) -> Decision:
        me = _seat(obs)
        choices = claim_first(legal)
        if len(choices) == 1:
            claim = choices[0] >= act.CLAIM_BASE
            return Decision(choices[0], "claim the space" if claim else "the only card")
        table = self._table(obs)
        know = infer(obs)
        laid = obs.laid
        p1s, p1c = laid[-1] if laid else (-1, -1)
        p2s, p2c = laid[-2] if len(laid) > 1 else (-1, -1)
        cards = [act.lay_card(a) for a in choices]
        totals = [0.0] * len(choices)
        count = self.samples["play"]
        start = obs.chips[me]
        laid_by: list[int] | None = None
        if table.same_player:
            laid_by = [0] * len(obs.names)
            for seat, card in laid:
                laid_by[seat] |= 1 << card
        for _ in range(count):
            hands, widow = know.sample(self._rng)
            owner = make_owner(hands, widow)
            for i, card in enumerate(cards):
                chips = list(obs.chips)
                board = list(obs.board)
                mine = laid_by[:] if laid_by is not None else None
                table.run(hands[:], owner[:], chips, board, me, card, p1s, p1c, p2s, p2c, mine)
                totals[i] += chips[me] - start
        return _best(obs, choices, [t / count for t in totals])

    # -------------------------------------------------------------- for tests and tools

    def knowledge(self, obs: Observation) -> Knowledge:
        """What this bot infers from ``obs`` (the same inference its decisions use)."""
        return infer(obs)


def _seat(obs: Observation) -> int:
    if obs.seat is None:
        raise ValueError("a spectator's observation cannot decide")
    return obs.seat


def _bet_threshold(bet: int, dead: int) -> float:
    """The win chance a basic-minded player needs to put ``bet`` chips into a pot that
    held ``dead`` chips before the betting: the share of the pot he pays for."""
    return min(0.75, max(0.25, bet / (dead + bet + 1)))


def _play_round(
    table: Table, hands: list[int], widow: int, chips: list[int], board: list[int], me: int
) -> int:
    """Play a whole round from the widow's end (the cards held win their spaces, the poker
    stage, the runs); returns ``me``'s chips at its end."""
    table.claim_held(hands, chips, board)
    keys, pct = table.strengths(hands)
    leader = table.poker_phase(hands, chips, board, keys, pct)
    table.start_play(hands, make_owner(hands, widow), chips, board, leader)
    return chips[me]


def _bet_candidates(obs: Observation, legal: list[int]) -> list[int]:
    """Fold/check/call, and a few raise sizes: minimum, half the pot, the pot, all-in."""
    base = obs.codec.raise_base
    plain = [a for a in legal if a < base]
    raises = [a - base for a in legal if a >= base]
    if not raises:
        return plain
    low, high = raises[0], raises[-1]
    pot = obs.board[0] + obs.high_bet - obs.bets[_seat(obs)]
    sizes = {low, high, obs.high_bet + pot // 2, obs.high_bet + pot}
    return plain + [base + t for t in sorted(sizes) if low <= t <= high]


def _best(obs: Observation, candidates: list[int], means: list[float]) -> Decision:
    """The candidate with the highest mean value, and a reason naming the runner-up."""
    order = sorted(range(len(candidates)), key=lambda i: (-means[i], i))
    best = order[0]
    reason = f"{_action_text(obs, candidates[best])}: {means[best]:+.1f} chips over the round"
    if len(order) > 1:
        second = order[1]
        reason += f" ({_action_text(obs, candidates[second])}: {means[second]:+.1f})"
    return Decision(candidates[best], reason)


def _action_text(obs: Observation, action: int) -> str:
    if act.is_lay(action):
        text = card_str(act.lay_card(action))
        return text + " claim" if action >= act.CLAIM_BASE else text
    return obs.codec.to_text(action)
