"""Schema validation that stays cheap over thousands of games.

The shipped schemas are plain JSON Schema 2020-12, validated by ``jsonschema``. Checking
hundreds of thousands of payloads with it takes minutes, so :func:`compile_schema` turns the
small subset of keywords the shipped schemas use at their leaves (``type`` integer/boolean/
string/null/array/object, ``minimum``/``maximum``, ``minLength``/``maxLength``, ``const``,
``enum``, ``anyOf``, ``oneOf`` over objects told apart by a ``const`` field, ``items`` with
``minItems``/``maxItems``, ``prefixItems`` with ``items: false``, ``properties``/``required``/
``additionalProperties: false``) into plain Python checks; any other keyword is handed to
``jsonschema`` itself. ``test_protocol.py`` holds the compiled checks to ``jsonschema`` on
valid and mutated payloads, so both accept and reject the same things."""
import json

import jsonschema

from krazy_core import protocol

SIMPLE = {"type", "minimum", "maximum", "minLength", "maxLength", "const", "enum", "anyOf",
          "items", "minItems", "maxItems", "properties", "required", "additionalProperties",
          "prefixItems", "oneOf", "$schema", "$id", "title", "description"}


class Invalid(jsonschema.ValidationError):
    pass


def _type_ok(t, v):
    if t == "integer":
        return type(v) is int
    if t == "number":
        return type(v) in (int, float)
    if t == "boolean":
        return type(v) is bool
    if t == "string":
        return type(v) is str
    if t == "null":
        return v is None
    if t == "array":
        return type(v) is list
    if t == "object":
        return type(v) is dict
    raise AssertionError(t)


def compile_schema(s):
    """A function ``check(value)`` raising ``Invalid`` when ``value`` does not match ``s``."""
    if s is True:
        return lambda v: None
    if s is False:
        def never(v):
            raise Invalid("no value is allowed here")
        return never
    if not set(s) <= SIMPLE:
        full = jsonschema.Draft202012Validator(s)
        return full.validate
    checks = []
    if "type" in s:
        t = s["type"]
        checks.append(lambda v, t=t: _type_ok(t, v) or _fail(f"{v!r} is not of type {t}"))
    if "const" in s:
        c = s["const"]
        checks.append(lambda v, c=c: (v == c and type(v) is type(c)) or _fail(f"{v!r} is not {c!r}"))
    if "enum" in s:
        e = s["enum"]
        checks.append(lambda v, e=e: any(v == x and type(v) is type(x) for x in e) or _fail(f"{v!r} not in {e}"))
    if "minimum" in s:
        checks.append(lambda v, m=s["minimum"]: not isinstance(v, (int, float)) or type(v) is bool or v >= m or _fail(f"{v} < {m}"))
    if "maximum" in s:
        checks.append(lambda v, m=s["maximum"]: not isinstance(v, (int, float)) or type(v) is bool or v <= m or _fail(f"{v} > {m}"))
    if "minLength" in s:
        checks.append(lambda v, m=s["minLength"]: type(v) is not str or len(v) >= m or _fail("too short"))
    if "maxLength" in s:
        checks.append(lambda v, m=s["maxLength"]: type(v) is not str or len(v) <= m or _fail("too long"))
    if "anyOf" in s:
        alts = [compile_schema(a) for a in s["anyOf"]]
        checks.append(lambda v, alts=alts: _any(alts, v))
    if "oneOf" in s:
        checks.append(_one_of(s["oneOf"]))
    if "minItems" in s:
        checks.append(lambda v, m=s["minItems"]: type(v) is not list or len(v) >= m or _fail("too few items"))
    if "maxItems" in s:
        checks.append(lambda v, m=s["maxItems"]: type(v) is not list or len(v) <= m or _fail("too many items"))
    n_prefix = 0
    if "prefixItems" in s:
        pre = [compile_schema(a) for a in s["prefixItems"]]
        n_prefix = len(pre)

        def prefix(v, pre=pre):
            if type(v) is list:
                for c, x in zip(pre, v):
                    c(x)
        checks.append(prefix)
    if "items" in s:
        item = compile_schema(s["items"])

        def items(v, item=item, n=n_prefix):
            if type(v) is list:
                for x in v[n:]:
                    item(x)
        checks.append(items)
    if "properties" in s or "required" in s or "additionalProperties" in s:
        props = {k: compile_schema(x) for k, x in s.get("properties", {}).items()}
        req = set(s.get("required", ()))
        closed = s.get("additionalProperties", True) is False
        assert s.get("additionalProperties", True) in (True, False)

        def obj(v, props=props, req=req, closed=closed):
            if type(v) is not dict:
                return
            keys = v.keys()
            if not req <= keys:
                _fail(f"missing {sorted(req - keys)}")
            if closed and not keys <= props.keys():
                _fail(f"extra keys {sorted(keys - props.keys())}")
            for k, x in v.items():
                c = props.get(k)
                if c is not None:
                    c(x)
        checks.append(obj)

    def check(v, checks=checks):
        for c in checks:
            c(v)
    return check


def _fail(msg):
    raise Invalid(msg)


def _any(alts, v):
    for a in alts:
        try:
            a(v)
            return True
        except jsonschema.ValidationError:
            pass
    _fail(f"{v!r} matches no alternative")


def _one_of(alts):
    """``oneOf`` over objects each with a distinct ``const`` under one key: dispatch on it."""
    key = None
    for cand in alts[0].get("properties", {}):
        if all("const" in a.get("properties", {}).get(cand, {}) for a in alts):
            key = cand
            break
    if key is None:
        compiled = [compile_schema(a) for a in alts]

        def slow(v):
            n = 0
            for c in compiled:
                try:
                    c(v)
                    n += 1
                except jsonschema.ValidationError:
                    pass
            if n != 1:
                _fail(f"{n} alternatives of a oneOf match")
        return slow
    table = {}
    for a in alts:
        c = a["properties"][key]["const"]
        assert c not in table, c
        table[c] = compile_schema(a)

    def dispatch(v):
        if type(v) is not dict or type(v.get(key)) is not str or v[key] not in table:
            _fail(f"{v!r}: no alternative for {key}")
        table[v[key]](v)
    return dispatch


class Checker:
    """A shipped schema (or one of its ``$defs``) compiled; ``full`` is ``jsonschema``'s."""

    def __init__(self, name, definition=None, memo=False):
        self.full = protocol.validator(name, definition)
        self.memo = set() if memo else None
        body = protocol.schema(name)
        if definition:
            body = body["$defs"][definition]
        self.check = compile_schema(body)
        self.count = 0

    def validate(self, payload):
        """Check ``payload``; with ``memo``, a payload equal (same ``repr``) to one already
        checked is not checked twice (events repeat a lot)."""
        self.count += 1
        if self.memo is None:
            self.check(payload)
            return
        key = repr(payload)
        if key not in self.memo:
            self.check(payload)
            self.memo.add(key)
