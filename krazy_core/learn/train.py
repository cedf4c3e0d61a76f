"""Train a game's value model from seeded self-play (issue 18): one command,
``python -m krazy_core.learn.train krazy-kings --out DIR [--games N] [--seed S]``;
``--shipped`` takes every setting from the shipped model's report, so
``python -m krazy_core.learn.train GAME --shipped --out krazy_core/models`` rebuilds it.

1. **Self-play data**: ``--games`` games (game g dealt from ``seed + g``; table sizes cycle
   through ``--players``), every seat playing the game's heuristic except that each move is
   uniformly random with the game's own chance ``eps`` (drawn per game in [0, ``--eps``]), so
   the positions cover what search trees and rollouts visit.  At every decision both seats'
   observation tensors are recorded with that seat's final return (KK-20: 1 the winner, 0 the
   others, 1/k each for a shared win at the turn limit).
2. **Fit**: a one-hidden-layer MLP (``--hidden`` ReLU units, sigmoid output), binary cross
   entropy against the return, Adam, minibatches, ``--epochs`` passes, NumPy only (extra
   ``learn``); games split 90/10 into train/validation by game.
3. **Export**: ``DIR/<game_id>.value.npz`` (format: :mod:`krazy_core.learn.model`) and
   ``DIR/<game_id>.value.json`` (the numbers: samples, losses, seconds per stage).

With ``--out`` set to ``krazy_core/models`` it rebuilds the shipped model (the shipped one was
made by the command in ``krazy_core/models/README.md``).  Deterministic for a given seed
(NumPy's PCG64 for the weights and batches, krazy_core's Rng for the games).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

import krazy_core
from krazy_core.learn.model import save_value_model, value_numpy
from krazy_core.rng import Rng

__all__ = ["selfplay_data", "fit", "train", "main"]


def selfplay_data(game_id: str, games: int, seed: int, players: Sequence[int] = (2,),
                  eps: float = 0.3, every: int = 1):
    """``(x, y, g, outcome)``: x float32 (N, T) observation tensors, y float32 (N,) the seat's
    final return, g int32 (N,) the game index, every ``every``-th decision, all seats;
    ``outcome``: ``"one_loser"`` when every game's returns added up to n - 1 past 2 players
    (KrassKariert, KA-15), else ``"one_winner"`` (how the search normalizes the values)."""
    xs: List[np.ndarray] = []
    ys: List[float] = []
    gs: List[int] = []
    tables = {n: krazy_core.make(game_id, num_players=n) for n in players}
    sums = set()        # per game: did its returns add up to n - 1 past 2 players (one loser)?
    for gi in range(games):
        n = players[gi % len(players)]
        rng = Rng(seed * 1_000_003 + gi)
        e = eps * rng.uniform()
        s: Any = tables[n].new_initial_state(seed=seed + gi)
        start = len(ys)
        k = 0
        while not s.is_terminal():
            if k % every == 0:
                for p in range(n):
                    xs.append(s.observation_tensor(p))
                    gs.append(gi)
                    ys.append(float(p))     # the seat, replaced by its return below
            k += 1
            if rng.uniform() < e:
                a = rng.choice(s.legal_actions())
            else:
                a = s.heuristic_action(rng.next_u64())
            s.apply_action(a)
        r = s.returns()
        for i in range(start, len(ys)):
            ys[i] = r[int(ys[i])]
        sums.add(round(sum(r) - (n - 1), 9) == 0 and n > 2)
    outcome = "one_loser" if sums == {True} else "one_winner"
    return (np.stack(xs).astype(np.float32), np.asarray(ys, np.float32), np.asarray(gs, np.int32),
            outcome)


def _loss(model, x, y):
    p = np.clip(value_numpy(model, x), 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x, y, *, hidden: int = 32, epochs: int = 8, batch: int = 512, lr: float = 2e-3,
        l2: float = 1e-5, seed: int = 0, log=None) -> Dict[str, Any]:
    """An MLP ``sigmoid(w2 . relu(x @ w1 + b1) + b2)`` fitted by Adam on binary cross
    entropy (targets in [0, 1]); returns the float32 arrays of :func:`save_value_model`."""
    rs = np.random.default_rng(seed)
    t = x.shape[1]
    P = {"w1": rs.normal(0, np.sqrt(2.0 / t), (t, hidden)).astype(np.float32),
         "b1": np.zeros(hidden, np.float32),
         "w2": rs.normal(0, np.sqrt(1.0 / hidden), hidden).astype(np.float32),
         "b2": np.array([np.log(y.mean() / (1 - y.mean()))], np.float32)}
    M = {k: np.zeros_like(v) for k, v in P.items()}
    V = {k: np.zeros_like(v) for k, v in P.items()}
    b1_, b2_, step = 0.9, 0.999, 0
    n = len(y)
    for ep in range(epochs):
        order = rs.permutation(n)
        rate = lr * (0.5 ** max(0, ep - epochs // 2))       # halve each epoch in the second half
        for s0 in range(0, n, batch):
            idx = order[s0:s0 + batch]
            xb, yb = x[idx], y[idx]
            a1 = xb @ P["w1"] + P["b1"]
            h = np.maximum(a1, 0)
            z = h @ P["w2"] + P["b2"][0]
            p = 1.0 / (1.0 + np.exp(-z))
            dz = ((p - yb) / len(yb)).astype(np.float32)
            G = {"w2": h.T @ dz + l2 * P["w2"], "b2": np.array([dz.sum()], np.float32)}
            dh = np.outer(dz, P["w2"]) * (a1 > 0)
            G["w1"] = xb.T @ dh + l2 * P["w1"]
            G["b1"] = dh.sum(0)
            step += 1
            for k in P:
                M[k] = b1_ * M[k] + (1 - b1_) * G[k]
                V[k] = b2_ * V[k] + (1 - b2_) * G[k] * G[k]
                mh = M[k] / (1 - b1_ ** step)
                vh = V[k] / (1 - b2_ ** step)
                P[k] = (P[k] - rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if log:
            log(f"epoch {ep + 1}/{epochs}: train loss {_loss(P, x[:50000], y[:50000]):.4f}")
    return P


def train(game_id: str, out: str, *, games: int = 20000, seed: int = 18, players=(2,),
          eps: float = 0.3, hidden: int = 32, epochs: int = 8, every: int = 1, log=print) -> dict:
    """The whole pipeline (see the module docstring); returns the report written beside the
    model (``<game_id>.value.json``)."""
    t0 = time.process_time()
    w0 = time.perf_counter()
    x, y, g, outcome = selfplay_data(game_id, games, seed, players, eps, every)
    t_data = time.process_time() - t0
    log(f"self-play: {games} games, {len(y)} samples in {t_data:.1f} s CPU")
    val = (g % 10) == 9
    xt, yt, xv, yv = x[~val], y[~val], x[val], y[val]
    t1 = time.process_time()
    P = fit(xt, yt, hidden=hidden, epochs=epochs, seed=seed, log=log)
    t_fit = time.process_time() - t1
    base = float(np.clip(yt.mean(), 1e-7, 1 - 1e-7))
    base_loss = float(-np.mean(yv * np.log(base) + (1 - yv) * np.log(1 - base)))
    pv = value_numpy(P, xv)
    report = {"game": game_id, "games": games, "seed": seed, "players": list(players), "eps": eps,
              "every": every, "hidden": hidden, "epochs": epochs, "outcome": outcome,
              "samples": int(len(y)),
              "train_samples": int(len(yt)), "val_samples": int(len(yv)),
              "val_logloss": _loss(P, xv, yv), "val_logloss_constant": base_loss,
              "val_brier": float(np.mean((pv - yv) ** 2)),
              "val_accuracy": float(np.mean((pv > 0.5) == (yv > 0.5))),
              "cpu_seconds_selfplay": round(t_data, 2), "cpu_seconds_fit": round(t_fit, 2),
              "wall_seconds": round(time.perf_counter() - w0, 2), "krazy_core": krazy_core.__version__}
    os.makedirs(out, exist_ok=True)
    info = json.dumps({k: report[k] for k in ("game", "games", "seed", "players", "eps", "hidden", "epochs",
                                              "outcome")})
    size = save_value_model(os.path.join(out, f"{game_id}.value.npz"), P["w1"], P["b1"], P["w2"], P["b2"], info)
    report["model_bytes"] = size
    with open(os.path.join(out, f"{game_id}.value.json"), "w") as f:
        json.dump(report, f, indent=1)
    log(json.dumps(report))
    return report


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m krazy_core.learn.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="game id (a game with an observation tensor and a heuristic)")
    ap.add_argument("--out", required=True, help="folder for <game>.value.npz and .json")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--players", default="2", help="table sizes, comma separated, cycled (e.g. 2,2,4)")
    ap.add_argument("--eps", type=float, default=0.3, help="largest chance of a random move")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--every", type=int, default=1, help="record every k-th decision")
    ap.add_argument("--shipped", action="store_true",
                    help="take games, seed, players, eps, every, hidden and epochs from the shipped "
                         "model's report (krazy_core/models/<game>.value.json): rebuilds that model")
    a = ap.parse_args(argv)
    if a.shipped:
        from krazy_core.search.value_model import MODELS_DIR
        rep = os.path.join(MODELS_DIR, f"{a.game}.value.json")
        if not os.path.exists(rep):
            ap.error(f"--shipped: no shipped model report for {a.game!r} ({rep})")
        with open(rep) as f:
            r = json.load(f)
        a.games, a.seed, a.eps, a.every, a.hidden, a.epochs = (r["games"], r["seed"], r["eps"], r["every"],
                                                              r["hidden"], r["epochs"])
        a.players = ",".join(str(p) for p in r["players"])
    if a.games < 10 or a.hidden < 1 or a.epochs < 1 or a.every < 1 or not 0 <= a.eps <= 1:
        ap.error("need --games >= 10, --hidden >= 1, --epochs >= 1, --every >= 1, 0 <= --eps <= 1")
    train(a.game, a.out, games=a.games, seed=a.seed, players=tuple(int(p) for p in a.players.split(",")),
          eps=a.eps, hidden=a.hidden, epochs=a.epochs, every=a.every,
          log=lambda m: print(m, file=sys.stderr, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
