"""Learned value models (issue 18): the shipped file, the C forward pass in the search against
the NumPy reference, the search option, the greedy ValueBot and the training command."""
import json
import os

import numpy as np
import pytest

import krazy_core
from krazy_core.errors import ConfigError
from krazy_core.learn import train as train_mod
from krazy_core.learn.model import (MODELS_DIR, ValueBot, load_value_model, model_path,
                                    save_value_model, seat_values, value_numpy)
from krazy_core.search.ismcts import check_options, model_values, search
from helpers import slow_cases  # noqa: E402


GAMES = ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"]


def _states(n_players, games, seed=0, game_id="krazy-kings"):
    """Mid-game states of heuristic/random play (every decision)."""
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


def test_shipped_model_loads_from_the_package():
    m = load_value_model("krazy-kings")
    assert os.path.dirname(model_path("krazy-kings")) == MODELS_DIR
    assert MODELS_DIR == os.path.join(os.path.dirname(krazy_core.__file__), "models")
    t, h = m["w1"].shape
    assert t == 219 and m["b1"].shape == (h,) and m["w2"].shape == (h,) and m["b2"].shape == (1,)
    assert all(m[k].dtype == np.float32 and m[k].flags.c_contiguous for k in ("w1", "b1", "w2", "b2"))
    assert json.loads(m["info"])["game"] == "krazy-kings"
    total = sum(os.path.getsize(os.path.join(MODELS_DIR, f)) for f in os.listdir(MODELS_DIR)
                if f.endswith(".npz"))
    assert total <= 1 << 20                         # issue 18: <= 1 MB for all games


def test_no_model_for_a_game_without_one(tmp_path):
    with pytest.raises(ConfigError, match="no value model for 'no-such-game'"):
        load_value_model("no-such-game")
    s = krazy_core.make("kings-rummy", num_players=2).new_initial_state(seed=1)
    with pytest.raises(ConfigError, match="no value model"):
        search(s, iterations=5, seed=1, value="model", model=str(tmp_path / "kings-rummy.value.npz"))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_ships_a_model_that_fits_its_tensor(game_id):
    m = load_value_model(game_id)
    s = krazy_core.make(game_id).new_initial_state(seed=1)
    assert m["w1"].shape == (len(s.observation_tensor(0)), m["b1"].shape[0])
    info = json.loads(m["info"])
    assert info["game"] == game_id
    # KA-15: one loser, every other seat 1 -- the values add up to n - 1 as the returns do
    assert m["outcome"] == ("one_loser" if game_id == "krass-kariert" else "one_winner")


@pytest.mark.parametrize("game_id,players", [("kings-rummy", 3), ("contract-rummy", 2), ("krass-kariert", 3),
                                             ("krass-kariert", 5)])
def test_c_forward_pass_equals_numpy_reference_every_game(game_id, players):
    m = load_value_model(game_id)
    states = _states(players, 2, seed=40 + players, game_id=game_id)[::7]
    assert len(states) > 30
    total = players - 1 if game_id == "krass-kariert" else 1
    for s in states:
        c = np.asarray(model_values(s))
        ref = seat_values(m, s)
        np.testing.assert_allclose(c, ref, rtol=0, atol=2e-6)
        if not s.is_terminal():
            assert abs(c.sum() - total) < 1e-9
            assert (c > 0).all() and (c < 1).all()


def test_normalize_values_one_winner_and_one_loser():
    from krazy_core.search.value_model import normalize_values
    v = np.array([0.9, 0.6, 0.5])
    np.testing.assert_allclose(normalize_values({"outcome": "one_winner"}, v), v / 2.0)
    # chances to lose 0.1, 0.4, 0.5 -> 0.1, 0.4, 0.5 (sum 1) -> returns 0.9, 0.6, 0.5 (sum 2)
    np.testing.assert_allclose(normalize_values({"outcome": "one_loser"}, v), [0.9, 0.6, 0.5])
    np.testing.assert_allclose(normalize_values({"outcome": "one_loser"}, np.array([0.8, 0.8, 0.8])),
                               [2 / 3, 2 / 3, 2 / 3])


