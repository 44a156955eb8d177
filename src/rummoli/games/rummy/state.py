"""A match of Basic Rummy as a state machine: hands dealt until a player reaches the target.

A turn is explicit, one decision at a time: draw (stock or discard pile), then any number of
melds and lay-offs, then one discard, unless the player has gone out first. Decisions with
a single legal action (the only draw after a reshuffle, the only discard left) are made
inside :meth:`RummyState.apply`, which returns every event it caused, as in Rummoli. Chance
(the cut for the first dealer, the deal, turning the discard pile into a new stock) is an
explicit step whose outcome comes from the game's own seed, so a record of rules, setup,
seed and actions replays the match exactly.

Cards are ints and hands are 52-bit masks (:mod:`rummoli.cards`); the stock and the discard
pile are lists whose *last* item is their top, so drawing is a ``pop``. The melds on the
table are masks in slot order; a meld never leaves the table during a hand, so a slot
number names the same meld from the moment it is laid down to the end of the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from rummoli.cards import FULL_DECK, cards_of
from rummoli.engine.apply import is_legal, why_illegal
from rummoli.engine.base import (
    CHANCE,
    CHANCE_ACTION,
    TERMINAL,
    Event,
    IllegalActionError,
    SetupError,
)
from rummoli.engine.state import STATE_BASE_FIELDS, GameStateBase, checked_seed, copy_fields
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.actions import discard_mask
from rummoli.games.rummy.deal import DRAW_RESHUFFLE, cut_for_dealer, deal_hand
from rummoli.games.rummy.deal import cards_per_player as cards_per_player  # (its old home)
from rummoli.games.rummy.melds import (
    CATALOGUE,
    MAX_MELDS,
    fit_mask,
    hand_points,
    melds_in,
    sorted_hand,
)
from rummoli.games.rummy.refusal import refusal
from rummoli.games.rummy.rules import Rules
from rummoli.games.rummy.setup import Setup
from rummoli.games.rummy.stalemate import (
    BLOCKED,
    STALL_TURNS,
    STALLED,
    STOCK_OUT,
    hopeless,
)
from rummoli.games.rummy.stalemate import nobody_can_go_out as nobody_can_go_out  # (old home)

if TYPE_CHECKING:
    from rummoli.games.rummy.view import RummyObservation

# Phases.
START: Final = 0
DRAW: Final = 1
PLAY: Final = 2
RESHUFFLE: Final = 3
HAND_OVER: Final = 4
OVER: Final = 5
PHASE_NAMES: Final = ("start", "draw", "play", "reshuffle", "hand_over", "over")


_BIT: Final = tuple(1 << card for card in range(52))
_MELD_BASE: Final = act.MELD_BASE
_LAYOFF_BASE: Final = act.LAYOFF_BASE
_DISCARD_BASE: Final = act.DISCARD_BASE


#: Whether a turn starts with the check that nobody can ever go out (a ``BLOCKED``
#: stalemate, :mod:`.stalemate`). Always on in play; the stalemate tests' judge turns it
#: off to explore the bare rules (a module variable, not a constant, so that it can, also
#: when this module is compiled).
DETECT_BLOCKED = True
#: The LAY_OFF (slot 0) action of each card: the move generator reads it after every draw.
_LAYOFF_ACTION: Final = tuple(act.layoff_action(card, 0) for card in range(52))


#: The attributes of a :class:`RummyState` (its slots) beside its base's (what ``clone``
#: copies is both).
_STATE_FIELDS: Final = (
    "dealer",
    "discard",
    "fits",
    "going_rummy",
    "hand_no",
    "hand_points",
    "hands",
    "idle_turns",
    "match_winner",
    "melded_this_turn",
    "melds",
    "names",
    "phase",
    "played_before",
    "played_this_turn",
    "reshuffles",
    "rules",
    "scores",
    "setup",
    "stalemate",
    "stock",
    "taken",
    "target",
    "turn",
    "winner",
)
#: Every attribute, the base's and the state's: what ``clone`` copies.
_ALL_FIELDS: Final = STATE_BASE_FIELDS + _STATE_FIELDS


class RummyState(GameStateBase):
    """A match of Basic Rummy, from the cut for the first dealer to the match's end.

    Its base, :class:`~rummoli.engine.state.GameStateBase`, holds what every game's
    state shares (the protocol's reading methods, the end a table asks for, the draws).
    """

    __slots__ = _STATE_FIELDS

    def __new__(cls, *args: object, **kwargs: object) -> RummyState:
        # Explicit so that :meth:`clone` can make a blank instance with ``__new__``
        # without running ``__init__``, also when mypyc compiles this module (its
        # default constructor would run ``__init__``).
        return super().__new__(cls)

    def __init__(self, rules: Rules, setup: Setup, seed: object = 0) -> None:
        self.seed = checked_seed(seed)
        self.rules = rules
        self.setup = setup
        self.names = setup.players
        n = len(setup.players)
        self.target = rules.target_for(n)
        self.scores = list(setup.scores) if setup.scores is not None else [0] * n
        for name, score in zip(self.names, self.scores, strict=True):
            if score >= self.target:
                raise SetupError(
                    f"{name} has {score} points: the match (to {self.target}) is already won"
                )
        self.dealer = -1 if setup.dealer is None else setup.dealer
        self.hand_no = 0
        self.phase = START
        self._start_protocol()
        self.match_winner = -1
        self._clear_hand()

    @classmethod
    def new_game(cls, players: list[str], rules: Rules | None = None, seed: int = 0) -> RummyState:
        """A new match: the seed decides the cut and every shuffle."""
        from rummoli.games.rummy.setup import players_from

        return cls(rules or Rules(), Setup(players_from(players)), seed)

    def _clear_hand(self) -> None:
        n = len(self.names)
        self.hands = [0] * n
        #: Top last.
        self.stock: list[int] = []
        #: Bottom first, top last.
        self.discard: list[int] = []
        self.melds: list[int] = []
        #: ``fits[slot]``: the cards that can be laid off on the meld of that slot.
        self.fits: list[int] = []
        self.turn = -1
        #: The card taken from the discard pile this turn (-1: none). It may not be
        #: discarded this turn; it is tracked by the card itself, not by position.
        self.taken = -1
        self.melded_this_turn = False
        self.played_this_turn = False
        #: Whether each player melded or laid off in an earlier turn of this hand
        #: (a player who had not, and goes out, goes Rummy).
        self.played_before = [False] * n
        self.reshuffles = 0
        #: Turns in a row without a draw from the stock and without a card put on the
        #: table (the stall rule, :mod:`.stalemate`).
        self.idle_turns = 0
        self.winner = -1
        self.going_rummy = False
        self.stalemate = ""
        self.hand_points = [0] * n

    def clone(self) -> RummyState:
        """An independent copy, made field by field (far cheaper than ``deepcopy``)."""
        other = RummyState.__new__(RummyState)
        copy_fields(self, other, _ALL_FIELDS)
        return other

    # ----------------------------------------------------------------- the protocol

    def num_distinct_actions(self) -> int:
        return act.NUM_ACTIONS

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see; decided in :mod:`.view` alone."""
        from rummoli.games.rummy.view import build_view

        return build_view(self, seat)

    def observation(self, seat: int | None) -> RummyObservation:
        """The same knowledge as :meth:`view`, as plain numbers (for bots and simulations)."""
        from rummoli.games.rummy.view import build_observation

        return build_observation(self, seat)

    def record(self) -> dict[str, Any]:
        from rummoli.games.rummy.record import make_record

        return make_record(self)

    def action_to_text(self, action: int) -> str:
        return act.action_to_text(action)

    def action_from_text(self, text: str) -> int:
        return act.action_from_text(text)

    def apply(self, action: object) -> list[Event]:
        """Apply a legal action; an illegal one raises and changes nothing.

        ``action: object``: anything a caller sends (a JSON message, a bad record) gets an
        :class:`IllegalActionError` that says why, never a bare ``TypeError``. The shared
        :func:`~rummoli.engine.apply.apply_action`, written out for this class: compiled,
        its attribute reads and the call of ``_step`` are then direct (a tenth of a random
        hand's time), where the shared function reads them by name.
        """
        if type(action) is int and is_legal(self.options, action):
            self.actions.append(action)
            events: list[Event] = []
            self._step(action, events)
            return events
        raise IllegalActionError(why_illegal(self, action))

    def _step(self, action: int, events: list[Event]) -> None:
        """The legal ``action``, then the decisions without a choice that follow it."""
        self._dispatch(action, events)
        # Decisions without a choice are not asked for (nor recorded: replay remakes them).
        while self.to_move >= 0 and len(self.options) == 1:
            self._dispatch(self.options[0], events)

    def _dispatch(self, action: int, events: list[Event]) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action, events)
        elif phase == DRAW:
            self._draw(action, events)
        elif phase == RESHUFFLE:
            self._reshuffle(events)
        else:
            self._begin_hand(events)

    # ----------------------------------------------------------------- why not

    def _refusal(self, action: int) -> str:
        """The reason an action is refused (:mod:`.refusal`: read only when refusing)."""
        return refusal(self, action)

    # ----------------------------------------------------------------- dealing

    def _begin_hand(self, events: list[Event]) -> None:
        """The chance step between hands: the first dealer's cut, the deal, the first turn."""
        if self.end_requested:
            self._finish(events)
            return
        n = len(self.names)
        if self.dealer < 0:
            cut_for_dealer(self, events)
        elif self.hand_no > 0:
            self.dealer = (self.dealer + 1) % n
        events.append(("dealer", self.dealer))
        self._clear_hand()
        self.hand_no += 1
        setup = self.setup
        upcard = deal_hand(self)
        for seat in range(n):
            events.append(("hand", seat, self.hands[seat]))
        if upcard >= 0:
            events.append(("upcard", upcard))
        first = (self.dealer + 1) % n
        if self.hand_no == 1 and setup.turn is not None:
            first = setup.turn
        self._start_turn(first, events)

    # ----------------------------------------------------------------- a turn

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        """Begin ``seat``'s turn: a stalemate, a reshuffle, or the choice of draw."""
        self.turn = seat
        self.taken = -1
        self.melded_this_turn = False
        self.played_this_turn = False
        if DETECT_BLOCKED:
            why = hopeless(self.hands, self.melds, self.fits, self._live())
            if why:
                self._stalemate(BLOCKED, events, why)
                return
        if self.idle_turns >= STALL_TURNS and self.rules.stalls():
            self._stalemate(STALLED, events)
            return
        if not self.stock:
            if self.reshuffles == 0 and self.discard:
                self.phase = RESHUFFLE
                self.to_move = CHANCE
                self.options = [CHANCE_ACTION]
                return
            self._stalemate(STOCK_OUT, events)
            return
        self._offer_draw()

    def _live(self) -> int:
        """:func:`~.stalemate.live_cards` of this state, without reading the stock: every
        card is in one place (a hand, the stock, the discard pile or a meld; setups are
        checked to hold all 52, and play only moves cards), so the hands, the stock and
        the pile together are the cards outside the melds; after the reshuffle the pile's
        cards below its top are not live. The same mask, asked at every turn's start."""
        outside = FULL_DECK
        for meld in self.melds:
            outside &= ~meld
        if self.reshuffles > 0:
            discard = self.discard
            for i in range(len(discard) - 1):
                outside &= ~_BIT[discard[i]]
        return outside

    def _offer_draw(self) -> None:
        """The draw: from the stock or the discard pile; from the stock alone when the
        pile is empty, or after ``STALL_TURNS`` idle turns in a row (:mod:`.stalemate`:
        the hand must move on towards the stock's end)."""
        self.phase = DRAW
        self.to_move = self.turn
        if self.discard and self.idle_turns < STALL_TURNS:
            self.options = [act.DRAW_STOCK, act.DRAW_DISCARD]
        else:
            self.options = [act.DRAW_STOCK]

    def _reshuffle(self, events: list[Event]) -> None:
        """The stock ran out for the first time: the whole discard pile, shuffled by the
        seed, becomes the new stock, and the discard pile is empty."""
        order = self._draw_deck(DRAW_RESHUFFLE)
        position = {card: i for i, card in enumerate(order)}
        self.stock = sorted(self.discard, key=position.__getitem__)
        self.discard = []
        self.reshuffles += 1
        events.append(("reshuffle", len(self.stock)))
        self._offer_draw()

    def _draw(self, action: int, events: list[Event]) -> None:
        seat = self.turn
        if action == act.DRAW_STOCK:
            card = self.stock.pop()
            events.append(("draw_stock", seat))
            events.append(("drew", seat, card))
        else:
            card = self.discard.pop()
            self.taken = card
            events.append(("draw_discard", seat, card))
        self.hands[seat] |= _BIT[card]
        self.phase = PLAY
        self._offer_play()

    def _offer_play(self) -> None:
        """The player's options after drawing: melds, lay-offs, discards.

        The one subtle rule: a meld or lay-off that would leave only the card taken from the
        discard pile this turn is refused unless that card can then be laid off itself;
        otherwise the player could neither discard it (the discard rule) nor go out, and
        would be stuck. With that rule every position after a draw has a legal action: the
        hand holds two cards or more, or one that may be discarded, or one that fits a meld.
        """
        seat = self.turn
        hand = self.hands[seat]
        taken_card = self.taken
        taken = _BIT[taken_card] if taken_card >= 0 and hand & _BIT[taken_card] else 0
        fits = self.fits
        reach = 0
        for fit in fits:
            reach |= fit
        options: list[int] = []
        if not (self.melded_this_turn and self.rules.one_meld_per_turn):
            for index in melds_in(hand):
                meld = CATALOGUE[index]
                if taken and hand & ~meld == taken and not taken & (reach | fit_mask(meld)):
                    continue
                options.append(_MELD_BASE + index)
        # Melds, then lay-offs, then discards: the action numbers' order (sorted).
        if hand & reach:
            layoffs: list[int] = []
            for slot, fit in enumerate(fits):
                playable = hand & fit
                while playable:
                    bit = playable & -playable
                    playable ^= bit
                    if taken and hand & ~bit == taken and not taken & self._reach_after(slot, bit):
                        continue
                    layoffs.append(_LAYOFF_ACTION[bit.bit_length() - 1] + slot)
            layoffs.sort()
            options.extend(layoffs)
        discards = discard_mask(hand & ~taken)
        while discards:
            low = discards & -discards
            options.append(_DISCARD_BASE + low.bit_length() - 1)
            discards ^= low
        self.to_move = seat
        self.options = options

    def _reach_after(self, slot: int, bit: int) -> int:
        """The cards that would fit the table after laying ``bit`` off on ``slot``."""
        reach = fit_mask(self.melds[slot] | bit)
        for other, fit in enumerate(self.fits):
            if other != slot:
                reach |= fit
        return reach

    def _play(self, action: int, events: list[Event]) -> None:
        seat = self.turn
        if action >= _DISCARD_BASE:
            card = act.discard_of(action)
            self.hands[seat] ^= _BIT[card]
            self.discard.append(card)
            events.append(("discard", seat, card))
            if not self.hands[seat]:
                self._go_out(seat, events)
                return
            if self.played_this_turn:
                self.played_before[seat] = True
            if self.played_this_turn or self.taken < 0:
                self.idle_turns = 0
            else:
                self.idle_turns += 1
            self._start_turn((seat + 1) % len(self.names), events)
            return
        if action >= _LAYOFF_BASE:
            card, slot = act.layoff_of(action)
            meld = self.melds[slot] | _BIT[card]
            self.melds[slot] = meld
            self.fits[slot] = fit_mask(meld)
            self.hands[seat] ^= _BIT[card]
            events.append(("lay_off", seat, card, slot))
        else:
            meld = act.meld_of(action)
            slot = len(self.melds)
            assert slot < MAX_MELDS
            self.melds.append(meld)
            self.fits.append(fit_mask(meld))
            self.hands[seat] ^= meld
            self.melded_this_turn = True
            events.append(("meld", seat, slot, meld))
        self.played_this_turn = True
        if not self.hands[seat]:
            self._go_out(seat, events)
        else:
            self._offer_play()

    # ----------------------------------------------------------------- end of a hand

    def _go_out(self, seat: int, events: list[Event]) -> None:
        """``seat`` has no card left: it wins the hand and scores the others' cards,
        doubled if it goes Rummy (no meld or lay-off in an earlier turn of the hand)."""
        self.winner = seat
        self.going_rummy = not self.played_before[seat]
        events.append(("goes_out", seat, self.going_rummy))
        points = self._show_hands(events)
        if self.going_rummy:
            points *= 2
        self.hand_points[seat] = points
        self.scores[seat] += points
        events.append(("hand_won", seat, points))
        if self.scores[seat] >= self.target:
            self.match_winner = seat
        self._end_hand(events)

    def _stalemate(self, reason: str, events: list[Event], why: str = "") -> None:
        """Nobody wins the hand; everybody scores 0. ``why``: the detection's case."""
        self.stalemate = reason
        events.append(("stalemate", reason, why))
        self._show_hands(events)
        self._end_hand(events)

    def _show_hands(self, events: list[Event]) -> int:
        """Every hand left is shown and counted, as players do at the end of a hand."""
        total = 0
        for seat, hand in enumerate(self.hands):
            if hand:
                points = hand_points(hand)
                total += points
                events.append(("show", seat, hand, points))
        return total

    def _end_hand(self, events: list[Event]) -> None:
        events.append(("hand_over", self.hand_no))
        self.turn = -1
        if self.match_winner >= 0 or self.setup.single_hand or self.end_requested:
            self._finish(events)
            return
        self.phase = HAND_OVER
        self.to_move = CHANCE
        self.options = [CHANCE_ACTION]

    def _finish(self, events: list[Event]) -> None:
        """The match is over (or, for a single-hand scenario, the hand is)."""
        self.phase = OVER
        self.to_move = TERMINAL
        self.options = []
        if self.setup.single_hand and self.match_winner < 0:
            return
        events.append(("game_over", tuple(self.scores), self.match_leader()))

    # ----------------------------------------------------------------- reading the state

    def match_leader(self) -> int:
        """The match winner: who reached the target, else the one highest score, else -1."""
        if self.match_winner >= 0:
            return self.match_winner
        best = max(self.scores)
        leaders = [s for s, score in enumerate(self.scores) if score == best]
        return leaders[0] if len(leaders) == 1 else -1

    def hand_of(self, seat: int) -> list[int]:
        """A player's cards, as players hold them: by suit, aces low."""
        return sorted_hand(cards_of(self.hands[seat]))

    def cards_conserved(self) -> bool:
        """Every card is in exactly one place: a hand, the stock, the discard pile, a meld."""
        if self.hand_no == 0:
            return True
        seen = 0
        total = 0
        for mask in (*self.hands, *self.melds):
            seen |= mask
            total += mask.bit_count()
        for card in (*self.stock, *self.discard):
            seen |= _BIT[card]
            total += 1
        return seen == FULL_DECK and total == 52

    def __repr__(self) -> str:
        return (
            f"RummyState(hand={self.hand_no}, phase={PHASE_NAMES[self.phase]}, "
            f"to_move={self.to_move}, scores={self.scores}, stock={len(self.stock)}, "
            f"discard={len(self.discard)}, melds={len(self.melds)})"
        )
