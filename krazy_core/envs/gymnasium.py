"""Gymnasium envs (``pip install 'krazy_core[rl]'``): one learner seat against bots, and
the in-core vectorized env as a Gymnasium ``VectorEnv``.

    >>> import gymnasium, krazy_core.envs                # registers the ids below
    >>> env = gymnasium.make("krazy_core/KrazyKings-v0", num_players=4, opponents="heuristic")
    >>> obs, info = env.reset(seed=0)
    >>> while True:
    ...     action = env.action_space.sample(info["action_mask"])  # a masked random agent
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     if terminated or truncated:
    ...         break
    >>> venv = gymnasium.make_vec("krazy_core/KrazyKings-v0", num_envs=1024,
    ...                           vectorization_mode="vector_entry_point", threads=2)

Ids: ``krazy_core/KrazyKings-v0``, ``krazy_core/KingsRummy-v0``,
``krazy_core/ContractRummy-v0``, ``krazy_core/KrassKariert-v0`` (registered when
``krazy_core.envs`` is imported).

:class:`KrazyEnv` ``(game_id, num_players=None, *, seat=0, opponents="heuristic",
render_mode=None, illegal_action="terminate", **options)``: the learner holds ``seat``
(``"random"``: drawn at each reset); every other seat is a bot: ``"random"``,
``"heuristic"``, ``"ismcts:200"`` (iterations) or ``"ismcts:0.1s"`` (seconds per move), any
``krazy_core.bots.make_bot`` word (``"policy:FILE.npz"`` among them), one for all or a list
with one per seat, or bot objects (a ``Bot``, or any object with ``step(state) -> int``; one
for all seats or a list; the bots made from words are seeded from ``reset(seed=...)``).
``opponent_pool`` (a list of such words and bots) with optional ``opponent_weights`` (one
non-negative weight each): every episode each opponent seat draws its bot from the pool
(``env.unwrapped.episode_opponents`` says which), replacing ``opponents``.  Observation:
``{"observation": float32 (D,), "action_mask": int8 (A,)}``; the mask is also
``info["action_mask"]``; action: ``Discrete(A)``.  Reward: the learner's ``returns()`` when
the game ends, else 0.  ``terminated`` when the game ends by play; ``truncated`` when Krazy
Kings' turn cap ends it (KK-20).  Illegal action: ``"terminate"`` (default) ends the
episode with reward -1 and ``info["illegal_action"]`` True (the state is not changed);
``"raise"``: ``IllegalActionError``.

:class:`KrazyVectorEnv` / :func:`make_vec`: :class:`krazy_core.vector.VectorEnv` (opponents
``"random"``/``"heuristic"`` played in C) inside a ``gymnasium.vector.VectorEnv``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as _e:                   # pragma: no cover - the extra is missing
    raise ImportError("krazy_core.envs.gymnasium needs gymnasium: "
                      "pip install 'krazy_core[rl]'") from _e

import krazy_core
from krazy_core._vector_meta import single_spaces
from krazy_core.bots import Bot, make_bot
from krazy_core.envs._common import (ENV_IDS, ILLEGAL_REWARD, check_illegal,
                                     check_render_mode, is_legal, render_text)
from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core.vector import VectorEnv, truncated as game_truncated

__all__ = ["KrazyEnv", "KrazyVectorEnv", "make_vec", "register_envs", "ENV_IDS"]


class KrazyEnv(gymnasium.Env):
    """One learner seat of a krazy_core game, bots at the others (module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game_id: str = "krazy-kings", num_players: Optional[int] = None, *,
                 seat: Any = 0, opponents: Any = "heuristic", render_mode: Optional[str] = None,
                 illegal_action: str = "terminate", opponent_pool: Any = None,
                 opponent_weights: Any = None, **options: Any):
        self.game = game_id if isinstance(game_id, krazy_core.Game) else krazy_core.make(
            game_id, num_players=num_players, **options)
        n = self.game.num_players
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool)
                                     and 0 <= seat < n)):
            raise ConfigError(f"seat must be a seat 0..{n - 1} or 'random', got {seat!r}")
        self.seat_option = seat
        if isinstance(opponents, (str, Bot)) or hasattr(opponents, "step"):
            opponents = [opponents] * n         # one word or one bot (any object with step)
        opponents = list(opponents)
        if len(opponents) != n:
            raise ConfigError(f"opponents: one bot per seat ({n}), got {len(opponents)}")
        for o in opponents:
            if isinstance(o, str):
                make_bot(o, seed=0)                 # ConfigError now, not at reset
            elif not hasattr(o, "step"):
                raise ConfigError(f"opponents: {o!r} is neither a bot word nor a bot")
        self.opponent_specs = opponents
        self.episode_opponents = list(opponents)     # each seat's bot word or bot this episode
        self.opponent_pool = None
        self.opponent_weights = None
        if opponent_pool is not None:
            pool = [opponent_pool] if isinstance(opponent_pool, str) or hasattr(opponent_pool, "step") \
                else list(opponent_pool)
            if not pool:
                raise ConfigError("opponent_pool must hold at least one bot word or bot")
            for o in pool:
                if isinstance(o, str):
                    make_bot(o, seed=0)
                elif not hasattr(o, "step"):
                    raise ConfigError(f"opponent_pool: {o!r} is neither a bot word nor a bot")
            if opponent_weights is not None:
                w = np.asarray(opponent_weights, dtype=np.float64)
                if w.shape != (len(pool),) or not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
                    raise ConfigError(f"opponent_weights: {len(pool)} non-negative weights, not all "
                                      f"zero, got {opponent_weights!r}")
                self.opponent_weights = w / w.sum()
            self.opponent_pool = pool
        elif opponent_weights is not None:
            raise ConfigError("opponent_weights needs opponent_pool")
        self._pool_bots: list = []
        self.render_mode = check_render_mode(render_mode)
        self.illegal_action = check_illegal(illegal_action)
        self.observation_space, self.action_space = single_spaces(self.game)
        self.state: Any = None
        self.seat = seat if isinstance(seat, int) else 0
        self._bots = [None] * n
        self._over = True

    def _make_bots(self):
        seeds = self.np_random.integers(0, 2**63 - 1, size=len(self.opponent_specs))
        self._bots = [make_bot(o, seed=int(s)) if isinstance(o, str) else o
                      for o, s in zip(self.opponent_specs, seeds)]
        if self.opponent_pool is not None:
            seeds = self.np_random.integers(0, 2**63 - 1, size=len(self.opponent_pool))
            self._pool_bots = [make_bot(o, seed=int(s)) if isinstance(o, str) else o
                               for o, s in zip(self.opponent_pool, seeds)]

    def _draw_pool(self):
        """Each seat's opponent for this episode, drawn from the pool (``opponent_weights``)."""
        n = self.game.num_players
        picks = self.np_random.choice(len(self._pool_bots), size=n, p=self.opponent_weights)
        self._bots = [self._pool_bots[int(k)] for k in picks]
        self.episode_opponents = [self.opponent_pool[int(k)] for k in picks]

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is not None or self._bots[0] is None:
            self._make_bots()
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(0, self.game.num_players))
        if self.opponent_pool is not None:
            self._draw_pool()
        self.state = self.game.new_initial_state(int(self.np_random.integers(0, 2**63 - 1)))
        self._over = False
        self._play_opponents()
        if self.state.is_terminal():            # the game ended before the learner acted
            return self.reset(options=options)
        obs = self._obs()
        return obs, self._info(obs)

    def _play_opponents(self):
        st = self.state
        while not st.is_terminal() and st.current_player() != self.seat:
            st.apply_action(self._bots[st.current_player()].step(st))

    def _obs(self):
        st = self.state
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if not self._over and not st.is_terminal() and st.current_player() == self.seat:
            mask[:] = st.legal_action_mask()
        return {"observation": st.observation_tensor(self.seat), "action_mask": mask}

    def _info(self, obs, **extra):
        info = {"action_mask": obs["action_mask"], "seat": self.seat,
                "to_act": self.state.current_player()}
        info.update(extra)
        return info

    def step(self, action):
        """Apply the learner's ``action`` (an int id), then the opponents' moves until the
        learner is to act again or the game ends.  Returns ``(obs, reward, terminated,
        truncated, info)``: ``reward`` is the learner's ``returns()`` entry at the end, 0.0
        before; ``truncated`` is a turn cap's end (KK-20), ``terminated`` any other end;
        ``info["action_mask"]`` (int8, ``num_distinct_actions``) masks the next choice.  An
        illegal action ends the episode with reward -1 (``illegal_action="raise"``: raises
        ``IllegalActionError`` and changes nothing); after the end, raises
        ``IllegalActionError`` until ``reset()``."""
        if self.state is None or self._over:
            raise IllegalActionError("the episode is over (or not begun): call reset()")
        st = self.state
        if not is_legal(st, action):
            if self.illegal_action == "raise":
                st.apply_action(action)             # raises IllegalActionError, no change
            self._over = True
            obs = self._obs()
            return obs, ILLEGAL_REWARD, True, False, self._info(obs, illegal_action=True)
        st.apply_action(int(action))
        self._play_opponents()
        reward, terminated, truncated = 0.0, False, False
        if st.is_terminal():
            self._over = True
            reward = float(st.returns()[self.seat])
            truncated = game_truncated(st)
            terminated = not truncated
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, self._info(obs)

    def render(self):
        """``"ansi"``: the learner's terminal view as text; ``"human"``: printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "make the env with render_mode='ansi'")
            return None
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class KrazyVectorEnv(gymnasium.vector.VectorEnv):
    """:class:`krazy_core.vector.VectorEnv` as a ``gymnasium.vector.VectorEnv``: the same
    arguments, arrays and errors (see ``krazy_core.vector``); ``core`` is the wrapped env."""

    def __init__(self, game_id: str = "krazy-kings", num_envs: int = 1, **kwargs: Any):
        kwargs.pop("render_mode", None)
        self.core = VectorEnv(game_id, num_envs, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = self.core.single_observation_space
        self.single_action_space = self.core.single_action_space
        self.observation_space = self.core.observation_space
        self.action_space = self.core.action_space
        self.metadata = dict(self.core.metadata)
        self.render_mode = None

    def reset(self, *, seed=None, options=None):
        if seed is not None and not isinstance(seed, int):
            seed = int(np.asarray(seed).ravel()[0])     # Gymnasium passes a list sometimes
        return self.core.reset(seed=seed, options=options)

    def step(self, actions):
        return self.core.step(actions)

    def close_extras(self, **kwargs):
        self.core.close()

    def sample_legal(self, seed=None):
        return self.core.sample_legal(seed)


def make_vec(game_id: str, num_envs: int, **kwargs: Any) -> KrazyVectorEnv:
    """``KrazyVectorEnv(game_id, num_envs, **kwargs)``."""
    return KrazyVectorEnv(game_id, num_envs, **kwargs)


def register_envs():
    """Register the Gymnasium ids (done on import of ``krazy_core.envs``).  Idempotent."""
    for game_id, env_id in ENV_IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="krazy_core.envs.gymnasium:KrazyEnv",
            vector_entry_point="krazy_core.envs.gymnasium:KrazyVectorEnv",
            kwargs={"game_id": game_id},
            disable_env_checker=False,
        )
