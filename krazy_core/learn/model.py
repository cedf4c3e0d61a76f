"""The learned models' files, NumPy reference forward passes and the bots that play on them alone.

File format (``krazy_core/models/<game_id>.value.npz``, NumPy ``.npz`` of float32 arrays, no
pickles): ``w1`` (T, H) input-major, ``b1`` (H,), ``w2`` (H,), ``b2`` (1,), where T is the game's
observation tensor size; ``info``: a 0-d unicode array (how it was trained).  The network:
``v = sigmoid(w2 . relu(x @ w1 + b1) + b2)``, ``x`` = ``state.observation_tensor(p)``: seat p's
chance to win.  Seat returns are the chances normalized to sum to 1 (:func:`seat_values`).
"""
from __future__ import annotations

import os
from typing import Any, Dict, Optional

import numpy as np

from krazy_core.bots.base import Bot
from krazy_core.errors import ConfigError
# the file format and the reference forward pass live below the search, which loads the model
from krazy_core.search.value_model import (MODELS_DIR, load_value_model, model_path,
                                           save_value_model, value_numpy, normalize_values)
from krazy_core.search.ismcts import _model_arrays
from krazy_core.search.policy_model import policy_path
from krazy_core.search.ismcts import _policy_arrays
from krazy_core.search.ismcts import policy_priors

__all__ = ["MODELS_DIR", "model_path", "load_value_model", "value_numpy", "seat_values",
           "save_value_model", "ValueBot", "PolicyBot"]


def seat_values(model: Dict[str, Any], state) -> np.ndarray:
    """Each seat's modelled return at ``state`` (float64, shape (num_players,); sums like the
    game's returns: 1, or n - 1 with one loser): the chance from each seat's own tensor,
    normalized (:func:`normalize_values`).  The exact returns at a terminal state."""
    if state.is_terminal():
        return np.asarray(state.returns(), dtype=np.float64)
    n = state.num_players()
    x = np.stack([state.observation_tensor(p) for p in range(n)])
    return normalize_values(model, value_numpy(model, x))


class ValueBot(Bot):
    """The value model alone, no search: for each legal action, the mean modelled return of
    the player to act after that action over ``samples`` determinizations of its own view
    (dice rolled in the action are sampled, never read from the real state); the best one.
    ``model``: a game id or ``.npz`` path (default: the state's game's shipped model)."""

    name = "value"

    def __init__(self, *, seed: Optional[int] = None, samples: int = 8, model: Optional[str] = None):
        super().__init__(seed=seed)
        if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10000:
            raise ConfigError(f"samples must be an int in 1..10000, got {samples!r}")
        self.samples = samples
        self.model = model

    def check_game(self, game) -> None:
        """``ConfigError`` unless the value model loads and fits ``game``'s tensor."""
        _model_arrays(game.new_initial_state(seed=0), self.model)

    def step(self, state) -> int:
        self._check(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        m = load_value_model(self.model or state.game.game_id)
        p = state.current_player()
        best, best_v = legal[0], -1.0
        seeds = [self._rng.next_u64() for _ in range(self.samples)]
        worlds = [state.determinize(p, s) for s in seeds]
        for a in legal:
            v = 0.0
            for w in worlds:
                c = w.clone()
                c.apply_action(a)
                v += seat_values(m, c)[p]
            if v > best_v:
                best, best_v = a, v
        return best


class PolicyBot(Bot):
    """The policy model alone, no search (bot word ``policy``), as DouZero-style
    agents are measured: the legal action the network gives the highest probability from the
    acting seat's own observation tensor (``krazy_core.search.policy_model``; the C pass of
    :func:`krazy_core.search.ismcts.policy_priors`; ties: the first legal action).  It
    reads only that seat's view and draws nothing at random.  ``model``: a game id or
    ``.npz`` path (default: the state's game's shipped policy).  ``step`` raises
    ``ConfigError`` for a game with no shipped policy."""

    name = "policy"

    def __init__(self, *, seed: Optional[int] = None, model=None):
        super().__init__(seed=seed)
        if isinstance(model, os.PathLike):
            model = os.fspath(model)
        if model is not None and not isinstance(model, str):
            raise ConfigError(f"model must be a game id or a .npz path, got {model!r}")
        self.model = model

    def _path(self):
        m = self.model
        return policy_path(m) if m is not None and not m.endswith(".npz") else m

    def check_game(self, game) -> None:
        """``ConfigError`` unless the policy loads and fits ``game``'s tensor and actions."""
        _policy_arrays(game.new_initial_state(seed=0), self._path())

    def step(self, state) -> int:
        self._check(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        prior = policy_priors(state, self._path())
        return max(legal, key=lambda a: (prior[a], -legal.index(a)))
