"""Kings Rummy (krazy_core/games/kings_rummy/core.pyx): one or more tests per rule KR-1..KR-17
with exact outcomes, on scripted states (JSON built here) and seeded games, plus property
tests (cards conserved, determinism, no hidden card leaks, determinization)."""
import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

import krazy_core
from helpers import random_playout
from krazy_core import ConfigError, IllegalActionError, InvalidStateError
from krazy_core.bots import HeuristicBot, RandomBot
from krazy_core.cards import parse_card, parse_cards
from krazy_core.games import kings_rummy as KR

JK = 0x50
FULL = Counter({(s << 4) | r: 2 for s in range(5) for r in range(3, 14)})
FULL[JK] = 6
DRAW, TAKE = 0, 1


def disc(card):
    return 2 + KR.card_kind(parse_card(card))


def out(card):
    return 58 + KR.card_kind(parse_card(card))


def names(state):
    return [e["event"] for e in state.events]


def cards_of(state):
    body = json.loads(state.to_json())["state"]
    c = Counter(body["stock"]) + Counter(body["discard"])
    for h in body["hands"]:
        c += Counter(h)
    return c


def scripted(hands, discard, stock_top=(), *, round=1, cur=0, phase="draw", n=None, seed=0,
             rounds=1, **options):
    """A state of ``round`` with the given hands (texts), discard pile (bottom..top) and the
    top cards of the stock (``stock_top[-1]`` is drawn first); the rest of the 116 cards lie
    under them in the stock."""
    n = n or len(hands)
    game = krazy_core.make("kings-rummy", num_players=n, first_round=round, rounds=rounds, **options)
    doc = json.loads(game.new_initial_state(seed=seed).to_json())
    body = doc["state"]
    hands = [parse_cards(h) for h in hands]
    discard = parse_cards(discard)
    top = parse_cards(list(stock_top))
    rest = FULL.copy()
    for c in [c for h in hands for c in h] + discard + top:
        rest[c] -= 1
        assert rest[c] >= 0, c
    body["hands"] = [sorted(h) for h in hands]
    body["discard"] = discard
    body["stock"] = sorted(rest.elements()) + top
    if cur is not None:
        body["current_player"] = cur
    body["phase"] = phase
    doc["events"] = []
    return game.state_from_json(json.dumps(doc))


# ------------------------------------------------------------------ materials, rounds

def test_KR_1_deck_of_116_cards():
    s = krazy_core.make("kings-rummy", num_players=4).new_initial_state(seed=3)
    assert cards_of(s) == FULL
    assert sum(FULL.values()) == 116 and FULL[JK] == 6
    assert len([c for c in FULL if c != JK]) == 55 and all(FULL[c] == 2 for c in FULL if c != JK)


@pytest.mark.parametrize("r", range(1, 12))
def test_KR_2_round_r_deals_r_plus_2(r):
    s = krazy_core.make("kings-rummy", num_players=3, first_round=r, rounds=1).new_initial_state(seed=r)
    assert s.round == r
    assert [len(s.hand(p)) for p in range(3)] == [r + 2] * 3
    assert s.observation(0)["cards_dealt"] == r + 2
    assert s.events[0] == {"event": "round", "player": (r - 1) % 3, "round": r, "cards": r + 2, "wild_rank": r + 2}


def test_KR_2_full_game_plays_eleven_rounds():
    game = krazy_core.make("kings-rummy", num_players=3)
    s = game.new_initial_state(seed=1)
    bot = HeuristicBot(seed=1)
    while not s.is_terminal():
        s.apply_action(bot.step(s))
    rounds = [e for e in s.events if e["event"] == "round"]
    assert [e["round"] for e in rounds] == list(range(1, 12))
    assert [e["cards"] for e in rounds] == list(range(3, 14))
    assert len([e for e in s.events if e["event"] == "round_score"]) == 33


