"""Move counts from seeded states, as data (issue 12 item 8): ``tests/games/<game>/perft.json``
holds, for 36 positions per game (every table size from min to max, 4 seeds, 0/15/60 random
steps), the number of legal-action sequences of each length 1..depth; this recomputes them.
A change to legal-action generation, to apply, or to the PRNG draws inside apply (shuffles,
dice) changes a count.  Regenerate deliberately with ``python tests/perft.py``."""
import json

import numpy as np
import pytest

import krazy_core
from helpers import GAMES
from perft import DEPTH, SEEDS, STEPS, compute, path_for, perft, position, tables


def _load(gid):
    return json.loads(path_for(gid).read_text(encoding="utf-8"))


def test_every_registered_game_has_a_perft_file():
    assert set(DEPTH) == set(GAMES)
    for gid in GAMES:
        assert path_for(gid).is_file(), f"no {path_for(gid)}: run python tests/perft.py {gid}"


@pytest.mark.parametrize("gid", GAMES)
def test_move_counts_match_the_data_file(gid):
    doc = _load(gid)
    assert doc["game"] == gid and doc["depth"] == DEPTH[gid]
    want = [(n, seed, steps) for n in tables(gid) for seed in SEEDS for steps in STEPS]
    assert [(p["num_players"], p["seed"], p["steps"]) for p in doc["positions"]] == want
    got = compute(gid)
    for old, new in zip(doc["positions"], got["positions"]):
        assert new == old, f"{gid} {old['num_players']}p seed {old['seed']} after {old['steps']} steps"
    # the file is not trivial: live positions with branching at every depth
    live = [p for p in doc["positions"] if not p["terminal"]]
    assert len(live) >= 24
    assert max(p["counts"][-1] for p in live) > max(p["counts"][0] for p in live) >= 2
    for p in doc["positions"]:
        if p["terminal"]:
            assert p["counts"] == [0] * doc["depth"]
        else:
            assert p["counts"][0] >= 1


@pytest.mark.parametrize("gid", GAMES)
def test_first_count_is_the_legal_action_list_and_the_mask(gid):
    for n in tables(gid):
        s, _ = position(gid, n, 2, 15)
        if s.is_terminal():
            continue
        assert perft(s, 1) == [len(s.legal_actions())] == [int(np.sum(s.legal_action_mask()))]


@pytest.mark.parametrize("gid", GAMES)
def test_counts_through_json_equal_counts_through_clone(gid):
    """Each child read back from its own ``to_json()`` has the same subtree counts as the
    child itself (the saved state holds everything legal-action generation and the draws read)."""
    s, _ = position(gid, krazy_core.game.get_spec(gid).default_players, 1, 15)
    assert not s.is_terminal()
    depth = min(DEPTH[gid], 3) - 1
    for a in s.legal_actions():
        c = s.clone()
        c.apply_action(a)
        back = c.game.state_from_json(c.to_json())
        assert perft(back, depth) == perft(c, depth)
