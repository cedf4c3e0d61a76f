#!/usr/bin/env python
"""Serialization speed, two builds side by side in one run (issue 12 item 9): per game, a
state after 60 random actions (seeded: the same state in both builds), timed for

- ``to_json()`` and ``game.state_from_json(text)``,
- ``to_bytes()`` and ``game.state_from_bytes(b)`` (new build only: the old has none),
- ``pickle.loads(pickle.dumps(state))`` (the old build pickles through JSON, the new
  through bytes).

    python benches/serialize_speed.py [OLD_TREE] [NEW_TREE] [--rounds 4]

A tree is a source checkout with its compiled modules built in place (default: /work/main
and this checkout).  Each round runs one fresh process per tree, in the order old, new,
new, old, ... so machine load hits both; a figure is the median of every sample, in
microseconds per call.  The table gives the old and new JSON paths, the bytes path, and
the ratios: JSON old / new (the JSON speed-up) and new JSON / bytes (how much faster the
bytes are than the JSON, each way).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r'''
import json, pickle, random, sys, time
import krazy_core
GAMES = ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"]

def state(game_id):
    g = krazy_core.make(game_id)
    s = g.new_initial_state(seed=1)
    rng = random.Random(1)
    for _ in range(60):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s

def per_call(fn, budget=0.15):
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t
        if dt > budget:
            return dt / n * 1e6
        n *= 2

out = {}
for gid in GAMES:
    s = state(gid)
    g = s.game
    text = s.to_json()
    row = {"events": s.num_events, "json_chars": len(text),
           "to_json": per_call(s.to_json), "from_json": per_call(lambda: g.state_from_json(text)),
           "pickle": per_call(lambda: pickle.loads(pickle.dumps(s)))}
    if hasattr(s, "to_bytes"):
        b = s.to_bytes()
        row.update({"bytes": len(b), "to_bytes": per_call(s.to_bytes),
                    "from_bytes": per_call(lambda: g.state_from_bytes(b))})
    out[gid] = row
print(json.dumps(out))
'''


def run(tree):
    env = dict(os.environ, PYTHONPATH=tree)
    r = subprocess.run([sys.executable, "-c", WORKER], env=env, cwd=tree, capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)


def main(argv=None):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", nargs="?", default="/work/main")
    ap.add_argument("new", nargs="?", default=here)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args(argv)
    samples = {"old": {}, "new": {}}
    print(f"load average at start: {os.getloadavg()}", flush=True)
    for r in range(args.rounds):
        for which in (("old", "new") if r % 2 == 0 else ("new", "old")):
            for gid, row in run(getattr(args, which)).items():
                for k, v in row.items():
                    samples[which].setdefault(gid, {}).setdefault(k, []).append(v)
        print(f"round {r + 1} done", flush=True)
    print(f"load average at end: {os.getloadavg()}\n")
    med = {w: {g: {k: statistics.median(v) for k, v in row.items()} for g, row in d.items()}
           for w, d in samples.items()}
    print("| game (60 random actions) | events | to_json old | to_json new | from_json old | from_json new "
          "| to_bytes | from_bytes | JSON old/new (to, from) | new JSON / bytes (to, from) | pickle round trip old -> new |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g, n in med["new"].items():
        o = med["old"][g]
        print(f"| {g} | {n['events']:.0f} | {o['to_json']:.0f} µs | {n['to_json']:.0f} µs | "
              f"{o['from_json']:.0f} µs | {n['from_json']:.0f} µs | {n['to_bytes']:.2f} µs | "
              f"{n['from_bytes']:.2f} µs | {o['to_json'] / n['to_json']:.2f}x, {o['from_json'] / n['from_json']:.2f}x | "
              f"{n['to_json'] / n['to_bytes']:.0f}x, {n['from_json'] / n['from_bytes']:.0f}x | "
              f"{o['pickle']:.0f} -> {n['pickle']:.1f} µs |")


if __name__ == "__main__":
    main()
