"""Issue 19: nothing a caller does crashes, hangs or stalls.  Each reproduction of the issue
runs here; those that crashed the interpreter run in a subprocess, so a crash is a failed
test, not a dead suite.  The sweep over every method with extreme arguments is
``tests/hostile_sweep.py``; the Hypothesis fuzz harness is ``tests/test_fuzz.py``."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import krazy_core
from krazy_core.errors import ConfigError
from helpers import GAMES, slow_cases

HERE = os.path.dirname(os.path.abspath(__file__))


def _env():
    """This environment, with the krazy_core this process imported first on the path."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def run_py(code, timeout=120):
    """Run ``code`` in a fresh interpreter; returns (returncode, stdout, stderr).  It runs in
    tests/ (``python -c`` puts its folder first on ``sys.path``: from the checkout's root it
    would import the unbuilt ``krazy_core/`` there instead of the build under test)."""
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=timeout, cwd=HERE, env=_env())
    return p.returncode, p.stdout, p.stderr


def assert_survives(code, timeout=120):
    rc, out, err = run_py(code, timeout)
    assert rc == 0, f"exit {rc}\nstdout:\n{out[-3000:]}\nstderr:\n{err[-3000:]}"
    return out


# ------------------------------------------------------------------ 1. unready states
def test_state_made_without_its_factory_raises_in_every_method():
    out = assert_survives("""
        import copy, pickle
        import krazy_core
        from krazy_core._state import State
        from krazy_core.errors import InvalidStateError
        from krazy_core.search.ismcts import search
        g = krazy_core.make("krazy-kings")
        classes = [State] + [type(krazy_core.make(gid).new_initial_state(seed=1))
                             for gid in krazy_core.available_games()]
        refused = other = 0
        for cls in classes:
            class Sub(cls):
                def __init__(self):
                    pass
            for x in (cls.__new__(cls), Sub()):
                calls = [lambda v=v: getattr(x, v)() for v in (
                    "legal_actions", "current_player", "is_terminal", "clone", "returns",
                    "to_json", "history", "raw_events", "heuristic_action", "random_action",
                    "evaluate")]
                calls += [lambda: x.apply_action(0), lambda: copy.copy(x), lambda: copy.deepcopy(x),
                          lambda: pickle.dumps(x), lambda: search(x, iterations=5),
                          lambda: x == g.new_initial_state(seed=1), lambda: x.determinize(0),
                          lambda: x.events_for(0)]
                if cls is not State:
                    calls += [lambda: x.observation(0), lambda: str(x), lambda: x.hand(0)]
                for call in calls:
                    try:
                        call()
                    except InvalidStateError:
                        refused += 1
                    else:
                        other += 1
                assert "not made by a game" in repr(x)
        print(refused, other)
    """)
    # (State: 19 calls, each game: 22) x 2 ways of making it, every one refused
    assert out.split() == [str(2 * (19 + 4 * 22)), "0"]


def test_unready_sweep_is_clean():
    from hostile_sweep import run_sweep
    n, findings = run_sweep("unready")
    assert n > 4000
    assert findings == []


# ------------------------------------------------------------------ 2. hand-made search trees
def test_search_refuses_a_tree_it_did_not_make():
    out = assert_survives("""
        import krazy_core
        from krazy_core.search.ismcts import search, SearchTree, _Worker
        s = krazy_core.make("krazy-kings").new_initial_state(seed=1)
        n = 0
        for workers in ([1], [object()], [None], [_Worker.__new__(_Worker)], []):
            try:
                t = SearchTree(workers, s.clone(), s.current_player(), s.game, "tree")
                search(s, iterations=10, seed=1, previous=t)
            except TypeError:
                n += 1
        # a real tree with its workers replaced afterwards
        r = search(s, iterations=50, seed=1, reuse=True)
        r.tree.workers = [object()]
        try:
            search(s, iterations=10, seed=1, previous=r)
        except TypeError:
            n += 1
        for verb in ("run", "root_children"):
            try:
                getattr(_Worker.__new__(_Worker), verb)()
            except TypeError:
                n += 1
        print(n)
    """)
    assert int(out) == 8


def test_a_real_tree_is_still_reused():
    from krazy_core.search.ismcts import search
    s = krazy_core.make("krazy-kings").new_initial_state(seed=1)
    r = search(s, iterations=200, seed=1, reuse=True)
    s.apply_action(r.action)
    while s.current_player() != r.tree.searcher and not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    if not s.is_terminal():
        r2 = search(s, iterations=50, seed=2, previous=r)
        assert r2.iterations == 50


