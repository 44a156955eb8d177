"""Either game as a PettingZoo AEC environment through OpenSpiel and Shimmy.

PettingZoo plans to take its classic games from OpenSpiel through Shimmy
(``shimmy.OpenSpielCompatibilityV0``, PettingZoo issue 1366); this is that route for
the project's games, for code that expects it: the OpenSpiel game
(:mod:`rummoli.envs.openspiel`, ``python_rummoli`` or ``python_basic_rummy``) wrapped by
Shimmy. Shimmy draws every chance node itself, a card at a time, and asks the game for a
tensor at each step, so it is several times slower than the native environments
(``rummoli_v0``, ``basic_rummy_v0``: the fast path); its observations are the OpenSpiel
game's observation tensors (the same layout), with the legal actions' mask in
``infos[agent]["action_mask"]``, as Shimmy gives them.

Two things of Shimmy 2.0.1's own to know: it adds a finished game's last rewards to the
agents again at every dead agent's ``step``, so the sum of the rewards ``last()`` gives an
agent over a game is not its return (read ``env.game_state.returns()``); and it ends a
game as truncated when its count of moves, chance nodes included, passes the game's
``max_game_length``, which OpenSpiel defines without them (this is why the games' bound
here counts the chance nodes too).

    from rummoli.envs.pettingzoo import through_openspiel
    env = through_openspiel.env("rummoli", players=3)
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.env import AECEnv  # type: ignore[import-untyped]

from rummoli.envs.adapters import adapter_for


def env(game: str = "rummoli", render_mode: str | None = None, **params: Any) -> AECEnv:
    """Shimmy's PettingZoo environment of the OpenSpiel game of ``game`` (its registry
    name) with ``params`` (the OpenSpiel game's parameters: players, length, house
    rules...). Needs Shimmy (``pip install rummoli[rl]`` brings it)."""
    import pyspiel  # type: ignore[import-not-found]
    from shimmy import OpenSpielCompatibilityV0  # type: ignore[import-untyped]

    from rummoli.envs.openspiel import short_name

    name = short_name(adapter_for(game))  # also refuses an unknown game, naming them
    pyspiel.load_game(name, params)  # bad parameters refused now, with OpenSpiel's words
    # By name and parameters, not as a loaded game: Shimmy loads the game again at every
    # reset, from these (a game passed loaded comes back with its defaults).
    wrapped: AECEnv = OpenSpielCompatibilityV0(
        game_name=name, config=dict(params) or None, render_mode=render_mode
    )
    return wrapped
