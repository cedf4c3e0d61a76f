"""KrassKariert: each rule KA-1 .. KA-15 with exact outcomes, the combination faces against a
pure-Python reference, and properties over many seeded games."""

import importlib.util
import json
import re
import os
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as hs

import krazy_core
from krazy_core import ConfigError, IllegalActionError, InvalidStateError
from krazy_core.games import krass_kariert as ka

_spec = importlib.util.spec_from_file_location("ka_reference", os.path.join(os.path.dirname(__file__), "ka_reference.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

X, DRAW, STOP = 0x70, 0x71, 0x72
SPECIAL = {"X": X, "DRAW": DRAW, "STOP": STOP}
DECK = {**{0x60 | v: 4 for v in range(1, 13)}, X: 2, DRAW: 2, STOP: 2}


def code(c):
    return SPECIAL[c] if isinstance(c, str) else 0x60 | c


def scripted(hands, reserves=None, leader=0, n=None, chips=None, pile=None, **options):
    """A state at the start of a trick led by `leader`: the given hands (numbers 1..12 or
    "X"/"DRAW"/"STOP", position 0 first) and reserves; Draw cards nobody holds count as
    played; the other cards make the draw pile (or `pile`, bottom first, with the rest
    played)."""
    n = n or len(hands)
    game = krazy_core.make("krass-kariert", num_players=n, **options)
    hands = [[code(c) for c in h] for h in hands]
    reserves = [[None if c is None else code(c) for c in r] for r in (reserves or [[None, None]] * n)]
    left = dict(DECK)
    for c in [c for h in hands for c in h] + [c for r in reserves for c in r if c is not None]:
        left[c] -= 1
    assert all(v >= 0 for v in left.values())
    rest = [c for c, k in sorted(left.items()) for _ in range(k)]
    if pile is None:
        pile_cards = [c for c in rest if c != DRAW]
    else:
        pile_cards = [code(c) for c in pile]
    played = list(rest)
    for c in pile_cards:
        played.remove(c)
    cs = ka.chips_for(game)
    body = {
        "rng": [1, 2, 3, 4], "phase": "play", "current_player": leader, "loser": -1,
        "dealer": game.options.dealer, "leader": leader, "best_player": -1, "second_player": -1,
        "best_combination": -1, "stop_played": False, "draws_in_trick": 0, "pending": 0,
        "last_out": -1, "prev_loser": -1, "hands": hands, "reserves": reserves,
        "chips": chips or [cs] * n, "known": [[0] * 15 for _ in range(n)], "pile": pile_cards,
        "played": played, "trick": [], "hand_no": 1, "trick_no": 1, "turn": 0,
    }
    doc = {"format": 1, "game": "krass-kariert", "num_players": n, "options": game.options_dict(),
           "state": body, "events": []}
    return game.state_from_json(json.dumps(doc))


def texts(s):
    return [s.action_to_string(a) for a in s.legal_actions()]


def play(s, text):
    s.apply_action(text)
    return s


def body(s):
    return json.loads(s.to_json())["state"]


def new_events(s, before):
    return s.events_for("all")[before:]


# ------------------------------------------------------------------ KA-1 .. KA-4: setup
@pytest.mark.parametrize("n,hand,pile", [(3, 10, 18), (4, 10, 6), (5, 7, 9)])
def test_KA_1_KA_3_deck_deal_reserves_pile(n, hand, pile):
    s = krazy_core.make("krass-kariert", num_players=n).new_initial_state(seed=11)
    b = body(s)
    cards = [c for h in b["hands"] for c in h] + [c for r in b["reserves"] for c in r] + b["pile"] + b["played"]
    assert len(cards) == 54
    assert {c: cards.count(c) for c in set(cards)} == DECK
    assert [len(h) for h in b["hands"]] == [hand] * n
    assert all(len(r) == 2 and None not in r for r in b["reserves"])
    assert len(b["pile"]) == pile and b["played"] == []
    # position 0 is the first card dealt: the deal events give each card's position
    deals = [e for e in s.events_for("all") if e["event"] == "deal"]
    assert len(deals) == n * hand
    assert [e["player"] for e in deals[:n]] == list(range(n))
    for e in deals:
        assert b["hands"][e["player"]][e["position"]] == e["card"]
    # reserves are public, hands are not
    obs = s.observation(0)
    assert obs["reserves"] == b["reserves"]
    assert obs["hand"] == b["hands"][0] and obs["hand_sizes"] == [hand] * n
    assert "hands" not in obs and all(e["card"] is None for e in s.events if e["event"] == "deal")


def test_KA_2_chips_per_player_count_and_option():
    assert body(krazy_core.make("krass-kariert", num_players=3).new_initial_state(seed=1))["chips"] == [3, 3, 3]
    assert body(krazy_core.make("krass-kariert", num_players=4).new_initial_state(seed=1))["chips"] == [3] * 4
    assert body(krazy_core.make("krass-kariert", num_players=5).new_initial_state(seed=1))["chips"] == [2] * 5
    assert body(krazy_core.make("krass-kariert", num_players=5, chips=4).new_initial_state(seed=1))["chips"] == [4] * 5
    with pytest.raises(ConfigError):
        krazy_core.make("krass-kariert", chips=10)
    with pytest.raises(ConfigError):
        krazy_core.make("krass-kariert", num_players=2)
    with pytest.raises(ConfigError, match="dealer"):
        krazy_core.make("krass-kariert", num_players=3, dealer=4)
    assert krazy_core.make("krass-kariert", num_players=5, dealer=4).new_initial_state(seed=1).current_player() == 0


def test_KA_4_left_of_dealer_leads_then_the_chip_loser_leads():
    assert krazy_core.make("krass-kariert").new_initial_state(seed=5).current_player() == 1
    assert krazy_core.make("krass-kariert", dealer=3).new_initial_state(seed=5).current_player() == 0
    s = krazy_core.make("krass-kariert").new_initial_state(seed=5)
    r = random.Random(5)
    while not s.is_terminal():
        s.apply_action(r.choice(s.legal_actions()))
    ev = s.events_for("all")
    ends = [i for i, e in enumerate(ev) if e["event"] == "chip"]
    assert len(ends) >= 3
    for i in ends:
        loser = ev[i]["player"]
        start = next(e for e in ev[i:] if e["event"] == "hand_start")
        assert start["player"] == loser
        assert next(e for e in ev[i:] if e["event"] == "trick_start")["player"] == loser


# ------------------------------------------------------------------ KA-5 .. KA-8: combinations
def test_KA_5_adjacency_3_9_4_5():
    s = scripted([[3, 9, 4, 5], [1, 1, 1], [2, 2, 2]], leader=0)
    t = texts(s)
    assert "play 2-3 2-straight 5" in t
    assert not any("3-straight" in x for x in t)
    assert t == ["play 0 solo 3", "play 1 solo 9", "play 2 solo 4", "play 2-3 2-straight 5", "play 3 solo 5"]
    # after the 9 is played, 3 4 5 lie next to each other
    s = scripted([[3, 9, 4, 5], [1, 5], [2, 6]], reserves=[[None, None], [7, None], [8, None]], leader=0)
    play(s, "play 1 solo 9")
    assert s.hand(0) == [0x63, 0x64, 0x65]
    play(s, "reserve slot 0 at 0")
    play(s, "reserve slot 0 at 0")
    assert s.current_player() == 0 and "play 0-2 3-straight 5" in texts(s)
    # order inside a combination does not matter: 8 10 9 is a 3-straight of top card 10
    assert ka.combination([8, 10, 9]) == ("3-straight", 10)
    assert ka.combination(["9", "8", "10"]) == ("3-straight", 10)


def test_KA_6_types_order_no_wrap_and_two_straight_option():
    assert [ka.combination(c) for c in ([7], [6, 7], [7, 7], [5, 6, 7], [7, 7, 7])] == [
        ("solo", 7), ("2-straight", 7), ("pair", 7), ("3-straight", 7), ("triple", 7)]
    assert ka.combination([12, 1]) is None
    assert ka.combination([11, 12, 1]) is None
    assert ka.combination([3, 5]) is None
    assert ka.combination([11, 12], two_straight=False) is None
    assert ka.combination_index("solo", 1) == 0 and ka.combination_index("triple", 12) == 56
    s = scripted([[11, 12, 3], [1, 1, 1], [2, 2, 2]], two_straight=False)
    assert texts(s) == ["play 0 solo 11", "play 1 solo 12", "play 2 solo 3"]


def test_KA_7_pair_1_1_beats_2_straight_11_12():
    assert ka.beats(("pair", 1), ("2-straight", 12))
    assert ka.beats(("triple", 1), ("3-straight", 12))
    assert ka.beats(("2-straight", 2), ("solo", 12))
    assert not ka.beats(("solo", 12), ("solo", 12))
    assert not ka.beats(("pair", 5), ("pair", 5))
    assert ka.beats(("solo", 1), None)
    s = scripted([[11, 12, 5], [1, 1, 7], [3, 3, 3]], leader=0)
    play(s, "play 0-1 2-straight 12")
    assert s.current_player() == 1
    assert texts(s) == ["play 0-1 pair 1"]


def test_KA_7_solo_12_does_not_beat_solo_12():
    s = scripted([[12, 5], [12, 4], [3, 3]], leader=0)
    play(s, "play 0 solo 12")
    # nothing beats, no special, no reserve: KA-14(b) ended the hand at once; seat 1 lost
    # a chip and leads the new hand
    assert body(s)["chips"] == [3, 2, 3] and s.current_player() == 1
    s = scripted([[12, 5], [12, 4], [3, 3]], reserves=[[None, None], [6, None], [None, None]], leader=0)
    play(s, "play 0 solo 12")
    assert texts(s) == ["reserve slot 0 at 0", "reserve slot 0 at 1", "reserve slot 0 at 2"]


def test_KA_8_x_card_takes_any_value_inside_adjacent_combinations():
    s = scripted([["X"], [1, 1], [2, 2]], leader=0)
    assert texts(s) == [f"play 0 solo {v} (X={v})" for v in range(1, 13)]
    s = scripted([["X", 5], [1, 1], [2, 2]], leader=0)
    assert texts(s) == [f"play 0 solo {v} (X={v})" for v in range(1, 13)] + [
        "play 0-1 2-straight 5 (X=4)", "play 0-1 2-straight 6 (X=6)", "play 0-1 pair 5 (X=5)", "play 1 solo 5"]
    s = scripted([["X", "X", 7], [1, 1], [2, 2]], leader=0)
    three = [t for t in texts(s) if t.startswith("play 0-2")]
    assert three == ["play 0-2 3-straight 7 (X=5,6)", "play 0-2 3-straight 8 (X=6,8)",
                     "play 0-2 3-straight 9 (X=8,9)", "play 0-2 triple 7 (X=7,7)"]
    # the chosen value is part of the action and of the public event
    play(s, "play 0-2 triple 7")
    e = [e for e in s.events if e["event"] == "play"][-1]
    assert e["combination"] == {"index": 51, "type": "triple", "value": 7}
    assert e["x_values"] == [7, 7] and e["position"] is None
    assert ka.combination(["X", 5], x_values=[6]) == ("2-straight", 6)
    assert ka.combination(["X", "X", 5], x_values=[5, 5]) == ("triple", 5)
    with pytest.raises(ValueError):
        ka.combination(["X", 5])


# ------------------------------------------------------------------ KA-9 .. KA-12: a trick
def test_KA_9_one_lap_and_reserve_instead_of_beating():
    s = scripted([[2, 9, 9], [5, 6, 7], [4, 8, 8], [3, 10, 10]],
                 reserves=[[1, None], [11, 12], [None, None], [None, None]], leader=0)
    play(s, "play 0 solo 2")
    # seat 1 could beat but takes reserve 1 (a 12) into position 1
    assert "play 0 solo 5" in texts(s)
    play(s, "reserve slot 1 at 1")
    assert s.hand(1) == [0x65, 0x6C, 0x66, 0x67]
    assert body(s)["reserves"][1] == [0x6B, None]
    assert s.observation(0)["known_cards"][1] == [0x6C]
    play(s, "play 0 solo 4")
    assert "play 0 solo 3" not in texts(s)
    play(s, "play 1 solo 10")
    # one lap: back at the leader the trick is over; seat 3's 10 won, seat 3 leads
    assert body(s)["trick_no"] == 2 and s.current_player() == 3
    # the leader may not take a reserve while it can lead, and never leads a Draw card
    s = scripted([[2, "DRAW"], [5, 6], [4, 8]], reserves=[[1, None], [None, None], [None, None]], leader=0)
    assert texts(s) == ["play 0 solo 2"]
    s = scripted([["DRAW"], [5, 6], [4, 8]], reserves=[[1, None], [None, None], [None, None]], leader=0)
    assert texts(s) == ["reserve slot 0 at 0", "reserve slot 0 at 1"]
    play(s, "reserve slot 0 at 1")
    assert s.current_player() == 0 and texts(s) == ["play 1 solo 1"]


def test_KA_9_must_beat_without_reserves():
    s = scripted([[4, 1], [5, 6, 2], [7, 7]], leader=0)
    play(s, "play 0 solo 4")
    assert texts(s) == ["play 0 solo 5", "play 0-1 2-straight 6", "play 1 solo 6"]


def test_KA_10_winner_leads_next():
    s = scripted([[3, 1, 1], [5, 2, 2], [4, 6, 6]], reserves=[[None, None], [None, None], [7, None]], leader=0)
    play(s, "play 0 solo 3")
    play(s, "play 0 solo 5")
    play(s, "reserve slot 0 at 0")
    e = [e for e in s.events if e["event"] == "trick_end"][-1]
    assert e["player"] == 1 and e["combination"]["value"] == 5
    assert body(s)["trick_no"] == 2 and s.current_player() == 1


def test_KA_10_exact_next_leaders():
    # winner seat 2 goes out; second best (seat 1) leads
    s = scripted([[3, 1, 1], [5, 2, 2], [9], [10, 10, 10]],
                 reserves=[[None, None], [None, None], [None, None], [1, None]], leader=0)
    play(s, "play 0 solo 3")
    play(s, "play 0 solo 5")
    play(s, "play 0 solo 9")
    play(s, "reserve slot 0 at 0")
    assert body(s)["trick_no"] == 2 and s.current_player() == 1
    # winner seat 1 goes out and the second best (seat 0, the leader) is out too:
    # the next seat clockwise from the winner with cards leads
    s = scripted([[3, 3], [9], [6, 6, 6], [10, 10, 10]],
                 reserves=[[None, None], [None, None], [1, None], [2, None]], leader=0)
    play(s, "play 0 solo 3")
    play(s, "play 0 solo 9")
    play(s, "reserve slot 0 at 0")
    play(s, "reserve slot 0 at 0")
    assert body(s)["trick_no"] == 2 and s.current_player() == 0  # second best (seat 0) holds a 3
    s = scripted([[3], [9], [6, 6, 6], [10, 10, 10]],
                 reserves=[[None, None], [None, None], [1, None], [2, None]], leader=0)
    play(s, "play 0 solo 3")
    play(s, "play 0 solo 9")
    play(s, "reserve slot 0 at 0")
    play(s, "reserve slot 0 at 0")
    assert body(s)["trick_no"] == 2 and s.current_player() == 2  # clockwise from winner 1


def test_KA_11_table_12_12_12_stop_wins_and_leads_next():
    s = scripted([[12, 12, 12, 3], ["STOP", 4], [1, 2], [5, 5]], leader=0)
    play(s, "play 0-2 triple 12")
    assert texts(s) == ["stop 0"]
    before = s.num_events
    play(s, "stop 0")
    ev = new_events(s, before)
    assert [e["event"] for e in ev] == ["stop", "trick_end", "trick_start"]
    assert ev[1]["player"] == 1 and ev[1]["stop"] is True
    # the trick ended at once: seats 2 and 3 never acted; the Stop's player leads
    assert s.current_player() == 1 and body(s)["trick_no"] == 2
    # a Stop may lead: it wins the trick at once and its player leads again
    s = scripted([["STOP", 4], [1, 2], [5, 5]], leader=0)
    assert texts(s) == ["play 1 solo 4", "stop 0"]
    play(s, "stop 0")
    assert s.current_player() == 0 and body(s)["trick_no"] == 2 and s.hand(0) == [0x64]


def test_KA_12_draw_card_winner_draws_three_and_inserts_each():
    s = scripted([[3, 1, 1], ["DRAW", 2, 2], [4, 9, 9]], leader=0,
                 pile=[10, 11, 12, 7])  # top is 7
    play(s, "play 0 solo 3")
    play(s, "draw 0")
    # the combination to beat stays the solo 3
    assert body(s)["best_combination"] == 2 and texts(s)[0] == "play 0 solo 4"
    play(s, "play 0 solo 4")
    # seat 2 won: it draws 3 cards one at a time, inserting each where it chooses
    assert s.current_player() == 2 and body(s)["phase"] == "insert"
    assert s.observation(2)["drawn_card"] == 0x67 and s.observation(0)["drawn_card"] is None
    assert texts(s) == ["insert at 0", "insert at 1", "insert at 2"]
    play(s, "insert at 0")
    play(s, "insert at 3")
    play(s, "insert at 1")
    assert s.hand(2) == [0x67, 0x6B, 0x69, 0x69, 0x6C]
    assert body(s)["pile"] == [0x6A] and body(s)["phase"] == "play" and s.current_player() == 2
    pub = [e for e in s.events if e["event"] == "drawn"]
    assert len(pub) == 3 and all(e["card"] is None and e["position"] is None for e in pub)


def test_KA_12_both_draws_and_short_pile():
    s = scripted([[3, 1, 1], ["DRAW", 2, 2], ["DRAW", 5, 5], [4, 8, 8]], leader=0, pile=[10, 11])
    play(s, "play 0 solo 3")
    play(s, "draw 0")
    play(s, "draw 0")
    play(s, "play 0 solo 4")
    # 6 cards owed, 2 remain: seat 3 draws what remains
    assert body(s)["pending"] == 2 and s.current_player() == 3
    play(s, "insert at 0")
    play(s, "insert at 0")
    assert s.hand(3) == [0x6A, 0x6B, 0x68, 0x68] and body(s)["pile"] == []


def test_KA_13_out_players_are_skipped_and_a_drawing_winner_comes_back():
    s = scripted([[3, 1], [], [4, 6, 6], [5, 7, 8]], leader=0)
    play(s, "play 0 solo 3")
    assert s.current_player() == 2  # seat 1 holds no cards: out of this hand
    play(s, "play 1-2 pair 6")
    # seat 3 cannot beat the pair and has no reserve: KA-14(b)
    assert body(s)["chips"] == [3, 3, 3, 2]
    # the winner who must draw comes back in
    s = scripted([[3, 1, 1], ["DRAW", 2, 2], [9], [1, 1, 2]],
                 reserves=[[None, None], [None, None], [None, None], [4, None]], leader=0)
    play(s, "play 0 solo 3")
    play(s, "draw 0")
    play(s, "play 0 solo 9")
    assert s.hand(2) == []
    play(s, "reserve slot 0 at 0")
    assert s.current_player() == 2 and body(s)["pending"] == 3
    for _ in range(3):
        play(s, "insert at 0")
    assert len(s.hand(2)) == 3 and s.current_player() == 2 and body(s)["trick_no"] == 2


def test_KA_14a_only_one_player_holds_cards():
    s = scripted([[3], [9, 1], [2]], leader=2)
    play(s, "play 0 solo 2")
    play(s, "play 0 solo 3")
    # seats 0 and 2 are out: only seat 1 holds cards -> it loses a chip at once
    b = body(s)
    assert b["chips"] == [3, 2, 3] and b["hand_no"] == 2 and s.current_player() == 1
    e = [e for e in s.events if e["event"] == "hand_end"][-1]
    assert e["player"] == 1 and e["reason"].endswith("(KA-14a)")


def test_KA_14b_cannot_beat_no_special_no_reserve():
    s = scripted([[8, 8, 1], [7, 7, 2], [1, 2]], leader=0)
    play(s, "play 0-1 pair 8")
    b = body(s)
    assert b["chips"] == [3, 2, 3] and b["hand_no"] == 2 and s.current_player() == 1
    e = [e for e in s.events if e["event"] == "hand_end"][-1]
    assert e["player"] == 1 and e["reason"].endswith("(KA-14b)")


def test_KA_15_zero_chips_keeps_playing_then_loses():
    s = scripted([[8, 8, 1], [7, 7, 2], [1, 2]], leader=0, chips=[3, 0, 3])
    assert not s.is_terminal()
    play(s, "play 0-1 pair 8")
    assert s.is_terminal() and s.returns() == [1.0, 0.0, 1.0]
    assert s.current_player() == krazy_core.TERMINAL_PLAYER and s.legal_actions() == []
    assert [e["event"] for e in s.events][-2:] == ["hand_end", "game_over"]
    with pytest.raises(IllegalActionError):
        s.apply_action(0)
    # a seat at 0 chips that does not have to give one keeps playing
    s = scripted([[8, 8, 1], [7, 7, 2], [1, 2]], leader=0, chips=[0, 1, 0])
    play(s, "play 0-1 pair 8")
    assert not s.is_terminal() and body(s)["chips"] == [0, 0, 0]


# ------------------------------------------------------------------ faces vs the reference
_card = hs.one_of(hs.integers(1, 12), hs.sampled_from(["X", "X", "DRAW", "STOP"]))


@settings(max_examples=400, deadline=None)
@given(hs.lists(_card, min_size=1, max_size=3), hs.booleans())
def test_window_combinations_match_reference(cards, two_straight):
    got = ka.window_combinations(cards, two_straight)
    assert got == ref.window_options(cards, two_straight)


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.integers(1, 12), min_size=1, max_size=3), hs.lists(hs.integers(1, 12), min_size=1, max_size=3))
def test_combination_and_beats_match_reference(a, b):
    assert ka.combination(a) == ref.combination(a)
    ca, cb = ref.combination(a), ref.combination(b)
    if ca and cb:
        assert ka.beats(ca, cb) == ref.beats(ca, cb)
        assert ka.beats(ca, cb) == (ka.combination_index(*ca) > ka.combination_index(*cb))


