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
from krazy_core.search.ismcts import (_first_layer_avx, _observation_nonzeros, check_options, policy_priors,
                                      search)
from krazy_core.search.policy_model import (load_policy_model, policy_numpy, policy_path,
                                            save_policy_model)
from krazy_core.search.value_model import MODELS_DIR
from test_learn import _states

KK_T, KK_A = 219, 109          # Krazy Kings: observation tensor size, num_distinct_actions


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


def _exact_prior(m, x, legal):
    """The search's prior as the dense pass computes it, float for float: the first layer
    summed input by input in index order, the logits hidden unit by hidden unit, each step
    a float32 multiply then a float32 add (no fused multiply-add), the softmax in double."""
    import math
    h = m["b1"].astype(np.float32).copy()
    for i in range(len(x)):
        if x[i] != 0.0:
            h = (h + np.float32(x[i]) * m["w1"][i]).astype(np.float32)
    h = np.where(h < 0, np.float32(0), h).astype(np.float32)
    z = m["b2"][legal].astype(np.float32).copy()
    for j in range(len(h)):
        z = (z + h[j] * m["w2"][j, legal]).astype(np.float32)
    top = max(float(v) for v in z)
    e = [math.exp(float(v) - top) for v in z]
    total = 0.0
    for v in e:
        total += v
    return [v / total for v in e]


@pytest.mark.parametrize("avx", [True, False])
@pytest.mark.parametrize("model", ["shipped", "random-12", "random-96", "random-128"])
def test_c_prior_is_the_dense_pass_bit_for_bit(tmp_path, model, avx):
    """The C pass skips zero inputs and zero hidden units, adds rows in vector registers
    (8 floats with AVX, else 4; the plain loop for 12 hidden units) and sums several
    logits at once; every probability is still the very double of the dense pass in
    index order."""
    if avx and not _first_layer_avx():
        pytest.skip("no AVX path on this CPU")
    path = None if model == "shipped" else _random_policy(tmp_path / "p.npz", hidden=int(model[7:]))
    m = load_policy_model(path or "krazy-kings")
    was = _first_layer_avx()
    _first_layer_avx(avx)
    try:
        for s in _states(2, 1, seed=41)[::3] + _states(4, 1, seed=51)[::5]:
            legal = s.legal_actions()
            x = np.asarray(s.observation_tensor(s.current_player()), np.float32)
            assert list(policy_priors(s, path).values()) == _exact_prior(m, x, legal)
    finally:
        _first_layer_avx(was)


@pytest.mark.parametrize("game_id,players", [("krazy-kings", 2), ("krazy-kings", 3), ("krazy-kings", 4),
                                             ("kings-rummy", 2), ("contract-rummy", 3),
                                             ("krass-kariert", 4)])
def test_observation_nonzeros_are_the_tensors_nonzeros(game_id, players):
    """What the learned models read (the game's observation_nonzeros, or the dense tensor
    scanned) is exactly the tensor's nonzero entries, ascending, for every seat, in the
    real state and in a determinized world."""
    states = _states(players, 1, seed=60, game_id=game_id)[::7]
    assert len(states) > 3
    for s in states:
        for world in (s, s.determinize(s.current_player(), 5)):
            for p in range(players):
                x = np.asarray(world.observation_tensor(p), np.float32)
                want = np.flatnonzero(x)
                for scan in (False, True):
                    idx, val = _observation_nonzeros(world, p, scan)
                    assert idx == want.tolist()
                    assert np.array_equal(np.asarray(val, np.float32), x[want])


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
    with pytest.raises(ConfigError, match="not a readable .npz archive"):
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


def test_krazy_kings_searches_with_its_policy_by_default_and_the_plain_search_stays():
    from krazy_core.search.ismcts import game_defaults
    s = krazy_core.make("krazy-kings").new_initial_state(seed=9)
    assert game_defaults(s)["prior_from"] == "model"      # beside belief weighting (issue 33)
    while len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    d = search(s, iterations=600, seed=4)
    m = search(s, iterations=600, seed=4, prior_from="model", prior=1.0)
    plain = search(s, iterations=600, seed=4, prior_from="heuristic")
    assert (d.visits, d.values) == (m.visits, m.values)
    assert plain.visits != d.visits
    for g in ("kings-rummy", "contract-rummy", "krass-kariert"):     # no policy: defaults unchanged
        assert "prior_from" not in game_defaults(krazy_core.make(g).new_initial_state(seed=1))


def test_a_zero_weight_prior_is_the_plain_search_bit_for_bit():
    for s in _states(2, 2, seed=3)[::7]:
        if len(s.legal_actions()) < 2:
            continue
        a = search(s, iterations=400, seed=5, prior_from="heuristic")    # Krazy Kings' default is the model
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
    plain = search(s, iterations=2000, seed=3, prior_from="heuristic")
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


# --------------------------------------------------------------- what a fresh user tried (issue 18)
def test_huge_or_unreadable_model_files_are_config_errors(tmp_path):
    from krazy_core.learn.model import load_value_model, save_value_model
    big = np.full((KK_T, 2), 1e20)
    with pytest.raises(ConfigError, match=r"w1 has a weight beyond \+-1e\+06"):
        save_policy_model(str(tmp_path / "big.npz"), big, np.zeros(2), np.ones((2, KK_A)), np.zeros(KK_A))
    np.savez(tmp_path / "bigv.npz", w1=big.astype(np.float32), b1=np.zeros(2, np.float32),
             w2=np.zeros(2, np.float32), b2=np.zeros(1, np.float32))
    with pytest.raises(ConfigError, match=r"value model .*w1 has a weight beyond"):
        load_value_model(str(tmp_path / "bigv.npz"))
    (tmp_path / "empty.npz").write_bytes(b"")
    good = _random_policy(tmp_path / "good.npz")
    (tmp_path / "trunc.npz").write_bytes(open(good, "rb").read()[:300])
    (tmp_path / "text.npz").write_text("hello")
    for name in ("empty", "trunc", "text"):
        with pytest.raises(ConfigError, match="not a readable .npz archive of float arrays"):
            load_policy_model(str(tmp_path / f"{name}.npz"))
        with pytest.raises(ConfigError, match="not a readable .npz archive of float arrays"):
            load_value_model(str(tmp_path / f"{name}.npz"))
    with pytest.raises(ConfigError, match="a policy model is a game id or a .npz path, got 123"):
        policy_priors(krazy_core.make("krazy-kings").new_initial_state(seed=1), 123)


