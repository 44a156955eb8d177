"""The project's games as PettingZoo AEC environments: ``rummoli_v0``, ``basic_rummy_v0``.

``from rummoli.envs.pettingzoo import rummoli_v0; env = rummoli_v0.env()`` as with
PettingZoo's own classic games; importing this package also registers them in
PettingZoo's registry (``pettingzoo.make("aec", "rummoli/rummoli-v0")``). One
environment class (:class:`~rummoli.envs.pettingzoo.aec.CardTableEnv`) serves every
game with an adapter; each ``<game>_v0`` module only names its game. A game without a
module of its own here (every Stops family game but Rummoli: Michigan, Tripoley, ...)
gets one made when this package is imported: ``from rummoli.envs.pettingzoo import
michigan_v0`` works the same.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

from pettingzoo.env_registry.registration import (  # type: ignore[import-untyped]
    aec_registry,
    register,
)

from rummoli.envs.adapters import adapter_for, games_with_adapters
from rummoli.envs.pettingzoo.aec import CardTableEnv


def _module_for(game: str, name: str) -> ModuleType:
    """``<name>_v0`` for ``game``: the module of this package, or one made like it."""
    full = f"{__name__}.{name}_v0"
    if full in sys.modules:
        return sys.modules[full]
    if importlib.util.find_spec(full) is not None:
        return importlib.import_module(full)
    module = ModuleType(full, f"{game} as a PettingZoo AEC environment (made by {__name__}).")

    def env(render_mode: str | None = None, **params: Any) -> CardTableEnv:
        return CardTableEnv(game, render_mode=render_mode, **params)

    module.GAME = game  # type: ignore[attr-defined]
    module.env = env  # type: ignore[attr-defined]
    module.raw_env = env  # type: ignore[attr-defined]
    sys.modules[full] = module
    return module


def _register() -> None:
    for game in games_with_adapters():
        name = adapter_for(game).env_name
        globals()[f"{name}_v0"] = _module_for(game, name)
        env_id = f"rummoli/{name}-v0"
        if env_id not in aec_registry:
            register("aec", env_id, f"rummoli.envs.pettingzoo.{name}_v0:env")


_register()
