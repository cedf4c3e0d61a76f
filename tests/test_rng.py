"""The PRNG of src/krazy/rng.h: reproducible, exactly uniform bounded draws, fair dice."""

import collections
import math

import pytest

from krazy_core.rng import Rng
from krazy_core._state import seed_rng_struct


def test_same_seed_same_stream_and_known_first_words():
    a, b = Rng(123), Rng(123)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    assert Rng(1).next_u64() != Rng(2).next_u64()
    # splitmix64(0) first output, the reference value from Vigna's splitmix64.c
    assert seed_rng_struct(0)[0] == 0xE220A8397B1DCDAF


def _chi2(counts, n):
    exp = sum(counts.values()) / n
    return sum((counts.get(k, 0) - exp) ** 2 / exp for k in range(n))


@pytest.mark.parametrize("n", [2, 3, 6, 7, 10, 54, 1000])
def test_bounded_is_uniform(n):
    r = Rng(n)
    draws = [r.bounded(n) for _ in range(20000 if n < 100 else 100000)]
    assert min(draws) == 0 and max(draws) == n - 1
    c = collections.Counter(draws)
    # chi-square with n-1 degrees of freedom: mean n-1, sd sqrt(2(n-1)); allow 5 sd
    assert _chi2(c, n) < (n - 1) + 5 * math.sqrt(2 * (n - 1))


def test_bounded_is_unbiased_for_a_range_near_2_to_the_32():
    # with n = 3 * 2**30 a modulo draw would give [0, 2**30) twice the weight of the rest;
    # the rejection step makes the three thirds equally likely
    n = 3 * 2 ** 30
    r = Rng(9)
    thirds = collections.Counter(r.bounded(n) // 2 ** 30 for _ in range(60000))
    assert _chi2(thirds, 3) < 2 + 5 * 2
    assert all(abs(thirds[k] - 20000) < 800 for k in range(3))


def test_dice_fair_and_2d6_sum_distribution():
    r = Rng(5)
    rolls = [r.roll_2d6() for _ in range(36000)]
    faces = collections.Counter(d for pair in rolls for d in pair)
    assert set(faces) == {1, 2, 3, 4, 5, 6} and _chi2({k - 1: v for k, v in faces.items()}, 6) < 5 + 5 * math.sqrt(10)
    sums = collections.Counter(a + b for a, b in rolls)
    assert abs(sums[7] / 36000 - 6 / 36) < 0.01 and abs(sums[2] / 36000 - 1 / 36) < 0.005


def test_shuffle_is_a_permutation_and_uniform_over_small_sets():
    r = Rng(3)
    perms = collections.Counter()
    for _ in range(24000):
        xs = [0, 1, 2, 3]
        r.shuffle(xs)
        perms[tuple(xs)] += 1
    assert len(perms) == 24
    assert all(abs(v - 1000) < 160 for v in perms.values())


def test_bad_bounds_raise():
    with pytest.raises(ValueError):
        Rng(1).bounded(0)
    with pytest.raises(ValueError):
        Rng(1).bounded(2 ** 32)
    with pytest.raises(ValueError):
        Rng(1).choice([])


def test_pickle_and_copy_by_value():
    import copy
    import pickle
    r = Rng(77)
    for _ in range(13):
        r.next_u64()
    copies = [pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)]
    want = [r.next_u64() for _ in range(8)]
    for c in copies:
        assert type(c) is Rng
        assert [c.next_u64() for _ in range(8)] == want


def test_unpickling_a_bad_state_raises():
    from krazy_core.rng import _rng_from_words
    with pytest.raises(ValueError):
        _rng_from_words(0, 0, 0, 0)            # xoshiro's forbidden state
    with pytest.raises(ValueError):
        _rng_from_words(-1, 1, 1, 1)
    with pytest.raises(ValueError):
        _rng_from_words(2 ** 64, 1, 1, 1)


@pytest.mark.parametrize("game_id", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_a_tape_of_the_generators_own_draws_deals_the_engines_deal(game_id):
    """Explicit chance (krazy_core.envs.openspiel, ``_chance`` games) replays a step with the
    state's generator taped (src/krazy/rng.h).  Fed the very draws ``Rng(seed)`` makes, one
    at a time as the tape runs out, the taped deal is ``new_initial_state(seed)``'s: the
    tape's outcomes are the engine's bounded draws, so explicit chance has the engine's
    distribution exactly."""
    import json
    import krazy_core
    from krazy_core._state import Tape, new_state_taped, rng_words
    game = krazy_core.make(game_id)
    for seed in (1, 2, 3):
        r, vals = Rng(seed), []
        while True:
            tape = Tape(vals)
            s = new_state_taped(game, tape, [1, 2, 3, 4])
            if not tape.need:
                break
            vals.append(r.bounded(tape.need))
        assert tape.pos == len(vals) and rng_words(s) == [1, 2, 3, 4]
        want = json.loads(game.new_initial_state(seed).to_json())
        got = json.loads(s.to_json())
        del want["state"]["rng"], got["state"]["rng"]
        assert got == want


@pytest.mark.parametrize("game_id", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_loaders_and_setters_refuse_a_tape_marker(game_id):
    """A generator (0, 0, 0, x) is a tape (rng.h): x would be read as an address.  No JSON,
    no ``rng_words`` and no unpickled ``Rng`` may make one."""
    import json
    import krazy_core
    from krazy_core.errors import InvalidStateError
    from krazy_core._state import rng_words
    from krazy_core.rng import _rng_from_words
    game = krazy_core.make(game_id)
    state = game.new_initial_state(seed=4)
    doc = json.loads(state.to_json())
    doc["state"]["rng"] = [0, 0, 0, 12345]
    with pytest.raises(InvalidStateError):
        game.state_from_json(json.dumps(doc))
    with pytest.raises(ValueError):
        rng_words(state, [0, 0, 0, 12345])
    with pytest.raises(ValueError):
        _rng_from_words(0, 0, 0, 12345)
    state.apply_action(state.legal_actions()[0])        # the state is unharmed