def test_KR_3_wild_rank_rotates():
    for r in (1, 5, 11):
        s = krazy_core.make("kings-rummy", num_players=2, first_round=r, rounds=1).new_initial_state(seed=0)
        assert s.wild_rank == r + 2 and s.observation(1)["wild_rank"] == r + 2
    # round 5: 7s are wild -- 7C completes 9S 9D, so the hand goes out discarding KD
    s = scripted(["3H 4H 5H 7C 9S 9D KD", "3S 4S 6D 8D 10C JC QC"], "QH", ["6H"], round=5)
    s.apply_action(DRAW)
    assert [a for a in s.legal_actions() if a >= 58] == [out("KD")]
    # in round 4 (6 cards, 6s wild) 7C is a natural card
    s = scripted(["3H 4H 5H 7C 9S 9D", "3S 4S 6D 8D 10C JC"], "QH", ["KH"], round=4)
    s.apply_action(DRAW)
    assert [a for a in s.legal_actions() if a >= 58] == []


def test_KR_4_deal_order_dealer_and_starter():
    game = krazy_core.make("kings-rummy", num_players=4)
    s = game.new_initial_state(seed=7)
    deals = [e["player"] for e in s.events_for("all") if e["event"] == "deal"]
    assert deals == [1, 2, 3, 0] * 3                     # one at a time from the dealer's left
    ups = [e for e in s.events if e["event"] == "up_card"]
    assert len(ups) == 1 and s.observation(0)["discard_pile"] == [ups[0]["card"]]
    assert s.current_player() == 1 and s.observation(0)["dealer"] == 0
    assert s.observation(0)["stock_size"] == 116 - 12 - 1
    g2 = krazy_core.make("kings-rummy", num_players=4, first_dealer=2)
    s2 = g2.new_initial_state(seed=7)
    assert s2.current_player() == 3 and [e["player"] for e in s2.events if e["event"] == "deal"][:4] == [3, 0, 1, 2]
    # the deal passes left each round; a slice is dealt as in the full game
    s3 = krazy_core.make("kings-rummy", num_players=4, first_round=3, rounds=1).new_initial_state(seed=1)
    assert s3.observation(0)["dealer"] == 2 and s3.current_player() == 3
    with pytest.raises(ConfigError, match="first_dealer"):
        krazy_core.make("kings-rummy", num_players=3, first_dealer=5).new_initial_state(seed=0)


# ------------------------------------------------------------------ melds in play

def test_KR_5_book_with_duplicate_cards_goes_out():
    s = scripted(["KH KH KS", "3S 4S 6D"], "QH", ["9D"])
    s.apply_action(DRAW)
    assert s.legal_actions() == sorted([disc("KS"), disc("KH"), disc("9D"), out("9D")])


def test_KR_6_run_without_wrap():
    s = scripted(["QH KH 4H", "3S 4S 6D"], "QD", ["9D"], round=1)
    s.apply_action(DRAW)
    assert not [a for a in s.legal_actions() if a >= 58]   # Q-K-4 wraps: no run
    s = scripted(["JH QH KH", "3S 4S 6D"], "QD", ["9D"])
    s.apply_action(DRAW)
    assert out("9D") in s.legal_actions()


def test_KR_7_wilds_anywhere_even_all_wild():
    s = scripted(["JK 3C 3D", "4S 5S 6D"], "QD", ["9D"])         # round 1: 3s wild
    s.apply_action(DRAW)
    # any card may go: the other three are a meld (all wild, or a book of 9s)
    assert [a for a in s.legal_actions() if a >= 58] == sorted(out(c) for c in ("3C", "3D", "9D", "JK"))
    s = scripted(["5H JK 8H", "4S 5S 6D"], "QD", ["9D"])
    s.apply_action(TAKE)                                          # QD: no meld
    assert [a for a in s.legal_actions() if a >= 58] == []


# ------------------------------------------------------------------ a turn

