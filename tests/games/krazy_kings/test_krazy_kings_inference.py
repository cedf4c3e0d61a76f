"""Krazy Kings public negative inference (module docstring, "Public inference"): what the
table learns about a hand when the engine rolls, passes or draws for a player in public,
and how ``determinize`` deals the unseen cards to honour it.

``inference_cards[p]`` / ``inference_count[p]``: at least ``count`` of seat p's cards are
not in ``cards``.  Scripted states reuse ``scripted`` from test_krazy_kings.py."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import krazy_core
from helpers import kk_tables, load_test_file, random_playout
from krazy_core.cards import JOKER, parse_cards
from krazy_core.errors import InvalidStateError

kk = load_test_file("test_krazy_kings")
scripted = kk.scripted

SUITS = "SHDC"
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def of_values(*values):
    """Card texts whose dice value (KK-2) is one of ``values``."""
    return [RANKS.get(v, str(v)) + s for v in values for s in SUITS]


def cards(*texts):
    """Sorted card codes (the Joker once) of the given texts / lists of texts."""
    out = set()
    for t in texts:
        for x in (t if isinstance(t, list) else t.split()):
            out.add(x if isinstance(x, int) else parse_cards(x)[0])
    return sorted(out)


KINGS = ["KS", "KH", "KD", "KC"]


def inf(state, p):
    obs = state.observation((p + 1) % state.num_players())      # public: any seat sees it
    return obs["inference_cards"][p], obs["inference_count"][p]


def inf_stock(state, viewer):
    return state.observation(viewer)["stock_from"]


def consistent(state, p):
    s, n = inf(state, p)
    hand = state.hand(p)
    return n <= len(hand) and sum(c not in s for c in hand) >= n


# ---------------------------------------------------------------- each inference, exact values
def test_KK_6_round_one_pass_holds_no_match_no_king_no_joker():
    # seat 1 (Round One, top 5S) rolls 6+6 twice and passes: no 6, no Q, no King, no Joker
    s = scripted(hands=["5S 9H 2C", "3D 4D", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                 round_two=[False] * 4, dice=(6, 6, 6, 6, 1, 3))
    s.apply_action("5S")
    assert inf(s, 1) == (cards(of_values(6, 12), KINGS, "JK"), 2)
    assert inf(s, 2) == ([], 0)                 # seat 2 matched its first roll: nothing learnt
    assert inf(s, 0) == ([], 0)


def test_KK_6_failed_first_roll_then_a_discard_keeps_the_whole_hand_constrained():
    # seat 1 rolls 6+6 (nothing), re-rolls 1+2 and may discard 3D: its other card is no 6/Q/K/JK
    s = scripted(hands=["5S 9H 2C", "3D 4D 8S", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                 round_two=[False] * 4, dice=(6, 6, 1, 2))
    s.apply_action("5S")
    assert s.current_player() == 1
    assert inf(s, 1) == (cards(of_values(6, 12), KINGS, "JK"), 3)
    s.apply_action("3D")                          # 3D lies outside the set: one fewer constrained
    assert inf(s, 1) == (cards(of_values(6, 12), KINGS, "JK"), 2)
    assert consistent(s, 1)


def test_KK_8_round_two_roll_means_no_rank_suit_king_joker_then_no_roll_match():
    # seat 3 discards 3H; seat 0 holds QS JC 9D: can't play on it (KK-7), rolls 1+1 then 1+2,
    # misses both and draws 3
    s = scripted(hands=["QS JC 9D", "3D 4D", "3C 4C", "3H 4H 9S"], discard=["5H"], phase="round_one",
                 cur=3, roll=(1, 2), dice=(1, 1, 1, 2), round_two=[True, True, True, False],
                 stock_top=["2S", "3S", "4S"])
    s.apply_action("3H")
    hearts = [r + "H" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    want = cards(hearts, of_values(3), KINGS, "JK", of_values(1, 2, 3))
    assert inf(s, 0) == (want, 3)                 # three cards drawn after: still 3 constrained
    assert len(s.hand(0)) == 6 and consistent(s, 0)


def test_KK_8_may_roll_when_able_learns_only_the_rolls():
    # with may_roll_when_able a roll may be a choice: only the missed rolls are evidence
    s = scripted(hands=["QS JC 9D", "3D 4D", "3C 4C", "3H 4H 9S"], discard=["5H"], phase="round_one",
                 cur=3, roll=(1, 2), dice=(1, 1, 1, 2), round_two=[True, True, True, False],
                 stock_top=["2S", "3S", "4S"], may_roll_when_able=True)
    s.apply_action("3H")
    assert inf(s, 0) == (cards(of_values(1, 2, 3)), 3)


def test_KK_8_chosen_roll_that_misses_is_evidence():
    s = kk.scripted(hands=["5S 9H 3C"], discard=["5H"], may_roll_when_able=True, dice=(6, 6, 6, 6))
    s.apply_action(kk.A_ROLL)
    assert inf(s, 0) == (cards(of_values(6, 12)), 3)
    assert len(s.hand(0)) == 3 + 12


def test_KK_11_failed_challenge_means_no_match_for_the_challenge_roll():
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2, 5, 6))
    s.apply_action("KS")
    assert inf(s, 1) == (cards(of_values(1, 2, 3)), 3)
    assert len(s.hand(1)) == 6 and consistent(s, 1)
    assert inf(s, 0) == ([], 0)


def test_KK_12_open_roll_and_the_new_roll_both_missed():
    # seat 2 misses the open roll 1+2, rolls 6+5 (values 5, 6, 11), misses, draws 11
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "9C 10C", "3H 4H"], discard=["5H"], dice=(1, 2, 6, 5))
    s.apply_action("KS")
    assert inf(s, 1) == (cards(of_values(1, 2, 3)), 3)
    assert inf(s, 2) == (cards(of_values(1, 2, 3, 5, 6, 11)), 2)
    assert len(s.hand(2)) == 13 and consistent(s, 2)


def test_KK_13_a_lone_king_is_revealed_and_a_lone_other_card_is_no_king():
    s = kk.scripted(hands=["KS", "3D 4D 9D", "3C 4C", "3H 4H"], discard=["5H"], phase="round_one",
                    cur=3, roll=(1, 2), dice=(2, 2), round_two=[True, True, True, False])
    s.apply_action("play 3♥ last card")
    deck = cards(kk.ALL, "JK")
    assert inf(s, 0) == ([c for c in deck if c not in cards(KINGS)], 1)    # the one card is a King
    s.apply_action("play 4♦")          # challenge met with the 4: seat 0 draws 4, keeps its King
    assert inf(s, 0)[1] == 1 and len(s.hand(0)) == 5 and consistent(s, 0)
    # a seat beginning a Round Two turn with one card that is not a King: KK-13 did not apply
    s = kk.scripted(hands=["5S 9H 2C", "3D", "3C 4C", "3H 4H"], discard=["7H"], dice=(6, 6, 6, 6))
    s.apply_action("9H")
    assert inf(s, 1) == (cards(KINGS, "JK", [r + "H" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()],
                               of_values(9), of_values(6, 12)), 1)


def test_KK_16_rolloff_turn_three_missed_rolls():
    # seat 1 wins the roll-off holding only Kings; on a Joker a King can't be played (KK-10)
    s = scripted(n=2, hands=["JK 9H 2C", "KC KD"], discard=["5H"], dice=(2, 5))
    s.apply_action("play 🃏")
    s.apply_action("clockwise")
    rolls = [e["dice"] for e in s.events if e["event"] == "roll" and e["player"] == 1]
    values = {v for a, b in rolls for v in (a, b, a + b) if v <= 12}
    got, n = inf(s, 1)
    assert got == cards(of_values(*sorted(values)), "JK") and n == 2
    assert not set(cards(KINGS)) & set(got)       # Kings were not playable: no evidence
    assert consistent(s, 1)


def test_KK_19_caught_last_card_missed_the_roll():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2))
    s.apply_action("play 5♠")
    assert inf(s, 0) == (cards(of_values(1, 2, 3)), 1)
    assert len(s.hand(0)) == 4 and consistent(s, 0)


def test_KK_19_announced_last_card_learns_nothing():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"])
    s.apply_action("play 5♠ last card")
    assert inf(s, 0) == ([], 0)


# ---------------------------------------------------------------- bookkeeping
def _with_inference(state, seat, texts, count):
    doc = json.loads(state.to_json())
    doc["state"]["inference_cards"][seat] = cards(texts) if texts else []
    doc["state"]["inference_count"][seat] = count
    return krazy_core.make("krazy-kings", num_players=state.num_players()).state_from_json(json.dumps(doc))


def test_discard_outside_the_set_uses_up_a_constrained_card_inside_does_not():
    base = scripted(hands=["5S 9H 2C 7H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"])
    s = _with_inference(base, 0, "2C 7H 9H", 2)     # 2 of seat 0's 4 cards are not 2C/7H/9H
    s.apply_action("5S")
    assert inf(s, 0) == (cards("2C 7H 9H"), 1)
    s = _with_inference(base, 0, "2C 7H 9H", 2)
    s.apply_action("9H")                            # drawn after the inference: count stays
    assert inf(s, 0) == (cards("2C 7H 9H"), 2)


def test_new_inference_joins_a_whole_hand_one_and_replaces_a_partial_one():
    # seat 1 misses the challenge roll 1+2 (values 1, 2, 3)
    base = scripted(hands=["KS 9H 2C", "QD JD 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2, 5, 6))
    s = _with_inference(base, 1, "9S 10S", 3)       # whole hand: joined
    s.apply_action("KS")
    assert inf(s, 1) == (cards(of_values(1, 2, 3), "9S 10S"), 3)
    s = _with_inference(base, 1, "9S 10S", 1)       # partial: replaced
    s.apply_action("KS")
    assert inf(s, 1) == (cards(of_values(1, 2, 3)), 3)


# ---------------------------------------------------------------- JSON
def test_inference_fields_round_trip_and_are_validated():
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2, 5, 6))
    s.apply_action("KS")
    game = krazy_core.make("krazy-kings")
    doc = json.loads(s.to_json())
    assert doc["state"]["inference_count"][1] == 3
    assert game.state_from_json(s.to_json()) == s

    def load(**change):
        d = json.loads(s.to_json())
        d["state"].update(change)
        return game.state_from_json(json.dumps(d))

    body = doc["state"]
    for bad in ([0, 7, 0, 0], [0, -1, 0, 0], [0, 3, 0], [0, True, 0, 0], [0, 3.0, 0, 0], None):
        with pytest.raises(InvalidStateError):
            load(inference_count=bad)
    for bad in ([[], [1, 1], [], []], [[], [0x0E], [], []], [[], [JOKER, JOKER], [], []],
                [[], [], []], [[], "x", [], []], [[], [True], [], []]):
        with pytest.raises(InvalidStateError):
            load(inference_cards=bad)
    d = json.loads(s.to_json())
    del d["state"]["inference_count"]
    with pytest.raises(InvalidStateError):
        game.state_from_json(json.dumps(d))
    # an older save without both fields loads with no inference
    d = json.loads(s.to_json())
    del d["state"]["inference_count"], d["state"]["inference_cards"], d["state"]["stock_from"]
    old = game.state_from_json(json.dumps(d))
    assert inf(old, 1) == ([], 0) and old.hand(1) == s.hand(1)
    for bad in ([1, 1], [0x0E], "x", None):
        with pytest.raises(InvalidStateError):
            load(stock_from=bad)
    # a deck without Jokers has no Joker to rule out
    nj = krazy_core.make("krazy-kings", jokers="none").new_initial_state(seed=3)
    d = json.loads(nj.to_json())
    d["state"]["inference_cards"][0] = [JOKER]
    with pytest.raises(InvalidStateError):
        krazy_core.make("krazy-kings", jokers="none").state_from_json(json.dumps(d))
    assert body["inference_cards"][1] == cards(of_values(1, 2, 3))


# ---------------------------------------------------------------- properties
tables = kk_tables()


@settings(max_examples=12, deadline=None)
@given(table=tables, seed=st.integers(0, 2 ** 63))
@pytest.mark.slow
def test_inference_is_sound_in_every_real_game(table, seed):
    """The true hands always satisfy every seat's inference (it is drawn from public facts
    that hold), and the inference is the same from every seat's view."""
    game = krazy_core.make("krazy-kings", **table)
    rng = random.Random(seed)
    for g in range(6):
        state = game.new_initial_state(seed=seed + g)
        while not state.is_terminal():
            views = [state.observation(p) for p in (0, game.num_players - 1)]
            assert views[0]["inference_cards"] == views[1]["inference_cards"]
            for p in range(game.num_players):
                s_p, n_p = views[0]["inference_cards"][p], views[0]["inference_count"][p]
                hand = state.hand(p)
                assert n_p <= len(hand) and sum(c not in s_p for c in hand) >= n_p, state.to_json()
            if views[0]["stock_from"]:
                body = json.loads(state.to_json())["state"]
                assert set(body["stock"]) <= set(body["stock_from"])
            act = rng.choice(state.legal_actions()) if rng.random() < 0.5 else state.heuristic_action(seed=g)
            state.apply_action(act)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.slow
