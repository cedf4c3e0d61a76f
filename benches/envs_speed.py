"""Env steps per second, side by side in one run (issue 14, item 5): our VectorEnv
(1024 envs, 1 and 2 threads) against Pgx's ``sparrow_mahjong`` (``jit(vmap(step))`` over
1024 envs on this CPU), RLCard's ``env.step`` (uno, gin-rummy) and our own PettingZoo env
in a Python loop.

    pip install '.[rl]' rlcard pgx jax
    python benches/envs_speed.py --repeats 5 --seconds 1.0 --json benches/envs_speed.json
    python benches/envs_speed.py --curve krazy-kings --threads 1,2,4 --repeats 5   # scaling

``--curve`` draws the actions with ``env.sample_legal()`` (in C); the other rows with numpy.

Every row times the env's step call only, and every step returns the next observation and
legal-action mask (RLCard: ``state["obs"]`` and ``legal_actions``; Pgx: ``observation`` and
``legal_action_mask``); the random legal actions are chosen outside the clock in every
row.  A step is one decision of one seat: our VectorEnv runs in all-seats mode
(``seat="all"``), as RLCard and Pgx are driven, so one VectorEnv step of N envs is N
decisions; a second set of rows runs the learner mode (one learner, the other seats played
in C by random opponents; a learner step is then several decisions, given too).  Finished
games are dealt again inside the step (VectorEnv, Pgx's ``auto_reset``) or by ``reset()``
inside the timed loop (RLCard, PettingZoo).  Rows are interleaved repeat by repeat so
machine noise hits every row alike; the table gives medians and ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np

N_ENVS = 1024


def _legal_sample_np(mask, rng):
    # (1 + U[0, 1)) * mask: a legal action's key is never 0 (float32 U draws 0.0 once in 2**24)
    u = (rng.random(mask.shape, dtype=np.float32) + np.float32(1.0)) * mask
    return np.argmax(u, axis=1)


def bench_vector(game_id, threads, seconds, seat="all", c_sample=False):
    """Steps/s and decisions/s of ``env.step`` alone; the actions are drawn between steps by
    numpy over the mask, or (``c_sample``) by ``env.sample_legal()`` in C, which does not
    stream a 1024 x A random array through the cache between steps (the thread curve)."""
    from krazy_core.vector import VectorEnv
    env = VectorEnv(game_id, N_ENVS, seat=seat, opponents="random", threads=threads, seed=1)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    if c_sample:
        def _legal_sample(mask, rng):
            return env.sample_legal()
    else:
        _legal_sample = _legal_sample_np
    acts = _legal_sample(obs["action_mask"], rng)
    steps = 0
    clock = 0.0
    d0 = env.decisions
    while clock < seconds:
        t = time.perf_counter()
        obs, r, te, tr, info = env.step(acts)
        clock += time.perf_counter() - t
        steps += N_ENVS
        acts = _legal_sample(obs["action_mask"], rng)
    decisions = env.decisions - d0
    env.close()
    return steps / clock, decisions / clock


def bench_pettingzoo(game_id, seconds):
    from krazy_core.envs.pettingzoo import env as make_env
    e = make_env(game_id)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    clock = 0.0
    while clock < seconds:
        obs, r, term, trunc, info = e.last()
        if term or trunc:
            t = time.perf_counter()
            e.reset()
            clock += time.perf_counter() - t
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        t = time.perf_counter()
        e.step(a)
        clock += time.perf_counter() - t
        steps += 1
    return steps / clock, steps / clock


def bench_rlcard(name, seconds):
    import rlcard
    env = rlcard.make(name, config={"seed": 0})
    rng = np.random.default_rng(0)
    state, player = env.reset()
    steps = 0
    clock = 0.0
    while clock < seconds:
        legal = list(state["legal_actions"].keys())
        a = legal[int(rng.integers(len(legal)))]
        t = time.perf_counter()
        state, player = env.step(a)
        if env.is_over():
            state, player = env.reset()
        clock += time.perf_counter() - t
        steps += 1
    return steps / clock, steps / clock


_PGX = {}


def bench_pgx(seconds):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset
    if not _PGX:
        env = pgx.make("sparrow_mahjong")
        init = jax.jit(jax.vmap(env.init))
        step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

        @jax.jit
        def choose(key, mask):
            logits = jnp.where(mask, 0.0, -jnp.inf)
            return jax.random.categorical(key, logits, axis=-1)

        key = jax.random.PRNGKey(0)
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, N_ENVS))
        _PGX.update(step=step, choose=choose, state=state, key=key)
        # compile outside the clock
        key, k1, k2 = jax.random.split(key, 3)
        a = choose(k1, state.legal_action_mask)
        s2 = step(state, a, jax.random.split(k2, N_ENVS))
        jax.block_until_ready(s2.observation)
    step, choose = _PGX["step"], _PGX["choose"]
    state, key = _PGX["state"], _PGX["key"]
    steps = 0
    clock = 0.0
    while clock < seconds:
        key, k1, k2 = jax.random.split(key, 3)
        a = jax.block_until_ready(choose(k1, state.legal_action_mask))
        keys = jax.block_until_ready(jax.random.split(k2, N_ENVS))
        t = time.perf_counter()
        state = step(state, a, keys)
        jax.block_until_ready((state.observation, state.legal_action_mask))
        clock += time.perf_counter() - t
        steps += N_ENVS
    _PGX.update(state=state, key=key)
    return steps / clock, steps / clock


GAMES = ("krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert")


def rows():
    out = []
    for g in GAMES:
        for th in (1, 2):
            out.append((f"VectorEnv {g} all seats, 1024 envs, {th} thread{'s' if th > 1 else ''}",
                        lambda s, g=g, th=th: bench_vector(g, th, s)))
    for g in GAMES:
        out.append((f"VectorEnv {g} learner vs random, 1024 envs, 2 threads",
                    lambda s, g=g: bench_vector(g, 2, s, seat=0)))
    for g in GAMES:
        out.append((f"PettingZoo {g} (ours), Python loop", lambda s, g=g: bench_pettingzoo(g, s)))
    out.append(("RLCard uno env.step", lambda s: bench_rlcard("uno", s)))
    out.append(("RLCard gin-rummy env.step", lambda s: bench_rlcard("gin-rummy", s)))
    out.append(("Pgx sparrow_mahjong jit(vmap(step)), 1024 envs (CPU)", bench_pgx))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="clock time per row per repeat")
    ap.add_argument("--json", help="write the medians here")
    ap.add_argument("--curve", metavar="GAME", help="only the thread-scaling curve of GAME's "
                    "VectorEnv (all seats, 1024 envs) at --threads")
    ap.add_argument("--threads", default="1,2,4", help="thread counts of --curve (default 1,2,4)")
    args = ap.parse_args(argv)
    table = rows()
    if args.curve:
        table = [(f"VectorEnv {args.curve} all seats, 1024 envs, {th} thread{'s' if th > 1 else ''}",
                  lambda s, th=th: bench_vector(args.curve, th, s, c_sample=True))
                 for th in map(int, args.threads.split(","))]
    results = {name: [] for name, _ in table}
    skipped = {}
    for rep in range(args.repeats):
        for name, fn in table:
            if name in skipped:
                continue
            try:
                results[name].append(fn(args.seconds))
            except ImportError as e:
                skipped[name] = f"not installed: {e}"
        print(f"repeat {rep + 1}/{args.repeats} done", file=sys.stderr, flush=True)
    med = {n: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
           for n, v in results.items() if v}
    peer = {k: med.get(k, (float("nan"),))[0] for k in
            ("RLCard uno env.step", "RLCard gin-rummy env.step",
             "Pgx sparrow_mahjong jit(vmap(step)), 1024 envs (CPU)")}
    print("| row | steps/s | decisions/s | × RLCard uno | × RLCard gin-rummy | × Pgx |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, _ in table:
        if name not in med:
            print(f"| {name} | {skipped.get(name, 'failed')} | | | | |")
            continue
        s, d = med[name]
        ratios = [d / peer[k] for k in peer]
        print(f"| {name} | {s:,.0f} | {d:,.0f} | " + " | ".join(f"{x:.1f}×" for x in ratios) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                       "repeats": args.repeats, "seconds": args.seconds,
                       "medians": {n: {"steps_per_s": v[0], "decisions_per_s": v[1]} for n, v in med.items()},
                       "runs": results, "skipped": skipped}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
