"""Crazy Rummy properties over many seeded games: the move generator against the pure-Python
reference, 108 cards conserved, determinism, no hidden card leaks, valid melds always."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import krazy_core
from helpers import random_playout
from contract_rummy_reference import legal_actions as reference_legal, Rules, kind, CONTRACTS

TABLES = [(4, {}), (2, {"overlapping_runs": True}), (3, {"ace_wrap": True}), (5, {"layoff_on_own": True, "swap_requires_down": True}),
          (4, {"final_round_no_discard": True, "first_round": 5, "rounds": 3}), (6, {"jokers": 1, "ace_wrap": True, "overlapping_runs": True}),
          (3, {"buy_limit": 1, "penalty_cards": 2, "first_round": 2, "rounds": 6})]


def mixed_playout(state, rng, visit, max_steps=2500, eps=0.3):
    """Heuristic moves with random ones mixed in (so players go down, build, lay off, swap)."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        visit(state)
        la = state.legal_actions()
        a = rng.choice(la) if rng.random() < eps else state.heuristic_action(rng.randrange(1 << 30))
        state.apply_action(a)
        steps += 1


@pytest.mark.slow
def test_legal_actions_match_the_reference_on_thousands_of_states():
    counts = {}

    def visit(s):
        p = s.current_player()
        o = s.observation(p)
        ph = o["phase"]
        if ph in ("take_or_decline", "buy_or_pass", "first_up_card") and rng.random() < 0.9:
            return
        if o["hand_sizes"][p] > (12 if ph == "going_down" else 15) or rng.random() < 0.5:
            return
        counts[ph] = counts.get(ph, 0) + 1
        assert s.legal_actions() == reference_legal(s), str(s)

    for i, (n, opts) in enumerate(TABLES * 2):
        rng = random.Random(i)
        g = krazy_core.make("contract-rummy", num_players=n, **opts)
        mixed_playout(g.new_initial_state(seed=100 + i), rng, visit, eps=0.3 if i < 7 else 0.6)
    assert sum(counts.values()) >= 2000 and counts["going_down"] >= 400 and counts["play"] >= 800, counts


def full_deck(game):
    deck = sorted([(s << 4) | r for s in range(4) for r in range(1, 14)] * 2 + [0x50] * game.options.jokers)
    return deck


def melds_valid(state, rules):
    """Every meld on the table is a valid book or run (CR-5: caps, positions); only the meld
    being built in a lay-down may still be short."""
    cp = state.current_player()
    building = state.observation(cp)["building_meld"] if cp >= 0 else None
    for d in state.melds():
        ks = [kind(c) for c in d["cards"]]
        short_ok = d["id"] == building
        if d["kind"] == "book":
            assert rules.valid_book(d["rank"], ks) and (short_ok or len(ks) >= 3), d
        else:
            assert rules.valid_run(d["suit"], d["lo"], ks) and (short_ok or len(ks) >= 4), d


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32), table=st.sampled_from(TABLES), eps=st.sampled_from([0.2, 1.0]))
@pytest.mark.slow
def test_cards_conserved_and_melds_valid_after_every_action(seed, table, eps):
    n, opts = table
    g = krazy_core.make("contract-rummy", num_players=n, **opts)
    deck = full_deck(g)
    rng = random.Random(seed)

    rules = Rules(g.options.ace_wrap, g.options.overlapping_runs)

    def visit(s):
        assert s.census() == deck
        melds_valid(s, rules)

    s = g.new_initial_state(seed=seed)
    mixed_playout(s, rng, visit, max_steps=600, eps=eps)
    assert s.census() == deck
    melds_valid(s, rules)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32))
def test_determinism_same_seed_same_actions_same_states(seed):
    g = krazy_core.make("contract-rummy", num_players=4)
    a, b = g.new_initial_state(seed=seed), g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if a.is_terminal():
            break
        act = rng.choice(a.legal_actions())
        a.apply_action(act)
        b.apply_action(act)
        assert a == b
    assert a.to_json() == b.to_json()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32))
def test_no_hidden_hand_leaks(seed):
    g = krazy_core.make("contract-rummy", num_players=3)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    random_playout(s, rng, max_steps=rng.randrange(5, 200))
    for p in range(3):
        o = s.observation(p)
        text = json.dumps(o)
        assert o["hand"] == s.hand(p)
        assert "hands" not in o and "stock" not in o
        for q in range(3):
            if q != p:
                assert json.dumps(s.hand(q)) not in text or not s.hand(q)
        for e in s.events_for(p):
            if e["event"] in ("deal", "draw") and e["player"] != p:
                assert e["card"] is None
        # what p sees equals in every determinization
        d = s.determinize(p, seed=seed % 1000)
        assert d.observation(p) == o
        assert d.census() == s.census()


def test_determinize_depends_only_on_the_information_set():
    g = krazy_core.make("contract-rummy", num_players=4)
    s = g.new_initial_state(seed=77)
    rng = random.Random(7)
    for _ in range(60):
        s.apply_action(s.heuristic_action(rng.randrange(1 << 30)))
    body = json.loads(s.to_json())
    p = s.current_player()
    # another state with the same information set for p: the stock and the unknown cards of
    # the other hands dealt differently
    st_ = body["state"]
    others = [q for q in range(4) if q != p]
    unseen = list(st_["stock"])
    for q in others:
        unseen += st_["hands"][q]
    random.Random(1).shuffle(unseen)
    k = 0
    for q in others:
        m = len(st_["hands"][q])
        st_["hands"][q] = sorted(unseen[k:k + m])
        st_["known"][q] = []
        k += m
    st_["stock"] = unseen[k:]
    body["events"] = []
    t = g.state_from_json(json.dumps(body))
    s2 = g.state_from_json(s.to_json())
    body_s = json.loads(s2.to_json())
    body_s["state"]["known"] = [[] for _ in range(4)]
    s2 = g.state_from_json(json.dumps(body_s))
    a, b = s2.determinize(p, seed=5), t.determinize(p, seed=5)
    for q in range(4):
        assert a.hand(q) == b.hand(q)
    assert json.loads(a.to_json())["state"]["stock"] == json.loads(b.to_json())["state"]["stock"]


def test_CR_10_overlapping_runs_growing_runs_match_the_reference_step_by_step():
    # lay-downs where a run must grow past 4 cards to overlap, not continue, the other
    # (round 3, 2 runs): every legal step list, engine against the reference
    from contract_rummy_helpers import scripted, act
    paths = [
        ("5H 6H 7H 8H 9H 10H JH QH JH QH KH AH KD", {},
         ["go down", "start run H from 5H", "lay 5H", "lay 6H", "lay 7H", "lay 8H", "lay 9H",
          "lay 10H", "lay JH", "lay QH", "finish meld", "start run H from JH", "lay JH", "lay QH",
          "lay KH", "lay AH", "finish meld"]),
        ("2H 3H 4H 5H JH QH KH AH 2H KD", {"ace_wrap": True},
         ["go down", "start run H from 2H", "lay 2H", "lay 3H", "lay 4H", "lay 5H", "finish meld",
          "start run H from JH", "lay JH", "lay QH", "lay KH", "lay AH", "lay 2H", "finish meld"]),
    ]
    for hand, kw, seq in paths:
        s = scripted(rnd=3, hands={1: hand}, phase="play", cur=1, up_live=False, turns=1,
                     overlapping_runs=True, **kw)
        for a in seq:
            assert s.legal_actions() == reference_legal(s), (hand, a)
            act(s, a)
        assert s.legal_actions() == reference_legal(s)
