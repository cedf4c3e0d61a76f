"""The documentation (issue 20): its examples run, and every public name has a page entry.

- every ``pycon`` block (``>>>`` examples) of the pages in ``docs/`` runs as a doctest;
- every ``python`` block of the guide pages runs as a script (an example that needs an optional
  extra is skipped when that extra is absent);
- the docstring examples of every public module run as doctests;
- with Sphinx installed (the ``docs`` extra), the site builds with warnings as errors and its
  inventory has an entry for each public name (``KRAZY_DOCS_BUILT=DIR`` reads a build already
  made, as ``.ci/run``'s docs stage does).  Without Sphinx only that test is skipped.
"""
from __future__ import annotations

import doctest
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
if not (DOCS / "_ext" / "krazy_docs.py").exists():      # a copy of tests/ without docs/
    pytest.skip("docs/ is not beside tests/", allow_module_level=True)
sys.path.insert(0, str(DOCS / "_ext"))
import krazy_docs  # noqa: E402  (docs/_ext: pure Python, no Sphinx needed)
from helpers import slow_cases  # noqa: E402

PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts and "_generated" not in p.parts)
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.M | re.S)
OPTIONAL = ("gymnasium", "pettingzoo", "pyspiel", "open_spiel", "starlette", "httpx", "jsonschema",
            "sb3_contrib", "stable_baselines3", "torch")


def _blocks(lang):
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == lang:
                line = text.count("\n", 0, m.start()) + 2
                out.append(pytest.param(page, line, m.group(2), id=f"{page.relative_to(DOCS)}:{line}"))
    return out


def _needs(src: str):
    for mod in OPTIONAL:
        if re.search(rf"^\s*(import|from)\s+{mod}\b|import .*\b{mod}\b", src, re.M):
            pytest.importorskip(mod)


FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _pycon_pages():
    pages = {}
    for p in _blocks("pycon"):
        pages.setdefault(p.values[0], []).append(p.values[1:])
    return [pytest.param(page, blocks, id=str(page.relative_to(DOCS))) for page, blocks in pages.items()]


@pytest.mark.parametrize("page,blocks", _pycon_pages())
def test_page_doctests(page, blocks):
    """The ``pycon`` blocks of one page run in order in one namespace, as one doctest."""
    parser = doctest.DocTestParser()
    examples = []
    for line, src in blocks:
        _needs(src.replace(">>> ", "").replace("... ", ""))
        for ex in parser.get_examples(src):
            ex.lineno += line - 1
            examples.append(ex)
    assert examples, "pycon blocks without examples"
    test = doctest.DocTest(examples, {}, str(page.relative_to(ROOT)), str(page), 0, None)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


@pytest.mark.parametrize("page,line,src", _blocks("python"))
def test_page_scripts(page, line, src):
    _needs(src)
    code = compile(src, f"{page.relative_to(ROOT)}:{line}", "exec")
    exec(code, {"__name__": "__docs__"})


def _docstring_modules():
    return [m for m in krazy_docs.PUBLIC_MODULES]


@pytest.mark.parametrize("name", _docstring_modules())
@slow_cases('krazy_core.runs.tournament')
def test_docstring_examples(name):
    mod = pytest.importorskip(name) if name.startswith("krazy_core.envs.") else importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out = []
    tests = finder.find(mod, name)
    for t in tests:
        _needs("\n".join(e.source for e in t.examples))
        runner.run(t, out=out.append)
    assert runner.failures == 0, "".join(out)


def test_doctest_count():
    """The pages and docstrings hold real examples (a count that drops means examples were lost)."""
    pages = sum(len(doctest.DocTestParser().get_examples(p.values[2])) for p in _blocks("pycon"))
    docstrings = 0
    for name in krazy_docs.PUBLIC_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        docstrings += sum(len(t.examples) for t in doctest.DocTestFinder().find(mod, name))
    assert pages >= 30 and docstrings >= 5, (pages, docstrings)


def test_generated_pages_cover_every_game(tmp_path):
    """The generator (run by the Sphinx build) writes a rules page and a reference page per game,
    with every option's rule number and every action id in its action table."""
    import krazy_core
    from krazy_core.game import get_spec
    krazy_docs.generate(tmp_path)
    for g in krazy_core.available_games():
        spec = get_spec(g)
        rules = (tmp_path / "rules" / f"{g}.md").read_text(encoding="utf-8")
        ref = (tmp_path / "games" / f"{g}.md").read_text(encoding="utf-8")
        for o in spec.options:
            assert f"`{o.name}`" in rules and f"`{o.name}`" in ref and o.rule in ref
        game = krazy_core.make(g)
        runs = krazy_docs.action_ranges(game)
        assert runs[0][0] == 0 and runs[-1][1] == game.num_distinct_actions - 1
        assert all(a[1] + 1 == b[0] for a, b in zip(runs, runs[1:]))
        for seg in game.observation_tensor_layout:
            assert f"`{seg.name}`" in ref
    assert "observation.json" in (tmp_path / "formats.md").read_text(encoding="utf-8")


def _inventory(html: Path):
    from sphinx.util.inventory import InventoryFile
    with open(html / "objects.inv", "rb") as f:
        inv = InventoryFile.load(f, "", lambda base, uri: uri)
    names = set()
    for kind, entries in inv.items():
        if kind.startswith("py:"):
            names.update(entries)
    return names


@pytest.mark.slow
def test_sphinx_build_and_coverage(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    built = os.environ.get("KRAZY_DOCS_BUILT")
    if built:
        html = Path(built)
    else:
        html = tmp_path / "html"
        r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                            "-d", str(tmp_path / "doctrees"), str(DOCS), str(html)],
                           cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[-6000:]
    names = _inventory(html)
    missing = []
    for modname in krazy_docs.PUBLIC_MODULES:
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        for n in krazy_docs.public_names(mod):
            obj = getattr(mod, n)
            canonical = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', n)}"
            if f"{modname}.{n}" not in names and canonical not in names:
                missing.append(f"{modname}.{n}")
    assert not missing, f"public names without a page entry: {missing}"
