"""``State.evaluate()`` (ops.evaluate) and the search's round horizon (ops.round_index).

evaluate() is the game's estimate of the final returns of an unfinished game of many rounds:
ISMCTS rollouts that stop at a round's end back it up.  At a terminal state it is returns().
"""
import json
import math
import random

import pytest

import krazy_core
from krazy_core.errors import ConfigError
from krazy_core.search.ismcts import search

ROUND_GAMES = ("kings-rummy", "contract-rummy", "krass-kariert")


def _walk(game_id, players, seed, steps, **options):
    """Every state of one seeded random game (at most `steps` of them)."""
    game = krazy_core.make(game_id, num_players=players, **options)
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    out = [st.clone()]
    while not st.is_terminal() and len(out) < steps:
        st.apply_action(rng.choice(st.legal_actions()))
        out.append(st.clone())
    return out


def _with(state, **fields):
    doc = json.loads(state.to_json())
    doc["state"].update(fields)
    return state.game.state_from_json(json.dumps(doc))


@pytest.mark.parametrize("game_id", ROUND_GAMES)
def test_evaluate_is_a_distribution_over_the_returns(game_id):
    """Rummy games: chances to win that sum to 1; KrassKariert: 1 - chance to lose, summing
    to n - 1 (one loser, KA-15).  Every value lies in [0, 1]."""
    players = 4
    total = 1.0 if game_id != "krass-kariert" else players - 1.0
    for seed in range(3):
        for st in _walk(game_id, players, seed, 3000)[::7]:
            v = st.evaluate()
            assert len(v) == players
            assert all(0.0 <= x <= 1.0 for x in v)
            assert math.isclose(sum(v), total, rel_tol=1e-9)


@pytest.mark.parametrize("game_id", ROUND_GAMES + ("krazy-kings",))
def test_evaluate_at_the_end_is_returns(game_id):
    game = krazy_core.make(game_id, num_players=3)
    st = game.new_initial_state(seed=11)
    rng = random.Random(11)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.evaluate() == st.returns()


def test_evaluate_krazy_kings_has_no_estimate():
    """A game of one episode gives returns(): zeros while it runs."""
    st = _walk("krazy-kings", 3, 5, 20)[-1]
    assert not st.is_terminal()
    assert st.evaluate() == [0.0, 0.0, 0.0]


def _fresh_round(game_id, players=4, seed=2, **options):
    """A state at the first decision of a round after the first (totals scored)."""
    key = "round" if game_id != "krass-kariert" else "hand_no"
    for st in _walk(game_id, players, seed, 100000, **options):
        if st._to_dict()[key] == 2:
            return st
    raise AssertionError("no second round")


def test_KR_15_evaluate_ranks_lower_totals_higher():
    st = _fresh_round("kings-rummy")
    st = _with(st, scores=[10, 40, 40, 90])
    v = st.evaluate()
    assert v[0] > v[1] == v[2] > v[3]
    # ten rounds still to play: a 30-point lead is far from a sure win
    assert 0.35 < v[0] < 0.9
    # the same lead with one round left (a two-round game, KR-16) counts more
    last = _with(_fresh_round("kings-rummy", rounds=2), scores=[10, 40, 40, 90])
    assert last.evaluate()[0] > v[0] + 0.05


def test_CR_15_evaluate_ranks_lower_totals_higher():
    st = _fresh_round("contract-rummy")
    scores = [[0] * 4 for _ in range(7)]
    scores[0] = [0, 60, 60, 150]
    st = _with(st, scores=scores)
    v = st.evaluate()
    assert v[0] > v[1] == v[2] > v[3]


def test_KA_15_evaluate_fewest_chips_most_likely_loser():
    st = _fresh_round("krass-kariert")
    st = _with(st, chips=[0, 2, 2, 3])
    v = st.evaluate()
    assert v[0] < v[1] == v[2] < v[3]
    assert v[0] < 0.5 < v[3]


def _state_in_round(game_id, round_no, seed=4):
    key = "round" if game_id != "krass-kariert" else "hand_no"
    for st in _walk(game_id, 4, seed, 100000):
        if st._to_dict()[key] == round_no and len(st.legal_actions()) > 1:
            return st
    raise AssertionError("not reached")


@pytest.mark.parametrize("game_id", ROUND_GAMES)
def test_round_horizon_stops_rollouts_at_the_round_end(game_id):
    st = _state_in_round(game_id, 1)
    whole = search(st, iterations=40, seed=3, rollout="random", horizon="game")
    short = search(st, iterations=40, seed=3, rollout="random", horizon="round")
    assert short.rollout_actions < whole.rollout_actions
    assert short.truncated == 0


def test_horizon_krazy_kings_unchanged():
    """One episode: both horizons are the same search."""
    st = _walk("krazy-kings", 4, 9, 30)[-1]
    a = search(st, iterations=300, seed=8, horizon="round")
    b = search(st, iterations=300, seed=8, horizon="game")
    assert a.visits == b.visits and a.values == b.values


def test_bad_horizon():
    st = _walk("kings-rummy", 2, 1, 3)[-1]
    with pytest.raises(ConfigError, match="horizon"):
        search(st, iterations=10, horizon="hand")
