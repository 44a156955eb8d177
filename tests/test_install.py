"""Installs as a user makes them: the sdist and the wheel built with build isolation (the
build requirements come from the package index, as for anyone who runs ``pip install``),
each installed with its dependencies into a fresh venv, and the installed copy run.

- ``python -m build`` with the compiler hidden (``CC`` names no compiler, as on a machine
  without one): the sdist, and from it the pure ``py3-none-any`` wheel, one notice line.
- The sdist installed by pip with the compiler: pip builds it, compiled (a platform wheel).
- The wheel installed with the ``rl`` extra: plain Python, and a learning environment runs.
- pipx installing the project's folder (``pip install .`` underneath), compiler hidden.

Each installed copy prints its version and build, plays a scenario (the same result as
this checkout) and runs a short simulation: the compiled and the plain install give the
same figures. One pip cache inside the test's folder serves every build and install, so
the dependencies are fetched once per run and nothing outside the folder is touched.

The build's fallbacks are checked apart, with a stand-in for mypyc (no compiling): mypyc
runs once per build, and a failed type check gives a pure wheel, not a failed install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "01_lead_3H_then_4H.json"
VERSION = "0.1.0"
#: The short simulation every installed copy runs (seeded: the same figures anywhere).
CATALOGUE_TERMS = (
    "from rummoli.web.catalogue import catalogue; print(len(catalogue('ru')['terms']))"
)
SIMULATION = ["simulate", "--rounds", "300", "--bots", "basic,random,basic,random"]
SIMULATION += ["--seed", "7", "--jobs", "1"]
HAS_HEADERS = os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))
BUILD_TIMEOUT = 900


def project_copy(tmp_path: Path) -> Path:
    """The project's build inputs, without anything built (no .so, no build/)."""
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    ignore = shutil.ignore_patterns("*.so", "__pycache__", ".compiled.json", "*.egg-info")
    shutil.copytree(ROOT / "src", copy / "src", ignore=ignore)
    return copy


def user_env(tmp: Path, *, compiler: bool) -> dict[str, str]:
    """A user's environment: this venv's tools not on the path, nothing of this checkout
    importable, the pip cache and HOME in ``tmp``; ``compiler=False`` hides the C
    compiler (``CC`` names none: setup.py and setuptools both find it there)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "RUMMOLI_PURE", "VIRTUAL_ENV", "CC", "PIP_REQUIRE_VIRTUALENV")
    }
    env["HOME"] = str(tmp / "home")
    env["PIP_CACHE_DIR"] = str(tmp / "pip-cache")
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix)
    )
    if not compiler:
        env["CC"] = str(tmp / "no-such-cc")
    return env


def run(args: list[str], env: dict[str, str], cwd: Path | None = None) -> str:
    """Run a command; its output (stdout and stderr); fail the test with its tail."""
    done = subprocess.run(
        args, env=env, cwd=cwd, capture_output=True, text=True, timeout=BUILD_TIMEOUT
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{args[:4]} exited {done.returncode}:\n{out[-3000:]}"
    return out


def notices(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith("rummoli:")]


@dataclass
class Built:
    tmp: Path
    project: Path
    sdist: Path
    wheel: Path
    output: str


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The sdist and, built from it, the wheel: isolated, compiler hidden."""
    tmp = tmp_path_factory.mktemp("install")
    project = project_copy(tmp)
    dist = tmp / "dist"
    output = run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(project)],
        user_env(tmp, compiler=False),
    )
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    return Built(tmp, project, sdist, wheel, output)


def fresh_venv(tmp: Path, name: str) -> Path:
    venv = tmp / name
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    return venv / "bin"