_LEN = {"solo": 1, "2-straight": 2, "pair": 2, "3-straight": 3, "triple": 3}


@settings(max_examples=150, deadline=None)
@given(hs.lists(hs.integers(1, 12) | hs.sampled_from(["X", "DRAW", "STOP"]), min_size=1, max_size=8))
def test_legal_plays_match_reference(hand):
    others = [[1, 1, 1], [2, 2, 2]]
    if any(hand.count(c) > 2 for c in ("X", "DRAW", "STOP")) or any(
            hand.count(v) + sum(h.count(v) for h in others) > 4 for v in range(1, 13)) or set(hand) == {"DRAW"}:
        return  # not a hand of this deck, or a leader that could not act (no such state)
    s = scripted([hand] + others, leader=0)
    got = []
    for a in s.legal_actions():
        if a < ka.A_STOP:
            st, c = divmod(a, 57)
            combo = ka.combination_of_index(c)
            got.append((st, _LEN[combo[0]], combo))
    assert got == ref.adjacent_plays(hand) or sorted(got) == sorted(ref.adjacent_plays(hand))
    assert len(got) == len(set(got))


@settings(max_examples=200, deadline=None)
@given(hs.lists(_card, min_size=1, max_size=3), hs.integers(-1, 56))
def test_window_combinations_above_match_reference(cards, above):
    old = None if above < 0 else ka.combination_of_index(above)
    assert ka.window_combinations(cards, True, above) == [c for c in ref.window_options(cards) if ref.beats(c, old)]