def test_a_model_file_with_an_unknown_outcome_is_refused(tmp_path):
    p = str(tmp_path / "odd.value.npz")
    save_value_model(p, np.zeros((219, 4)), np.zeros(4), np.zeros(4), np.zeros(1),
                     json.dumps({"game": "krazy-kings", "outcome": "two_winners"}))
    with pytest.raises(ConfigError, match="outcome 'two_winners' is not one of one_winner, one_loser"):
        load_value_model(p)
    q = str(tmp_path / "plain.value.npz")        # no JSON info: one winner
    save_value_model(q, np.zeros((219, 4)), np.zeros(4), np.zeros(4), np.zeros(1), "not json")
    assert load_value_model(q)["outcome"] == "one_winner"


@pytest.mark.parametrize("players", [2, 4])
@slow_cases('4')
def test_c_forward_pass_equals_numpy_reference(players):
    m = load_value_model("krazy-kings")
    states = _states(players, 40, seed=100 * players)
    assert len(states) > 500
    for s in states:
        c = np.asarray(model_values(s))
        x = np.stack([s.observation_tensor(p) for p in range(players)])
        v = value_numpy(m, x)
        ref = v / v.sum()
        np.testing.assert_allclose(c, ref, rtol=0, atol=2e-6)
        np.testing.assert_allclose(seat_values(m, s), ref, atol=1e-12)
        assert abs(c.sum() - 1.0) < 1e-9


def test_model_values_at_a_terminal_state_are_the_returns():
    s = _states(2, 1, seed=3)[-1].clone()
    while not s.is_terminal():
        s.apply_action(s.heuristic_action(1))
    assert model_values(s) == s.returns()


def test_the_model_separates_winners_from_losers():
    """Held-out games: the modelled chance of the eventual winner is higher on average."""
    m = load_value_model("krazy-kings")
    x, y, g, outcome = train_mod.selfplay_data("krazy-kings", 300, seed=987654, players=(2,), eps=0.2)
    assert outcome == "one_winner"
    p = value_numpy(m, x)
    assert p[y == 1].mean() > p[y == 0].mean() + 0.05     # measured: 0.555 against 0.484
    base = -np.mean(y * np.log(0.5) + (1 - y) * np.log(0.5))
    pc = np.clip(p, 1e-7, 1 - 1e-7)
    assert -np.mean(y * np.log(pc) + (1 - y) * np.log(1 - pc)) < base - 0.02


def test_search_option_value_model():
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=5)
    r1 = search(s, iterations=300, seed=9, value="model")
    r2 = search(s, iterations=300, seed=9, value="model")
    assert r1.action == r2.action and r1.visits == r2.visits and r1.values == r2.values
    assert r1.iterations == 300 and r1.rollout_actions == 0.0      # max_rollout 0: the leaf is valued
    assert r1.truncated > 0
    base = search(s, iterations=300, seed=9)
    assert base.rollout_actions > 1 and base.values != r1.values
    r3 = search(s, iterations=300, seed=9, value="model", max_rollout=4)
    assert 0 < r3.rollout_actions <= 4
    assert check_options({"iterations": 1, "value": "model"})["max_rollout"] == 0
    assert check_options({"iterations": 1})["value"] == "rollout"
    assert check_options({"iterations": 1})["max_rollout"] is None
    # a model file given by path gives the same search as the shipped one
    r4 = search(s, iterations=300, seed=9, value="model", model=model_path("krazy-kings"))
    assert r4.visits == r1.visits


@pytest.mark.parametrize("bad, msg", [
    ({"value": "net"}, "value must be one of 'rollout', 'model'"),
    ({"value": 1}, "value must be one of"),
    ({"value": "model", "model": 3}, "model must be None"),
    ({"value": "model", "model": "weights.bin"}, "model must be None"),
    ({"model": "x.npz"}, "only read with value='model'"),
])
def test_search_option_rejects_bad_values(bad, msg):
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=5)
    with pytest.raises(ConfigError, match=msg):
        search(s, iterations=10, seed=1, **bad)


def test_bad_model_files(tmp_path):
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=5)
    with pytest.raises(ConfigError, match="no value model"):
        search(s, iterations=10, value="model", model=str(tmp_path / "none.npz"))
    p = str(tmp_path / "small.npz")
    save_value_model(p, np.zeros((10, 4)), np.zeros(4), np.zeros(4), np.zeros(1))
    with pytest.raises(ConfigError, match="takes 10 inputs; krazy-kings's observation tensor has 219"):
        search(s, iterations=10, value="model", model=p)
    with pytest.raises(ConfigError, match="shapes"):
        save_value_model(str(tmp_path / "bad.npz"), np.zeros((10, 4)), np.zeros(3), np.zeros(4), np.zeros(1))


