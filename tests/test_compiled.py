"""The compiled build: the hot modules really are compiled, and they play exactly the
same games as the plain-Python source they are compiled from."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rummoli
from rummoli.compiled import MODULES, compiled_modules

PURE = os.environ.get("RUMMOLI_PURE", "") not in ("", "0")


def test_the_hot_modules_are_compiled_unless_plain_python_was_asked_for() -> None:
    # A build that silently fell back to plain Python would give the same figures at
    # half the speed; RUMMOLI_PURE=1 is the one way to ask for that.
    assert compiled_modules() == ([] if PURE else list(MODULES))
    # The environments' buffers are written by C beside them (setup.py builds both).
    from rummoli.envs import writers

    assert ("python" if PURE else "c") == writers.WRITER


def _simulate(pythonpath: Path | None, tmp_path: Path, name: str, *args: str) -> object:
    out = tmp_path / f"{name}.json"
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    subprocess.run(
        [sys.executable, "-c", "from rummoli.cli import main; main()", "simulate",
         *args, "--jobs", "1", "--json", str(out)],
        check=True, env=env, capture_output=True, timeout=300,
    )  # fmt: skip
    figures = json.loads(out.read_text())
    ran = figures.pop("run")
    return figures, ran["compiled"]


@pytest.mark.skipif(PURE, reason="a plain-Python build has no compiled code to compare")
@pytest.mark.parametrize(
    "args",
    [
        ("--rounds", "1500", "--seed", "4", "--bots", "basic,random,basic,random", "--rotate",
         "--rule", "bet_limit=pot_limit"),
        ("--rounds", "800", "--seed", "5", "--bots", "basic,basic,random",
         "--rule", "poker=showdown", "--rule", "must_claim=true",
         "--rule", "switch_lead=any_suit_of_colour", "--rule", "lead=lowest_of_any_suit",
         "--rule", "deadlock=any_colour", "--rule", "ace_of_spades=true"),
        # The strong bot's rollouts and deal sampling are compiled too: the same decisions.
        ("--rounds", "16", "--seed", "6", "--bots", "strong,basic,strong,random",
         "--chunk-size", "8", "--rule", "bet_limit=pot_limit"),
    ],
)  # fmt: skip
def test_compiled_and_plain_python_give_the_same_figures(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    # The package's sources alone, without any compiled module, first on the path.
    plain = tmp_path / "plain"
    shutil.copytree(
        Path(rummoli.__file__).parent, plain / "rummoli", ignore=shutil.ignore_patterns("*.so")
    )
    compiled_figures, compiled = _simulate(None, tmp_path, "compiled", *args)
    plain_figures, plain_compiled = _simulate(plain, tmp_path, "plain", *args)
    assert compiled and not plain_compiled
    assert compiled_figures == plain_figures
