"""What a Ray worker runs (:func:`rummoli.compiled.run_chunk_on_node`), without Ray.

A worker must give the figures of this process whether the shipped compiled modules load
on its node or not, and must import nothing the ``runtime_env`` does not ship.
"""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import rummoli
from rummoli.compiled import MODULES
from rummoli.games.registry import describe
from rummoli.sim.ray_backend import WORKER_DEPENDENCIES, cluster_address, runtime_env
from rummoli.sim.spec import ROUNDS, SimSpec

#: Plays the pickled chunks (stdin) the way a Ray task does, in a fresh process that has
#: imported nothing of the package before, and prints whether each ran compiled, their
#: figures, and the third-party modules the process imported.
WORKER = """
import json, pickle, sys
before = set(sys.modules)
from rummoli.compiled import run_chunk_on_node
out = {"compiled": [], "figures": []}
for payload in pickle.loads(sys.stdin.buffer.read()):
    index, stats, compiled = run_chunk_on_node(payload)
    from rummoli.sim.game import simulation_part
    chunk = pickle.loads(payload)
    out["compiled"].append(compiled)
    out["figures"].append(simulation_part(chunk.spec.game).summarize(stats, chunk.spec))
loaded = {name.split(".")[0] for name in set(sys.modules) - before}
out["third_party"] = sorted(
    name for name in loaded
    if name not in sys.stdlib_module_names and not name.startswith("_") and name != "rummoli"
)
out["file"] = sys.modules["rummoli.engine.rng"].__file__
print(json.dumps(out))
"""


def _payloads() -> bytes:
    chunks = []
    for game, bots in (("rummoli", ("basic", "strong", "random")), ("rummy", ("basic", "strong"))):
        spec = SimSpec(bots, describe(game).rules({}), ROUNDS, 6, 5, False, 6, False, game)
        chunks.append(pickle.dumps(spec.chunks()[0]))
    return pickle.dumps(chunks)


def _worker(pythonpath: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", WORKER],
        input=_payloads(),
        env={"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        check=True,
        timeout=120,
    )
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_a_node_whose_compiled_modules_do_not_load_runs_the_sources(tmp_path: Path) -> None:
    """Every compiled module replaced by a file that is not a loadable extension (a
    library built for another C library looks the same to Python: ImportError)."""
    package = Path(rummoli.__file__).parent
    ignore = shutil.ignore_patterns("*.so", "__pycache__", ".compiled.json")
    good, broken = tmp_path / "good", tmp_path / "broken"
    shutil.copytree(package, good / "rummoli", ignore=ignore)
    shutil.copytree(package, broken / "rummoli", ignore=ignore)
    for module in MODULES:
        path = broken.joinpath(*module.split(".")).with_suffix(EXTENSION_SUFFIXES[0])
        path.write_bytes(b"not an ELF file")
    plain, fallen_back = _worker(good), _worker(broken)
    assert plain["compiled"] == [False, False]
    assert fallen_back["compiled"] == [False, False]
    assert str(fallen_back["file"]).endswith("rng.py")
    assert fallen_back["figures"] == plain["figures"]


def test_a_worker_imports_only_what_the_runtime_env_ships(tmp_path: Path) -> None:
    data = _worker(Path(rummoli.__file__).parent.parent)
    assert set(data["third_party"]) <= set(WORKER_DEPENDENCIES)  # type: ignore[arg-type]


def test_the_runtime_env_ships_the_package_and_its_worker_dependencies() -> None:
    env = runtime_env()
    shipped = [Path(p).name for p in env["py_modules"]]
    assert shipped == ["rummoli", *WORKER_DEPENDENCIES]
    assert Path(env["py_modules"][0]) == Path(rummoli.__file__).parent
    assert "**/__pycache__" in env["excludes"]


def test_the_cluster_address_comes_from_the_option_else_ray_address(
    monkeypatch: object,
) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert cluster_address(None) is None
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert cluster_address(None) == "10.0.0.1:6379"
    assert cluster_address("127.0.0.1:1234") == "127.0.0.1:1234"
