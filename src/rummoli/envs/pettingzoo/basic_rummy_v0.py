"""Basic Rummy as a PettingZoo AEC environment (see :mod:`rummoli.envs.pettingzoo.aec`)."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.env import AECEnv  # type: ignore[import-untyped]

from rummoli.envs.pettingzoo.aec import CardTableEnv, wrapped

GAME = "rummy"


def raw_env(render_mode: str | None = None, **params: Any) -> CardTableEnv:
    """The environment without PettingZoo's checking wrappers."""
    return CardTableEnv(GAME, render_mode=render_mode, **params)


def env(render_mode: str | None = None, **params: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (order and bounds checks)."""
    return wrapped(raw_env(render_mode, **params))
