"""What one seat can know about the cards it cannot see, and deals consistent with it.

Read from the seat's :class:`~rummoli.games.stops.view.Observation` only. Besides the
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

from collections.abc import Callable
from dataclasses import dataclass

from rummoli.bots.stops.board import tables_of
from rummoli.cards import NUM_RANKS
from rummoli.engine.rng import SeededRandom
from rummoli.games.stops import layout as lay
from rummoli.games.stops.tables import BoardTables, holds_pay_card
from rummoli.games.stops.view import Observation
from rummoli.poker import hand_key

#: The place index of the widow is the last one; this names it for readers.
WIDOW = -1

#: Random greedy attempts before the exact (matching) fallback of :meth:`Knowledge.sample`.
GREEDY_TRIES = 40

_ACE = NUM_RANKS - 1
#: ``_BELOW_RANK[r]``: the cards of every suit whose rank is below ``r``.
_BELOW_RANK = tuple(sum(((1 << r) - 1) << (13 * s) for s in range(4)) for r in range(NUM_RANKS + 1))


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
    #: The masks of the pay spaces of several cards held together.
    pay_combos: tuple[int, ...]
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
            if self.no_pay[index] and holds_pay_card(mask, self.single_pay, self.pay_combos):
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
                self.no_pay[p] and holds_pay_card(masks[p], self.single_pay, self.pay_combos)
                for p in range(places)
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
    plan = obs.plan
    tables = tables_of(plan, obs.trump)
    in_round = obs.in_round
    places = tuple([s for s in in_round if s != me] + [WIDOW])
    index = {p: i for i, p in enumerate(places)}
    widow_i = len(places) - 1
    counts = [obs.card_counts[s] for s in places[:-1]] + [obs.widow_count]
    known = [0] * len(places)
    excluded = [0] * len(places)
    no_pay = [False] * len(places)
    single_pay = tables.pay_cards
    laid_mask = obs.laid_mask
    blocks = plan.pay_card_blocks_exchange

    if obs.widow_taker == me:
        known[widow_i] = obs.known_widow
    elif obs.widow_taker >= 0 and blocks:
        excluded[widow_i] |= single_pay
        no_pay[widow_i] = True
    bidder = obs.auction_high_bidder
    if obs.phase == "auction" and bidder >= 0 and bidder != me and blocks:
        excluded[index[bidder]] |= single_pay
        no_pay[index[bidder]] = True
    turned = 1 << obs.turned if obs.turned >= 0 else 0
    hidden = tables.deck & ~(obs.hand | laid_mask | obs.known_widow | turned)
    for _, five in obs.shown:
        hidden &= ~five
    for seat, five in obs.shown:
        if seat != me and seat in index:
            known[index[seat]] |= five & ~laid_mask
            if plan.hands == lay.FIVE_CARDS:
                excluded[index[seat]] |= _better_than_shown(five, hidden)
    for seat, _, _, cards in obs.claims:
        if seat != me and seat in index:
            known[index[seat]] |= cards & ~laid_mask

    nxt = {s: in_round[(i + 1) % len(in_round)] for i, s in enumerate(in_round)}

    def exclude(seat: int, cards: int) -> None:
        if seat in index:
            excluded[index[seat]] |= cards

    if plan.play == lay.RANK:
        _rank_facts(obs, nxt, exclude)
        widow_from_stops = 0
    else:
        widow_from_stops = _suit_facts(obs, tables, nxt, exclude)
    known[widow_i] |= widow_from_stops
    seen = obs.hand | laid_mask | turned
    for mask in known:
        seen |= mask
    unknown = tables.deck & ~seen
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
        tables.pay_combos,
        constrained,
        free,
    )


def _below_rank(card: int, ace_low: bool) -> int:
    """The cards of every suit ranking below ``card`` (aces low: an ace has none)."""
    rank = card % NUM_RANKS
    if not ace_low:
        return _BELOW_RANK[rank]
    if rank == _ACE:
        return 0
    return _BELOW_RANK[rank] | _ACES


def _below_suit(card: int, ace_low: bool) -> int:
    """The cards of ``card``'s suit ranking below it."""
    below = _below_in_suit(card)
    if not ace_low:
        return below
    rank = card % NUM_RANKS
    if rank == _ACE:
        return 0
    return below | 1 << (card - rank + _ACE)


def _held_none(
    nxt: dict[int, int], exclude: Callable[[int, int], None], start: int, stop: int, mask: int
) -> None:
    """``start`` and the players after him (``nxt``), up to ``stop`` (not included), held
    none of ``mask``: those a stop passed over, or those who said "sans" before a holder
    went on (once round the table at most)."""
    seat = start
    for _ in range(len(nxt)):
        if seat == stop:
            return
        exclude(seat, mask)
        seat = nxt[seat]


