"""One game for the learning environments: the engine, with its chance made explicit.

The engine draws its cards from its own seed, as one "deal" step: right for replays and
simulations, wrong for learning algorithms, which must see a deal as unknown. A
:class:`Table` puts an explicit chance layer in front of the engine: the first dealer
(every seat alike, as a fair cut is) and then every card of a deal, one at a time, each
remaining card equally likely; when a round's cards are drawn it builds the engine's game
from a fixed setup (``stored_game``, as the scenario runner does) and lets the engine
referee the round. Chance the engine still hides in a round (Basic Rummy's stock draws
and reshuffle) is made explicit by the game's adapter. A whole game is a sequence of such
rounds, the carry (chips and board, or scores) passed from one to the next.

Every front end (OpenSpiel, PettingZoo, Gymnasium) drives a Table; nothing here names a
game: what differs is asked of the game's :class:`~rummoli.envs.adapters.GameAdapter`.

Player ids follow the engine (:data:`~rummoli.engine.base.CHANCE` -1,
:data:`~rummoli.engine.base.TERMINAL` -2); the OpenSpiel front end maps them to
OpenSpiel's (-1 chance, -4 terminal).
"""

from __future__ import annotations

import importlib
import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex, cast

from rummoli.engine.base import (
    CHANCE,
    CHANCE_ACTION,
    TERMINAL,
    Event,
    GameState,
    IllegalActionError,
)
from rummoli.engine.rng import SeededRandom
from rummoli.envs.chance import deal, history_seed
from rummoli.envs.writers import action_mask, features_floats

if TYPE_CHECKING:
    # Types only: the adapters (and numpy) are imported when a table is made, so that
    # importing this compiled module (every Ray worker checks the compiled modules) needs
    # neither.
    from rummoli.envs.adapters import EnvConfig, GameAdapter, NextRound, Vector

# What the table waits for.
DEALER, DEAL, PLAY, PENDING, ENGINE_CHANCE, OVER, SETTLE = range(7)
PHASES = ("dealer", "deal", "play", "pending", "engine_chance", "over", "settle")

#: A log entry: (-1, an engine event) or (seat, the text of that seat's decision).
LogEntry = tuple[int, Any]

#: The line of an information state between what the seat saw happen and what it sees now.
NOW = "now:"


def _replayed(config: EnvConfig, history: Sequence[int], keep_log: bool) -> Table:
    table = Table.replay(config, history)
    table.keep_log = keep_log
    return table


def _whole(action: object) -> int:
    """``action`` as a Python int: a whole number, Python's or numpy's (a front end may
    pass either); anything else is refused, changing nothing."""
    if type(action) is int:
        return action
    if not isinstance(action, (bool, float)):
        try:
            return operator.index(cast(SupportsIndex, action))
        except TypeError:
            pass
    raise IllegalActionError(f"an action is a whole number, not {action!r}")


