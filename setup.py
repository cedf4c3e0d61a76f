"""Only the Extension list, the compiler flags and cythonize(): metadata lives in pyproject.toml.

Every ``krazy_core/**/*.pyx`` is one extension module.  Environment switches:

* ``KRAZY_CHECKED=1``: bounds and wrap-around checks on, ``assert`` kept, and with GCC or
  clang every index into a fixed-size C array checked too (``-fsanitize=bounds``: the game
  tables and struct fields, which ``boundscheck`` does not see; issue 19).  CI runs the
  conformance tests and the fuzz harness once more on that build.
* ``KRAZY_DEBUG=1``: keep debug info (``-g``) and symbols; a release build has neither
  (``-g0``, stripped), so a wheel is small.
* ``KRAZY_LIMITED_API=0x030B0000``: build against the stable ABI (abi3) of that Python
  version (only for measuring it, see benches/README.md; the release wheels do not use it).

Compiler flags are chosen per compiler: MSVC gets its own (``/O2``), GCC and clang ``-O3`` on
the modules whose inner loops are the hot path (the games, the search, the State) and ``-Os``
on the rest.  The extensions compile in parallel, one job per CPU (``build_ext --parallel N``
or ``-j N`` overrides it; ``KRAZY_BUILD_JOBS=N`` sets it for ``pip install .``).
"""
import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext


def _flag(name):
    return os.environ.get(name, "") not in ("", "0")


CHECKED = _flag("KRAZY_CHECKED")
DEBUG = _flag("KRAZY_DEBUG")
LIMITED_API = os.environ.get("KRAZY_LIMITED_API", "")        # e.g. "0x030B0000", empty: off

# the slowest compiles first (C lines, and krazy_kings.core inlines its whole playout twice), so two
# parallel jobs end together rather than one long module starting last
COST_ORDER = ["krazy_core.games.krazy_kings.core", "krazy_core.games.krass_kariert.core",
              "krazy_core.games.contract_rummy.core", "krazy_core.games.kings_rummy.core", "krazy_core._state",
              "krazy_core.search.ismcts", "krazy_core.games.melds.free", "krazy_core.games.melds.runs_ovw",
              "krazy_core.games.melds.optimizer", "krazy_core.games.melds.runs", "krazy_core.games.krazy_kings.state",
              "krazy_core.games.contract_rummy.state", "krazy_core.games.kings_rummy.state",
              "krazy_core.games.krass_kariert.state"]

# modules whose C runs in the hot path (rules, playouts, search, the State's verbs): -O3.
# Everything else is parsing and formatting at the edge: -Os (cards.pyx, rng.pyx, and each game
# package's state.pyx, its face: observation, JSON, texts; the search and the playouts never
# call it, they run the GameOps table of core.pyx).  -Os keeps the wheel within 2 MB: these
# modules (five then; KrassKariert's face joined them) were 1.15 MB unpacked at -Os, 1.63 MB at -O2 (the wheel 1.81 MB, was 2.02 MB).
# The exact contract lay-down optimizer (melds.runs, .runs_ovw, .optimizer) was part of
# Crazy Rummy's state.pyx, and stays -Os in the meld package: a lay-down search is a whole-hand
# answer for a face (best_arrangement, hints), not the playouts' path; so are the meld package's
# Python faces (melds.faces: arguments in, results out; the solvers they call are -O3).
# melds.laydown is -O3: it holds the one CR-10 step check, which Crazy Rummy's core asks in
# every legal-actions call of a seat not yet down (can go down?) and of a lay-down step
# (at -Os the contract-rummy callgrind row was 3.1 % slower; its 8 kB more are core's 8 kB less).
COLD = {"krazy_core.cards", "krazy_core.rng", "krazy_core.games.krazy_kings.state",
        "krazy_core.games.kings_rummy.state", "krazy_core.games.contract_rummy.state",
        "krazy_core.games.krass_kariert.state",
        "krazy_core.games.melds.runs", "krazy_core.games.melds.runs_ovw", "krazy_core.games.melds.optimizer",
        "krazy_core.games.melds.faces"}

directives = {
    "language_level": 3,
    "boundscheck": CHECKED,
    "wraparound": CHECKED,
    "initializedcheck": CHECKED,
    "cdivision": not CHECKED,
    "embedsignature": True,
}


# the checked build's bounds sanitizer (GCC/clang), reporting and aborting at the first bad index
BOUNDS = ["-fsanitize=bounds", "-fno-sanitize-recover=bounds"]


