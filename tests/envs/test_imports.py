"""The learning environments are an optional extra: the core imports none of them, and
``rummoli.envs`` itself imports no learning library until a front end is asked for."""

from __future__ import annotations

import subprocess
import sys

LIBRARIES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "rummoli.envs")


def _loaded_after(code: str) -> list[str]:
    script = (
        f"{code}\nimport sys\n"
        f"print(' '.join(m for m in sys.modules if m.startswith({LIBRARIES!r})))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_core_imports_no_learning_environment() -> None:
    core = (
        "import rummoli.cli, rummoli.games.registry as r, rummoli.bots, rummoli.sim.runner\n"
        "[d.bot_factory('strong') for d in r.descriptions()]"
    )
    assert _loaded_after(core) == []


def test_the_package_alone_imports_no_learning_library() -> None:
    assert _loaded_after("import rummoli.envs") == ["rummoli.envs"]
