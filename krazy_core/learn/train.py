"""Train a game's value model from seeded self-play: one command,
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
from krazy_core.runs.jobs import make_job
from krazy_core.runs.runner import make_runner
from krazy_core.runs.selfplay import play_batch as selfplay_batch
from krazy_core.search.policy_model import policy_logits_numpy, save_policy_model
from krazy_core.search import value_model
from krazy_core.bots import make_bot

__all__ = ["selfplay_data", "fit", "train", "search_selfplay", "fit_policy", "policy_loss",
           "train_policy", "main"]


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


def _adam(P, G, M, V, step: int, rate: float, b1: float = 0.9, b2: float = 0.999) -> None:
    """One Adam update of the float32 arrays ``P`` by the gradients ``G`` (moments ``M``,
    ``V``; ``step`` counts from 1)."""
    for k in P:
        M[k] = b1 * M[k] + (1 - b1) * G[k]
        V[k] = b2 * V[k] + (1 - b2) * G[k] * G[k]
        mh = M[k] / (1 - b1 ** step)
        vh = V[k] / (1 - b2 ** step)
        P[k] = (P[k] - rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


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
    step = 0
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
            _adam(P, G, M, V, step, rate)
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


# ------------------------------------------------------------------------- the policy prior
def search_selfplay(game_id: str, teacher: str, games: int, seed: int, players: Sequence[int] = (2,),
                    workers: int = 1, log=None, target: str = "move"):
    """Self-play of the ``teacher`` bot (a bot word, e.g. ``ismcts:1000``) in every seat:
    ``(x, mask, target, g)`` over the decisions with more than one legal action: ``x``
    float32 (N, T) the acting seat's observation tensor, ``mask`` bool (N, A) its legal
    actions, ``target`` float32 (N, A): with ``target="move"`` a one-hot of the move the
    teacher played (its most visited), with ``"visits"`` its root visit fractions (sum 1
    over the mask), ``g`` int32 (N,) the game's index.  Game g is dealt from ``seed + g`` at the table
    size ``players[g % len(players)]`` (:func:`krazy_core.runs.selfplay.play_batch`, played by
    ``workers`` local processes; the result does not depend on their number)."""
    xs, ms, ts, gs = [], [], [], []
    t0 = time.perf_counter()
    base = 0
    for n in sorted(set(players)):
        count = sum(1 for g in range(games) if players[g % len(players)] == n)
        if not count:
            continue
        game = krazy_core.make(game_id, num_players=n)
        job = make_job(game, {"schedule": "selfplay", "bot": teacher}, count, seed + 7919 * n)
        size = max(1, min(50, count // (4 * max(1, workers))))
        runner = make_runner(workers)
        done = 0
        try:
            payloads = ((lo, {"play": selfplay_batch, "job": job, "lo": lo, "hi": min(count, lo + size)})
                        for lo in range(0, count, size))
            for _, cols in runner.run(payloads):
                m = cols["mask"]
                keep = m.sum(1) > 1
                t = np.zeros(m.shape, np.float32)
                if target == "move":
                    t[np.arange(len(m)), cols["action"]] = 1.0
                else:
                    off, acts, vis = cols["policy_offsets"], cols["policy_actions"], cols["policy_visits"]
                    for r in range(len(m)):
                        t[r, acts[off[r]:off[r + 1]]] = vis[off[r]:off[r + 1]]
                xs.append(cols["observation"][keep])
                ms.append(m[keep])
                ts.append(t[keep])
                gs.append(cols["game"][keep].astype(np.int32) + base)
                done = int(cols["game"][-1]) + 1 if len(cols["game"]) else done
                if log:
                    log(f"self-play {teacher}, {n} players: {done}/{count} games, "
                        f"{time.perf_counter() - t0:.0f} s")
        finally:
            runner.close()
        base += count
    return np.concatenate(xs), np.concatenate(ms), np.concatenate(ts), np.concatenate(gs)


def _masked_softmax(z, mask):
    z = np.where(mask, z, -np.inf)
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def policy_loss(P, x, mask, target) -> float:
    """Mean cross entropy of the teacher's visit fractions under the model's policy."""
    p = _masked_softmax(policy_logits_numpy(P, x).astype(np.float64), mask)
    return float(-np.mean(np.sum(np.where(target > 0, target * np.log(np.maximum(p, 1e-12)), 0.0), 1)))


def fit_policy(x, mask, target, *, hidden: int = 64, epochs: int = 8, batch: int = 256,
               lr: float = 2e-3, l2: float = 1e-5, seed: int = 0, log=None) -> Dict[str, Any]:
    """An MLP ``logits = relu(x @ w1 + b1) @ w2 + b2``, softmax over the legal actions
    (``mask``), fitted by Adam on the cross entropy of ``target`` (each row sums to 1 over
    its mask); returns the float32 arrays of :func:`save_policy_model`."""
    rs = np.random.default_rng(seed)
    t, a = x.shape[1], mask.shape[1]
    P = {"w1": rs.normal(0, np.sqrt(2.0 / t), (t, hidden)).astype(np.float32),
         "b1": np.zeros(hidden, np.float32),
         "w2": rs.normal(0, np.sqrt(1.0 / hidden), (hidden, a)).astype(np.float32),
         "b2": np.zeros(a, np.float32)}
    M = {k: np.zeros_like(v) for k, v in P.items()}
    V = {k: np.zeros_like(v) for k, v in P.items()}
    step = 0
    n = len(x)
    for ep in range(epochs):
        order = rs.permutation(n)
        rate = lr * (0.5 ** max(0, ep - epochs // 2))
        for s0 in range(0, n, batch):
            idx = order[s0:s0 + batch]
            xb, mb, tb = x[idx], mask[idx], target[idx]
            a1 = xb @ P["w1"] + P["b1"]
            h = np.maximum(a1, 0)
            z = h @ P["w2"] + P["b2"]
            dz = ((_masked_softmax(z, mb) - tb) / len(idx)).astype(np.float32)
            G = {"w2": h.T @ dz + l2 * P["w2"], "b2": dz.sum(0)}
            dh = (dz @ P["w2"].T) * (a1 > 0)
            G["w1"] = xb.T @ dh + l2 * P["w1"]
            G["b1"] = dh.sum(0)
            step += 1
            _adam(P, G, M, V, step, rate)
        if log:
            m = min(n, 20000)
            log(f"epoch {ep + 1}/{epochs}: train cross entropy {policy_loss(P, x[:m], mask[:m], target[:m]):.4f}")
    return P


def train_policy(game_id: str, out: str, *, teacher: str = "ismcts:1000", games: int = 2000,
                 seed: int = 18, players=(2,), rounds: int = 1, hidden: int = 64, epochs: int = 8,
                 workers: int = 1, target: str = "move", log=print) -> dict:
    """The policy prior, AlphaZero-style: ``rounds`` rounds of search self-play,
    each fitting the policy to the teacher's moves (``target="move"``) or root visit
    fractions (``"visits"``) of every round so far; from the
    second round on, the teacher searches with the previous round's policy as its prior
    (``prior_from=model``).  Round r plays the games dealt from ``seed + r * games``.  Writes
    ``DIR/<game_id>.policy.npz`` (:mod:`krazy_core.search.policy_model`) and
    ``DIR/<game_id>.policy.json`` (the report); returns the report."""
    w0 = time.perf_counter()
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{game_id}.policy.npz")
    data: List[tuple] = []
    rounds_report = []
    P: Dict[str, Any] = {}
    for r in range(rounds):
        bot = teacher if r == 0 else f"{teacher}:prior_from=model:policy_model={path}"
        t0 = time.perf_counter()
        c0 = time.process_time()
        x, m, t, g = search_selfplay(game_id, bot, games, seed + r * games, players, workers, log, target)
        data.append((x, m, t, g + r * games))
        t_play = time.perf_counter() - t0
        X, Mk, T, G = (np.concatenate([d[i] for d in data]) for i in range(4))
        val = (G % 10) == 9
        c1 = time.process_time()
        P = fit_policy(X[~val], Mk[~val], T[~val], hidden=hidden, epochs=epochs, seed=seed + r, log=log)
        t_fit = time.process_time() - c1
        pv = _masked_softmax(policy_logits_numpy(P, X[val]).astype(np.float64), Mk[val])
        uniform = np.where(Mk[val], 1.0 / Mk[val].sum(1, keepdims=True), 0.0)
        rep = {"round": r + 1, "teacher": bot.replace(path, os.path.basename(path)), "decisions": int(len(x)),
               "train_decisions": int((~val).sum()), "val_decisions": int(val.sum()),
               "val_cross_entropy": policy_loss(P, X[val], Mk[val], T[val]),
               "val_cross_entropy_uniform": float(-np.mean(np.sum(np.where(T[val] > 0, T[val] * np.log(
                   np.maximum(uniform, 1e-12)), 0.0), 1))),
               "val_top_agrees": float(np.mean(np.argmax(pv, 1) == np.argmax(T[val], 1))),
               "wall_seconds_selfplay": round(t_play, 1), "cpu_seconds_fit": round(t_fit, 1)}
        rounds_report.append(rep)
        log(json.dumps(rep))
        info = json.dumps({"game": game_id, "teacher": teacher, "target": target, "games": games, "seed": seed,
                           "players": list(players), "rounds": r + 1, "hidden": hidden, "epochs": epochs})
        save_policy_model(path, P["w1"], P["b1"], P["w2"], P["b2"], info)
    report = {"game": game_id, "kind": "policy", "teacher": teacher, "target": target, "games": games,
              "seed": seed,
              "players": list(players), "rounds": rounds, "hidden": hidden, "epochs": epochs,
              "workers": workers, "per_round": rounds_report, "model_bytes": os.path.getsize(path),
              "wall_seconds": round(time.perf_counter() - w0, 1), "krazy_core": krazy_core.__version__}
    with open(os.path.join(out, f"{game_id}.policy.json"), "w") as f:
        json.dump(report, f, indent=1)
    log(json.dumps({k: v for k, v in report.items() if k != "per_round"}))
    return report


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m krazy_core.learn.train",
        description="Train a game's value model (default) or, with --policy, its policy prior, from "
                    "seeded self-play; writes DIR/GAME.value.npz or DIR/GAME.policy.npz and a .json "
                    "report (krazy_core/models/README.md has the shipped models' commands).")
    ap.add_argument("game", help="game id (a game with an observation tensor and a heuristic)")
    ap.add_argument("--out", required=True, help="folder for GAME.value.npz (or GAME.policy.npz) and its .json")
    ap.add_argument("--games", type=int, help="self-play games (a round, with --policy); default 20000, "
                                              "with --policy 2000")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--players", default="2", help="table sizes, comma separated, cycled (e.g. 2,2,4)")
    ap.add_argument("--eps", type=float, default=0.3, help="value: largest chance of a random move")
    ap.add_argument("--hidden", type=int, help="hidden units; default 32, with --policy 64")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--every", type=int, default=1, help="value: record every k-th decision")
    ap.add_argument("--policy", action="store_true",
                    help="train the policy prior (GAME.policy.npz) from search self-play instead of "
                         "the value model")
    ap.add_argument("--teacher", default="ismcts:1000",
                    help="with --policy: the searching bot whose moves (or root visits) are the targets")
    ap.add_argument("--target", default="move", choices=("move", "visits"),
                    help="with --policy: fit the teacher's moves or its root visit fractions")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --policy: self-play rounds; from the second on the teacher searches "
                         "with the last round's policy as its prior")
    ap.add_argument("--workers", type=int,
                    help="with --policy: local processes playing the self-play games (default 1, or the "
                         "shipped report's with --shipped; the result is the same for any number)")
    ap.add_argument("--shipped", action="store_true",
                    help="take every setting from the shipped model's report (krazy_core/models/"
                         "GAME.value.json, or GAME.policy.json with --policy): rebuilds that model")
    a = ap.parse_args(argv)
    if a.shipped:
        kind = "policy" if a.policy else "value"
        rep = os.path.join(value_model.MODELS_DIR, f"{a.game}.{kind}.json")
        if not os.path.exists(rep):
            ap.error(f"--shipped{' --policy' if a.policy else ''}: no shipped {kind} report for {a.game!r} ({rep})")
        with open(rep) as f:
            r = json.load(f)
        a.games, a.seed, a.hidden, a.epochs = r["games"], r["seed"], r["hidden"], r["epochs"]
        a.players = ",".join(str(p) for p in r["players"])
        if a.policy:
            a.teacher, a.rounds, a.target = r["teacher"], r["rounds"], r["target"]
            a.workers = a.workers or r.get("workers", 1)
        else:
            a.eps, a.every = r["eps"], r["every"]
    a.games = a.games if a.games is not None else (2000 if a.policy else 20000)
    a.hidden = a.hidden if a.hidden is not None else (64 if a.policy else 32)
    a.workers = a.workers if a.workers is not None else 1
    if a.games < 10 or a.hidden < 1 or a.epochs < 1 or a.every < 1 or not 0 <= a.eps <= 1:
        ap.error("need --games >= 10, --hidden >= 1, --epochs >= 1, --every >= 1, 0 <= --eps <= 1")
    try:
        players = tuple(int(p) for p in a.players.split(","))
        for n in sorted(set(players)):
            krazy_core.make(a.game, num_players=n)
    except ValueError as e:
        ap.error(f"{a.game} --players {a.players}: {e}")
    except krazy_core.errors.KrazyError as e:
        ap.error(str(e))
    if os.path.exists(a.out) and not os.path.isdir(a.out):
        ap.error(f"--out {a.out} is a file, not a folder")
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    if a.policy:
        if a.rounds < 1 or not 1 <= a.workers <= 256:
            ap.error("need --rounds >= 1 and --workers in 1..256")
        try:
            make_bot(a.teacher, seed=0).check_game(krazy_core.make(a.game, num_players=players[0]))
        except krazy_core.errors.KrazyError as e:
            ap.error(f"--teacher {a.teacher}: {e}")
        if not a.teacher.lower().startswith("ismcts") or "prior" in a.teacher:
            ap.error(f"--teacher {a.teacher}: the teacher is a search bot word (ismcts:N[:OPTION=VALUE]) "
                     f"whose prior the rounds set (no prior, prior_from or policy_model in it)")
        train_policy(a.game, a.out, teacher=a.teacher, games=a.games, seed=a.seed, players=players,
                     rounds=a.rounds, hidden=a.hidden, epochs=a.epochs, workers=a.workers, target=a.target,
                     log=log)
        return 0
    train(a.game, a.out, games=a.games, seed=a.seed, players=players, eps=a.eps, hidden=a.hidden,
          epochs=a.epochs, every=a.every, log=log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
