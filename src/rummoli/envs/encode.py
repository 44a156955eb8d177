"""Writing a seat's view as a flat float32 tensor: named fields, cards as 52 bits.

Each game's adapter declares its tensor as a :class:`Layout` (fields in order, each with a
size), so the documentation, the tests and the encoder read the same table, and a field
is written by name. Cards are bits in the engine's card order (``rank + 13 * suit``, ranks
2..A, suits C D H S); seats are relative to the observing seat (itself first, then
clockwise), so one policy can sit in any chair.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rummoli.envs.adapters import Vector


class Layout:
    """Named fields of a flat tensor, in order."""

    def __init__(self, fields: Sequence[tuple[str, int]]) -> None:
        self.fields = tuple(fields)
        self.offset: dict[str, int] = {}
        self.width: dict[str, int] = {}
        position = 0
        for name, width in self.fields:
            if name in self.offset:
                raise ValueError(f"field {name} twice in a layout")
            self.offset[name] = position
            self.width[name] = width
            position += width
        self.size = position

    def view(self, out: Vector, name: str) -> Vector:
        start = self.offset[name]
        return out[start : start + self.width[name]]

    def describe(self) -> list[tuple[str, int, int]]:
        """``(field, offset, width)`` for each field: what the docs tabulate."""
        return [(name, self.offset[name], width) for name, width in self.fields]


def put_cards(out: Vector, start: int, mask: int) -> None:
    """Set the 52 bits of a card mask at ``out[start:start + 52]``."""
    if mask:
        raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
        out[start : start + 52] = np.unpackbits(raw, bitorder="little")[:52]


def put_bits(out: Vector, start: int, bits: int, width: int) -> None:
    """Set ``width`` bits of one big integer at ``out[start:]``: several card masks side
    by side (``hand | laid << 52 | ...``) written with one call, not one call each."""
    raw = np.frombuffer(bits.to_bytes((width + 7) // 8, "little"), dtype=np.uint8)
    out[start : start + width] = np.unpackbits(raw, bitorder="little")[:width]


def put_one(out: Vector, start: int, index: int, width: int) -> None:
    """A one-hot of ``index`` in a field of ``width`` (nothing for an index outside it)."""
    if 0 <= index < width:
        out[start + index] = 1.0


def relative(seat: int, me: int, players: int) -> int:
    """A seat as seen from ``me``: 0 is ``me``, 1 the next clockwise, ... (-1 stays -1)."""
    return (seat - me) % players if seat >= 0 else -1