def _suit_facts(
    obs: Observation,
    tables: BoardTables,
    nxt: dict[int, int],
    exclude: Callable[[int, int], None],
) -> int:
    """The facts the order of the cards laid by suit tells (module docstring); returns
    the cards the stops put in the widow."""
    plan = obs.plan
    me = obs.seat
    in_round = obs.in_round
    ace_low = plan.ace_low
    #: Cards a stop below them may put in the widow: the pack's not laid, but the card
    #: turned.
    may_be_widow = tables.deck & ~obs.laid_mask & ~(1 << obs.turned if obs.turned >= 0 else 0)

    def after(card: int) -> int:
        """The next card of ``card``'s suit, or -1 after its top."""
        return -1 if tables.tops >> card & 1 else tables.next_card[card]

    def stopped_in_widow(waited_for: int) -> int:
        """The card a stop waited for (-1: none, after a suit's top) as a bit when it may
        be in the widow, else 0."""
        return 1 << waited_for if waited_for >= 0 and may_be_widow >> waited_for & 1 else 0

    widow_from_stops = 0
    laid = obs.laid
    rule = plan.switch_lead
    by_suit = rule in lay.BY_SUIT
    for j, (leader, card) in enumerate(laid):
        if j == 0:
            if plan.leader == lay.LOWEST_OF_SUIT:
                for seat in in_round:
                    exclude(seat, _below_suit(card, ace_low))
            elif plan.lead == lay.LOWEST_IN_HAND:
                exclude(leader, _below_rank(card, ace_low))
            elif plan.lead == lay.LOWEST_OF_ANY_SUIT:
                exclude(leader, _below_suit(card, ace_low))
            continue
        stopper, stop = laid[j - 1]
        following_card = after(stop)
        if following_card >= 0 and card == following_card:
            continue  # the run goes on
        widow_from_stops |= stopped_in_widow(following_card)
        allowed = tables.switch[stop]
        if allowed >> card & 1:
            _held_none(nxt, exclude, stopper, leader, allowed)
            if rule == lay.ANY_CARD:
                continue
            below = _below_suit(card, ace_low) if by_suit else _below_rank(card, ace_low) & allowed
            exclude(leader, below)
        else:  # deadlock: nobody held a card to lead; the stopper led his lowest
            for seat in in_round:
                exclude(seat, allowed)
            exclude(leader, _below_rank(card, ace_low))

    # A stop at the last card laid, whose lead is this seat's decision now.
    if laid and obs.phase == "play" and obs.to_move == me:
        stopper, stop = laid[-1]
        following_card = after(stop)
        pending_run = following_card >= 0 and obs.hand >> following_card & 1
        if not pending_run:
            widow_from_stops |= stopped_in_widow(following_card)
            allowed = tables.switch[stop]
            if obs.hand & allowed:
                assert me is not None
                _held_none(nxt, exclude, stopper, me, allowed)
            else:  # this seat leads any colour: a deadlock that goes on
                for seat in in_round:
                    exclude(seat, allowed)
    return widow_from_stops


def _rank_facts(obs: Observation, nxt: dict[int, int], exclude: Callable[[int, int], None]) -> None:
    """The facts the order of the cards laid by rank tells (Nain Jaune): a player who
    said "sans" a rank held none of it, nor did the players passed over before its holder
    went on; a rank skipped was held by nobody. Hands only shrink, so they hold none now."""
    in_round = obs.in_round
    laid = obs.laid
    new_sequence = obs.plan.missing_rank == lay.NEW_SEQUENCE

    def place(card: int) -> int:
        rank = card % NUM_RANKS
        return 0 if rank == _ACE else rank + 1

    def rank_mask(at: int) -> int:
        return _RANK_PLACE_MASK[at]

    for j in range(1, len(laid)):
        a_seat, a_card = laid[j - 1]
        b_seat, b_card = laid[j]
        pa, pb = place(a_card), place(b_card)
        if pa == NUM_RANKS - 1:
            continue  # a king: its player began again with any card
        if pb == pa + 1:
            _held_none(nxt, exclude, a_seat, b_seat, rank_mask(pb))
            continue
        if pb > pa + 1 and not new_sequence:
            for skipped in range(pa + 1, pb):
                for seat in in_round:
                    exclude(seat, rank_mask(skipped))
            _held_none(nxt, exclude, a_seat, b_seat, rank_mask(pb))
            continue
        # A new sequence by the same player: the ranks after his were held by nobody.
        last = pa + 1 if new_sequence else NUM_RANKS
        for skipped in range(pa + 1, last):
            for seat in in_round:
                exclude(seat, rank_mask(skipped))


#: The cards of each place of a sequence by rank, aces low, as a mask.
_RANK_PLACE_MASK = tuple(
    sum(1 << (suit * NUM_RANKS + (_ACE if at == 0 else at - 1)) for suit in range(4))
    for at in range(NUM_RANKS)
)
_ACES = sum(1 << (suit * NUM_RANKS + _ACE) for suit in range(4))