def test_determinizations_respect_every_inference(players):
    """Over many seeded games, the determinizations for every seat deal each other seat a
    hand that meets its inference and the stock only cards it was rebuilt from (KK-17) --
    all but a rare relaxed deal when the joint constraints are tight -- and the player to
    act can always act."""
    game = krazy_core.make("krazy-kings", num_players=players)
    checked = constrained = relaxed = 0
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        k = 0
        while not state.is_terminal():
            k += 1
            if k % (3 if players == 2 else 8) == 0:
                for q in range(players):
                    d = state.determinize(q, seed=k * 7 + q)
                    assert d.legal_actions() and d.census() == state.census()
                    assert d.observation(q) == state.observation(q)
                    if inf_stock(d, q):
                        assert set(json.loads(d.to_json())["state"]["stock"]) <= set(inf_stock(d, q))
                    relaxed += not all(consistent(d, p) for p in range(players) if p != q)
                    constrained += any(inf(d, p)[1] > 0 for p in range(players) if p != q)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 150 and constrained > checked // 2 and relaxed <= checked // 200


def test_determinize_follows_the_inference_not_the_hidden_cards():
    """Seat 1 missed the challenge roll 1+2: no A, 2 or 3 in its 3 constrained cards in any
    determinization; its 3 later draws are free, so low cards do turn up there."""
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2, 5, 6))
    s.apply_action("KS")
    low = set(cards(of_values(1, 2, 3)))
    seen_low = 0
    for k in range(200):
        d = s.determinize(2, seed=k)
        hand = d.hand(1)
        assert sum(c not in low for c in hand) >= 3
        seen_low += sum(c in low for c in hand)
    assert seen_low > 0


