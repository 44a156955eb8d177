"""Build the package, with the simulation's hot modules compiled by mypyc.

Which modules, and why, is in ``src/rummoli/compiled.py``. Set ``RUMMOLI_PURE=1`` to
install plain Python only (no C compiler needed; the same results, slower simulations).
Without mypyc (it comes with mypy) the install is plain Python too.

``make`` installs the package plain and then compiles in place
(``python setup.py build_ext --inplace``) whenever a source changed, so that a
developer's edits are never shadowed by an old compiled module.
"""

from __future__ import annotations

import json
import os
import runpy

from setuptools import Extension, setup


def extensions() -> list[Extension]:
    if os.environ.get("RUMMOLI_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("rummoli: mypyc is not available, installing plain Python")
        return []
    plan = runpy.run_path(os.path.join("src", "rummoli", "compiled.py"))
    modules = plan["MODULES"]
    sources = [plan["source_path"](module) for module in modules]
    built = list(mypycify(sources, opt_level="3", group_name="rummoli_compiled"))
    # What was compiled, so that the tests can tell when a source was edited since.
    with open(plan["MANIFEST"], "w", encoding="utf-8") as manifest:
        digests = {m: plan["source_digest"](s) for m, s in zip(modules, sources, strict=True)}
        json.dump(digests, manifest, indent=1)
    return built


setup(ext_modules=extensions())
