"""Issue 19 (helper task D): public functions and the CLI-reached methods that take an int
refuse one beyond a C int with their documented ``ValueError`` (``IllegalActionError`` and
``ConfigError`` are ``ValueError``s), never Cython's ``OverflowError``: VectorEnv sizes,
simulate_random game counts and Krazy Kings card masks included."""
import pytest

import krazy_core
from krazy_core import cards
from krazy_core.games import contract_rummy as cr
from krazy_core.games import krass_kariert as ka
from krazy_core.games import krazy_kings as kk
from krazy_core.games import melds

HUGE = [2**31, -2**31 - 1, 2**63, -2**63 - 1, 2**64, 10**400]

CALLS = [
    ("cards.make_card suit", lambda x: cards.make_card(x, 3)),
    ("cards.make_card rank", lambda x: cards.make_card(0, x)),
    ("cards.rank_of", cards.rank_of),
    ("cards.suit_of", cards.suit_of),
    ("cards.format_card", cards.format_card),
    ("krass_kariert.combination_index", lambda x: ka.combination_index("single", x)),
    ("krass_kariert.combination_of_index", ka.combination_of_index),
    ("krass_kariert.window_combinations", lambda x: ka.window_combinations([1], True, x)),
    ("krass_kariert._action_text", ka._action_text),
    ("contract_rummy._action_text", cr._action_text),
    ("krazy_kings._action_card", kk._action_card),
    ("melds._fmt", melds._fmt),
]


@pytest.mark.parametrize("x", HUGE)
@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_huge_int_is_a_value_error(name, call, x):
    with pytest.raises(ValueError):
        call(x)