# ------------------------------------------------------------------ 3. C tables indexed by callers
@pytest.mark.parametrize("code", [
    # Kings Rummy after the first draw
    """g = krazy_core.make("kings-rummy"); s = g.new_initial_state(seed=1)
s.apply_action(s.legal_actions()[0])
for a in (10**8, -1, -10**8, 2**31 - 1, -2**31): print(s._explain_illegal(a))""",
    """g = krazy_core.make("contract-rummy"); s = g.new_initial_state(seed=1)
s.apply_action(s.legal_actions()[0])
for a in (-1, -10**8, -2**31, 10**8): print(s._explain_illegal(a))""",
    """g = krazy_core.make("krass-kariert"); s = g.new_initial_state(seed=1)
for a in (-1, -10**8, -2**31, 10**8): print(s._explain_illegal(a))""",
    """import krazy_core.games.contract_rummy as cr, krazy_core.games.krass_kariert as ka
for m in (cr, ka):
    for a in (-10**8, -1, 10**8, 2**31 - 1):
        try: m._action_text(a)
        except ValueError: print("refused")""",
    """g = krazy_core.make("krass-kariert"); s = g.new_initial_state(seed=1)
for q in (-1, 5, 255, 10**8, 2**63, True, 1.5):
    try: s._known(q)
    except ValueError: print("refused")""",
    """import krazy_core.games.krazy_kings as kk
for m in (2**63, 2**54, 1 << 60, 2**64 - 1):
    for f in (kk._cards_of, kk._mask_cards):
        try: f(m)
        except ValueError: print("refused")""",
])
def test_table_indices_from_callers_are_checked(code):
    out = assert_survives("import krazy_core\n" + code)
    assert out.strip()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.slow
def test_sweep_of_every_method_with_extreme_arguments(game_id):
    from hostile_sweep import run_sweep
    n, findings = run_sweep(game_id)
    assert n > 30000
    assert findings == [], findings[:20]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_sweep_of_hostile_state_bytes(game_id):
    """Issue 12 item 9 / issue 19: hostile bytes (every truncation, every bit flipped, every
    struct byte set to extremes with the checksum recomputed) in subprocesses: a crash or
    hang is a finding, an accepted state the JSON loader reads otherwise is one too."""
    from hostile_sweep import run_sweep
    n, findings = run_sweep("bytes:" + game_id)
    assert n > 3000
    assert findings == [], findings[:20]


def test_sweep_of_module_functions():
    from hostile_sweep import run_sweep
    n, findings = run_sweep("modules")
    assert n > 10000
    assert findings == [], findings[:20]


# ------------------------------------------------------------------ 4, 5. Ctrl-C
def _interrupt_after(code, wait, timeout=60):
    # the child gets Python's own SIGINT handler even when this suite runs where SIGINT is
    # ignored (a background job of a shell: `pytest &`), which a child would inherit
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=_env(), cwd=HERE,    # as run_py
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    line = p.stdout.readline()          # "go": the long call is about to start
    assert line.strip() == "go", p.stderr.read()
    time.sleep(wait)
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:   # a failed test leaves no process running
        p.kill()
        out, err = p.communicate()
        return "still running after SIGINT", out, err
    return p.returncode, out, err


def test_ctrl_c_stops_every_search_thread():
    rc, out, err = _interrupt_after("""
        import threading, time, resource
        import krazy_core
        from krazy_core.search.ismcts import search
        s = krazy_core.make("krazy-kings").new_initial_state(seed=1)
        print("go", flush=True)
        try:
            search(s, time_limit=60, threads=2, seed=1)
        except KeyboardInterrupt:
            t0 = resource.getrusage(resource.RUSAGE_SELF)
            time.sleep(1.0)
            t1 = resource.getrusage(resource.RUSAGE_SELF)
            cpu = (t1.ru_utime + t1.ru_stime) - (t0.ru_utime + t0.ru_stime)
            print("interrupted", threading.active_count(), round(cpu, 3))
    """, wait=1.0)
    assert rc == 0, err
    word, threads, cpu = out.split()
    assert word == "interrupted"
    assert int(threads) == 1            # the second tree's thread has ended
    assert float(cpu) < 0.3             # nothing iterates behind the caller (was ~0.5 s/s)


