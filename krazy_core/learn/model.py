"""The value model's file, its NumPy reference forward pass and a bot that plays on it alone.

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

__all__ = ["MODELS_DIR", "model_path", "load_value_model", "value_numpy", "seat_values",
           "save_value_model", "ValueBot"]

MODELS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "models")
_CACHE: Dict[str, Dict[str, Any]] = {}


def model_path(game_id: str) -> str:
    """The shipped value model of ``game_id`` (a path; it may not exist)."""
    return os.path.join(MODELS_DIR, f"{game_id}.value.npz")


def _check(m: Dict[str, Any], where: str) -> Dict[str, Any]:
    for k in ("w1", "b1", "w2", "b2"):
        if k not in m:
            raise ConfigError(f"value model {where}: no array {k!r}")
    t, h = m["w1"].shape if m["w1"].ndim == 2 else (0, 0)
    if (m["w1"].ndim != 2 or m["b1"].shape != (h,) or m["w2"].shape != (h,) or m["b2"].shape != (1,)
            or not 1 <= h <= 4096):
        raise ConfigError(f"value model {where}: shapes w1 {m['w1'].shape}, b1 {m['b1'].shape}, "
                          f"w2 {m['w2'].shape}, b2 {m['b2'].shape} are not (T, H), (H,), (H,), (1,)")
    for k in ("w1", "b1", "w2", "b2"):
        if not np.all(np.isfinite(m[k])):
            raise ConfigError(f"value model {where}: {k} has a non-finite weight")
    return m


def load_value_model(game_id_or_path: str) -> Dict[str, Any]:
    """The value model of a game id (the shipped file) or of a ``.npz`` path: a dict of
    C-contiguous float32 arrays ``w1`` (T, H), ``b1`` (H,), ``w2`` (H,), ``b2`` (1,) and
    ``info`` (str).  Cached.  Raises ``ConfigError`` when there is none or it is malformed."""
    key = game_id_or_path
    if key in _CACHE:
        return _CACHE[key]
    path = key if key.endswith(".npz") else model_path(key)
    if not os.path.exists(path):
        raise ConfigError(f"no value model for {key!r} (looked for {path}); "
                          f"train one with python -m krazy_core.learn.train")
    with np.load(path, allow_pickle=False) as z:
        m: Dict[str, Any] = {k: np.ascontiguousarray(z[k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2") if k in z}
        m["info"] = str(z["info"]) if "info" in z else ""
    _CACHE[key] = _check(m, path)
    return _CACHE[key]


def save_value_model(path: str, w1, b1, w2, b2, info: str = "") -> int:
    """Write the model file (see the module docstring); returns its size in bytes."""
    arrays: Dict[str, Any] = {"w1": np.ascontiguousarray(w1, np.float32), "b1": np.ascontiguousarray(b1, np.float32),
              "w2": np.ascontiguousarray(w2, np.float32),
              "b2": np.ascontiguousarray(np.reshape(b2, (1,)), np.float32)}
    _check(dict(arrays), path)     # before "info" joins
    arrays["info"] = np.array(info)
    np.savez_compressed(path, **arrays)
    _CACHE.pop(path, None)
    return os.path.getsize(path)


def value_numpy(model: Dict[str, Any], x: np.ndarray) -> np.ndarray:
    """Reference forward pass: ``x`` float32 (N, T) or (T,) -> chances to win (N,) or ()."""
    x = np.asarray(x, dtype=np.float32)
    h = np.maximum(x @ model["w1"] + model["b1"], np.float32(0))
    z = h @ model["w2"] + model["b2"][0]
    return (1.0 / (1.0 + np.exp(-z.astype(np.float64))))


def seat_values(model: Dict[str, Any], state) -> np.ndarray:
    """Each seat's modelled return at ``state`` (float64, shape (num_players,), sums to 1): the
    chance from each seat's own tensor, normalized.  The exact returns at a terminal state."""
    if state.is_terminal():
        return np.asarray(state.returns(), dtype=np.float64)
    n = state.num_players()
    x = np.stack([state.observation_tensor(p) for p in range(n)])
    v = value_numpy(model, x)
    return v / v.sum()


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