def test_KR_8_draw_exactly_one_card():
    s = scripted(["5H 9S KD", "4S 5S 6D"], "QD", ["10C"])
    assert s.legal_actions() == [DRAW, TAKE]
    assert s.action_to_string(TAKE) == "take Q♦"
    s.apply_action(TAKE)
    assert s.hand(0) == sorted(parse_cards("5H 9S QD KD")) and s.observation(0)["discard_pile"] == []
    assert all(a >= 2 for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="drawn already"):
        s.apply_action(DRAW)
    s = scripted(["5H 9S KD", "4S 5S 6D"], "QD", ["10C"])
    s.apply_action("draw")
    assert s.hand(0) == sorted(parse_cards("5H 9S 10C KD"))
    assert s.events[-1] == {"event": "draw", "player": 0, "card": None}
    assert s.events_for(0)[-1]["card"] == parse_card("10C")


def test_KR_9_discard_ends_the_turn():
    s = scripted(["5H 9S KD", "4S 5S 6D"], "QD", ["10C"])
    s.apply_action(DRAW)
    s.apply_action("KD")
    assert s.current_player() == 1 and s.observation(1)["phase"] == "draw"
    assert s.observation(1)["top_card"] == parse_card("KD") and s.hand(0) == sorted(parse_cards("5H 9S 10C"))
    with pytest.raises(IllegalActionError, match="does not hold"):
        s2 = scripted(["5H 9S KD", "4S 5S 6D"], "QD", ["10C"])
        s2.apply_action(DRAW)
        s2.apply_action(disc("QS"))


def test_KR_10_going_out_scores_zero_and_needs_a_discard():
    s = scripted(["5H 6H 7H", "4S 5S 6D", "8C 9C JD"], "QD", ["10C"], cur=0)
    s.apply_action(DRAW)                                  # first turn: may go out at once
    assert out("10C") in s.legal_actions() and out("5H") not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="KR-10"):
        s.apply_action(out("5H"))
    s.apply_action("go out, discard 10♣")
    ev = s.events
    assert {"event": "go_out", "player": 0, "card": parse_card("10C"), "card_text": "10♣"} in ev
    assert s.observation(1)["went_out"] == 0 and s.observation(1)["laid_down"][0] == parse_cards("5H 6H 7H")
    assert s.observation(2)["round_points"][0] == 0
    # a wild may be the discard
    s = scripted(["5H 6H 7H", "4S 5S 6D"], "QD", ["3C"])
    s.apply_action(DRAW)
    assert out("3C") in s.legal_actions()


def test_KR_11_last_turns_then_the_round_ends():
    s = scripted(["5H 6H 7H", "4S 5S 6D", "8C 9C JD"], "QD", ["KS", "KC", "10C"], rounds=2, cur=0)
    s.apply_action(DRAW)
    s.apply_action(out("10C"))
    assert s.current_player() == 1 and s.observation(1)["last_turns_left"] == 2
    assert [e for e in s.events if e["event"] == "turn"][-1]["last_turn"] is True
    s.apply_action(DRAW)                                  # seat 1 draws KC
    assert all(a < 58 for a in s.legal_actions())         # no going out in a last turn
    s.apply_action("KC")
    assert s.observation(2)["round_points"][1] == 4 + 5 + 6   # 4S 5S 6D left
    s.apply_action(TAKE)                                  # seat 2 takes KC
    s.apply_action("KC")
    assert s.round == 2 and s.current_player() == 2         # round 2: dealer 1, seat 2 starts
    scores = [e for e in s.events if e["event"] == "round_score"]
    assert [(e["player"], e["points"]) for e in scores] == [(0, 0), (1, 15), (2, 8 + 9 + 11)]
    assert s.scores() == [0, 15, 28]
    assert s.last_round()["went_out"] == 0 and s.last_round()["points"] == [0, 15, 28]


