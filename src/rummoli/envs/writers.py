"""The writers of the environments' per-step buffers this install runs.

Why a module of its own: the same two functions exist twice, in C
(``_cbuffers.c``, built beside the compiled modules when a C compiler is here) and in
Python (:mod:`rummoli.envs.buffers`, compiled by mypyc where it can be, the reference
and the fallback). They give the same bytes (``tests/envs/test_tensors.py``); the C
ones take a tenth of the time, since mypyc has no native store into a buffer. A plain
Python install, and a process switched to the sources
(:func:`rummoli.compiled.use_plain_python`), runs the Python ones.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Union

from rummoli.envs import buffers

#: A tensor's float32 bytes, as numpy reads them in place (``np.frombuffer``).
Floats = Union[bytearray, "array[float]"]

features_floats: Callable[[int, list[int], list[int], list[float]], Floats]
action_mask: Callable[[int, list[int]], bytearray]
WRITER: str
try:
    from rummoli.envs import _cbuffers
except ImportError:  # not built (no compiler, RUMMOLI_PURE), or built for another Python
    features_floats, action_mask, WRITER = buffers.features_floats, buffers.action_mask, "python"
else:
    features_floats, action_mask, WRITER = _cbuffers.features_floats, _cbuffers.action_mask, "c"

__all__ = ["WRITER", "Floats", "action_mask", "features_floats"]
