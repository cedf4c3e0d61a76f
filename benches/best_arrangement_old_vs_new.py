#!/usr/bin/env python
"""Issue 19 item 7: ``contract_rummy.best_arrangement`` of OLD_TREE against NEW_TREE on random
hands of every round (1..7), size and option (ace_wrap, overlapping_runs), biased to few
suits and many wilds (where runs crowd and the join rule bites)::

    python benches/best_arrangement_old_vs_new.py OLD_TREE NEW_TREE [--hands 3000] [--seed 1] [--big]

``--big``: instead, hands of 14..41 cards dealt from the whole 108-card deck (a random
4-player game reaches 41), every round, no options.  Prints the count compared, the differences (none expected), and each tree's total time."""
import argparse
import json
import os
import random
import subprocess
import sys

CHILD = r'''
import json, sys, time
from krazy_core.games import contract_rummy as cr
cases = json.load(open(sys.argv[1]))
out = []
t = time.perf_counter()
for hand, rnd, wrap, ov in cases:
    out.append(cr.best_arrangement(hand, rnd, ace_wrap=wrap, overlapping_runs=ov, as_codes=True))
print(json.dumps([time.perf_counter() - t, out]))
'''

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def hands(n, seed):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        suits = rng.sample("SHDC", rng.choice([1, 2, 2, 3, 4]))
        pool = [f"{r}{s}" for s in suits for r in RANKS] * 2 + ["JK"] * 4 + [f"2{s}" for s in "SHDC"] * 2
        size = rng.randint(3, 18) if i % 10 else rng.randint(18, 21)
        hand = rng.sample(pool, min(size, len(pool)))
        cnt = {}
        hand = [c for c in hand if cnt.setdefault(c, 0) < (4 if c == "JK" else 2) and not cnt.__setitem__(c, cnt[c] + 1)]
        rnd = rng.choice([7, 7, 3, 6, 2, 5, 1, 4])
        out.append((hand, rnd, rng.random() < 0.15, rng.random() < 0.15))
    return out


def big_hands(n, seed):
    rng = random.Random(seed)
    deck = [f"{r}{s}" for s in "SHDC" for r in RANKS] * 2 + ["JK"] * 4
    return [(rng.sample(deck, rng.choice([14, 18, 22, 26, 30, 35, 41])), rng.randint(1, 7), False, False)
            for _ in range(n)]


def run(tree, path):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    p = subprocess.run([sys.executable, "-c", CHILD, path], env=env, cwd="/", capture_output=True,
                       text=True, check=True)
    return json.loads(p.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--big", action="store_true", help="hands of 14..41 cards from the whole deck")
    a = ap.parse_args(argv)
    cases = big_hands(a.hands, a.seed) if a.big else hands(a.hands, a.seed)
    path = f"/tmp/best_arrangement_cases_{os.getpid()}.json"
    with open(path, "w") as f:
        json.dump(cases, f)
    to, ro = run(a.old, path)
    tn, rn = run(a.new, path)
    os.unlink(path)
    bad = [(c, x, y) for c, x, y in zip(cases, ro, rn) if x != y]
    down = sum(x is not None for x in ro)
    print(f"{len(cases)} hands ({down} can go down): {len(bad)} differ; old {to:.2f} s, new {tn:.2f} s")
    for b in bad[:10]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