def test_hostile_inference_never_hangs_determinize():
    """Contradictory inferences (every unseen card ruled out, for every seat) are relaxed."""
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "3C 4C 9C", "3H 4H 9D"], discard=["5H"])
    doc = json.loads(s.to_json())
    everything = cards(kk.ALL, "JK")
    doc["state"]["inference_cards"] = [everything] * 4
    doc["state"]["inference_count"] = [3] * 4
    h = krazy_core.make("krazy-kings").state_from_json(json.dumps(doc))
    for q in range(4):
        for k in range(20):
            d = h.determinize(q, seed=k)
            assert d.census() == h.census() and d.hand(q) == h.hand(q)
            assert d.legal_actions()


GOLDEN = "97a95a83b525f82a826bc261170ccd8d4645e25eb1c24e73dfaedd2cc6b8dbb8"


def test_inference_changes_no_play_golden_games():
    """The event logs of 100 seeded games (heuristic and random play) are those recorded
    before the inference existed: it changes what determinize samples, never the game."""
    import hashlib
    h = hashlib.sha256()
    for n in (2, 3, 4, 5):
        game = krazy_core.make("krazy-kings", num_players=n)
        for seed in range(25):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                acts = state.legal_actions()
                a = rng.choice(acts) if seed % 2 else state.heuristic_action(seed=rng.getrandbits(63))
                state.apply_action(a)
            h.update(repr(state.raw_events()).encode())
    assert h.hexdigest() == GOLDEN


