"""The learned policy prior (issue 18): the file format, the search's C pass against the NumPy
reference, the PUCT-style prior in the search, PolicyBot and the training command."""
import json
import os

import numpy as np
import pytest

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core.learn import train as train_mod
from krazy_core.learn.model import PolicyBot
from krazy_core.search.ismcts import check_options, policy_priors, search
from krazy_core.search.policy_model import (load_policy_model, policy_numpy, policy_path,
                                            save_policy_model)
from krazy_core.search.value_model import MODELS_DIR

KK_T, KK_A = 219, 109          # Krazy Kings: observation tensor size, num_distinct_actions


def _states(n_players, games, seed=0, game_id="krazy-kings"):
    """Every decision of a few seeded games of mixed heuristic and random play."""
    from krazy_core.rng import Rng
    g = krazy_core.make(game_id, num_players=n_players)
    out = []
    for gi in range(games):
        rng = Rng(seed + gi)
        s = g.new_initial_state(seed=seed + gi)
        while not s.is_terminal():
            out.append(s.clone())
            a = rng.choice(s.legal_actions()) if rng.uniform() < 0.3 else s.heuristic_action(rng.next_u64())
            s.apply_action(a)
    return out


def _random_policy(path, t=KK_T, a=KK_A, hidden=12, seed=1):
    rs = np.random.default_rng(seed)
    save_policy_model(str(path), rs.normal(0, 0.4, (t, hidden)), rs.normal(0, 0.1, hidden),
                      rs.normal(0, 0.8, (hidden, a)), rs.normal(0, 0.3, a), "{}")
    return str(path)


def _one_action_policy(path, action, t=KK_T, a=KK_A):
    """A policy that gives ``action`` a logit of 30 and every other action 0, whatever the state."""
    b2 = np.zeros(a)
    b2[action] = 30.0
    save_policy_model(str(path), np.zeros((t, 2)), np.zeros(2), np.zeros((2, a)), b2, "{}")
    return str(path)


def test_shipped_krazy_kings_policy_loads_from_the_package_and_fits_the_game():
    m = load_policy_model("krazy-kings")
    assert os.path.dirname(policy_path("krazy-kings")) == MODELS_DIR
    t, h = m["w1"].shape
    assert (t, m["w2"].shape) == (KK_T, (h, KK_A)) and m["b1"].shape == (h,) and m["b2"].shape == (KK_A,)
    assert all(m[k].dtype == np.float32 and m[k].flags.c_contiguous for k in ("w1", "b1", "w2", "b2"))
    info = json.loads(m["info"])
    assert info["game"] == "krazy-kings" and info["teacher"].startswith("ismcts:")
    with open(os.path.join(MODELS_DIR, "krazy-kings.policy.json")) as f:
        rep = json.load(f)
    assert rep["kind"] == "policy" and rep["model_bytes"] == os.path.getsize(policy_path("krazy-kings"))
    # it learned something: better than a uniform guess at the teacher's moves it never saw
    last = rep["per_round"][-1]
    assert last["val_cross_entropy"] < last["val_cross_entropy_uniform"]


@pytest.mark.parametrize("model", ["shipped", "random"])
def test_c_prior_matches_the_numpy_reference(tmp_path, model):
    path = None if model == "shipped" else _random_policy(tmp_path / "p.npz")
    m = load_policy_model(path or "krazy-kings")
    states = [s for s in _states(2, 3, seed=40) + _states(4, 2, seed=50)]
    assert len(states) > 100
    for s in states:
        legal = s.legal_actions()
        got = policy_priors(s, path)
        assert list(got) == legal
        want = policy_numpy(m, np.asarray(s.observation_tensor(s.current_player()), np.float32), legal)
        np.testing.assert_allclose(list(got.values()), want, rtol=1e-5, atol=1e-6)
        assert abs(sum(got.values()) - 1.0) < 1e-9


def test_the_prior_is_what_the_acting_seat_sees_not_the_hidden_cards():
    """Two states that differ only in hidden cards (a determinization) get the same prior."""
    for s in _states(2, 2, seed=7)[::5]:
        p = s.current_player()
        world = s.determinize(p, 99)
        assert policy_priors(world) == policy_priors(s)


