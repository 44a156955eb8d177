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

These are the reference and the fallback: ``_cbuffers.c`` writes the same bytes in C
(mypyc has no native store into a ``bytearray`` or an ``array``, so each element here is
a generic item assignment, about 40 ns), and :mod:`rummoli.envs.writers` picks it when
it was built.
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
    size: int, masks: list[int], positions: list[int], values: list[float]
) -> array[float]:
    """The float32 tensor of ``size`` that the features ``(masks, positions, values)``
    stand for: for each pair ``masks[2j], masks[2j + 1]`` (an offset and a mask of at most
    62 bits), 1.0 at ``offset + i`` for each set bit ``i`` of the mask; then ``values[k]``
    at ``positions[k]``; 0.0 elsewhere (an ``array`` of type code ``f``). A position
    outside the tensor raises ``IndexError``. The same numbers as
    :func:`rummoli.envs.encode.features_tensor`: a value is rounded to float32 as numpy
    rounds it (to nearest)."""
    out = array("f", bytes(4 * size))
    for j in range(0, len(masks), 2):
        offset = masks[j]
        mask = masks[j + 1]
        while mask:
            low = mask & -mask
            at = offset + low.bit_length() - 1
            if not 0 <= at < size:
                raise IndexError(f"position {at} is outside the tensor's 0..{size - 1}")
            out[at] = 1.0
            mask ^= low
    for k in range(len(positions)):
        at = positions[k]
        if not 0 <= at < size:
            raise IndexError(f"position {at} is outside the tensor's 0..{size - 1}")
        out[at] = values[k]
    return out
