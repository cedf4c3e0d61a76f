"""The policy model's file format and its NumPy reference forward pass, below the search.

File format (``krazy_core/models/<game_id>.policy.npz``, NumPy ``.npz`` of float32 arrays, no
pickles): ``w1`` (T, H) input-major, ``b1`` (H,), ``w2`` (H, A), ``b2`` (A,), where T is the
game's observation tensor size and A its ``num_distinct_actions``; ``info``: a 0-d unicode
array (how it was trained, JSON).  The network: ``logits = relu(x @ w1 + b1) @ w2 + b2`` with
``x = state.observation_tensor(p)`` for the player to act; the policy is the softmax of the
logits over the legal actions only (:func:`policy_numpy`).  It is trained to give the moves
the search would give (the root visit fractions of ISMCTS self-play, AlphaZero-style
distillation; ``python -m krazy_core.learn.train GAME --policy``).

``search(..., prior_from="model")`` (``krazy_core.search.ismcts``) evaluates it in C as the
prior of PUCT-style selection; ``PolicyBot`` (``krazy_core.learn.model``, bot word ``policy``)
plays its most likely legal action with no search.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Sequence

import numpy as np

from krazy_core.errors import ConfigError
from krazy_core.search.value_model import MODELS_DIR, check_weights, model_file, read_npz, write_npz

__all__ = ["policy_path", "load_policy_model", "save_policy_model", "policy_logits_numpy",
           "policy_numpy"]

_CACHE: Dict[str, Dict[str, Any]] = {}
KEYS = ("w1", "b1", "w2", "b2")


def policy_path(game_id: str) -> str:
    """The shipped policy model of ``game_id`` (a path; it may not exist)."""
    return os.path.join(MODELS_DIR, f"{game_id}.policy.npz")


def _check(m: Dict[str, Any], where: str) -> Dict[str, Any]:
    for k in KEYS:
        if k not in m:
            raise ConfigError(f"policy model {where}: no array {k!r}")
    ok = m["w1"].ndim == 2 and m["w2"].ndim == 2
    t, h = m["w1"].shape if ok else (0, 0)
    a = m["w2"].shape[1] if ok else 0
    if (not ok or m["b1"].shape != (h,) or m["w2"].shape != (h, a) or m["b2"].shape != (a,)
            or not 1 <= h <= 4096 or not 1 <= a <= 1 << 20 or t < 1):
        raise ConfigError(f"policy model {where}: shapes w1 {m['w1'].shape}, b1 {m['b1'].shape}, "
                          f"w2 {m['w2'].shape}, b2 {m['b2'].shape} are not (T, H), (H,), (H, A), (A,)")
    return check_weights(m, KEYS, f"policy model {where}")


def load_policy_model(game_id_or_path: str) -> Dict[str, Any]:
    """The policy model of a game id (the shipped file) or of a ``.npz`` path: a dict of
    C-contiguous float32 arrays ``w1`` (T, H), ``b1`` (H,), ``w2`` (H, A), ``b2`` (A,) and
    ``info`` (str).  Cached.  Raises ``ConfigError`` when there is none or it is malformed."""
    key, path = model_file(game_id_or_path, policy_path, "policy model")
    if key in _CACHE:
        return _CACHE[key]
    if not os.path.exists(path):
        raise ConfigError(f"no policy model for {key!r} (looked for {path}); only krazy-kings ships one. "
                          f"Train one with python -m krazy_core.learn.train GAME --policy --out DIR "
                          f"(krazy_core/models/README.md) and name it: policy:DIR/GAME.policy.npz, "
                          f"or the search option policy_model=DIR/GAME.policy.npz")
    m: Dict[str, Any] = read_npz(path, KEYS, "policy model")
    _CACHE[key] = _check(m, path)
    return _CACHE[key]


def save_policy_model(path: str, w1, b1, w2, b2, info: str = "") -> int:
    """Write the model file (see the module docstring); returns its size in bytes."""
    arrays: Dict[str, Any] = {k: np.ascontiguousarray(v, np.float32)
                              for k, v in zip(KEYS, (w1, b1, w2, b2))}
    _check(dict(arrays), path)
    _CACHE.pop(path, None)
    return write_npz(path, arrays, info)


def policy_logits_numpy(model: Dict[str, Any], x: np.ndarray) -> np.ndarray:
    """Reference forward pass: ``x`` float32 (N, T) or (T,) -> logits float32 (N, A) or (A,)."""
    x = np.asarray(x, dtype=np.float32)
    h = np.maximum(x @ model["w1"] + model["b1"], np.float32(0))
    return h @ model["w2"] + model["b2"]


def policy_numpy(model: Dict[str, Any], x: np.ndarray, legal: Sequence[int]) -> np.ndarray:
    """The policy over ``legal`` (float64, shape (len(legal),), sums to 1): the softmax of
    the logits of the legal actions, in the order given; ``x`` float32 (T,)."""
    z = policy_logits_numpy(model, x).astype(np.float64)[np.asarray(legal, dtype=np.int64)]
    e = np.exp(z - z.max())
    return e / e.sum()
