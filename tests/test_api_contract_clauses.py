"""Issue 12 item 2, one test per clause of the contract on the base ``State``, for every game
(the rest is in tests/test_api_contract.py and tests/test_conformance.py):

1. ``string_to_action(text)`` returns a legal action, or raises ``IllegalActionError`` (a move
   not legal now, ``.action`` set and not legal) or ``UnclearActionError`` (``.matches``: none,
   or several legal ones) -- never an illegal id, and never a silent pick between moves;
2. a public ``explain_illegal``: ``None`` for a legal action, else the sentence ``apply_action``
   gives as its reason; never raises;
3. a bad seat is refused alike by ``legal_actions``/``legal_action_mask``/``observation``/
   ``observation_tensor`` (the same ``ValueError``);
4. ``game.observation_tensor_layout``: named segments, end to end, summing to the tensor size,
   for every player count;
5. one ``simulate_random`` signature.
"""
import importlib
import inspect
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import krazy_core
from krazy_core.errors import IllegalActionError, UnclearActionError
from krazy_core.game import REGISTRY
from helpers import GAMES, state_after_random_steps

STATES = [(seed, steps) for seed in range(5) for steps in (0, 7, 25, 80)]


def _states(gid):
    out = []
    for seed, steps in STATES:
        s = state_after_random_steps(gid, seed, steps)
        if not s.is_terminal():
            out.append(s)
    return out


