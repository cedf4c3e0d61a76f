"""Micro-benchmarks of 4-player Krazy Kings (pytest-benchmark), each beside the same
operation on OpenSpiel's ``crazy_eights(players=4)`` when the peers extra is installed.

    python -m pytest benches/bench_krazy_kings.py --benchmark-group-by=group

Groups: ``playout`` (one random game through the Python API), ``clone``, ``legal_actions``
and ``apply_action`` (on a state 20 random decisions in), ``in-core`` (our nogil playout
loop, 100 games a round; its decisions/s is in ``extra_info``).  For one table of ratios
with interleaved repeats use ``benches/compare_peers.py``.
"""

import itertools
import random

import pytest


def test_playout(benchmark, side, playout):
    """One random game to the end through the Python API; extra_info: decisions per game."""
    name, new_state = side
    benchmark.group = "playout"
    rng = random.Random(7)
    counter = itertools.count()
    totals = []

    def one_game():
        totals.append(playout(new_state(next(counter)), rng))
    benchmark(one_game)
    benchmark.extra_info["decisions_per_game"] = sum(totals) / len(totals)
    assert sum(totals) > 0


def test_clone(benchmark, mid_state):
    benchmark.group = "clone"
    c = benchmark(mid_state.clone)
    assert c.legal_actions() == mid_state.legal_actions()


def test_legal_actions(benchmark, mid_state):
    benchmark.group = "legal_actions"
    legal = benchmark(mid_state.legal_actions)
    assert legal


def test_apply_action(benchmark, mid_state):
    """``apply_action`` of a random legal action on a fresh clone of the mid-game state (the
    clone and the pick are set-up, not timed; one call per round, so timer overhead of
    roughly 0.1 us is included)."""
    benchmark.group = "apply_action"
    rng = random.Random(3)

    def setup():
        s = mid_state.clone()
        return (s, rng.choice(s.legal_actions())), {}

    benchmark.pedantic(lambda s, a: s.apply_action(a), setup=setup, rounds=20000, iterations=1,
                       warmup_rounds=100)


def test_incore_playouts(benchmark, kk_game, kk_simulate):
    """Our in-core (nogil) random playout loop, 100 games of 4-player Krazy Kings a round;
    extra_info: decisions per round and decisions/s at the median."""
    benchmark.group = "in-core"
    seeds = itertools.count(1)
    decisions = []

    def run():
        r = kk_simulate(kk_game, 100, next(seeds))
        decisions.append(r["decisions"] if isinstance(r, dict) else r[0])
    benchmark(run)
    per_round = sum(decisions) / len(decisions)
    benchmark.extra_info["decisions_per_round"] = per_round
    benchmark.extra_info["decisions_per_s"] = per_round / benchmark.stats.stats.median
    assert per_round > 0
