"""Which modules mypyc compiles, and whether this install runs them compiled.

Why: ``rummoli simulate`` plays millions of rounds, and nearly all of its time goes to
the Rummoli engine, the computer players (the strong one's rollouts and deal sampling
above all) and the simulation's tally. ``setup.py`` compiles these modules with mypyc
into C extensions that run the same source two to three times as fast (figures in
``docs/performance.md``); everything else stays plain Python. The ``.py`` files remain
the definition of the behaviour: a pure-Python install (``RUMMOLI_PURE=1``, no C
compiler, or no mypyc) gives the same games and the same figures, slower.

A Ray worker may run on a node where the shipped compiled modules do not load (another
Python, another C library): :func:`run_chunk_on_node` then switches that process to the
``.py`` sources (:func:`use_plain_python`), with the same figures.

This module imports nothing of the package, so that ``setup.py`` can read
:data:`MODULES` before anything is built, and a Ray worker can check the compiled
modules before anything imports them.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from types import ModuleType
from typing import Any, Final

#: The package whose modules :func:`use_plain_python` finds as sources.
PACKAGE: Final = "rummoli"
#: mypyc's group: one shared library inside the package (``rummoli/compiled_group__mypyc``
#: plus one small shim per module), so the package directory alone is the whole build:
#: a wheel, an in-place build and a Ray upload all carry it with the sources.
GROUP: Final = "rummoli.compiled_group"

#: The compiled modules: the simulation's hot path, and what it calls at each step (the
#: Rummoli state is its core and one module per phase; the shared ``apply`` and event
#: converter of :mod:`rummoli.engine` are on Rummoli's path, so they are compiled too).
#: Basic Rummy's engine (its move generation after every draw is most of a hand's time)
#: and the learning environments' table and tensor arithmetic (run at every step) too:
#: the ``envs`` modules here import the engine alone (the table imports the adapters and
#: numpy only when a table is made), so that a compiled install, and a Ray worker
#: checking its compiled modules, imports them without the ``rl`` extra or numpy. The web
#: table's patches of a run's step views (every seat, every step of a run: the largest
#: part of a Stops action's CPU on the web table) import the standard library alone.
MODULES: Final = (
    "rummoli.cards",
    "rummoli.poker",
    "rummoli.engine.rng",
    "rummoli.engine.apply",
    "rummoli.engine.state",
    "rummoli.engine.event_json",
    "rummoli.games.stops.actions",
    "rummoli.games.rummoli.board",
    "rummoli.games.stops.betting",
    "rummoli.games.stops.constants",
    "rummoli.games.stops.layout",
    "rummoli.games.stops.tables",
    "rummoli.games.stops.stake",
    "rummoli.games.stops.ranks",
    "rummoli.games.stops.state",
    "rummoli.games.stops.deal",
    "rummoli.games.stops.widow",
    "rummoli.games.stops.poker_phase",
    "rummoli.games.stops.runs",
    "rummoli.games.stops.round_end",
    "rummoli.games.stops.view",
    "rummoli.bots.stops.estimate",
    "rummoli.bots.stops.board",
    "rummoli.bots.stops.rollout_poker",
    "rummoli.bots.stops.basic",
    "rummoli.bots.stops.knowledge",
    "rummoli.bots.stops.rollout",
    "rummoli.bots.stops.strong",
    "rummoli.sim.stops.play",
    "rummoli.games.rummy.melds",
    "rummoli.games.rummy.actions",
    "rummoli.games.rummy.stalemate",
    "rummoli.games.rummy.deal",
    "rummoli.games.rummy.state",
    "rummoli.games.rummy.view",
    "rummoli.envs.feature_parts",
    "rummoli.envs.rummy.features",
    "rummoli.envs.stops.features",
    "rummoli.envs.chance",
    "rummoli.envs.buffers",
    "rummoli.envs.table",
    "rummoli.envs.replay",
    "rummoli.web.patch",
)

#: Extensions written in C, built with the compiled modules (module: its source): what
#: mypyc cannot make fast. The learning environments' per-step buffers are stores into
#: a ``bytearray``, a generic item assignment each in mypyc's code; in C, plain stores
#: (``_cbuffers.c`` says more). Each has a Python twin that a plain install runs
#: (:mod:`rummoli.envs.writers` picks).
C_EXTENSIONS: Final = {
    "rummoli.envs._cbuffers": os.path.join("src", "rummoli", "envs", "_cbuffers.c"),
}


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
    sources = {module: source_path(module) for module in compiled}
    sources.update(C_EXTENSIONS)
    stale = []
    for module, source in sources.items():
        if recorded.get(module) != source_digest(os.path.join(root, source)):
            stale.append(source)
    return stale


class _SourceOnly(MetaPathFinder):
    """Finds the package's modules as their ``.py`` sources, never as extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != PACKAGE and not fullname.startswith(PACKAGE + "."):
            return None
        for entry in path if path is not None else sys.path:
            finder = FileFinder(entry or ".", (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None and spec.loader is not None:
                return spec
        return None


def use_plain_python() -> None:
    """From now on, import every module of the package from its ``.py`` source.

    The modules already imported (but this one) are forgotten, so the next import of
    each reads its source; nothing else of the process changes.
    """
    if not any(isinstance(finder, _SourceOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())
    for name in list(sys.modules):
        if name.startswith(PACKAGE + ".") and name != __name__:
            del sys.modules[name]
    importlib.invalidate_caches()


#: Whether this process runs the compiled modules (None: not checked yet).
_node_compiled: bool | None = None


def check_compiled() -> bool:
    """Import the compiled modules; if any fails to load here, switch to plain Python.

    Returns whether the compiled modules run in this process. A module whose extension
    does not suit this Python is imported from its source by Python itself (the file
    name carries the ABI); one that suits but fails to load (a missing C library, a
    damaged file) raises ImportError, which this turns into the plain-Python fallback.
    """
    global _node_compiled
    if _node_compiled is None:
        try:
            for module in MODULES:
                importlib.import_module(module)
            _node_compiled = len(compiled_modules()) == len(MODULES)
        except ImportError:
            use_plain_python()
            _node_compiled = False
    return _node_compiled


def run_chunk_on_node(payload: bytes) -> tuple[int, Any, bool]:
    """A Ray task: play one pickled chunk; returns ``(index, stats, ran compiled)``.

    The chunk arrives pickled so that nothing of the package is imported before
    :func:`check_compiled` has chosen between the compiled and the plain modules (the
    figures are the same either way; only the speed differs).
    """
    compiled = check_compiled()
    chunk = pickle.loads(payload)
    from rummoli.sim.runner import play_indexed

    index, stats = play_indexed(chunk)
    return index, stats, compiled
