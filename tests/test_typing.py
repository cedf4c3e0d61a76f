"""Typing (issue 12 item 7): a ``.pyi`` stub beside every compiled module, ``python -m
mypy.stubtest krazy_core`` clean with an allowlist of Cython-generated names only
(tests/data/stubtest_allowlist.txt), ``Game.new_initial_state`` typed to the game's State
(``krazy_core.make``'s overloads give ``Game[KrazyKingsState]``...), and mypy clean over the
the python examples of README.md and the guide pages (docs/guide/*.md).

mypy and stubtest run in a subprocess against the krazy_core this test imports (the installed
package in CI, the in-place build in a checkout), with the checkout's ``pyproject.toml``
``[tool.mypy]`` config."""
import importlib.machinery
import os
import pathlib
import re
import site
import subprocess
import sys
import textwrap

import pytest

import krazy_core

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
CONFIG = ROOT / "pyproject.toml"
ALLOWLIST = HERE / "data" / "stubtest_allowlist.txt"
PKG = pathlib.Path(krazy_core.__file__).resolve().parent

# mypy 2 runs on Python 3.10+ (the `test` extra installs it there); the stubs are the same files
# on every Python, checked on the newer ones
needs_mypy = pytest.mark.skipif(sys.version_info < (3, 10), reason="mypy (the test extra) runs on 3.10+")


def _compiled_modules():
    """Dotted names of the extension modules in the package under test."""
    out = []
    for path in PKG.rglob("*"):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if path.name.endswith(suffix):
                rel = path.relative_to(PKG.parent).as_posix()[: -len(suffix)]
                out.append(rel.replace("/", "."))
                break
    return sorted(out)


def _run_mypy_tool(args, cwd):
    """``python -m <args>`` in ``cwd`` against the krazy_core under test: an installed package
    is found in site-packages; an in-place build is put on PYTHONPATH and MYPYPATH."""
    env = dict(os.environ)
    parent = str(PKG.parent)
    site_dirs = {os.path.realpath(p) for p in site.getsitepackages() + [site.getusersitepackages()]}
    if os.path.realpath(parent) not in site_dirs:
        for var in ("PYTHONPATH", "MYPYPATH"):
            env[var] = os.pathsep.join([parent] + ([env[var]] if env.get(var) else []))
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900)


def test_every_compiled_module_has_a_stub():
    """A ``.pyi`` beside every extension module (and, in a checkout, every ``.pyx`` is built
    and has one): the modules stubtest checks are all the compiled ones."""
    mods = _compiled_modules()
    assert {"krazy_core._state", "krazy_core.cards", "krazy_core.rng", "krazy_core.vector",
            "krazy_core.games.krazy_kings.core", "krazy_core.games.kings_rummy.core",
            "krazy_core.games.contract_rummy.core", "krazy_core.games.krass_kariert.core",
            "krazy_core.games.melds.faces", "krazy_core.search.ismcts"} <= set(mods)
    missing = [m for m in mods if not (PKG.parent / (m.replace(".", "/") + ".pyi")).is_file()]
    assert missing == []
    for pyx in PKG.rglob("*.pyx"):                  # a source checkout: every .pyx is stubbed
        assert pyx.with_suffix(".pyi").is_file(), f"{pyx} has no .pyi"
        mod = pyx.relative_to(PKG.parent).with_suffix("").as_posix().replace("/", ".")
        assert mod in mods, f"{pyx} is not built"
    assert (PKG / "py.typed").is_file()


# classes deriving from a pybind11 class (pyspiel.Bot): their metaclass is pybind11_type, which
# mypy cannot see through pyspiel's missing stubs
PYBIND11_CLASSES = {r"krazy_core\.envs\.openspiel\.KrazyBot"}


def test_allowlist_holds_cython_generated_names_only():
    entries = [ln.strip() for ln in ALLOWLIST.read_text(encoding="utf-8").splitlines()
               if ln.strip() and not ln.lstrip().startswith("#")]
    assert entries
    for e in entries:
        if e in PYBIND11_CLASSES:        # a subclass of a pybind11 class (its metaclass), said
            continue                     # in the allowlist's comment
        assert re.fullmatch(r"krazy_core\\\.\.\*\\\.(__pyx_\w+|__reduce_cython__|__setstate_cython__|__test__)", e), e


