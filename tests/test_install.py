"""Installs that never break: an sdist and a wheel built without a C compiler, the wheel
installed into a clean venv; and mypyc run once per build when there is a compiler.

Kept fast: the builds use this venv's setuptools and mypy (``--no-isolation``, nothing
downloaded), and the clean venv borrows this venv's site-packages for the dependencies
(``--no-deps``), so only the package itself is installed from the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "01_lead_3H_then_4H.json"


def project_copy(tmp_path: Path) -> Path:
    """The project's build inputs, without anything built (no .so, no build/)."""
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    ignore = shutil.ignore_patterns("*.so", "__pycache__", ".compiled.json", "*.egg-info")
    shutil.copytree(ROOT / "src", copy / "src", ignore=ignore)
    return copy


def test_without_a_compiler_the_sdist_and_wheel_build_and_the_wheel_installs(
    tmp_path: Path,
) -> None:
    project = project_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "RUMMOLI_PURE"}
    env["CC"] = str(tmp_path / "no-such-cc")  # as on a machine without a C compiler
    dist = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(project)],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    notices = [line for line in (build.stdout + build.stderr).splitlines() if "rummoli:" in line]
    assert len(notices) == 1 and "no C compiler" in notices[0], notices
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    assert wheel.name.endswith("-py3-none-any.whl")  # plain Python: one wheel for all
    assert sdist.name == "rummoli-0.1.0.tar.gz"
    names = zipfile.ZipFile(wheel).namelist()
    assert "rummoli/web/static/index.html" in names and "rummoli/py.typed" in names
    assert not [n for n in names if n.endswith(".so")]

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # No PYTHONPATH: pip must see the clean venv only (a source tree counts as installed).
    bare = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "--quiet", str(wheel)],
        env=bare, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    # The dependencies come from this venv's site-packages, after the clean venv's own.
    site = Path(sysconfig.get_paths()["purelib"])
    clean_site = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            text=True,
        ).strip()
    )
    (clean_site / "borrowed.pth").write_text(f"{site}\n")
    clean = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    where = subprocess.check_output(
        [str(python), "-c", "import rummoli; print(rummoli.__file__)"], env=clean, text=True
    )
    assert where.startswith(str(clean_site))
    version = subprocess.run(
        [str(venv / "bin" / "rummoli"), "--version"], env=clean, capture_output=True, text=True
    )
    assert version.stdout.strip() == "rummoli 0.1.0 (plain Python)"
    scenario = subprocess.run(
        [str(venv / "bin" / "rummoli"), "scenario", str(SCENARIO)],
        env=clean, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert scenario.returncode == 0, scenario.stderr
    expected = subprocess.run(
        [sys.executable, "-c", "from rummoli.cli import main; main()", "scenario", str(SCENARIO)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert json.loads(scenario.stdout) == json.loads(expected.stdout)


FAKE_MYPYC = """
import os
from setuptools import Extension

def mypycify(paths, **options):
    with open(os.environ["MYPYC_CALLS"], "a") as log:
        log.write(f"{len(paths)} {options.get('group_name')}\\n")
    return []
"""


@pytest.mark.skipif(
    not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")),
    reason="needs Python's C headers, as any compiled build does (make installs them)",
)
def test_with_a_compiler_mypyc_runs_once_per_build(tmp_path: Path) -> None:
    """pip reads setup.py for the requirements, the metadata and the wheel: only the
    wheel's build_ext may run mypyc (a stand-in here, recording its calls)."""
    project = project_copy(tmp_path)
    fake = tmp_path / "fake" / "mypyc"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "build.py").write_text(FAKE_MYPYC)
    calls = tmp_path / "calls.txt"
    calls.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("RUMMOLI_PURE", "CC")}
    env.update(PYTHONPATH=str(tmp_path / "fake"), MYPYC_CALLS=str(calls), CC="true")
    out = tmp_path / "out"
    out.mkdir()
    # Each hook in a process of its own, as pip calls them.
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
    from rummoli.compiled import GROUP, MODULES

    assert calls.read_text().splitlines() == [f"{len(MODULES)} {GROUP}"]
