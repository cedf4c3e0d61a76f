"""Imports run one way (issue 12 item 4): this test reads every import of the package (``ast``
over the ``.py`` files; the ``import``/``cimport`` lines of the ``.pyx``/``.pxi``/``.pxd`` files)
and fails when a layer rule is broken.

Layers, bottom up:

0. ``errors``, ``_validate``, ``cards``, ``_cards``, ``_ops``, ``rng``, ``spec`` (option and
   spec types, ``Game``), ``_words`` (the game-blind half of the game's words): the base,
   importing nothing of the package above it;
1. ``_state``: the generic state, over layer 0 only (``rng`` below it, not above);
2. the games, the meld package ``games.melds`` (``games/melds/``: every meld question, over
   layer 0 and its own modules only, never a game), ``search.ismcts``: over layers 0-1 and
   the meld package;
   each game is a package ``games/<game>/`` (issue 12 item 1), layered inside, bottom up:
   ``core`` (``.pxd``/``.pyx``: the rules; no Python face of any kind), ``notation`` (over
   the base and its own core), ``state`` (over its core and its notation), ``words`` (the
   game's words for frontends, over its core and notation, never the state), the package
   ``__init__`` (over those), ``view`` (a face: nothing of the game imports it, the registry
   finds it); none of them imports the registry (``krazy_core.game``) or ``krazy_core``;
3. the Python faces above the games: ``game`` (the registry, ``make``), ``bots``, ``ui``,
   ``search.bot``, ``learn.model``, the package ``__init__``; ``protocol`` (the JSON faces
   and their schemas) and ``envs`` (the AI faces);
4. running many games: the package ``runs`` (``runner``, ``store``, ``jobs``, then
   ``arena``, ``tournament``, ``sprt``, ``selfplay``) and ``learn.train``;
5. the front ends: the package ``cli`` (``common``, ``table``, ``moves``, ``narrate``,
   ``play``, ``runs``, ``info``, then the parser) and ``server``.

Nothing imports a layer above its own, and no module imports a module of the package
inside a function unless a comment on that line or the line above says why.
"""
import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "krazy_core"

BASE = {"krazy_core.errors", "krazy_core._validate", "krazy_core.cards", "krazy_core._cards",
        "krazy_core._ops", "krazy_core.rng", "krazy_core.spec", "krazy_core._words"}
GAME_LAYER_OK = BASE | {"krazy_core._state", "krazy_core.games.melds"}
MELDS = "krazy_core.games.melds"


def _is_melds(name):
    """Whether dotted ``name`` is the meld package or one of its modules."""
    return name == MELDS or name.startswith(MELDS + ".")


FACES = {"krazy_core", "krazy_core.game", "krazy_core.bots", "krazy_core.runs.arena", "krazy_core.ui",
         "krazy_core.cli", "krazy_core.search.bot"}

# the four games' packages (krazy_core/games/<game>/)
GAMES = ("krazy_kings", "kings_rummy", "contract_rummy", "krass_kariert")
# what each module of a game package may import from the package itself, bottom up
PACKAGE_LAYERS = {"core": {"core"}, "notation": {"core", "notation"},
                  "state": {"core", "notation", "state"},
                  "words": {"core", "notation", "words"},
                  "schema": {"schema"},
                  "__init__": {"core", "notation", "state", "words", "schema", "__init__"},
                  "view": {"core", "notation", "state", "words", "__init__", "view"}}
# the parts of core.pyx kept in files of their own and included by it (one C unit): the
# determinization, the one validator, the observation tensor's writer; a game's Python faces
# of its rules core (KrassKariert's combinations) may be one more
CORE_INCLUDES = {"inference", "validate", "tensor", "faces"}

_LINE = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\b|c?import\s+([\w.]+))", re.M)


def _module_of(path):
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path):
    """Every krazy_core module ``path`` imports (anywhere in the file), as dotted names."""
    text = path.read_text(encoding="utf-8")
    found = set()
    if path.suffix == ".py":
        tree = ast.parse(text)
        for node in ast.walk(tree):         # annotations-only imports do not run
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                node.body = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
    else:
        for m in _LINE.finditer(text):
            found.add(m.group(1) or m.group(2))
    return {f for f in found if f == "krazy_core" or f.startswith("krazy_core.")}


def _files(*patterns):
    out = []
    for pat in patterns:
        out += sorted(ROOT.glob(pat))
    return out