@needs_mypy
@pytest.mark.slow
def test_stubtest_is_clean(tmp_path):
    """``python -m mypy.stubtest krazy_core`` finds every stub agreeing with the runtime
    (names, parameters, kinds, defaults, disjoint bases...) bar the Cython-generated names of
    the allowlist; it also reports allowlist entries that match nothing."""
    r = _run_mypy_tool(["mypy.stubtest", "krazy_core", "--mypy-config-file", str(CONFIG),
                        "--allowlist", str(ALLOWLIST)], cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert "Success: no issues found" in r.stdout


def _readme_python_blocks():
    """The python examples of README.md and of the guide pages (docs/guide/*.md), where the
    README's examples moved (issue 20); tests/test_docs.py runs them."""
    blocks = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]:
        if page.exists():
            blocks += re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return blocks


# mypy must infer these: make() with a game id gives that game's State class, which has the
# game's own methods; a wrong one is an error (so the types are not Any)
TYPED = '''
from typing import List
from typing_extensions import assert_type
import krazy_core
from krazy_core import Game, State
from krazy_core.games.krazy_kings import KrazyKingsState
from krazy_core.games.kings_rummy import KingsRummyState
from krazy_core.games.contract_rummy import ContractRummyState
from krazy_core.games.krass_kariert import KrassKariertState

kk = krazy_core.make("krazy-kings", num_players=4)
assert_type(kk, Game[KrazyKingsState])
s = kk.new_initial_state(seed=1)
assert_type(s, KrazyKingsState)
assert_type(s.clone(), KrazyKingsState)
assert_type(s.determinize(0, seed=3), KrazyKingsState)
assert_type(kk.state_from_json(s.to_json()), KrazyKingsState)
assert_type(s.census(), List[int])
assert_type(krazy_core.make("kings-rummy").new_initial_state(), KingsRummyState)
assert_type(krazy_core.make("contract-rummy").new_initial_state(), ContractRummyState)
assert_type(krazy_core.make("krass-kariert").new_initial_state(), KrassKariertState)
gid: str = "krazy-kings"
assert_type(krazy_core.make(gid).new_initial_state(), State)
general: Game[State] = kk                        # a Game of a game's states is a Game[State]
'''
# each line must be an error at its line: (line marker, the error's text)
WRONG = '''
import krazy_core
r = krazy_core.make("kings-rummy").new_initial_state(seed=1)
r.census()  # E1
n: str = krazy_core.make("krazy-kings").new_initial_state().current_player()  # E2
krazy_core.make("krass-kariert").new_initial_state(seed="7")  # E3
'''


@needs_mypy
@pytest.mark.slow
def test_mypy_over_readme_examples_and_game_typed_states(tmp_path):
    """mypy over each ``python`` block of README.md and the guide pages (as a module of its own) is clean, the
    overloads give each game's State, and misuse is reported (``census`` is not a Kings
    Rummy method; ``current_player`` is an int; a seed is an int)."""
    blocks = _readme_python_blocks()
    assert len(blocks) >= 3
    files = []
    for i, b in enumerate(blocks):
        f = tmp_path / f"readme_{i}.py"
        f.write_text(textwrap.dedent(b), encoding="utf-8")
        files.append(f.name)
    (tmp_path / "typed_states.py").write_text(TYPED, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(WRONG, encoding="utf-8")
    r = _run_mypy_tool(["mypy", "--config-file", str(CONFIG), "--no-incremental",
                        "--show-error-codes", "--no-error-summary", *files, "typed_states.py",
                        "wrong.py"], cwd=tmp_path)
    out = r.stdout.strip().splitlines()
    wrong_lines = {m: i for i, line in enumerate(WRONG.splitlines(), 1)
                   for m in re.findall(r"# (E\d)", line)}
    expected = {
        "E1": '"KingsRummyState" has no attribute "census"',
        "E2": 'Incompatible types in assignment (expression has type "int", variable has type "str")',
        "E3": 'Argument "seed" to "new_initial_state" of "Game" has incompatible type "str"',
    }
    errors = [ln for ln in out if ": error:" in ln]
    for mark, msg in expected.items():
        assert any(ln.startswith(f"wrong.py:{wrong_lines[mark]}:") and msg in ln for ln in errors), (mark, out)
    others = [ln for ln in errors if not ln.startswith("wrong.py:")]
    assert others == [] and len(errors) == len(expected), "\n".join(out) + r.stderr[-3000:]