def test_KR_12_best_arrangement_at_scoring():
    # round 5, 7s wild: 3H 4H 5H + 6H 6S 6C, 9D left = 9 (a greedy split would leave 21)
    hand = "3H 4H 5H 6H 6S 6C 9D"
    s = scripted([hand, "3S 4S 5S 8H 8H 8C KD", "JH JS JC 4D 4C 8S 10D"], "QD", ["KS", "KC", "7C"],
                 round=5, cur=1)
    s.apply_action(DRAW)                                  # seat 1 draws 7C: 8H 8H 8C 7C
    s.apply_action(out("KD"))
    s.apply_action(DRAW)                                  # seat 2: KC
    s.apply_action("KC")
    s.apply_action(DRAW)                                  # seat 0: KS
    s.apply_action("KS")
    assert s.is_terminal()
    assert s.last_round()["points"] == [9, 0, 4 + 4 + 8 + 10]
    lays = [e for e in s.events if e["event"] == "lay_down" and e["player"] == 0]
    assert [e["card_text"] for e in lays if e["meld"] is None] == ["9♦"]
    assert len({e["meld"] for e in lays if e["meld"] is not None}) == 2


def test_KR_13_stock_rebuilt_from_the_discard_pile():
    s = scripted(["5H 9S KD", "4S 5S 6D"], "QD 10D JS", [])
    body = json.loads(s.to_json())
    # move every stock card but one into the discard pile under the top
    doc = body
    stock = doc["state"]["stock"]
    doc["state"]["discard"] = stock[:-1] + doc["state"]["discard"]
    doc["state"]["stock"] = stock[-1:]
    s = s.game.state_from_json(json.dumps(doc))
    pile = len(doc["state"]["discard"])
    s.apply_action(DRAW)
    s.apply_action("KD")
    assert names(s)[-2:] == ["turn", "stock_rebuilt"]
    o = s.observation(1)
    assert o["discard_pile"] == [parse_card("KD")] and o["stock_size"] == pile
    assert cards_of(s) == FULL


def test_KR_14_points_of_cards_left():
    s = scripted(["JK 5H 9S", "3S KD QC"], "QD", ["4D", "10C"], cur=0, max_turns=2)
    s.apply_action(DRAW)
    s.apply_action("10C")
    s.apply_action(DRAW)
    s.apply_action("4D")                               # turn limit: both hands scored
    assert s.last_round()["points"] == [50 + 5 + 9, 20 + 13 + 12]
    s = scripted(["JK 5H 9S", "3S KD QC"], "QD", ["4D", "10C"], cur=0, max_turns=2, wild_points=25, joker_points=40)
    for a in (DRAW, "10C", DRAW, "4D"):
        s.apply_action(a)
    assert s.last_round()["points"] == [40 + 5 + 9, 25 + 13 + 12]


def test_KR_15_lowest_total_wins_ties_share():
    s = scripted(["JK 5H 9S", "3S KD QC", "9D 9D 9C"], "QD", ["4H", "4D", "10C"], cur=0, max_turns=3)
    for a in (DRAW, "10C", DRAW, "4D", DRAW, "4H"):
        s.apply_action(a)
    assert s.is_terminal() and s.scores() == [64, 45, 0]
    assert s.returns() == [0.0, 0.0, 1.0]
    s = scripted(["5H 9S 8D", "4S 9C 9H"], "QD", ["4D", "10C"], cur=0, max_turns=2)
    for a in (DRAW, "10C", DRAW, "4D"):
        s.apply_action(a)
    assert s.scores() == [22, 22] and s.returns() == [0.5, 0.5]


def test_KR_16_rounds_and_first_round_slices():
    g = krazy_core.make("kings-rummy", num_players=2, first_round=10, rounds=2)
    s = g.new_initial_state(seed=2)
    rng = random.Random(2)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert [e["round"] for e in s.events if e["event"] == "round"] == [10, 11]
    with pytest.raises(ConfigError, match="KR-16"):
        krazy_core.make("kings-rummy", first_round=5, rounds=8).new_initial_state(seed=0)
    with pytest.raises(ConfigError, match="rounds"):
        krazy_core.make("kings-rummy", rounds=12)