def _is_module(name):
    """Whether dotted ``name`` is a module of the package (not a name imported from one)."""
    rel = pathlib.Path(*name.split(".")[1:]) if "." in name else pathlib.Path()
    base = ROOT / rel
    return name == "krazy_core" or any(base.with_suffix(s).exists() for s in (".py", ".pyx", ".pxd")) \
        or (base / "__init__.py").exists()


def _modules(names):
    return {n for n in names if _is_module(n)}


def test_the_reader_sees_imports():
    """The reader itself: it finds imports of every form (so the rules below can fail)."""
    assert "krazy_core._state" in imports_of(ROOT / "games" / "krazy_kings" / "state.pyx")
    assert "krazy_core.games.krazy_kings.core" in imports_of(ROOT / "games" / "krazy_kings" / "state.pyx")
    assert "krazy_core.games.krazy_kings.notation" in imports_of(ROOT / "games" / "krazy_kings" / "state.pyx")
    assert "krazy_core.errors" in imports_of(ROOT / "bots" / "__init__.py")
    assert "krazy_core.rng" in _modules(imports_of(ROOT / "_state.pyx"))
    assert not _is_module("krazy_core.errors.ConfigError") and _is_module("krazy_core.games.melds")


@pytest.mark.parametrize("path", _files("errors.py", "_validate.py", "cards.pyx", "_cards.pxd",
                                        "_ops.pxd", "rng.pyx", "spec.py"), ids=lambda p: p.name)
def test_base_layer_imports_only_the_base(path):
    bad = _modules(imports_of(path)) - BASE - {_module_of(path)}
    assert not bad, f"{path.name} (layer 0) imports {sorted(bad)}"


def test_rng_sits_below_the_state():
    assert "krazy_core._state" not in imports_of(ROOT / "rng.pyx")
    bad = _modules(imports_of(ROOT / "_state.pyx") | imports_of(ROOT / "_state.pxd")) - BASE - {"krazy_core._state"}
    assert not bad, f"_state imports {sorted(bad)} from above it"


def _melds_files():
    return _files("games/melds/*.py", "games/melds/*.pyx", "games/melds/*.pxi", "games/melds/*.pxd")


def test_the_meld_rules_see_the_meld_package():
    names = {p.relative_to(ROOT).as_posix() for p in _melds_files()}
    assert {"games/melds/__init__.py", "games/melds/rules.pxd", "games/melds/free.pyx",
            "games/melds/contract.pxd"} <= names
    assert "krazy_core.games.melds.rules" in imports_of(ROOT / "games" / "melds" / "free.pyx")


