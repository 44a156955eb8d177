"""What both games' observation features are made of: a seat seen from another, and a
one-hot as a (position, value) pair.

Why a module of its own: the features (``envs/<game>_features.py``) and the adapters'
tensors (``envs/encode.py``, which imports numpy) all ask it, and the features modules
are compiled by mypyc with the engine and must import no numpy; compiled in the same
group, the calls stay native.
"""

from __future__ import annotations


def relative(seat: int, me: int, players: int) -> int:
    """A seat as seen from ``me``: 0 is ``me``, 1 the next clockwise, ... (-1 stays -1)."""
    return (seat - me) % players if seat >= 0 else -1


def one_hot(positions: list[int], values: list[float], start: int, index: int, width: int) -> None:
    """A one-hot of ``index`` in a field of ``width`` at ``start``, appended as a
    position with the value 1.0 (nothing for an index outside the field)."""
    if 0 <= index < width:
        positions.append(start + index)
        values.append(1.0)