def test_value_bot_plays_legal_moves_and_is_seeded():
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=11)
    a, b = ValueBot(seed=3, samples=4), ValueBot(seed=3, samples=4)
    n = 0
    while not s.is_terminal() and n < 60:
        x = a.step(s)
        assert x == b.step(s) and x in s.legal_actions()
        s.apply_action(x)
        n += 1
    with pytest.raises(ConfigError):
        ValueBot(samples=0)


def test_training_command_on_a_tiny_budget(tmp_path):
    out = str(tmp_path / "m")
    assert train_mod.main(["krazy-kings", "--out", out, "--games", "40", "--epochs", "1",
                           "--hidden", "8"]) == 0
    rep = json.load(open(os.path.join(out, "krazy-kings.value.json")))
    assert rep["games"] == 40 and rep["samples"] > 1000 and rep["hidden"] == 8
    assert rep["cpu_seconds_fit"] >= 0 and rep["model_bytes"] == os.path.getsize(
        os.path.join(out, "krazy-kings.value.npz"))
    path = os.path.join(out, "krazy-kings.value.npz")
    m = load_value_model(path)
    assert m["w1"].shape == (219, 8)
    s = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=2)
    r = search(s, iterations=50, seed=1, value="model", model=path)
    assert r.iterations == 50
    # the same command and seed give the same weights
    out2 = str(tmp_path / "m2")
    train_mod.main(["krazy-kings", "--out", out2, "--games", "40", "--epochs", "1", "--hidden", "8"])
    m2 = load_value_model(os.path.join(out2, "krazy-kings.value.npz"))
    assert all(np.array_equal(m[k], m2[k]) for k in ("w1", "b1", "w2", "b2"))


def test_training_command_shipped_takes_the_shipped_settings(tmp_path, monkeypatch):
    """``--shipped`` reads every setting from ``models/<game>.value.json`` (here a stand-in
    folder with a tiny budget), so the command in models/README.md rebuilds what ships."""
    import krazy_core.search.value_model as vm
    fake = tmp_path / "models"
    fake.mkdir()
    json.dump({"game": "krass-kariert", "games": 12, "seed": 5, "players": [3, 4], "eps": 0.2,
               "every": 3, "hidden": 4, "epochs": 1}, open(fake / "krass-kariert.value.json", "w"))
    monkeypatch.setattr(vm, "MODELS_DIR", str(fake))
    out = str(tmp_path / "out")
    assert train_mod.main(["krass-kariert", "--shipped", "--out", out]) == 0
    rep = json.load(open(os.path.join(out, "krass-kariert.value.json")))
    assert (rep["games"], rep["seed"], rep["players"], rep["eps"], rep["every"], rep["hidden"], rep["epochs"]) == \
        (12, 5, [3, 4], 0.2, 3, 4, 1)
    assert rep["outcome"] == "one_loser"          # KA-15: the loser 0, every other seat 1
    assert load_value_model(os.path.join(out, "krass-kariert.value.npz"))["outcome"] == "one_loser"
    with pytest.raises(SystemExit):
        train_mod.main(["kings-rummy", "--shipped", "--out", out])      # no report in the stand-in


def test_bot_words():
    from krazy_core.bots import ISMCTSBot, make_bot
    b = make_bot("value:4", seed=1)
    assert isinstance(b, ValueBot) and b.samples == 4
    assert make_bot("value", seed=1).samples == 8
    with pytest.raises(ConfigError, match="value or value:SAMPLES"):
        make_bot("value:many")
    s = make_bot("ismcts:100:value=model:max_rollout=3", seed=2)
    assert isinstance(s, ISMCTSBot) and s.options["value"] == "model" and s.options["max_rollout"] == 3
    st = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=4)
    while len(st.legal_actions()) < 2:
        st.apply_action(st.legal_actions()[0])
    s.step(st)
    assert s.last_result.iterations == 100 and 0 < s.last_result.rollout_actions <= 3
