"""Stable-Baselines3 ``VecEnv`` over the in-core :class:`krazy_core.vector.VectorEnv`:
``N`` games stepped in C by one call, for SB3 and sb3-contrib's MaskablePPO,
instead of ``N`` Python envs in a ``DummyVecEnv``.

    >>> from krazy_core.envs.sb3 import KrazySB3VecEnv
    >>> venv = KrazySB3VecEnv("krazy-kings", num_envs=64, num_players=2, opponents="heuristic")
    >>> venv.seed(0)
    [0]
    >>> obs = venv.reset()                            # float32 (64, D)
    >>> masks = venv.action_masks()                    # bool (64, A), for MaskablePPO
    >>> obs, rewards, dones, infos = venv.step(venv.sample_legal())

``KrazySB3VecEnv(game_id, num_envs, **kwargs)``: the keywords of ``VectorEnv`` (``seat``,
``opponents``, ``opponent_pool``, ``threads``, game options...); ``seat="all"`` is refused
(SB3 trains one policy against fixed opponents).  Observations: the observation tensor,
float32 ``(num_envs, D)`` (a ``Box``); actions: ``Discrete(A)``, an int array
``(num_envs,)``; rewards float32 ``(num_envs,)``: the learner's ``returns()`` when its game
ends, else 0; ``dones`` bool; ``infos`` one dict per env, with SB3's
``"terminal_observation"`` (the last observation of a finished game; the env was dealt a new
one in the same step) and ``"TimeLimit.truncated"`` (Krazy Kings' turn cap, KK-20).
``action_masks()``: bool ``(num_envs, A)``, the legal actions of each env now (sb3-contrib
reads it through ``env_method("action_masks")`` too).  An illegal action raises
``IllegalActionError`` naming the env (use the masks).  Works without SB3 installed (it is
then a plain object with the same methods); with SB3 it is a ``VecEnv`` subclass.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from krazy_core.errors import ConfigError
from krazy_core.vector import VectorEnv

try:                                        # optional: the adapter needs only numpy
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _Base
except ImportError:                         # pragma: no cover - depends on the install
    _Base = object  # type: ignore[misc,assignment]

__all__ = ["KrazySB3VecEnv"]


class KrazySB3VecEnv(_Base):  # type: ignore[misc,valid-type]
    """See the module docstring."""

    def __init__(self, game_id: str = "krazy-kings", num_envs: int = 16, **kwargs: Any):
        if kwargs.get("seat") == "all":
            raise ConfigError("KrazySB3VecEnv trains one learner seat: seat='all' is not supported")
        self.core = VectorEnv(game_id, num_envs, **kwargs)
        from gymnasium import spaces
        A = self.core.game.num_distinct_actions
        lo, hi = self.core.game.observation_tensor_bounds()
        obs_space = spaces.Box(low=lo, high=hi, dtype=np.float32)
        act_space = spaces.Discrete(A)
        if _Base is object:
            self.num_envs = num_envs
            self.observation_space = obs_space
            self.action_space = act_space
        else:
            super().__init__(num_envs, obs_space, act_space)
        self._seed: Optional[int] = None
        self._actions: Any = None
        self.render_mode = None

    # ------------------------------------------------------------------ VecEnv API
    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        """The seed of the next ``reset()`` (SB3 calls this before it)."""
        self._seed = seed
        return [seed]

    def reset(self):
        obs, _ = self.core.reset(seed=self._seed)
        self._seed = None
        return obs["observation"].copy()

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions).reshape(-1).astype(np.int64)

    def step_wait(self):
        obs, rew, term, trunc, info = self.core.step(self._actions)
        dones = term | trunc
        infos: List[dict] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"]["observation"][i].copy()
            infos[i]["TimeLimit.truncated"] = bool(trunc[i])
        return obs["observation"].copy(), rew.copy(), dones.copy(), infos

    def step(self, actions):
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> np.ndarray:
        """bool ``(num_envs, A)``: the legal actions of each env's learner now."""
        return self.core._obs_dict()["action_mask"].astype(bool)  # type: ignore[attr-defined]

    def sample_legal(self) -> np.ndarray:
        """A uniformly random legal action per env (``VectorEnv.sample_legal``)."""
        return self.core.sample_legal()

    def close(self) -> None:
        self.core.close()

    def _indices(self, indices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def env_method(self, method_name: str, *args: Any, indices=None, **kwargs: Any) -> list:
        """``"action_masks"``: each env's mask (what sb3-contrib asks a ``VecEnv`` for);
        other methods raise ``AttributeError`` (the envs are C structs, not Python envs)."""
        if method_name == "action_masks":
            m = self.action_masks()
            return [m[i] for i in self._indices(indices)]
        raise AttributeError(f"KrazySB3VecEnv has no per-env method {method_name!r}")

    def get_attr(self, attr_name: str, indices=None) -> list:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError("KrazySB3VecEnv: the envs have no attributes to set")

    def env_is_wrapped(self, wrapper_class, indices=None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self):                   # pragma: no cover - no rendering
        return [None for _ in range(self.num_envs)]