@pytest.mark.parametrize("call", [
    "from krazy_core._state import simulate_random; simulate_random(krazy_core.make('krazy-kings'), 10**9)",
    "from krazy_core.games.kings_rummy import simulate_random; simulate_random(krazy_core.make('kings-rummy'), 10**9)",
    "from krazy_core.games.krass_kariert import simulate_random; simulate_random(krazy_core.make('krass-kariert'), 10**9)",
], ids=["krazy-kings", "kings-rummy", "krass-kariert"])     # ids of long strings differ by pytest version
@slow_cases('kings-rummy', 'krass-kariert')
def test_ctrl_c_stops_simulate_random(call):
    t0 = time.monotonic()
    rc, out, err = _interrupt_after(f"""
        import krazy_core
        print("go", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted")
    """, wait=1.0, timeout=30)
    assert rc == 0 and out.strip() == "interrupted", err
    assert time.monotonic() - t0 < 30


def test_simulate_random_in_slices_plays_the_same_games():
    """The slices of games (Ctrl-C checks between them) draw as one loop: the counts are the
    sum of the counts of the games one by one (game i is dealt from seed + i)."""
    from krazy_core._state import simulate_random
    g = krazy_core.make("krazy-kings")
    whole = simulate_random(g, 40, seed=5)["decisions"]
    assert whole > 40
    again = simulate_random(g, 40, seed=5)["decisions"]
    assert whole == again


# ------------------------------------------------------------------ 6. unseeded Rng
def test_rng_made_without_init_is_seeded():
    from krazy_core.rng import Rng
    r = Rng.__new__(Rng)
    assert r.next_u64() == Rng(0).next_u64() != 0
    r = Rng.__new__(Rng)
    assert [r.bounded(5) for _ in range(50)] == [x.bounded(5) for x in [Rng(0)] for _ in range(50)]
    assert 0 <= r.bounded(3) < 3


# ------------------------------------------------------------------ 9. seats
SEAT_VERBS = ["observation", "observation_tensor", "determinize", "legal_actions",
              "legal_action_mask", "events_for", "hand"]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("verb", SEAT_VERBS)
@pytest.mark.parametrize("bad", [1.5, True, False, 2**63, -2**63, 10**400, -1, 99, "1", b"1", 1.0])
def test_bad_seats_raise_value_error_alike(game_id, verb, bad):
    s = krazy_core.make(game_id).new_initial_state(seed=1)
    with pytest.raises(ValueError):
        getattr(s, verb)(bad)


@pytest.mark.parametrize("game_id", GAMES)
def test_good_seats_still_work(game_id):
    import numpy as np
    s = krazy_core.make(game_id).new_initial_state(seed=1)
    p = s.current_player()
    assert s.observation(np.int64(p)) == s.observation(p)
    assert s.legal_actions(p) == s.legal_actions()
    assert s.legal_actions((p + 1) % s.num_players()) == []
    assert s.determinize(p, seed=3) == s.determinize(np.int32(p), seed=3)


# ------------------------------------------------------------------ 10. huge numbers as options
@pytest.mark.parametrize("opt", [{"time_limit": 10**400}, {"exploration": 10**400},
                                 {"prior": 10**400}, {"time_limit": float("inf")}])
def test_search_options_beyond_a_double_are_config_errors(opt):
    from krazy_core.search.ismcts import search
    s = krazy_core.make("krazy-kings").new_initial_state(seed=1)
    with pytest.raises(ConfigError):
        search(s, iterations=5, **opt)


# ------------------------------------------------------------------ 8. counters at their maximum
@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_loaded_states_stay_serializable(game_id):
    """Issue 19 item 8, KR/CR/KA: every int counter of the state body (and every list of
    per-seat ints) at the largest value the loader accepts; then play to the end, the JSON
    read back after every action.  (Crazy Rummy limit_rounds=7 at round 1 was accepted and
    refused at round 2; KrassKariert turn=2**32-1 wrapped through 0; a KrassKariert leader
    other than the trick's first player was accepted and refused two actions later.)"""
    import random
    from helpers import boundary_states
    game = krazy_core.make(game_id)
    checked = 0
    for key, t in boundary_states(game_id):
        play = random.Random(7)
        n = 0
        while not t.is_terminal() and n < 250:     # (the counters grow in the first rounds)
            t.apply_action(play.choice(t.legal_actions()))
            n += 1
            game.state_from_json(t.to_json())      # raises if the state outgrew the loader
        checked += 1
    assert checked >= 4
