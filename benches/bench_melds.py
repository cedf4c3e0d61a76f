"""The meld solver (krazy_core/games/melds.pyx) against the pure-Python reference
(tests/melds/meld_reference.py), on the same random 14-card hands with 0-6 wilds.

    python -m pytest benches/bench_melds.py --benchmark-columns=median,ops,rounds

For the median / worst time per hand over 10,000 hands and the ratio, run
``python benches/melds_vs_reference.py``.
"""
import importlib.util
import pathlib
import random

import pytest

melds = pytest.importorskip("krazy_core.games.melds")

_ref_path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "melds" / "meld_reference.py"
_spec = importlib.util.spec_from_file_location("meld_reference", _ref_path)
REF = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REF)


def random_hands(n_hands, size=14, seed=1):
    """``[(hand, wild_rank)]``: ``size`` cards of the 116 (KR-1) with 0..6 wilds each."""
    rng = random.Random(seed)
    out = []
    for _ in range(n_hands):
        w = rng.randint(3, 13)
        k = rng.randint(0, 6)
        naturals = [(s << 4) | r for s in range(5) for r in range(3, 14) if r != w] * 2
        wilds = [0x50] * 6 + [(s << 4) | w for s in range(5)] * 2
        out.append((rng.sample(naturals, size - k) + rng.sample(wilds, k), w))
    return out


HANDS = random_hands(200)


def test_solver_deadwood_200_hands(benchmark):
    def run():
        for h, w in HANDS:
            melds.deadwood_points(h, w)
    benchmark(run)


def test_solver_going_out_200_hands(benchmark):
    def run():
        for h, w in HANDS:
            melds.going_out_discards(h, w, as_codes=True)
    benchmark(run)


def test_reference_deadwood_200_hands(benchmark):
    def run():
        for h, w in HANDS:
            REF.best_points(h, w)
    benchmark.pedantic(run, rounds=3, iterations=1)
