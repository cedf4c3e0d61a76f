"""Pages generated from the code at every build (issue 20), so they cannot rot.

``generate(outdir)`` writes, under ``docs/_generated/``:

- ``rules/<game>.md``: the numbered rules, read through the same API as ``krazy rules``
  (``GameSpec.rules_file`` under the installed package), then the options table and the
  table's notes;
- ``games/<game>.md``: a reference page in PettingZoo's manner: players, the action table (id
  ranges and what they mean, from ``State.action_to_string`` over every id, and the named
  action ids of the game module), the observation tensor's named segments
  (``Game.observation_tensor_layout``), rewards and returns, options with rule numbers;
- ``formats.md``: the JSON Schemas of ``krazy_core/protocol/schemas/`` as tables.

Pure Python over krazy_core's public API; importable without Sphinx (``tests/test_docs.py``
uses ``PUBLIC_MODULES`` and ``public_names``).  As a Sphinx extension it runs ``generate`` at
``builder-inited``.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import types
from importlib import resources
from pathlib import Path
from typing import Dict, List, Tuple

# the modules whose every public name has a page entry (the generated API pages document them;
# tests/test_docs.py checks the built inventory against this list)
PUBLIC_MODULES = [
    "krazy_core", "krazy_core.errors", "krazy_core.cards", "krazy_core.spec", "krazy_core.game",
    "krazy_core.rng", "krazy_core.vector", "krazy_core.bots", "krazy_core.search.ismcts",
    "krazy_core.learn.model",
    "krazy_core.envs", "krazy_core.envs.pettingzoo", "krazy_core.envs.gymnasium",
    "krazy_core.envs.openspiel", "krazy_core.envs.sb3", "krazy_core.protocol",
    "krazy_core.games.krazy_kings", "krazy_core.games.kings_rummy",
    "krazy_core.games.contract_rummy", "krazy_core.games.krass_kariert", "krazy_core.games.melds",
    "krazy_core.runs", "krazy_core.runs.jobs",
    "krazy_core.runs.arena", "krazy_core.runs.tournament", "krazy_core.runs.sprt", "krazy_core.runs.runner",
    "krazy_core.runs.selfplay", "krazy_core.runs.store",
]


def public_names(module: types.ModuleType) -> List[str]:
    """A module's public names: its ``__all__``, else (a compiled module without one) every
    name not starting with ``_`` that is not a module, a typing alias or an object defined in
    another module (the imports a ``.pyx`` leaks)."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    out = []
    for name, obj in vars(module).items():
        if name.startswith("_") or isinstance(obj, types.ModuleType):
            continue
        if name == "TYPE_CHECKING" or type(obj).__name__ == "_Feature":     # from __future__ import ...
            continue
        if getattr(obj, "__module__", None) in ("typing", "collections.abc"):
            continue
        if (inspect.isclass(obj) or callable(obj)) and getattr(obj, "__module__", module.__name__) != module.__name__:
            continue
        out.append(name)
    return sorted(out)


# ---------------------------------------------------------------------------------- helpers

def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: List[str], rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _code(text) -> str:
    return f"`{text}`"


def rules_text(spec) -> str:
    """The rules text of a game, found as ``krazy rules`` finds it (``GameSpec.rules_file``: a
    path under the package, ``games/<game>/rules.md``)."""
    where = spec.rules_file.split("/")
    return resources.files("krazy_core").joinpath(*where).read_text(encoding="utf-8")




def options_rows(spec) -> List[List[str]]:
    rows = []
    for o in spec.options:
        if o.kind is int:
            rng = f"{o.lo} .. {o.hi}"
        elif o.kind is bool:
            rng = "true / false"
        else:
            rng = " / ".join(o.choices)
        default = str(o.default).lower() if o.kind is bool else str(o.default)
        rows.append([_code(o.name), _code(default), rng, o.rule or "", o.doc])
    return rows


