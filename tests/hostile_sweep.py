"""The hostile sweep (issue 19): every public and underscore method of every game's state, of
the base ``State``, of the game modules and of the package's other compiled modules, called
with extreme arguments.  Run as a script it prints ``C <k>`` before call number ``k`` (so the
parent knows which call killed or stalled it), ``X <k> <type> <desc>`` for a call that raised
an exception a caller should never see (``SUSPICIOUS``), and ``DONE <n>`` at the end::

    python tests/hostile_sweep.py GAME|unready|modules|bytes:GAME [START]

``bytes:GAME`` loads hostile state bytes (``game.state_from_bytes``): every truncation
length, every single bit flipped, every byte set to 0x00/0x01/0x7F/0x80/0xFF with the
checksum recomputed, of real states early and late in a game; an accepted one must read
back through the JSON identically (else ``AssertionError``, SUSPICIOUS) and is played on.

``tests/test_hostile.py`` runs it in subprocesses, so a crash is a failed test, not a dead
suite; ``run_sweep`` restarts the worker after the call that crashed or hung and goes on, so
one run lists every hole.
"""
import copy
import inspect
import itertools
import os
import subprocess
import sys

import krazy_core

#: exception types no call may raise: a break of the engine's contract, not bad input (an
#: int beyond a C argument's range is refused with the documented ValueError/ConfigError,
#: never Cython's OverflowError)
SUSPICIOUS = (SystemError, ZeroDivisionError, AssertionError, RecursionError,
              UnboundLocalError, NotImplementedError, OverflowError)

INTS = [-2**64, -2**63 - 1, -2**63, -2**32, -2**31 - 1, -2**31, -10**8, -65536, -256, -129,
        -128, -2, -1, 0, 1, 2, 3, 4, 5, 7, 12, 13, 14, 52, 53, 54, 55, 63, 64, 100, 108, 109,
        127, 128, 255, 256, 1000, 65535, 65536, 10**8, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
        2**53, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**400]
OTHERS = [None, True, False, 1.5, -0.0, float("nan"), float("inf"), "", " ", "x" * 5000, "all",
          "QS", "Q♠", "JK", "play Q♠", "draw", "\x00", "-1", "99999999999999999999", b"\x00",
          [], [0], [-1], [2**63], [255] * 40, list(range(64)), [0x0C] * 33, ["QS"], [None],
          [[1, 2, 3]], (), {}, {"a": 1}, object(), 0j]
VALUES = INTS + OTHERS
PAIR = [None, True, -2**63, -1, 0, 1, 3, 13, 255, 2**31, 2**63, 1.5, "x", "QS", [0x0C] * 33,
        [-1], object()]

#: callables whose argument is a work budget: given only small counts (a huge one is a long
#: run by request, interruptible by Ctrl-C: tests/test_hostile.py checks that separately)
BUDGET = {"simulate_random", "_time_solver", "_random_playout", "search", "_probe_actions",
          "playable_windows_all"}
SMALL = [None, True, -2**63, -1, 0, 1, 2, 3, 2**63, 1.5, "x", [], object()]
#: never called: they would replace the process or read the terminal
SKIP = {"main", "run", "input", "play", "serve", "__init_subclass__", "__subclasshook__",
        "__class_getitem__", "__new__", "__init__", "__delattr__", "__setattr__",
        "__getattribute__", "__dir__", "__reduce_ex__", "__format__", "__sizeof__"}


def _states(game_id):
    """Named states of one game: fresh, after one action, deep in a game, at its end."""
    game = krazy_core.make(game_id)
    out = []
    s = game.new_initial_state(seed=1)
    out.append(("fresh", s.clone()))
    import random
    rng = random.Random(3)
    k = 0
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        k += 1
        if k in (1, 2, 3, 40, 400):
            out.append((f"after{k}", s.clone()))
    out.append(("terminal", s))
    return out


def _arg_lists(name, n_params):
    vals = SMALL if name in BUDGET else VALUES
    pair = SMALL if name in BUDGET else PAIR
    yield ()
    if n_params >= 1:
        for v in vals:
            yield (v,)
    if n_params >= 2:
        for a, b in itertools.product(pair, pair):
            yield (a, b)
    if n_params >= 3:
        for a, b, c in itertools.product(SMALL[:6], SMALL[:6], SMALL[:6]):
            yield (a, b, c)


def _n_params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return 2
    n = 0
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL,):
            return 3
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            n += 1
    return min(n, 3)


def _method_names(cls):
    names = []
    for name in sorted(dir(cls)):
        if name in SKIP:
            continue
        attr = getattr(cls, name, None)
        if name.startswith("__") and name not in ("__str__", "__repr__", "__copy__", "__deepcopy__",
                                                   "__reduce__", "__eq__", "__ne__", "__getstate__"):
            continue
        names.append(name)
    return names


