"""Micro-benchmarks of 4-player Crazy Rummy (pytest-benchmark).

    python -m pytest benches/bench_contract_rummy.py --benchmark-group-by=group

Groups: ``in-core`` (the nogil random playout loop, 20 games of 7 rounds a round; its
decisions/s is in ``extra_info``), ``legal_actions`` (a not-down player's turn, which
checks the contract; a lay-down step, which checks every candidate), ``clone``,
``heuristic`` (the C heuristic's move).  The side-by-side table against OpenSpiel's
gin_rummy is ``benches/compare_peers.py --only contract-rummy``.
"""

import itertools
import random

import pytest

import krazy_core
from krazy_core._state import simulate_random


@pytest.fixture(scope="module")
def game():
    return krazy_core.make("contract-rummy", num_players=4)


def _find(game, phase, seed=3):
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    while not s.is_terminal():
        o = s.observation(s.current_player())
        if o["phase"] == phase and (phase != "play" or not o["down"][s.current_player()]) and rng.random() < 0.3:
            return s
        s.apply_action(s.heuristic_action(rng.randrange(1 << 30)))
    raise RuntimeError("phase not reached")


def test_incore_playouts(benchmark, game):
    benchmark.group = "in-core"
    seeds = itertools.count(1)
    decisions = []

    def run():
        decisions.append(simulate_random(game, 20, next(seeds))["decisions"])
    benchmark(run)
    per_round = sum(decisions) / len(decisions)
    benchmark.extra_info["decisions_per_round"] = per_round
    benchmark.extra_info["decisions_per_s"] = per_round / benchmark.stats.stats.median


@pytest.mark.parametrize("phase", ["play", "going_down"])
def test_legal_actions(benchmark, game, phase):
    benchmark.group = "legal_actions"
    s = _find(game, phase)
    assert benchmark(s.legal_actions)


def test_clone(benchmark, game):
    benchmark.group = "clone"
    s = _find(game, "play")
    assert benchmark(s.clone) == s


def test_heuristic(benchmark, game):
    benchmark.group = "heuristic"
    s = _find(game, "play")
    a = benchmark(s.heuristic_action, 5)
    assert a in s.legal_actions()
