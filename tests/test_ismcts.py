"""ISMCTS (krazy_core/search/ismcts.pyx) and ISMCTSBot, game-blind.

The search is tested on "Hidden Nim" (tests/toy_nim.pyx, compiled here with pyximport):
a tiny GameOps game with secret cards and dice whose winning moves are known.  The tests
on the real games are in tests/test_ismcts_games.py.
"""
import math
import glob
import hashlib
import os
import sys
import tempfile

import pytest

from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core.search.bot import ISMCTSBot
from krazy_core.search.ismcts import NODE_BYTES, search

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def nim():
    import pyximport
    src = os.path.join(os.path.dirname(HERE), "src")
    # the build cache is keyed by what the toy compiles against, so a changed ops table or
    # State layout (src/krazy/*.h, krazy_core/_ops.pxd, _state.pxd) never meets a stale
    # toy_nim binary
    digest = hashlib.sha1()
    for path in sorted(glob.glob(os.path.join(src, "krazy", "*.h"))) + [
            os.path.join(os.path.dirname(HERE), "krazy_core", "_ops.pxd"),
            os.path.join(os.path.dirname(HERE), "krazy_core", "_state.pxd"),
            os.path.join(HERE, "toy_nim.pyx")]:
        with open(path, "rb") as f:
            digest.update(f.read())
    build_dir = os.path.join(tempfile.gettempdir(), "krazy-pyxbld-" + digest.hexdigest()[:16])
    hooks = pyximport.install(setup_args={"include_dirs": [src]}, language_level=3,
                              build_dir=build_dir)
    sys.path.insert(0, HERE)
    try:
        import toy_nim
    finally:
        sys.path.remove(HERE)
        pyximport.uninstall(*hooks)
    toy_nim.set_heuristic(True)
    return toy_nim


# ------------------------------------------------------------------ configuration
@pytest.mark.parametrize("bad", [
    {"iterations": 0}, {"iterations": -5}, {"iterations": 1.5}, {"iterations": True},
    {"time_limit": -1.0}, {"time_limit": 0}, {"time_limit": float("nan")},
    {"time_limit": float("inf")}, {"iterations": 10, "exploration": -0.1},
    {"iterations": 10, "rollout": "greedy"}, {"iterations": 10, "threads": 0},
    {"iterations": 10, "max_rollout": -1}, {"iterations": 10, "seed": "x"},
    {"iterations": 10, "max_nodes": 0}, {"iterations": 10, "prior": -1.0},
    {"iterations": 10, "paired": 1}, {"iterations": 10, "omniscient": "yes"}, {"iterations": 10, "opponents": "minimax"}, {"iterations": 10, "temperature": 1.0}, {},
    {"iterations": 2**63}, {"iterations": 10**20}, {"iterations": 10, "horizon": "hand"},
    {"iterations": 10, "tree_depth": 0}, {"iterations": 10, "tree_depth": 1.5},
    {"iterations": 10, "tree_depth": True}, {"iterations": 10, "reuse": 1},
])
def test_bad_configuration_raises_config_error(nim, bad):
    with pytest.raises(ConfigError):
        search(nim.new_state(5), **bad)
    if bad:     # the bot has a default budget, so {} is fine there
        with pytest.raises(ConfigError):
            ISMCTSBot(**bad)


def test_terminal_state_raises_illegal_action(nim):
    st = nim.new_state(2)
    st.apply_action(1)          # takes the last two stones
    assert st.is_terminal()
    with pytest.raises(IllegalActionError, match="over"):
        search(st, iterations=10)
    with pytest.raises(IllegalActionError):
        ISMCTSBot(iterations=10, seed=1).step(st)


def test_search_rejects_non_states():
    with pytest.raises(TypeError):
        search("not a state", iterations=10)


# ------------------------------------------------------------------ determinism
@pytest.mark.parametrize("threads", [1, 2])
def test_same_seed_same_search(nim, threads):
    st = nim.new_state(9, seed=4)
    a = search(st, iterations=2000, seed=11, threads=threads)
    b = search(st, iterations=2000, seed=11, threads=threads)
    assert a.visits == b.visits and a.values == b.values and a.action == b.action
    assert a.iterations == b.iterations == 2000
    c = search(st, iterations=2000, seed=12, threads=threads)
    assert c.visits != a.visits


def test_search_leaves_the_state_alone(nim):
    st = nim.new_state(9, seed=4)
    before = st.clone()
    search(st, iterations=500, seed=1)
    assert st == before


