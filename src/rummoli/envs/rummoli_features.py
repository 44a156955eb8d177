"""Rummoli's observation tensor as numbers: its 0/1 fields as the bits of one integer,
and its other fields as (position, value) pairs.

Why a module of its own: the tensor is written at every step of every environment, and
this is its arithmetic. It imports nothing but the engine (standard library only, no
numpy), so that mypyc compiles it with the engine (:mod:`rummoli.compiled`) and a
compiled install still imports without the ``rl`` extra; the adapter
(:mod:`rummoli.envs.rummoli`) turns the result into the float32 vector with two numpy
calls (:func:`rummoli.envs.encode.put_features`). The layout (field names, offsets,
widths) is the adapter's, passed in as ``at``; ``docs/environments.md`` tabulates it.
"""

from __future__ import annotations

from rummoli.engine.base import CHANCE, TERMINAL
from rummoli.games.rummoli.state import PHASE_NAMES
from rummoli.games.rummoli.view import Observation


def _relative(seat: int, me: int, players: int) -> int:
    """A seat as seen from ``me`` (0: ``me``, then clockwise); -1 stays -1."""
    return (seat - me) % players if seat >= 0 else -1


def _who(seat: int, me: int, players: int) -> int:
    """A seat relative to ``me`` for the one-hots with a last slot for "none" (-1) and,
    for ``to_move``, one more for the end (chance is "none")."""
    if seat == TERMINAL:
        return players + 1
    if seat < 0 or seat == CHANCE:
        return players
    return (seat - me) % players


def _one(start: int, index: int, width: int) -> int:
    """The bit of a one-hot of ``index`` in a field of ``width`` at ``start`` (none
    for an index outside it)."""
    return 1 << (start + index) if 0 <= index < width else 0


def rummoli_features(
    obs: Observation, seat: int, players: int, at: dict[str, int], total: float, rounds: int
) -> tuple[int, list[int], list[float]]:
    """``(bits, positions, values)`` of ``seat``'s observation ``obs``: every 0/1 field
    as a bit of ``bits`` (bit ``i``: tensor position ``i``), every other nonzero field as
    ``values[k]`` at ``positions[k]``. ``total``: all the chips in play; ``rounds``: the
    rounds of the length played (for ``round``)."""
    n = players
    positions: list[int] = []
    values: list[float] = []
    bits = obs.hand | obs.laid_mask << at["laid"]
    laid_by = at["laid_by"]
    laid_order = at["laid_order"]
    for order, (who, card) in enumerate(obs.laid, 1):
        bits |= 1 << (laid_by + 52 * _relative(who, seat, n) + card)
        positions.append(laid_order + card)
        values.append(order / 52.0)
    if obs.laid:
        bits |= 1 << (at["last_laid"] + obs.laid[-1][1])
    bits |= obs.known_widow << at["known_widow"]
    shown = at["shown"]
    for who, five in obs.shown:
        bits |= five << (shown + 52 * _relative(who, seat, n))
    bits |= 1 << (at["phase"] + PHASE_NAMES.index(obs.phase))
    bits |= _one(at["to_move"], _who(obs.to_move, seat, n), n + 2)
    bits |= _one(at["dealer"], _relative(obs.dealer, seat, n), n)
    chips = at["chips"]
    counts = at["card_counts"]
    in_round = at["in_round"]
    out = at["out"]
    passed = at["auction_passed"]
    bets = at["bets"]
    folded = at["folded"]
    winners = at["poker_winners"]
    for r in range(n):
        s = (seat + r) % n
        if obs.chips[s]:
            positions.append(chips + r)
            values.append(obs.chips[s] / total)
        if obs.card_counts[s]:
            positions.append(counts + r)
            values.append(obs.card_counts[s] / 52.0)
        if s in obs.in_round:
            bits |= 1 << (in_round + r)
        if obs.out[s]:
            bits |= 1 << (out + r)
        if s in obs.auction_passed:
            bits |= 1 << (passed + r)
        if obs.bets[s]:
            positions.append(bets + r)
            values.append(obs.bets[s] / total)
        if obs.folded[s]:
            bits |= 1 << (folded + r)
        if s in obs.poker_winners:
            bits |= 1 << (winners + r)
    if obs.widow_count:
        positions.append(at["widow_count"])
        values.append(obs.widow_count / 52.0)
    board = at["board"]
    for i, space in enumerate(obs.board):
        if space:
            positions.append(board + i)
            values.append(space / total)
    bits |= _one(at["widow_taker"], _who(obs.widow_taker, seat, n), n + 1)
    if obs.auction_high:
        positions.append(at["auction_high"])
        values.append(obs.auction_high / total)
    bits |= _one(at["auction_high_bidder"], _who(obs.auction_high_bidder, seat, n), n + 1)
    if obs.high_bet:
        positions.append(at["high_bet"])
        values.append(obs.high_bet / total)
    bits |= _one(at["leader"], _who(obs.leader, seat, n), n + 1)
    bits |= _one(at["round_winner"], _who(obs.round_winner, seat, n), n + 1)
    if obs.deadlocked:
        bits |= 1 << at["deadlocked"]
    if obs.round_no:
        positions.append(at["round"])
        values.append(obs.round_no / max(rounds, 1))
    return bits, positions, values
