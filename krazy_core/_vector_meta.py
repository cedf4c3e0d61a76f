"""Gymnasium metadata and spaces for ``krazy_core.vector.VectorEnv`` and the envs in
``krazy_core.envs``: imported only when asked for, so the core needs no Gymnasium."""

from __future__ import annotations

import numpy as np


def _gym():
    try:
        import gymnasium
    except ImportError:
        raise ImportError("Gymnasium spaces need gymnasium: pip install 'krazy_core[rl]'") from None
    return gymnasium


def metadata() -> dict:
    """``{"autoreset_mode": AutoresetMode.SAME_STEP}`` (the string ``"same_step"`` without
    Gymnasium): a finished game is dealt again in the step that ended it, and its last
    observation is in ``info["final_obs"]``."""
    try:
        from gymnasium.vector import AutoresetMode
        return {"autoreset_mode": AutoresetMode.SAME_STEP}
    except ImportError:
        return {"autoreset_mode": "same_step"}


def single_spaces(game, A: int = 0):
    """``(observation_space, action_space)`` of one env of ``game``: ``Dict(observation=
    Box(low, high, (D,), float32), action_mask=Box(0, 1, (A,), int8))`` and ``Discrete(A)``;
    ``low``/``high`` per entry are ``game.observation_tensor_bounds()`` (flags, one-hots and
    fractions in [0, 1], Krazy Kings' direction -1, a few counts and score fractions above
    1)."""
    gym = _gym()
    spaces = gym.spaces
    lo, hi = game.observation_tensor_bounds()
    A = A or game.num_distinct_actions
    obs = spaces.Dict({
        "observation": spaces.Box(low=lo, high=hi, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(A,), dtype=np.int8),
    })
    return obs, spaces.Discrete(A)


def spaces(game, N: int):
    """``(single_obs, single_action, batched_obs, batched_action)`` for ``N`` envs of ``game``
    (Gymnasium's ``batch_space``: the action space is ``MultiDiscrete([A] * N)``)."""
    from gymnasium.vector.utils import batch_space
    obs, act = single_spaces(game)
    return obs, act, batch_space(obs, N), batch_space(act, N)