def check_installed(bin_dir: Path, tmp: Path, build: str) -> dict[str, object]:
    """The installed ``rummoli``: its version and build, a scenario (as this checkout
    plays it), and the short simulation's figures (returned, without its timings)."""
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp / "home"), "LANG": "C.UTF-8"}
    rummoli = str(bin_dir / "rummoli")
    assert run([rummoli, "--version"], env).strip() == f"rummoli {VERSION} ({build})"
    played = subprocess.run(
        [rummoli, "scenario", str(SCENARIO)], env=env, capture_output=True, text=True, timeout=120
    )
    assert played.returncode == 0, played.stderr
    expected = subprocess.run(
        [sys.executable, "-c", "from rummoli.cli import main; main()", "scenario", str(SCENARIO)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert json.loads(played.stdout) == json.loads(expected.stdout)
    # What a Russian page asks the server for first: the catalogue, with the glossary's
    # table of forms for the terms its sentences insert (it reads glossary.toml).
    terms = run([str(bin_dir / "python"), "-c", CATALOGUE_TERMS], env)
    assert int(terms) > 20, terms
    figures = tmp / f"simulation-{bin_dir.parent.name}.json"
    run([rummoli, *SIMULATION, "--json", str(figures)], env, cwd=tmp)
    result: dict[str, object] = json.loads(figures.read_text())
    run_info = result.pop("run")
    assert isinstance(run_info, dict) and run_info["compiled"] == (build == "compiled")
    assert result["complete"] is True and result["rounds"] == 300
    return result


def test_the_sdist_and_the_pure_wheel_build_isolated_without_a_compiler(built: Built) -> None:
    # Said by the wheel's build alone: the sdist's and pip's other reads build nothing.
    (notice,) = notices(built.output)
    assert notice.startswith("rummoli: no C compiler (") and "no-such-cc" in notice
    assert notice.endswith("installing plain Python (same results, slower)")
    assert built.sdist.name == f"rummoli-{VERSION}.tar.gz"
    assert built.wheel.name == f"rummoli-{VERSION}-py3-none-any.whl"  # one wheel for all
    names = zipfile.ZipFile(built.wheel).namelist()
    for shipped in (
        "rummoli/web/static/index.html",
        "rummoli/py.typed",
        "rummoli/locale/fr/LC_MESSAGES/rummoli.mo",
        "rummoli/web/migrations/script.py.mako",
    ):
        assert shipped in names
    assert not [n for n in names if n.endswith(".so")]
    with tarfile.open(built.sdist) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    for needed in ("setup.py", "pyproject.toml", "src/rummoli/compiled.py"):
        assert needed in members
    assert "src/rummoli/envs/_cbuffers.c" in members
    # Every data file the package reads ships in both (the glossary's table once did
    # not: an installed copy then failed on its first French or Russian sentence).
    tracked = subprocess.run(
        ["git", "ls-files", "src/rummoli"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    data = [t for t in tracked if not t.endswith(".py")]
    assert "src/rummoli/i18n/glossary.toml" in data
    assert [t for t in data if t not in members] == []
    assert [t for t in data if t.removeprefix("src/") not in names] == []
    # The metadata as the package index checks it.
    checked = run([sys.executable, "-m", "twine", "check", "--strict", str(built.sdist),
                   str(built.wheel)], user_env(built.tmp, compiler=False))  # fmt: skip
    assert checked.count("PASSED") == 2, checked


@pytest.fixture(scope="module")
def compiled_figures(built: Built) -> dict[str, object]:
    """The sdist installed by pip with the compiler: compiled."""
    if not HAS_HEADERS:
        pytest.skip("needs Python's C headers, as any compiled build does (make installs them)")
    bin_dir = fresh_venv(built.tmp, "venv-sdist")
    output = run(
        [str(bin_dir / "pip"), "install", "-v", str(built.sdist)],
        user_env(built.tmp, compiler=True),
    )
    from rummoli.compiled import C_EXTENSIONS, MODULES

    count = len(MODULES) + len(C_EXTENSIONS)
    assert notices(output) == [f"rummoli: compiled {count} modules with mypyc (faster simulations)"]
    wheels = list((built.tmp / "pip-cache").rglob("rummoli-*.whl"))
    assert [w.name for w in wheels] == [
        f"rummoli-{VERSION}-cp{sys.version_info.major}{sys.version_info.minor}-"
        f"cp{sys.version_info.major}{sys.version_info.minor}-"
        f"{sysconfig.get_platform().replace('-', '_').replace('.', '_')}.whl"
    ]  # the wheel pip built and cached: named for this platform
    return check_installed(bin_dir, built.tmp, "compiled")


def test_the_sdist_installs_compiled_with_a_compiler(compiled_figures: dict[str, object]) -> None:
    assert compiled_figures["chips"]


def test_the_wheel_installs_plain_with_the_rl_extra(
    built: Built, compiled_figures: dict[str, object]
) -> None:
    bin_dir = fresh_venv(built.tmp, "venv-wheel")
    run(
        [str(bin_dir / "pip"), "install", f"{built.wheel}[rl]"],
        user_env(built.tmp, compiler=False),
    )
    figures = check_installed(bin_dir, built.tmp, "plain Python")
    assert figures == compiled_figures  # compiled or not, the same games
    # A learning environment, from the installed copy: random legal steps (a round, or 200).
    steps = run(
        [str(bin_dir / "python"), "-c", ENV_STEPS],
        {"PATH": "/usr/bin:/bin", "HOME": str(built.tmp / "home")},
    )
    word, count = steps.split()
    assert word == "stepped" and 0 < int(count) <= 200


ENV_STEPS = """
import random
from rummoli.envs.pettingzoo import rummoli_v0
env = rummoli_v0.env()
env.reset(seed=3)
rng = random.Random(3)
steps = 0
for agent in env.agent_iter():
    obs, reward, done, cut, info = env.last()
    if done or cut:
        action = None
    else:
        action = rng.choice([i for i, ok in enumerate(obs["action_mask"]) if ok])
    env.step(action)
    steps += 1
    if steps == 200:
        break
print("stepped", steps)
import pyspiel
import rummoli.envs.openspiel
assert pyspiel.load_game("python_rummoli").num_players() >= 2
"""


def test_pipx_installs_the_project_folder_without_a_compiler(built: Built) -> None:
    env = user_env(built.tmp, compiler=False)
    pipx = built.tmp / "pipx"
    env.update(PIPX_HOME=str(pipx), PIPX_BIN_DIR=str(pipx / "bin"), PIPX_MAN_DIR=str(pipx / "man"))
    run([sys.executable, "-m", "pipx", "install", str(built.project)], env)
    version = run([str(pipx / "bin" / "rummoli"), "--version"], {"PATH": "/usr/bin:/bin"})
    assert version.strip() == f"rummoli {VERSION} (plain Python)"


# ---------------------------------------------------------------------- the build's logic
# A stand-in for mypyc (no compiling), each PEP 517 hook in a process of its own, as pip
# calls them, with this venv's setuptools (no isolation: nothing is installed here).

FAKE_MYPYC = """
import os, sys

def mypycify(paths, **options):
    with open(os.environ["MYPYC_CALLS"], "a") as log:
        log.write(f"{' '.join(p for p in paths if p.startswith('--'))} "
                  f"{sum(1 for p in paths if p.endswith('.py'))} {options.get('group_name')}\\n")
    if os.environ.get("MYPYC_FAILS"):
        sys.exit(1)  # what mypyc does when its type check fails
    return []
"""


def fake_mypyc_build(tmp_path: Path, fails: bool) -> tuple[list[str], str, list[Path]]:
    """Run pip's three hooks against the stand-in; its calls, the output, the wheels."""
    project = project_copy(tmp_path)
    fake = tmp_path / "fake" / "mypyc"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "build.py").write_text(FAKE_MYPYC)
    calls = tmp_path / "calls.txt"
    calls.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("RUMMOLI_PURE", "CC")}
    env.update(PYTHONPATH=str(tmp_path / "fake"), MYPYC_CALLS=str(calls), CC="true")
    if fails:
        env["MYPYC_FAILS"] = "1"
    out = tmp_path / "out"
    out.mkdir()
    output = ""
    for hook in (
        "get_requires_for_build_wheel()",
        f"prepare_metadata_for_build_wheel({str(out)!r})",
        f"build_wheel({str(out)!r})",
    ):
        result = subprocess.run(
            [sys.executable, "-c", f"from setuptools import build_meta; build_meta.{hook}"],
            cwd=project, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr[-2000:]
        output += result.stdout + result.stderr
    return calls.read_text().splitlines(), output, sorted(out.glob("*.whl"))


@pytest.mark.skipif(not HAS_HEADERS, reason="needs Python's C headers, as a compiled build")
def test_with_a_compiler_mypyc_runs_once_per_build(tmp_path: Path) -> None:
    """pip reads setup.py for the requirements, the metadata and the wheel: only the
    wheel's build_ext may run mypyc, with the options that keep its type check to the
    compiled modules."""
    calls, _, wheels = fake_mypyc_build(tmp_path, fails=False)
    from rummoli.compiled import GROUP, MODULES

    options = "--follow-imports=silent --no-warn-unused-ignores"
    assert calls == [f"{options} {len(MODULES)} {GROUP}"]
    assert len(wheels) == 1 and not wheels[0].name.endswith("-py3-none-any.whl")


@pytest.mark.skipif(not HAS_HEADERS, reason="needs Python's C headers, as a compiled build")
def test_a_failed_type_check_gives_a_pure_wheel_not_a_failed_install(tmp_path: Path) -> None:
    calls, output, wheels = fake_mypyc_build(tmp_path, fails=True)
    assert len(calls) == 1
    assert notices(output) == [
        "rummoli: compiling failed (SystemExit: exit 1): installing plain Python "
        "(same results, slower)"
    ]
    (wheel,) = wheels
    assert wheel.name == f"rummoli-{VERSION}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    assert "rummoli/cli.py" in names and not [n for n in names if n.endswith(".so")]
    metadata = zipfile.ZipFile(wheel).read(f"rummoli-{VERSION}.dist-info/WHEEL").decode()
    assert "Root-Is-Purelib: true" in metadata