def test_KR_17_turn_limit_ends_the_round():
    g = krazy_core.make("kings-rummy", num_players=3, rounds=2, max_turns=5)
    s = g.new_initial_state(seed=4)
    for _ in range(10):                                   # 5 turns: draw + discard each
        s.apply_action(DRAW)
        s.apply_action(s.legal_actions()[0])
        if s.round == 2:
            break
    assert s.round == 2
    ev = [e for e in s.events if e["event"] == "turn_limit"]
    assert ev == [{"event": "turn_limit", "player": -1, "turns": 5, "round": 1}]
    assert len([e for e in s.events if e["event"] == "round_score"]) == 3
    assert s.stats()["turn_limits"] == 1 and s.stats()["turn_limit"] is True


# ------------------------------------------------------------------ public knowledge, views

def test_taken_discard_is_public_and_kept_by_determinize():
    s = scripted(["5H 9S KD", "4S 5S 6D"], "QD", ["10C", "JC"])
    s.apply_action(TAKE)
    s.apply_action("KD")
    o = s.observation(1)
    assert o["known_cards"][0] == [parse_card("QD")] and "hand" in o and o["hand"] == parse_cards("4S 5S 6D")
    assert {"event": "take_discard", "player": 0, "card": parse_card("QD"), "card_text": "Q♦"} in s.events
    for seed in range(20):
        d = s.determinize(1, seed=seed)
        assert parse_card("QD") in d.hand(0) and d.observation(1) == o
        assert cards_of(d) == FULL
    # once a QD is discarded again, it is no longer known
    s.apply_action(DRAW)
    s.apply_action("4S")
    s.apply_action(DRAW)
    s.apply_action("QD")
    assert s.observation(1)["known_cards"][0] == []


def test_json_round_trip_and_validation():
    s = scripted(["5H 9S KD", "4S 5S 6D"], "QD", ["10C"])
    doc = json.loads(s.to_json())
    assert s.game.state_from_json(s.to_json()) == s
    bad = json.loads(json.dumps(doc))
    bad["state"]["hands"][0].append(bad["state"]["stock"].pop())
    with pytest.raises(InvalidStateError, match="needs 3"):
        s.game.state_from_json(json.dumps(bad))
    bad = json.loads(json.dumps(doc))
    bad["state"]["stock"][0] = JK
    with pytest.raises(InvalidStateError, match="116"):
        s.game.state_from_json(json.dumps(bad))
    bad = json.loads(json.dumps(doc))
    bad["state"]["known"][1][0] = 2
    with pytest.raises(InvalidStateError, match="known"):
        s.game.state_from_json(json.dumps(bad))
    bad = json.loads(json.dumps(doc))
    bad["state"]["hands"][0][0] = parse_card("2H")
    with pytest.raises(InvalidStateError, match="KR-1"):
        s.game.state_from_json(json.dumps(bad))


def test_action_strings():
    s = scripted(["5H 6H 7H", "4S 5S 6D"], "QD", ["10C"])
    assert s.string_to_action("stock") == DRAW and s.string_to_action("pile") == TAKE
    s.apply_action(DRAW)
    assert s.string_to_action("10C out") == out("10C")
    assert s.action_to_string(out("10C")) == "go out, discard 10♣"
    assert s.string_to_action("5H") == disc("5H")


# ------------------------------------------------------------------ properties

@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 7))
def test_cards_conserved_and_deterministic(seed, n):
    g = krazy_core.make("kings-rummy", num_players=n, rounds=2)
    a, b = g.new_initial_state(seed=seed), g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not a.is_terminal() and steps < 400:
        assert cards_of(a) == FULL
        act = rng.choice(a.legal_actions())
        a.apply_action(act)
        b.apply_action(act)
        steps += 1
    assert a == b and a.to_json() == b.to_json()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 5))