OPTIONS_HEADER = ["option", "default", "range", "rule", "meaning"]

_CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣★]|🃏|\bJK\b")
_SUIT = re.compile(r"\b[SHDC]\b")
_NUM = re.compile(r"\d+")


def _template(name: str) -> str:
    return _NUM.sub("<n>", _SUIT.sub("<suit>", _CARD.sub("<card>", name)))


def _prefix(template: str) -> str:
    m = re.search(r"<", template)
    return (template[:m.start()] if m else template).strip(" ,")


def action_ranges(game) -> List[Tuple[int, int, str, List[str], str, str]]:
    """``(first, last, words, forms, first name, last name)`` for each run of action ids whose
    names (``State.action_to_string`` of a fresh state) start with the same words; ``forms``
    are the run's distinct names with cards, suits and numbers as ``<card>``, ``<suit>``, ``<n>``."""
    state = game.new_initial_state(seed=0)
    runs: List[list] = []
    for a in range(game.num_distinct_actions):
        name = state.action_to_string(a)
        t = _template(name)
        p = _prefix(t)
        if runs and runs[-1][2] == p:
            runs[-1][1] = a
            if t not in runs[-1][3]:
                runs[-1][3].append(t)
            runs[-1][5] = name
        else:
            runs.append([a, a, p, [t], name, name])
    return [tuple(r) for r in runs]


def named_action_ids(game_module, num_actions: int, starts) -> List[Tuple[str, int, str]]:
    """The game module's named action ids: its upper-case int constants (those of its
    ``notation`` module when it has one, with their docstrings) whose value starts a run of
    :func:`action_ranges`.  Sizes (``NUM_*``, ``TENSOR*``, ``MAX_*``, ``*KINDS``, ``*SLOTS``) are
    not ids."""
    docs: Dict[str, str] = {}
    source = game_module
    try:
        notation = importlib.import_module(game_module.__name__ + ".notation")
        source = notation
        from sphinx.pycode import ModuleAnalyzer      # only under Sphinx; without it no docs
        docs = {k[1]: " ".join(v).strip() for k, v in
                ModuleAnalyzer.for_module(notation.__name__).find_attr_docs().items()}
    except Exception:
        pass
    out = []
    for name, value in vars(source).items():
        if (name.startswith("_") or not name.isupper() or type(value) is not int
                or name.startswith(("NUM_", "TENSOR", "MAX_")) or name.endswith(("KINDS", "SLOTS"))
                or not 0 <= value < num_actions or value not in starts):
            continue
        out.append((name, value, docs.get(name, "")))
    return sorted(out, key=lambda r: (r[1], r[0]))


def _shapes(spec) -> str:
    shapes = {n: tuple(spec.tensor_shape(n)) for n in range(spec.min_players, spec.max_players + 1)}
    if len(set(shapes.values())) == 1:
        return f"`{next(iter(shapes.values()))}` at every player count,"
    return ", ".join(f"{n} players: `{sh}`" for n, sh in shapes.items())