@pytest.mark.parametrize("path", _melds_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_meld_package_imports_no_game(path):
    """``games/melds/`` sits below every game: its modules import the base (layer 0) and the
    package's own modules, never a game, the generic State, the search or a face (so what a
    meld call answers cannot depend on what was imported before it)."""
    mods = _modules(imports_of(path))
    bad = {m for m in mods if not _is_melds(m)} - BASE
    assert not bad, f"games/melds/{path.name} imports {sorted(bad)}"
    text = path.read_text(encoding="utf-8")
    assert "import krazy_core\n" not in text and "krazy_core.make(" not in text


@pytest.mark.parametrize("path", _files("games/*.pyx", "games/*.pxi", "games/*.pxd", "games/*/*.pyx",
                                        "games/*/*.pxi", "games/*/*.pxd", "search/*.pyx",
                                        "search/*.pxi", "search/*.pxd"), ids=lambda p: str(p.relative_to(ROOT)))
def test_compiled_games_import_no_python_face(path):
    """No compiled game (or the search) imports the registry, ``krazy_core.make``, a bot, the
    CLI or a view; none calls ``krazy_core.make``."""
    if path.parent.name == "melds":
        return                                      # test_the_meld_package_imports_no_game
    if path.parent.parent.name == "games":
        # a game package (games/<game>/): core (.pxd/.pyx) over the base only; state over its
        # core and notation
        own = path.parent.name
        allowed = GAME_LAYER_OK | {f"krazy_core.games.{own}.core"}
        if path.stem == "state":
            allowed |= {f"krazy_core.games.{own}.notation"}
    else:                                           # games/melds, the search
        allowed = GAME_LAYER_OK | {"krazy_core.search.ismcts", "krazy_core.search.value_model",
                                   "krazy_core.search.policy_model", "krazy_core.search.options"}
    mods = _modules(imports_of(path))
    bad = {m for m in mods if not _is_melds(m)} - allowed
    assert not bad, f"{path.name} imports {sorted(bad)}"
    assert not mods & FACES
    text = path.read_text(encoding="utf-8")
    assert "krazy_core.make(" not in text and "import krazy_core\n" not in text


def _package_files():
    out = []
    for game in GAMES:
        pkg = ROOT / "games" / game
        if (pkg / "__init__.py").exists():
            out += sorted(p for p in pkg.iterdir() if p.suffix in (".py", ".pyx", ".pxd", ".pxi"))
    return out


def _package_part(name, game):
    """``"core"``, ``"state"``, ... for a module of ``game``'s package (``"__init__"`` for the
    package itself), else ``None``."""
    pkg = f"krazy_core.games.{game}"
    if name == pkg:
        return "__init__"
    if name.startswith(pkg + "."):
        return name[len(pkg) + 1:].split(".")[0]
    return None


def test_the_package_rules_see_a_game_package():
    """The packaged games' files are found (so the rule below is not vacuous)."""
    names = {p.relative_to(ROOT).as_posix() for p in _package_files()}
    assert {"games/krazy_kings/core.pyx", "games/krazy_kings/core.pxd", "games/krazy_kings/state.pyx",
            "games/krazy_kings/notation.py", "games/krazy_kings/view.py",
            "games/krazy_kings/__init__.py"} <= names
    assert _package_part("krazy_core.games.krazy_kings.core", "krazy_kings") == "core"
    assert _package_part("krazy_core.games.krazy_kings", "krazy_kings") == "__init__"
    assert _package_part("krazy_core.games.kings_rummy", "krazy_kings") is None


@pytest.mark.parametrize("path", _package_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_game_package_imports_one_way(path):
    """Inside ``games/<game>/``: core < notation < state < __init__ < view (PACKAGE_LAYERS);
    core imports no Python face at all; nothing imports the registry, ``krazy_core`` or
    another game; the files of the package are exactly the template's (a ``.pxi`` is one of
    ``CORE_INCLUDES``, a part of ``core.pyx`` that it includes)."""
    game = path.parent.name
    part = path.stem
    if path.suffix == ".pxi":
        assert part in CORE_INCLUDES, f"{path.name} is not a file of the template"
        assert f'include "{path.name}"' in (path.parent / "core.pyx").read_text(encoding="utf-8")
        part = "core"
    assert part in PACKAGE_LAYERS, f"{path.name} is not a file of the template"
    mods = _modules(imports_of(path))
    own = {m for m in mods if _package_part(m, game) is not None}
    bad = {m for m in own if _package_part(m, game) not in PACKAGE_LAYERS[part]}
    assert not bad, f"{game}/{path.name} ({part}) imports {sorted(bad)} from above it"
    others = mods - own
    other_games = {m for m in others if m.startswith("krazy_core.games.") and not _is_melds(m)}
    assert not other_games, f"{game}/{path.name} imports another game: {sorted(other_games)}"
    if part == "view":
        return                                  # a face: the generic ui, rich, the cards ...
    allowed = GAME_LAYER_OK | ({"krazy_core.search.ismcts"} if part in ("core", "state") else set()) \
        | ({"krazy_core.protocol.schemas._parts"} if part == "schema" else set())
    others = {m for m in others if not _is_melds(m)}
    assert not others - allowed, f"{game}/{path.name} imports {sorted(others - allowed)}"
    text = path.read_text(encoding="utf-8")
    assert "krazy_core.make(" not in text and "import krazy_core\n" not in text


def test_no_source_names_a_cython_generated_symbol():
    """No ``__pyx_...`` name in inline C or anywhere in the sources (issue 12 item 1): a
    function the C code calls gets its own C name (``cdef f "f_c"(...)``) or a pointer."""
    bad = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
           if p.suffix in (".pyx", ".pxd", ".pxi", ".py", ".h") and "__pyx_" in p.read_text(encoding="utf-8")]
    assert not bad


def test_bots_and_search_do_not_import_each_other_in_a_circle():
    assert not any(m.startswith("krazy_core.bots") for m in imports_of(ROOT / "search" / "ismcts.pyx"))
    for p in _files("bots/*.py"):
        assert "krazy_core.search.bot" not in imports_of(p), p.name
    assert "krazy_core.game" not in _modules(imports_of(ROOT / "spec.py"))


# the layers above the games, bottom up: a module of one may import the ones below, never above
# (``learn.model``, the learned models' face, sits with the bots; ``learn.train`` is a run)
UPPER = [("krazy_core.protocol", "krazy_core.envs"),
         ("krazy_core.runs", "krazy_core.learn.train"),
         ("krazy_core.cli", "krazy_core.server", "krazy_core.__main__")]
# the schemas' building blocks: a leaf (it imports nothing of the package) the games' own
# schema parts are written with
SCHEMA_PARTS = "krazy_core.protocol.schemas._parts"


def _layer_of(module):
    for i, group in enumerate(UPPER):
        if any(module == g or module.startswith(g + ".") for g in group):
            return i
    return -1                       # the engine, the games, the bots: below every group


def _all_py_and_pyx():
    return [p for p in ROOT.rglob("*") if p.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in p.parts]


def test_the_reader_sees_the_upper_layers():
    assert _layer_of("krazy_core.runs.arena") == 1 and _layer_of("krazy_core.cli.play") == 2
    assert _layer_of("krazy_core.protocol.schemas") == 0 and _layer_of("krazy_core.game") == -1
    assert "krazy_core.runs.runner" in imports_of(ROOT / "runs" / "arena.py")


def test_no_module_imports_a_layer_above_its_own():
    """The engine and the games import none of protocol, envs, learn, runs, cli, server
    (but the schema parts, a leaf); the runs import no front end; the protocol no run."""
    bad = []
    for p in _all_py_and_pyx():
        me = _module_of(p)
        mine = _layer_of(me)
        for m in _modules(imports_of(p)):
            if m == SCHEMA_PARTS:
                continue
            if _layer_of(m) > mine:
                bad.append(f"{me} imports {m}")
    assert not bad, bad
    assert not _modules(imports_of(ROOT / "protocol" / "schemas" / "_parts.py"))


def test_the_runs_are_no_circle():
    """The runner plays what a batch's payload names: it imports none of the runs above it."""
    runner = _modules(imports_of(ROOT / "runs" / "runner.py"))
    assert not {m for m in runner if m.startswith("krazy_core.runs")}, runner
    jobs = _modules(imports_of(ROOT / "runs" / "jobs.py"))
    assert not {m for m in jobs if m.startswith("krazy_core.runs")}, jobs
    for name in ("arena", "tournament", "sprt", "selfplay"):
        used = {m for m in _modules(imports_of(ROOT / "runs" / f"{name}.py")) if m.startswith("krazy_core.runs.")}
        assert used <= {"krazy_core.runs.jobs", "krazy_core.runs.runner", "krazy_core.runs.store"}, (name, used)


CLI_ORDER = ["common", "table", "moves", "narrate", "play", "runs", "info", "__init__"]


def test_the_cli_modules_import_one_way():
    """Each module of ``cli`` imports only the ones before it in ``CLI_ORDER``."""
    for i, name in enumerate(CLI_ORDER):
        path = ROOT / "cli" / f"{name}.py"
        below = {"krazy_core.cli." + n for n in CLI_ORDER[:i] if n != "__init__"}
        used = {m for m in _modules(imports_of(path)) if m.startswith("krazy_core.cli.")}
        assert used <= below, (name, used - below)
    assert sorted(p.stem for p in (ROOT / "cli").glob("*.py")) == sorted(CLI_ORDER + ["__main__"])


def _function_level_imports(path):
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    seen = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if id(node) in seen or not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            seen.add(id(node))
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.level:
                names = ["krazy_core.(relative)"]
            if any(n == "krazy_core" or n.startswith("krazy_core.") for n in names):
                said = "#" in lines[node.lineno - 1] or lines[node.lineno - 2].strip().startswith("#")
                yield node.lineno, names[0], said


def test_the_reader_sees_function_level_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from krazy_core.cards import parse_card\n\n"
                 "def g():\n    # why: a cycle\n    import krazy_core.game\n", encoding="utf-8")
    assert list(_function_level_imports(f)) == [(2, "krazy_core.cards", False), (6, "krazy_core.game", True)]


