"""The environments' per-step buffers, written without numpy, in compiled code.

Why a module of its own: a PettingZoo step builds an action mask of every action of the
game (914 for four Rummoli players, 1,268 for Basic Rummy) with a one for each legal
action. ``np.zeros`` and an indexed assignment from a Python list cost two microseconds
(the list is turned into an index array first); a ``bytearray`` written here by mypyc's
compiled loop, then seen by numpy through ``np.frombuffer`` (no copy), costs a fifth of
that. Standard library only, so that a compiled install imports it without the ``rl``
extra (:mod:`rummoli.compiled`).

The same for an observation tensor given as features (``envs/<game>_features.py``):
unpacking the bits with numpy, casting them and scattering the other values cost three
numpy calls and their argument conversions (about three microseconds, as much as the
features themselves); :func:`features_floats` writes the float32 values into an
``array`` here, which numpy then reads in place.
"""

from __future__ import annotations

from array import array


def action_mask(size: int, legal: list[int]) -> bytearray:
    """``size`` bytes, 1 at each action of ``legal`` and 0 elsewhere (an action outside
    ``0..size-1`` raises ``IndexError``, as numpy's indexing does for a positive one)."""
    mask = bytearray(size)
    for action in legal:
        if not 0 <= action < size:
            raise IndexError(f"action {action} is outside the mask's 0..{size - 1}")
        mask[action] = 1
    return mask


def features_floats(
    size: int, bits: int, positions: list[int], values: list[float]
) -> array[float]:
    """The float32 tensor of ``size`` that the features ``(bits, positions, values)``
    stand for: 1.0 at each set bit ``i`` of ``bits`` (``i < size``), then ``values[k]``
    at ``positions[k]``, 0.0 elsewhere (an ``array`` of type code ``f``). The same
    numbers as :func:`rummoli.envs.encode.features_tensor`: a value is rounded to float32
    as numpy rounds it (to nearest)."""
    out = array("f", bytes(4 * size))
    raw = bits.to_bytes((size + 7) // 8, "little")
    for index in range(len(raw)):
        byte = raw[index]
        if byte:
            base = 8 * index
            for bit in range(8):
                if byte >> bit & 1 and base + bit < size:
                    out[base + bit] = 1.0
    for k in range(len(positions)):
        out[positions[k]] = values[k]
    return out
