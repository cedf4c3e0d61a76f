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


def single_spaces(D: int, A: int):
    """``(observation_space, action_space)`` of one env: ``Dict(observation=Box(float32,
    (D,)), action_mask=Box(0, 1, (A,), int8))`` and ``Discrete(A)``.  The tensor's entries
    are fractions, counts, flags and (Krazy Kings' direction) -1/+1, so the Box is bounded
    by -1 and the largest score fraction a game can reach (``high`` 1e4, never reached)."""
    gym = _gym()
    spaces = gym.spaces
    obs = spaces.Dict({
        "observation": spaces.Box(low=-1.0, high=1e4, shape=(D,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(A,), dtype=np.int8),
    })
    return obs, spaces.Discrete(A)


def spaces(D: int, A: int, N: int):
    """``(single_obs, single_action, batched_obs, batched_action)`` for ``N`` envs
    (Gymnasium's ``batch_space``: the action space is ``MultiDiscrete([A] * N)``)."""
    from gymnasium.vector.utils import batch_space
    obs, act = single_spaces(D, A)
    return obs, act, batch_space(obs, N), batch_space(act, N)
