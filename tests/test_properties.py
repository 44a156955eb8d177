"""Property tests: whole Rummoli games with random house rules and random legal actions.

Every example plays a complete game (2-8 seats, every house rule and its values, small
chip stacks so that players go out) and checks after every ``apply``:

- chips are conserved and never negative; the 52 cards are in exactly one place each,
  and ``owner`` agrees with the hands, the widow and the laid cards;
- ``legal_actions()`` is sorted, distinct, non-empty and inside ``num_distinct_actions()``
  until the game is over, and empty afterwards;
- the JSON of the events a seat may see never names a card that seat cannot see;
- at random moments, **the view test**: every card a seat cannot see is swapped among
  the places it cannot see, and its view must not change;
- the rules, as far as the events and decisions show them: the deal, the widow and the
  auction, who opens the betting and the size of bets and raises, the poker pots and
  side pots (recomputed here), who leads and which cards may be led, runs, stops, the
  duty passing, deadlocks, pay spaces and claims, the payments at the end of a round,
  and the rotation of the deal;
- the game ends within a bound of steps, with an empty board, and its record replays to
  the same state, and its actions to the same events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from conftest import (
    check_card_places,
    check_seats_events,
    choose_action,
    claimed_mask,
    hidden_mask,
    laid_mask,
    new_state,
    permute_unseen,
    players,
    shown_mask,
)
from rummoli.cards import (
    ACE,
    NUM_RANKS,
    card_str,
    cards_of,
    colour_mask,
    is_red,
    parse_card,
    rank_of,
)
from rummoli.engine.base import CHANCE, TERMINAL, Event
from rummoli.games.rummoli import Rules, RummoliState, replay
from rummoli.games.rummoli.board import rummoli_holds_pay_card, space_names
from rummoli.games.rummoli.rules import AUCTION as AUCTION_CHOICES
from rummoli.games.rummoli.rules import (
    BET_LIMITS,
    DEADLOCK,
    HEADS_UP_RAISES,
    HIGH_CARD_TIE,
    LEAD,
    POKER,
    SETTLEMENT,
    SHORT_ANTE,
    SWITCH_LEAD,
)
from rummoli.games.rummoli.rules import WIDOW as WIDOW_CHOICES
from rummoli.games.stops.actions import (
    BID_BASE,
    CALL,
    CHECK,
    CLAIM_BASE,
    EXCHANGE,
    FOLD,
    KEEP,
    NO_AUCTION,
    PASS,
    is_lay,
    lay_card,
)
from rummoli.games.stops.state import AUCTION, BETTING, PLAY, SETTLE, WIDOW
from rummoli.games.stops.view import PRIVATE_EVENTS, events_for
from rummoli.poker import hand_key

# Events whose cards come from a fresh deck of their own (the cut for the first dealer,
# the settlement deals and cuts), not from the cards of a round: they reveal nothing.
FRESH_DECK_EVENTS = {"cut", "settle_cut", "settle_dealt", "settle_hand"}
# Kinds of events whose presence is counted (``--hypothesis-show-statistics``).
INTERESTING = {"out", "exchange", "bought", "show", "unclaimed", "duty_passes", "deadlock"}
INTERESTING |= {"deadlock_continue", "round_won", "settled", "raise", "fold", "settle_dealt"}


def rules_strategy(rounds: st.SearchStrategy[int] | None = None) -> st.SearchStrategy[Rules]:
    """Every house rule with every value; chips small enough that players go out."""
    return st.builds(
        Rules,
        starting_chips=st.one_of(st.integers(5, 40), st.just(100)),
        ace_of_spades=st.booleans(),
        short_ante=st.sampled_from(SHORT_ANTE),
        widow=st.sampled_from(WIDOW_CHOICES),
        pay_card_blocks_exchange=st.booleans(),
        poker=st.sampled_from(POKER),
        bet_limit=st.one_of(st.sampled_from(BET_LIMITS), st.integers(1, 12)),
        lead=st.sampled_from(LEAD),
        switch_lead=st.sampled_from(SWITCH_LEAD),
        cant_lead_fine=st.integers(0, 4),
        deadlock=st.sampled_from(DEADLOCK),
        must_claim=st.booleans(),
        rounds=rounds if rounds is not None else st.integers(0, 3),
        settlement=st.sampled_from(SETTLEMENT),
        heads_up_raises=st.sampled_from(HEADS_UP_RAISES),
        auction=st.sampled_from(AUCTION_CHOICES),
        auction_optional=st.booleans(),
        settlement_betting=st.booleans(),
        high_card_tie=st.sampled_from(HIGH_CARD_TIE),
    )


@dataclass
class Game:
    n: int
    rules: Rules
    seed: int
    policy_seed: int
    chips: list[int] | None
    dealer: int | None
    board: dict[str, int] | None
    end_at: int | None  # request_end() before this step (always set when rounds == 0)

    def state(self) -> RummoliState:
        return new_state(
            self.n, self.rules, self.seed, chips=self.chips, dealer=self.dealer, board=self.board
        )


@st.composite
def games(draw: st.DrawFn) -> Game:
    n = draw(st.integers(2, 8))
    rules = draw(rules_strategy())
    chips = dealer = board = None
    if draw(st.integers(0, 3)) == 0:  # a quarter of the games start from a set-up table
        chips = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
        spaces = space_names(rules.ace_of_spades)
        # A named dealer must play the first round (one who cannot pay is an error).
        need = len(spaces) if rules.short_ante == "out" else 1
        payers = [seat for seat in range(n) if chips[seat] >= need]
        dealer = draw(st.none() | st.sampled_from(payers)) if payers else None
        board = draw(st.dictionaries(st.sampled_from(spaces), st.integers(0, 15), max_size=3))
    if rules.rounds == 0:
        end_at = draw(st.integers(0, 250))
    else:
        end_at = draw(st.none() | st.integers(0, 250))
    seed = draw(st.integers(0, 2**63))
    policy_seed = draw(st.integers(0, 2**32))
    return Game(n, rules, seed, policy_seed, chips, dealer, board, end_at)


def step_bound(state: RummoliState, game: Game) -> int:
    """An upper bound of the decisions of a whole game.

    A round has one chance step, one widow decision, an auction whose every bid raises
    the high bid (at most all chips, plus one pass each; an open auction: one pass each
    after every bid), a betting round whose every full raise puts in a chip (each seat
    acts at most once between raises), and at most 52 lays.
    """
    total = state.total_chips()
    n = game.n
    passes = n * (total + 1) if game.rules.auction == "open" else n
    per_round = 2 + (total + passes) + n * (total + 3) + 52
    # The settlement played with betting: a betting round for each space, at most.
    settle = 9 * n * (total + 3) if game.rules.settlement_betting else 0
    if game.rules.rounds:
        return (game.rules.rounds + 1) * per_round + settle + 1
    assert game.end_at is not None
    return game.end_at + 2 * per_round + settle + 1


# --------------------------------------------------------------------------- checks


def check_decision_point(state: RummoliState) -> None:
    legal = state.legal_actions()
    size = state.num_distinct_actions()
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL
        assert legal == []
        return
    assert legal, "no legal action before the end of the game"
    assert legal == sorted(set(legal)), f"legal actions not sorted/distinct: {legal}"
    assert legal[0] >= 0 and legal[-1] < size
    if player == CHANCE:
        assert legal == [0]
        return
    assert 0 <= player < len(state.names)
    assert len(legal) >= 2, "a forced action was asked as a decision"
    # At the settlement everybody plays when nobody is still in (settlement_betting).
    all_out = all(state.out)
    assert not state.out[player] or (state.phase == SETTLE and all_out), "an out player decides"
    assert player in state.in_round
    for action in legal:
        assert state.action_from_text(state.action_to_text(action)) == action
    if state.phase in (WIDOW, AUCTION):
        assert state.rules.widow != "none"
        assert state.phase == WIDOW or state.rules.widow == "exchange_or_auction"
    if state.phase == WIDOW:
        rules = state.rules
        optional = rules.auction_optional and rules.widow == "exchange_or_auction"
        may_exchange = not (
            rules.pay_card_blocks_exchange
            and rummoli_holds_pay_card(state.hands[player], rules.ace_of_spades)
        )
        expected = [KEEP] + [EXCHANGE] * may_exchange + [NO_AUCTION] * optional
        assert player == state.dealer and legal == expected
    if state.phase in (BETTING, SETTLE):
        check_betting_options(state)
        betting = state.betting
        assert betting is not None
        if not any(betting.acted) and betting.high == 0:  # the first to bet this round
            with_chips = [s for s in state.in_round if state.chips[s] > 0]
            assert player == with_chips[0], "the player left of the dealer does not open"
    elif state.phase == AUCTION:
        check_auction_options(state)
    elif state.phase == PLAY:
        for action in legal:
            assert is_lay(action)
            assert state.hands[player] >> lay_card(action) & 1, "a lay of a card not held"


def card_texts(event_json: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key in ("card", "cards"):
        value = event_json.get(key)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(str(v) for v in value)
    return out


def check_events_hide_cards(state: RummoliState, events: list[Event]) -> None:
    """No seat (nor a spectator) is sent a card it cannot see at the moment of the event.

    What a seat cannot see just after each event is rebuilt backwards from the state
    after the apply: going back over a card laid, or a hand shown, by another player
    puts those cards back into his hidden hand (a shown card stays visible while laid).
    Cards shown to claim a space held at the deal (Tripoley's) are public from then on,
    even once the round that showed them is over.
    """
    names = state.names
    private = tuple(PRIVATE_EVENTS)
    visible = [e for e in events if e[0] not in private]
    claimed = claimed_mask(state)
    for e in events:
        if e[0] == "claim":
            claimed |= e[4]
    for seat in [*range(len(names)), None]:
        mine = [e for e in events if e[0] not in private or e[1] == seat]
        sent = events_for(events, seat, names)
        assert len(sent) == len(mine) and len(mine) >= len(visible)
        hidden = hidden_mask(state, seat) & ~claimed
        shown = shown_mask(state) | claimed
        for raw, data in zip(reversed(mine), reversed(sent), strict=True):
            assert data["type"] == raw[0]
            json.dumps(data)
            if data["type"] == "hand":
                assert data["player"] == names[seat]  # type: ignore[index]
            if data["type"] not in FRESH_DECK_EVENTS:
                for text in card_texts(data):
                    card = parse_card(text)
                    assert not hidden >> card & 1, f"seat {seat} is sent hidden card in {data}"
            # Undo the event: what was hidden just before it.
            if raw[0] == "show":
                shown &= ~raw[2]
                if raw[1] != seat:
                    hidden |= raw[2]
            elif raw[0] == "lay" and raw[1] != seat and not shown >> raw[2] & 1:
                hidden |= 1 << raw[2]
            hidden &= ~claimed


def check_view_hidden(state: RummoliState, rng: random.Random) -> None:
    """THE VIEW TEST: a seat's view is blind to every card it may not see."""
    seat = rng.randrange(len(state.names))
    for who in (seat, None):
        other = permute_unseen(state, who, rng)
        check_card_places(other)
        assert other.view(who) == state.view(who), f"the view of {who} shows hidden cards"
        assert other.observation(who) == state.observation(who), f"{who}'s observation leaks"


class PlayChecker:
    """Follows a game's events across applies and checks the Rummoli phase against the
    rules: who leads and what, runs, stops, the duty passing, deadlocks, pay spaces,
    the end of the round.

    Each hand is reconstructed at the moment of each event: the hand after the apply,
    plus the cards that player lays later in the same apply (an apply never deals, lays
    and deals again, and no card moves between hands during the Rummoli phase).
    """

    def __init__(self, state: RummoliState) -> None:
        self.rules = state.rules
        self.spaces = state.spaces
        # ("lead", seat) | ("switch", stopper, red, passed) | ("any", seat) | ("run", card)
        self.expect: tuple[object, ...] | None = None

    def apply(self, state: RummoliState, events: list[Event]) -> None:
        rules = self.rules
        n = len(state.names)
        pending = [0] * n  # cards each seat lays at or after the current event
        lays = [e for e in events if e[0] == "lay"]
        for _, seat, card in lays:
            pending[seat] |= 1 << card
        laid_index = len(state.laid) - len(lays)

        def hand(seat: int) -> int:
            return state.hands[seat] | pending[seat]

        last_player = -1
        for position, item in enumerate(events):
            kind = item[0]
            if kind in ("widow_dealt", "round_over"):
                self.expect = None
            elif kind == "leads":
                self.expect = ("lead", item[1])
            elif kind == "lay":
                _, player, card = item
                assert state.laid[laid_index] == (player, card)
                assert hand(player) >> card & 1, "a card laid by a player who does not hold it"
                self._check_lay(state, player, card, hand)
                self._check_space(state, player, card, laid_index, events[position + 1 :])
                pending[player] &= ~(1 << card)
                laid_index += 1
                last_player = player
                self.expect = ("run", card)
            elif kind == "stop":
                card = item[1]
                assert self.expect == ("run", card), "stop after another card than the last"
                if rank_of(card) != ACE:
                    for seat in range(n):
                        assert not hand(seat) >> (card + 1) & 1, "stopped: next card is held"
                self.expect = ("switch", last_player, not is_red(card), [])
            elif kind == "duty_passes":
                _, player, fine = item
                assert self.expect is not None and self.expect[0] == "switch"
                red = bool(self.expect[2])
                assert not hand(player) & colour_mask(red), "duty passed by a holder"
                assert 0 <= fine <= rules.cant_lead_fine
                self.expect[3].append(player)  # type: ignore[attr-defined]
            elif kind in ("deadlock", "deadlock_continue"):
                assert self.expect is not None and self.expect[0] == "switch"
                assert rules.deadlock == ("end_round" if kind == "deadlock" else "any_colour")
                colour = colour_mask(bool(self.expect[2]))
                for seat in state.in_round:
                    assert not hand(seat) & colour, "deadlock though a player holds the colour"
                assert self.expect[3] == [], "fines paid in a deadlock"
                if kind == "deadlock_continue":
                    assert item[1] == self.expect[1]
                    self.expect = ("any", item[1])
            elif kind in ("deadlock_pays", "pays"):
                player, paid = item[1], item[-1]
                cards = hand(player).bit_count()
                assert paid == cards or (paid < cards and state.chips[player] == 0)
            elif kind == "round_won":
                assert hand(item[1]) == 0, "the round is won by a player holding cards"
                assert state.board[-1] == 0

    def _check_lay(
        self, state: RummoliState, player: int, card: int, hand: Callable[[int], int]
    ) -> None:
        rules = self.rules
        expect = self.expect
        assert expect is not None, "a card laid outside the Rummoli phase"
        mine = hand(player)
        if expect[0] == "run":
            last = int(expect[1])  # type: ignore[call-overload]
            assert rank_of(last) != ACE and card == last + 1, "the run broke off"
            return
        if expect[0] == "switch":
            _, stopper, red, passed = expect
            assert is_red(card) == red, "the lead after a stop is not of the other colour"
            order = state.in_round
            start = order.index(stopper)  # type: ignore[arg-type]
            rotated = order[start:] + order[:start]
            holders = [s for s in rotated if hand(s) & colour_mask(bool(red))]
            assert holders and player == holders[0], "the wrong player leads after a stop"
            assert passed == rotated[: rotated.index(player)], "the duty passed wrongly"
            pool = mine & colour_mask(bool(red))
            by_suit = rules.switch_lead == "any_suit_of_colour"
        elif expect[0] == "lead":
            assert player == expect[1], "the poker winner does not lead"
            pool = mine
            by_suit = rules.lead == "lowest_of_any_suit"
        else:
            assert player == expect[1]
            pool = mine
            by_suit = False
        if by_suit:
            suit = card // NUM_RANKS
            assert all(rank_of(c) >= rank_of(card) for c in cards_of(pool) if c // 13 == suit)
        else:
            assert all(rank_of(c) >= rank_of(card) for c in cards_of(pool)), "not the lowest"

    def _space_won(self, state: RummoliState, player: int, card: int, index: int) -> str | None:
        """The space that ``player`` wins by laying ``card`` as lay number ``index``."""
        laid = state.laid
        text = card_str(card)
        single = {"TS": "10S", "JD": "JD", "QC": "QC", "KH": "KH", "AS": "AS"}
        if text in single:
            return single[text] if single[text] in self.spaces else None
        if text == "AD" and index >= 1 and laid[index - 1] == (player, parse_card("KD")):
            return "AKD"
        if (
            rank_of(card) == rank_of(parse_card("9C"))
            and index >= 2
            and laid[index - 1] == (player, card - 1)
            and laid[index - 2] == (player, card - 2)
        ):
            return "789"
        return None

    def check_options(self, state: RummoliState) -> None:
        """At a decision of the Rummoli phase: exactly the cards the rules allow (a real
        choice of two or more), and a claim wherever a space with chips is won."""
        expect = self.expect
        player = state.current_player()
        legal = state.legal_actions()
        assert expect is not None and len(legal) >= 2
        mine = state.hands[player]
        if expect[0] == "run":
            assert self.rules.must_claim
            card = int(expect[1]) + 1  # type: ignore[call-overload]
            assert mine >> card & 1, "the run asks a player who lacks the next card"
            expected = {card}
        else:
            pool = mine
            by_suit = False
            if expect[0] == "switch":
                pool = mine & colour_mask(bool(expect[2]))
                by_suit = self.rules.switch_lead == "any_suit_of_colour"
            elif expect[0] == "lead":
                by_suit = self.rules.lead == "lowest_of_any_suit"
            assert pool, "a lead asked of a player without a card to lead"
            cards = cards_of(pool)
            if by_suit:
                expected = set()
                for suit in range(4):
                    in_suit = [c for c in cards if c // NUM_RANKS == suit]
                    if in_suit:
                        expected.add(min(in_suit))
            else:
                low = min(rank_of(c) for c in cards)
                expected = {c for c in cards if rank_of(c) == low}
        plain = {lay_card(a) for a in legal if a < CLAIM_BASE}
        claims = {lay_card(a) for a in legal if a >= CLAIM_BASE}
        assert plain == expected, f"offered {plain}, the rules allow {expected}"
        board = state.board_dict()
        winning = set()
        if self.rules.must_claim:
            for card in expected:
                space = self._space_won(state, player, card, len(state.laid))
                if space is not None and board[space] > 0:
                    winning.add(card)
        assert claims == winning, f"claims offered for {claims}, spaces won by {winning}"

    def _check_space(
        self, state: RummoliState, player: int, card: int, index: int, after: list[Event]
    ) -> None:
        wins = self._space_won(state, player, card, index)
        text = card_str(card)
        follow = []
        for item in after:
            if item[0] == "lay":
                break
            if item[0] in ("space", "unclaimed"):
                follow.append(item)
        board = state.board_dict()
        if not follow:
            assert wins is None or board[wins] == 0, f"{text} did not win {wins}"
            return
        assert len(follow) == 1
        item = follow[0]
        assert item[1] == player and item[2] == wins, f"{text} won {item[2]}, not {wins}"
        if item[0] == "space":
            assert item[3] > 0 and board[wins] == 0
        else:
            assert self.rules.must_claim
            if wins != "789":  # another suit's 7-8-9 may still claim it in this apply
                assert board[wins] > 0, "unclaimed chips did not stay"


def check_showdown(state: RummoliState, events: list[Event]) -> None:
    shows = [e for e in events if e[0] == "show"]
    if not shows:
        return
    keys = {}
    for _, seat, five, key in shows:
        assert five.bit_count() == 5
        assert hand_key(five) == key, "the shown five do not make the hand's key"
        assert five & ~(state.hands[seat] | laid_mask(state)) == 0, "shown cards not held"
        keys[seat] = key
    if state.rules.poker == "showdown":
        assert sorted(keys) == sorted(state.in_round)
    best = max(keys.values())
    main = next(e for e in events if e[0] == "poker_pot" and e[1] == 0)
    assert set(main[3]) == {s for s, k in keys.items() if k == best}
    n = len(state.names)
    left = (state.dealer + 1) % n
    first = min(main[3], key=lambda s: (s - left) % n)
    lead = next(e for e in events if e[0] == "leads")
    assert lead[1] == first, "the leader is not the first winner clockwise"


def check_poker_pots(state: RummoliState, round_events: list[Event], events: list[Event]) -> None:
    """The poker space is shared out as poker does it, computed here from the events:
    main pot (with the chips that lay on the space before the betting) and side pots,
    each to the best shown hand among the seats that matched it; odd chips stay.

    ``round_events`` are this round's events so far (bets and folds), ``events`` those
    of this apply (shows and pots).
    """
    pots = [e for e in events if e[0] == "poker_pot"]
    if not pots:
        return
    committed: dict[int, int] = {}
    folded: set[int] = set()
    for e in round_events:
        if e[0] in ("call", "raise"):
            committed[e[1]] = e[2]
        elif e[0] == "fold":
            folded.add(e[1])
        elif e[0] == "returned":  # the uncalled part of the highest bet goes back
            committed[e[1]] -= e[2]
            assert e[2] > 0
    actual: dict[int, int] = {}
    for _, _, amount, winners, share in pots:
        assert share == amount // len(winners)
        for seat in winners:
            actual[seat] = actual.get(seat, 0) + share
    total = state.board[0] + sum(e[4] * len(e[3]) for e in pots)
    contenders = [s for s in state.in_round if s not in folded]
    expected: dict[int, int] = {}
    left_over = 0
    if len(contenders) == 1:
        expected[contenders[0]] = total
    else:
        keys = {e[1]: e[3] for e in events if e[0] == "show"}
        assert sorted(keys) == sorted(contenders), "not every seat still in was shown"
        dead = total - sum(committed.values())
        assert dead >= 0
        side: list[tuple[int, list[int]]] = []
        previous = 0
        for level in sorted({committed.get(s, 0) for s in contenders}):
            amount = sum(min(c, level) - min(c, previous) for c in committed.values())
            eligible = [s for s in contenders if committed.get(s, 0) >= level]
            if side and side[-1][1] == eligible:
                side[-1] = (side[-1][0] + amount, eligible)
            else:
                side.append((amount, eligible))
            previous = level
        extra = sum(max(0, c - previous) for c in committed.values())
        side[0] = (side[0][0] + dead, side[0][1])
        side[-1] = (side[-1][0] + extra, side[-1][1])
        for amount, eligible in side:
            best = max(keys[s] for s in eligible)
            winners = [s for s in eligible if keys[s] == best]
            for seat in winners:
                expected[seat] = expected.get(seat, 0) + amount // len(winners)
            left_over += amount % len(winners)
    actual = {s: c for s, c in actual.items() if c}
    expected = {s: c for s, c in expected.items() if c}
    assert actual == expected, f"poker pots paid {actual}, expected {expected}"
    assert state.board[0] == left_over, "the odd chips left on the poker space are wrong"


def check_auction_and_bets(state: RummoliState, round_events: list[Event]) -> None:
    """The auction and the betting of this round so far, read from its events: bids
    rise, a pass is final, the widow goes to the last bidder at his bid; bets and
    raises keep to the limit; a single player left in the pot leads."""
    rules = state.rules
    passed: set[int] = set()
    high = 0
    last_bidder = -1
    bet_high = 0
    last_raise = 0
    full_level = 0
    full_raises = 0
    contenders = set(state.in_round)
    dealt: dict[int, int] = {}
    for e in round_events:
        kind = e[0]
        if kind == "hand" and e[1] not in dealt:
            dealt[e[1]] = e[2]
        if kind == "widow_dealt":
            # One card at a time from the dealer's left, the widow last in each pass.
            receivers = len(state.in_round) + 1
            sizes = [dealt[s].bit_count() for s in state.in_round] + [e[1]]
            assert sizes == [52 // receivers + (i < 52 % receivers) for i in range(receivers)]
        elif kind == "exchange":
            assert rules.widow != "none"
            assert state.widow_taker == e[1]
            assert state.known_widow == dealt[e[1]] == state.widow, "the widow changed"
        elif kind == "blocked":
            # Only a hand that really holds a pay card is blocked, and only by the rule.
            assert rules.pay_card_blocks_exchange
            assert rummoli_holds_pay_card(dealt[e[1]], rules.ace_of_spades)
        elif kind == "pass":
            assert e[1] != state.dealer
            passed.add(e[1])
        elif kind == "bid":
            # One round: a pass is final. Open (``auction="open"``): a player who passed
            # may bid again after a higher bid; every other bidder passed at some time.
            assert e[1] not in passed or rules.auction == "open", "a player bid after passing"
            assert e[1] != state.dealer, "the dealer bid"
            assert e[2] > high, "a bid that does not raise the high bid"
            high, last_bidder = e[2], e[1]
        elif kind in ("bought", "no_bid"):
            bidders = [s for s in state.in_round if s != state.dealer]
            assert {s for s in bidders if s != last_bidder} <= passed, "auction ended early"
            if kind == "bought":
                assert rules.widow == "exchange_or_auction"
                assert (e[1], e[2], e[3]) == (last_bidder, high, state.dealer)
            else:
                assert last_bidder == -1
        elif kind == "exchange" and last_bidder >= 0:
            assert e[1] == last_bidder
        elif kind == "fold":
            contenders.discard(e[1])
        elif kind in ("call", "raise"):
            _, _, total, _, all_in = e
            if kind == "call":
                assert total == bet_high or (all_in and total < bet_high)
                continue
            raised_by = total - bet_high
            assert raised_by > 0
            if isinstance(rules.bet_limit, int):
                # Robert's Rules: a raise goes a bet over the last full bet (completing a
                # short all-in's bet); an all-in of half a bet over it counts as one.
                target = full_level + rules.bet_limit
                assert total == target or (all_in and total < target), "a fixed-limit raise"
                full = 2 * (total - full_level) >= rules.bet_limit
                assert full_raises < 4 or rules.heads_up_raises == "unlimited", "a fifth bet"
            else:
                full = raised_by >= max(last_raise, 1)
                assert full or all_in, "a raise smaller than the last raise"
            if full:
                full_raises += 1
                last_raise = raised_by
                full_level = total
            bet_high = total
        elif kind == "leads" and len(contenders) == 1:
            assert e[1] in contenders, "the only player left in the pot does not lead"


def check_public_histories(state: RummoliState, round_events: list[Event]) -> None:
    """The observation's auction and betting histories are this round's public bids,
    passes and bets, in order, as every seat and a spectator see them."""
    auction = [
        (e[1], e[2] if e[0] == "bid" else 0) for e in round_events if e[0] in ("bid", "pass")
    ]
    bets = [
        (e[1], e[0], e[2] if e[0] in ("call", "raise") else -1)
        for e in round_events
        if e[0] in ("check", "call", "raise", "fold")
    ]
    for seat in (None, *range(len(state.names))):
        obs = state.observation(seat)
        assert list(obs.auction_history) == auction, "the auction history is wrong"
        seen = [(s, a, t if a in ("call", "raise") else -1) for s, a, t in obs.bet_history]
        assert seen == bets, "the betting history is wrong"
    if state.betting is not None:
        for seat, action, total in state.bet_log:
            assert total >= 0
            assert action != "fold" or state.betting.folded[seat]


def check_betting_options(state: RummoliState) -> None:
    """Betting choices: check, or call and fold; raises above the high bet and within the
    player's chips; fixed limits offer one raise size."""
    betting = state.betting
    seat = state.current_player()
    assert betting is not None
    legal = state.legal_actions()
    owed = betting.high - betting.committed[seat]
    assert owed >= 0
    small = [a for a in legal if a < state.codec.raise_base]
    assert small == ([CHECK] if owed == 0 else [CALL, FOLD])
    totals = [a - state.codec.raise_base for a in legal if a >= state.codec.raise_base]
    all_in = betting.committed[seat] + state.chips[seat]
    for total in totals:
        assert betting.high < total <= all_in
    limit = state.rules.bet_limit
    if totals and betting.acted[seat]:
        # Robert's Rules: a player who acted raises again only facing a full raise (a
        # fixed limit: half a bet), one raise or several short all-ins adding up to it.
        need = (limit + 1) // 2 if isinstance(limit, int) else max(betting.last_raise, 1)
        assert owed >= need, "the betting reopened for a player not facing a full raise"
    if isinstance(limit, int):
        assert len(totals) <= 1
        if totals:
            assert totals[0] in (betting.full + limit, all_in), "not a bet over the last full bet"
            if betting.bets_made >= 4:  # a fifth bet: only heads-up, before any cap
                assert state.rules.heads_up_raises == "unlimited" and not betting.capped
                live = [s for s in state.in_round if not betting.folded[s] and state.chips[s]]
                assert len(live) <= 2, "more than a bet and three raises with three players"
    elif limit == "pot_limit" and totals:
        assert totals[-1] <= betting.high + state.board[state.pot_space] + owed


def check_auction_options(state: RummoliState) -> None:
    seat = state.current_player()
    legal = state.legal_actions()
    assert seat != state.dealer, "the dealer bids for the widow"
    assert legal[0] == PASS
    bids = [a - BID_BASE for a in legal[1:]]
    assert bids == list(range(state.auction_high + 1, state.chips[seat] + 1))
    if state.rules.pay_card_blocks_exchange:
        assert not rummoli_holds_pay_card(state.hands[seat], state.rules.ace_of_spades)


def check_dealer(
    before_dealer: int, before_round: int, state: RummoliState, events: list[Event]
) -> None:
    dealers = [e[1] for e in events if e[0] == "dealer"]
    if dealers and before_round >= 1:
        n = len(state.names)
        seat = before_dealer
        for _ in range(n):
            seat = (seat + 1) % n
            if not state.out[seat]:
                break
        assert dealers == [seat], "the deal did not pass to the next player still in"


def play_checked(game: Game) -> tuple[RummoliState, list[Event]]:
    state = game.state()
    rng = random.Random(game.policy_seed)
    start_total = sum(state.chips) + sum(state.board)
    bound = step_bound(state, game)
    all_events: list[Event] = []
    round_events: list[Event] = []
    play = PlayChecker(state)
    steps = 0
    while True:
        check_decision_point(state)
        if state.phase == PLAY and state.current_player() >= 0:
            play.check_options(state)
        if rng.random() < 0.3 or state.is_terminal():
            check_view_hidden(state, rng)
        if state.is_terminal():
            break
        assert steps < bound, f"the game did not end within {bound} steps"
        if steps == game.end_at:
            state.request_end()
        action = choose_action(state, rng)
        before_dealer, before_round = state.dealer, state.round_no
        events = state.apply(action)
        steps += 1
        all_events.extend(events)
        kinds = [e[0] for e in events]
        if "widow_dealt" in kinds:
            round_events = events[kinds.index("hand") :]
        elif "settle_dealt" in kinds:  # a pot of the settlement played with betting
            last = len(kinds) - 1 - kinds[::-1].index("settle_dealt")
            while last and kinds[last - 1] == "settle_dealt":
                last -= 1
            round_events = events[last:]
        else:
            round_events.extend(events)
        assert state.total_chips() == start_total
        assert sum(state.chips) + sum(state.board) == start_total
        assert min(state.chips) >= 0 and min(state.board) >= 0
        check_card_places(state)
        check_events_hide_cards(state, events)
        play.apply(state, events)
        check_showdown(state, events)
        check_poker_pots(state, round_events, events)
        check_auction_and_bets(state, round_events)
        check_public_histories(state, round_events)
        check_dealer(before_dealer, before_round, state, events)
    if game.rules.rounds:
        assert state.round_no <= game.rules.rounds
    assert sum(state.board) == 0, "board chips left after the settlement"
    assert all_events[-1][0] == "game_over"
    assert all_events[-1][1] == tuple(state.chips)
    return state, all_events


def check_replays(game: Game, state: RummoliState, all_events: list[Event]) -> None:
    record = state.record()
    text = json.dumps(record)
    assert json.loads(text) == record
    for source in (record, text):
        again = replay(source)
        assert again.record() == record
        assert again.chips == state.chips and again.board == state.board
        for seat in [*range(game.n), None]:
            assert again.view(seat) == state.view(seat)
    fresh = game.state()
    events: list[Event] = []
    for index, action in enumerate(record["actions"]):
        if index == record["end_requested_after"]:
            fresh.request_end()
        events.extend(fresh.apply(action))
    assert events == all_events
    check_seats_events("rummoli", all_events, state.names)


@settings(max_examples=900, deadline=None)
@given(game=games())
def test_random_games_keep_every_invariant(game: Game) -> None:
    note(f"players={players(game.n)} rules={game.rules.changed()} seed={game.seed}")
    state, all_events = play_checked(game)
    note(f"record={json.dumps(state.record())}")
    kinds = {e[0] for e in all_events}
    for kind in sorted(kinds & INTERESTING):
        event(kind)
    played = state.round_no
    event("rounds played: " + ("0" if not played else "1-3" if played <= 3 else "4+"))
    check_replays(game, state, all_events)


@settings(max_examples=150, deadline=None)
@given(game=games())
def test_every_view_is_blind_to_hidden_cards_at_every_step(game: Game) -> None:
    """The view test at every decision of a game, for every seat and the spectator."""
    state = game.state()
    rng = random.Random(game.policy_seed)
    for step in range(step_bound(state, game)):
        for seat in [*range(game.n), None]:
            other = permute_unseen(state, seat, rng)
            assert other.view(seat) == state.view(seat), f"the view of {seat} shows hidden cards"
            assert other.observation(seat) == state.observation(seat)
            json.dumps(state.view(seat))
        if state.is_terminal():
            return
        if step == game.end_at:
            state.request_end()
        state.apply(choose_action(state, rng))
    raise AssertionError("the game did not end")


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy(rounds=st.just(1)), n=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_view_test_has_teeth(rules: Rules, n: int, seed: int) -> None:
    """The permutation of the view test really moves cards: permuting what seat 0 cannot
    see changes another seat's view of its own hand (unless nothing is hidden)."""
    state = RummoliState.new_game(players(n), rules, seed)
    state.apply(0)
    if state.is_terminal():
        return
    rng = random.Random(seed)
    other_seats = [s for s in state.in_round if s != 0]
    if 0 not in state.in_round or not other_seats:
        return
    # After a showdown every card left in the other hands may be shown: then no card of
    # theirs is hidden from seat 0, and there is nothing to move.
    hidden = hidden_mask(state, 0)
    if not any(state.hands[s] & hidden for s in other_seats):
        return
    for _ in range(5):
        moved = permute_unseen(state, 0, rng)
        check_card_places(moved)
        assert moved.view(0) == state.view(0)
        if any(moved.hands[s] != state.hands[s] for s in other_seats):
            assert any(moved.view(s) != state.view(s) for s in other_seats)
            return
    raise AssertionError("five permutations never moved a hidden card")


def test_rank_helpers_agree() -> None:
    # The run check above relies on "next card of the suit" being card + 1.
    for card in range(52):
        if rank_of(card) != ACE:
            assert rank_of(card + 1) == rank_of(card) + 1
            assert (card + 1) // NUM_RANKS == card // NUM_RANKS