def test_KK_17_rebuilt_stock_holds_only_the_old_pile_and_no_hand_holds_one():
    s, moved = kk.one_card_stock()
    pile = cards(moved + [parse_cards("5H")[0]])          # the discard pile under 3H
    assert inf_stock(s, 0) == []
    s.apply_action("3H")      # seat 0 misses twice (1+1), draws 1, the stock is rebuilt, draws 1
    assert "stock_rebuilt" in [e["event"] for e in s.events]
    assert inf_stock(s, 1) == pile
    assert set(json.loads(s.to_json())["state"]["stock"]) <= set(pile)
    # one Joker was in the pile, the other was seat 0's last draw: no Joker is ruled out
    no_joker = [c for c in pile if c != JOKER]
    assert JOKER in pile and inf(s, 3) == (no_joker, 2)
    assert inf(s, 0) == (no_joker, 3) and len(s.hand(0)) == 4   # the later draw is free
    # seats 1 and 2 then missed Round One rolls (KK-18 put everyone back in Round One)
    rolls = {p: [e["dice"] for e in s.events if e["event"] == "roll" and e["player"] == p] for p in (1, 2)}
    assert rolls[1] == [[5, 6], [2, 5]] and rolls[2][0] == [5, 6]
    assert inf(s, 1) == (cards(no_joker, of_values(2, 5, 6, 7, 11), KINGS, "JK"), 3)
    for k in range(30):                                        # determinize honours both
        d = s.determinize(1, seed=k)
        assert set(json.loads(d.to_json())["state"]["stock"]) <= set(pile)
        assert all(c not in no_joker for c in d.hand(2) + d.hand(3))