@pytest.mark.parametrize("game", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_explain_illegal_huge_id_is_a_value_error(game):
    s = krazy_core.make(game).new_initial_state(seed=3)
    for x in HUGE:
        with pytest.raises(ValueError):
            s._explain_illegal(x)
        with pytest.raises(ValueError):
            s._illegal_message(x, x)
        assert "out of range" in s.explain_illegal(x)       # the public face explains it


def test_in_range_ints_unchanged():
    assert cards.make_card(1, 12) == 0x1C and cards.rank_of(0x1C) == 12 and cards.suit_of(0x1C) == 1
    assert cards.rank_of(-1) == 15 and cards.suit_of(-1) == -1        # as the C int did
    assert cards.format_card(0x1C, True) == "QH"
    with pytest.raises(TypeError):
        cards.rank_of(1.5)


# ------------------------------------------------------------------ the rest (issue 19, item 2 of the last round)
from krazy_core.errors import ConfigError
from krazy_core import _state
from krazy_core.games import kings_rummy as kr

SIMULATORS = [("_state", _state.simulate_random, "krazy-kings"),
              ("kings_rummy", kr.simulate_random, "kings-rummy"),
              ("krass_kariert", ka.simulate_random, "krass-kariert")]


@pytest.mark.parametrize("n", [2**63, 2**64, 2**70, 10**400, 0, -1, -2**70])
@pytest.mark.parametrize("name,sim,game_id", SIMULATORS, ids=[s[0] for s in SIMULATORS])
def test_simulate_random_huge_or_bad_game_counts_are_config_errors(name, sim, game_id, n):
    with pytest.raises(ConfigError, match="n_games"):
        sim(krazy_core.make(game_id), n)


@pytest.mark.parametrize("n", [1.5, True, "3", None])
def test_simulate_random_non_int_game_counts_are_config_errors(n):
    with pytest.raises(ConfigError, match="n_games"):
        _state.simulate_random(krazy_core.make("krazy-kings"), n)


def test_simulate_random_counts_unchanged():
    import numpy as np
    g = krazy_core.make("krazy-kings")
    a = _state.simulate_random(g, 7, seed=2)
    b = _state.simulate_random(g, np.int64(7), seed=2)
    assert a["games"] == b["games"] == 7 and a["decisions"] == b["decisions"] > 7
    assert ka.simulate_random(krazy_core.make("krass-kariert"), 3, seed=1)["games"] == 3
    assert kr.simulate_random(krazy_core.make("kings-rummy", rounds=1), 3, seed=1)["games"] == 3


def test_games_in_slices_refuses_huge_counts_when_called():
    for n in (2**63, 2**70, -2**63 - 1, 1.5, "x"):
        with pytest.raises(ConfigError):
            _state._games_in_slices(n)          # at the call, not at the first iteration
    assert list(_state._games_in_slices(0)) == [] and list(_state._games_in_slices(-5)) == []
    slices = list(_state._games_in_slices(1000))
    assert slices[0] == (0, 1) and slices[-1][1] == 1000
    assert all(a[1] == b[0] for a, b in zip(slices, slices[1:]))


@pytest.mark.parametrize("kw", [{"num_envs": 2**70}, {"num_envs": 2**31}, {"num_envs": 0},
                                {"num_envs": -2**70}, {"num_envs": 1.5}, {"num_envs": True},
                                {"num_envs": 2, "threads": 2**70}, {"num_envs": 2, "threads": 0}])
def test_vector_env_huge_sizes_are_config_errors(kw):
    from krazy_core.vector import VectorEnv
    with pytest.raises(ConfigError):
        VectorEnv("krazy-kings", **kw)


def test_vector_env_sizes_unchanged():
    import numpy as np
    from krazy_core.vector import VectorEnv
    env = VectorEnv("krazy-kings", np.int64(3), threads=2, seed=1)
    assert env.num_envs == 3 and env.threads == 2
    obs, info = env.reset(seed=1)
    assert obs["observation"].shape == (3, 219) and obs["action_mask"].shape == (3, 109)


@pytest.mark.parametrize("mask", [2**64, 2**64 + 1, 2**70, 10**400, -1, -2**63, -2**64, 2**54, 2**63])
@pytest.mark.parametrize("fn", ["_cards_of", "_mask_cards"])
def test_krazy_kings_mask_helpers_refuse_masks_beyond_the_deck(fn, mask):
    with pytest.raises(ValueError, match="not a set of the 54 cards"):
        getattr(kk, fn)(mask)


def test_krazy_kings_mask_helpers_unchanged():
    import numpy as np
    from krazy_core.cards import make_card
    assert kk._cards_of(0) == [] and kk._mask_cards(0) == []
    assert kk._cards_of(1) == kk._mask_cards(1) == [make_card(0, 1)]      # bit 0: the first card
    both_jokers = (1 << 52) | (1 << 53)
    assert len(kk._cards_of(both_jokers)) == 2 and len(kk._mask_cards(both_jokers)) == 1
    assert kk._cards_of(np.uint64(3)) == kk._cards_of(3)
    with pytest.raises(TypeError):
        kk._cards_of(1.5)


# found by the sweep once it stopped accepting OverflowError (tests/hostile_sweep.py)
@pytest.mark.parametrize("game_id", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_sweep_findings_are_value_errors(game_id):
    game = krazy_core.make(game_id)
    s = game.new_initial_state(seed=2)
    for x in (2**31, 2**63, -2**63 - 1, 10**400):
        with pytest.raises(ValueError, match="max_steps"):
            s._random_playout(1, x)
        with pytest.raises(ValueError, match="max_kind"):
            s._load_events([], x)
    for x in (float("inf"), float("-inf"), float("nan"), 2**70):
        with pytest.raises(ValueError):
            s.action_to_string(x)
    assert s.action_to_string(s.legal_actions()[0]) == s.action_to_string(float(s.legal_actions()[0]))
    assert s._random_playout(1, 5) == 5 and len(s.history()) == 0       # events off, as before
    events = [list(e) for e in s.raw_events()]
    s._load_events(events)
    assert [list(e) for e in s.raw_events()] == events


def test_check_options_take_any_table_size():
    """``_check_options(num_players, options)`` (GameSpec.check_options) compares Python ints:
    a huge table size passes the seat checks instead of raising OverflowError."""
    from krazy_core.game import get_spec
    for gid in ("krazy-kings", "kings-rummy", "contract-rummy"):
        opts = krazy_core.make(gid).options
        check = get_spec(gid).check_options
        for n in (2**63, 2**70):
            assert check(n, opts) is None
        if gid != "contract-rummy":
            with pytest.raises(ConfigError):
                check(-2**63, opts)         # the first dealer is no seat of it


def test_krass_kariert_probe_huge_arguments_are_value_errors():
    for kw in ({"best_combo": 2**63}, {"reserves": -2**63 - 1}, {"best_combo": 10**400}):
        with pytest.raises(ValueError):
            ka._probe_actions([5], **kw)
    any_action, legal = ka._probe_actions([5, 5])
    assert any_action and len(legal) >= 2            # a solo 5 and the pair of 5s at least


def test_state_helpers_refuse_none_and_huge_counts():
    with pytest.raises(TypeError):
        _state._log_layout(None)
    gen = _state._slices(2**70)
    with pytest.raises(ConfigError):
        next(gen)


def test_lay_down_helpers_take_any_integer_round():
    """A fresh user's numpy round: ``best_arrangement(hand, numpy.int64(3))`` was refused as
    "round must be 1..7, got np.int64(3)"; any integer is read (``__index__``), a bool, a
    float and a round outside 1..7 are still the same ValueError.  Kings Rummy's helpers
    (``melds``: wild_rank, wild_points, joker_points) alike."""
    np = pytest.importorskip("numpy")
    hand = "AH 2H 3H 4H 10H JH QH KH"
    want = ([["A♥", "2♥", "3♥", "4♥"], ["10♥", "J♥", "Q♥", "K♥"]], [], 0)
    for rnd in (3, np.int64(3), np.int32(3), np.uint8(3)):
        assert cr.best_arrangement(hand, rnd) == want
        assert cr.contract_options(hand, rnd) == [(("A♥", "2♥", "3♥", "4♥"), ("10♥", "J♥", "Q♥", "K♥"))]
        assert cr.contract_options(hand, rnd, limit=0) == []
    assert cr.best_arrangement("7H 7S 7D 9C", np.int64(1)) is None      # one book: no round 1 lay-down
    for bad in (True, False, np.True_, 0, 8, np.int64(8), np.int64(-1), 2**70, 3.0, np.float64(3), "3", None):
        for f in (cr.best_arrangement, cr.contract_options):
            with pytest.raises(ValueError) as e:
                f(hand, bad)
            assert str(e.value) == f"round must be 1..7, got {bad!r}"
    # Kings Rummy: the round's wild rank and the points of wilds
    assert melds.best_arrangement("3S 4S 5S 9H", melds.kings_rules(np.int64(9))) == ([["3S", "4S", "5S", "9H"]], [], 0)
    assert melds.deadwood_points("KS QH 9H JK", np.int16(9), wild_points=np.int64(5),
                                 joker_points=np.int32(7)) == 12             # K 9 JK a book; Q♥ left
    assert melds.deadwood_points("KS QH 4D 8C", np.int64(9)) == 13 + 12 + 4 + 8
    # no meld: the wilds' points as given (defaults 20 and 50: 13 + 9 + 8 + 50)
    assert melds.deadwood_points("KS 9H JK 8C", 3, wild_points=np.int64(5), joker_points=np.uint16(7)) == 13 + 9 + 8 + 7
    assert melds.deadwood_points("KS 9H JK 8C", np.int64(3)) == 80
    assert melds.can_meld_all("3S 4S 5S", np.int64(13)) is True
    for bad in (True, np.int64(14), 2, 9.0):
        with pytest.raises(ValueError) as e:
            melds.is_run("3S 4S 5S", bad)
        assert str(e.value) == f"wild_rank must be an int in 3..13 (the round's n, KR-3), got {bad!r}"
    for kw, name in (({"joker_points": np.int64(1001)}, "joker_points"), ({"wild_points": True}, "wild_points"),
                     ({"wild_points": -1}, "wild_points"), ({"joker_points": 5.0}, "joker_points")):
        with pytest.raises(ValueError) as e:
            melds.deadwood_points("3S", 9, **kw)
        assert str(e.value) == f"{name} must be an int in 0..1000, got {kw[name]!r}"


def test_lay_down_helpers_rule_options_are_bools_and_limit_any_int():
    """A fresh user's finds: ``ace_wrap='no'`` turned the wrap on (any truthy value did), and
    ``limit=numpy.int64(2)`` was refused where the round took numpy ints (CR-3, CR-10)."""
    import numpy as np
    from krazy_core.games import contract_rummy as cr
    h = ["Q♠", "K♠", "A♠", "2♠", "3♠", "9♥", "10♥", "J♥", "Q♥"]
    assert cr.best_arrangement(h, 3)[2] == 5                 # no wrap: Q-K-A-2-3 is no run
    assert cr.best_arrangement(h, 3, ace_wrap=True)[2] == 0
    assert cr.best_arrangement(h, 3, ace_wrap=np.True_)[2] == 0
    assert cr.best_arrangement(h, 3, ace_wrap=np.False_)[2] == 5
    for bad in ("no", "false", 2, 1, 0, None, 1.0):
        for kw in ("ace_wrap", "overlapping_runs"):
            for f in (cr.best_arrangement, cr.contract_options):
                with pytest.raises(ValueError) as e:
                    f(h, 3, **{kw: bad})
                assert str(e.value) == f"{kw} must be True or False, got {bad!r}"
        with pytest.raises(ValueError, match="ace_wrap must be True or False"):
            cr.is_run("QS KS AS 2S", ace_wrap=bad)
        with pytest.raises(ValueError, match="ace_wrap must be True or False"):
            cr.is_book("QS QH QD", ace_wrap=bad)
    every = cr.contract_options(h, 3, ace_wrap=True)
    assert len(every) > 2
    for lim in (2, np.int64(2), np.uint8(2)):
        got = cr.contract_options(h, 3, ace_wrap=True, limit=lim)
        assert 1 <= len(got) <= 2 and set(got) <= set(every)
    for bad in (True, -1, np.int64(-1), 2.0, "2"):
        with pytest.raises(ValueError) as e:
            cr.contract_options(h, 3, limit=bad)
        assert str(e.value) == f"limit must be None or an int >= 0, got {bad!r}"


class _OldNumpyBool:
    """numpy's bool as numpy < 2.1 has it (Python 3.9 installs numpy 2.0): it has ``__index__``
    (``numpy.True_.__index__() == 1``), so a check of "an int, never a bool" that asked only
    ``isinstance(x, bool)`` read it as 1.  Found by CI on 3.9: round ``numpy.True_`` laid down."""
    def __index__(self):
        return 1

    def __repr__(self):
        return "np.True_"


_OldNumpyBool.__module__, _OldNumpyBool.__name__ = "numpy", "bool_"


def test_an_old_numpy_bool_is_a_bool_everywhere_an_int_is_read():
    import numpy as np
    from krazy_core._validate import is_bool
    from krazy_core.errors import IllegalActionError
    t = _OldNumpyBool()
    assert is_bool(t) and is_bool(True) and not is_bool(1) and not is_bool(np.int64(1))
    assert is_bool(np.True_) and is_bool(np.False_)
    hand = "AH 2H 3H 4H 10H JH QH KH"
    for f in (cr.best_arrangement, cr.contract_options):
        with pytest.raises(ValueError, match="round must be 1..7, got np.True_"):
            f(hand, t)
    with pytest.raises(ValueError, match="limit must be None or an int >= 0, got np.True_"):
        cr.contract_options(hand, 3, limit=t)
    with pytest.raises(ValueError, match="wild_points .*got np.True_"):
        melds.is_book("AH AS AD", 9, wild_points=t)
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=1)
    with pytest.raises(ValueError, match="player must be a seat"):
        s.observation(t)
    with pytest.raises(ValueError, match="since must be an event number"):
        s.events_for(0, since=t)
    assert "is not an action" in s.explain_illegal(t)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply_action(t)
    assert s.to_json() == before
