"""Basic Rummy's part of the learning environments (see :mod:`rummoli.envs.adapters`).

- **Chance**: the deal a card at a time (card ``i`` to the ``i mod n``-th seat from the
  dealer's left, then the upcard), and then **every card drawn from the stock**, when it
  is drawn: each card still in the stock equally likely. Nobody sees the stock's order,
  so drawing its top card then is the same game as shuffling it at the deal, and
  algorithms see each draw as unknown. The engine keeps a stock in some order; the
  adapter puts the drawn card on top just before the engine draws it. The one reshuffle
  of a hand (the discard pile turned into the stock) is also a chance node over the
  pile's cards: the engine's own reshuffle is seeded, so the adapter picks the seed that
  puts the chosen card on top (the engine draws it at once). Both are workarounds for an
  engine that hides these draws in its seed; ``docs/environments.md`` names the engine
  change that would remove them.
- **Finite**: a hand is cut after ``max_moves`` decisions (nobody scores; Basic Rummy has
  no such rule, but a learning environment needs a bound: two players can take and give
  back the discard forever), and a match after ``max_hands`` hands.
- **Returns of one hand**: the winner's points, and minus each other seat's own cards'
  points (doubled when the winner goes Rummy): zero-sum in points. **A match**: each
  seat's points gained, less the table's mean.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rummoli.cards import card_str
from rummoli.engine.base import CHANCE_ACTION, Event, GameState
from rummoli.engine.rng import shuffled_deck
from rummoli.envs.adapters import EnvConfig, NextRound, Vector
from rummoli.envs.encode import LaidOutAdapter, Layout, put_cards
from rummoli.envs.feature_parts import relative
from rummoli.envs.rummy.features import RummyFeatures
from rummoli.games.rummy import actions as act
from rummoli.games.rummy.deal import DRAW_RESHUFFLE
from rummoli.games.rummy.melds import hand_points
from rummoli.games.rummy.setup import Setup
from rummoli.games.rummy.state import PHASE_NAMES, RummyState, cards_per_player
from rummoli.games.rummy.view import RummyObservation

if TYPE_CHECKING:
    from rummoli.envs.table import Table

#: All the points a deck holds (faces 10, aces 1, others their rank), twice: no hand's
#: points, even doubled by Going Rummy, can exceed it.
MAX_HAND_POINTS = 2 * 4 * (sum(range(1, 10)) + 4 * 10)


def _state(engine: GameState) -> RummyState:
    assert isinstance(engine, RummyState), type(engine)
    return engine


def _obs(engine: GameState, seat: int | None) -> RummyObservation:
    return _state(engine).observation(seat)


class RummyAdapter(LaidOutAdapter):
    game = "rummy"
    env_name = "basic_rummy"
    gym_name = "BasicRummy"
    extra_defaults: ClassVar[Mapping[str, int]] = {"max_moves": 500, "max_hands": 20}
    private_fields: ClassVar[frozenset[str]] = frozenset(("hand", "dealt_hand", "my_stock_draws"))

    def target(self, config: EnvConfig) -> int:
        return int(self.rules_object(config).target_for(config.players))

    # ------------------------------------------------------------------ rounds

    def start_carry(self, config: EnvConfig) -> Any:
        return (0,) * config.players

    def cards_per_deal(self, config: EnvConfig, carry: Any) -> int:
        return cards_per_player(config.players) * config.players + 1

    def round_setup(
        self, config: EnvConfig, carry: Any, dealer: int, cards: Sequence[int]
    ) -> dict[str, Any]:
        n = config.players
        names = config.names()
        hands: dict[str, list[str]] = {name: [] for name in names}
        for i, card in enumerate(cards[:-1]):
            hands[names[(dealer + 1 + i) % n]].append(card_str(card))
        used = set(cards)
        return {
            "players": names,
            "dealer": dealer,
            "scores": list(carry),
            "hands": hands,
            "discard": [card_str(cards[-1])],
            "stock": [card_str(c) for c in range(52) if c not in used],
            "single_hand": True,
        }

    def build_round(
        self, config: EnvConfig, carry: Any, dealer: int, cards: Sequence[int], seed: int
    ) -> GameState:
        # stored_game(round_setup(...)) without the cards as text (a test checks).
        n = config.players
        hands: list[list[int]] = [[] for _ in range(n)]
        for i, card in enumerate(cards[:-1]):
            hands[(dealer + 1 + i) % n].append(card)
        used = set(cards)
        setup = Setup(
            self.cached(config, "names", lambda: tuple(config.names())),
            dealer,
            tuple(carry),
            tuple(tuple(hand) for hand in hands),
            tuple(c for c in range(52) if c not in used),
            (cards[-1],),
            (),
            True,
        )
        return RummyState(self.rules_object(config), setup, seed)

    def decision_chance(self, engine: GameState, action: int) -> list[int] | None:
        if action != act.DRAW_STOCK:
            return None
        return sorted(_state(engine).stock)

    def resolve_decision(self, engine: GameState, action: int, outcome: int) -> list[Event]:
        stock = _state(engine).stock
        stock.remove(outcome)
        stock.append(outcome)  # the top: the engine draws it now
        return engine.apply(action)

    def engine_chance(self, engine: GameState) -> list[int] | None:
        state = _state(engine)
        if PHASE_NAMES[state.phase] != "reshuffle":
            return None
        return sorted(state.discard)

    def resolve_engine_chance(self, engine: GameState, outcome: int) -> list[Event]:
        """Reshuffle so that ``outcome`` is the new stock's top (the engine draws it at
        once): the engine's reshuffle follows its seed, so try seeds in a fixed order
        until one does. Each of the pile's cards is on top for about one seed in as many
        as the pile has cards.

        Each seed's top card is read from the engine's seeded order (the engine orders
        the pile by it; its top is the pile's card that comes last), and only the seed
        found is tried on a copy of the state, to check; were the engine to shuffle some
        other way, every seed is tried on a copy, as the engine does it."""
        state = _state(engine)
        base = state.seed
        tries = 200 * max(len(state.discard), 1)
        pile = set(state.discard)
        for trial in range(tries):
            order = shuffled_deck(base + trial, DRAW_RESHUFFLE, state.draws + 1)
            top = next(card for card in reversed(order) if card in pile)
            if top == outcome:
                if self._reshuffle_draws(state, base + trial) == outcome:
                    state.seed = base + trial
                    return state.apply(CHANCE_ACTION)
                break
        for trial in range(tries):
            if self._reshuffle_draws(state, base + trial) == outcome:
                state.seed = base + trial
                return state.apply(CHANCE_ACTION)
        raise RuntimeError(f"no reshuffle put {card_str(outcome)} on top")

    @staticmethod
    def _reshuffle_draws(state: RummyState, seed: int) -> int:
        """The card a reshuffle with ``seed`` makes the player draw (on a copy)."""
        probe = state.clone()
        probe.seed = seed
        events = probe.apply(CHANCE_ACTION)
        return int(next(e[2] for e in events if e[0] == "drew"))

    def truncated(self, config: EnvConfig, engine: GameState) -> bool:
        return len(_state(engine).actions) > int(config.extra["max_moves"])

    def after_round(self, config: EnvConfig, engine: GameState, carry: Any) -> Any:
        return _obs(engine, None).scores

    def round_rewards(
        self, config: EnvConfig, engine: GameState, before: Any, after: Any
    ) -> list[float]:
        obs = _obs(engine, None)
        rewards = [0.0] * config.players
        if obs.winner < 0 or not engine.is_terminal():
            return rewards
        double = 2 if obs.going_rummy else 1
        for seat, mask in obs.shown:
            rewards[seat] = -float(hand_points(mask) * double)
        rewards[obs.winner] = float(obs.hand_points[obs.winner])
        return rewards

    def next_round(
        self, table: Table, seed: int, settlement: Sequence[int] | None = None
    ) -> NextRound:
        config, carry = table.config, table.carry
        over = max(carry) >= self.target(config) or table.rounds >= config.extra["max_hands"]
        return carry, (table.dealer + 1) % config.players, over, []

    def cut_short(self, config: EnvConfig, carry: Any, rounds: int) -> bool:
        return bool(max(carry) < self.target(config))

    def game_returns(self, config: EnvConfig, start: Any, end: Any) -> list[float]:
        gains = [float(e - s) for e, s in zip(end, start, strict=True)]
        mean = sum(gains) / len(gains)
        return [g - mean for g in gains]

    # ------------------------------------------------------------------ bounds

    def utility_bounds(self, config: EnvConfig) -> tuple[float, float]:
        if config.length == "round":
            return -float(MAX_HAND_POINTS), float(MAX_HAND_POINTS)
        # Scores stay below the target until the last hand, which adds at most one hand.
        bound = float(self.target(config) + MAX_HAND_POINTS)
        return -bound, bound

    def _hands(self, config: EnvConfig) -> int:
        return 1 if config.length == "round" else int(config.extra["max_hands"])

    def max_decisions(self, config: EnvConfig) -> int:
        return self._hands(config) * int(config.extra["max_moves"])

    def max_chance_nodes(self, config: EnvConfig) -> int:
        # The deal, a stock draw at most every decision, and one reshuffle a hand.
        per_hand = self.cards_per_deal(config, None) + int(config.extra["max_moves"]) + 1
        return (config.dealer is None) + self._hands(config) * per_hand

    def num_exact_actions(self, config: EnvConfig) -> int:
        return act.NUM_ACTIONS

    # ------------------------------------------------------------------ tensors

    def _layout(self, config: EnvConfig) -> Layout:
        n = config.players
        return Layout(
            [
                ("hand", 52),
                ("discard_pile", 52),
                ("discard_top", 52),
                ("melded", 52),
                ("fits", 52),
                ("taken", 52),
                ("shown", 52 * n),
                ("card_counts", n),
                ("stock_count", 1),
                ("scores", n),
                ("phase", len(PHASE_NAMES)),
                ("to_move", n + 2),
                ("turn", n + 1),
                ("dealer", n),
                ("reshuffles", 1),
                ("played_before", n),
                ("melded_this_turn", 1),
                ("played_this_turn", 1),
                ("winner", n + 1),
                ("going_rummy", 1),
                ("stalemate", 1),
                ("hand_no", 1),
            ]
        )

    def _tensor(self, config: EnvConfig) -> RummyFeatures:
        # Scores over the most a score can reach (the target, then one last hand): <= 1.
        scale = float(self.target(config) + MAX_HAND_POINTS)
        return RummyFeatures(config.players, self.layout(config).offset, scale, self._hands(config))

    def _history_layout(self, config: EnvConfig) -> Layout:
        n = config.players
        return Layout(
            [
                ("dealt_hand", 52),
                ("my_stock_draws", 52),
                ("picked_up", 52 * n),
                ("discarded", 52 * n),
                ("known_held", 52 * n),
            ]
        )

    def encode_history(self, config: EnvConfig, table: Table, seat: int, out: Vector) -> None:
        """What the seat saw happen this hand: its dealt hand and stock draws, and for
        every seat the cards it took from the discard pile, those it discarded, and those
        it is known to hold (taken from the pile and not yet played)."""
        at = self.history_layout(config).offset
        n = config.players
        from rummoli.envs.rummy.sampler import known_held
        from rummoli.games.rummy.view import is_visible

        for who, event in table.round_log():
            if who >= 0 or not is_visible(event, seat):
                continue
            kind = event[0]
            if kind == "hand" and event[1] == seat:
                put_cards(out, at["dealt_hand"], event[2])
            elif kind == "drew":
                out[at["my_stock_draws"] + event[2]] = 1.0
            elif kind == "draw_discard":
                r = relative(event[1], seat, n)
                out[at["picked_up"] + 52 * r + event[2]] = 1.0
            elif kind == "discard":
                r = relative(event[1], seat, n)
                out[at["discarded"] + 52 * r + event[2]] = 1.0
        for other, held in enumerate(known_held(table, seat)):
            put_cards(out, at["known_held"] + 52 * relative(other, seat, n), held)

    # ------------------------------------------------------------------ resampling

    def resample_round(self, table: Table, seat: int, rng: random.Random) -> list[int] | None:
        from rummoli.envs.rummy.sampler import resample_hand

        return resample_hand(table, seat, rng)

    def hidden_cards(self, table: Table, seat: int) -> int:
        from rummoli.envs.rummy.sampler import known_held

        state = _state(table.engine) if table.engine is not None else None
        assert state is not None
        hidden = 0
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden |= hand
        for card in state.stock:
            hidden |= 1 << card
        for held in known_held(table, seat):
            hidden &= ~held
        return hidden


ADAPTER = RummyAdapter()
