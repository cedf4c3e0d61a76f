#!/usr/bin/env python
"""Issue 19 item 7: the worst hands we could construct for each public meld helper, old build
against new, side by side in one run (each call in a fresh subprocess of the tree, with a
time cap; a capped call reports ``> cap``)::

    python benches/meld_worst_cases.py OLD_TREE NEW_TREE [--cap 60]

Each TREE is a checkout with its in-place build (``python setup.py build_ext --inplace``).
Hands: all-wild 2s for ``melds.crazy_best_arrangement`` (the 2s' natural / wild split was the
exponential part), two long suits with wilds for ``contract_rummy.best_arrangement`` round 7
(three runs: many lay-downs near the best) and round 6, and the same hands for
``contract_options`` with and without ``limit``, and the going-down check (CR-10, the shared
solver's ``kz_contract_feasible``; the mean of 1000 calls, each through the Python face, which
builds a State) on a 32-card hand where two runs always fit and a third never.  Prints a
table with the ratio old / new.
"""
import argparse
import json
import os
import subprocess
import sys
import time

CASES = []
for n in (16, 20, 24, 28, 32):
    CASES.append((f"melds.crazy_best_arrangement {n} twos", "melds", "crazy",
                  ["2S", "2H", "2D", "2C"] * (n // 4)))
for n in (20, 24):
    CASES.append((f"melds.crazy_best_arrangement {n} twos+JK, contract (0,3)", "melds", "crazy3",
                  (["2S", "2H", "2D", "2C"] * 8)[:n - 4] + ["JK"] * 4))


def _two_suits(n):
    suits = "SH"
    cards = [f"{r}{s}" for s in suits for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    return cards[:n - 2] + ["JK", "2C"]


for n in (16, 18, 20, 24, 28):
    CASES.append((f"contract_rummy.best_arrangement round 7, {n} cards", "cr", "best7", _two_suits(n)))
def _three_suits_41():
    """A..K of three suits, a Joker and 2C: 41 cards, the most a random game deals."""
    return [f"{r}{s}" for s in "SHD" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]] + ["JK", "2C"]


def _two_suits_twice(n):
    """Two suits twice over, two Jokers, 2C and 2D (n <= 56)."""
    cards = [f"{r}{s}" for s in "SH" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]] * 2
    return cards[:n - 4] + ["JK", "JK", "2C", "2D"]


CASES.append(("contract_rummy.best_arrangement round 7, 41 cards (three suits, JK, 2C)", "cr", "best7",
              _three_suits_41()))
CASES.append(("contract_rummy.best_arrangement round 7, 41 cards (two suits twice, 4 wilds)", "cr", "best7",
              _two_suits_twice(41)))
for r in (6, 5):
    CASES.append((f"contract_rummy.best_arrangement round {r}, 32 cards (two suits twice, 4 wilds)", "cr",
                  f"best{r}", _two_suits_twice(32)))
# issue 19 item 7, per round and option: the books DP (rounds 1, 4), the runs DP with
# ace_wrap (rounds 3, 6, 7), and the searches left (overlapping_runs, round 5)
_BOOKY_41 = ["10S", "JK", "6H", "AS", "2C", "AS", "JK", "2H", "10S", "6H", "2C", "2S", "10D", "6S", "AC",
             "AD", "10C", "3S", "JK", "AD", "10D", "2S", "10H", "6C", "2D", "AC", "3D", "6D", "10H", "3S",
             "2H", "2D", "3H", "JK", "AH", "3C", "AH", "3H", "3D", "6D", "6C"]   # 4 ranks x 8, 9 wilds
for r in (4, 1):
    CASES.append((f"contract_rummy.best_arrangement round {r} (books), 41 cards (4 ranks x 8, 9 wilds)", "cr",
                  f"best{r}", _BOOKY_41))
for r, opt in ((3, "w"), (7, "w"), (6, "w"), (7, "o"), (3, "o")):
    name = "ace_wrap" if opt == "w" else "overlapping_runs"
    CASES.append((f"contract_rummy.best_arrangement round {r} {name}, 41 cards (three suits, JK, 2C)", "cr",
                  f"best{r}{opt}", _three_suits_41()))
CASES.append(("contract_rummy.best_arrangement round 6 ace_wrap, 32 cards (two suits twice, 4 wilds)", "cr",
              "best6w", _two_suits_twice(32)))
CASES.append(("contract_rummy.best_arrangement round 5 ace_wrap, 32 cards (two suits twice, 4 wilds)", "cr",
              "best5w", _two_suits_twice(32)))
# issue 19 item 7, third part: the mixed rounds (books and runs) by the book sets and the runs DP
_WILD_RANKS_41 = ["JK"] * 4 + ["2S", "2H", "2D", "2C"] + [f"{r}{s}" for r in "59KA" for s in "SHDC"] * 2 + ["7S"]
_EIGHT_RANKS_41 = (["JK"] * 4 + ["2S", "2H", "2D", "2C"] +
                   [f"{r}{s}" for r in ["3", "4", "5", "6", "7", "8", "9", "10"] for s in "SHDC"] + ["KS"])
for r in (5, 6, 2):
    for opt, name in (("", ""), ("w", " ace_wrap")):
        CASES.append((f"contract_rummy.best_arrangement round {r}{name}, 41 cards (4 ranks twice, 8 wilds)", "cr",
                      f"best{r}{opt}", _WILD_RANKS_41))
        CASES.append((f"contract_rummy.best_arrangement round {r}{name}, 41 cards (8 ranks x 4 suits, 8 wilds)",
                      "cr", f"best{r}{opt}", _EIGHT_RANKS_41))
        CASES.append((f"contract_rummy.best_arrangement round {r}{name}, 41 cards (4 ranks x 8, 9 wilds)", "cr",
                      f"best{r}{opt}", _BOOKY_41))
# issue 19 item 7, fourth part: overlapping_runs by the overlap runs DP (no ace_wrap); with
# ace_wrap (rounds 3, 6, 7) the branch and bound stays
for r in (3, 7, 6):
    CASES.append((f"contract_rummy.best_arrangement round {r} overlapping_runs, 41 cards (two suits twice, 4 wilds)",
                   "cr", f"best{r}o", _two_suits_twice(41)))
CASES.append(("contract_rummy.best_arrangement round 6 overlapping_runs, 41 cards (three suits, JK, 2C)", "cr",
              "best6o", _three_suits_41()))
for r in (5, 6):
    CASES.append((f"contract_rummy.best_arrangement round {r} overlapping_runs, 41 cards (4 ranks twice, 8 wilds)",
                   "cr", f"best{r}o", _WILD_RANKS_41))
    CASES.append((f"contract_rummy.best_arrangement round {r} overlapping_runs, 41 cards (8 ranks x 4 suits, 8 wilds)",
                   "cr", f"best{r}o", _EIGHT_RANKS_41))
for n in (17, 20, 24):
    CASES.append((f"contract_rummy.best_arrangement round 7 ace_wrap overlapping_runs, {n} cards (two suits twice)",
                   "cr", "best7wo", _two_suits_twice(n)))
for r in (3, 7):
    CASES.append((f"contract_rummy.best_arrangement round {r} ace_wrap overlapping_runs, 41 cards (three suits, JK, 2C)",
                   "cr", f"best{r}wo", _three_suits_41()))
# issue 19 item 7, last part: overlapping_runs with ace_wrap by the overlap-with-wrap runs DP
CASES.append(("contract_rummy.best_arrangement round 6 ace_wrap overlapping_runs, 41 cards (three suits, JK, 2C)",
              "cr", "best6wo", _three_suits_41()))
for r in (3, 7, 6):
    CASES.append((f"contract_rummy.best_arrangement round {r} ace_wrap overlapping_runs, 41 cards (two suits twice, 4 wilds)",
                   "cr", f"best{r}wo", _two_suits_twice(41)))
# melds.crazy_best_arrangement's contract mode on the hands above (32 cards: its cap)
for c in ("0,3", "0,2", "1,2", "2,1"):
    CASES.append((f"melds.crazy_best_arrangement 32 cards (two suits twice, 4 wilds), contract ({c})", "melds",
                  f"crazyc{c}", _two_suits_twice(32)))
CASES.append(("melds.crazy_best_arrangement 32 cards (two suits twice, 4 wilds), contract (0,3), ace_wrap", "melds",
              "crazyc0,3w", _two_suits_twice(32)))
# crazy_best_arrangement's contract mode: a round's contract on a hand within CR-1 is the
# optimizer's lay-down (no search, no step budget); the slowest random hand found for the old
# search (29 cards of one suit, round 6), and the cases only the search answers: contracts
# that are no round's, hands beyond CR-1 (3 of a card: at most 22 cards in contract mode)
CASES.append(("melds.crazy_best_arrangement 32 cards (two suits twice, 4 wilds), contract (0,2), ace_wrap", "melds",
              "crazyc0,2w", _two_suits_twice(32)))
CASES.append(("melds.crazy_best_arrangement 29 cards (a random one-suit hand), contract (1,2), ace_wrap", "melds",
              "crazyc1,2w", [4, 4, 6, 12, 10, 5, 11, 7, 1, 9, 6, 13, 1, 80, 2, 10, 3, 80, 3, 80, 8, 9, 12, 5, 7, 8,
                             2, 11, 80]))
for c in ("0,3", "0,2", "1,2"):
    CASES.append((f"melds.crazy_best_arrangement 19 cards (two suits twice, 4 wilds), contract ({c}), ace_wrap",
                   "melds", f"crazyc{c}w", _two_suits_twice(19)))
# hunted by mutation for the old search alone (19 cards)
CASES.append(("melds.crazy_best_arrangement 19 cards hunted (no lay-down), contract (0,3), ace_wrap", "melds",
              "crazyc0,3w", [1, 2, 1, 4, 3, 34, 7, 8, 10, 5, 11, 12, 13, 50, 18, 2, 6, 50, 9]))
CASES.append(("melds.crazy_best_arrangement 19 cards hunted, contract (0,3), ace_wrap", "melds",
              "crazyc0,3w", [1, 2, 3, 4, 5, 6, 7, 18, 9, 10, 2, 18, 13, 28, 8, 12, 11, 1, 34]))
CASES.append(("melds.crazy_best_arrangement 19 cards hunted, contract (0,2), ace_wrap", "melds",
              "crazyc0,2w", [3, 6, 2, 4, 8, 1, 7, 10, 9, 50, 11, 12, 5, 2, 18, 34, 13, 50, 1]))
CASES.append(("melds.crazy_best_arrangement 13 cards hunted, contract (0,2), ace_wrap", "melds",
              "crazyc0,2w", [2, 1, 3, 4, 5, 6, 18, 1, 18, 12, 13, 2, 34]))
for c in ("0,1", "1,0"):
    CASES.append((f"melds.crazy_best_arrangement 32 cards (two suits twice, 4 wilds), contract ({c}), ace_wrap",
                   "melds", f"crazyc{c}w", _two_suits_twice(32)))


def _spades_thrice(n, wilds):
    """Beyond CR-1: A, 3..K of spades three times over, then Jokers and 2s (``wilds`` of them)."""
    w = (["JK"] * 6 + ["2H", "2D", "2C", "2S"] * 4)[:wilds]
    return ([f"{r}S" for r in ["A", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]] * 3)[:n - wilds] + w


for n in (22, 24, 32):
    CASES.append((f"melds.crazy_best_arrangement {n} cards beyond CR-1 (spades x3, 10 wilds), contract (1,2), "
                  f"ace_wrap", "melds", "crazyc1,2w", _spades_thrice(n, 10)))
CASES.append(("melds.crazy_best_arrangement 32 cards (two suits twice, 4 wilds), contract (0,4)", "melds",
              "crazyc0,4", _two_suits_twice(32)))
for n in (16, 20):
    CASES.append((f"contract_rummy.contract_options round 7, {n} cards", "cr", "opts7", _two_suits(n)))
    CASES.append((f"contract_rummy.contract_options round 7, {n} cards, limit=100", "cr", "opts7lim", _two_suits(n)))



def _spaced_four_jokers():
    """Naturals three positions apart in every suit (A 4 7 10 K; every run needs two wilds),
    a second copy of the spades and of three hearts, and four Jokers (32 cards): two runs
    always fit, a third never -- the going-down check must try every pair of runs."""
    ranks = ["A", "4", "7", "10", "K"]
    nat = [f"{r}{s}" for s in "SHDC" for r in ranks]
    return nat + [f"{r}S" for r in ranks] + ["AH", "4H", "7H"] + ["JK"] * 4


CASES.append(("contract_rummy going-down check (the shared kz_contract_feasible) round 7, 32 cards, no",
              "cr", "down7", _spaced_four_jokers()))
CASES.append(("contract_rummy going-down check round 6, same 32 cards", "cr", "down6", _spaced_four_jokers()))

CHILD = r'''
import json, sys, time
from krazy_core.games import melds as M
from krazy_core.games import contract_rummy as cr
what, hand = sys.argv[1], json.loads(sys.argv[2])
REPEAT = int(sys.argv[3]) if len(sys.argv) > 3 else 1     # --repeat: the least of that many runs
REPS = 1000 if what.startswith("down") else 1   # a fast call: the mean of 1000


def once():
  t = time.perf_counter()
  if what == "crazy":
      r = M.crazy_best_arrangement(hand)[2]
  elif what.startswith("crazyc"):                    # crazyc<books>,<runs>[w: ace_wrap]
      c = tuple(int(x) for x in what[6:].rstrip("w").split(","))
      r = M.crazy_best_arrangement(hand, contract=c, ace_wrap=what.endswith("w"))
      r = None if r is None else r[2]
  elif what == "crazy3":
      r = M.crazy_best_arrangement(hand, contract=(0, 3))
      r = None if r is None else r[2]
  elif what.startswith("best"):                       # best<round>[w: ace_wrap][o: overlapping_runs]
      r = cr.best_arrangement(hand, int(what[4]), ace_wrap="w" in what[5:], overlapping_runs="o" in what[5:])
      r = None if r is None else r[2]
  elif what in ("down7", "down6"):
      f = getattr(cr, "_can_go_down_hand", None)
      if f is None:                                   # the package layout: the face is cr.state
          from krazy_core.games.contract_rummy import state as _crs
          f = _crs._can_go_down_hand
      t = time.perf_counter()
      for _ in range(REPS):
          r = f(hand, int(what[-1]))
  elif what == "opts7":
      r = len(cr.contract_options(hand, 7))
  else:
      try:
          r = len(cr.contract_options(hand, 7, limit=100))
      except TypeError:
          r = "no limit"
  return (time.perf_counter() - t) / REPS, r


best = None
for _ in range(REPEAT):
    dt, r = once()
    best = dt if best is None else min(best, dt)
print(json.dumps([best, r]))
'''


def run(tree, what, hand, cap, repeat=1):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    try:
        p = subprocess.run([sys.executable, "-c", CHILD, what, json.dumps(hand), str(repeat)], env=env, cwd="/",
                           capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None, None
    if p.returncode != 0:
        return float("nan"), p.stderr.strip().splitlines()[-1]
    return json.loads(p.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--cap", type=float, default=60.0, help="seconds per call (default 60)")
    ap.add_argument("--match", default="", help="only the rows whose name holds this text (default: all)")
    ap.add_argument("--after", type=int, default=0, help="only the rows from this index on (0-based)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="calls per row in its subprocess, the least time reported (default 1: the first call)")
    a = ap.parse_args(argv)
    print(f"| helper, hand | old s | new s | old / new | answer old / new |")
    print(f"|---|---:|---:|---:|---|")
    for name, _, what, hand in CASES[a.after:]:
        if a.match not in name:
            continue
        to, ro = run(a.old, what, hand, a.cap, a.repeat)
        tn, rn = run(a.new, what, hand, a.cap, a.repeat)
        fo = f"> {a.cap:g}" if to is None else f"{to:.4f}"
        fn = f"> {a.cap:g}" if tn is None else f"{tn:.4f}"
        ratio = "" if to is None or tn is None or tn == 0 or tn != tn or to != to else f"{to / tn:.2f}x"
        if to is None and tn and tn == tn:
            ratio = f"> {a.cap / tn:.0f}x"
        fo, fn = ("raises" if x != x else f for x, f in ((to, fo), (tn, fn)))     # nan: the call raised
        print(f"| {name} | {fo} | {fn} | {ratio} | {ro} / {rn} |", flush=True)


if __name__ == "__main__":
    main()
