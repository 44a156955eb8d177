"""The Stops family's part of the learning environments, for every game of the family
(see :mod:`rummoli.envs.adapters`): one :class:`StopsAdapter` per game, made by name.

Nothing here names a game: what differs (the board, the pack, the deal, the auction,
the poker stage, the chosen stakes) is read from the game's layout
(``rules.layout()``, :mod:`rummoli.games.stops.layout`), which the engine plays.

- **Chance**: the game's whole pack (52, 51 or 32 cards), a card at a time, in the order
  the engine deals a fixed deck (``Setup.deck``): Rummoli's card ``i`` to the ``i mod
  k``-th receiver clockwise from the dealer's left, the widow last; Michigan's spare hand
  first; a deal by counts with a talon; a card kept back or turned for trumps. The round
  is then the engine's, from that deck (``single_round``).
- **Returns of one round**: chips won or lost, plus an equal share, for each seat dealt
  in, of what the board gained or lost. The chips a round leaves on the board belong to
  nobody yet: they carry over and are won later, in expectation by every seat alike, so
  a share of them is what they are worth to each; this makes a round zero-sum in chips.
- **A whole game** (``length="game"``) needs ``rounds`` >= 1 (OpenSpiel needs a bound on a
  game's length). Between rounds the engine itself decides who is out and whether the
  game ends (a game with the next round's chips and board, asked for its first step);
  its end settles the board by the engine's ``settlement``.
- **Compact actions**: the engine's first 112 actions as they are, then 5 widow bids
  (the lowest bid, a quarter, half, three quarters and all of one's chips), 5 raises
  (the smallest, half the poker pot, the pot, twice the pot, all-in), each the legal
  amount nearest that size, and a chip staked on each space that takes chosen chips
  (Newmarket's horses); one compact action per engine action.
- **Resampling**: the bots' sampler of hidden cards (:mod:`rummoli.bots.stops.knowledge`)
  redraws the hands and widow; the dealt hands follow from them, hence the deck
  (:mod:`.resample`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rummoli.bots.stops.knowledge import infer
from rummoli.cards import card_str
from rummoli.engine.base import CHANCE_ACTION, TERMINAL, Event, GameState, SetupError
from rummoli.engine.rng import SeededRandom
from rummoli.envs.adapters import EnvConfig, NextRound, Vector
from rummoli.envs.encode import LaidOutAdapter, Layout, put_cards
from rummoli.envs.feature_parts import relative
from rummoli.envs.stops.features import StopsFeatures
from rummoli.envs.stops.resample import deal_positions, deck_for, shows_the_same, with_facts
from rummoli.games.stops import layout as lay
from rummoli.games.stops.actions import BID_BASE, ActionCodec
from rummoli.games.stops.constants import STAKE
from rummoli.games.stops.setup import Setup
from rummoli.games.stops.state import PHASE_NAMES, StopsState
from rummoli.games.stops.view import Observation

if TYPE_CHECKING:
    from rummoli.envs.table import Table

#: Compact actions: the engine's fixed actions (< BID_BASE), then these.
BID_FRACTIONS = (0.0, 0.25, 0.5, 0.75, 1.0)
RAISE_POTS = (0.0, 0.5, 1.0, 2.0, -1.0)  # -1: all-in
COMPACT_BID = BID_BASE
COMPACT_RAISE = BID_BASE + len(BID_FRACTIONS)
NUM_COMPACT = COMPACT_RAISE + len(RAISE_POTS)
#: Deals drawn by the bots' sampler, each checked against the showdown, in one resample.
SHOWDOWN_TRIES = 64
_BET_KINDS = ("check", "call", "raise", "fold")


def _obs(engine: GameState, seat: int | None) -> Observation:
    assert isinstance(engine, StopsState), type(engine)
    return engine.observation(seat)


def is_family_game(rules: object) -> bool:
    """Whether a game's rules object is one of the Stops family's: it makes the layout
    the family's engine plays (how :func:`~rummoli.envs.adapters.adapter_for` knows that
    this adapter serves a game nobody listed)."""
    layout = getattr(rules, "layout", None)
    return callable(layout) and isinstance(layout(), lay.Layout)


def library_names(game: str, title: str) -> tuple[str, str]:
    """A game's names in the learning libraries from its registry name and title:
    ``(env_name, gym_name)``, e.g. ``("pope_joan", "PopeJoan")``: ``python_pope_joan``,
    ``pope_joan_v0``, ``rummoli/PopeJoan-v0``."""
    words = "".join(c if c.isalnum() else " " for c in title).split()
    return game, "".join(word[:1].upper() + word[1:] for word in words) or game.title()


class StopsAdapter(LaidOutAdapter):
    """The environments' part of one game of the Stops family (``game``: its registry
    name); every setting it reads is in the game's layout."""

    private_fields: ClassVar[frozenset[str]] = frozenset(("hand", "known_widow", "dealt_hand"))

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game
        self.env_name, self.gym_name = library_names(game, self.description().title)

    def plan(self, config: EnvConfig) -> lay.Layout:
        """The game under ``config``'s house rules, as the engine plays it."""
        return self.rules_object(config).layout()  # type: ignore[no-any-return]

    def check(self, config: EnvConfig) -> None:
        title = self.description().title
        if config.length == "game" and self.rules_object(config).rounds < 1:
            raise SetupError(
                f"a whole game of {title} needs the house rule rounds >= 1 (a learning "
                "environment needs a bound on the game's length)"
            )
        if config.length == "game" and self.plan(config).settlement_betting:
            raise SetupError(
                "the environments deal a whole game's settlement as chance nodes, without "
                "betting: the house rule settlement_betting is not offered here"
            )

    def spaces(self, config: EnvConfig) -> tuple[str, ...]:
        return self.cached(config, "spaces", lambda: self.plan(config).names)  # type: ignore[no-any-return]

    def deck(self, config: EnvConfig) -> list[int]:
        mask = self.plan(config).deck_mask()
        return [card for card in range(52) if mask >> card & 1]

    def stake_spaces(self, config: EnvConfig) -> tuple[str, ...]:
        """The spaces a player stakes his chosen chips on, one chip an action (none but
        in a game with chosen stakes), as the engine's action codec lists them."""
        plan = self.plan(config)
        return tuple(s.name for s in plan.spaces if s.chosen and plan.chosen_stake)

    def total_chips(self, config: EnvConfig) -> int:
        return config.players * int(self.rules_object(config).starting_chips)

    # ------------------------------------------------------------------ rounds

    def start_carry(self, config: EnvConfig) -> Any:
        chips = (self.rules_object(config).starting_chips,) * config.players
        return chips, (0,) * len(self.spaces(config))

    def cards_per_deal(self, config: EnvConfig, carry: Any) -> int:
        return len(self.deck(config))

    def _setup(self, config: EnvConfig, carry: Any, dealer: int) -> dict[str, Any]:
        chips, board = carry
        return {
            "players": config.names(),
            "chips": list(chips),
            "board": {s: c for s, c in zip(self.spaces(config), board, strict=True) if c},
            "dealer": dealer,
        }

    def round_setup(
        self, config: EnvConfig, carry: Any, dealer: int, cards: Sequence[int]
    ) -> dict[str, Any]:
        setup = self._setup(config, carry, dealer)
        setup["deck"] = [card_str(c) for c in cards]
        setup["single_round"] = True
        return setup

    def build_round(
        self, config: EnvConfig, carry: Any, dealer: int, cards: Sequence[int], seed: int
    ) -> GameState:
        # The same game as stored_game(round_setup(...)), without writing the deck as
        # text to read it back (a tenth of a millisecond a round; a round of random
        # play is a few decisions). A test checks the two agree.
        chips, board = carry
        names, spaces, rules = self.cached(config, "round", lambda: self._round_parts(config))
        setup = Setup(
            names,
            tuple(chips),
            dealer,
            {name: chips for name, chips in zip(spaces, board, strict=True) if chips},
            deck=tuple(cards),
            single_round=True,
        )
        return StopsState(rules, setup, seed)

    def _round_parts(self, config: EnvConfig) -> tuple[tuple[str, ...], tuple[str, ...], Any]:
        """What every round's engine is built from, looked up once (a deal is made at
        every reset)."""
        return tuple(config.names()), self.spaces(config), self.rules_object(config)

    def after_round(self, config: EnvConfig, engine: GameState, carry: Any) -> Any:
        obs = _obs(engine, None)
        return obs.chips, obs.board

    def round_rewards(
        self, config: EnvConfig, engine: GameState, before: Any, after: Any
    ) -> list[float]:
        in_round = _obs(engine, None).in_round
        share = (sum(after[1]) - sum(before[1])) / len(in_round)
        return [
            a - b + (share if seat in in_round else 0.0)
            for seat, (a, b) in enumerate(zip(after[0], before[0], strict=True))
        ]

    def next_round(
        self, table: Table, seed: int, settlement: Sequence[int] | None = None
    ) -> NextRound:
        probe, events, dealer = self._between_rounds(table, seed, settlement)
        obs = _obs(probe, None)
        if probe.current_player() == TERMINAL:
            return (obs.chips, obs.board), dealer, True, events
        # The engine dealt the next round: its seats say who is still in; the deal
        # passes to the next of them on the left.
        n = table.num_players
        seat = dealer
        for _ in range(n):
            seat = (seat + 1) % n
            if seat in obs.in_round:
                break
        return table.carry, seat, False, []

    def settlement_draws(self, table: Table, seed: int) -> list[int]:
        """The settlement's draws when the game ends now (a cut or a five-card hand for
        each player still in, for each pot, each pot from a fresh deck): read off the
        engine's own settlement of this position, whose seeded cards nobody sees (the
        table draws them as chance nodes and settles again with those)."""
        config = table.config
        need = self._ante(config)
        last = table.rounds >= self.rules_object(config).rounds
        if not last and sum(c >= need for c in table.carry[0]) >= 2:
            return []  # another round is dealt: no settlement yet
        probe, events, _ = self._between_rounds(table, seed, None)
        if probe.current_player() != TERMINAL:
            return []
        draws: list[int] = []
        cards = 0
        for event in events:
            if event[0] == "settle_cut":
                cards += 1
            elif event[0] == "settle_hand":
                cards += 5
            elif event[0] == "settled" and cards:
                draws.append(cards)
                cards = 0
        return draws

    def _between_rounds(
        self, table: Table, seed: int, settlement: Sequence[int] | None
    ) -> tuple[StopsState, list[Event], int]:
        """The engine's step after a round, from the table's carry: the next deal, or the
        end of the game and its settlement (with ``settlement``'s cards, when given)."""
        config, carry, dealer = table.config, table.carry, table.dealer
        playing = self._playing_dealer(config, carry, dealer)
        setup = self._setup(config, carry, dealer)
        setup["dealer"] = playing
        if settlement is not None:
            setup["settlement"] = [card_str(c) for c in settlement]
        probe = self.description().stored_game(self.rules_object(config).to_dict(), setup, seed)
        assert isinstance(probe, StopsState)
        if table.rounds >= self.rules_object(config).rounds:
            probe.request_end()
        events = probe.apply(CHANCE_ACTION)
        return probe, events, dealer if playing is None else playing

    def _ante(self, config: EnvConfig) -> int:
        """The chips a player needs to be dealt in: the whole ante under
        ``short_ante="out"`` (the dealer's, as the engine asks), else one (he pays what
        he can)."""
        plan = self.plan(config)
        return plan.ante(dealer=True) if plan.short_ante == "out" else 1

    def _playing_dealer(self, config: EnvConfig, carry: Any, dealer: int) -> int | None:
        """``dealer``, or the first player on his left who can still ante: the engine
        refuses to name a dealer who is out (the deal passes over players out of chips).
        With nobody able to ante, no dealer (the game ends at the ante, before a cut)."""
        chips = carry[0]
        need = self._ante(config)
        n = config.players
        for step in range(n):
            seat = (dealer + step) % n
            if chips[seat] >= need:
                return seat
        return None

    def game_returns(self, config: EnvConfig, start: Any, end: Any) -> list[float]:
        return [float(e - s) for e, s in zip(end[0], start[0], strict=True)]

    # ------------------------------------------------------------------ bounds

    def utility_bounds(self, config: EnvConfig) -> tuple[float, float]:
        chips = self.rules_object(config).starting_chips
        return float(-chips), float(self.total_chips(config) - chips)

    def _rounds(self, config: EnvConfig) -> int:
        return 1 if config.length == "round" else self.rules_object(config).rounds

    def max_decisions(self, config: EnvConfig) -> int:
        """A true bound of the decisions, as tight as the rules allow (a stalling player
        reaches most of it, ``tests/envs/test_openspiel.py``). A round:

        - the dealer's choice of the widow: 1;
        - the auction (``n - 1`` bidders, each bid a chip more than the last, at most
          what a bidder holds, ``stack``): between two bids every other bidder decides
          at most once, the high bidder not at all: ``(n - 1) + stack * (n - 2)`` (so
          also an auction where a pass is not final);
        - the betting: between two rises of the high bet (each of a chip at least, none
          once it covers every other seat still in, so at most ``stack + 1``: only the
          dealer, paid for the widow, holds more) every seat decides at most once, the
          one who raised not at all: ``n + (stack + 1) * (n - 1)``;
        - the chosen stakes (Newmarket's horses): a chip a decision, ``chosen_stake``
          each seat;
        - the laying: a choice at most once a card of the pack laid, and the spare hand's
          cards (``pack // (n + 1)`` at least, when the deal has one) are never laid.

        ``stack`` is the starting chips less the ante for one round (when no space pays
        before the play, by the cards held at the deal), all the chips otherwise."""
        n = config.players
        plan = self.plan(config)
        stack = self.total_chips(config)
        if config.length == "round" and all(s.when == lay.PLAYED for s in plan.spaces):
            # What a seat holds after its ante.
            stack = max(plan.starting_chips - plan.ante(dealer=False), 0)
        auction = (n - 1) + stack * max(n - 2, 0)
        betting = n + (stack + 1) * (n - 1)
        pack = len(self.deck(config))
        spare = plan.deal == lay.ALL and plan.spare in (lay.AFTER_DEALER, lay.FIRST)
        play = pack - (pack // (n + 1) if spare else 0)
        per_round = 1 + auction + betting + n * plan.chosen_stake + play
        return self._rounds(config) * per_round

    def max_chance_nodes(self, config: EnvConfig) -> int:
        # The first dealer, every deal, and a whole game's settlement: for each pot (at
        # most one a space), a five-card hand for each player.
        settle = 0 if config.length == "round" else len(self.spaces(config)) * config.players * 5
        return (config.dealer is None) + len(self.deck(config)) * self._rounds(config) + settle

    # ------------------------------------------------------------------ actions

    def num_exact_actions(self, config: EnvConfig) -> int:
        return ActionCodec(self.total_chips(config), self.stake_spaces(config)).size

    def num_compact_actions(self, config: EnvConfig) -> int:
        return NUM_COMPACT + len(self.stake_spaces(config))

    def _compact_map(self, engine: GameState, legal: list[int]) -> dict[int, int]:
        """Compact action -> engine action, for the bids, raises and stakes legal now."""
        assert isinstance(engine, StopsState)
        codec = engine.codec
        raise_base, stake_base = codec.raise_base, codec.stake_base
        bids = [a for a in legal if BID_BASE <= a < raise_base]
        raises = [a for a in legal if raise_base <= a < stake_base]
        mapping: dict[int, int] = {}
        taken: set[int] = set()

        def add(compact: int, options: list[int], target: float) -> None:
            best = min(options, key=lambda a: (abs(a - target), a))
            if best not in taken:
                taken.add(best)
                mapping[compact] = best

        if bids:
            top = bids[-1] - BID_BASE
            for i, fraction in enumerate(BID_FRACTIONS):
                add(COMPACT_BID + i, bids, BID_BASE + max(fraction * top, 0.0))
        if raises:
            obs = _obs(engine, engine.current_player())
            pot = obs.pot
            for i, pots in enumerate(RAISE_POTS):
                target = raises[-1] if pots < 0 else raise_base + obs.high_bet + pots * pot
                add(COMPACT_RAISE + i, raises, target if pots != 0.0 else raises[0])
        for action in legal:
            if action >= stake_base:
                mapping[NUM_COMPACT + action - stake_base] = action
        return mapping

    def to_compact(self, engine: GameState, legal: list[int]) -> list[int]:
        fixed = [a for a in legal if a < BID_BASE]
        return fixed + sorted(self._compact_map(engine, legal))

    def compact_for(self, engine: GameState, action: int) -> int:
        if action < BID_BASE:
            return action
        assert isinstance(engine, StopsState)
        codec = engine.codec
        if action >= codec.stake_base:
            return NUM_COMPACT + action - codec.stake_base

        def kind(exact: int) -> int:
            return (exact >= codec.raise_base) + (exact >= codec.stake_base)

        same = [
            (abs(exact - action), compact)
            for compact, exact in self._compact_map(engine, engine.legal_actions()).items()
            if kind(exact) == kind(action)
        ]
        return min(same)[1]

    def from_compact(self, engine: GameState, action: int) -> int:
        if action < BID_BASE:
            return action
        return self._compact_map(engine, engine.legal_actions())[action]

    # ------------------------------------------------------------------ tensors

    def _layout(self, config: EnvConfig) -> Layout:
        n, spaces = config.players, len(self.spaces(config))
        return Layout(
            [
                ("hand", 52),
                ("laid", 52),
                ("laid_by", 52 * n),
                ("laid_order", 52),
                ("last_laid", 52),
                ("known_widow", 52),
                ("shown", 52 * n),
                ("phase", len(PHASE_NAMES)),
                ("to_move", n + 2),
                ("dealer", n),
                ("chips", n),
                ("card_counts", n),
                ("widow_count", 1),
                ("board", spaces),
                ("in_round", n),
                ("out", n),
                ("widow_taker", n + 1),
                ("auction_high", 1),
                ("auction_high_bidder", n + 1),
                ("auction_passed", n),
                ("bets", n),
                ("folded", n),
                ("high_bet", 1),
                ("poker_winners", n),
                ("leader", n + 1),
                ("round_winner", n + 1),
                ("deadlocked", 1),
                ("round", 1),
                # The card turned for trumps, in a game that turns one (Pope Joan, Poch).
                *([("turned", 52)] if self.plan(config).trump != lay.NONE else []),
            ]
        )

    def _tensor(self, config: EnvConfig) -> StopsFeatures:
        offsets = self.layout(config).offset
        total = float(self.total_chips(config))
        return StopsFeatures(config.players, offsets, total, self._rounds(config))

    def _history_layout(self, config: EnvConfig) -> Layout:
        n = config.players
        return Layout(
            [
                ("dealt_hand", 52),
                ("bids", n),
                ("bid_count", n),
                ("bet_actions", len(_BET_KINDS) * n),
                ("rounds_played", 1),
            ]
        )

    def encode_history(self, config: EnvConfig, table: Table, seat: int, out: Vector) -> None:
        engine = table.engine
        if engine is None:
            return
        layout = self.history_layout(config)
        at = layout.offset
        n = config.players
        total = float(self.total_chips(config))
        for who, item in table.round_log():
            if who < 0 and item[0] == "hand" and item[1] == seat:
                put_cards(out, at["dealt_hand"], item[2])
                break
        obs = _obs(engine, seat)
        for who, chips in obs.auction_history:
            r = relative(who, seat, n)
            if chips:
                out[at["bids"] + r] = max(out[at["bids"] + r], chips / total)
                out[at["bid_count"] + r] += 1.0 / n
        for who, kind, _ in obs.bet_history:
            r = relative(who, seat, n)
            out[at["bet_actions"] + len(_BET_KINDS) * r + _BET_KINDS.index(kind)] += 1.0
        out[at["rounds_played"]] = table.rounds / max(self._rounds(config), 1)

    # ------------------------------------------------------------------ resampling

    def resample_round(self, table: Table, seat: int, rng: random.Random) -> list[int] | None:
        engine = table.engine
        assert engine is not None
        if isinstance(engine, StopsState) and engine.phase == STAKE:
            # Chips placed by choice before the deal (Newmarket's horses): no card is
            # dealt yet, so any order of the pack is a deal this seat cannot tell apart.
            pack = self.deck(table.config)
            random.Random(rng.getrandbits(62)).shuffle(pack)
            return pack
        obs = _obs(engine, seat)
        knowledge = with_facts(infer(obs), obs, table.round_log())
        laid = [0] * table.num_players
        for who, card in obs.laid:
            laid[who] |= 1 << card
        # Who receives each position of the deck this round (the same dealer and seats
        # dealt in): read off the engine's deal of the pack in order.
        pack = self.deck(table.config)
        positions = deal_positions(
            self.build_round(table.config, table.carry, table.dealer, pack, 0), pack
        )
        # The bots' sampler draws from the project's own generator, seeded from ``rng``.
        draw = SeededRandom(rng.getrandbits(62))
        for _ in range(SHOWDOWN_TRIES):
            hands, widow = knowledge.sample(draw)
            if shows_the_same(obs, hands, laid):
                return deck_for(obs, positions, hands, widow, laid)
        return None

    def hidden_cards(self, table: Table, seat: int) -> int:
        engine = table.engine
        assert isinstance(engine, StopsState)
        obs = engine.observation(seat)
        hidden = engine.widow
        for other, hand in enumerate(engine.hands):
            if other != seat:
                hidden |= hand
        for _, five in obs.shown:
            hidden &= ~five
        return hidden & ~obs.known_widow
