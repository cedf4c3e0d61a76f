#!/usr/bin/env python
"""Two builds of krazy_core side by side in one run: the speed rows of
``benches/compare_peers.py`` (our side), each measured in a fresh process for the old tree and
the new one, interleaved (old, new, new, old, ...) so machine load hits both.

    python benches/old_vs_new.py OLD_TREE NEW_TREE [--repeats 5] [--seconds 0.5]

A tree is a source checkout with its compiled modules built in place.  Prints the median rate
of each side per row and the ratio new / old (1.00 = unchanged).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

WORKER = r'''
import random, sys, time
import krazy_core
from krazy_core._state import simulate_random
row, seconds = sys.argv[1], float(sys.argv[2])

def timed(fn, n):
    t = time.perf_counter(); done = fn(n); return done / (time.perf_counter() - t)

def calibrate(fn, n=1):
    while True:
        t = time.perf_counter(); fn(n); dt = time.perf_counter() - t
        if dt >= seconds / 4:
            return max(1, int(n * seconds / dt))
        n *= 4

if row == "api":
    g = krazy_core.make("krazy-kings", num_players=4)
    def fn(n):
        rng = random.Random(1); d = 0; s = g.new_initial_state(seed=1); k = 1
        while d < n:
            if s.is_terminal():
                k += 1; s = g.new_initial_state(seed=k)
            s.apply_action(rng.choice(s.legal_actions())); d += 1
        return d
elif row.startswith("incore:"):
    g = krazy_core.make(row.split(":")[1], num_players=4)
    def fn(n):
        return simulate_random(g, n, 7)["decisions"]
elif row == "clone":
    s = krazy_core.make("krazy-kings", num_players=4).new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(20):
        s.apply_action(rng.choice(s.legal_actions()))
    def fn(n):
        c = s.clone
        for _ in range(n):
            c()
        return n
elif row.startswith("ismcts:"):
    from krazy_core.search.ismcts import search
    gid = row.split(":")[1]
    s = krazy_core.make(gid, num_players=4).new_initial_state(seed=4)
    rng = random.Random(4)
    for _ in range(20):
        s.apply_action(rng.choice(s.legal_actions()))
    def fn(n):
        return search(s, iterations=n, seed=5, rollout="random").iterations
elif row == "json":
    s = krazy_core.make("contract-rummy", num_players=4).new_initial_state(seed=6)
    rng = random.Random(6)
    for _ in range(60):
        s.apply_action(rng.choice(s.legal_actions()))
    def fn(n):
        for _ in range(n):
            s.game.state_from_json(s.to_json())
        return n
n = calibrate(fn)
print(timed(fn, n))
'''

ROWS = ["api", "incore:krazy-kings", "incore:kings-rummy", "incore:contract-rummy",
        "incore:krass-kariert", "clone", "ismcts:krazy-kings", "ismcts:kings-rummy", "json"]


def measure(tree, row, seconds):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", WORKER, row, str(seconds)], env=env, cwd="/",
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--only", default=None, help="comma-separated rows")
    args = ap.parse_args(argv)
    rows = args.only.split(",") if args.only else ROWS
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'row':24} {'old /s':>14} {'new /s':>14} {'new/old':>8}  paired ratios")
    for row in rows:
        old, new = [], []
        for k in range(args.repeats):
            order = [(args.old, old), (args.new, new)] if k % 2 == 0 else [(args.new, new), (args.old, old)]
            for tree, acc in order:
                acc.append(measure(tree, row, args.seconds))
        mo, mn = statistics.median(old), statistics.median(new)
        paired = " ".join(f"{n / o:.2f}" for o, n in zip(old, new))
        print(f"{row:24} {mo:14,.0f} {mn:14,.0f} {mn / mo:8.3f}  {paired}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