# ------------------------------------------------------------------ no peeking
def test_search_never_reads_hidden_parts_of_the_root(nim):
    """Same information set for the searcher, different hidden cards and dice: same search."""
    st = nim.new_state(11, num_players=3, seed=3, cards=[5, 1, 2])
    other = nim.new_state(11, num_players=3, seed=987654321, cards=[5, 9, 7])
    det = st.determinize(0, seed=77)
    assert det.secret_cards()[0] == 5 and det != st
    base = search(st, iterations=1500, seed=21)
    for twin in (other, det):
        r = search(twin, iterations=1500, seed=21)
        assert r.visits == base.visits and r.values == base.values


# ------------------------------------------------------------------ finds the win
@pytest.mark.parametrize("pile, winning", [(3, 2), (5, 0), (6, 1), (7, 2)])
@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_finds_the_winning_move_in_nim(nim, pile, winning, rollout):
    r = search(nim.new_state(pile, seed=pile), iterations=4000, seed=5, rollout=rollout)
    assert r.action == winning
    assert r.policy[winning] == max(r.policy.values())


def test_immediate_win_has_value_one(nim):
    r = search(nim.new_state(2, seed=1), iterations=200, seed=1)
    assert r.action == 1 and r.values[1] == 1.0


# ------------------------------------------------------------------ options
def test_heuristic_rollout_falls_back_to_random_without_a_heuristic(nim):
    st = nim.new_state(12, seed=8)
    rnd = search(st, iterations=1000, seed=3, rollout="random")
    nim.set_heuristic(False)
    try:
        heu = search(st, iterations=1000, seed=3, rollout="heuristic")
    finally:
        nim.set_heuristic(True)
    assert heu.visits == rnd.visits
    assert search(st, iterations=1000, seed=3, rollout="heuristic").visits != rnd.visits


def test_prior_expands_the_heuristic_move_first(nim):
    """Progressive bias: the heuristic (take the whole pile when <= 3) is tried first and
    keeps a bonus prior / (visits + 1)."""
    st = nim.new_state(3, seed=1)
    assert search(st, iterations=1, seed=4, prior=1.0).visits == {0: 0, 1: 0, 2: 1, 3: 0}
    plain = search(st, iterations=1, seed=4).visits
    assert sum(plain.values()) == 1
    r = search(nim.new_state(7, seed=1), iterations=3000, seed=4, prior=2.0)
    assert r.action == 2


def test_paired_root_plays_every_world_after_every_root_action(nim):
    """paired=True: rounds of one determinization per root action, same dice and rollout
    draws; the move is the best mean; the policy is the share of worlds each did best in."""
    st = nim.new_state(7, seed=1)
    r = search(st, iterations=4000, seed=4, paired=True)
    assert set(r.visits.values()) == {1000}
    assert r.action == 2 and r.action == max(r.values, key=r.values.get)
    assert math.isclose(sum(r.policy.values()), 1.0) and r.policy[2] == max(r.policy.values())
    again = search(st, iterations=4000, seed=4, paired=True, threads=2)
    assert again.action == 2 and sum(again.visits.values()) == 4000
    assert search(st, iterations=4000, seed=4, paired=True).values == r.values
    other = nim.new_state(7, seed=99, cards=[1, 9])     # same view for seat 0
    assert search(other, iterations=4000, seed=4, paired=True).values == r.values


def test_heuristic_opponents_leave_only_the_searchers_nodes(nim):
    """opponents="heuristic": the opponent plays the game's heuristic inside the tree too, so
    every tree node is a move of the searcher (seat 0)."""
    st = nim.new_state(9, seed=3)
    r = search(st, iterations=3000, seed=2, opponents="heuristic")
    assert r.action == 0            # leave 8: a multiple of 4
    assert r.nodes < search(st, iterations=3000, seed=2).nodes


def test_omniscient_diagnostic_sees_the_dice(nim):
    """omniscient=True skips the determinization: it knows the next die, so from a pile of 4
    (lost for a taker) the gamble is a sure win exactly when the die shows 1-3."""
    for seed in range(50):
        st = nim.new_state(4, seed=seed)
        probe = st.clone()
        probe.apply_action(3)
        lucky = not probe.is_terminal() and probe.legal_actions() == [0, 1, 2, 3]   # still 4
        r = search(st, iterations=2000, seed=1, omniscient=True)
        if lucky:
            assert r.action == 3 and r.values[3] > 0.95
            honest = search(st, iterations=2000, seed=1)
            assert 0.2 < honest.values[3] < 0.9
            return
    raise AssertionError("no seed rolls 1-3 first")


