"""What each seat, and a spectator, may see: the one place that decides it.

Everything a person or a bot receives (a table view, a log line, a showdown) is built
here from the state and its events. A seat sees its own hand, the widow's cards only if
it gave its own hand to the widow (it knows what it gave), and what the table sees: chip
counts, card counts, the board, laid cards, bets and shown hands. A spectator sees only
what the table sees. The test of this module: change every card a seat cannot see
(keeping the counts) and its view must not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from rummoli.cards import NUM_CARDS, RANKS, SUITS, card_str, cards_of, sorted_by_suit
from rummoli.engine.base import CHANCE, TERMINAL
from rummoli.engine.event_json import EventFormat, by_player, card_text, seat_name, seat_names
from rummoli.games.stops.actions import ActionCodec
from rummoli.games.stops.layout import NONE, RANK, SETS, Layout
from rummoli.games.stops.poker_phase import set_cards, sets_key
from rummoli.games.stops.state import PHASE_NAMES, SETTLE, FamilyRules
from rummoli.poker import best_five, category_name, hand_key

if TYPE_CHECKING:
    from rummoli.games.stops.state import StopsState

#: Events only one seat may see, with the index of that seat in the event.
PRIVATE_EVENTS: Final = {"hand": 1, "blocked": 1, "settle_dealt": 1}

# How to write each event's fields as JSON (see rummoli.engine.event_json): kind -> field
# names, each with a conversion: "player" a seat (as its name), "players" seats, "card" a
# card, "cards" a mask (by suit), "key" a poker hand's strength (as its category),
# "by_player" a tuple by seat; others as they are.
_EVENT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "dealer": ("player",),
    "cut": ("player", "card"),
    "out": ("player",),
    "ante": ("player", "chips"),
    "hand": ("player", "cards"),
    "widow_dealt": ("count",),
    "widow_dead": (),
    "blocked": ("player",),
    "keep": ("player",),
    "exchange": ("player",),
    "pass": ("player",),
    "bid": ("player", "chips"),
    "no_bid": (),
    "bought": ("player", "chips", "dealer:player"),
    "check": ("player",),
    "fold": ("player",),
    "call": ("player", "total", "chips", "all_in"),
    "raise": ("player", "total", "chips", "all_in"),
    "returned": ("player", "chips"),
    "show": ("player", "cards", "hand:key"),
    "poker_pot": ("pot", "chips", "winners:players", "share"),
    "leads": ("player",),
    "lay": ("player", "card"),
    "space": ("player", "space", "chips"),
    "unclaimed": ("player", "space"),
    "stop": ("card", "reason"),
    "duty_passes": ("player", "fine"),
    "deadlock_continue": ("player",),
    "deadlock": (),
    "deadlock_pays": ("player", "chips"),
    "round_won": ("player", "chips"),
    "pays": ("player", "to:player", "chips"),
    "round_over": ("round",),
    "settle_cut": ("player", "card"),
    "settle_dealt": ("player", "cards"),
    "settle_hand": ("player", "cards", "hand:key"),
    "settled": ("space", "chips", "winners:players"),
    "game_over": ("chips:by_player",),
    # The events of the family's other games (Rummoli never writes them).
    "stake": ("player", "space"),
    "turned": ("card",),
    "turn_pays": ("player", "space", "chips"),
    "deal_ends": ("card",),
    "claim": ("player", "space", "chips", "cards"),
    "show_set": ("player", "cards"),
    "unopened": (),
    "sans": ("player", "rank:rank"),
    "grand_opera": ("player", "chips"),
    "held_pays": ("player", "space", "chips"),
}


def _hand_text(mask: int, names: Sequence[str]) -> list[str]:
    return _cards(mask)


def _category(key: int, names: Sequence[str]) -> str:
    return category_name(key)


def _rank(rank: int, names: Sequence[str]) -> str:
    return "10" if RANKS[rank] == "T" else RANKS[rank]


#: How this game's events are written: its tables above, with what each conversion does.
EVENT_FORMAT: Final = EventFormat(
    _EVENT_FIELDS,
    {
        "player": seat_name,
        "players": seat_names,
        "card": card_text,
        "cards": _hand_text,
        "key": _category,
        "rank": _rank,
        "by_player": by_player,
    },
    PRIVATE_EVENTS,
)


# What the interfaces call, read off the format (one definition for every game, in
# ``engine/event_json.py``): whether ``seat`` (None: a spectator) may see an event, the
# events it may see, an event as JSON (players by name, cards as text), and the events
# it may see as JSON.
is_visible: Final = EVENT_FORMAT.is_visible
visible_events: Final = EVENT_FORMAT.visible_events
event_to_json: Final = EVENT_FORMAT.to_json
events_for: Final = EVENT_FORMAT.events_for
events_for_seats: Final = EVENT_FORMAT.events_for_seats


#: Each card's text, by number: a view names a card dozens of times (the laid ones once
#: per player and once in the table's list), and a lookup costs a third of a call.
_CARD_TEXT: Final = tuple(card_str(c) for c in range(NUM_CARDS))
#: The texts of the sets of cards views named lately (hands, a widow, claims), by mask:
#: a table's views name the same hands again and again (every seat's frame, every step
#: of a run). Emptied when it grows past :data:`_MASKS_KEPT`, so it stays small.
_MASK_TEXT: Final[dict[int, tuple[str, ...]]] = {}
_MASKS_KEPT: Final = 4096


def _cards(mask: int) -> list[str]:
    known = _MASK_TEXT.get(mask)
    if known is None:
        if len(_MASK_TEXT) >= _MASKS_KEPT:
            _MASK_TEXT.clear()
        known = tuple([card_str(c) for c in sorted_by_suit(cards_of(mask))])
        _MASK_TEXT[mask] = known
    return list(known)


@dataclass(slots=True, init=False)
class Observation:
    """Everything one seat (``seat is None``: a spectator) may know, as plain numbers.

    Treat it as read-only (it is not frozen only because frozen dataclasses are several
    times slower to build, and a simulation builds one per decision).

    Cards are ints and hands are masks (see :mod:`rummoli.cards`); seats are indexes.
    Bots and simulations read this (it is cheap to build); people get the JSON view
    made from it by :func:`observation_to_view`. Both come from :func:`build_observation`,
    the one function that decides what a seat may see.
    """

    seat: int | None
    names: tuple[str, ...]
    rules: FamilyRules
    spaces: tuple[str, ...]
    round_no: int
    phase: str
    dealer: int
    #: The seat to decide, CHANCE or TERMINAL.
    to_move: int
    chips: tuple[int, ...]
    out: tuple[bool, ...]
    #: Seats dealt in this round, clockwise from the dealer's left (the dealer last).
    in_round: tuple[int, ...]
    card_counts: tuple[int, ...]
    board: tuple[int, ...]
    #: This seat's hand (0 for a spectator).
    hand: int
    widow_count: int
    #: The seat that gave its hand to the widow, or -1.
    widow_taker: int
    #: The widow's cards if this seat gave its hand to it, else 0.
    known_widow: int
    #: (seat, card) in the order laid this round.
    laid: tuple[tuple[int, int], ...]
    laid_mask: int
    #: (seat, five-card mask) shown at the showdown.
    shown: tuple[tuple[int, int], ...]
    auction_high: int
    auction_high_bidder: int
    auction_passed: tuple[int, ...]
    #: This round's auction in order: (seat, chips bid), a pass as (seat, 0). Public: a
    #: pass forced by a pay card shows as a plain pass.
    auction_history: tuple[tuple[int, int], ...]
    #: Chips each seat put in during this betting round, and who folded.
    bets: tuple[int, ...]
    folded: tuple[bool, ...]
    high_bet: int
    #: This round's betting actions in order: (seat, "check" | "call" | "raise" | "fold",
    #: the seat's total bet after the action).
    bet_history: tuple[tuple[int, str, int], ...]
    poker_winners: tuple[int, ...]
    leader: int
    round_winner: int
    deadlocked: bool
    #: This seat's legal actions when it is to move, else empty.
    legal: tuple[int, ...]
    codec: ActionCodec
    #: The chips the betting plays for: the poker space's, or those of the pot being
    #: settled (house rule ``settlement_betting``: then ``hand`` and ``card_counts`` are
    #: the settlement's five cards).
    pot: int
    #: The pot being settled with betting ("all" or a space), else "".
    settling: str
    #: The game's layout (what every computer player of the family reads of the rules),
    #: the card turned for trumps (-1: none) and its suit, the spaces won by the cards
    #: held at the deal, (seat, space, chips), and the rank mode's next rank place (0 =
    #: ace ... 12 = king; -1: a new sequence).
    plan: Layout
    turned: int
    trump: int
    claims: tuple[tuple[int, int, int, int], ...]
    sequence: int

    def __init__(
        self,
        seat: int | None,
        names: tuple[str, ...],
        rules: FamilyRules,
        spaces: tuple[str, ...],
        round_no: int,
        phase: str,
        dealer: int,
        to_move: int,
        chips: tuple[int, ...],
        out: tuple[bool, ...],
        in_round: tuple[int, ...],
        card_counts: tuple[int, ...],
        board: tuple[int, ...],
        hand: int,
        widow_count: int,
        widow_taker: int,
        known_widow: int,
        laid: tuple[tuple[int, int], ...],
        laid_mask: int,
        shown: tuple[tuple[int, int], ...],
        auction_high: int,
        auction_high_bidder: int,
        auction_passed: tuple[int, ...],
        auction_history: tuple[tuple[int, int], ...],
        bets: tuple[int, ...],
        folded: tuple[bool, ...],
        high_bet: int,
        bet_history: tuple[tuple[int, str, int], ...],
        poker_winners: tuple[int, ...],
        leader: int,
        round_winner: int,
        deadlocked: bool,
        legal: tuple[int, ...],
        codec: ActionCodec,
        pot: int,
        settling: str,
        plan: Layout,
        turned: int,
        trump: int,
        claims: tuple[tuple[int, int, int, int], ...],
        sequence: int,
    ) -> None:
        # Written out rather than generated by ``dataclass``: this module is compiled
        # (see rummoli.compiled), and a compiled class's generated ``__init__`` would
        # still run as Python, once per decision of a simulation.
        self.seat = seat
        self.names = names
        self.rules = rules
        self.spaces = spaces
        self.round_no = round_no
        self.phase = phase
        self.dealer = dealer
        self.to_move = to_move
        self.chips = chips
        self.out = out
        self.in_round = in_round
        self.card_counts = card_counts
        self.board = board
        self.hand = hand
        self.widow_count = widow_count
        self.widow_taker = widow_taker
        self.known_widow = known_widow
        self.laid = laid
        self.laid_mask = laid_mask
        self.shown = shown
        self.auction_high = auction_high
        self.auction_high_bidder = auction_high_bidder
        self.auction_passed = auction_passed
        self.auction_history = auction_history
        self.bets = bets
        self.folded = folded
        self.high_bet = high_bet
        self.bet_history = bet_history
        self.poker_winners = poker_winners
        self.leader = leader
        self.round_winner = round_winner
        self.deadlocked = deadlocked
        self.legal = legal
        self.codec = codec
        self.pot = pot
        self.settling = settling
        self.plan = plan
        self.turned = turned
        self.trump = trump
        self.claims = claims
        self.sequence = sequence


def seat_fields(state: StopsState, seat: int | None) -> tuple[int, int, tuple[int, ...]]:
    """What only ``seat`` may see of ``state``: its hand, the widow's cards it knows, its
    legal actions (a spectator: none of them). :func:`build_observation` takes them from
    here, and so does a seat's view made from the spectator's (:func:`seat_view_for`)."""
    if seat is None:
        return 0, 0, ()
    hands = state.settle_hands if state.phase == SETTLE else state.hands
    return (
        hands[seat],
        state.known_widow if seat == state.widow_taker else 0,
        tuple(state.options) if state.to_move == seat else (),
    )


def build_observation(state: StopsState, seat: int | None) -> Observation:
    """What ``seat`` (None: a spectator) may see of ``state``: the one place that decides
    (what only the seat may see: :func:`seat_fields`)."""
    hand, known_widow, legal = seat_fields(state, seat)
    n = len(state.names)
    betting = state.betting
    in_round = state.in_round
    passed = state.auction_passed
    hands = state.hands
    settling = ""
    if state.phase == SETTLE:  # the settlement's own five cards (settlement_betting)
        hands = state.settle_hands
        settling = state.settle_name
    # Positional: keyword arguments would make this the slowest line of a simulation.
    return Observation(
        seat,
        state.names,
        state.rules,
        state.spaces,
        state.round_no,
        PHASE_NAMES[state.phase],
        state.dealer,
        state.to_move,
        tuple(state.chips),
        tuple(state.out),
        tuple(in_round),
        tuple(map(int.bit_count, hands)),
        tuple(state.board),
        hand,
        state.widow.bit_count(),
        state.widow_taker,
        known_widow,
        tuple(state.laid),
        state.laid_mask,
        tuple(state.shown.items()),
        state.auction_high,
        state._auction_high_bidder,
        tuple([s for s in in_round if passed[s]]) if True in passed else (),
        tuple(state.auction_log),
        tuple(betting.committed) if betting else (0,) * n,
        tuple(betting.folded) if betting else (False,) * n,
        betting.high if betting else 0,
        tuple(state.bet_log),
        tuple(state.poker_winners),
        state.leader,
        state.round_winner,
        state.deadlocked,
        legal,
        state.codec,
        state.board[state.pot_space],
        settling,
        state.plan,
        state.turned,
        state.trump,
        tuple(state.claims),
        state.sequence,
    )


def _seat_or_none(seat: int) -> int | None:
    return seat if seat >= 0 else None


#: The ranks in the order of a sequence by rank, aces low (Nain Jaune).
_RANK_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: The phases in which a seat's poker hand is still to be played (it is named in the view).
_POKER_AHEAD = frozenset(("widow", "auction", "betting", "settlement"))
#: A set's name by its number of cards, as the poker categories name it (Poch's sets).
_SET_NAMES: Final = ("", "", "pair", "three of a kind", "four of a kind")


def observation_to_view(
    obs: Observation, later: tuple[Observation, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The JSON-ready view of an observation, for people and the wire.

    ``later``: an observation of the same table and its view (a run's final state, whose
    laid cards this one's may be the first of): the same view, made cheaper, its laid
    cards (the table's list and each player's) then the first items of the later view's,
    shared with it (read them, never change them). A run's every step is viewed so, and
    patched against the final view (``rummoli.web.stops.steps``): what is shared is
    compared by identity, not item by item."""
    text = _CARD_TEXT
    laid_view: list[dict[str, Any]] | None = None
    if later is not None:
        laid_by, laid_view = _laid_of_later(obs, later[0], later[1])
    else:
        laid_by = [[] for _ in obs.names]
        for p, c in obs.laid:
            if 0 <= p < len(laid_by):  # (a card laid by no seat is in the table's list only)
                laid_by[p].append(text[c])
    # With ``later``: a player the same in both views is the later view's own dict.
    same: list[dict[str, Any]] | None = None
    if later is not None and len(later[0].names) == len(obs.names):
        same = later[1]["players"]
    players = []
    for s, name in enumerate(obs.names):
        player = {
            "name": name,
            "chips": obs.chips[s],
            "cards": obs.card_counts[s],
            "out": obs.out[s],
            "in_round": s in obs.in_round,
            "bet": obs.bets[s],
            "folded": obs.folded[s],
            "laid": laid_by[s],
        }
        if same is not None and player == same[s]:
            player = same[s]
        players.append(player)
    to_move: int | str | None
    if obs.to_move == CHANCE:
        to_move = "chance"
    elif obs.to_move == TERMINAL:
        to_move = None
    else:
        to_move = obs.to_move
    plan = obs.plan
    view: dict[str, Any] = {
        "game": plan.game,
        "seat": obs.seat,
        "round": obs.round_no,
        "phase": obs.phase,
        "dealer": obs.dealer,
        "to_move": to_move,
        "players": players,
        "board": dict(zip(obs.spaces, obs.board, strict=True)),
        "widow": {
            "cards": obs.widow_count,
            "taken_by": _seat_or_none(obs.widow_taker),
            "known": _cards(obs.known_widow),
        },
        "laid": (
            laid_view
            if laid_view is not None
            else [{"player": s, "card": text[c]} for s, c in obs.laid]
        ),
        "shown": {str(s): _cards(m) for s, m in obs.shown},
        "poker_winners": list(obs.poker_winners),
        "leader": _seat_or_none(obs.leader),
        "round_winner": _seat_or_none(obs.round_winner),
        "deadlock": obs.deadlocked,
    }
    if obs.phase == "auction":
        view["auction"] = {
            "high_bid": obs.auction_high,
            "high_bidder": _seat_or_none(obs.auction_high_bidder),
            "passed": list(obs.auction_passed),
            "history": [{"player": s, "bid": c or None} for s, c in obs.auction_history],
        }
        if plan.auction == "open":  # a pass is not final (house rule auction)
            view["auction"]["open"] = True
    if obs.phase in ("betting", "settlement"):
        view["betting"] = {
            "high": obs.high_bet,
            "pot": obs.pot,
            "history": [{"player": s, "action": a, "total": t} for s, a, t in obs.bet_history],
        }
    if obs.settling:
        view["settlement"] = {"pot": obs.settling}
    # What the family's other games show besides (Rummoli's view has none of these).
    if plan.trump != NONE:
        view["trump"] = {
            "card": card_str(obs.turned) if obs.turned >= 0 else None,
            "suit": SUITS[obs.trump] if obs.trump >= 0 else None,
        }
    if obs.claims:
        view["claims"] = [
            {"player": s, "space": obs.spaces[space], "chips": c, "cards": _cards(m)}
            for s, space, c, m in obs.claims
        ]
    if plan.play == RANK and obs.phase == "play":
        view["sequence"] = {"next": None if obs.sequence < 0 else _RANK_NAMES[obs.sequence]}
    if obs.seat is not None:
        _add_seat_part(view, obs)
    return view