def calls(target):
    """Yield ``(desc, thunk)`` for every call of the sweep ``target`` (a game id,
    ``"unready"`` or ``"modules"``), in a fixed order."""
    if target == "unready":
        yield from _unready_calls()
        return
    if target == "modules":
        yield from _module_calls()
        return
    if target.startswith("bytes:"):
        yield from _bytes_calls(target[len("bytes:"):])
        return
    states = _states(target)
    cls = type(states[0][1])
    for name in _method_names(cls):
        attr = getattr(cls, name)
        if not callable(attr):                   # a property: read it
            for sname, s in states:
                yield (f"{target}:{sname}.{name}", lambda s=s, name=name: getattr(s.clone(), name))
            continue
        # bound through an instance; the first parameter is self
        n = _n_params(attr) - 1 if _n_params(attr) > 0 else 2
        n = max(n, 1)
        for sname, s in states:
            for args in _arg_lists(name, n):
                yield (f"{target}:{sname}.{name}{_short(args)}",
                       lambda s=s, name=name, args=args: getattr(s.clone(), name)(*args))
    mod = sys.modules[cls.__module__]
    yield from _functions_of(mod, target)


def _functions_of(mod, tag):
    for name in sorted(vars(mod)):
        fn = getattr(mod, name)
        if name in SKIP or inspect.isclass(fn) or not callable(fn):
            continue
        if getattr(fn, "__module__", mod.__name__) != mod.__name__:
            continue
        for args in _arg_lists(name, _n_params(fn)):
            yield (f"{tag}:{mod.__name__}.{name}{_short(args)}",
                   lambda fn=fn, args=args: fn(*args))


def _module_calls():
    import krazy_core._state as st
    import krazy_core.cards as cards
    import krazy_core.games.melds as melds
    import krazy_core.rng as rng
    import krazy_core.search.ismcts as ismcts
    for mod in (st, cards, melds, rng, ismcts):
        yield from _functions_of(mod, "modules")
    r = rng.Rng(1)
    for name in _method_names(rng.Rng):
        for args in _arg_lists(name, 1):
            yield (f"modules:Rng.{name}{_short(args)}", lambda name=name, args=args:
                   getattr(rng.Rng(1), name)(*args))
    # unseeded generators: Rng.__new__ skips __init__ (issue 19 item 6)
    for name in ("next_u64", "bounded", "uniform", "d6", "roll_2d6", "choice", "shuffle"):
        for args in ((), (5,), ([1, 2, 3],), (2**32 - 1,)):
            yield (f"modules:Rng.__new__.{name}{_short(args)}", lambda name=name, args=args:
                   getattr(rng.Rng.__new__(rng.Rng), name)(*args))
    # the search's own objects, made by hand
    for cls in (ismcts._Worker,):
        for name in _method_names(cls):
            for args in ((), (True,), (0,)):
                yield (f"modules:{cls.__name__}.__new__.{name}{_short(args)}",
                       lambda cls=cls, name=name, args=args: getattr(cls.__new__(cls), name)(*args))
    game = krazy_core.make("krazy-kings")
    s = game.new_initial_state(seed=1)
    for workers in ([1], [object()], [None], [ismcts._Worker.__new__(ismcts._Worker)], []):
        yield (f"modules:SearchTree({workers!r})", lambda workers=workers: ismcts.search(
            s, iterations=10, seed=1, previous=ismcts.SearchTree(workers, s.clone(),
                                                                 s.current_player(), s.game, "tree")))


def _bytes_calls(game_id):
    import random
    import struct
    from krazy_core._state import _checksum_of

    def restamp(b):
        b = bytearray(b)
        b[36:40] = struct.pack("<I", _checksum_of(bytes(b[40:])))
        return bytes(b)

    def load(b, k):
        s = krazy_core.make(game_id).state_from_bytes(b)
        if krazy_core.make(game_id).state_from_json(s.to_json()).to_json() != s.to_json():
            raise AssertionError("the JSON loader reads an accepted bytes state differently")
        rng = random.Random(k)
        for _ in range(30 if k % 50 == 0 else 2):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
            s.game.state_from_bytes(s.to_bytes())

    for sname, s in _states(game_id):
        if sname not in ("after3", "after40"):
            continue
        b = s.to_bytes()
        ssize = struct.unpack("<I", b[24:28])[0]
        for n in range(0, len(b), 11):
            yield (f"bytes:{game_id}:{sname}:truncated{n}", lambda b=b, n=n: load(b[:n], n))
        for i in range(min(len(b), 40 + ssize + 64)):
            for bit in ((0, 3, 7) if sname == "after3" else range(8)):
                t = bytearray(b)
                t[i] ^= 1 << bit
                yield (f"bytes:{game_id}:{sname}:flip{i}.{bit}", lambda t=bytes(t), k=i: load(t, k))
                if i >= 40:
                    yield (f"bytes:{game_id}:{sname}:flip{i}.{bit}+sum",
                           lambda t=bytes(t), k=i: load(restamp(t), k))
            for v in (0x00, 0x01, 0x7F, 0x80, 0xFF):
                if i >= 40 and b[i] != v:
                    t = bytearray(b)
                    t[i] = v
                    yield (f"bytes:{game_id}:{sname}:set{i}={v}+sum", lambda t=bytes(t), k=i: load(restamp(t), k))


