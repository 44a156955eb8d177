"""Basic Rummy's observation tensor as numbers: its 0/1 fields as the bits of one integer,
and its other fields as (position, value) pairs.

Why a module of its own: the tensor is written at every step of every environment, and
this is its arithmetic. It imports nothing but the engine (standard library only, no
numpy), so that mypyc compiles it with the engine (:mod:`rummoli.compiled`) and a
compiled install still imports without the ``rl`` extra; the adapter
(:mod:`rummoli.envs.rummy`) turns the result into the float32 vector with two numpy
calls (:func:`rummoli.envs.encode.put_features`). The layout (field names, offsets,
widths) is the adapter's, passed in as ``at``; ``docs/environments.md`` tabulates it.
"""

from __future__ import annotations

from rummoli.engine.base import CHANCE, TERMINAL
from rummoli.games.rummy.melds import fit_mask
from rummoli.games.rummy.state import PHASE_NAMES
from rummoli.games.rummy.view import RummyObservation


def _relative(seat: int, me: int, players: int) -> int:
    """A seat as seen from ``me`` (0: ``me``, then clockwise); -1 stays -1."""
    return (seat - me) % players if seat >= 0 else -1


def _one(start: int, index: int, width: int) -> int:
    """The bit of a one-hot of ``index`` in a field of ``width`` at ``start`` (none
    for an index outside it)."""
    return 1 << (start + index) if 0 <= index < width else 0


def rummy_features(
    obs: RummyObservation,
    seat: int,
    players: int,
    at: dict[str, int],
    score_scale: float,
    hands: int,
) -> tuple[int, list[int], list[float]]:
    """``(bits, positions, values)`` of ``seat``'s observation ``obs``: every 0/1 field
    as a bit of ``bits`` (bit ``i``: tensor position ``i``), every other nonzero field as
    ``values[k]`` at ``positions[k]``. ``score_scale``: the most a score can reach;
    ``hands``: the hands of the length played (for ``hand_no``)."""
    n = players
    pile = 0
    for card in obs.discard:
        pile |= 1 << card
    melded = 0
    fits = 0
    for meld in obs.melds:
        melded |= meld
        fits |= fit_mask(meld)
    bits = obs.hand | pile << 52 | melded << 156 | fits << 208
    if obs.discard:
        bits |= 1 << (104 + obs.discard[-1])
    if obs.taken >= 0:
        bits |= 1 << (260 + obs.taken)
    for who, mask in obs.shown:
        bits |= mask << (312 + 52 * _relative(who, seat, n))
    positions: list[int] = []
    values: list[float] = []
    counts = at["card_counts"]
    scores = at["scores"]
    played = at["played_before"]
    for s in range(n):
        r = _relative(s, seat, n)
        count = obs.card_counts[s]
        if count:
            positions.append(counts + r)
            values.append(count / 52.0)
        score = obs.scores[s]
        if score:
            positions.append(scores + r)
            values.append(score / score_scale)
        if obs.played_before[s]:
            bits |= 1 << (played + r)
    if obs.stock_count:
        positions.append(at["stock_count"])
        values.append(obs.stock_count / 52.0)
    bits |= 1 << (at["phase"] + PHASE_NAMES.index(obs.phase))
    to_move = obs.to_move
    if to_move == TERMINAL:
        index = n + 1
    elif to_move == CHANCE:
        index = n
    else:
        index = _relative(to_move, seat, n)
    bits |= _one(at["to_move"], index, n + 2)
    turn = n if obs.turn < 0 else _relative(obs.turn, seat, n)
    bits |= _one(at["turn"], turn, n + 1)
    bits |= _one(at["dealer"], _relative(obs.dealer, seat, n), n)
    winner = n if obs.winner < 0 else _relative(obs.winner, seat, n)
    bits |= _one(at["winner"], winner, n + 1)
    if obs.reshuffles:
        positions.append(at["reshuffles"])
        values.append(float(obs.reshuffles))
    if obs.melded_this_turn:
        bits |= 1 << at["melded_this_turn"]
    if obs.played_this_turn:
        bits |= 1 << at["played_this_turn"]
    if obs.going_rummy:
        bits |= 1 << at["going_rummy"]
    if obs.stalemate:
        bits |= 1 << at["stalemate"]
    if obs.hand_no:
        positions.append(at["hand_no"])
        values.append(obs.hand_no / max(hands, 1))
    return bits, positions, values
