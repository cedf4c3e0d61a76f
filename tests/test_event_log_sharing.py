"""Issue 19 item 11: clones share their event log's prefix.  A clone that diverges starts a
new log node over the shared prefix instead of copying the whole log; every reader (events,
events_for, raw_events, history, ==, to_json/to_bytes and their loaders, pickle, the search's
``previous`` check, history rewrites) sees exactly the events a state played without clones
sees.  (Memory: ``benches/clone_log_memory.py``.)"""
import json
import pickle
import random

import pytest

import krazy_core
from krazy_core._state import _log_layout
from helpers import GAMES

LOG_MAX_DEPTH = 32          # _state.pyx: log nodes below a new one before it is flattened


def _replay(s, seed):
    """``s`` played again from its deal (``seed``) without a clone: its history on a fresh
    state."""
    t = s.game.new_initial_state(seed)
    for a in s.history():
        t.apply_action(a)
    return t


def _check_reads_like_replay(s, ref):
    assert s.raw_events() == ref.raw_events()
    assert s.num_events == ref.num_events
    assert s.history() == ref.history() and s.full_history() == ref.full_history()
    assert s.events == ref.events
    for p in range(s.num_players()):
        assert s.events_for(p) == ref.events_for(p)
    assert s.events_for("all") == ref.events_for("all")
    k = s.num_events // 2
    assert s.raw_events(k) == ref.raw_events()[k:]
    assert s.events_for(0, since=k) == ref.events_for(0, since=k)
    assert s == ref and ref == s
    assert s.to_json() == ref.to_json()
    assert s.to_json(indent=1) == ref.to_json(indent=1)
    assert s.to_bytes() == ref.to_bytes()
    back = s.game.state_from_bytes(s.to_bytes())
    assert back == s and back.raw_events() == ref.raw_events() and back.history() == ref.history()
    back = s.game.state_from_json(s.to_json())
    assert back == s and back.full_history() == ref.full_history()
    assert pickle.loads(pickle.dumps(s)).raw_events() == ref.raw_events()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("tree_seed", [1, 2, 3])
def test_random_clone_trees_read_back_the_events_of_a_replay(game_id, tree_seed):
    """Random clone trees: from a pool of states, clone one, apply an action to one, or both;
    every state of the pool then reads exactly as the same history replayed without clones
    (deep branches included: past LOG_MAX_DEPTH nodes the log is flattened)."""
    rng = random.Random(tree_seed)
    game = krazy_core.make(game_id)
    root = game.new_initial_state(seed=tree_seed)
    pool = [root]
    deepest = 0
    for step in range(1500):
        i = rng.randrange(len(pool))
        s = pool[i]
        r = rng.random()
        if r < 0.35 and len(pool) < 120:
            c = s.clone()
            pool.append(c)
            s = c if rng.random() < 0.5 else s
        elif r < 0.45 and len(pool) > 8:          # drop one: the nodes it held may go
            pool.pop(i)
            continue
        if not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        deepest = max(deepest, len(_log_layout(s)))
    assert deepest >= 3                            # the trees did branch
    for s in pool:
        _check_reads_like_replay(s, _replay(s, tree_seed))
        assert len(_log_layout(s)) <= LOG_MAX_DEPTH


@pytest.mark.parametrize("game_id", GAMES)
def test_a_chain_of_late_divergences_is_flattened_and_reads_alike(game_id):
    """The worst chain: every move is made on a clone whose original moved first, so each
    new node sits on the last one; the depth stays bounded and the reads stay those of a
    replay."""
    game = krazy_core.make(game_id)
    s = game.new_initial_state(seed=4)
    rng = random.Random(4)
    depths = []
    for _ in range(200):
        if s.is_terminal():
            break
        c = s.clone()
        s.apply_action(rng.choice(s.legal_actions()))       # the original appends in place
        c.apply_action(rng.choice(c.legal_actions()))       # the clone starts a node
        s = c
        depths.append(len(_log_layout(s)))
    assert max(depths) == LOG_MAX_DEPTH and min(depths[LOG_MAX_DEPTH:]) >= 1
    _check_reads_like_replay(s, _replay(s, 4))