def _unready_calls():
    from krazy_core._state import State
    import krazy_core.games.contract_rummy as cr
    import krazy_core.games.kings_rummy as kr
    import krazy_core.games.krass_kariert as ka
    import krazy_core.games.krazy_kings as kk
    import krazy_core.search.ismcts as ismcts
    classes = [State, kk.KrazyKingsState, kr.KingsRummyState, cr.ContractRummyState,
               ka.KrassKariertState]
    for cls in classes:
        sub = type("Sub" + cls.__name__, (cls,), {"__init__": lambda self: None})
        makers = [("new", lambda cls=cls: cls.__new__(cls)),
                  ("subclass", lambda sub=sub: sub()),
                  ("copy", lambda sub=sub: copy.copy(sub.__new__(sub)))]
        for mname, make in makers:
            for name in _method_names(cls):
                attr = getattr(cls, name)
                for args in ((), (0,), (1,), (0, 0), (None,), ("x",)):
                    def call(make=make, name=name, args=args, attr=attr):
                        x = make()
                        a = getattr(x, name)
                        return a(*args) if callable(a) else a
                    yield (f"unready:{cls.__name__}.{mname}.{name}{_short(args)}", call)
            for extra in ("str", "repr", "pickle", "search", "eq", "bool"):
                def call2(make=make, extra=extra):
                    x = make()
                    if extra == "str":
                        return str(x)
                    if extra == "repr":
                        return repr(x)
                    if extra == "pickle":
                        import pickle
                        return pickle.dumps(x)
                    if extra == "search":
                        return ismcts.search(x, iterations=5)
                    if extra == "eq":
                        g = krazy_core.make("krazy-kings").new_initial_state(seed=1)
                        return (x == g, g == x, x == x)
                    return bool(x)
                yield (f"unready:{cls.__name__}.{mname}.<{extra}>", call2)


def _short(args):
    r = repr(args)
    return r if len(r) < 80 else r[:77] + "..."


def worker(target, start=0):
    out = sys.stdout
    n = 0
    for k, (desc, thunk) in enumerate(calls(target)):
        n = k + 1
        if k < start:
            continue
        out.write(f"C {k}\n")
        out.flush()
        try:
            thunk()
        except SUSPICIOUS as e:
            out.write(f"X {k} {type(e).__name__} {desc} :: {str(e)[:200]!r}\n")
        except BaseException as e:               # noqa: BLE001 - every other refusal is fine
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                out.write(f"X {k} {type(e).__name__} {desc}\n")
    out.write(f"DONE {n}\n")
    out.flush()


def run_sweep(target, per_call_timeout=60.0, env=None):
    """Run the sweep of ``target`` in subprocesses; returns ``(n_calls, findings)`` where
    findings are ``(kind, desc)``: kind ``"crash"`` (signal or exit code), ``"hang"`` (no
    progress for ``per_call_timeout`` s) or an exception type name."""
    import selectors
    descs = None
    findings = []
    start = 0
    n_calls = 0
    here = os.path.abspath(__file__)
    if env is None:        # the worker imports the krazy_core this process imported
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__)))
        env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    while True:
        p = subprocess.Popen([sys.executable, here, target, str(start)], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        sel = selectors.DefaultSelector()
        sel.register(p.stdout, selectors.EVENT_READ)
        last = None
        done = False
        hung = False
        buf = ""
        while True:
            if not sel.select(per_call_timeout):
                hung = True
                p.kill()
                break
            line = p.stdout.readline()
            if not line:
                break
            if line.startswith("C "):
                last = int(line.split()[1])
            elif line.startswith("X "):
                _, k, kind, rest = line.rstrip("\n").split(" ", 3)
                findings.append((kind, rest))
            elif line.startswith("DONE"):
                n_calls = int(line.split()[1])
                done = True
        p.wait()
        sel.close()
        if done and p.returncode == 0:
            return n_calls, findings
        if descs is None:
            descs = [d for d, _ in calls(target)]
        if last is None:
            findings.append(("crash", f"{target}: worker died before its first call (rc {p.returncode})"))
            return n_calls, findings
        findings.append(("hang" if hung else f"crash rc={p.returncode}", descs[last]))
        start = last + 1


if __name__ == "__main__":
    worker(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