def game_page(game_id: str) -> str:
    import krazy_core
    from krazy_core.envs import ENV_IDS
    from krazy_core.game import REGISTRY, get_spec
    spec = get_spec(game_id)
    module = importlib.import_module(REGISTRY[game_id])
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=0)
    cls = type(state)
    out = [f"# {spec.name} (`{game_id}`) reference\n",
           "<!-- generated by docs/_ext/krazy_docs.py from the code at build time; do not edit -->\n",
           f"{spec.summary}\n" if spec.summary else "",
           f"Rules: [{spec.name} rules](../rules/{game_id}.md).  Module: "
           f"{{mod}}`{module.__name__}`; state class {{class}}`{cls.__module__}.{cls.__name__}`.\n"]
    out.append(_table(["", ""], [
        ["import", f"`krazy_core.make({game_id!r}, num_players=N, **options)`"],
        ["players", f"{spec.min_players} .. {spec.max_players} (default {spec.default_players})"],
        ["actions", f"`game.num_distinct_actions` = {spec.num_distinct_actions} (ids 0 .. {spec.num_distinct_actions - 1})"],
        ["observation tensor", _shapes(spec) + " float32 (`game.observation_tensor_shape`)"],
        ["action mask", f"`state.legal_action_mask()`: numpy bool, length {spec.num_distinct_actions}; "
                        f"int8 in the envs"],
        ["returns", f"`state.returns()`: one float per seat in [{spec.min_utility}, {spec.max_utility}]"],
        ["PettingZoo", f"`krazy_core.envs.pettingzoo.env({game_id!r}, num_players=N)`: agents "
                       f"`player_0` … `player_{{N-1}}`, observation dict `observation` + `action_mask`"],
        ["Gymnasium", f"`gymnasium.make({ENV_IDS[game_id]!r})` after `import krazy_core.envs`; "
                      f"`krazy_core.vector.VectorEnv({game_id!r}, num_envs=...)`"],
        ["OpenSpiel", f"`pyspiel.load_game(\"python_{game_id.replace('-', '_')}(players=N)\")` after "
                      f"`krazy_core.envs.openspiel.register()`"],
    ]))
    # actions
    runs = action_ranges(game)
    out.append("## Actions\n")
    out.append("One flat integer action space; `state.legal_actions()` is sorted and unique, "
               "`state.action_to_string(a)` names an id, `state.string_to_action(text)` reads one.  "
               "Each row is a run of ids whose names start with the same words (computed from "
               "`action_to_string` over every id).\n")
    rows = []
    for first, last, words, forms, fname, lname in runs:
        ids = f"{first}" if first == last else f"{first} .. {last}"
        shown = ", ".join(_code(f) for f in forms[:4]) + (" …" if len(forms) > 4 else "")
        example = _code(fname) if first == last else f"{_code(fname)} … {_code(lname)}"
        rows.append([ids, str(last - first + 1), shown, example])
    out.append(_table(["ids", "count", "names", "first … last"], rows))
    named = named_action_ids(module, spec.num_distinct_actions, {r[0] for r in runs})
    if named:
        out.append("\nNamed action ids (constants of the game module):\n\n")
        short = module.__name__.rsplit('.', 1)[-1]
        if any(d for _, _, d in named):
            out.append(_table(["constant", "id", "meaning"], [[_code(f"{short}.{n}"), str(v), d] for n, v, d in named]))
        else:
            out.append(_table(["constant", "id"], [[_code(f"{short}.{n}"), str(v)] for n, v, d in named]))
    # observation
    out.append("\n## Observation\n")
    out.append("`state.observation(player)` is a JSON-ready dict of what that seat may see "
               f"([formats](../formats.md), schema `observation.json#/$defs/{game_id}`); "
               "`state.observation_tensor(player)` the same as a float32 vector whose named segments "
               "are `game.observation_tensor_layout` (`TensorSegment(name, offset, size, doc)`, end to end; "
               "seats are counted from `player` onward):\n")
    by_layout: Dict[tuple, List[int]] = {}
    for n in range(spec.min_players, spec.max_players + 1):
        by_layout.setdefault(tuple(krazy_core.make(game_id, num_players=n).observation_tensor_layout), []).append(n)
    for layout, counts in by_layout.items():
        total = sum(s.size for s in layout)
        which = "every player count" if len(by_layout) == 1 else ", ".join(map(str, counts)) + " players"
        out.append(f"\n{which} ({total} floats):\n\n")
        out.append(_table(["segment", "offset", "size", "entries", "holds"],
                          [[_code(s.name), str(s.offset), str(s.size), f"{s.offset} .. {s.offset + s.size - 1}",
                            s.doc] for s in layout]))
    # rewards
    out.append("\n## Rewards and returns\n")
    out.append(f"`state.returns()` is 0 for every seat before the end and, at the end, one float per "
               f"seat in [{spec.min_utility}, {spec.max_utility}] (`game.min_utility`, `game.max_utility`).  "
               "The envs give it as the reward of the step that ends the game "
               "([AI authors](../../guide/ai.md)).\n")
    doc = inspect.getdoc(getattr(cls, "returns", None))
    if doc and doc != inspect.getdoc(getattr(krazy_core.State, "returns", None)):
        out.append("\n```{eval-rst}\n" + doc + "\n```\n")
    demo = game.new_initial_state(seed=1)
    import random
    rnd = random.Random(1)
    while not demo.is_terminal():
        demo.apply_action(rnd.choice(demo.legal_actions()))
    out.append(f"\nOne random game (seed 1, {game.num_players} players, random moves seeded 1): "
               f"`returns()` = `{demo.returns()}` after {len(demo.history())} actions.\n")
    # options
    out.append("\n## Options\n")
    out.append(f"Keywords of `krazy_core.make({game_id!r}, ...)`, `-o name=value` at `krazy play`; "
               "each names the rule that defines it.\n\n")
    out.append(_table(OPTIONS_HEADER, options_rows(spec)))
    if spec.search_defaults:
        out.append("\nSearch options this game's ISMCTS plays best with (`GameSpec.search_defaults`, "
                   "used for every option a caller leaves unset): "
                   + ", ".join(_code(f"{k}={v!r}") for k, v in spec.search_defaults.items()) + ".\n")
    return "\n".join(out)