def test_no_function_level_import_of_the_package_without_a_reason():
    """An import of the package's own modules inside a function hides a cycle or a cost;
    where one is needed (an optional extra, a real cycle), a comment says why."""
    bad = [f"{p.relative_to(ROOT)}:{line} {mod}" for p in sorted(ROOT.rglob("*.py"))
           for line, mod, said in _function_level_imports(p) if not said]
    assert not bad, bad


def test_bots_ismcts_is_a_class():
    from krazy_core import bots
    b = bots.make_bot("ismcts:10", seed=1)
    assert isinstance(b, bots.ISMCTSBot) and isinstance(b, bots.Bot)
    import krazy_core.search.bot as old
    assert old.ISMCTSBot is bots.ISMCTSBot


def test_the_generic_cli_holds_no_game_knowledge():
    """The CLI names no game and tests no game's card codes (``typed_card`` of the view)."""
    text = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "cli").glob("*.py")))
    for word in ("0x60", "0x61", "0x70", "krazy-kings\"", "kings-rummy\"", "contract-rummy\"",
                 "krass-kariert\"", "_action_named", "_explain_illegal", "hasattr(state, \"_"):
        assert word not in text, word


def test_every_compiled_module_has_a_stub():
    """Item 7's cheap part: a ``.pyi`` beside every ``.pyx`` of the package."""
    missing = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.pyx") if not p.with_suffix(".pyi").exists()]
    assert not missing


