"""Writes the data of tests/melds/data/meld_golden.json.gz (gzip the output): the answers of the meld helpers on random hands, as
the build on the path gives them.  Made once from the build before issue 19 item 7's
changes (the exponential solvers), so tests/test_meld_golden.py holds the new ones to the
old answers bit for bit::

    PYTHONPATH=OLD_TREE python tests/melds/make_meld_golden.py tests/melds/data/meld_golden.json

``--crazy-contracts FILE.json.gz`` rewrites only the answers of
``melds.crazy_best_arrangement(contract=...)`` in place, from the build on the path: done
once when the contract mode learnt CR-10's no-join rule (127 of 1,563 answers changed, 98
of them in points: the old ones joined two runs of a suit), and once when it answered a
round's contract with the game's own lay-down (the contract optimizer, no step budget:
473 of 1,557 answers changed, none in points, each now the game's lay-down).  Rows the
contract mode refuses (over 22 cards beyond CR-1: ValueError) keep their recorded answer.
"""
import json
import random
import sys

from krazy_core.games import contract_rummy as cr
from krazy_core.games import melds as M

DECK = [(s << 4) | r for s in range(4) for r in range(1, 14)] * 2 + [0x50] * 4
WILDS = [0x50] * 4 + [(s << 4) | 2 for s in range(4)] * 2


def crazy_cases(rng):
    """(hand, ace_wrap, contract) for melds.crazy_best_arrangement."""
    out = []
    for i in range(3000):
        n = rng.randint(1, 22)
        k = rng.randint(0, min(n, 8))
        suits = rng.choice([1, 2, 4])
        pool = [c for c in DECK if (c & 15) != 2 and c != 0x50 and (c >> 4) < suits]
        hand = rng.sample(pool, min(n - k, len(pool))) + rng.sample(WILDS, min(k, 12))
        contract = None if rng.random() < 0.5 else cr.CONTRACTS[rng.randint(1, 7)]
        out.append((hand, rng.random() < 0.3, contract))
    for n in range(1, 25):                      # all wild: 2s of every suit, Jokers
        for j in range(3):
            hand = [rng.choice(WILDS) for _ in range(n)] if j else [(s << 4) | 2 for s in range(4)] * (n // 4) + [0x12] * (n % 4)
            out.append((hand, j == 2, None))
            out.append((hand, False, cr.CONTRACTS[rng.randint(1, 7)]))
    return out


def contract_cases(rng):
    """(hand, round, ace_wrap, overlapping_runs) for contract_rummy.best_arrangement."""
    out = []
    for i in range(1500):
        n = rng.randint(6, 15)
        suits = rng.choice([1, 2, 4])
        pool = [c for c in DECK if c == 0x50 or (c >> 4) < suits]
        hand = rng.sample(pool, min(n, len(pool)))
        out.append((hand, rng.randint(1, 7), rng.random() < 0.3, rng.random() < 0.2))
    return out


def main(path):
    rng = random.Random(19)
    res = {"crazy": [], "contract": []}
    for hand, wrap, contract in crazy_cases(rng):
        got = M.crazy_best_arrangement(hand, ace_wrap=wrap, contract=contract, as_codes=True)
        res["crazy"].append([hand, wrap, contract, got])
    for hand, rnd, wrap, ov in contract_cases(rng):
        got = cr.best_arrangement(hand, rnd, ace_wrap=wrap, overlapping_runs=ov, as_codes=True)
        opts = cr.contract_options(hand, rnd, ace_wrap=wrap, overlapping_runs=ov)
        res["contract"].append([hand, rnd, wrap, ov, got, len(opts), opts[:3]])
    with open(path, "w") as f:
        json.dump(res, f, separators=(",", ":"))


def refresh_crazy_contracts(path):
    import gzip
    with gzip.open(path, "rt") as f:
        res = json.load(f)
    for row in res["crazy"]:
        hand, wrap, contract, _ = row
        if contract:
            try:
                got = M.crazy_best_arrangement(hand, ace_wrap=wrap, contract=tuple(contract), as_codes=True)
            except ValueError:
                continue
            row[3] = json.loads(json.dumps(got))
    with gzip.open(path, "wt") as f:
        json.dump(res, f, separators=(",", ":"))


if __name__ == "__main__":
    if sys.argv[1] == "--crazy-contracts":
        refresh_crazy_contracts(sys.argv[2])
    else:
        main(sys.argv[1])