def rules_page(game_id: str) -> str:
    from krazy_core.game import get_spec
    spec = get_spec(game_id)
    text = rules_text(spec).rstrip() + "\n"
    # the example names this game's seat option (Crazy Rummy has none)
    seat = next(iter(spec.seat_options), None)       # typed from 1 at the table (Option.seat)
    out = [text, "\n## Options\n\n",
           f"Play with them as `krazy play {game_id} -o name=value` (several `-o`), or as keywords of "
           f"`krazy_core.make({game_id!r}, ...)`. Seats count from 1 at the table "
           + (f"(`-o {seat}=1` is the first seat) " if seat else "") + "and from 0 in Python.\n\n",
           _table(OPTIONS_HEADER, options_rows(spec)),
           f"\nPlayers: {spec.min_players} to {spec.max_players} (usually {spec.default_players}).\n"]
    try:
        from krazy_core.ui import load_ui
        note = load_ui(game_id).rules_note
    except Exception:
        note = None
    if note:
        out.append(f"\n{note}\n")
    out.append(f"\nFor programs: the [{spec.name} reference](../games/{game_id}.md) "
               "(actions, observation, returns).\n")
    return "\n".join(out)


def _type_of(schema, depth: int = 0) -> str:
    if not isinstance(schema, dict):
        return "any"
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    if "enum" in schema:
        vals = [json.dumps(v, ensure_ascii=False) for v in schema["enum"]]
        return " \\| ".join(vals[:12]) + (" …" if len(vals) > 12 else "")
    if "$ref" in schema:
        return f"see `{schema['$ref']}`"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_type_of(s, depth + 1) for s in schema[key])
    t = schema.get("type", "any")
    if t == "array":
        inner = _type_of(schema.get("items", {}), depth + 1)
        n = ""
        if "minItems" in schema or "maxItems" in schema:
            lo, hi = schema.get("minItems", 0), schema.get("maxItems", "")
            n = f" ({lo}..{hi} items)" if lo != hi else f" ({lo} items)"
        return f"array of {inner}{n}"
    if t == "integer" and ("minimum" in schema or "maximum" in schema):
        return f"integer {schema.get('minimum', '')}..{schema.get('maximum', '')}"
    if t == "object" and "properties" in schema and depth > 0:
        return "object {" + ", ".join(schema["properties"]) + "}"
    return t if isinstance(t, str) else " or ".join(t)