@settings(max_examples=300, deadline=None)
@given(hs.lists(_card, min_size=0, max_size=18), hs.integers(-1, 56), hs.integers(0, 2), hs.booleans(),
       hs.booleans())
def test_any_action_agrees_with_legal_actions(hand, best, reserves, two_straight, insert):
    """The cheap "can this player act" test behind KA-14(b) matches the full generator."""
    if not hand and not insert:
        return
    anyact, legal = ka._probe_actions(hand, best, reserves, two_straight, insert)
    assert anyact == bool(legal)
    assert legal == sorted(set(legal))


# ------------------------------------------------------------------ properties over games
def _playout(seed, n=4, policy="random"):
    game = krazy_core.make("krass-kariert", num_players=n)
    s = game.new_initial_state(seed=seed)
    r = random.Random(seed)
    states = [s.clone()]
    while not s.is_terminal():
        a = r.choice(s.legal_actions()) if policy == "random" else s.heuristic_action(r.getrandbits(64))
        s.apply_action(a)
        states.append(s.clone())
    return s, states


@settings(max_examples=12, deadline=None)
@given(hs.integers(0, 2 ** 63), hs.sampled_from([3, 4, 5]))
def test_cards_conserved_and_json_round_trip(seed, n):
    s, states = _playout(seed, n)
    game = s.game
    for st in states[:: max(1, len(states) // 25)] + [s]:
        b = body(st)
        cards = [c for h in b["hands"] for c in h] + [c for r in b["reserves"] for c in r if c is not None] \
            + b["pile"] + b["played"]
        assert len(cards) == 54 and {c: cards.count(c) for c in set(cards)} == DECK
        assert all(len(h) <= ka.MAX_HAND for h in b["hands"])
        back = game.state_from_json(st.to_json())
        assert back == st and back.legal_actions() == st.legal_actions()
    assert sorted(s.returns()) == [0.0] + [1.0] * (n - 1)


@settings(max_examples=8, deadline=None)
@given(hs.integers(0, 2 ** 63))
def test_determinism(seed):
    a, _ = _playout(seed)
    b, _ = _playout(seed)
    assert a == b and a.to_json() == b.to_json()
    h1, _ = _playout(seed, policy="heuristic")
    h2, _ = _playout(seed, policy="heuristic")
    assert h1.to_json() == h2.to_json()


@settings(max_examples=10, deadline=None)
@given(hs.integers(0, 2 ** 63), hs.integers(0, 4))
def test_no_hidden_order_leaks(seed, viewer):
    _, states = _playout(seed, 5)
    for st in states[:: max(1, len(states) // 15)]:
        if st.is_terminal():
            continue
        obs = st.observation(viewer)
        d = st.determinize(viewer, seed=seed + 1)
        # a resampled world that the viewer cannot tell apart: same view, same tensor
        assert d.observation(viewer) == obs
        assert np.array_equal(d.observation_tensor(viewer), st.observation_tensor(viewer))
        assert d.events_for(viewer) == st.events_for(viewer)
        # positions of other players never appear in the viewer's log
        for e in st.events_for(viewer):
            if e["player"] != viewer and "position" in e:
                assert e["position"] is None
            if e["event"] in ("deal", "drawn") and e["player"] != viewer:
                assert e["card"] is None


def test_determinize_resamples_other_hands_and_keeps_known_cards():
    s = scripted([[2, 9, 9], [5, 6, 7], [4, 8, 8], [3, 10, 10]],
                 reserves=[[1, None], [11, 12], [None, None], [None, None]], leader=0)
    play(s, "play 0 solo 2")
    play(s, "reserve slot 1 at 1")
    seen = set()
    for k in range(20):
        d = s.determinize(0, seed=k)
        assert d.hand(0) == s.hand(0)
        assert 0x6C in d.hand(1) and len(d.hand(1)) == 4
        assert [len(d.hand(q)) for q in range(4)] == [len(s.hand(q)) for q in range(4)]
        seen.add(tuple(d.hand(1)))
    assert len(seen) > 10


@settings(max_examples=10, deadline=None)
@given(hs.integers(0, 2 ** 63), hs.integers(0, 3))
def test_determinization_depends_only_on_the_information_set(seed, viewer):
    """Two worlds the viewer cannot tell apart give the same determinization for the same
    seed: nothing hidden leaks into search through the sample."""
    _, states = _playout(seed, 4)
    for st in states[5:-1:max(1, len(states) // 6)]:
        other = st.determinize(viewer, seed=seed ^ 0xABC)       # same view, other hidden cards
        assert other.observation(viewer) == st.observation(viewer)
        a, b = st.determinize(viewer, seed=7), other.determinize(viewer, seed=7)
        assert body(a) == body(b)


def test_hostile_event_payloads_do_not_break_the_views():
    s = scripted([[3, 9, 4, 5], [1, 5], [2, 6]], reserves=[[None, None], [7, None], [8, None]], leader=0)
    doc = json.loads(s.to_json())
    doc["events"] = [[4, 0, 99, -1], [2, 1, 300, 5], [9, 0, -7, 0], [8, 2, 0, 1234]]
    t = s.game.state_from_json(json.dumps(doc))
    assert len(t.events) == 4 and len(t.events_for("all")) == 4
    doc["events"] = [[15, 0, 0, 0]]
    with pytest.raises(InvalidStateError):
        s.game.state_from_json(json.dumps(doc))


@settings(max_examples=10, deadline=None)
@given(hs.integers(0, 2 ** 63), hs.sampled_from([3, 4, 5]))
def test_every_trick_winner_and_next_leader_as_KA_10(seed, n):
    """Replays the omniscient event log with hand sizes alone and checks each trick: one
    lap at most (KA-9), its winner (KA-10/KA-11) and the next trick's leader (KA-10)."""
    s, _ = _playout(seed, n)
    sizes = [0] * n
    trick = None
    checked = 0
    for e in s.raw_events():
        kind, p, a, b = e
        name = ka.EVENT_NAMES[kind]
        if name == "hand_start":
            sizes = [0] * n
        elif name == "deal" or name == "take_reserve" or name == "drawn":
            sizes[p] += 1
        elif name == "trick_start":
            if trick is not None and trick["end"] is not None:
                w, second = trick["end"]
                if sizes[w] > 0:
                    want = w
                elif second is not None and sizes[second] > 0:
                    want = second
                else:
                    want = (w + 1) % n
                    while sizes[want] == 0:
                        want = (want + 1) % n
                assert p == want
                checked += 1
            trick = {"leader": p, "plays": [], "actors": [], "end": None}
        elif name == "hand_end":
            trick = None
        if name in ("play", "stop", "draw_card", "take_reserve") and trick is not None:
            if not (name == "take_reserve" and p == trick["leader"] and not trick["plays"]):
                assert p not in trick["actors"]  # one lap: each player acts once (KA-9)
                trick["actors"].append(p)
        if name == "play":
            sizes[p] -= {0: 1, 1: 2, 2: 2, 3: 3, 4: 3}[ref.TYPES.index(ka.combination_of_index(a)[0])]
            if trick is not None:
                if trick["plays"] and trick["plays"][-1][0] == "combo":
                    assert a > trick["plays"][-1][2]  # each play beats the best so far (KA-7)
                trick["plays"].append(("combo", p, a))
        elif name in ("stop", "draw_card"):
            sizes[p] -= 1
            if name == "stop" and trick is not None:
                trick["plays"].append(("stop", p, None))
        elif name == "trick_end" and trick is not None:
            plays = trick["plays"]
            w = plays[-1][1]
            combos = [x for x in plays if x[0] == "combo"]
            if plays[-1][0] == "stop":
                second = combos[-1][1] if combos else None
            else:
                second = combos[-2][1] if len(combos) >= 2 else None
            assert p == w
            trick["end"] = (w, second)
    assert checked > 5


def test_clone_independent_and_hostile_json():
    s = krazy_core.make("krass-kariert").new_initial_state(seed=3)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert c != s and s.to_json() != c.to_json()
    good = json.loads(s.to_json())
    game = s.game
    def bad(mut):
        doc = json.loads(json.dumps(good))
        mut(doc["state"])
        with pytest.raises(InvalidStateError):
            game.state_from_json(json.dumps(doc))
    bad(lambda b: b["hands"][0].append(0x61))
    bad(lambda b: b["hands"][0].__setitem__(0, 0x50))
    bad(lambda b: b.__setitem__("current_player", 7))
    bad(lambda b: b.__setitem__("phase", "insert"))
    bad(lambda b: b.__setitem__("pending", 3))
    bad(lambda b: b.__setitem__("best_combination", 99))
    bad(lambda b: b.__setitem__("chips", [3, 3, 3, 4]))
    bad(lambda b: b.__setitem__("known", [[4] * 15] * 4))
    bad(lambda b: b.__setitem__("trick", [{"player": 0, "kind": "combination", "combination": 3,
                                            "cards": [0x61, 0x61]}]))
    bad(lambda b: b.__setitem__("rng", [0, 0, 0, 0]))
    bad(lambda b: b.pop("turn"))
    bad(lambda b: b.__setitem__("loser", 2))
    # a hand that could outgrow 18 cards
    def grow(b):
        b["hands"][0] = b["hands"][0] + b["pile"]
        b["pile"] = []
    bad(grow)
    with pytest.raises(InvalidStateError):
        game.state_from_json("{")
    with pytest.raises(IllegalActionError):
        s.apply_action(ka.A_INSERT)
    assert json.loads(s.to_json()) == good


def test_observation_tensor_and_heuristic():
    for n in (3, 4, 5):
        game = krazy_core.make("krass-kariert", num_players=n)
        s = game.new_initial_state(seed=n)
        assert game.observation_tensor_shape == (623,)
        t = s.observation_tensor(0)
        assert t.shape == (623,) and t.dtype == np.float32
        assert t[:270].sum() == s.observation(0)["hand_sizes"][0]
    # the heuristic beats a weak table cheaply rather than breaking its pair
    s = scripted([[3, 1, 1], [7, 7, 5, 12], [2, 2, 9]], leader=0)
    play(s, "play 0 solo 3")
    assert s.action_to_string(s.heuristic_action(1)) == "play 2 solo 5"
    # ... and takes a reserve where it joins a combination when it cannot beat
    s = scripted([[12, 1, 1], [6, 3, 9, 11], [2, 2, 9]], reserves=[[None, None], [10, None], [None, None]],
                 leader=0)
    play(s, "play 0 solo 12")
    assert s.action_to_string(s.heuristic_action(1)) == "reserve slot 0 at 3"


def test_simulate_random_counts_decisions():
    from krazy_core._state import simulate_random as generic
    game = krazy_core.make("krass-kariert", num_players=4)
    r = ka.simulate_random(game, 50, 7)
    assert r["games"] == 50 and r["decisions"] > 50 * 50 and r["seconds"] > 0
    assert ka.simulate_random(game, 50, 7)["decisions"] == r["decisions"]
    assert generic(game, 50, 7)["games"] == 50
    with pytest.raises(ConfigError):
        ka.simulate_random(krazy_core.make("krazy-kings"), 1, 1)


def test_heuristic_beats_random():
    game = krazy_core.make("krass-kariert", num_players=4)
    losses = 0
    for g in range(40):
        s = game.new_initial_state(seed=1000 + g)
        r = random.Random(g)
        while not s.is_terminal():
            a = s.heuristic_action(r.getrandbits(64)) if s.current_player() == 0 else r.choice(s.legal_actions())
            s.apply_action(a)
        losses += s.returns()[0] == 0.0
    assert losses <= 5  # random seats lose 1/4 of games each; the heuristic far less


def test_action_strings_and_illegal_explanations():
    s = scripted([["X", 5, 9], [1, 1], [2, 2]], reserves=[[12, None], [None, None], [None, None]], leader=0)
    a = s.string_to_action("play 0-1 pair 5")
    assert s.action_to_string(a) == "play 0-1 pair 5 (X=5)" and a == 0 * 57 + 27
    assert s.string_to_action("play 0-1 pair 5 (X=5)") == a
    with pytest.raises(IllegalActionError, match="no combination"):
        s.apply_action(1 * 57 + ka.combination_index("pair", 5))   # 5 9 is no pair
    with pytest.raises(IllegalActionError, match="past the end"):
        s.apply_action(2 * 57 + ka.combination_index("pair", 9))
    with pytest.raises(IllegalActionError, match="only when it cannot lead"):
        s.apply_action(ka.A_RESERVE)                              # the leader can lead
    with pytest.raises(IllegalActionError, match="no reserve card 1"):
        s.apply_action(ka.A_RESERVE + 18)
    lead_draw = scripted([["DRAW", 5], [1, 1], [2, 2]], leader=0)
    with pytest.raises(IllegalActionError, match="never leads a trick .KA-9."):
        lead_draw.apply_action(ka.A_DRAW + 0)
    play(s, "play 2 solo 9")
    with pytest.raises(IllegalActionError, match="does not beat the trick's solo 9 .KA-7."):
        s.apply_action(0 * 57 + ka.combination_index("solo", 1))
    assert [ka._action_text(a) for a in (0, 1025, 1026, 1044, 1062, 1080, 1098, 1115)] == [
        "play 0 solo 1", "play 17-19 triple 12", "stop 0", "draw 0", "reserve slot 0 at 0", "reserve slot 1 at 0",
        "insert at 0", "insert at 17"]


def test_ui_render_shows_own_hand_in_order_and_hides_others():
    from rich.console import Console
    from krazy_core.ui import load_ui
    ui = load_ui("krass-kariert")
    s = scripted([[3, 9, 4, 5], [1, 5, 11], [2, 6]], reserves=[[None, None], [7, None], [8, None]], leader=0)
    play(s, "play 1 solo 9")
    con = Console(record=True, width=120)
    con.print(ui.render(s, 1))
    out = con.export_text()
    assert "Your hand" in out and "To beat" in out and "solo 9 by seat 1" in out
    assert "You can play: 3 solo 11" in out         # positions from 1 at the table (issue 16)
    assert "9 = solo 9" in out                     # the current trick
    con = Console(record=True, width=120)
    con.print(ui.render(s, None))
    assert "Your hand" not in con.export_text()
    names = ["A", "B", "C"]
    lines = [ui.describe_event(e, names) for e in s.events]
    assert "A plays 9 as solo 9" in lines
    labels = [ui.action_label(s, a) for a in s.legal_actions()]
    assert labels[0] == "play 3 solo 11: 11" and "take reserve 7 into position 1" in labels


def _perft(s, depth):
    if depth == 0 or s.is_terminal():
        return 1
    total = 0
    for a in s.legal_actions():
        c = s.clone()
        c.apply_action(a)
        total += _perft(c, depth - 1)
    return total


@pytest.mark.parametrize("n,counts,decisions,hand0", [
    (3, [12, 305, 11025], 4111, [99, 97, 107, 99, 112, 98, 102, 107, 105, 99]),
    (4, [12, 387, 10434], 5066, [99, 106, 97, 112, 97, 101, 105, 100, 98, 104]),
    (5, [8, 230, 4091], 3192, [99, 106, 103, 98, 101, 101, 101]),
])
def test_golden_perft_and_playouts(n, counts, decisions, hand0):
    """Golden values (seed 42): legal action sequences of depth 1..3 from the deal, the
    decisions of 20 in-core random games, seat 0's first hand.  A change here is a change
    of the deal, the move generator or the PRNG, and must be deliberate."""
    game = krazy_core.make("krass-kariert", num_players=n)
    s = game.new_initial_state(seed=42)
    assert s.hand(0) == hand0
    assert [_perft(s, d) for d in (1, 2, 3)] == counts
    assert ka.simulate_random(game, 20, 42)["decisions"] == decisions


def test_ui_labels_tell_equal_reserve_cards_apart_and_pile_excludes_drawn_cards():
    from rich.console import Console
    from krazy_core.ui import load_ui
    ui = load_ui("krass-kariert")
    s = scripted([[3, 9, 4, 5], [1, 5, 11], [2, 6]], reserves=[[None, None], [4, 4], [8, None]], leader=0)
    play(s, "play 1 solo 9")
    labels = [ui.action_label(s, a) for a in s.legal_actions()]
    takes = [x for x in labels if x.startswith("take reserve")]
    assert len(takes) == len(set(takes)) == 8            # 2 slots x 4 positions (KA-9)
    assert "take reserve 4 (left) into position 1" in takes      # positions from 1 at the table
    assert "take reserve 4 (right) into position 4" in takes
    assert "take reserve 8 into position 1" not in labels  # seat 2's reserve is not seat 1's
    # KA-12: while seat 2 inserts its drawn cards they are no longer counted in the pile
    s = scripted([[3, 1, 1], ["DRAW", 2, 2], [4, 9, 9]], leader=0, pile=[10, 11, 12, 7])
    for t in ("play 0 solo 3", "draw 0", "play 0 solo 4"):
        play(s, t)
    assert s.observation(2)["pile_size"] == 4 and s.observation(2)["pending_draws"] == 3

    def pile_line():
        con = Console(record=True, width=120)
        con.print(ui.render(s, 2))
        return [ln for ln in con.export_text().splitlines() if "Draw pile" in ln][0]
    assert "1 card (after the 3 being drawn)" in pile_line()
    play(s, "insert at 0")
    assert "1 card (after the 2 being drawn)" in pile_line()
    play(s, "insert at 0")
    play(s, "insert at 0")
    assert re.search(r"Draw pile\s+1 card\s", pile_line()) and "drawn" not in pile_line()