def _laid_of_later(
    obs: Observation, later: Observation, view: dict[str, Any]
) -> tuple[list[list[str]], list[dict[str, Any]] | None]:
    """The laid cards of ``obs``'s view, each player's and the table's list (None: make
    it), from ``view``, the view of ``later``, when ``obs``'s are the first of ``later``'s
    (the first items of its lists, shared); else each player's made afresh."""
    laid = obs.laid
    count = len(laid)
    ahead = later.laid
    if len(obs.names) != len(later.names) or ahead[:count] != laid:
        laid_by: list[list[str]] = [[] for _ in obs.names]
        for p, c in laid:
            if 0 <= p < len(laid_by):
                laid_by[p].append(_CARD_TEXT[c])
        return laid_by, None
    # Each player's cards less those laid after: the later view's first ones.
    counts = [len(player["laid"]) for player in view["players"]]
    for p, _ in ahead[count:]:
        if 0 <= p < len(counts):
            counts[p] -= 1
    laid_by = [player["laid"][:n] for player, n in zip(view["players"], counts, strict=True)]
    return laid_by, view["laid"][:count]


def _add_seat_part(view: dict[str, Any], obs: Observation) -> None:
    """What only a seat sees, at the end of its view: its hand, its poker hand, its
    choices."""
    _add_hand(view, obs.hand, obs.phase, obs.plan, obs.trump)
    if obs.legal:
        view["legal_actions"] = [{"action": a, "text": obs.codec.to_text(a)} for a in obs.legal]


