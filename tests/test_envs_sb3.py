"""The SB3 ``VecEnv`` over VectorEnv (krazy_core.envs.sb3): SB3's step contract (shapes,
dtypes, ``terminal_observation``, ``TimeLimit.truncated``), masks for MaskablePPO, seeded
resets; with sb3-contrib installed, MaskablePPO learns a few steps on it (skipped without:
sb3 and torch are not in the project's extras)."""
import numpy as np
import pytest

pytest.importorskip("gymnasium")
from krazy_core.envs.sb3 import KrazySB3VecEnv  # noqa: E402
from krazy_core.errors import ConfigError, IllegalActionError  # noqa: E402


def test_step_contract_and_masks():
    venv = KrazySB3VecEnv("krazy-kings", num_envs=8, num_players=2, opponents="heuristic")
    assert venv.seed(3) == [3]
    obs = venv.reset()
    D = venv.observation_space.shape[0]
    assert obs.shape == (8, D) and obs.dtype == np.float32
    ended = 0
    for _ in range(300):
        m = venv.action_masks()
        assert m.dtype == bool and m.shape == (8, venv.action_space.n) and m.any(axis=1).all()
        assert [x.tolist() for x in venv.env_method("action_masks")] == m.tolist()
        a = venv.sample_legal()
        assert m[np.arange(8), a].all()
        obs, rew, dones, infos = venv.step(a)
        assert obs.shape == (8, D) and rew.shape == (8,) and dones.dtype == bool and len(infos) == 8
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (D,)
            assert isinstance(infos[i]["TimeLimit.truncated"], bool)
            ended += 1
        assert all(not infos[i] for i in np.flatnonzero(~dones))
    assert ended > 0
    venv.close()


def test_seeded_reset_repeats_and_bad_input():
    a, b = (KrazySB3VecEnv("kings-rummy", num_envs=4) for _ in range(2))
    a.seed(9)
    b.seed(9)
    np.testing.assert_array_equal(a.reset(), b.reset())
    with pytest.raises(IllegalActionError):
        a.step(np.full(4, -1))
    with pytest.raises(ConfigError):
        KrazySB3VecEnv("kings-rummy", num_envs=4, seat="all")
    with pytest.raises(AttributeError):
        a.env_method("render")


def test_maskable_ppo_learns_on_it():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import VecEnv
    venv = KrazySB3VecEnv("krazy-kings", num_envs=16, num_players=2, opponents="random")
    assert isinstance(venv, VecEnv)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, seed=0,
                                    policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(total_timesteps=16 * 32 * 2)
    obs = venv.reset()
    action, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
    assert venv.action_masks()[np.arange(16), action].all()
