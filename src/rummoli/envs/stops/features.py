"""The Stops family's observation tensor as numbers: its card and seat-flag fields as masks, and
its other fields (one-hots included) as (position, value) pairs.

Why a module of its own: the tensor is written at every step of every environment, and
this is its arithmetic. It imports nothing but the engine (standard library only, no
numpy), so that mypyc compiles it with the engine (:mod:`rummoli.compiled`) and a
compiled install still imports without the ``rl`` extra; the table turns the result into
the float32 vector (:mod:`rummoli.envs.writers`). The layout (field names, offsets,
widths) is the adapter's, passed in as ``at``; ``docs/environments.md`` tabulates it.
"""

from __future__ import annotations

from typing import Any, Final

from rummoli.engine.base import CHANCE, TERMINAL, GameState
from rummoli.envs.feature_parts import one_hot, relative
from rummoli.games.stops.state import PHASE_NAMES, StopsState

#: The value of the ``laid_order`` field for the k-th card laid (k from 1): k / 52.
_ORDER_VALUES: Final[tuple[Any, ...]] = tuple(k / 52.0 for k in range(53))
#: 1.0 as one Python object.
_ONE: Final[Any] = 1.0


def _who(seat: int, me: int, players: int) -> int:
    """A seat relative to ``me`` for the one-hots with a last slot for "none" (-1) and,
    for ``to_move``, one more for the end (chance is "none")."""
    if seat == TERMINAL:
        return players + 1
    if seat < 0 or seat == CHANCE:
        return players
    return (seat - me) % players


class StopsFeatures:
    """The features of a family game's tensor for one layout (its offsets, as native
    attributes: looked up in a dict, they were a sixth of the time) and settings:
    ``total``, all the chips in play; ``rounds``, the rounds of the length played (for
    ``round``). Called with ``(engine, seat)``, as a table asks."""

    def __init__(self, players: int, at: dict[str, int], total: float, rounds: int) -> None:
        self.players = players
        self.total = total
        self.rounds = rounds
        self.laid = at["laid"]
        self.known_widow = at["known_widow"]
        self.laid_by = at["laid_by"]
        self.laid_order = at["laid_order"]
        self._laid_positions: list[Any] = [self.laid_order + card for card in range(52)]
        self._laid_by_positions: list[Any] = [self.laid_by + i for i in range(52 * players)]
        self.last_laid = at["last_laid"]
        self.shown = at["shown"]
        self.phase = at["phase"]
        self.to_move = at["to_move"]
        self.dealer = at["dealer"]
        self.chips = at["chips"]
        self.card_counts = at["card_counts"]
        self.bets = at["bets"]
        self.in_round = at["in_round"]
        self.out = at["out"]
        self.auction_passed = at["auction_passed"]
        self.folded = at["folded"]
        self.poker_winners = at["poker_winners"]
        self.widow_count = at["widow_count"]
        self.board = at["board"]
        self.widow_taker = at["widow_taker"]
        self.auction_high = at["auction_high"]
        self.auction_high_bidder = at["auction_high_bidder"]
        self.high_bet = at["high_bet"]
        self.leader = at["leader"]
        self.round_winner = at["round_winner"]
        self.deadlocked = at["deadlocked"]
        self.round = at["round"]
        #: The turned card's field, in a game that turns one for trumps (-1: none).
        self.turned = at.get("turned", -1)

    def __call__(self, engine: GameState, seat: int) -> tuple[list[int], list[int], list[float]]:
        """``(masks, positions, values)`` of what ``seat`` sees of ``engine`` (the engine's
        observation of it, :data:`~rummoli.envs.adapters.Features`): every card field and
        seat flag field as an ``(offset, mask)`` pair of ``masks``, every one-hot and other
        nonzero field as ``values[k]`` at ``positions[k]``."""
        assert isinstance(engine, StopsState), type(engine)
        obs = engine.observation(seat)
        n = self.players
        total = self.total
        positions: list[Any] = []
        values: list[Any] = []
        masks = [0, obs.hand, self.laid, obs.laid_mask, self.known_widow, obs.known_widow]
        # Each laid card's two fields (who laid it, and when) as ready-made Python
        # objects (``Any``, so that compiled code appends them as they are): a new int
        # and a new float a card, and a mask a seat rebuilt a card, were most of the
        # time of a finished round's tensor.
        at_laid = self._laid_positions
        at_laid_by = self._laid_by_positions
        order_values = _ORDER_VALUES
        order = 1
        for who, card in obs.laid:
            positions.append(at_laid_by[52 * relative(who, seat, n) + card])
            values.append(_ONE)
            positions.append(at_laid[card])
            values.append(order_values[order])
            order += 1
        if obs.laid:
            positions.append(self.last_laid + obs.laid[-1][1])
            values.append(1.0)
        shown = self.shown
        for who, five in obs.shown:
            masks.append(shown + 52 * relative(who, seat, n))
            masks.append(five)
        positions.append(self.phase + PHASE_NAMES.index(obs.phase))
        values.append(1.0)
        one_hot(positions, values, self.to_move, _who(obs.to_move, seat, n), n + 2)
        one_hot(positions, values, self.dealer, relative(obs.dealer, seat, n), n)
        chips = self.chips
        counts = self.card_counts
        bets = self.bets
        # The seats' flags, a small mask each field.
        in_round = out = passed = folded = winners = 0
        for r in range(n):
            s = (seat + r) % n
            if obs.chips[s]:
                positions.append(chips + r)
                values.append(obs.chips[s] / total)
            if obs.card_counts[s]:
                positions.append(counts + r)
                values.append(obs.card_counts[s] / 52.0)
            if s in obs.in_round:
                in_round |= 1 << r
            if obs.out[s]:
                out |= 1 << r
            if s in obs.auction_passed:
                passed |= 1 << r
            if obs.bets[s]:
                positions.append(bets + r)
                values.append(obs.bets[s] / total)
            if obs.folded[s]:
                folded |= 1 << r
            if s in obs.poker_winners:
                winners |= 1 << r
        masks.extend(
            [
                self.in_round, in_round,
                self.out, out,
                self.auction_passed, passed,
                self.folded, folded,
                self.poker_winners, winners,
            ]
        )  # fmt: skip
        if obs.widow_count:
            positions.append(self.widow_count)
            values.append(obs.widow_count / 52.0)
        board = self.board
        for i, space in enumerate(obs.board):
            if space:
                positions.append(board + i)
                values.append(space / total)
        one_hot(positions, values, self.widow_taker, _who(obs.widow_taker, seat, n), n + 1)
        if obs.auction_high:
            positions.append(self.auction_high)
            values.append(obs.auction_high / total)
        one_hot(
            positions,
            values,
            self.auction_high_bidder,
            _who(obs.auction_high_bidder, seat, n),
            n + 1,
        )
        if obs.high_bet:
            positions.append(self.high_bet)
            values.append(obs.high_bet / total)
        one_hot(positions, values, self.leader, _who(obs.leader, seat, n), n + 1)
        one_hot(positions, values, self.round_winner, _who(obs.round_winner, seat, n), n + 1)
        if obs.deadlocked:
            positions.append(self.deadlocked)
            values.append(1.0)
        if obs.round_no:
            positions.append(self.round)
            values.append(obs.round_no / max(self.rounds, 1))
        if self.turned >= 0 and obs.turned >= 0:
            positions.append(self.turned + obs.turned)
            values.append(1.0)
        return masks, positions, values
