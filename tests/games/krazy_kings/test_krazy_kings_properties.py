"""Krazy Kings invariants over thousands of seeded random games (Hypothesis picks tables,
options and seeds; each example plays a batch of whole games)."""

import pytest
import random

from hypothesis import given, strategies as st

import krazy_core
from helpers import kk_tables, random_playout
from krazy_core.cards import JOKER, parse_card

DECK = sorted([parse_card(r + s) for s in "SHDC" for r in
               ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]] + [JOKER, JOKER])
DECK52 = [c for c in DECK if c != JOKER]

tables = kk_tables()


@given(table=tables, seed=st.integers(0, 2 ** 63))
@pytest.mark.slow
def test_KK_1_cards_conserved_after_every_action(table, seed):
    game = krazy_core.make("krazy-kings", **table)
    deck = DECK if table["jokers"] == "rolloff" else DECK52
    rng = random.Random(seed)
    for g in range(40):                         # 60 examples x 40 games = 2,400 games
        state = game.new_initial_state(seed=seed + g)
        while not state.is_terminal():
            assert state.census() == deck
            obs = state.observation(state.current_player())
            assert sum(obs["hand_sizes"]) + obs["stock_size"] + len(obs["discard_pile"]) == len(deck)
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.census() == deck


@given(table=tables, seed=st.integers(0, 2 ** 63))
def test_same_seed_same_actions_same_states(table, seed):
    game = krazy_core.make("krazy-kings", **table)
    a, b = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not a.is_terminal():
        assert a == b
        act = rng.choice(a.legal_actions())
        a.apply_action(act)
        b.apply_action(act)
    assert a.to_json() == b.to_json()


@given(table=tables, seed=st.integers(0, 2 ** 63))
@pytest.mark.slow
def test_observation_hides_other_hands_and_stock_order(table, seed):
    game = krazy_core.make("krazy-kings", **table)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal() and steps < 200:
        p = rng.randrange(game.num_players)
        d = state.determinize(p, seed=steps)
        # a state that differs only in what p cannot see looks the same to p...
        assert d.observation(p) == state.observation(p)
        assert (d.observation_tensor(p) == state.observation_tensor(p)).all()
        assert d.events_for(p) == state.events_for(p)
        # ...and p's view names no card of another hand or of the stock
        obs = state.observation(p)
        for q in range(game.num_players):
            if q != p:
                for c in state.hand(q):
                    assert c == JOKER or c not in obs["hand"]     # the two Jokers are alike
        public = state.events
        assert all(e.get("card") is None for e in public if e["event"] in ("deal", "draw"))
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@given(table=tables, seed=st.integers(0, 2 ** 63))
def test_determinize_keeps_what_the_player_has_seen(table, seed):
    game = krazy_core.make("krazy-kings", **table)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    random_playout(state, rng, max_steps=rng.randrange(0, 60))
    if state.is_terminal():
        return
    p = state.current_player()
    d = state.determinize(p, seed=seed)
    assert d.hand(p) == state.hand(p)
    assert d.observation(p)["hand_sizes"] == state.observation(p)["hand_sizes"]
    assert d.observation(p)["discard_pile"] == state.observation(p)["discard_pile"]
    assert d.census() == state.census()
    assert d.legal_actions() == state.legal_actions()


@given(table=tables, seed=st.integers(0, 2 ** 63))
def test_determinize_for_any_seat_keeps_the_acting_player_able_to_act(table, seed):
    """A pending decision tells everyone the player to act can match the roll: every
    determinization, for any seat, must agree (else a search would meet a dead state)."""
    game = krazy_core.make("krazy-kings", **table)
    rng = random.Random(seed)
    for g in range(10):
        state = game.new_initial_state(seed=seed + g)
        random_playout(state, rng, max_steps=rng.randrange(0, 120))
        if state.is_terminal():
            continue
        for p in range(game.num_players):
            d = state.determinize(p, seed=g)
            assert d.legal_actions(), (p, state.to_json())
            assert d.census() == state.census()
            assert d.hand(p) == state.hand(p)
            assert d.observation(p)["hand_sizes"] == state.observation(p)["hand_sizes"]


@given(table=tables, seed=st.integers(0, 2 ** 63))
@pytest.mark.slow
def test_kept_legal_cards_match_a_fresh_state_from_json(table, seed):
    """apply_action keeps the legal cards of the pending decision in the struct (speed); a
    state rebuilt from its JSON computes them afresh, and ``==`` compares the whole struct:
    equal after every action, in real games, in determinized ones, and in the search's
    untracked worlds (compared through a tracked twin)."""
    game = krazy_core.make("krazy-kings", **table)
    rng = random.Random(seed)
    for g in range(4):
        state = game.new_initial_state(seed=seed + g)
        while not state.is_terminal():
            assert game.state_from_json(state.to_json()) == state
            if rng.random() < 0.1:
                q = rng.randrange(game.num_players)
                d = state.determinize(q, seed=g)
                assert game.state_from_json(d.to_json()) == d
                u = state._untracked_determinization(q, seed=g)
                assert u.legal_actions() == d.legal_actions()
                assert [u.random_action(seed=k) for k in range(5)] == [d.random_action(seed=k) for k in range(5)]
            state.apply_action(rng.choice(state.legal_actions()))
        assert game.state_from_json(state.to_json()) == state
