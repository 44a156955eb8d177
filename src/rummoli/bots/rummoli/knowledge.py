"""What one seat can know about the cards it cannot see, and deals consistent with it.

Read from the seat's :class:`~rummoli.games.rummoli.view.Observation` only. Besides the
obvious (its own hand, the laid cards, the card counts of every hand and of the widow,
the widow it gave away, the best five cards shown at a showdown), the order of the laid
cards says a lot, because every rule of the Rummoli phase is forced:

- **A stop below a card that was not laid puts that card in the widow.** A run stops
  after card ``c`` (not an ace) only when ``c+1`` is in the widow or already laid; if
  ``c+1`` has not been laid by now, it is in the widow (hands never lay it later: the
  run would have gone on).
- **The duty to lead passes over players who hold none of the colour.** After a stop,
  the player who laid the stop card leads the opposite colour, or the first player
  clockwise who holds it: every player it passed over held no card of that colour then,
  and hands only shrink during the Rummoli phase, so they hold none now.
- **A lead is the lowest card allowed.** The first lead is the leader's lowest card
  (``lowest_in_hand``) or the lowest of its suit (``lowest_of_any_suit``); a lead after a
  stop is the lowest of the colour (``lowest_of_colour``) or of its suit
  (``any_suit_of_colour``). So the leader held no lower card of that kind.
- **A deadlock that goes on** (``deadlock: any_colour``, shown by a lead of the same
  colour as the stop) means nobody held the opposite colour.
- **The best five shown at a showdown** are the player's best: any card that would make
  a better five with them (a higher kicker, a pair, a card completing a straight or a
  flush) is not in his hand.
- **Pay cards and the widow** (``pay_card_blocks_exchange``): a player who took the
  widow could not have held a pay card, so the widow, which is his old hand, holds none;
  the same goes for the high bidder while the auction runs.

Each of these is a *hard* fact, true of the real deal, so :meth:`Knowledge.sample` only
draws deals that keep all of them; the tests check both that the real deal keeps them
and that every sampled deal does.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummoli.cards import BLACK_MASK, FULL_DECK, NUM_RANKS, RED_MASK
from rummoli.engine.rng import SeededRandom
from rummoli.games.rummoli.board import holds_pay_card, pay_card_mask
from rummoli.games.rummoli.view import Observation
from rummoli.poker import hand_key

#: The place index of the widow is the last one; this names it for readers.
WIDOW = -1

#: Random greedy attempts before the exact (matching) fallback of :meth:`Knowledge.sample`.
GREEDY_TRIES = 40

_ACE = NUM_RANKS - 1
#: ``_BELOW_RANK[r]``: the cards of every suit whose rank is below ``r``.
_BELOW_RANK = tuple(sum(((1 << r) - 1) << (13 * s) for s in range(4)) for r in range(NUM_RANKS + 1))


def _colour_of(card: int) -> int:
    return BLACK_MASK if (card < 13 or card >= 39) else RED_MASK


def _opposite(card: int) -> int:
    return RED_MASK if (card < 13 or card >= 39) else BLACK_MASK


def _better_than_shown(five: int, candidates: int) -> int:
    """The cards among ``candidates`` that would have beaten the best five shown.

    The engine shows a player's best five; had he held one more card that makes a better
    five with them (a higher kicker, a pair, the card a straight or flush needed), the
    shown five would not have been his best. Hands only shrink after the showdown, so he
    does not hold it now either.
    """
    key = hand_key(five)
    out = 0
    rest = candidates
    while rest:
        low = rest & -rest
        rest ^= low
        if hand_key(five | low) > key:
            out |= low
    return out


def _below_in_suit(card: int) -> int:
    rank = card % NUM_RANKS
    return ((1 << rank) - 1) << (card - rank)


@dataclass(slots=True)
class Knowledge:
    """One seat's knowledge of the hidden cards, ready for sampling deals.

    ``places`` are the other seats dealt in this round, then :data:`WIDOW`; the lists
    ``known``, ``need``, ``excluded`` and ``no_pay`` are indexed like ``places``.
    """

    seat: int
    num_seats: int
    hand: int
    places: tuple[int, ...]
    #: Cards known to be in each place (shown at a showdown, inferred or known widow).
    known: list[int]
    #: How many unknown cards each place holds.
    need: list[int]
    #: Cards that cannot be in each place (voids, lead rules, pay-card rules).
    excluded: list[int]
    #: Places whose whole content holds no pay card (combinations checked when sampling).
    no_pay: list[bool]
    #: The cards whose place is unknown.
    unknown: int
    #: Cards the stops put in the widow (for reports and tests).
    widow_from_stops: int
    single_pay: int
    #: Unknown cards some place excludes, each with the places allowed, fewest first.
    constrained: list[tuple[int, list[int]]]
    #: Unknown cards every place allows.
    free: list[int]

    def place_of(self, seat: int) -> int:
        """The index in ``places`` of a seat, or of the widow for :data:`WIDOW`."""
        return self.places.index(seat)

    def consistent(self, hands: list[int], widow: int) -> bool:
        """Whether a deal keeps every fact known (the real one always does)."""
        for index, place in enumerate(self.places):
            mask = widow if place == WIDOW else hands[place]
            count = self.known[index].bit_count() + self.need[index]
            if mask.bit_count() != count or mask & self.known[index] != self.known[index]:
                return False
            if mask & self.excluded[index]:
                return False
            if self.no_pay[index] and holds_pay_card(mask, self.single_pay):
                return False
        return hands[self.seat] == self.hand

    def sample(self, rng: SeededRandom) -> tuple[list[int], int]:
        """A deal of the unknown cards that keeps every known fact: ``(hands, widow)``.

        Cards some place excludes are placed first, the most constrained first, each in
        an allowed place with probability proportional to its free room; the rest are
        shuffled into the room left. A dead end starts again; after
        :data:`GREEDY_TRIES` dead ends an exact matching places every card (the facts
        are true of the real deal, so a placement always exists).
        """
        places = len(self.places)
        below = rng.below
        for _ in range(GREEDY_TRIES):
            masks = self.known[:]
            room = self.need[:]
            stuck = False
            for card, allowed in self.constrained:
                total = 0
                for p in allowed:
                    total += room[p]
                if not total:
                    stuck = True
                    break
                pick = below(total)
                for p in allowed:
                    if pick < room[p]:
                        break
                    pick -= room[p]
                masks[p] |= 1 << card
                room[p] -= 1
            if stuck:
                continue
            # The free cards fill the room left: a partial Fisher-Yates shuffle gives each
            # place but the last a uniformly random share; the last takes the rest.
            free = self.free[:]
            left = len(free)
            i = 0
            for p in range(places - 1):
                mask = masks[p]
                for _ in range(room[p]):
                    j = i + below(left - i)
                    card = free[j]
                    free[j] = free[i]
                    free[i] = card
                    mask |= 1 << card
                    i += 1
                masks[p] = mask
            mask = masks[places - 1]
            for card in free[i:]:
                mask |= 1 << card
            masks[places - 1] = mask
            if any(
                self.no_pay[p] and holds_pay_card(masks[p], self.single_pay) for p in range(places)
            ):
                continue
            return self._deal(masks)
        return self._deal(self._matching(rng))

    def _deal(self, masks: list[int]) -> tuple[list[int], int]:
        hands = [0] * self.num_seats
        hands[self.seat] = self.hand
        for place, mask in zip(self.places[:-1], masks, strict=False):
            hands[place] = mask
        return hands, masks[-1]

    def _matching(self, rng: SeededRandom) -> list[int]:
        """An exact placement by augmenting paths (Kuhn's algorithm with room per place).

        Used only when the greedy draws keep running into dead ends; its deals are less
        evenly spread, which matters little for so rare a case.
        """
        places = len(self.places)
        cards = [c for c, _ in self.constrained] + self.free
        allowed = {c: a[:] for c, a in self.constrained}
        every = list(range(places))
        for card in self.free:
            allowed[card] = every[:]
        rng.shuffle(cards)
        for options in allowed.values():
            rng.shuffle(options)
        holding: list[list[int]] = [[] for _ in range(places)]

        def place(card: int, seen: set[int]) -> bool:
            for p in allowed[card]:
                if p in seen:
                    continue
                seen.add(p)
                if len(holding[p]) < self.need[p]:
                    holding[p].append(card)
                    return True
                for i, other in enumerate(holding[p]):
                    if place(other, seen):
                        holding[p][i] = card
                        return True
            return False

        for card in cards:
            if not place(card, set()):
                raise ValueError("no deal fits what this seat knows (an inference bug)")
        masks = self.known[:]
        for p, held in enumerate(holding):
            for card in held:
                masks[p] |= 1 << card
        return masks


def infer(obs: Observation) -> Knowledge:
    """Everything ``obs.seat`` can infer about the cards it cannot see (module docstring)."""
    me = obs.seat
    if me is None:
        raise ValueError("a spectator has no hand to reason from")
    rules = obs.rules
    in_round = obs.in_round
    places = tuple([s for s in in_round if s != me] + [WIDOW])
    index = {p: i for i, p in enumerate(places)}
    widow_i = len(places) - 1
    counts = [obs.card_counts[s] for s in places[:-1]] + [obs.widow_count]
    known = [0] * len(places)
    excluded = [0] * len(places)
    no_pay = [False] * len(places)
    single_pay = pay_card_mask(rules.ace_of_spades)
    laid_mask = obs.laid_mask

    if obs.widow_taker == me:
        known[widow_i] = obs.known_widow
    elif obs.widow_taker >= 0 and rules.pay_card_blocks_exchange:
        excluded[widow_i] |= single_pay
        no_pay[widow_i] = True
    bidder = obs.auction_high_bidder
    if obs.phase == "auction" and bidder >= 0 and bidder != me and rules.pay_card_blocks_exchange:
        excluded[index[bidder]] |= single_pay
        no_pay[index[bidder]] = True
    hidden = FULL_DECK & ~(obs.hand | laid_mask | obs.known_widow)
    for _, five in obs.shown:
        hidden &= ~five
    for seat, five in obs.shown:
        if seat != me and seat in index:
            known[index[seat]] |= five & ~laid_mask
            excluded[index[seat]] |= _better_than_shown(five, hidden)

    nxt = {s: in_round[(i + 1) % len(in_round)] for i, s in enumerate(in_round)}

    def exclude(seat: int, cards: int) -> None:
        if seat in index:
            excluded[index[seat]] |= cards

    def passed_over(stopper: int, leader: int, colour: int) -> None:
        seat = stopper
        for _ in range(len(in_round)):
            if seat == leader:
                return
            exclude(seat, colour)
            seat = nxt[seat]

    widow_from_stops = 0
    laid = obs.laid
    switch_any = rules.switch_lead == "any_suit_of_colour"
    for j, (leader, card) in enumerate(laid):
        if j == 0:
            if rules.lead == "lowest_in_hand":
                exclude(leader, _BELOW_RANK[card % NUM_RANKS])
            else:
                exclude(leader, _below_in_suit(card))
            continue
        stopper, stop = laid[j - 1]
        if stop % NUM_RANKS != _ACE and card == stop + 1:
            continue  # the run goes on
        if stop % NUM_RANKS != _ACE and not laid_mask >> (stop + 1) & 1:
            widow_from_stops |= 1 << (stop + 1)
        colour = _opposite(stop)
        if _colour_of(card) == colour:
            passed_over(stopper, leader, colour)
            below = _below_in_suit(card) if switch_any else _BELOW_RANK[card % NUM_RANKS] & colour
            exclude(leader, below)
        else:  # deadlock: any_colour, nobody held the colour; the stopper led his lowest
            for seat in in_round:
                exclude(seat, colour)
            exclude(leader, _BELOW_RANK[card % NUM_RANKS])

    # A stop at the last card laid, whose lead is this seat's decision now.
    if laid and obs.phase == "play" and obs.to_move == me:
        stopper, stop = laid[-1]
        pending_run = stop % NUM_RANKS != _ACE and obs.hand >> (stop + 1) & 1
        if not pending_run:
            if stop % NUM_RANKS != _ACE and not laid_mask >> (stop + 1) & 1:
                widow_from_stops |= 1 << (stop + 1)
            colour = _opposite(stop)
            if obs.hand & colour:
                passed_over(stopper, me, colour)
            else:  # this seat leads any colour: a deadlock that goes on
                for seat in in_round:
                    exclude(seat, colour)

    known[widow_i] |= widow_from_stops
    seen = obs.hand | laid_mask
    for mask in known:
        seen |= mask
    unknown = FULL_DECK & ~seen
    need = [count - mask.bit_count() for count, mask in zip(counts, known, strict=True)]
    if sum(need) != unknown.bit_count() or min(need) < 0:
        raise ValueError(
            f"the observation's card counts do not add up ({need} for "
            f"{unknown.bit_count()} unknown cards)"
        )
    constrained: list[tuple[int, list[int]]] = []
    free: list[int] = []
    rest = unknown
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        allowed = [p for p in range(len(places)) if not excluded[p] >> card & 1 and need[p]]
        if len(allowed) == sum(1 for n in need if n):
            free.append(card)
        else:
            constrained.append((card, allowed))
    constrained.sort(key=lambda item: len(item[1]))
    return Knowledge(
        me,
        len(obs.names),
        obs.hand,
        places,
        known,
        need,
        excluded,
        no_pay,
        unknown,
        widow_from_stops,
        single_pay,
        constrained,
        free,
    )