def test_malformed_or_missing_policy_files_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="no policy model for 'no-such-game'"):
        load_policy_model("no-such-game")
    with pytest.raises(ConfigError, match=r"are not \(T, H\), \(H,\), \(H, A\), \(A,\)"):
        save_policy_model(str(tmp_path / "bad.npz"), np.zeros((5, 3)), np.zeros(3), np.zeros((4, 7)), np.zeros(7))
    nan = np.zeros((KK_T, 2))
    nan[0, 0] = np.nan
    np.savez(tmp_path / "nan.npz", w1=nan.astype(np.float32), b1=np.zeros(2, np.float32),
             w2=np.zeros((2, KK_A), np.float32), b2=np.zeros(KK_A, np.float32))
    with pytest.raises(ConfigError, match="w1 has a non-finite weight"):
        load_policy_model(str(tmp_path / "nan.npz"))
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(ConfigError, match="not a readable .npz file"):
        load_policy_model(str(tmp_path / "junk.npz"))
    s = krazy_core.make("krazy-kings").new_initial_state(seed=1)
    wrong = _random_policy(tmp_path / "wrong.npz", a=KK_A + 1)
    with pytest.raises(ConfigError, match="scores 110 actions; krazy-kings has .* 109 actions"):
        search(s, iterations=5, seed=1, prior_from="model", policy_model=wrong)
    with pytest.raises(ConfigError, match="scores 110 actions"):
        policy_priors(s, wrong)
    g = krazy_core.make("krass-kariert", num_players=3).new_initial_state(seed=1)
    with pytest.raises(ConfigError, match="no policy model for 'krass-kariert'"):
        search(g, iterations=5, seed=1, prior_from="model")


def test_policy_options_are_checked():
    with pytest.raises(ConfigError, match="prior_from must be one of 'heuristic', 'model'"):
        check_options({"iterations": 5, "prior_from": "network"})
    with pytest.raises(ConfigError, match="policy_model= is only read with prior_from='model'"):
        check_options({"iterations": 5, "policy_model": "x.npz"})
    with pytest.raises(ConfigError, match="policy_model must be None .* or a path to a .npz"):
        check_options({"iterations": 5, "prior_from": "model", "policy_model": 3})
    assert check_options({"iterations": 5, "prior_from": "model"})["prior"] == 1.0
    assert check_options({"iterations": 5, "prior_from": "model", "prior": 0})["prior"] == 0
    assert check_options({"iterations": 5})["prior"] == 0.0


def test_a_zero_weight_prior_is_the_plain_search_bit_for_bit():
    for s in _states(2, 2, seed=3)[::7]:
        if len(s.legal_actions()) < 2:
            continue
        a = search(s, iterations=400, seed=5)
        b = search(s, iterations=400, seed=5, prior_from="model", prior=0)
        assert (a.action, a.visits, a.values) == (b.action, b.visits, b.values)


def test_the_policy_orders_expansion_and_biases_selection(tmp_path):
    s = krazy_core.make("krazy-kings").new_initial_state(seed=2)
    while len(s.legal_actions()) < 3:
        s.apply_action(s.heuristic_action(1))
    legal = s.legal_actions()
    liked = legal[-1]
    path = _one_action_policy(tmp_path / "one.npz", liked)
    assert policy_priors(s, path)[liked] > 0.999
    # one iteration expands one root child: the action the policy likes, not a random one
    for seed in range(5):
        r = search(s, iterations=1, seed=seed, prior_from="model", policy_model=path)
        assert r.visits[liked] == 1 and sum(r.visits.values()) == 1
    # a heavy prior draws most visits to that action; the plain search spreads them
    heavy = search(s, iterations=2000, seed=3, prior_from="model", policy_model=path, prior=50.0)
    plain = search(s, iterations=2000, seed=3)
    assert heavy.visits[liked] > 0.9 * 2000
    assert plain.visits[liked] < 0.9 * 2000
    # same seed, same search
    again = search(s, iterations=2000, seed=3, prior_from="model", policy_model=path, prior=50.0)
    assert again.visits == heavy.visits