def _props_table(schema) -> str:
    props = schema.get("properties", {})
    if not props:
        return "(an object; see the schema)\n"
    req = set(schema.get("required", ()))
    return _table(["field", "type", "required", "description"],
                  [[_code(k), _type_of(v), "yes" if k in req else "", v.get("description", "") if isinstance(v, dict) else ""]
                   for k, v in props.items()])


def formats_page() -> str:
    from krazy_core import protocol
    out = ["# Data formats (JSON Schemas)\n",
           "<!-- generated by docs/_ext/krazy_docs.py from krazy_core/protocol/schemas/*.json; do not edit -->\n",
           "The package ships JSON Schemas (draft 2020-12) of everything it sends: load one with "
           "{func}`krazy_core.protocol.schema` (`schema('observation.json')`) or validate with "
           "{func}`krazy_core.protocol.validator`.  The tables below are those files, read at build time.\n"]
    order = ["state", "observation", "event", "action", "protocol"]
    for name in order:
        s = protocol.schema(name + ".json")
        out.append(f"\n## `{name}.json`: {s.get('title', '')}\n\n")
        if s.get("description"):
            out.append(s["description"] + "\n\n")
        if "properties" in s:
            out.append(_props_table(s))
        defs = s.get("$defs", {})
        for key, sub in defs.items():
            if key in ("server", "client"):
                continue
            out.append(f"\n### `{name}.json#/$defs/{key}`\n\n")
            if isinstance(sub, dict) and sub.get("description"):
                out.append(sub["description"] + "\n\n")
            if isinstance(sub, dict) and "properties" in sub:
                out.append(_props_table(sub))
            elif isinstance(sub, dict) and ("anyOf" in sub or "oneOf" in sub):
                alts = sub.get("anyOf") or sub.get("oneOf")
                rows = []
                for alt in alts:
                    props = alt.get("properties", {}) if isinstance(alt, dict) else {}
                    kind = props.get("kind") or props.get("type") or {}
                    rows.append([_type_of(kind) if kind else _type_of(alt),
                                 ", ".join(_code(p) for p in props if p not in ("kind", "type"))])
                out.append(_table(["kind", "fields"], rows))
            else:
                out.append(f"{_type_of(sub)}\n")
    return "\n".join(out)


# ------------------------------------------------------------------------------ API pages

# the API reference's sections: (page, title, modules)
API_SECTIONS = [
    ("core", "Core: games, states, cards, errors",
     ["krazy_core", "krazy_core.errors", "krazy_core.cards", "krazy_core.spec", "krazy_core.game",
      "krazy_core.rng"]),
    ("games", "Games",
     ["krazy_core.games.krazy_kings", "krazy_core.games.kings_rummy", "krazy_core.games.contract_rummy",
      "krazy_core.games.krass_kariert", "krazy_core.games.melds"]),
    ("ai", "AI: bots, search, envs",
     ["krazy_core.bots", "krazy_core.search.ismcts", "krazy_core.learn.model", "krazy_core.vector", "krazy_core.envs",
      "krazy_core.envs.pettingzoo", "krazy_core.envs.gymnasium", "krazy_core.envs.openspiel",
      "krazy_core.envs.sb3"]),
    ("tools", "Tools: protocol, arenas, tournaments, runners, self-play",
     ["krazy_core.protocol", "krazy_core.runs", "krazy_core.runs.jobs", "krazy_core.runs.arena",
      "krazy_core.runs.tournament", "krazy_core.runs.sprt",
      "krazy_core.runs.runner", "krazy_core.runs.selfplay", "krazy_core.runs.store"]),
]
assert sorted(m for _, _, ms in API_SECTIONS for m in ms) == sorted(PUBLIC_MODULES)


def _attr_docs(module_names) -> Dict[str, str]:
    """Attribute docstrings (``X = 1`` then a string) of pure-Python modules, by name."""
    out: Dict[str, str] = {}
    try:
        from sphinx.pycode import ModuleAnalyzer
    except ImportError:
        return out
    for name in module_names:
        try:
            found = ModuleAnalyzer.for_module(name).find_attr_docs()
        except Exception:
            continue
        for (ns, attr), lines in found.items():
            if ns == "" and attr not in out:
                out[attr] = "\n".join(lines).strip()
    return out