def _add_hand(view: dict[str, Any], hand: int, phase: str, plan: Layout, trump: int) -> None:
    view["hand"] = _cards(hand)
    sets = plan.hands == SETS and phase != "settlement"
    if phase in _POKER_AHEAD and plan.poker != NONE and sets:
        # Poch's hands rank by their best set alone: that set, or none.
        key = sets_key(hand, trump)
        if key:
            view["poker_hand"] = {
                "name": _SET_NAMES[key // 64],
                "cards": _cards(set_cards(hand, key)),
            }
    elif phase in _POKER_AHEAD and hand.bit_count() >= 5 and plan.poker != NONE:
        # The seat's own poker hand, named while it bets: its best five of its cards.
        view["poker_hand"] = {
            "name": category_name(hand_key(hand)),
            "cards": [card_str(c) for c in best_five(hand)],
        }


def seat_own(
    public: dict[str, Any], public_obs: Observation, state: StopsState, seat: int
) -> tuple[dict[str, Any] | None, dict[str, Any], tuple[int, ...]]:
    """What :func:`seat_view_for` puts in the spectator's view ``public`` for ``seat``:
    the widow as the seat sees it (None: as the spectator does), the seat's own keys
    that follow the spectator's (its hand, its poker hand), and its legal actions. A
    run's steps patch these alone for each seat (``rummoli.web.stops.steps``)."""
    hand, known_widow, legal = seat_fields(state, seat)
    widow = {**public["widow"], "known": _cards(known_widow)} if known_widow else None
    own: dict[str, Any] = {}
    _add_hand(own, hand, public_obs.phase, public_obs.plan, public_obs.trump)
    return widow, own, legal


def seat_view_for(
    public: dict[str, Any], public_obs: Observation, state: StopsState, seat: int
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """``observation_to_view`` of ``seat``'s observation of ``state`` without its legal
    actions, made from ``public`` (the view of ``public_obs``, the spectator's observation
    of ``state``), and those legal actions: the seat's own fields
    (:func:`seat_own`) set in a copy of the spectator's view, which is the same keys
    in the same order (only the seat's own keys differ), and no observation built again."""
    widow, own, legal = seat_own(public, public_obs, state, seat)
    view = dict(public)
    view["seat"] = seat
    if widow is not None:
        view["widow"] = widow
    view.update(own)
    return view, legal


def build_view(state: StopsState, seat: int | None) -> dict[str, Any]:
    """The whole table as ``seat`` (None: a spectator) may see it, as JSON-ready data."""
    return observation_to_view(build_observation(state, seat))
