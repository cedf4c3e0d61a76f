"""The value model's file format and its NumPy reference forward pass, below the search.

File format (``krazy_core/models/<game_id>.value.npz``, NumPy ``.npz`` of float32 arrays, no
pickles): ``w1`` (T, H) input-major, ``b1`` (H,), ``w2`` (H,), ``b2`` (1,), where T is the game's
observation tensor size; ``info``: a 0-d unicode array (how it was trained).  The network:
``v = sigmoid(w2 . relu(x @ w1 + b1) + b2)``, ``x`` = ``state.observation_tensor(p)``: seat p's
chance to win (or, in a game with one loser and ``"outcome": "one_loser"`` in ``info``'s JSON,
as KrassKariert's KA-15, the chance not to lose).  The seats' values are normalized to the
game's total return (:func:`normalize_values`).  ``search(..., value="model")`` (``krazy_core.search.ismcts``) loads it from here;
``krazy_core.learn.model`` re-exports these names beside the bot that plays on the model alone.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict

import numpy as np

from krazy_core.errors import ConfigError

__all__ = ["MODELS_DIR", "model_path", "load_value_model", "value_numpy", "save_value_model",
           "normalize_values", "OUTCOMES", "read_npz", "write_npz", "check_weights", "model_file",
           "MAX_WEIGHT"]

MAX_WEIGHT = 1e6        # a trained weight is far below; past it a forward pass could overflow float32

#: how a game's returns add up: ``one_winner`` sum to 1 (the winner 1, or 1/k each of a shared
#: win), ``one_loser`` sum to n - 1 (the loser 0, every other seat 1: KA-15)
OUTCOMES = ("one_winner", "one_loser")

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
    return check_weights(m, ("w1", "b1", "w2", "b2"), f"value model {where}")


def model_file(game_id_or_path, shipped, what: str):
    """``(key, path)`` of a model named by a game id (its shipped file, ``shipped(game_id)``)
    or by a ``.npz`` path (a ``str`` or ``os.PathLike``); ``ConfigError`` for anything else."""
    if isinstance(game_id_or_path, os.PathLike):
        game_id_or_path = os.fspath(game_id_or_path)
    if not isinstance(game_id_or_path, str):
        raise ConfigError(f"a {what} is a game id or a .npz path, got {game_id_or_path!r}")
    key = game_id_or_path
    return key, key if key.endswith(".npz") else shipped(key)


def check_weights(m: Dict[str, Any], keys, what: str) -> Dict[str, Any]:
    """``m``, once every array of ``keys`` is finite and within +-``MAX_WEIGHT``; else
    ``ConfigError`` naming ``what`` and the array."""
    for k in keys:
        if not np.all(np.isfinite(m[k])):
            raise ConfigError(f"{what}: {k} has a non-finite weight")
        if m[k].size and float(np.max(np.abs(m[k]))) > MAX_WEIGHT:
            raise ConfigError(f"{what}: {k} has a weight beyond +-{MAX_WEIGHT:g} (no trained model "
                              f"has one; the forward pass could overflow)")
    return m


def read_npz(path: str, keys, what: str) -> Dict[str, Any]:
    """The float32 arrays ``keys`` (those present) and ``info`` (str) of a ``.npz`` file;
    ``ConfigError`` for anything that is not a readable NumPy archive of plain arrays."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if not hasattr(z, "files"):
                raise ValueError("a single array, not an archive of arrays")
            m: Dict[str, Any] = {k: np.ascontiguousarray(z[k], dtype=np.float32) for k in keys if k in z}
            m["info"] = str(z["info"]) if "info" in z else ""
    except Exception as e:  # noqa: BLE001 - zipfile, EOF, pickle refusals, bad dtypes: all one answer
        raise ConfigError(f"{what} {path}: not a readable .npz archive of float arrays "
                          f"({type(e).__name__})") from None
    return m


def load_value_model(game_id_or_path: str) -> Dict[str, Any]:
    """The value model of a game id (the shipped file) or of a ``.npz`` path: a dict of
    C-contiguous float32 arrays ``w1`` (T, H), ``b1`` (H,), ``w2`` (H,), ``b2`` (1,) and
    ``info`` (str).  Cached.  Raises ``ConfigError`` when there is none or it is malformed."""
    key, path = model_file(game_id_or_path, model_path, "value model")
    if key in _CACHE:
        return _CACHE[key]
    if not os.path.exists(path):
        raise ConfigError(f"no value model for {key!r} (looked for {path}); "
                          f"train one with python -m krazy_core.learn.train")
    m: Dict[str, Any] = read_npz(path, ("w1", "b1", "w2", "b2"), "value model")
    m["outcome"] = _outcome(m["info"], path)
    _CACHE[key] = _check(m, path)
    return _CACHE[key]


def _outcome(info: str, where: str) -> str:
    try:
        meta = json.loads(info) if info else {}
    except ValueError:
        meta = {}
    out = meta.get("outcome", "one_winner") if isinstance(meta, dict) else "one_winner"
    if out not in OUTCOMES:
        raise ConfigError(f"value model {where}: outcome {out!r} is not one of {', '.join(OUTCOMES)}")
    return out


def normalize_values(model: Dict[str, Any], v: np.ndarray) -> np.ndarray:
    """The seats' chances ``v`` (float64, shape (n,)) as returns that add up like the game's:
    ``one_winner``: ``v / v.sum()`` (sum 1); ``one_loser``: the chances to lose ``1 - v``
    normalized to 1, each seat's return ``1 - that`` (sum n - 1).  The search's C pass does
    the same."""
    v = np.asarray(v, dtype=np.float64)
    if model.get("outcome") == "one_loser":
        loss = 1.0 - v
        t = loss.sum()
        return 1.0 - (loss / t if t > 0 else np.full_like(v, 1.0 / len(v)))
    t = v.sum()
    return v / t if t > 0 else v


def save_value_model(path: str, w1, b1, w2, b2, info: str = "") -> int:
    """Write the model file (see the module docstring); returns its size in bytes."""
    arrays: Dict[str, Any] = {"w1": np.ascontiguousarray(w1, np.float32), "b1": np.ascontiguousarray(b1, np.float32),
              "w2": np.ascontiguousarray(w2, np.float32),
              "b2": np.ascontiguousarray(np.reshape(b2, (1,)), np.float32)}
    _check(dict(arrays), path)     # before "info" joins
    _CACHE.pop(path, None)
    return write_npz(path, arrays, info)


def write_npz(path: str, arrays: Dict[str, Any], info: str) -> int:
    """Write ``arrays`` and ``info`` (a 0-d unicode array) as a compressed ``.npz``; its size
    in bytes."""
    np.savez_compressed(path, **arrays, info=np.array(info))
    return os.path.getsize(path)


def value_numpy(model: Dict[str, Any], x: np.ndarray) -> np.ndarray:
    """Reference forward pass: ``x`` float32 (N, T) or (T,) -> chances to win (N,) or ()."""
    x = np.asarray(x, dtype=np.float32)
    h = np.maximum(x @ model["w1"] + model["b1"], np.float32(0))
    z = h @ model["w2"] + model["b2"][0]
    return (1.0 / (1.0 + np.exp(-z.astype(np.float64))))
