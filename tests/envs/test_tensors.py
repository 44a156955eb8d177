"""The tensors say what docs/environments.md says, field by field (read back by name
from the layout and compared with the engine's observation of the seat)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import numpy as np
import pytest
from helpers import some_decisions

from rummoli.envs.feature_parts import relative
from rummoli.envs.table import Table


def _mask(bits: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(bits))


def _seen(game: str, seed: int) -> Iterator[tuple[Table, int, Any, Callable[[str], np.ndarray]]]:
    """At 30 decisions of random 3-player play of ``game``: the table, the seat to move,
    the engine's observation of it, and its tensor's fields by name."""
    for table in some_decisions(game, {"players": 3}, random.Random(seed), 30):
        seat = table.current_player()
        layout = table.adapter.layout(table.config)  # type: ignore[attr-defined]
        obs = table.engine.observation(seat)  # type: ignore[union-attr]
        yield table, seat, obs, partial(layout.view, table.observation_tensor(seat))


def test_rummoli_fields() -> None:
    for _, seat, obs, field in _seen("rummoli", 1):
        assert _mask(field("hand")) == obs.hand
        assert _mask(field("laid")) == obs.laid_mask
        laid_by = field("laid_by").reshape(3, 52)
        for order, (who, card) in enumerate(obs.laid):
            assert laid_by[relative(who, seat, 3), card] == 1.0
            assert field("laid_order")[card] == np.float32((order + 1) / 52)
        assert laid_by.sum() == len(obs.laid)
        assert _mask(field("last_laid")) == (1 << obs.laid[-1][1] if obs.laid else 0)
        shown = field("shown").reshape(3, 52)
        assert {(relative(s, seat, 3), f) for s, f in obs.shown} == {
            (r, _mask(shown[r])) for r in range(3) if shown[r].any()
        }
        assert field("to_move")[0] == 1.0  # the seat to move is "me"
        assert field("chips")[0] * 300 == pytest.approx(obs.chips[seat], rel=1e-5)
        assert field("round")[0] == 1.0


def test_rummy_fields() -> None:
    for table, seat, obs, field in _seen("rummy", 2):
        assert _mask(field("hand")) == obs.hand
        assert _mask(field("discard_pile")) == sum(1 << c for c in obs.discard)
        assert _mask(field("discard_top")) == (1 << obs.discard[-1] if obs.discard else 0)
        melded = 0
        for meld in obs.melds:
            melded |= meld
        assert _mask(field("melded")) == melded
        assert _mask(field("taken")) == (1 << obs.taken if obs.taken >= 0 else 0)
        assert field("stock_count")[0] == np.float32(obs.stock_count / 52)
        assert field("to_move")[0] == 1.0
        info = table.information_state_tensor(seat)
        history = table.adapter.history_layout(table.config)  # type: ignore[attr-defined]
        extra = info[table.observation_size :]
        dealt = _mask(history.view(extra, "dealt_hand"))
        assert dealt.bit_count() == 7


@pytest.mark.parametrize("writer", ["python", "c"])
def test_each_float_writer_gives_numpys_tensor(writer: str) -> None:
    # Observations are written as float32 by envs/_cbuffers.c, or by envs/buffers.py
    # where C was not built; numpy's unpacking and scattering (encode.features_tensor) is
    # the reference, to the bit.
    from rummoli.envs.encode import features_tensor

    floats_of = _writer(writer).features_floats
    rng = random.Random(5)
    for _ in range(300):
        size = rng.randrange(1, 900)
        masks: list[int] = []
        for _ in range(rng.randrange(12)):
            width = rng.randrange(1, min(size, 62) + 1)
            masks += [rng.randrange(size - width + 1), rng.getrandbits(width)]
        positions = rng.sample(range(size), min(size, rng.randrange(25)))
        values = [rng.random() * rng.choice([1.0, 1 / 52, 1e-3, 1e6]) for _ in positions]
        floats = np.frombuffer(floats_of(size, masks, positions, values), np.float32)
        assert floats.tobytes() == features_tensor(size, masks, positions, values).tobytes()


@pytest.mark.parametrize("writer", ["python", "c"])
def test_each_writer_refuses_a_position_outside_its_buffer(writer: str) -> None:
    # A layout bug must fail loudly, never write past the buffer or drop a one.
    module = _writer(writer)
    with pytest.raises(IndexError, match=r"position 10 is outside the tensor's 0\.\.9"):
        module.features_floats(10, [8, 0b100], [], [])
    with pytest.raises(IndexError, match="position 12 is outside"):
        module.features_floats(10, [], [12], [0.5])
    with pytest.raises(IndexError, match=r"action 7 is outside the mask's 0\.\.6"):
        module.action_mask(7, [1, 7])
    assert bytes(module.action_mask(4, [0, 2])) == b"\x01\x00\x01\x00"


def _writer(name: str) -> Any:
    """The buffers' writers in Python, or in C (which a compiled build must have)."""
    if name == "python":
        from rummoli.envs import buffers

        return buffers
    from rummoli import compiled

    if not compiled.compiled_modules():
        pytest.skip("a plain-Python build has no C writer (RUMMOLI_PURE)")
    from rummoli.envs import _cbuffers

    return _cbuffers
