"""Helpers shared by the tests."""
import pytest
import glob
import importlib.util
import os

import krazy_core

GAMES = krazy_core.available_games()


def random_playout(state, rng, max_steps=100_000, check=None):
    """Play random legal actions to the end; calls check(state) before each action."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        if check is not None:
            check(state)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def state_after_random_steps(game_id, seed, steps):
    """A fresh ``game_id`` deal from ``seed`` after up to ``steps`` random legal actions drawn
    by ``random.Random(seed)`` (fewer if the game ends first)."""
    import random
    import krazy_core
    s = krazy_core.make(game_id).new_initial_state(seed=seed)
    random_playout(s, random.Random(seed), max_steps=steps)
    return s


def kk_tables():
    """Hypothesis strategy: a Krazy Kings table (player count and every option)."""
    from hypothesis import strategies as st
    return st.fixed_dictionaries({
        "num_players": st.integers(2, 5),
        "free_reroll": st.booleans(),
        "may_roll_when_able": st.booleans(),
        "doubles_reverse": st.sampled_from(["all", "challenge_only", "never"]),
        "jokers": st.sampled_from(["rolloff", "none"]),
        "last_card_call": st.booleans(),
    })


TESTS = os.path.dirname(os.path.abspath(__file__))


def load_test_file(name):
    """A test file of this suite loaded as a module by its name (``"test_krazy_kings"``),
    wherever it lives: ``tests/games/<game>/`` (one folder per game, issue 12 item 8) or
    ``tests/`` itself, for the tests that reuse another file's scripted positions.  A fresh
    module each call (pytest's own copy is not shared)."""
    found = sorted(glob.glob(os.path.join(TESTS, "**", name + ".py"), recursive=True))
    if len(found) != 1:
        raise LookupError(f"{name}.py: {len(found)} files under {TESTS}")
    spec = importlib.util.spec_from_file_location(f"_{name}_reused", found[0])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def max_accepted(game, doc, set_value, lo):
    """The state the JSON loader reads from ``doc`` with one field at the largest value it
    accepts (``set_value(doc, v)`` writes it), by bisection from ``lo`` (accepted) up to
    2**64; None when only ``lo`` is and it is refused too."""
    import json
    from krazy_core.errors import InvalidStateError

    def ok(v):
        d = json.loads(json.dumps(doc))
        set_value(d, v)
        try:
            return game.state_from_json(json.dumps(d))
        except InvalidStateError:
            return None
    hi = 2**64
    if ok(hi) is not None:
        return ok(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid) is not None:
            lo = mid
        else:
            hi = mid
    return ok(lo)


def boundary_states(game_id, deals=((1, 3), (2, 60))):
    """Yield ``(key, state)``: real states of ``game_id`` (``state_after_random_steps`` of each
    ``(seed, steps)`` in ``deals``) with one int counter of the JSON body, or one list of at
    most 8 per-seat ints (every entry raised to it), at the largest value the loader accepts
    (``max_accepted``), in key order; a field whose every value is refused is skipped.
    Issue 19 item 8: such a state must stay serializable by every path as it plays on."""
    import json
    game = krazy_core.make(game_id)
    for seed, steps in deals:
        s = state_after_random_steps(game_id, seed, steps)
        doc = json.loads(s.to_json())
        body = doc["state"]
        for key, v in sorted(body.items()):
            if type(v) is int:
                def put(d, x, key=key):
                    d["state"][key] = x
                lo = v
            elif isinstance(v, list) and v and all(type(x) is int for x in v) and len(v) <= 8:
                def put(d, x, key=key):
                    d["state"][key] = [max(y, x) for y in body[key]] if x >= 0 else body[key]
                lo = max(v)
            else:
                continue
            t = max_accepted(game, doc, put, lo)
            if t is not None:
                yield key, t


def slow_cases(*ids):
    """Marks the parametrized cases ``ids`` (``test_x[contract-rummy-2]`` -> ``"contract-rummy-2"``)
    of the test below slow, the others staying in the fast tier (``conftest.py`` reads it);
    a whole slow test carries ``@pytest.mark.slow`` instead."""
    def mark(f):
        f.slow_cases = frozenset(ids)
        return f
    return mark