@pytest.mark.parametrize("players", [2, 4, 5])
@pytest.mark.slow
def test_determinized_state_tracks_and_search_world_plays_the_same_game_untracked(players):
    """Only ``determinize`` reads the inferences, so the search's determinized worlds stop
    updating them (speed); play there is the very same.  A ``determinize``d State keeps
    tracking: its inference stays sound and its JSON round trip equals it."""
    game = krazy_core.make("krazy-kings", num_players=players)
    untouched = 0
    for seed in range(8):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        random_playout(state, rng, max_steps=rng.randrange(5, 40))
        if state.is_terminal():
            continue
        assert state._tracks_inference()
        q = state.current_player()
        d = state.determinize(q, seed=seed)
        u = state._untracked_determinization(q, seed=seed)
        assert d._tracks_inference() and not u._tracks_inference()
        assert d.to_json() == u.to_json()                     # the same world
        frozen = [inf(u, p) for p in range(players)] + [inf_stock(u, 0)]
        changed = False
        while not d.is_terminal():
            a = rng.choice(d.legal_actions())
            d.apply_action(a)
            u.apply_action(a)
            assert d.raw_events() == u.raw_events()
            assert [d.hand(p) for p in range(players)] == [u.hand(p) for p in range(players)]
            assert [inf(u, p) for p in range(players)] + [inf_stock(u, 0)] == frozen
            changed |= [inf(d, p) for p in range(players)] + [inf_stock(d, 0)] != frozen
            assert all(consistent(d, p) for p in range(players))
            assert game.state_from_json(d.to_json()) == d
        untouched += changed
    assert untouched >= 4          # the tracked copy did learn what the untracked one skipped