def _flags(compiler_type, hot):
    """(compile args, link args) for one extension under this compiler."""
    if compiler_type == "msvc":
        # /O2 is MSVC's "maximise speed"; no /Zi means no debug info; /FI puts the shims for
        # the GCC builtins the C code uses (src/krazy/portable.h) before everything else
        cflags = ["/O2", "/FIkrazy/portable.h"]
        if CHECKED:
            cflags.append("/UNDEBUG")
        return cflags, []
    # GCC and clang (unix compilers on Linux, macOS, MinGW); the last -O and -g win over
    # the interpreter's own CFLAGS (often "-g -O3")
    cflags = ["-O3" if hot else "-Os"]
    ldflags = []
    if DEBUG:
        cflags.append("-g")
    else:
        cflags.append("-g0")
        if sys.platform.startswith("linux"):
            ldflags.append("-s")                     # no symbol table either
    if CHECKED:
        cflags += ["-UNDEBUG"] + BOUNDS
        ldflags += BOUNDS
    return cflags, ldflags


def _without_rpath(cmd):
    """The link command without the build machine's ``-Wl,-rpath,...`` (a pyenv or
    self-built interpreter puts its own lib dir there; an extension needs none)."""
    out = []
    for arg in cmd:
        if arg.startswith("-Wl,") and any(p in arg for p in ("-rpath", "-R,", "--enable-new-dtags")):
            rest = [p for p in arg[4:].split(",") if p]
            keep, skip = [], False
            for p in rest:
                if skip:
                    skip = False
                    continue
                if p in ("-rpath", "-R"):
                    skip = True
                    continue
                if p.startswith(("-rpath=", "--enable-new-dtags")):
                    continue
                keep.append(p)
            if keep:
                out.append("-Wl," + ",".join(keep))
            continue
        out.append(arg)
    return out


class build_ext(_build_ext):
    """setuptools' build_ext, compiling the extensions in parallel by default and adding
    each compiler's flags."""

    def finalize_options(self):
        super().finalize_options()              # -j N / --parallel N (here or on build)
        if self.parallel is None:
            jobs = os.environ.get("KRAZY_BUILD_JOBS", "")
            self.parallel = int(jobs) if jobs.isdigit() else (os.cpu_count() or 1)

    def build_extensions(self):
        ctype = self.compiler.compiler_type
        if ctype != "msvc":
            for attr in ("linker_so", "linker_so_cxx"):
                cmd = getattr(self.compiler, attr, None)
                if cmd:
                    setattr(self.compiler, attr, _without_rpath(cmd))
        for ext in self.extensions:
            cflags, ldflags = _flags(ctype, ext.name not in COLD)
            ext.extra_compile_args = list(ext.extra_compile_args or []) + cflags
            ext.extra_link_args = list(ext.extra_link_args or []) + ldflags
        rank = {name: i for i, name in enumerate(COST_ORDER)}
        self.extensions.sort(key=lambda e: rank.get(e.name, len(rank)))
        super().build_extensions()


define_macros = []
py_limited_api = False
if LIMITED_API:
    define_macros.append(("Py_LIMITED_API", LIMITED_API))
    py_limited_api = True

extensions = []
for path in sorted(glob.glob("krazy_core/**/*.pyx", recursive=True)):
    name = path[:-4].replace(os.sep, ".").replace("/", ".")
    extensions.append(Extension(
        name, [path],
        include_dirs=["src"],
        # the C headers only: cythonize() follows each module's own cimports and includes
        # (.pxd, .pxi) and regenerates just the modules whose files changed, and build_ext
        # recompiles just those (a .pxd here would rebuild every module for any .pxd)
        depends=sorted(glob.glob("src/krazy/*.h")),
        define_macros=list(define_macros),
        py_limited_api=py_limited_api,
    ))

build_dir = "build/cython-checked" if CHECKED else "build/cython"
if LIMITED_API:
    build_dir += "-abi3"

# each kind of build in its own build/ folder, so one never reuses another's modules
options = {}
if CHECKED or LIMITED_API:
    options["build"] = {"build_base": build_dir.replace("cython", "build")}
if LIMITED_API:
    options["bdist_wheel"] = {"py_limited_api": "cp3" + str(int(LIMITED_API, 16) >> 16 & 0xFF)}

setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            compile_time_env={"KRAZY_CHECKED": CHECKED},
                            build_dir=build_dir),
      cmdclass={"build_ext": build_ext},
      options=options)