@pytest.mark.parametrize("path", _files("games/*/core.pyx", "games/*/core.pxd"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_a_game_core_sits_below_its_state_and_faces(path):
    """In a game package, core (the rules) imports none of its own package's faces: not
    ``state``, ``notation``, ``view`` or the package ``__init__`` (layers: core < state <
    __init__; notation and view are faces)."""
    own = f"krazy_core.games.{path.parent.name}"
    mods = imports_of(path)
    assert not {m for m in mods if m == own or (m.startswith(own + ".") and m != own + ".core")}




# Where a game's id or one of its own event names may appear outside games/ (a game folder
# is enough to add a game): the registry, make()'s typed overloads, default arguments, and
# docstring examples; KNOWN_EVENT_NAMES: {file: event names it may still say} (none).
GAME_ID_ALLOWED = re.compile(r'^\s*("[a-z-]+": "krazy_core\.games\.\w+",|def \w+\(.*game_id: (str|Literal\[)|'
                             r'GAME_ID = "|>>> |#|.*``|.*\(e\.g\. )')
KNOWN_EVENT_NAMES: dict = {}


def _game_ids_and_event_names():
    from krazy_core.game import REGISTRY
    import importlib
    names = set()
    for gid, mod in REGISTRY.items():
        names |= set(importlib.import_module(mod + ".state").EVENT_NAMES.values())
    shared = {"deal", "draw", "turn", "shuffle", "discard", "pass", "play", "game_over", "round", "stop",
              "take", "buy", "keep", "lay", "meld", "down", "score", "out", "chip", "win", "reverse",
              "direction", "roll", "challenge", "decline", "swap", "turn_limit", "go_down", "go_out",
              "lay_off", "up_card"}
    return set(REGISTRY), names - shared


def test_no_game_id_or_game_event_name_outside_the_games_folder():
    """A quoted game id outside ``games/`` only where GAME_ID_ALLOWED says (the registry,
    typed overloads, defaults, examples); a game's own event name (one no other game shares
    the meaning of) only in KNOWN_EVENT_NAMES' places.  The browser's app.js is read for
    game ids."""
    ids, events = _game_ids_and_event_names()
    bad = []
    files = [p for p in ROOT.rglob("*") if p.suffix in (".py", ".pyx", ".js")
             and "games" not in p.relative_to(ROOT).parts and "__pycache__" not in p.parts]
    assert any(p.name == "app.js" for p in files)
    for p in files:
        rel = p.relative_to(ROOT).as_posix()
        for i, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1):
            for w in ids:
                if (f'"{w}"' in line or f"'{w}'" in line) and not GAME_ID_ALLOWED.search(line):
                    bad.append(f"{rel}:{i}: game id {w}")
            # (app.js speaks of action kinds and page elements, not events: game ids only)
            for w in (events - KNOWN_EVENT_NAMES.get(rel, set())) if p.suffix != ".js" else ():
                if f'"{w}"' in line or f"'{w}'" in line:
                    bad.append(f"{rel}:{i}: event {w}")
    assert not bad, "\n".join(bad)
