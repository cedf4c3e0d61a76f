"""PettingZoo AEC env for every game and player count (``pip install 'krazy_core[rl]'``).

    >>> from krazy_core.envs.pettingzoo import env
    >>> e = env("kings-rummy", num_players=4, render_mode="ansi")
    >>> e.reset(seed=42)
    >>> for agent in e.agent_iter():
    ...     obs, reward, termination, truncation, info = e.last()
    ...     action = None if termination or truncation else \\
    ...         e.action_space(agent).sample(obs["action_mask"])      # a masked random agent
    ...     e.step(action)

As PettingZoo's classic envs: agents ``player_0 … player_{N-1}`` (seat order); the agent to
act is the game's ``current_player()`` (in Krazy Kings the dice decide who that is, so the
order is not a cycle); observations are ``{"observation": float32 (D,), "action_mask":
int8 (A,)}`` (``State.observation_tensor`` of that seat, and its legal actions; a seat not
to act sees an all-zero mask); rewards only when the game ends: each seat's ``returns()``
(winner 1.0, others 0.0; Kings Rummy/Crazy Rummy/KrassKariert as their modules say).
When Krazy Kings' turn cap ends a game (KK-20) every agent is *truncated* (its returns
still score the fewest cards); otherwise a finished game *terminates* every agent.  (The
rummy games' ``max_turns`` ends a round, not the game, so it never truncates.)

An illegal action (``illegal_action="terminate"``, the default, as PettingZoo classic's
``TerminateIllegalWrapper``): the game ends, the mover gets -1, the others 0, every agent
terminates and the mover's ``info["illegal_action"]`` is True.  ``illegal_action="raise"``:
``IllegalActionError``, nothing changed.  Game options pass through as keywords
(``env("krazy-kings", max_turns=200, doubles_reverse="never")``); a bad one raises
``ConfigError``.

Seeds: ``reset(seed=s)`` deals from ``s``; a later ``reset()`` without a seed deals from a
generator seeded by the last seed, so a seeded env is reproducible episode after episode.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _e:                   # pragma: no cover - the extra is missing
    raise ImportError("krazy_core.envs.pettingzoo needs pettingzoo: "
                      "pip install 'krazy_core[rl]'") from _e

import krazy_core
from krazy_core._vector_meta import single_spaces
from krazy_core.envs._common import (ILLEGAL_REWARD, check_illegal, check_render_mode,
                                     is_legal, render_text)
from krazy_core.errors import IllegalActionError
from krazy_core.vector import truncated as game_truncated

__all__ = ["env", "raw_env", "KrazyAECEnv"]


def env(game_id: str = "krazy-kings", num_players: Optional[int] = None, *,
        render_mode: Optional[str] = None, illegal_action: str = "terminate", **options):
    """The AEC env of ``game_id`` wrapped as PettingZoo's classic envs are
    (``OrderEnforcingWrapper``: no ``step`` before ``reset``).  See the module docstring."""
    e = raw_env(game_id, num_players, render_mode=render_mode,
                illegal_action=illegal_action, **options)
    return wrappers.OrderEnforcingWrapper(e)


class KrazyAECEnv(AECEnv):
    """A krazy_core game as a PettingZoo ``AECEnv`` (module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "krazy_core_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game_id: str = "krazy-kings", num_players: Optional[int] = None, *,
                 render_mode: Optional[str] = None, illegal_action: str = "terminate",
                 **options: Any):
        super().__init__()
        self.game = game_id if isinstance(game_id, krazy_core.Game) else krazy_core.make(
            game_id, num_players=num_players, **options)
        self.render_mode = check_render_mode(render_mode)
        self.illegal_action = check_illegal(illegal_action)
        self.metadata = dict(self.metadata, name=self.game.game_id.replace("-", "_") + "_v0")
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {}
        self.action_spaces = {}
        for a in self.possible_agents:
            self.observation_spaces[a], self.action_spaces[a] = single_spaces(self.game)
        self.state_obj: Any = None
        self._deal_rng: Any = None

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        st = self.state_obj
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if not st.is_terminal() and st.current_player() == p and not self._illegal_end:
            mask[:] = st.legal_action_mask()
        return {"observation": st.observation_tensor(p), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            self._deal_rng = np.random.default_rng(seed)
        elif self._deal_rng is None:
            self._deal_rng = np.random.default_rng()
        deal = int(self._deal_rng.integers(0, 2**63 - 1))
        self.state_obj = self.game.new_initial_state(deal)
        self._illegal_end = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_obj.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state_obj
        mover = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        if not is_legal(st, action):
            if self.illegal_action == "raise":
                st.apply_action(_as_int(action, st))     # raises IllegalActionError, no change
                raise IllegalActionError(f"illegal action {action!r}")   # pragma: no cover
            self._illegal_end = True
            for a in self.agents:
                self.rewards[a] = ILLEGAL_REWARD if a == agent else 0.0
                self.terminations[a] = True
            self.infos[agent] = {"illegal_action": True}
        else:
            st.apply_action(int(action))
            if st.is_terminal():
                returns = st.returns()
                truncated = game_truncated(st)
                for a in self.agents:
                    self.rewards[a] = float(returns[self.agent_name_mapping[a]])
                    if truncated:
                        self.truncations[a] = True
                    else:
                        self.terminations[a] = True
            else:
                for a in self.agents:
                    self.rewards[a] = 0.0
        if not st.is_terminal() and not self._illegal_end:
            self.agent_selection = self.possible_agents[st.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """``render_mode="ansi"``: the terminal view of the seat to act, as text;
        ``"human"``: the same, printed.  Without a render mode: a warning, ``None``."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "make the env with render_mode='ansi'")
            return None
        st = self.state_obj
        viewer = None if st.is_terminal() else st.current_player()
        text = render_text(st, viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    def __repr__(self):
        return f"krazy_core.envs.pettingzoo.raw_env({self.game!r})"


raw_env = KrazyAECEnv


def _as_int(action, st):
    try:
        return int(action)
    except (TypeError, ValueError):
        raise IllegalActionError(f"action {action!r} is not an int in {st._compact()}") from None