def test_max_rollout_cuts_rollouts(nim):
    r = search(nim.new_state(40, seed=2), iterations=300, seed=1, max_rollout=0)
    assert r.truncated > 0 and r.rollout_actions == 0.0


def test_max_nodes_caps_the_tree(nim):
    r = search(nim.new_state(40, seed=2), iterations=3000, seed=1, max_nodes=10)
    assert r.nodes == 10 and r.iterations == 3000
    assert math.isclose(sum(r.policy.values()), 1.0)


def test_tree_depth_one_is_flat_monte_carlo(nim):
    """tree_depth=1: the tree is the root and one child per root move; every later move is
    the rollout's.  tree_depth=None (default) grows as deep as the iterations take it."""
    st = nim.new_state(40, seed=2)
    flat = search(st, iterations=3000, seed=1, tree_depth=1)
    assert flat.nodes == 1 + len(st.legal_actions()) and flat.max_depth == 1
    assert flat.iterations == 3000 and sum(flat.visits.values()) == 3000
    two = search(st, iterations=3000, seed=1, tree_depth=2)
    assert two.max_depth == 2 and two.nodes > flat.nodes
    deep = search(st, iterations=3000, seed=1)
    assert deep.max_depth > 2
    explicit = search(st, iterations=3000, seed=1, tree_depth=None)
    assert (explicit.visits, explicit.values, explicit.nodes) == (deep.visits, deep.values, deep.nodes)


def test_time_limit_budget(nim):
    r = search(nim.new_state(60, seed=2), time_limit=0.05, seed=1)
    assert 0.05 <= r.elapsed < 1.0 and r.iterations > 8


def test_iterations_and_time_stop_at_the_first(nim):
    r = search(nim.new_state(60, seed=2), iterations=50, time_limit=10.0, seed=1)
    assert r.iterations == 50 and r.elapsed < 1.0


def test_result_fields(nim):
    st = nim.new_state(8, seed=1)
    r = search(st, iterations=1000, seed=1, threads=2)
    assert set(r.policy) == set(st.legal_actions())
    assert math.isclose(sum(r.policy.values()), 1.0)
    assert sum(r.visits.values()) == 1000 and r.threads == 2
    assert 0 < r.bytes_per_iteration <= NODE_BYTES + 1e-9 and NODE_BYTES == 40
    assert r.max_depth >= 2 and r.iterations_per_second() > 0


# ------------------------------------------------------------------ tree reuse
def test_reuse_continues_the_same_root(nim):
    """previous= from the same state: the tree is copied whole, its statistics kept, and one
    more iteration adds one visit to one root child."""
    st = nim.new_state(9, seed=4)
    first = search(st, iterations=2000, seed=11, reuse=True)
    assert first.tree is not None and first.reused == 0 and first.tree.nodes == first.nodes
    more = search(st, iterations=1, seed=5, reuse=True, previous=first)
    assert more.reused == 2000
    assert sum(more.visits.values()) == 2001
    diff = {a: more.visits[a] - first.visits[a] for a in first.visits}
    assert sorted(diff.values()) == [0] * (len(diff) - 1) + [1]
    for a in first.visits:                  # means kept up to that one iteration
        if diff[a] == 0 and first.visits[a]:
            assert more.values[a] == pytest.approx(first.values[a])
    assert more.nodes >= first.nodes and more.bytes_per_iteration <= NODE_BYTES
    assert search(st, iterations=50, seed=5).tree is None       # reuse is off by default


def test_reuse_follows_the_moves_played_since(nim):
    """After the searcher's move and the opponent's, the search starts from the subtree the
    old tree grew there: its root visits are that node's."""
    st = nim.new_state(12, seed=4)
    first = search(st, iterations=3000, seed=2, reuse=True)
    st.apply_action(first.action)
    reply = st.legal_actions()[0]
    st.apply_action(reply)
    if st.is_terminal() or st.current_player() != 0:
        pytest.skip("the dice ended the game")
    grown = first.tree.workers[0]
    later = search(st, iterations=500, seed=3, reuse=True, previous=first)
    assert 0 < later.reused < 3000
    assert sum(later.visits.values()) <= later.reused + 500
    same = search(st, iterations=500, seed=3, reuse=True, previous=first)
    assert same.visits == later.visits          # deterministic with the same seed and tree
    fresh = search(st, iterations=500, seed=3)
    assert fresh.reused == 0 and sum(fresh.visits.values()) == 500


