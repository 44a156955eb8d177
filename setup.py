"""Build the package, with the simulation's hot modules compiled by mypyc where it can.

Which modules, and why, is in ``src/rummoli/compiled.py``: the modules mypyc compiles,
and the few extensions written in C beside them (``C_EXTENSIONS``).

- **Compiled** when a C compiler, Python's C headers and mypyc (it comes with mypy, a
  build requirement) are all here. mypyc runs inside ``build_ext``, so once per build:
  pip reads this file three times per install (requirements, metadata, wheel), and
  compiling on each read took minutes.
- **Plain Python** otherwise, or with ``RUMMOLI_PURE=1``: one line says why (``pip
  install -v`` shows it; ``rummoli --version`` says "plain Python"), and the install
  goes on. A build that fails half-way, for any reason (mypyc's type check, the C
  compiler, the linker), falls back the same way, leaving no compiled module behind,
  and the wheel is then the pure ``py3-none-any`` one. The same games and figures,
  slower simulations.
- **The type check mypyc needs does not depend on the other packages.** pip builds in
  an isolated environment that has only the build requirements (setuptools, mypy): no
  Babel, Rich, matplotlib, Ray or numpy. The compiled modules import only the standard
  library and the package, but mypy follows their imports into modules that import
  those packages. :data:`MYPY_OPTIONS` makes mypy read the modules that are not compiled
  for their types only (``--follow-imports=silent``: a missing package there is no
  error), so the build checks the compiled modules alone, the same with or without the
  other packages; ``make test`` runs ``mypy --strict`` on the whole package.

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
#: mypy's options for the build's type check (see the module's doc). Unused ignores are
#: not the build's business either: an ignore needed where numpy's types are known is
#: unused where they are not.
MYPY_OPTIONS = ["--follow-imports=silent", "--no-warn-unused-ignores"]
#: The commands that build the modules (pip's other reads of this file only ask for the
#: requirements or the metadata).
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def notice(reason: str) -> None:
    """The one line a plain-Python install prints."""
    print(f"rummoli: {reason}: installing plain Python (same results, slower)", file=sys.stderr)


def compiled_notice(count: int) -> None:
    """The one line a compiled install prints."""
    print(f"rummoli: compiled {count} modules with mypyc (faster simulations)", file=sys.stderr)


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
        built: list[Extension] = []
        try:
            if self.distribution.ext_modules:
                self._mypycify()
            built = list(self.extensions)
            super().run()
        except (Exception, SystemExit) as error:
            # mypyc exits (SystemExit) when its type check fails; the compiler and the
            # linker raise. Either way: no half build, and a pure wheel.
            self._fall_back(built, error)
            return
        if built:
            compiled_notice(len(PLAN["MODULES"]) + len(PLAN["C_EXTENSIONS"]))
        if self.inplace and built:
            # What was compiled, so that the tests can tell when a source was edited since.
            with open(PLAN["MANIFEST"], "w", encoding="utf-8") as manifest:
                json.dump(digests, manifest, indent=1)

    def _mypycify(self) -> None:
        """Replace the stand-in by mypyc's extensions and the C ones."""
        from mypyc.build import mypycify

        sources = [PLAN["source_path"](module) for module in PLAN["MODULES"]]
        self.distribution.ext_modules = mypycify(
            MYPY_OPTIONS + sources, opt_level="3", group_name=PLAN["GROUP"]
        ) + [
            Extension(module, sources=[source], extra_compile_args=["-O2"])
            for module, source in PLAN["C_EXTENSIONS"].items()
        ]
        # Finalize again for mypyc's extensions, from fresh options but the user's.
        kept = {name: getattr(self, name) for name in KEPT_OPTIONS}
        self.initialize_options()
        for name, value in kept.items():
            setattr(self, name, value)
        self.finalize_options()

    def _fall_back(self, built: list[Extension], error: BaseException) -> None:
        """Plain Python after a failed build: remove what was built, and tag the wheel
        (if one is being made) ``py3-none-any``, as a build without a compiler is."""
        for extension in built:
            path = self.get_ext_fullpath(extension.name)
            if os.path.exists(path):
                os.remove(path)
        self.distribution.ext_modules = self.extensions = []
        wheel = self.distribution.command_obj.get("bdist_wheel")
        if wheel is not None:
            # bdist_wheel decided before the build; it reads this again for the wheel's
            # folder, its name and its metadata, all after the build.
            wheel.root_is_pure = True
        why = str(error) if not isinstance(error, SystemExit) else f"exit {error.code}"
        notice(f"compiling failed ({type(error).__name__}: {why.splitlines()[0][:200]})")


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