def test_hidden_hands_never_leak(seed, n):
    g = krazy_core.make("kings-rummy", num_players=n, rounds=1)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    random_playout(s, rng, max_steps=rng.randrange(1, 60))
    if s.is_terminal():
        return
    p = rng.randrange(n)
    o = s.observation(p)
    # the observation is the same in every determinization for p (which re-deals the
    # hidden cards), so it can't depend on them; known cards are really there
    hidden_changed = False
    for seed2 in range(4):
        d = s.determinize(p, seed=seed2)
        assert d.observation(p) == o
        assert cards_of(d) == FULL
        if s.current_player() == p:
            assert d.legal_actions() == s.legal_actions()
        hidden_changed |= any(d.hand(q) != s.hand(q) for q in range(n) if q != p)
    if any(o["laid_down"][q] is None and len(o["known_cards"][q]) < o["hand_sizes"][q]
           for q in range(n) if q != p):
        assert hidden_changed
    for e in s.events_for(p):
        if e["event"] in ("deal", "draw") and e["player"] != p:
            assert e["card"] is None
    for q in range(n):
        assert not Counter(o["known_cards"][q]) - Counter(s.hand(q))   # a sub-multiset (Counter <= is 3.10+)


def test_heuristic_beats_random():
    g = krazy_core.make("kings-rummy", num_players=4, rounds=3)
    wins = 0.0
    for seed in range(12):
        s = g.new_initial_state(seed=seed)
        bots = [HeuristicBot(seed=seed)] + [RandomBot(seed=seed + k) for k in range(1, 4)]
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].step(s))
        wins += s.returns()[0]
    assert wins >= 9


def test_simulate_random_in_core():
    g = krazy_core.make("kings-rummy", num_players=4, rounds=1)
    r1 = KR.simulate_random(g, 50, 5)
    r2 = KR.simulate_random(g, 50, 5)
    assert set(r1) == {"games", "decisions", "seconds", "decisions_per_second"}  # one signature
    d1 = r1["decisions"]
    assert d1 == r2["decisions"] and d1 > 100 and r1["seconds"] >= 0 and r1["games"] == 50
    dh = KR.simulate_random(g, 10, 5, "heuristic")["decisions"]
    assert dh > 0 and KR.simulate_random(g, 10, 5, policy="heuristic")["decisions"] == dh
    with pytest.raises(ConfigError):
        KR.simulate_random(g, 0, 5)
    with pytest.raises(ConfigError):
        KR.simulate_random(g, 5, 5, "smart")


def test_ui_renders_hand_by_suit_wilds_and_last_round():
    from rich.console import Console
    from krazy_core.games.kings_rummy import view as ui
    s = scripted(["5H 6H 7H", "4S 5S 3D", "8C 9C JD"], "QD", ["KS", "KC", "10C"], rounds=2, cur=0)
    s.apply_action(DRAW)
    con = Console(width=120, record=True, color_system=None)
    con.print(ui.render(s, 0))
    text = con.export_text()
    assert "Hearts  5♥ 6♥ 7♥" in text and "Clubs  10♣" in text
    assert "3s and Jokers" in text and "Stock" in text and "Q♦" in text
    for a in (out("10C"), DRAW, "KC", TAKE, "KC"):
        s.apply_action(a)
    con = Console(width=120, record=True, color_system=None)
    con.print(ui.render(s, None))
    text = con.export_text()
    assert "Round 1 (wild 3s)" in text and "1 went out" in text       # seats from 1
    assert "[4♠ 5♠ 3♦✱]" in text                         # seat 1's meld, the wild marked
    lines = [ui.describe_event(e, ["A", "B", "C"]) for e in s.events]
    assert "A GOES OUT, discarding 10♣!" in lines
    assert "B scores 0 (total 0)" in lines and "C scores 28 (total 28)" in lines