def test_reuse_starts_afresh_when_the_tree_does_not_fit(nim):
    st = nim.new_state(9, seed=4)
    first = search(st, iterations=500, seed=1, reuse=True)
    other = nim.new_state(9, seed=4, num_players=3)              # another game
    assert search(other, iterations=100, seed=1, previous=first).reused == 0
    unrelated = nim.new_state(7, seed=4)                          # not a continuation
    assert search(unrelated, iterations=100, seed=1, previous=first).reused == 0
    assert search(st, iterations=100, seed=1, threads=2, previous=first).reused == 0
    assert search(st, iterations=100, seed=1, opponents="heuristic", previous=first).reused == 0
    with pytest.raises(TypeError):
        search(st, iterations=100, seed=1, previous="tree")


def test_bot_with_reuse_carries_its_tree(nim):
    def play(reuse):
        bots = [ISMCTSBot(iterations=300, seed=1, reuse=reuse), ISMCTSBot(iterations=300, seed=2)]
        st, carried = nim.new_state(25, seed=6), []
        while not st.is_terminal():
            bot = bots[st.current_player()]
            st.apply_action(bot.step(st))
            if bot is bots[0] and bot.last_result is not None:
                carried.append(bot.last_result.reused)
        return carried
    with_reuse = play(True)
    assert any(r > 0 for r in with_reuse) and with_reuse == play(True)
    assert set(play(False)) == {0}


# ------------------------------------------------------------------ the bot
def test_bot_is_deterministic_with_a_seed(nim):
    def play(seed):
        bots = [ISMCTSBot(iterations=300, seed=seed), ISMCTSBot(iterations=300, seed=seed + 1)]
        st, moves = nim.new_state(21, seed=6), []
        while not st.is_terminal():
            a = bots[st.current_player()].step(st)
            moves.append(a)
            st.apply_action(a)
        return moves
    assert play(1) == play(1)


def test_bot_policy_and_forced_moves(nim):
    bot = ISMCTSBot(iterations=500, seed=3)
    a, pol = bot.step_with_policy(nim.new_state(5, seed=1))
    assert a == 0 and math.isclose(sum(pol.values()), 1.0) and bot.last_result.iterations == 500
    assert bot.step_with_policy(nim.new_state(1)) == (0, {0: 1.0}) and bot.last_result is None


def test_bot_default_budget_and_options():
    bot = ISMCTSBot(seed=1)
    assert bot.options["time_limit"] == 0.2 and bot.options["iterations"] is None
    assert "ISMCTSBot(time_limit=0.2, seed=1" in repr(bot)
    with pytest.raises(ConfigError):
        ISMCTSBot(iterations=10, seed=2.5)


@pytest.mark.slow
def test_ctrl_c_stops_a_long_search():
    """A search with a long time budget looks for signals between slices of iterations, so
    Ctrl-C (here: _thread.interrupt_main) stops it within a fraction of a second."""
    import _thread
    import signal
    import threading
    import time
    import krazy_core
    from krazy_core.search.ismcts import search
    st = krazy_core.make("krazy-kings").new_initial_state(seed=2)
    # Python's handler, also where the suite started with SIGINT ignored (`pytest &` in a
    # script): interrupt_main does nothing for an ignored signal
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.3, _thread.interrupt_main).start()
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            search(st, time_limit=30.0, seed=1)
        assert time.monotonic() - t0 < 5.0
    finally:
        signal.signal(signal.SIGINT, old)


def test_chance_nodes_key_decisions_by_what_the_searcher_saw():
    """chance_nodes=True (issue 18 experiment): below each action node one child per
    observation of the searcher; the root's statistics stay keyed by action."""
    import krazy_core
    s = krazy_core.make("krazy-kings").new_initial_state(seed=3)
    a = search(s, iterations=3000, seed=1, chance_nodes=True)
    b = search(s, iterations=3000, seed=1, chance_nodes=True)
    plain = search(s, iterations=3000, seed=1)
    assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)
    assert sum(a.visits.values()) == 3000 and set(a.visits) == set(s.legal_actions())
    # the same iterations build another tree: the outcome nodes come in, the deep lines split
    assert a.visits != plain.visits and a.nodes != plain.nodes
    with pytest.raises(ConfigError, match="chance_nodes must be True or False"):
        search(s, iterations=5, chance_nodes=1)
    with pytest.raises(ConfigError, match="drop reuse=True"):
        search(s, iterations=5, chance_nodes=True, reuse=True)


def test_chance_nodes_need_an_observation_tensor(nim):
    with pytest.raises(ConfigError, match="chance_nodes=True: .* has no observation tensor"):
        search(nim.new_state(5), iterations=5, chance_nodes=True)
