"""Basic Rummy as a PettingZoo AEC environment (see :mod:`rummoli.envs.pettingzoo.aec`)."""

from __future__ import annotations

from typing import Any

from rummoli.envs.pettingzoo.aec import CardTableEnv

GAME = "rummy"


def env(render_mode: str | None = None, **params: Any) -> CardTableEnv:
    """The environment, checking the call order and the actions itself (what
    PettingZoo's usual wrappers check, without their cost: see :mod:`..aec`)."""
    return CardTableEnv(GAME, render_mode=render_mode, **params)


#: The same environment: it has no wrapper to leave out (PettingZoo's name for it).
raw_env = env