def test_a_prior_that_overflows_in_c_falls_back_to_uniform_and_expands_only_legal_moves(tmp_path):
    """Weights that pass the loader cannot overflow; these are written into the loaded arrays
    afterwards, so the C pass meets infinite logits: the prior is uniform, never NaN, and no
    node for an action outside the legal ones (action -1) is ever made."""
    path = _random_policy(tmp_path / "p.npz", seed=4)
    m = load_policy_model(path)                      # the cached dict the search reads
    from krazy_core.search.ismcts import _policy_arrays
    s = krazy_core.make("krazy-kings").new_initial_state(seed=5)
    while len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    _policy_arrays(s, path)                          # adds the transposed w2 the C pass reads
    for k in ("w1", "w2t"):
        m[k][...] = 3e38
    pri = policy_priors(s, path)
    legal = s.legal_actions()
    assert list(pri) == legal and all(v == pytest.approx(1 / len(legal)) for v in pri.values())
    r = search(s, iterations=500, seed=1, prior_from="model", policy_model=path)
    assert set(r.visits) == set(legal) and sum(r.visits.values()) == 500


def test_a_bot_whose_model_the_game_lacks_is_refused_before_the_deal():
    from test_cli import krazy
    g = krazy_core.make("contract-rummy", num_players=2)
    for word in ("policy", "ismcts:200:prior_from=model"):
        with pytest.raises(ConfigError, match="no policy model for 'contract-rummy'"):
            make_bot(word).check_game(g)
        code, out = krazy("match", "contract-rummy", "--bots", f"heuristic,{word}", "--seed", "1")
        assert code == 2 and "no policy model for 'contract-rummy'" in out
        assert "draws" not in out and "discards" not in out        # not a move was played
    make_bot("policy").check_game(krazy_core.make("krazy-kings"))   # ships one: no error
    make_bot("ismcts:200:prior_from=model").check_game(krazy_core.make("krazy-kings", num_players=4))
    code, out = krazy("match", "krazy-kings", "--bots", "heuristic,policy", "--seed", "2")
    assert code == 0 and "wins" in out.lower()


def test_chance_nodes_never_continue_a_tree():
    s = krazy_core.make("krazy-kings").new_initial_state(seed=3)
    r = search(s, iterations=100, seed=1, reuse=True)
    with pytest.raises(ConfigError, match="chance_nodes=True cannot continue a previous search's tree"):
        search(s, iterations=100, seed=1, chance_nodes=True, previous=r)


def test_model_paths_may_be_path_objects(tmp_path):
    path = tmp_path / "p.npz"
    _random_policy(path)
    s = krazy_core.make("krazy-kings").new_initial_state(seed=6)
    assert policy_priors(s, path) == policy_priors(s, str(path))
    assert PolicyBot(model=path).step(s) == PolicyBot(model=str(path)).step(s)
    r = search(s, iterations=50, seed=1, prior_from="model", policy_model=path)
    assert r.action in s.legal_actions()


@pytest.mark.parametrize("args, words", [
    (["nosuch", "--out", "OUT"], "unknown game 'nosuch'"),
    (["krazy-kings", "--players", "two", "--out", "OUT"], "--players two"),
    (["krazy-kings", "--players", "9", "--out", "OUT", "--policy"], "2..5 players"),
    (["krazy-kings", "--policy", "--teacher", "nothing", "--out", "OUT"], "unknown bot 'nothing'"),
    (["kings-rummy", "--policy", "--teacher", "policy", "--out", "OUT"], "no policy model for 'kings-rummy'"),
    (["krazy-kings", "--policy", "--teacher", "ismcts:100:prior=0", "--rounds", "2", "--out", "OUT"],
     "whose prior the rounds set"),
    (["krazy-kings", "--out", "FILE"], "is a file, not a folder"),
    (["kings-rummy", "--policy", "--shipped", "--out", "OUT"], "no shipped policy report for 'kings-rummy'"),
])
def test_training_command_refuses_bad_arguments_up_front(tmp_path, capsys, args, words):
    (tmp_path / "FILE").write_text("x")
    args = [str(tmp_path / a) if a in ("OUT", "FILE") else a for a in args]
    with pytest.raises(SystemExit) as e:
        train_mod.main(args)
    assert e.value.code == 2 and words in capsys.readouterr().err
    assert not (tmp_path / "OUT").exists()


def test_value_and_policy_models_are_named_alike(tmp_path):
    """One rule for both loaders: a game id, or a .npz path as str or Path; else ConfigError."""
    from krazy_core.learn.model import load_value_model, save_value_model
    p = tmp_path / "v.npz"
    save_value_model(str(p), np.zeros((KK_T, 3)), np.zeros(3), np.ones(3), np.zeros(1))
    assert np.array_equal(load_value_model(p)["w2"], np.ones(3, np.float32))
    for load in (load_value_model, load_policy_model):
        with pytest.raises(ConfigError, match=r"is a game id or a .npz path, got 123"):
            load(123)
