"""Copies mid-episode (issue 32, item 1): every bot, the Gymnasium env, the PettingZoo env
and ``VectorEnv`` pickle and deepcopy, and the copy continues exactly as the original:
both are stepped with the same actions and must give the same observations, rewards and
bot choices."""
import copy
import pickle

import numpy as np
import pytest

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError
from krazy_core.vector import VectorEnv

from helpers import GAMES

BOTS = ["random", "heuristic", "ismcts:40", "ismcts:40:reuse=true", "value:2", "policy"]


def _copies(obj):
    return [pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj)]


@pytest.mark.parametrize("word", BOTS)
@pytest.mark.parametrize("game_id", GAMES)
def test_bot_copy_chooses_as_the_original(game_id, word):
    game = krazy_core.make(game_id)
    bot = make_bot(word, seed=5)
    try:
        bot.check_game(game)
    except ConfigError:
        pytest.skip(f"{word} has no model for {game_id}")
    other = make_bot("random", seed=1)
    state = game.new_initial_state(seed=3)
    moves = 0
    for _ in range(8):                          # the bot has played (and, with reuse, kept a tree)
        if state.is_terminal():
            break
        me = state.current_player() == 0
        state.apply_action((bot if me else other).step(state))
        moves += me
    copies = _copies(bot)
    chosen = 0
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player() == 0:
            a = bot.step(state)
            assert [c.step(state) for c in copies] == [a, a]
            if word.endswith("reuse=true") and bot.last_result is not None:
                assert [c.last_result.reused for c in copies] == [bot.last_result.reused] * 2
            chosen += 1
        else:
            a = other.step(state)
        state.apply_action(a)
    assert moves + chosen > 0


def test_a_pickled_search_tree_is_checked():
    from krazy_core.search.ismcts import _worker_from_tree
    state = krazy_core.make("krazy-kings").new_initial_state(seed=0)
    with pytest.raises(ValueError):
        _worker_from_tree(state, b"", b"", None, 1, 10, 0, 0)
    with pytest.raises(TypeError):
        _worker_from_tree(None, b"", b"", None, 1, 10, 0, 0)


def _same(x, y):
    if isinstance(x, dict):
        assert x.keys() == y.keys()
        for k in x:
            _same(x[k], y[k])
    elif isinstance(x, (tuple, list)):
        assert len(x) == len(y)
        for a, b in zip(x, y):
            _same(a, b)
    elif isinstance(x, np.ndarray):
        assert np.array_equal(x, y)
    else:
        assert x == y


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_env_copy_continues_identically(game_id):
    gymnasium = pytest.importorskip("gymnasium")
    from krazy_core.envs import ENV_IDS
    env = gymnasium.make(ENV_IDS[game_id], opponents=["random", "heuristic", "ismcts:10:reuse=true",
                                                      "heuristic"][:krazy_core.make(game_id).num_players])
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            obs, info = env.reset()
    envs = [env] + _copies(env)
    for _ in range(60):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        outs = [e.step(a) for e in envs]
        for o in outs[1:]:
            _same(o, outs[0])
        obs, r, term, trunc, info = outs[0]
        if term or trunc:
            outs = [e.reset() for e in envs]
            for o in outs[1:]:
                _same(o, outs[0])
            obs, info = outs[0]


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_env_copy_continues_identically(game_id):
    pytest.importorskip("pettingzoo")
    from krazy_core.envs.pettingzoo import env as pz_env
    env = pz_env(game_id)
    env.reset(seed=3)
    for _ in range(5):
        obs, r, term, trunc, info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    envs = [env] + _copies(env)
    rng = np.random.default_rng(1)
    for _ in range(120):
        outs = [e.last() for e in envs]
        assert len({e.agent_selection for e in envs}) == 1
        for o in outs[1:]:
            _same(o, outs[0])
        obs, r, term, trunc, info = outs[0]
        a = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for e in envs:
            e.step(a)
        if not env.agents:
            assert all(not e.agents for e in envs)
            break


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game_id", GAMES)
def test_vector_env_copy_continues_identically(game_id, threads):
    env = VectorEnv(game_id, 8, opponents="heuristic", seat="random", threads=threads)
    env.reset(seed=2)
    for k in range(20):
        env.step(env.sample_legal(k))
    copies = _copies(env) + [copy.copy(env)]
    for k in range(60):
        a = env.sample_legal(100 + k)
        outs = [e.step(a) for e in [env] + copies]
        for o in outs[1:]:
            _same(o, outs[0])
    assert {c.decisions for c in copies} == {env.decisions}
    assert all(np.array_equal(c.episodes, env.episodes) for c in copies)
    assert all(repr(c) == repr(env) for c in copies)


def test_vector_env_copy_of_a_closed_env_is_closed():
    env = VectorEnv("krazy-kings", 2, seed=0)
    env.close()
    assert copy.deepcopy(env).closed


def test_gymnasium_vector_env_pickles():
    pytest.importorskip("gymnasium")
    from krazy_core.envs.gymnasium import make_vec
    venv = make_vec("kings-rummy", 4, opponents="heuristic")
    venv.reset(seed=0)
    venv.step(venv.sample_legal(0))
    envs = [venv] + _copies(venv)
    for k in range(10):
        a = venv.sample_legal(k)
        outs = [e.step(a) for e in envs]
        for o in outs[1:]:
            _same(o, outs[0])
