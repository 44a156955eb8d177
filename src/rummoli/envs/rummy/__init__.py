"""Basic Rummy's part of the learning environments, as ``tui/rummy`` is the terminal's.

- :mod:`.adapter`: the game's :class:`~rummoli.envs.adapters.GameAdapter` (deal and
  stock draws as chance, caps, returns, tensors, resampling);
- :mod:`.features`: its observation tensor as numpy-free features (compiled by mypyc);
- :mod:`.sampler`: its sampler of the hidden cards.

This module imports none of them: the compiled features must import without numpy.
"""
