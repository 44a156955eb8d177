"""Build the package, with the simulation's hot modules compiled by mypyc where it can.

Which modules, and why, is in ``src/rummoli/compiled.py``: the modules mypyc compiles,
and the few extensions written in C beside them (``C_EXTENSIONS``).

- **Compiled** when a C compiler, Python's C headers and mypyc (it comes with mypy, a
  build requirement) are all here. mypyc runs inside ``build_ext``, so once per build:
  pip reads this file three times per install (requirements, metadata, wheel), and
  compiling on each read took minutes.
- **Plain Python** otherwise, or with ``RUMMOLI_PURE=1``: one line says why (``pip
  install -v`` shows it; ``rummoli --version`` says "plain Python"), and the install
  goes on. A compile that fails half-way falls back the same way, leaving no compiled
  module behind. The same games and figures, slower simulations.

``make`` installs the package plain (editable) and then compiles in place
(``python setup.py build_ext --inplace``) whenever a source changed, so that a
developer's edits are never shadowed by an old compiled module; an in-place build also
records each compiled source's digest (``src/rummoli/.compiled.json``), for the check
that no source was edited since.
"""

from __future__ import annotations

import json
import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PLAN: dict[str, Any] = runpy.run_path(os.path.join("src", "rummoli", "compiled.py"))
#: The commands that build the modules (pip's other reads of this file only ask for the
#: requirements or the metadata).
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def notice(reason: str) -> None:
    """The one line a plain-Python install prints."""
    print(f"rummoli: {reason}: installing plain Python (same results, slower)", file=sys.stderr)


def cannot_compile() -> str | None:
    """Why the modules cannot be compiled here (None: they can). Cheap: no compiling."""
    if os.environ.get("RUMMOLI_PURE", "") not in ("", "0"):
        return "RUMMOLI_PURE is set"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not available"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(compiler)
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler ({words[0] if words else compiler!r} not found)"
    if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        return "Python's C headers (Python.h) are missing"
    return None


#: The options of ``build_ext`` a build sets (``--inplace``, ``--parallel``...), kept when
#: the command is finalized again for mypyc's extensions.
KEPT_OPTIONS = ("inplace", "parallel", "force", "debug", "compiler", "build_lib", "build_temp")


class BuildCompiled(build_ext):
    """``build_ext`` that runs mypyc itself, once, and falls back to plain Python."""

    def run(self) -> None:
        # Only a build that runs this command gets here: pip's reads for the requirements
        # and the metadata finalize the command's options, but never run it.
        # The sources' digests as they are read for compiling (mypyc reads the Python ones
        # now, the C compiler the C ones in a moment): a source edited during the build
        # is then seen as edited since, not as compiled.
        compiled = {module: PLAN["source_path"](module) for module in PLAN["MODULES"]}
        compiled.update(PLAN["C_EXTENSIONS"])
        digests = {m: PLAN["source_digest"](s) for m, s in compiled.items()}
        if self.distribution.ext_modules:
            from mypyc.build import mypycify

            sources = [PLAN["source_path"](module) for module in PLAN["MODULES"]]
            group = PLAN["GROUP"]
            self.distribution.ext_modules = mypycify(sources, opt_level="3", group_name=group) + [
                Extension(module, sources=[source], extra_compile_args=["-O2"])
                for module, source in PLAN["C_EXTENSIONS"].items()
            ]
            # Finalize again for mypyc's extensions, from fresh options but the user's.
            kept = {name: getattr(self, name) for name in KEPT_OPTIONS}
            self.initialize_options()
            for name, value in kept.items():
                setattr(self, name, value)
            self.finalize_options()
        built = list(self.extensions)
        try:
            super().run()
        except Exception as error:  # a compiler or linker failing: no half build
            for extension in built:
                path = self.get_ext_fullpath(extension.name)
                if os.path.exists(path):
                    os.remove(path)
            self.distribution.ext_modules = self.extensions = []
            notice(f"compiling failed ({type(error).__name__}: {error})")
            return
        if self.inplace and built:
            # What was compiled, so that the tests can tell when a source was edited since.
            with open(PLAN["MANIFEST"], "w", encoding="utf-8") as manifest:
                json.dump(digests, manifest, indent=1)


def extensions() -> list[Extension]:
    """A stand-in for the compiled group when compiling is possible (so the wheel is
    tagged for this platform); :class:`BuildCompiled` replaces it by mypyc's output."""
    reason = cannot_compile()
    if reason is not None:
        if BUILDS & set(sys.argv[1:]):  # said once per build, not at each read
            notice(reason)
        return []
    return [Extension(PLAN["GROUP"] + "__mypyc", sources=[])]


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildCompiled})
