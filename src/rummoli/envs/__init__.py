"""Learning environments: the project's games for OpenSpiel, PettingZoo and Gymnasium.

An optional extra (``pip install rummoli[rl]``): nothing in the engine, the games or the
interfaces imports this package, and importing it imports none of the learning libraries.
Each front end is its own module, imported only when asked for:

- :mod:`rummoli.envs.openspiel` registers ``python_<game>`` (``python_rummoli``,
  ``python_basic_rummy``, ``python_michigan``, ...) with ``pyspiel.register_game``;
- :mod:`rummoli.envs.pettingzoo` offers ``<game>_v0`` (``rummoli_v0``, ``basic_rummy_v0``,
  ``michigan_v0``, ...: AEC);
- :mod:`rummoli.envs.gymnasium` registers ``rummoli/<Title>-v0`` (``rummoli/Rummoli-v0``,
  ``rummoli/BasicRummy-v0``, ...): one learning seat against the computer players.

All three stand on :class:`rummoli.envs.table.Table`: the engine's game with its chance
made explicit (a card at a time) and its end made finite, written once for every game in
the registry. What differs between games is in one small adapter per game
(:mod:`rummoli.envs.stops` for every game of the Stops family, :mod:`rummoli.envs.rummy`),
found through :func:`rummoli.envs.adapters.adapter_for`.
"""

from __future__ import annotations
