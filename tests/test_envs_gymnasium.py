"""Gymnasium env (krazy_core.envs.gymnasium): Gymnasium's own ``check_env``, as it ships,
for every game against each kind of bot; ids registered on import of krazy_core.envs; the
mask (int8) in the observation and in info; seeded episodes repeat; the illegal-action
rule; KK-20's turn cap as a truncation."""
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import krazy_core.envs  # noqa: E402,F401  (registers the ids)
from krazy_core.envs import ENV_IDS  # noqa: E402
from krazy_core.envs.gymnasium import KrazyEnv  # noqa: E402
from krazy_core.errors import ConfigError, IllegalActionError  # noqa: E402

from helpers import GAMES  # noqa: E402


def test_ids_registered_on_import():
    assert set(ENV_IDS) == set(GAMES)
    for env_id in ENV_IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("opponents", ["random", "heuristic", "ismcts:20"])
@pytest.mark.parametrize("game_id", GAMES)
def test_check_env(game_id, opponents):
    env = gymnasium.make(ENV_IDS[game_id], opponents=opponents, render_mode="ansi")
    check_env(env.unwrapped)


def _episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    while True:
        assert obs["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        assert info["to_act"] == env.unwrapped.seat
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        trace.append((a, r, term, trunc, obs["observation"].tobytes()))
        if term or trunc:
            return trace


@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_episodes_repeat(game_id):
    kw = {"rounds": 1} if game_id in ("kings-rummy", "contract-rummy") else {}
    a = _episode(gymnasium.make(ENV_IDS[game_id], opponents="heuristic", **kw), 5)
    b = _episode(gymnasium.make(ENV_IDS[game_id], opponents="heuristic", **kw), 5)
    assert a == b
    assert a[-1][2] or a[-1][3]


def test_reward_is_the_learners_return():
    env = KrazyEnv("krazy-kings", num_players=2, seat=1, opponents="random")
    total = 0.0
    for seed in range(20):
        trace = _episode(env, seed)
        st = env.state
        assert trace[-1][1] == st.returns()[1]
        assert trace[-1][3] == (st.observation(0)["winner"] < 0)      # KK-20
        total += trace[-1][1]
    assert 0 < total < 20


def test_illegal_action_ends_the_episode_or_raises():
    env = KrazyEnv("kings-rummy", opponents="heuristic")
    obs, info = env.reset(seed=3)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.to_json()
    obs, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.state.to_json() == before and not obs["action_mask"].any()
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    env = KrazyEnv("kings-rummy", opponents="heuristic", illegal_action="raise")
    obs, info = env.reset(seed=3)
    before = env.state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.state.to_json() == before


def test_random_seat_and_bad_options():
    env = KrazyEnv("krazy-kings", num_players=4, seat="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(30)}
    assert seats == {0, 1, 2, 3}
    with pytest.raises(ConfigError, match="seat"):
        KrazyEnv("krazy-kings", num_players=2, seat=2)
    with pytest.raises(ConfigError, match="bot"):
        KrazyEnv("krazy-kings", opponents="alphazero")
    with pytest.raises(ConfigError, match="one bot per seat"):
        KrazyEnv("krazy-kings", num_players=3, opponents=["random"])


class _FirstLegal:
    """A duck-typed opponent: any object with ``step(state) -> int`` (not a Bot subclass)."""

    def step(self, state):
        return state.legal_actions()[0]


def test_a_single_duck_typed_opponent_plays_every_seat():
    env = KrazyEnv("krazy-kings", 3, opponents=_FirstLegal())
    obs, info = env.reset(seed=0)
    assert env._bots[1] is env._bots[2] and isinstance(env._bots[1], _FirstLegal)
    obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_opponent_pool_is_drawn_per_episode_and_seeded():
    def episodes(seed):
        env = KrazyEnv("krazy-kings", 3, opponent_pool=["random", "heuristic", _FirstLegal()])
        env.reset(seed=seed)
        name = lambda o: o if isinstance(o, str) else type(o).__name__   # noqa: E731
        seen = [tuple(map(name, env.episode_opponents[1:]))]
        for _ in range(12):
            env.reset()
            seen.append(tuple(map(name, env.episode_opponents[1:])))
        return seen
    a = episodes(5)
    assert a == episodes(5)                         # seeded: the same draws
    assert len({x for pair in a for x in pair}) == 3   # every pool member played
    env = KrazyEnv("krass-kariert", 3, opponent_pool=["random", "heuristic"], opponent_weights=[0, 1])
    for seed in range(5):
        env.reset(seed=seed)
        assert env.episode_opponents[1:] == ["heuristic", "heuristic"]
    check_env(KrazyEnv("kings-rummy", 2, opponent_pool=["random", "heuristic"]))


@pytest.mark.parametrize("kw", [dict(opponent_pool=[]), dict(opponent_pool=["nobot"]),
                                dict(opponent_pool=[3]),
                                dict(opponent_pool=["random"], opponent_weights=[-1]),
                                dict(opponent_pool=["random", "heuristic"], opponent_weights=[1]),
                                dict(opponent_weights=[1])])
def test_bad_opponent_pool_raises(kw):
    with pytest.raises(ConfigError):
        KrazyEnv("krazy-kings", 2, **kw)