@pytest.mark.slow
def test_diverging_clones_of_a_late_game_share_the_prefix():
    """The issue's case: 2,000 clones of a late Crazy Rummy state (about 9,100 events) each
    apply one action; each holds only its own new events and history in its last node, over
    the one shared node of the late state, and reads back the events of a replay."""
    game = krazy_core.make("contract-rummy", num_players=2)
    s = game.new_initial_state(1)
    r = random.Random(1)
    moves = []
    while not s.is_terminal():
        moves.append(r.choice(s.legal_actions()))
        s.apply_action(moves[-1])
    late = game.new_initial_state(1)
    for a in moves[:-1]:
        late.apply_action(a)
    assert late.num_events > 9000
    [(shared_id, (b_ev, own_ev, b_hist, own_hist))] = _log_layout(late)
    assert (b_ev, own_ev, b_hist, own_hist) == (0, 4 * late.num_events, 0, 2 * len(late.history()))
    pick = random.Random(2)
    clones = []
    for _ in range(2000):
        c = late.clone()
        c.apply_action(pick.choice(c.legal_actions()))
        clones.append(c)
    heads = set()
    for k, c in enumerate(clones):
        layout = _log_layout(c)
        assert layout[-1][0] == shared_id                     # the late state's node, shared
        if k == 0:                                            # the first appended in place
            assert len(layout) == 1
            continue
        assert len(layout) == 2
        head_id, (b_ev, own_ev, b_hist, own_hist) = layout[0]
        heads.add(head_id)
        assert (b_ev, b_hist) == (4 * late.num_events, 2 * len(late.history()))
        assert own_hist == 2 and own_ev == 4 * (c.num_events - late.num_events)
    assert len(heads) == 1999
    for c in clones[:3] + clones[-3:]:
        _check_reads_like_replay(c, _replay(c, 1))
    assert late.num_events == len(late.raw_events()) and late == _replay(late, 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_history_rewrites_and_event_loads_touch_only_their_state(game_id):
    """``_load_history`` / ``_load_events`` (the loaders' steps) give the state its own log;
    a clone sharing the old one reads as before."""
    game = krazy_core.make(game_id)
    s = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(12):
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    before = (c.raw_events(), c.full_history())
    s._load_history([[0, 0]])
    assert s.full_history() == [(0, 0)] and s.raw_events() == before[0]
    assert (c.raw_events(), c.full_history()) == before
    s._load_events([list(e) for e in before[0][:2]])
    assert s.raw_events() == before[0][:2] and s.full_history() == [(0, 0)]
    assert (c.raw_events(), c.full_history()) == before
    c.apply_action(c.legal_actions()[0])
    assert c.raw_events()[:len(before[0])] == before[0]


def test_equality_compares_events_across_nodes():
    """``==`` over states whose logs lie in different nodes: equal when the events are,
    unequal when one event differs (a state loaded with one event changed)."""
    game = krazy_core.make("krazy-kings")
    s = game.new_initial_state(seed=6)
    rng = random.Random(6)
    for _ in range(10):
        s.apply_action(rng.choice(s.legal_actions()))
    a, b = s.clone(), s.clone()
    act = a.legal_actions()[0]
    a.apply_action(act)
    b.apply_action(act)                       # b starts its own node; the same events
    assert len(_log_layout(b)) == 2 and len(_log_layout(a)) == 1
    assert a == b and b == a
    doc = json.loads(b.to_json())
    doc["events"][0][3] ^= 1
    other = game.state_from_json(json.dumps(doc))
    assert other != b and b != other


def test_search_previous_follows_a_state_across_log_nodes():
    """ISMCTS ``previous``: a state that continued the searched root on a clone's own log
    node is recognised (the tree is reused); one whose events differ is not."""
    from krazy_core.search.ismcts import search
    game = krazy_core.make("krazy-kings", num_players=2)
    s = game.new_initial_state(seed=1)
    r = search(s, iterations=2000, seed=1, reuse=True)
    keep = s.clone()
    s.apply_action(s.legal_actions()[-1])     # the original appends in place first
    keep.apply_action(r.action)               # the clone continues on its own node
    while keep.current_player() != r.tree.searcher and not keep.is_terminal():
        keep.apply_action(keep.heuristic_action(seed=0))
    assert len(_log_layout(keep)) == 2
    r2 = search(keep, iterations=50, seed=2, previous=r)
    assert r2.reused > 0
    flat = game.state_from_bytes(keep.to_bytes())            # the same log, one node
    assert search(flat, iterations=50, seed=2, previous=r).reused == r2.reused
    fresh = game.new_initial_state(seed=2)                    # another deal: not continued
    if fresh.current_player() == r.tree.searcher:
        assert search(fresh, iterations=50, seed=2, previous=r).reused == 0