def test_event_log_replays_every_card_movement():
    """The omniscient log alone rebuilds every hand and the discard pile (KR-8..KR-13)."""
    g = krazy_core.make("kings-rummy", num_players=3, first_round=10, rounds=2, max_turns=220)
    s = g.new_initial_state(seed=12)
    rng = random.Random(12)
    step = 0
    while not s.is_terminal():
        s.apply_action(rng.choice([a for a in s.legal_actions() if a != TAKE and a < 58]))
        step += 1
        if step % 5 and not s.is_terminal():
            continue
        hands, pile, stock = None, [], 0
        for e in s.events_for("all"):
            k = e["event"]
            if k == "round":
                hands, pile = [Counter() for _ in range(3)], []
            elif k == "shuffle":
                stock = e["cards"]
            elif k in ("deal", "draw"):
                hands[e["player"]][e["card"]] += 1
                stock -= 1
            elif k == "up_card":
                pile.append(e["card"])
                stock -= 1
            elif k == "take_discard":
                assert pile.pop() == e["card"]
                hands[e["player"]][e["card"]] += 1
            elif k == "discard":
                hands[e["player"]][e["card"]] -= 1
                pile.append(e["card"])
            elif k == "stock_rebuilt":
                stock, pile = e["cards"], pile[-1:]
        if not s.is_terminal():
            assert [+h for h in hands] == [Counter(s.hand(p)) for p in range(3)]
            o = s.observation(0)
            assert pile == o["discard_pile"] and stock == o["stock_size"]
    assert "stock_rebuilt" in names(s)


def test_KR_4_KR_16_options_are_checked_by_make():
    """make() itself (not new_initial_state) rejects a first dealer beyond the table (KR-4)
    and rounds running past round 11 (KR-16)."""
    with pytest.raises(ConfigError, match=r"first_dealer.*0\.\.1.*KR-4"):
        krazy_core.make("kings-rummy", 2, first_dealer=5)
    with pytest.raises(ConfigError, match=r"first_round=11 and rounds=11.*rounds <= 1.*KR-16"):
        krazy_core.make("kings-rummy", 2, first_round=11, rounds=11)
    with pytest.raises(ConfigError, match="KR-16"):
        krazy_core.make("kings-rummy", 3, first_round=5)        # default rounds=11: 5..15
    assert krazy_core.make("kings-rummy", 6, first_dealer=5).options.first_dealer == 5
    assert krazy_core.make("kings-rummy", 2, first_round=11, rounds=1).options.rounds == 1


def test_ui_wording_singular_plural_and_out_seat_shows_out():
    from rich.console import Console
    from krazy_core.games.kings_rummy import view as ui

    def table():
        con = Console(width=120, record=True, color_system=None)
        con.print(ui.render(s, None))
        return con.export_text()

    def seat_row(text, p):          # the table numbers seats from 1 (issue 16)
        return [ln for ln in text.splitlines() if re.match(rf"\W*(▶ )?{p + 1}\s", ln.lstrip("│ "))][0]

    s = scripted(["5H 6H 7H", "4S 5S 3D", "8C 9C JD"], "QD", ["KS", "KC", "10C"], rounds=2, cur=0)
    text = table()
    assert "(1 card)" in text and "(1 cards)" not in text and "3 cards" in text
    s.apply_action(DRAW)
    s.apply_action(out("10C"))                            # KR-10: seat 0 goes out
    text = table()
    assert "2 last turns to go" in text and "turn(s)" not in text
    assert re.search(r"\sout\s", seat_row(text, 0)) and not re.search(r"\s3\s", seat_row(text, 0))
    assert re.search(r"\s3\s", seat_row(text, 1))
    s.apply_action(DRAW)
    s.apply_action("KC")                                  # KR-11: seat 1's last turn
    text = table()
    assert "1 last turn to go" in text
    assert re.search(r"\slaid\s", seat_row(text, 1)) and re.search(r"\sout\s", seat_row(text, 0))


