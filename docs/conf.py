"""Sphinx configuration of krazy_core's documentation (issue 20).

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (the ``docs`` extra).
The per-game pages (rules, reference, JSON formats) are generated from the code at every build
by ``docs/_ext/krazy_docs.py`` into ``docs/_generated/`` (not committed), so they cannot rot.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))


def _use_tree_or_installed() -> None:
    """Import krazy_core from this tree when it is built in place (``setup.py build_ext
    --inplace``), else the installed one: ``python -m sphinx`` puts the working directory first
    on ``sys.path``, and an unbuilt source folder would shadow the installed package."""
    built = any((ROOT / "krazy_core").glob("_state.*.so")) or any((ROOT / "krazy_core").glob("_state.*.pyd"))
    if built:
        sys.path.insert(0, str(ROOT))
    else:
        sys.path[:] = [p for p in sys.path if p not in ("", ".", str(ROOT), os.getcwd())]


_use_tree_or_installed()
import krazy_core  # noqa: E402

project = "krazy_core"
author = "krazy_core authors"
copyright = "krazy_core authors (MIT)"
release = version = krazy_core.__version__ if hasattr(krazy_core, "__version__") else ""

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "krazy_docs",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]       # the rules texts start at their own heading level

# the optional extras' libraries (envs, server) are mocked when absent, so the pages build
# with the docs extra alone; CI builds in stage 1's venv, where they are all installed
autodoc_mock_imports = [m for m in ("gymnasium", "pettingzoo", "pyspiel", "open_spiel", "starlette",
                                    "uvicorn", "ray", "pyarrow", "openskill", "matplotlib", "orjson",
                                    "jsonschema", "referencing")
                        if importlib.util.find_spec(m) is None]
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
add_module_names = False

html_theme = "furo" if importlib.util.find_spec("furo") else "alabaster"
html_title = "krazy_core"