class Table:
    """One game (of one round, or whole) with explicit chance, for the environments.

    Compiled with the engine (:mod:`rummoli.compiled`): its step is most of what an
    environment does besides the engine's own work, and it calls the adapter and numpy
    only through their Python objects."""

    def __new__(cls, *args: object, **kwargs: object) -> Table:
        # Explicit, so that ``clone`` can make a blank table without ``__init__`` when
        # mypyc compiles this module (its default constructor would run ``__init__``).
        return super().__new__(cls)

    def __init__(self, config: EnvConfig, *, keep_log: bool = True) -> None:
        self.config = config
        from rummoli.envs.adapters import adapter_for

        self.adapter: GameAdapter = adapter_for(config.game)
        #: numpy, for the tensors (imported here, not with the module: see the imports).
        self._np: Any = importlib.import_module("numpy")
        self.description = self.adapter.description()
        self.names = config.names()
        self.num_players = config.players
        self.keep_log = keep_log
        #: Which of the adapter's hooks of a step this game has (each a call per step
        #: saved where it has not: a game's adapter says so by overriding the hook).
        self._compact = config.actions == "compact"
        self._decision_chance = self.adapter.overrides("decision_chance")
        self._truncates = self.adapter.overrides("truncated")
        #: The observation tensor's size (asked at every step).
        self.observation_size = self.adapter.observation_size(config)
        #: The adapter's observation features for these settings (None: it has none).
        self._features = self.adapter.features_maker(config)
        #: Every action applied, chance outcomes included, as the front end gave them.
        self.history: list[int] = []
        #: For each item of :attr:`history`, the seat that decided it (-1: chance).
        self.movers: list[int] = []
        #: Where in :attr:`history` and in :attr:`log` the current round's deal began.
        self.round_start = 0
        self.round_log_start = 0
        self.log: list[LogEntry] = []
        self.start_carry = self.adapter.start_carry(config)
        self.carry = self.start_carry
        self.rounds = 0
        self.engine: GameState | None = None
        self.dealer = -1 if config.dealer is None else config.dealer
        self.drawn: list[int] = []
        #: The game's pack, which every deal and settlement draw is drawn from.
        self._pack: list[int] = self.adapter.deck(config)
        self._remaining: list[int] = []
        self._outcomes: list[int] = []
        self._pending = -1
        #: A whole game's settlement, when it deals cards: the sizes of its draws (each
        #: from a fresh deck) and the engine seed the game's end is settled with.
        self._settle_draws: list[int] = []
        self._settle_seed = 0
        self._settled: list[int] = []
        self.truncated_round = False
        #: Whether the game ended by an adapter's cap, not by the rules (a hand cut after
        #: ``max_moves``, a match after ``max_hands``): PettingZoo's and Gymnasium's
        #: truncation, where the rules' own end is a termination.
        self.truncated = False
        #: The table as the current round started (kept with the log, for resampling;
        #: None for the first round, whose start is a new table).
        self._origin: Table | None = None
        #: Rewards credited so far, by seat (each round's, then the game's at its end).
        self.credited = [0.0] * self.num_players
        self.phase = DEAL
        if config.dealer is None:
            self.phase = DEALER
            self._outcomes = list(range(self.num_players))
        else:
            self._start_deal()

    # ------------------------------------------------------------------ reading

    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAY:
            assert self.engine is not None
            return self.engine.current_player()
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance(self) -> bool:
        return self.phase not in (PLAY, OVER)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome of the chance node with its probability (all equally likely)."""
        outcomes = self._chance_list()
        if not outcomes:
            raise IllegalActionError("this is not a chance node")
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _chance_list(self) -> list[int]:
        if self.phase == DEAL or self.phase == SETTLE:
            return self._remaining
        if self.phase in (DEALER, PENDING, ENGINE_CHANCE):
            return self._outcomes
        return []

    def legal_actions(self) -> list[int]:
        """Legal actions of the player to move, in the configured space; chance outcomes
        at a chance node; none at the end."""
        if self.phase != PLAY:
            return list(self._chance_list())
        assert self.engine is not None
        legal = self.engine.legal_actions()
        if self._compact:
            return self.adapter.to_compact(self.engine, legal)
        return legal

    def num_actions(self) -> int:
        if self.config.actions == "compact":
            return self.adapter.num_compact_actions(self.config)
        return self.adapter.num_exact_actions(self.config)

    def action_to_text(self, player: int, action: int) -> str:
        if player < 0:
            if self.phase == DEALER:
                return f"dealer {self.names[action]}"
            from rummoli.cards import card_str

            return card_str(action) if 0 <= action < 52 else str(action)
        assert self.engine is not None
        if self.config.actions == "compact":
            return self.adapter.compact_to_text(self.engine, action)
        return self.engine.action_to_text(action)

    # ------------------------------------------------------------------ applying

    def apply(self, action: object, *, exact: bool = False) -> None:
        """Apply a legal action or chance outcome; an illegal one raises and changes
        nothing (the message names the action and what is legal). ``exact``: a decision
        given as the engine's own action whatever the configured space (the project's
        computer players answer in it)."""
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError("the game is over: no action is legal")
        if phase == PLAY:
            self._decide(action, exact)
            return
        action = _whole(action)
        outcomes = self._chance_list()
        if action not in outcomes:
            raise IllegalActionError(
                f"{action} is not an outcome of this chance node ({PHASES[phase]}); "
                f"outcomes: {outcomes[:10]}{' ...' if len(outcomes) > 10 else ''}"
            )
        self._apply_chance(phase, action)

    def _apply_chance(self, phase: int, action: int) -> None:
        """Apply ``action``, an outcome of the chance node of ``phase`` (checked)."""
        self.history.append(action)
        self.movers.append(CHANCE)
        if phase == DEALER:
            self.dealer = action
            self._start_deal()
        elif phase == DEAL:
            self._deal(action)
        elif phase == SETTLE:
            self._settle(action)
        elif phase == PENDING:
            assert self.engine is not None
            self.phase = PLAY
            self._record(self.adapter.resolve_decision(self.engine, self._pending, action))
            self._advance()
        else:
            assert self.engine is not None
            self.phase = PLAY
            self._record(self.adapter.resolve_engine_chance(self.engine, action))
            self._advance()

    def _decide(self, given: object, exact_given: bool = False) -> None:
        engine = self.engine
        assert engine is not None
        compact = self._compact and not exact_given
        legal = engine.legal_actions()
        if compact:
            legal = self.adapter.to_compact(engine, legal)
        action = _whole(given)
        if action not in legal:
            to_text = self.action_to_text if compact else lambda _, a: engine.action_to_text(a)
            texts = [to_text(0, a) for a in legal[:8]]
            raise IllegalActionError(
                f"{action} is not legal now; {self.names[engine.current_player()]} decides "
                f"among {len(legal)} actions: {', '.join(texts)}{' ...' if len(legal) > 8 else ''}"
            )
        seat = engine.current_player()
        exact = self.adapter.from_compact(engine, action) if compact else action
        self.history.append(action)
        self.movers.append(seat)
        if self.keep_log:
            self.log.append((seat, engine.action_to_text(exact)))
        if self._decision_chance:
            outcomes = self.adapter.decision_chance(engine, exact)
            if outcomes is not None:
                self._pending = exact
                self._outcomes = outcomes
                self.phase = PENDING
                return
        events = engine.apply(exact)
        if self.keep_log:
            self._record(events)
        self._advance()

    def _record(self, events: list[Event]) -> None:
        if self.keep_log:
            self.log.extend((-1, event) for event in events)

    def _start_deal(self) -> None:
        self.phase = DEAL
        self.round_start = len(self.history)
        self.round_log_start = len(self.log)
        self.drawn = []
        self._remaining = self._pack[:]
        self.truncated_round = False
        if self.keep_log and self.history:
            # A copy of the table as this round starts, for the resampler's replays of
            # the round (a whole game's later rounds were replayed from its first deal).
            self._origin = None
            self._origin = self.clone()

    def _deal(self, card: int) -> None:
        self.drawn.append(card)
        self._remaining.remove(card)
        if len(self.drawn) == self.adapter.cards_per_deal(self.config, self.carry):
            self._build_round()

    def _build_round(self) -> None:
        self.engine = self.adapter.build_round(
            self.config, self.carry, self.dealer, self.drawn, history_seed(self.history)
        )
        self.phase = PLAY
        self._advance()

    def _advance(self) -> None:
        """Take the engine's steps that need nobody: fixed chance steps, the round's end."""
        engine = self.engine
        assert engine is not None
        while True:
            player = engine.current_player()
            if player == TERMINAL:
                self._end_round()
                return
            if self._truncates and self.adapter.truncated(self.config, engine):
                self.truncated_round = True
                self._end_round()
                return
            if player != CHANCE:
                return
            outcomes = self.adapter.engine_chance(engine)
            if outcomes is not None:
                self._outcomes = outcomes
                self.phase = ENGINE_CHANCE
                return
            self._record(engine.apply(CHANCE_ACTION))

    def _end_round(self) -> None:
        engine = self.engine
        assert engine is not None
        adapter, config = self.adapter, self.config
        before = self.carry
        self.carry = adapter.after_round(config, engine, before)
        rewards = adapter.round_rewards(config, engine, before, self.carry)
        self.rounds += 1
        self.credited = [c + r for c, r in zip(self.credited, rewards, strict=True)]
        if config.length == "round":
            self.truncated = self.truncated_round
            self.phase = OVER
            return
        seed = history_seed(self.history)
        draws = adapter.settlement_draws(self, seed)
        if draws:
            # The game ends with a settlement that deals cards: each a chance node, each
            # draw from a fresh deck; the engine settles with them (_settle).
            self._settle_seed = seed
            self._settle_draws = draws
            self._settled = []
            self._remaining = self._pack[:]
            self.phase = SETTLE
            return
        self._after_round(adapter.next_round(self, seed))

    def _after_round(self, ended: NextRound) -> None:
        """Go on from :meth:`GameAdapter.next_round`'s answer: the next deal, or the end."""
        carry, dealer, over, events = ended
        self.carry = carry
        self.dealer = dealer
        self._record(events)
        if over:
            self.credited = self.adapter.game_returns(self.config, self.start_carry, carry)
            self.truncated = self.adapter.cut_short(self.config, carry, self.rounds)
            self.phase = OVER
            return
        self._start_deal()

    def _settle(self, card: int) -> None:
        """One card of the settlement's draws; the engine settles after the last."""
        self._settled.append(card)
        self._remaining.remove(card)
        draws = self._settle_draws
        done = len(self._settled)
        if done == sum(draws):
            self._after_round(self.adapter.next_round(self, self._settle_seed, self._settled))
            return
        total = 0
        for size in draws:
            total += size
            if done == total:  # this draw is complete: the next one is from a fresh deck
                self._remaining = self._pack[:]
                return

    # ------------------------------------------------------------------ fast paths

    def play_chance(self, rng: SeededRandom) -> None:
        """Take every chance step until a decision or the end, each outcome uniformly
        drawn by ``rng``: a deal in one go (the same distribution as a card at a time)."""
        while self.phase not in (PLAY, OVER):
            if self.phase == DEAL:
                need = self.adapter.cards_per_deal(self.config, self.carry) - len(self.drawn)
                cards = deal(rng, self._remaining, need)
                self.history.extend(cards)
                self.movers.extend([CHANCE] * need)
                self.drawn.extend(cards)
                if need == len(self._remaining):
                    self._remaining = []  # the whole deck dealt (Rummoli): nothing is left
                else:
                    self._remaining = sorted(set(self._remaining) - set(cards))
                self._build_round()
            else:
                # An outcome of the list itself: applied without looking it up in it.
                outcomes = self._chance_list()
                self._apply_chance(self.phase, outcomes[rng.below(len(outcomes))])

    def decide_and_play(self, action: object, rng: SeededRandom) -> None:
        """The environments' step: :meth:`apply` the decision ``action`` (checked the
        same way), then :meth:`play_chance` with ``rng``; one call where a step made two,
        each asking again what the table waits for."""
        if self.phase == PLAY:
            self._decide(action)
        else:
            self.apply(action)
        phase = self.phase
        if phase != PLAY and phase != OVER:
            self.play_chance(rng)

    def returns(self) -> list[float]:
        """What the game was worth to each seat: zero until it is over."""
        return list(self.credited) if self.phase == OVER else [0.0] * self.num_players

    # ------------------------------------------------------------------ copies

    def clone(self) -> Table:
        other = Table.__new__(Table)
        # Field by field (compiled, a table has no ``__dict__``); the lists it changes
        # in place copied, the rest shared (settings, the carry: never changed in place).
        other.config = self.config
        other.adapter = self.adapter
        other._np = self._np
        other.description = self.description
        other.names = self.names
        other.num_players = self.num_players
        other.keep_log = self.keep_log
        other._compact = self._compact
        other._decision_chance = self._decision_chance
        other._truncates = self._truncates
        other.observation_size = self.observation_size
        other._features = self._features
        other.round_start = self.round_start
        other.round_log_start = self.round_log_start
        other.start_carry = self.start_carry
        other.carry = self.carry
        other.rounds = self.rounds
        other.dealer = self.dealer
        other._pending = self._pending
        other.truncated_round = self.truncated_round
        other.truncated = self.truncated
        other.phase = self.phase
        other.history = self.history[:]
        other.movers = self.movers[:]
        other.log = self.log[:]
        other.drawn = self.drawn[:]
        other._pack = self._pack
        other._settle_draws = self._settle_draws
        other._settle_seed = self._settle_seed
        other._settled = self._settled[:]
        other._remaining = self._remaining[:]
        other._outcomes = self._outcomes[:]
        other.credited = self.credited[:]
        other._origin = self._origin
        other.engine = self.engine.clone() if self.engine is not None else None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        # OpenSpiel copies a Python game's state with ``copy.deepcopy``; the engine's own
        # ``clone`` is far cheaper, and works for its compiled classes too.
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its settings and history: replaying them rebuilds it exactly (the
        # compiled engine's objects cannot be pickled field by field).
        return (_replayed, (self.config, list(self.history), self.keep_log))

    @classmethod
    def replay(cls, config: EnvConfig, history: Sequence[int]) -> Table:
        """A table with ``history`` applied (each action checked)."""
        table = cls(config)
        for action in history:
            table.apply(int(action))
        return table

    # ------------------------------------------------------------------ what a seat knows

    def observation_string(self, seat: int, public: bool = True, private: bool = True) -> str:
        """What ``seat`` sees now, as short lines: the table's phase, then the engine's own
        view of that seat (it alone decides what a seat sees; :mod:`rummoli.envs.text`).
        ``public`` only: a spectator's view (what every seat sees); ``private`` only: what
        of the seat's view a spectator does not see (its hand, the widow it knows)."""
        from rummoli.envs.text import table_text

        return table_text(self, seat, public, private)

    def information_state_string(self, seat: int, public: bool = True, private: bool = True) -> str:
        """Everything ``seat`` has seen and done, in order (perfect recall): the events the
        engine lets it see (``events_for``, the one place that decides) and its own
        decisions (``me: ...``), after the settings, and then what it sees now.
        ``public`` only: what a spectator saw (every seat saw it); ``private`` only: the
        rest (its own cards and decisions)."""
        if not (public or private):
            return ""
        lines: list[str] = []
        if public:
            lines.append(f"{self.description.name} seat {seat} of {self.num_players} {self.config}")
            if self.config.dealer is None and self.history:
                lines.append(f"dealer {self.history[0]}")
        if public and private:
            lines.extend(self.seen(self.log, seat))
        else:
            lines.extend(self._seen_part(seat, public))
        # What it sees now, too: a position set up by the adapter shows some of what a
        # deal shows in events (Basic Rummy's upcard) only in the view.
        lines.append(NOW)
        lines.append(self.observation_string(seat, public, private))
        return "\n".join(lines)

    def seen(self, entries: Sequence[LogEntry], seat: int) -> list[str]:
        """The lines of the information state that log ``entries`` give ``seat``."""
        from rummoli.envs.text import seen_lines

        return seen_lines(entries, seat, self.names, self.description.events_for)

    def _seen_part(self, seat: int, public: bool) -> list[str]:
        """The public lines of the log (a spectator's), or the seat's others."""
        from rummoli.envs.text import seen_part

        return seen_part(self.log, seat, public, self.names, self.description.events_for)

    def observation_tensor(self, seat: int) -> Vector:
        engine = self.engine
        features = self._features
        if engine is not None and features is not None:
            # Written as float32 by C (or compiled) code, read by numpy in place.
            floats = features_floats(self.observation_size, *features(engine, seat))
            return self._np.frombuffer(floats, self._np.float32)  # type: ignore[no-any-return]
        out: Vector = self._np.zeros(self.observation_size, self._np.float32)
        self.adapter.encode_observation(self.config, self.engine, seat, out)
        return out

    def observed(self, seat: int, num_actions: int, no_actions: Any) -> dict[str, Any]:
        """What PettingZoo's AEC environment shows ``seat``: its tensor and its action
        mask, one int8 per action (``no_actions``, all zero, when it is not to move).
        Here, compiled, because an environment asks for one or two at every step."""
        if self.phase == PLAY and self.current_player() == seat:
            np = self._np
            mask = np.frombuffer(action_mask(num_actions, self.legal_actions()), np.int8)
        else:
            mask = no_actions
        return {"observation": self.observation_tensor(seat), "action_mask": mask}

    def information_state_tensor(self, seat: int) -> Vector:
        size = self.adapter.observation_size(self.config)
        out: Vector = self._np.zeros(
            size + self.adapter.info_extra_size(self.config), self._np.float32
        )
        self.adapter.encode_observation(self.config, self.engine, seat, out[:size])
        self.adapter.encode_history(self.config, self, seat, out[size:])
        return out

    def round_log(self) -> list[LogEntry]:
        """The log of the current round (from its deal on)."""
        return self.log[self.round_log_start :]

    # ------------------------------------------------------------------ resampling

    def resample(self, seat: int, rng: random.Random) -> Table:
        """A table ``seat`` cannot tell from this one (its information state is the
        same, checked), this round's hidden cards redrawn: :meth:`resample_from`."""
        return self.resample_from(seat, rng)[0]

    def resample_from(self, seat: int, rng: random.Random) -> tuple[Table, str]:
        """A table ``seat`` cannot tell from this one, and how it was found (``"sampler"``,
        ``"walk"`` or ``"same"``): never fails (:func:`rummoli.envs.replay.resample_from`)."""
        from rummoli.envs.replay import resample_from

        return resample_from(self, seat, rng)

    def replay_round(self, seat: int, outcomes: Sequence[int]) -> Table | None:
        """This round again with other chance ``outcomes``, every seat's decisions matched
        to what ``seat`` saw (:func:`rummoli.envs.replay.replay_round`)."""
        from rummoli.envs.replay import replay_round

        return replay_round(self, seat, outcomes)
