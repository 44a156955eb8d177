"""Basic Rummy's observation tensor as numbers: its card and seat-flag fields as masks,
and its other fields (one-hots included) as (position, value) pairs.

Why a module of its own: the tensor is written at every step of every environment, and
this is its arithmetic. It imports nothing but the engine (standard library only, no
numpy), so that mypyc compiles it with the engine (:mod:`rummoli.compiled`) and a
compiled install still imports without the ``rl`` extra; the table turns the result into
the float32 vector (:mod:`rummoli.envs.writers`). The layout (field names, offsets,
widths) is the adapter's, passed in as ``at``; ``docs/environments.md`` tabulates it.
"""

from __future__ import annotations

from rummoli.engine.base import CHANCE, TERMINAL, GameState
from rummoli.envs.feature_parts import one_hot, relative
from rummoli.games.rummy.melds import fit_mask
from rummoli.games.rummy.state import PHASE_NAMES, RummyState


class RummyFeatures:
    """The features of Basic Rummy's tensor for one layout (its offsets, as native
    attributes) and settings: ``score_scale``, the most a score can reach; ``hands``,
    the hands of the length played (for ``hand_no``). Called with ``(engine, seat)``,
    as a table asks."""

    def __init__(self, players: int, at: dict[str, int], score_scale: float, hands: int) -> None:
        self.players = players
        self.score_scale = score_scale
        self.hands = hands
        self.card_counts = at["card_counts"]
        self.scores = at["scores"]
        self.played_before = at["played_before"]
        self.stock_count = at["stock_count"]
        self.phase = at["phase"]
        self.to_move = at["to_move"]
        self.turn = at["turn"]
        self.dealer = at["dealer"]
        self.winner = at["winner"]
        self.reshuffles = at["reshuffles"]
        self.melded_this_turn = at["melded_this_turn"]
        self.played_this_turn = at["played_this_turn"]
        self.going_rummy = at["going_rummy"]
        self.stalemate = at["stalemate"]
        self.hand_no = at["hand_no"]

    def __call__(self, engine: GameState, seat: int) -> tuple[list[int], list[int], list[float]]:
        """``(masks, positions, values)`` of what ``seat`` sees of ``engine`` (the engine's
        observation of it, :data:`~rummoli.envs.adapters.Features`): every card field and
        seat flag field as an ``(offset, mask)`` pair of ``masks``, every one-hot and other
        nonzero field as ``values[k]`` at ``positions[k]``."""
        assert isinstance(engine, RummyState), type(engine)
        obs = engine.observation(seat)
        n = self.players
        pile = 0
        for card in obs.discard:
            pile |= 1 << card
        melded = 0
        fits = 0
        for meld in obs.melds:
            melded |= meld
            fits |= fit_mask(meld)
        masks = [0, obs.hand, 52, pile, 156, melded, 208, fits]
        positions: list[int] = []
        values: list[float] = []
        if obs.discard:
            positions.append(104 + obs.discard[-1])
            values.append(1.0)
        if obs.taken >= 0:
            positions.append(260 + obs.taken)
            values.append(1.0)
        for who, mask in obs.shown:
            masks.append(312 + 52 * relative(who, seat, n))
            masks.append(mask)
        counts = self.card_counts
        scores = self.scores
        played = 0
        for s in range(n):
            r = relative(s, seat, n)
            count = obs.card_counts[s]
            if count:
                positions.append(counts + r)
                values.append(count / 52.0)
            score = obs.scores[s]
            if score:
                positions.append(scores + r)
                values.append(score / self.score_scale)
            if obs.played_before[s]:
                played |= 1 << r
        masks.append(self.played_before)
        masks.append(played)
        if obs.stock_count:
            positions.append(self.stock_count)
            values.append(obs.stock_count / 52.0)
        positions.append(self.phase + PHASE_NAMES.index(obs.phase))
        values.append(1.0)
        to_move = obs.to_move
        if to_move == TERMINAL:
            index = n + 1
        elif to_move == CHANCE:
            index = n
        else:
            index = relative(to_move, seat, n)
        one_hot(positions, values, self.to_move, index, n + 2)
        turn = n if obs.turn < 0 else relative(obs.turn, seat, n)
        one_hot(positions, values, self.turn, turn, n + 1)
        one_hot(positions, values, self.dealer, relative(obs.dealer, seat, n), n)
        winner = n if obs.winner < 0 else relative(obs.winner, seat, n)
        one_hot(positions, values, self.winner, winner, n + 1)
        if obs.reshuffles:
            positions.append(self.reshuffles)
            values.append(float(obs.reshuffles))
        flags = (
            (self.melded_this_turn, obs.melded_this_turn),
            (self.played_this_turn, obs.played_this_turn),
            (self.going_rummy, obs.going_rummy),
            (self.stalemate, obs.stalemate),
        )
        for position, flag in flags:
            if flag:
                positions.append(position)
                values.append(1.0)
        if obs.hand_no:
            positions.append(self.hand_no)
            values.append(obs.hand_no / max(self.hands, 1))
        return masks, positions, values
