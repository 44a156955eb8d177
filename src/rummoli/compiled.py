"""Which modules mypyc compiles, and whether this install runs them compiled.

Why: ``rummoli simulate`` plays millions of rounds, and nearly all of its time goes to
the Rummoli engine, the basic computer player and the simulation's tally. ``setup.py``
compiles these modules with mypyc into C extensions that run the same source about 1.7
times as fast (figures in ``docs/performance.md``); everything else stays plain Python.
The ``.py`` files remain the definition of the behaviour: a pure-Python install
(``RUMMOLI_PURE=1``, or no mypyc) gives the same games and the same figures, slower.

This module imports nothing of the package, so that ``setup.py`` can read
:data:`MODULES` before anything is built.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

#: The compiled modules: the simulation's hot path, and what it calls at each step (the
#: Rummoli state is its core and one module per phase; the shared ``apply`` and event
#: converter of :mod:`rummoli.engine` are on Rummoli's path, so they are compiled too).
MODULES: Final = (
    "rummoli.cards",
    "rummoli.poker",
    "rummoli.engine.rng",
    "rummoli.engine.apply",
    "rummoli.engine.event_json",
    "rummoli.games.rummoli.actions",
    "rummoli.games.rummoli.board",
    "rummoli.games.rummoli.betting",
    "rummoli.games.rummoli.constants",
    "rummoli.games.rummoli.state",
    "rummoli.games.rummoli.deal",
    "rummoli.games.rummoli.widow",
    "rummoli.games.rummoli.poker_phase",
    "rummoli.games.rummoli.stops",
    "rummoli.games.rummoli.round_end",
    "rummoli.games.rummoli.view",
    "rummoli.bots.rummoli.estimate",
    "rummoli.bots.rummoli.basic",
    "rummoli.sim.rummoli.play",
)


def source_path(module: str) -> str:
    """The source file of ``module``, relative to the project's root."""
    return os.path.join("src", *module.split(".")) + ".py"


def _file_of(module: str) -> str:
    return str(importlib.import_module(module).__file__ or "")


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` that this Python imports compiled (it imports them)."""
    return [m for m in MODULES if _file_of(m).endswith(tuple(EXTENSION_SUFFIXES))]


def source_digest(path: str) -> str:
    """The SHA-256 of a source file, as recorded when it was compiled."""
    with open(path, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()


#: Written by ``setup.py`` next to this file when it compiles in place: the digest of
#: each compiled source at that moment.
MANIFEST: Final = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".compiled.json")


def stale_sources() -> list[str]:
    """Sources edited since their module was compiled in place (an editable install):
    Python would still import the old compiled code, so the edit would not run.

    Without the manifest (a wheel, or nothing compiled) there is nothing to compare.
    """
    compiled = compiled_modules()
    if not compiled or not os.path.exists(MANIFEST):
        return []
    with open(MANIFEST, encoding="utf-8") as file:
        recorded: dict[str, str] = json.load(file)
    root = os.path.dirname(os.path.dirname(os.path.dirname(MANIFEST)))
    stale = []
    for module in compiled:
        path = os.path.join(root, source_path(module))
        if recorded.get(module) != source_digest(path):
            stale.append(source_path(module))
    return stale
