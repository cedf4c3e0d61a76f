"""krazy_core.vector.VectorEnv: N games stepped in C.  Arrays, shapes and dtypes; every
observation and mask is the State's own for the seat to act; the learner always acts;
rewards are the returns of finished games; same seed, same arrays, whatever the threads;
all-seats mode; KK-20's turn cap is a truncation; a bad batch raises naming the env and
moves no env."""
import numpy as np
import pytest

import krazy_core
from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core.vector import VectorEnv

from helpers import GAMES


def _run(env, steps, seed=0):
    obs, info = env.reset(seed=seed)
    trace = [obs["observation"].copy()]
    for k in range(steps):
        obs, r, te, tr, info = env.step(env.sample_legal(k))
        trace.append((obs["observation"].copy(), obs["action_mask"].copy(), r.copy(), te.copy(),
                      tr.copy(), info["to_act"].copy()))
    return trace


@pytest.mark.parametrize("game_id", GAMES)
def test_arrays_match_states_and_learner_acts(game_id):
    env = VectorEnv(game_id, 12, seat=1, opponents="heuristic", seed=3)
    obs, info = env.reset(seed=3)
    game = env.game
    D, A = game.observation_tensor_shape[0], game.num_distinct_actions
    assert obs["observation"].shape == (12, D) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (12, A) and obs["action_mask"].dtype == np.int8
    finished = 0
    for k in range(60):
        before = [env.get_state(i) for i in range(12)]
        actions = env.sample_legal(k)
        obs, r, te, tr, info = env.step(actions)
        assert r.dtype == np.float32 and te.dtype == np.bool_ and tr.dtype == np.bool_
        for i in range(12):
            s = env.get_state(i)
            assert info["to_act"][i] == 1 == s.current_player()
            np.testing.assert_array_equal(obs["observation"][i], s.observation_tensor(1))
            np.testing.assert_array_equal(obs["action_mask"][i], s.legal_action_mask().astype(np.int8))
            if te[i] or tr[i]:
                finished += 1
                assert info["_final_obs"][i]
                assert r[i] == info["seat_rewards"][i][1]
                assert abs(info["seat_rewards"][i].sum() - (game.num_players - 1 if game_id == "krass-kariert" else 1)) < 1e-5
            else:
                assert r[i] == 0 and not info["_final_obs"][i]
                # the env's game went on from the state before, the learner's action first
                assert before[i].current_player() == 1
    assert env.episodes.sum() == finished
    env.close()


def test_episodes_finish_and_rewards_are_returns():
    env = VectorEnv("krazy-kings", 64, num_players=2, opponents="random", seed=1)
    env.reset(seed=1)
    total = 0
    wins = 0.0
    for k in range(400):
        _, r, te, tr, info = env.step(env.sample_legal(k))
        total += int((te | tr).sum())
        wins += float(r.sum())
    assert total == env.episodes.sum() > 64
    assert 0.2 < wins / total < 0.8          # a random learner against a random opponent


@pytest.mark.parametrize("game_id", ["krazy-kings", "krass-kariert"])
def test_same_seed_same_arrays_whatever_threads(game_id):
    a = _run(VectorEnv(game_id, 33, opponents="heuristic", seat="random", threads=1), 40, seed=9)
    b = _run(VectorEnv(game_id, 33, opponents="heuristic", seat="random", threads=2), 40, seed=9)
    c = _run(VectorEnv(game_id, 33, opponents="heuristic", seat="random", threads=1), 40, seed=10)
    np.testing.assert_array_equal(a[0], b[0])
    for x, y in zip(a[1:], b[1:]):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a[1:], c[1:]))


def test_random_seat_draws_every_seat():
    env = VectorEnv("krazy-kings", 64, num_players=4, seat="random", seed=2)
    _, info = env.reset(seed=2)
    assert set(info["seat"].tolist()) == {0, 1, 2, 3}
    assert (info["to_act"] == info["seat"]).all()


def test_all_seats_mode_reports_the_acting_seat():
    env = VectorEnv("krazy-kings", 16, num_players=3, seat="all", seed=4)
    obs, info = env.reset(seed=4)
    seen = set()
    for k in range(100):
        movers = info["to_act"].copy()
        obs, r, te, tr, info = env.step(env.sample_legal(k))
        for i in range(16):
            s = env.get_state(i)
            assert info["to_act"][i] == s.current_player()
            np.testing.assert_array_equal(obs["observation"][i], s.observation_tensor(s.current_player()))
            if te[i] or tr[i]:
                assert r[i] == info["seat_rewards"][i][movers[i]]
        seen |= set(info["to_act"].tolist())
    assert seen == {0, 1, 2}
    assert (info["seat"] == -1).all()