def _words(s):
    """Every word of every action name of ``s``'s game (legal now or not)."""
    words = set()
    n = s.game.num_distinct_actions
    for a in range(0, n, max(1, n // 300)):
        words.update(s.action_to_string(a).replace(",", " , ").split())
    return sorted(words)


def _check_reading(s, text):
    """Clause 1 for one text: a legal id, or a well-formed refusal; the state unchanged."""
    before = s.to_json()
    legal = s.legal_actions()
    try:
        a = s.string_to_action(text)
    except UnclearActionError as e:
        # matches: the legal moves it fits (none, or several), or None when a game's
        # short-form reader says itself what is wrong (errors.UnclearActionError)
        assert e.matches is None or (len(e.matches) != 1 and set(e.matches) <= set(legal)), (text, e.matches)
        assert str(e)
        result = None
    except IllegalActionError as e:
        assert e.action is not None and e.action not in legal, (text, e.action)
        assert 0 <= e.action < s.game.num_distinct_actions
        result = None
    else:
        assert type(a) is int and a in legal, (text, a)
        result = a
    assert s.to_json() == before
    return result


@pytest.mark.parametrize("gid", GAMES)
def test_clause1_any_text_gives_a_legal_id_or_a_refusal(gid):
    """Texts built from the words of the game's action names (any order, any subset, with
    junk): every one reads to a legal id or raises one of the two errors as described."""
    states = _states(gid)[:6]
    vocab = _words(states[0]) + ["", " ", "out", "on", "meld", "low", "high", "xyzzy", "0", "99", "-1"]

    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(i=st.integers(0, len(states) - 1), words=st.lists(st.sampled_from(vocab), max_size=6))
    def run(i, words):
        _check_reading(states[i], " ".join(words))

    run()


def _fits(text, name):
    """``text``'s words appear in order, contiguous, in ``name``'s words."""
    tw = " ".join(text.replace(",", " ").split()).lower().split()
    nw = " ".join(name.replace(",", " ").split()).lower().split()
    return bool(tw) and any(nw[i:i + len(tw)] == tw for i in range(len(nw) - len(tw) + 1))


# A documented short form that names one move by definition, though its words also occur in
# another legal move's name: Kings Rummy's card alone is "discard it" (KR short forms,
# kings_rummy.State._actions_named), also when going out with that card is legal.
SHORT_FORMS = {"kings-rummy": lambda text, name: name == f"discard {text}"}


@pytest.mark.parametrize("gid", GAMES)
def test_clause1_no_silent_pick_among_the_moves_a_fragment_fits(gid):
    """A fragment of legal names (leading or trailing words of a name) that fits several legal
    moves and is no move's exact name raises UnclearActionError listing them -- unless it is
    a documented short form (SHORT_FORMS); a fragment read to an id names that id."""
    checked = picked = 0
    for s in _states(gid):
        names = {a: s.action_to_string(a) for a in s.legal_actions()}
        exact = {" ".join(n.split()).lower() for n in names.values()}
        texts = set()
        for name in names.values():
            w = name.split()
            for k in range(1, len(w)):
                texts.update((" ".join(w[:k]), " ".join(w[k:])))
        for text in sorted(texts):
            a = _check_reading(s, text)
            checked += 1
            if a is None or " ".join(text.split()).lower() in exact:
                continue
            fits = [b for b, n in names.items() if _fits(text, n)]
            if len(fits) > 1:
                allowed = SHORT_FORMS.get(gid)
                assert allowed is not None and allowed(text, names[a]), \
                    f"{gid}: {text!r} fits {[names[b] for b in fits]} and silently read as {names[a]!r}"
                picked += 1
    assert checked > 20


@pytest.mark.parametrize("gid", GAMES)
def test_clause2_explain_illegal_is_public_and_is_apply_actions_reason(gid):
    cls = type(krazy_core.make(gid).new_initial_state(seed=0))
    assert "explain_illegal" in dir(cls) and callable(cls.explain_illegal)
    seen = 0
    for s in _states(gid)[:5]:
        legal = set(s.legal_actions())
        n = s.game.num_distinct_actions
        for a in range(0, n, max(1, n // 60)):
            why = s.explain_illegal(a)
            if a in legal:
                assert why is None
                continue
            assert isinstance(why, str) and why
            with pytest.raises(IllegalActionError) as e:
                s.apply_action(a)
            assert f": {why}. Legal: [" in str(e.value), (str(e.value), why)
            assert s.explain_illegal(s.action_to_string(a)) == why
            seen += 1
        for junk in (None, 1.5, "", "xyzzy", -1, n, 10**30, True, [], b"draw"):
            assert isinstance(s.explain_illegal(junk), str)
    assert seen > 0
    over = state_after_random_steps(gid, 1, 100_000)
    assert over.is_terminal() and over.explain_illegal(0) == "the game is over"


@pytest.mark.parametrize("gid", GAMES)
def test_clause3_a_bad_seat_is_refused_alike_by_every_per_player_view(gid):
    s = state_after_random_steps(gid, 3, 9)
    n = s.game.num_players
    for bad in (-1, n, n + 5, 99, True, False, 1.0, "0", [0]):
        errors = []
        for verb in ("legal_actions", "legal_action_mask", "observation", "observation_tensor"):
            with pytest.raises(ValueError) as e:
                getattr(s, verb)(bad)
            errors.append((type(e.value), str(e.value)))
        assert len(set(errors)) == 1, (bad, errors)
        assert re.search(r"0\.\.%d" % (n - 1), errors[0][1])
    # a real seat is read by all four (the seat not to act has no legal actions)
    for p in range(n):
        legal = s.legal_actions(p)
        assert legal == (s.legal_actions() if p == s.current_player() else [])
        assert int(np.sum(s.legal_action_mask(p))) == len(legal)
        assert s.observation(p)["player"] == p
        assert s.observation_tensor(p).shape == s.game.observation_tensor_shape
        assert s.legal_actions(np.int64(p)) == legal


@pytest.mark.parametrize("gid", GAMES)
def test_clause4_tensor_layout_is_named_segments_summing_to_the_size_at_every_table(gid):
    spec = krazy_core.game.get_spec(gid)
    for n in range(spec.min_players, spec.max_players + 1):
        game = krazy_core.make(gid, num_players=n)
        layout = game.observation_tensor_layout
        assert all(isinstance(seg.name, str) and seg.name for seg in layout)
        assert len({seg.name for seg in layout}) == len(layout)
        off = 0
        for seg in layout:
            assert seg.offset == off and seg.size > 0
            off += seg.size
        assert (off,) == game.observation_tensor_shape
        t = game.new_initial_state(seed=n).observation_tensor(0)
        assert t.shape == (off,) and t.dtype == np.float32


def test_clause5_one_simulate_random_signature():
    """``krazy_core._state.simulate_random`` and every game module's own have the same
    parameters (names, kinds, defaults)."""
    from krazy_core._state import simulate_random
    base = inspect.signature(simulate_random)
    assert list(base.parameters) == ["game", "n_games", "seed", "policy"]
    for gid in GAMES:
        mod = importlib.import_module(REGISTRY[gid])
        fn = getattr(mod, "simulate_random", None)
        if fn is not None:
            assert inspect.signature(fn).parameters == base.parameters, (gid, inspect.signature(fn))
