"""The project's games as PettingZoo AEC environments: ``rummoli_v0``, ``basic_rummy_v0``.

``from rummoli.envs.pettingzoo import rummoli_v0; env = rummoli_v0.env()`` as with
PettingZoo's own classic games; importing this package also registers them in
PettingZoo's registry (``pettingzoo.make("aec", "rummoli/rummoli-v0")``). One
environment class (:class:`~rummoli.envs.pettingzoo.aec.CardTableEnv`) serves every
game with an adapter; each ``<game>_v0`` module only names its game.
"""

from __future__ import annotations

from pettingzoo.env_registry.registration import (  # type: ignore[import-untyped]
    aec_registry,
    register,
)

from rummoli.envs.adapters import adapter_for, games_with_adapters


def _register() -> None:
    for game in games_with_adapters():
        name = adapter_for(game).env_name
        env_id = f"rummoli/{name}-v0"
        if env_id not in aec_registry:
            register("aec", env_id, f"rummoli.envs.pettingzoo.{name}_v0:env")


_register()