def test_policy_search_with_threads_and_tree_reuse_runs():
    s = krazy_core.make("krazy-kings", num_players=4).new_initial_state(seed=8)
    r = search(s, iterations=600, seed=2, prior_from="model", threads=2, reuse=True)
    assert r.iterations == 600 and abs(sum(r.policy.values()) - 1) < 1e-9
    s.apply_action(r.action)
    while not s.is_terminal() and s.current_player() != 0:
        s.apply_action(s.heuristic_action(3))
    if not s.is_terminal():
        r2 = search(s, iterations=300, seed=2, prior_from="model", threads=2, reuse=True, previous=r)
        assert r2.action in s.legal_actions()


def test_policy_bot_plays_the_most_likely_legal_action(tmp_path):
    bot = make_bot("policy", seed=1)
    assert isinstance(bot, PolicyBot)
    for s in _states(2, 2, seed=11)[::3]:
        legal = s.legal_actions()
        pri = policy_priors(s)
        want = max(legal, key=lambda a: (pri[a], -legal.index(a)))
        assert bot.step(s) == want
    # a policy file, or a game id, may be named; a game without a shipped policy is refused
    s = krazy_core.make("krazy-kings").new_initial_state(seed=2)
    while len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    liked = s.legal_actions()[-1]
    assert PolicyBot(model=_one_action_policy(tmp_path / "one.npz", liked)).step(s) == liked
    assert PolicyBot(model="krazy-kings").step(s) == make_bot("policy").step(s)
    g = krazy_core.make("krass-kariert", num_players=3).new_initial_state(seed=1)
    while len(g.legal_actions()) < 2:
        g.apply_action(g.legal_actions()[0])
    with pytest.raises(ConfigError, match="no policy model for 'krass-kariert'"):
        bot.step(g)
    with pytest.raises(ConfigError, match="model must be a game id or a .npz path"):
        PolicyBot(model=3)


def test_policy_bot_refuses_a_finished_game():
    s = krazy_core.make("krazy-kings").new_initial_state(seed=4)
    while not s.is_terminal():
        s.apply_action(s.heuristic_action(2))
    with pytest.raises(IllegalActionError):
        make_bot("policy").step(s)
    with pytest.raises(IllegalActionError, match="the game is over"):
        policy_priors(s)


def test_training_command_writes_a_policy_the_search_loads(tmp_path):
    out = tmp_path / "m"
    rc = train_mod.main(["krazy-kings", "--policy", "--out", str(out), "--games", "12", "--players", "2,4",
                         "--teacher", "ismcts:60", "--rounds", "2", "--hidden", "8", "--epochs", "2"])
    assert rc == 0
    with open(out / "krazy-kings.policy.json") as f:
        rep = json.load(f)
    assert rep["rounds"] == 2 and len(rep["per_round"]) == 2 and rep["target"] == "move"
    assert rep["per_round"][1]["teacher"] == "ismcts:60:prior_from=model:policy_model=krazy-kings.policy.npz"
    assert rep["per_round"][1]["train_decisions"] > rep["per_round"][0]["train_decisions"]
    path = str(out / "krazy-kings.policy.npz")
    m = load_policy_model(path)
    assert m["w1"].shape == (KK_T, 8) and m["w2"].shape == (8, KK_A)
    s = krazy_core.make("krazy-kings").new_initial_state(seed=3)
    r = search(s, iterations=50, seed=1, prior_from="model", policy_model=path)
    assert r.action in s.legal_actions()
    # the same command gives the same arrays (seeded self-play and fit)
    out2 = tmp_path / "m2"
    train_mod.main(["krazy-kings", "--policy", "--out", str(out2), "--games", "12", "--players", "2,4",
                    "--teacher", "ismcts:60", "--rounds", "2", "--hidden", "8", "--epochs", "2",
                    "--workers", "2"])
    m2 = load_policy_model(str(out2 / "krazy-kings.policy.npz"))
    for k in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(m[k], m2[k])