def test_KR_8_to_KR_10_action_ids_are_named_constants_of_the_package():
    """Issue 12 item 1: the package names the action table (notation.py, re-exported), and the
    names are the engine's: each id's action_to_string is the move its name says."""
    from krazy_core.cards import format_card
    from krazy_core.games.kings_rummy import notation
    g = krazy_core.make("kings-rummy", 3)
    s = g.new_initial_state(4)
    assert (KR.DRAW, KR.TAKE, KR.DISCARD, KR.GO_OUT, KR.NUM_KINDS, KR.NUM_ACTIONS) == (0, 1, 2, 58, 56, 114)
    assert KR.NUM_ACTIONS == g.num_distinct_actions == KR.GO_OUT + KR.NUM_KINDS
    assert notation.DRAW is KR.DRAW and KR.card_kind is notation.card_kind
    assert s.action_to_string(KR.DRAW) == "draw"                                         # KR-8
    top = json.loads(s.to_json())["state"]["discard"][-1]
    assert s.action_to_string(KR.TAKE) == "take " + format_card(top)                     # KR-8
    kinds = {}
    for code in range(128):
        try:
            kinds[code] = KR.card_kind(code)
        except ValueError:
            continue
        assert s.action_to_string(KR.DISCARD + kinds[code]) == "discard " + format_card(code)          # KR-9
        assert s.action_to_string(KR.GO_OUT + kinds[code]) == "go out, discard " + format_card(code)   # KR-10
    assert sorted(kinds.values()) == list(range(KR.NUM_KINDS)) and kinds[JK] == KR.NUM_KINDS - 1
    assert set(kinds) == set(FULL)
    for bad in (-1, 128, 0x02, 0x0E, 0x53, 0x61, True, 3.0, "3S"):
        with pytest.raises(ValueError):
            KR.card_kind(bad)
    with pytest.raises(ValueError):
        s.action_to_string(KR.NUM_ACTIONS)


def test_KR_1_package_layout_tensor_deck_and_pickles():
    """The package's faces: the State class lives in ``.state`` (a pickle names only
    ``_state.state_from_bytes``, so it loads across the move), the tensor's size is its
    layout's, ``FULL_DECK`` is the 116 cards (KR-1)."""
    import pickle
    from krazy_core.games.kings_rummy import state as face
    assert KR.KingsRummyState is face.KingsRummyState
    assert KR.KingsRummyState.__module__ == "krazy_core.games.kings_rummy.state"
    g = krazy_core.make("kings-rummy", 4)
    s = g.new_initial_state(9)
    random_playout(s, random.Random(2), max_steps=30)
    assert pickle.loads(pickle.dumps(s)) == s
    assert g.state_from_bytes(s.to_bytes()) == s and g.state_from_json(s.to_json()) == s
    assert KR.TENSOR == 604 == sum(seg.size for seg in KR.TENSOR_LAYOUT) == s.observation_tensor(0).shape[0]
    assert KR.FULL_DECK == dict(FULL) and sum(KR.FULL_DECK.values()) == 116
    assert KR.SPEC.rules_file == "games/kings_rummy/rules.md"
    from importlib import resources
    assert "KR-17" in resources.files("krazy_core").joinpath(KR.SPEC.rules_file).read_text(encoding="utf-8")


def test_notation_short_forms_name_moves_legal_or_not():
    """notation.actions_named: the short forms of a move (KR-8..KR-10), whether legal now or
    not (string_to_action refuses an illegal one); None for text that is no short form."""
    from krazy_core.games.kings_rummy.notation import actions_named
    s = krazy_core.make("kings-rummy", 2).new_initial_state(1)
    qr = KR.card_kind(parse_card("QR"))
    assert actions_named(s, "d") == actions_named(s, "stock") == [KR.DRAW]
    assert actions_named(s, "p") == actions_named(s, "discard pile") == [KR.TAKE]
    assert actions_named(s, "qr") == actions_named(s, "discard q★") == [KR.DISCARD + qr]
    assert actions_named(s, "out qr") == actions_named(s, "qr out") == [KR.GO_OUT + qr]
    assert actions_named(s, "go out, discard jk") == [KR.GO_OUT + 55]
    assert actions_named(s, "as") is None and actions_named(s, "hello") is None     # no ace in KR