def _value_text(value) -> str:
    text = repr(value)
    return text if len(text) <= 70 else text[:66] + " ..."


def api_module_rst(modname: str) -> str:
    """One module's reference as reST: the module docstring, then an entry for each public
    name (``public_names``).  A class or function defined in another documented module is
    that module's entry (a link here); data (ints, tuples, dicts: they carry no home module)
    is documented where it is public, with its attribute docstring when the source has one."""
    module = importlib.import_module(modname)
    sources = [modname]
    if hasattr(module, "__path__"):          # a package: its submodules' attribute docs too
        sources += [modname + "." + n for n in ("notation", "state", "core")
                    if importlib.util.find_spec(modname + "." + n) is not None]
    docs = _attr_docs(sources)
    lines = [f".. automodule:: {modname}", "   :no-members:", ""]
    elsewhere = []
    for name in public_names(module):
        obj = getattr(module, name)
        home = getattr(obj, "__module__", None)
        is_code = inspect.isclass(obj) or inspect.isroutine(obj) or callable(obj)
        if is_code and home in PUBLIC_MODULES and home != modname:
            elsewhere.append((name, obj, home))
            continue
        if inspect.isclass(obj):
            directive = "autoexception" if issubclass(obj, BaseException) else "autoclass"
            lines += [f".. {directive}:: {modname}.{name}", "   :members:", "   :undoc-members:"]
            if directive == "autoexception":
                lines.append("   :show-inheritance:")
            lines.append("")
        elif is_code:
            lines += [f".. autofunction:: {modname}.{name}", ""]
        else:
            lines += [f".. py:data:: {name}", f"   :value: {_value_text(obj)}", ""]    # in automodule's module
            doc = docs.get(name, "")
            if doc:
                lines += ["   " + ln for ln in doc.splitlines()] + [""]
    if elsewhere:
        lines += ["", "Also here (documented in their own modules):", ""]
        for name, obj, home in elsewhere:
            role = "class" if inspect.isclass(obj) else "func"
            qual = getattr(obj, "__qualname__", name)
            lines.append(f"- ``{name}``: :{role}:`{home}.{qual}`")
        lines.append("")
    return "\n".join(lines) + "\n"


def api_pages() -> Dict[str, str]:
    pages = {}
    index = ["API reference", "=============", "",
             "Every public name of the package (each name in a public module's ``__all__``, or for a",
             "compiled module without one, each name it defines), from its docstrings and, for the compiled",
             "modules, their signatures. Generated from the code at build time.", "",
             ".. toctree::", "   :maxdepth: 2", ""]
    for page, title, modules in API_SECTIONS:
        index.append(f"   {page}")
        body = [title, "=" * len(title), ""]
        for m in modules:
            heading = f"``{m}``"
            body += [heading, "-" * len(heading), "", api_module_rst(m)]
        pages[f"api/{page}.rst"] = "\n".join(body)
    pages["api/index.rst"] = "\n".join(index) + "\n"
    return pages


def generate(outdir: Path) -> List[Path]:
    """Write the generated pages under ``outdir``; a file is rewritten only when its text
    changed (so Sphinx rereads only what changed).  Returns the files written or kept."""
    import krazy_core
    pages: Dict[str, str] = {"formats.md": formats_page(), **api_pages()}
    for g in krazy_core.available_games():
        pages[f"rules/{g}.md"] = rules_page(g)
        pages[f"games/{g}.md"] = game_page(g)
    paths = []
    for rel, text in pages.items():
        p = Path(outdir) / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
        paths.append(p)
    return paths


def _on_builder_inited(app) -> None:
    generate(Path(app.srcdir) / "_generated")


def setup(app):
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