def test_kk20_turn_cap_is_a_truncation():
    env = VectorEnv("krazy-kings", 8, num_players=4, max_turns=4, seed=5)
    env.reset(seed=5)
    truncs = terms = 0
    for k in range(50):
        _, r, te, tr, info = env.step(env.sample_legal(k))
        assert not (te & tr).any()
        truncs += int(tr.sum())
        terms += int(te.sum())
        for i in np.flatnonzero(tr):
            assert info["seat_rewards"][i].sum() == pytest.approx(1.0)
    assert truncs > 0


def _snapshot(env):
    return ([env.get_state(i).to_json() for i in range(env.num_envs)],
            env._obs_dict()["observation"].copy(), env._obs_dict()["action_mask"].copy())


@pytest.mark.parametrize("bad,match", [
    (np.zeros(9, dtype=np.int64), r"shape \(10,\)"),
    (np.zeros((10, 1), dtype=np.int64), r"shape \(10,\)"),
    (np.zeros(10, dtype=np.float32), "integers"),
    (np.zeros(10, dtype=np.bool_), "integers"),
])
def test_bad_batch_shape_or_dtype(bad, match):
    env = VectorEnv("kings-rummy", 10, seed=6)
    env.reset(seed=6)
    before = _snapshot(env)
    with pytest.raises(IllegalActionError, match=match):
        env.step(bad)
    after = _snapshot(env)
    assert before[0] == after[0]
    np.testing.assert_array_equal(before[1], after[1])


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_or_out_of_range_id_names_the_env_and_moves_none(game_id):
    env = VectorEnv(game_id, 10, seed=6)
    env.reset(seed=6)
    good = env.sample_legal(0)
    before = _snapshot(env)
    illegal = good.copy()
    illegal[7] = int(np.flatnonzero(env._obs_dict()["action_mask"][7] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"env 7: action .* not legal"):
        env.step(illegal)
    out = good.copy()
    out[3] = env.game.num_distinct_actions
    with pytest.raises(IllegalActionError, match=r"env 3: action .* out of range"):
        env.step(out)
    neg = good.copy()
    neg[0] = -1
    with pytest.raises(IllegalActionError, match=r"env 0"):
        env.step(neg)
    after = _snapshot(env)
    assert before[0] == after[0]                     # no env half-stepped
    np.testing.assert_array_equal(before[1], after[1])
    np.testing.assert_array_equal(before[2], after[2])
    env.step(good)                                   # and the env still works


def test_bad_options():
    with pytest.raises(ConfigError, match="num_envs"):
        VectorEnv("krazy-kings", 0)
    with pytest.raises(ConfigError, match="seat"):
        VectorEnv("krazy-kings", 2, num_players=3, seat=3)
    with pytest.raises(ConfigError, match="in-core policy"):
        VectorEnv("krazy-kings", 2, opponents="ismcts")
    with pytest.raises(ConfigError, match="one policy per seat"):
        VectorEnv("krazy-kings", 2, num_players=3, opponents=["random", "heuristic"])
    with pytest.raises(ConfigError, match="max_turns"):
        VectorEnv("krazy-kings", 2, max_turns=0)
    env = VectorEnv("krazy-kings", 2)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step([0, 0])
    env.close()
    with pytest.raises(ConfigError, match="closed"):
        env.reset()


def test_gymnasium_vector_api():
    gymnasium = pytest.importorskip("gymnasium")
    import krazy_core.envs  # noqa: F401  (registers the ids)
    from gymnasium.vector import AutoresetMode
    venv = gymnasium.make_vec("krazy_core/KrazyKings-v0", num_envs=16,
                              vectorization_mode="vector_entry_point", threads=2,
                              opponents="heuristic")
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.single_action_space == gymnasium.spaces.Discrete(109)
    assert venv.action_space.shape == (16,)
    obs, info = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    ret = np.zeros(16)
    for k in range(30):
        obs, r, te, tr, info = venv.step(venv.unwrapped.sample_legal(k))
        ret += r
    assert venv.observation_space.contains(obs)
    venv.close()


@pytest.mark.parametrize("game_id", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_seeded_results_identical_for_any_thread_count(game_id):
    """Issue 32: persistent worker threads split the envs once; every env keeps its own
    generators (deals, opponents, sample_legal), so the arrays do not depend on threads."""
    runs = []
    for threads in (1, 2, 3, 5):
        env = VectorEnv(game_id, 13, seat="random", opponents="heuristic", threads=threads)
        obs, info = env.reset(seed=7)
        trace = [obs["observation"].copy()]
        for _ in range(40):
            a = env.sample_legal()              # drawn in C, continuing from reset(seed)
            trace.append(a)
            obs, r, te, tr, info = env.step(a)
            trace += [obs["observation"].copy(), obs["action_mask"].copy(), r.copy(),
                      te.copy(), tr.copy(), info["seat_rewards"].copy()]
        trace.append(env.decisions)
        env.close()
        runs.append(trace)
    for other in runs[1:]:
        assert len(other) == len(runs[0])
        for x, y in zip(runs[0], other):
            np.testing.assert_array_equal(x, y)


def test_sample_legal_draws_legal_actions_reproducibly_from_reset_seed():
    env = VectorEnv("kings-rummy", 64, seat="all", threads=2)
    with pytest.raises(IllegalActionError):
        env.sample_legal()                      # no generator before reset()
    env.reset(seed=3)
    first = [env.sample_legal() for _ in range(3)]
    assert not all(np.array_equal(first[0], f) for f in first[1:])    # a stream, not a fixed draw
    for a in first:
        assert a.dtype == np.int64 and a.shape == (64,)
    env.reset(seed=3)
    again = [env.sample_legal() for _ in range(3)]
    assert all(np.array_equal(x, y) for x, y in zip(first, again))
    mask = env.reset(seed=3)[0]["action_mask"]
    a = env.sample_legal(11)
    assert np.all(mask[np.arange(64), a] == 1)
    assert np.array_equal(a, env.sample_legal(11))   # an explicit seed reseeds first
    env.close()


def test_a_forked_child_steps_with_its_own_workers():
    """A fork (e.g. a subprocess vector env) inherits a started pool without its threads:
    the child starts its own instead of waiting for workers that do not exist."""
    import multiprocessing as mp
    if "fork" not in mp.get_all_start_methods():
        pytest.skip("no fork on this platform")
    env = VectorEnv("krazy-kings", 8, seat="all", threads=2)
    env.reset(seed=1)
    env.step(env.sample_legal())                # the parent's workers are running
    ctx = mp.get_context("fork")
    q = ctx.Queue()

    def child():
        o, *_ = env.step(env.sample_legal())
        q.put(o["observation"].sum())
    p = ctx.Process(target=child)
    p.start()
    p.join(60)
    assert p.exitcode == 0
    want, *_ = env.step(env.sample_legal())
    assert q.get(timeout=5) == want["observation"].sum()
    env.close()


def test_learned_policy_opponents_play_as_policy_bot():
    """``opponents="policy"`` (or ``policy:FILE.npz``) runs PolicyBot's choice in C."""
    from krazy_core.learn.model import PolicyBot
    env = VectorEnv("krazy-kings", 4, seat=0, opponents="policy", seed=0)
    obs, info = env.reset(seed=0)
    bot = PolicyBot()
    checked = 0
    for k in range(60):
        a = env.sample_legal()
        want = []
        for i in range(4):
            s = env.get_state(i)
            s.apply_action(int(a[i]))
            while not s.is_terminal() and s.current_player() != 0:
                s.apply_action(bot.step(s))
            want.append(None if s.is_terminal() else s.observation_tensor(0))
        obs, r, te, tr, info = env.step(a)
        for i in range(4):
            if want[i] is not None and not info["_final_obs"][i]:
                np.testing.assert_array_equal(obs["observation"][i], want[i])
                checked += 1
    assert checked > 100


def test_opponent_pool_draws_per_episode_whatever_threads():
    runs = []
    for threads in (1, 2):
        env = VectorEnv("krazy-kings", 16, seat="random", threads=threads,
                        opponent_pool=["random", "heuristic", "policy"], opponent_weights=[1, 2, 1])
        env.reset(seed=4)
        trace = []
        for _ in range(80):
            obs, r, te, tr, info = env.step(env.sample_legal())
            trace.append(obs["observation"].copy())
            trace.append(r.copy())
        runs.append(trace)
        import copy
        c = copy.deepcopy(env)
        a = env.sample_legal(1)
        np.testing.assert_array_equal(c.step(a)[0]["observation"], env.step(a)[0]["observation"])
        assert c.opponent_pool == ("random", "heuristic", "policy")
    for x, y in zip(*runs):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("kw", [dict(opponents="ismcts"), dict(opponents="policy:x.txt"),
                                dict(opponent_pool=[]), dict(opponent_pool=["random"] * 17),
                                dict(opponent_pool=["random", "heuristic"], opponent_weights=[1]),
                                dict(opponent_pool=["random"], opponent_weights=[0]),
                                dict(opponent_weights=[1]),
                                dict(opponent_pool=["policy", "policy:/nonexistent.npz"])])
def test_bad_opponents_raise(kw):
    with pytest.raises(ConfigError):
        VectorEnv("krazy-kings", 2, **kw)


def test_a_game_without_a_policy_refuses_policy_opponents():
    with pytest.raises(ConfigError):
        VectorEnv("kings-rummy", 2, opponents="policy")
