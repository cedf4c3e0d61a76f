"""Only the Extension list and cythonize(): metadata lives in pyproject.toml.

KRAZY_CHECKED=1 builds with bounds and wrap-around checks on, C array indices included
(CI runs the conformance tests and the fuzz harness once more on that build).  Every ``krazy_core/**/*.pyx`` is one extension module.
"""
import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

CHECKED = os.environ.get("KRAZY_CHECKED", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": CHECKED,
    "wraparound": CHECKED,
    "initializedcheck": CHECKED,
    "cdivision": not CHECKED,
    "embedsignature": True,
}

# issue 19: the checked build also checks every index into a fixed-size C array (the game
# tables and the struct fields, which boundscheck does not see): GCC/Clang's bounds sanitizer,
# reporting and aborting at the first bad index
BOUNDS = ["-fsanitize=bounds", "-fno-sanitize-recover=bounds"]

extensions = []
for path in sorted(glob.glob("krazy_core/**/*.pyx", recursive=True)):
    name = path[:-4].replace(os.sep, ".").replace("/", ".")
    extensions.append(Extension(
        name, [path],
        include_dirs=["src"],
        depends=sorted(glob.glob("src/krazy/*.h") + glob.glob("krazy_core/**/*.pxd", recursive=True)),
        extra_compile_args=["-O3"] + (["-UNDEBUG"] + BOUNDS if CHECKED else []),
        extra_link_args=BOUNDS if CHECKED else [],
    ))

setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            compile_time_env={"KRAZY_CHECKED": CHECKED},
                            build_dir="build/cython-checked" if CHECKED else "build/cython"))
