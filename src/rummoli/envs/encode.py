"""Writing a seat's view as a flat float32 tensor: named fields, cards as 52 bits.

Each game's adapter declares its tensor as a :class:`Layout` (fields in order, each with a
size), so the documentation, the tests and the encoder read the same table, and a field
is written by name. Cards are bits in the engine's card order (``rank + 13 * suit``, ranks
2..A, suits C D H S); seats are relative to the observing seat (itself first, then
clockwise), so one policy can sit in any chair.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence

import numpy as np

from rummoli.engine.base import GameState
from rummoli.envs.adapters import EnvConfig, Features, GameAdapter, Vector


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


def features_bits(masks: Sequence[int]) -> int:
    """The features' ``(offset, mask)`` pairs as one integer: bit ``i`` is position ``i``."""
    bits = 0
    for j in range(0, len(masks), 2):
        bits |= masks[j + 1] << masks[j]
    return bits


def put_features(
    out: Vector, masks: Sequence[int], positions: Sequence[int], values: Sequence[float]
) -> None:
    """Write a whole tensor from its features (:data:`~rummoli.envs.adapters.Features`):
    1.0 at each position of a mask, then ``values[k]`` at ``positions[k]``.

    Two numpy calls whatever the layout, where a write per field cost a numpy call each
    (a step of an environment writes one tensor at least)."""
    size = len(out)
    raw = np.frombuffer(features_bits(masks).to_bytes((size + 7) // 8, "little"), np.uint8)
    out[:] = np.unpackbits(raw, count=size, bitorder="little")
    if positions:
        out[positions if isinstance(positions, list) else list(positions)] = values


def features_tensor(
    size: int, masks: list[int], positions: list[int], values: list[float]
) -> Vector:
    """A new float32 tensor of ``size`` from its features (see :func:`put_features`):
    made by the unpacking itself, with no zeroed vector written over. The reference the
    buffers' writers are tested against."""
    raw = np.frombuffer(features_bits(masks).to_bytes((size + 7) // 8, "little"), np.uint8)
    out: Vector = np.unpackbits(raw, count=size, bitorder="little").astype(np.float32)
    if positions:
        out[positions] = values
    return out


class LaidOutAdapter(GameAdapter):
    """An adapter whose tensor is a :class:`Layout` written from its features: both games'
    adapters. The layout is made once per settings (:meth:`_layout`), and the tensor is
    the features' (:meth:`features_maker`), so the two ways of reading a seat's view can
    never disagree."""

    @abstractmethod
    def _layout(self, config: EnvConfig) -> Layout: ...

    @abstractmethod
    def _tensor(self, config: EnvConfig) -> Callable[[GameState, int], Features]:
        """The features' maker for these settings: what the encoder needs of them,
        derived once (it runs at every step)."""

    @abstractmethod
    def _history_layout(self, config: EnvConfig) -> Layout:
        """The fields the information state adds after the observation's."""

    def layout(self, config: EnvConfig) -> Layout:
        return self.cached(config, "layout", lambda: self._layout(config))  # type: ignore[no-any-return]

    def features_maker(self, config: EnvConfig) -> Callable[[GameState, int], Features]:
        return self.cached(config, "tensor", lambda: self._tensor(config))  # type: ignore[no-any-return]

    def history_layout(self, config: EnvConfig) -> Layout:
        """:meth:`_history_layout`, made once per settings."""
        return self.cached(config, "history", lambda: self._history_layout(config))  # type: ignore[no-any-return]

    def info_extra_size(self, config: EnvConfig) -> int:
        return self.history_layout(config).size

    def tensor_fields(self, config: EnvConfig, perfect_recall: bool) -> list[tuple[str, int, int]]:
        fields = self.layout(config).describe()
        if perfect_recall:
            size = self.layout(config).size
            history = self.history_layout(config).describe()
            fields += [(name, size + offset, width) for name, offset, width in history]
        return fields

    def observation_size(self, config: EnvConfig) -> int:
        return self.layout(config).size

    def encode_observation(
        self, config: EnvConfig, engine: GameState | None, seat: int, out: Vector
    ) -> None:
        if engine is not None:
            put_features(out, *self.features_maker(config)(engine, seat))
