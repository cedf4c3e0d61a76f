"""Krazy Kings, rule by rule (KK-1 .. KK-20).  Scripted states are built from JSON with the
dice forced by choosing the PRNG words (``rng_for_dice``)."""

import json
import random

import pytest

import krazy_core
from krazy_core import IllegalActionError
from krazy_core.cards import parse_card, parse_cards, JOKER
from krazy_core.rng import Rng
from krazy_core._state import seed_rng_struct

A_ANNOUNCE, A_ROLL, A_CW, A_CCW = 53, 106, 107, 108
ALL = [parse_card(r + s) for s in "SHDC" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]


def idx(card):
    c = parse_card(card)
    if c == JOKER:
        return 52
    return (c >> 4) * 13 + (c & 15) - 1


def rng_for_dice(dice):
    """PRNG words whose first d6 draws are exactly ``dice``."""
    for k in range(2_000_000):
        r = Rng(k)
        if all(r.d6() == d for d in dice):
            return seed_rng_struct(k)
    raise AssertionError("no seed found")


def scripted(n=4, hands=(), discard=(), stock_top=(), phase="round_two", cur=0, roll=(0, 0),
             dice=(), round_two=None, direction=1, open_roll=(0, 0), challenger=-1,
             challenge_roll=(0, 0), turns=10, **options):
    """A state with the given hands (texts), discard pile (bottom first), the stock's top
    cards (drawn first), phase, and the PRNG set to roll ``dice`` next."""
    game = krazy_core.make("krazy-kings", num_players=n, **options)
    doc = json.loads(game.new_initial_state(seed=0).to_json())
    used = []
    hands = [parse_cards(h) for h in hands]
    taken = set(sum(hands, []) + parse_cards(" ".join(discard)) + parse_cards(" ".join(stock_top)))
    spare = [c for c in parse_cards("QS QC QD QH JS JC JD JH") if c not in taken]
    while len(hands) < n:
        hands.append([spare.pop(0), spare.pop(0)])
    discard = parse_cards(" ".join(discard))
    top = parse_cards(" ".join(stock_top))
    for cs in hands + [discard, top]:
        used += cs
    deck = ALL + ([JOKER, JOKER] if game.options.jokers == "rolloff" else [])
    rest = list(deck)
    for c in used:
        rest.remove(c)
    body = doc["state"]
    body.update({
        "rng": rng_for_dice(list(dice)) if dice else seed_rng_struct(1),
        "hands": [sorted(h) for h in hands],
        "stock": rest + list(reversed(top)),
        "discard": discard,
        "current_player": cur, "phase": phase, "direction": direction,
        "roll": list(roll), "open_roll": list(open_roll), "challenger": challenger,
        "challenge_roll": list(challenge_roll), "rolloff_rolls": 0, "pending_reverse": 0,
        "turns": turns, "winner": -1, "turn_limit": False,
        "round_two": round_two if round_two is not None else [phase != "round_one"] * n,
        "inference_cards": [[] for _ in range(n)], "inference_count": [0] * n, "stock_from": [],
    })
    doc["events"] = []
    return game.state_from_json(json.dumps(doc))


def names(state, legal=None):
    return [state.action_to_string(a) for a in (state.legal_actions() if legal is None else legal)]


def kinds(state):
    return [e["event"] for e in state.events]


# ---------------------------------------------------------------- materials
def test_KK_1_deck_has_52_cards_and_2_jokers():
    for n in (2, 5):
        s = krazy_core.make("krazy-kings", num_players=n).new_initial_state(seed=1)
        obs = s.observation(0)
        total = sum(obs["hand_sizes"]) + obs["stock_size"] + len(obs["discard_pile"])
        assert total == 54
        cards = sorted(sum((s.hand(p) for p in range(n)), []) + json.loads(s.to_json())["state"]["stock"])
        assert cards == sorted(ALL + [JOKER, JOKER])
    s = krazy_core.make("krazy-kings", jokers="none").new_initial_state(seed=1)
    assert sum(s.observation(0)["hand_sizes"]) + s.observation(0)["stock_size"] == 52


def test_KK_2_dice_values_ace_only_single_die_jack_queen_only_sum():
    # roll 1+3: A (a die), 3 (a die), 4 (the sum) match; 2 and J do not
    s = scripted(hands=["AS 3H 4D 2C JS 7H"], phase="round_one", roll=(1, 3), round_two=[False] * 4)
    assert names(s) == ["play A♠", "play 3♥", "play 4♦"]
    # roll 5+6: 5, 6 and J (11) match; Q does not
    s = scripted(hands=["QS JH 5D 6C 2S"], phase="round_one", roll=(5, 6), round_two=[False] * 4)
    assert names(s) == ["play J♥", "play 5♦", "play 6♣"]
    # roll 6+6: Q (12) matches the sum; an Ace matches nothing
    s = scripted(hands=["QS AH"], phase="round_one", roll=(6, 6), round_two=[False] * 4)
    assert names(s) == ["play Q♠", "play Q♠ last card"]


# ---------------------------------------------------------------- deal
def test_KK_3_each_player_rolls_and_is_dealt_the_sum_from_dealers_left():
    s = krazy_core.make("krazy-kings", num_players=4).new_initial_state(seed=12)
    ev = s.raw_events()
    deal_rolls = [e for e in s.events if e["event"] == "deal_roll"]
    assert [e["player"] for e in deal_rolls] == [1, 2, 3, 0]
    for e in deal_rolls:
        assert len([x for x in s.events if x["event"] == "deal" and x["player"] == e["player"]]) == sum(e["dice"])
    # the public log hides dealt cards, the owner's log shows them
    assert all(e["card"] is None for e in s.events if e["event"] == "deal")
    mine = [e["card"] for e in s.events_for(1) if e["event"] == "deal" and e["player"] == 1]
    assert None not in mine and len(mine) == sum(deal_rolls[0]["dice"])


def test_KK_3_stock_running_out_in_the_deal_leaves_later_hands_short():
    # seed 3151, 5 players, no Jokers: rolls 11, 11, 12, 10, 11 need 55 of 52 cards
    s = krazy_core.make("krazy-kings", num_players=5, jokers="none").new_initial_state(seed=3151)
    rolls = [sum(e["dice"]) for e in s.events if e["event"] == "deal_roll"]
    assert rolls == [11, 11, 12, 10, 11]
    dealt = [len([e for e in s.events if e["event"] == "deal" and e["player"] == p]) for p in range(5)]
    assert dealt == [8, 11, 11, 12, 10]          # seat 0 (the dealer, dealt last) is short
    assert s.observation(0)["stock_size"] == 0


def test_KK_4_left_of_dealer_starts_clockwise():
    s = krazy_core.make("krazy-kings").new_initial_state(seed=5)
    first_turn = next(e for e in s.events if e["event"] == "turn")
    assert first_turn["player"] == 1 and s.observation(0)["direction"] == 1
    s = krazy_core.make("krazy-kings", dealer=2).new_initial_state(seed=5)
    assert next(e for e in s.events if e["event"] == "turn")["player"] == 3


# ---------------------------------------------------------------- phases
def test_KK_5_discard_moves_player_to_round_two():
    s = scripted(hands=["5S 9H 2C", "3D 4D", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                 round_two=[False] * 4, dice=(6, 6, 6, 6))
    assert s.observation(0)["round_two"] == [False] * 4
    s.apply_action("5S")
    assert s.observation(0)["round_two"][0] is True
    assert s.observation(0)["round_two"][1:] == [False, False, False]


def test_KK_6_round_one_roll_pass_without_drawing():
    # seat 1 (Round One) rolls 6+6 then 6+6 (free re-roll): nothing matches -> passes, no draw
    s = scripted(hands=["5S 9H 2C", "3D 4D", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                 round_two=[False] * 4, dice=(6, 6, 6, 6, 1, 3))
    s.apply_action("5S")
    ev = s.events[1:]
    assert [e["event"] for e in ev[:4]] == ["turn", "roll", "roll", "pass"]
    assert ev[1]["dice"] == [6, 6] and ev[2]["dice"] == [6, 6]
    assert s.observation(1)["hand_sizes"][1] == 2          # no draw in Round One
    # then seat 2 (double 6s reversed play twice: back to clockwise) rolls 1+3: plays 3C or 4C
    assert s.current_player() == 2
    assert names(s) == ["play 3♣", "play 4♣", "play 3♣ last card", "play 4♣ last card"]


def test_KK_6_without_free_reroll_one_roll_only():
    s = scripted(hands=["5S 9H 2C", "3D 4D", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                 round_two=[False] * 4, dice=(6, 5, 1, 3), free_reroll=False)
    s.apply_action("5S")
    assert [e["event"] for e in s.events[1:4]] == ["turn", "roll", "pass"]
    assert s.current_player() == 2


def test_KK_6_round_one_allows_kings_and_jokers():
    s = scripted(hands=["KS JK 7H 3C"], discard=["9D"], phase="round_one", roll=(6, 6),
                 round_two=[False] * 4)
    assert names(s) == ["play K♠", "play 🃏"]


def test_KK_7_round_two_same_rank_or_suit_king_or_joker():
    s = scripted(hands=["5S 9H KC JK 2D 7C"], discard=["5H"])
    assert names(s) == ["play 5♠", "play 9♥", "play K♣", "play 🃏"]


def test_KK_8_cannot_play_must_roll_then_match_or_draw_sum():
    # top 5H, seat 0 holds no 5, heart, King or Joker: rolls 2+4 -> may discard 2, 4 or 6
    s = scripted(hands=["2S 6C 9D", "3D 4D", "3C 4C", "3H 4H 9S"], discard=["5H"], phase="round_one",
                 cur=3, roll=(1, 2), dice=(2, 4), round_two=[True, True, True, False])
    s.apply_action("3H")    # seat 3 sheds, seat 0 begins a Round Two turn and must roll
    assert s.current_player() == 0
    assert s.observation(0)["phase"] == "round_two_rolled" and s.observation(0)["roll"] == [2, 4]
    assert names(s) == ["play 2♠", "play 6♣"]
    # no match twice (free re-roll): draws the last roll's sum
    s = scripted(hands=["QS JC 9D", "3D 4D", "3C 4C", "3H 4H 9S"], discard=["5H"], phase="round_one",
                 cur=3, roll=(1, 2), dice=(1, 1, 1, 2), round_two=[True, True, True, False],
                 stock_top=["2S", "3S", "4S"])
    s.apply_action("3H")
    draws = [e for e in s.events_for("all") if e["event"] == "draw" and e["player"] == 0]
    assert len(draws) == 3 and [d["card_text"] for d in draws] == ["2♠", "3♠", "4♠"]


def test_KK_8_may_roll_when_able_option():
    s = scripted(hands=["5S 9H"], discard=["5H"])
    assert A_ROLL not in s.legal_actions()
    s = scripted(hands=["5S 9H 3C"], discard=["5H"], may_roll_when_able=True, dice=(3, 3))
    assert A_ROLL in s.legal_actions()
    s.apply_action(A_ROLL)
    assert s.observation(0)["phase"] == "round_two_rolled"
    assert names(s) == ["play 3♣"]


def test_KK_9_no_pass_while_a_play_exists():
    s = scripted(hands=["5S 9H KC"], discard=["5H"])
    legal = s.legal_actions()
    assert legal and A_ROLL not in legal and all(a < A_ANNOUNCE for a in legal)
    with pytest.raises(IllegalActionError):
        s.apply_action(A_ROLL)


# ---------------------------------------------------------------- Kings
def test_KK_10_king_on_anything_but_king_or_joker():
    assert "play K♣" in names(scripted(hands=["KC 2S 3S"], discard=["9D"]))
    assert names(scripted(hands=["KC 2S JK"], discard=["9D", "JK"])) == ["play 🃏"]
    s = scripted(hands=["KC 2S 3S"], discard=["9D", "KD"], phase="open_roll", roll=(1, 2), open_roll=(1, 2))
    assert names(s) == ["play 2♠", "play 3♠"]


def test_KK_11_challenge_met_challenger_draws_the_value():
    # seat 0 plays K on 5H, rolls 3+4 at once; seat 1 must match 3, 4 or 7
    s = scripted(hands=["KS 9H 2C", "7D 3D 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(3, 4))
    s.apply_action("KS")
    ev = s.events
    assert ev[-1]["event"] == "turn" and ev[-2] == {"event": "challenge", "player": 0, "dice": [3, 4]}
    assert s.current_player() == 1 and s.observation(1)["phase"] == "challenged"
    assert names(s) == ["play 3♦", "play 7♦"]
    s.apply_action("7D")             # matches the sum: the challenger draws 7
    draws = [e for e in s.events if e["event"] == "draw" and e["player"] == 0]
    assert len(draws) == 7
    assert s.observation(0)["hand_sizes"][0] == 2 + 7
    turns = [e["player"] for e in s.events if e["event"] == "turn"]
    assert turns[:2] == [1, 2]        # play goes on after the challenged player


def test_KK_11_challenge_failed_challenged_draws_sum_and_roll_stays_open():
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2, 5, 6))
    s.apply_action("KS")
    ev = [e["event"] for e in s.events]
    assert "challenge_failed" in ev
    assert s.observation(1)["hand_sizes"][1] == 3 + 3
    assert s.current_player() == 2 and s.observation(2)["open_roll"] == [1, 2]
    assert names(s) == ["play 3♣", "play 3♣ last card"]


def test_KK_11_two_players_the_winner_plays_next():
    s = scripted(n=2, hands=["KS 9H 2C", "7D 3D 8S"], discard=["5H"], dice=(3, 4, 6, 6))
    s.apply_action("KS")
    s.apply_action("3D")             # challenge met: seat 1 won it and plays again
    assert s.current_player() == 1
    assert [e["event"] for e in s.events].count("turn") == 2


def test_KK_12_open_roll_closes_when_matched_else_rolls_and_draws():
    # seat 2 faces the open roll 1+2 with no match: rolls 6+5 (new open roll), no match: draws 11
    s = scripted(hands=["KS 9H 2C", "QD JD 8S", "9C 10C", "3H 4H"], discard=["5H"], dice=(1, 2, 6, 5))
    s.apply_action("KS")
    opens = [(e["player"], e["dice"]) for e in s.events if e["event"] == "open_roll"]
    assert opens[0] == (2, [6, 5])
    draws2 = [e for e in s.events if e["event"] == "draw" and e["player"] == 2]
    assert len(draws2) == 11 and s.observation(3)["hand_sizes"][2] == 2 + 11
    # a seat that can match the open roll discards and closes it
    s = scripted(hands=["9H 2C", "QD JD 8S", "9C 10C", "5H 4H"], discard=["KS"], phase="open_roll",
                 cur=3, roll=(1, 4), open_roll=(1, 4))
    assert names(s) == ["play 4♥", "play 5♥", "play 4♥ last card", "play 5♥ last card"]
    s.apply_action("play 5♥ last card")
    assert s.observation(0)["open_roll"] is None


def test_KK_13_king_is_never_the_last_card():
    s = scripted(hands=["KS", "3D 4D 9D", "3C 4C", "3H 4H"], discard=["5H"], phase="round_one",
                 cur=3, roll=(1, 2), dice=(2, 2), round_two=[True, True, True, False])
    s.apply_action("play 3♥ last card")
    # seat 0 holds only a King: it rolls and challenges seat 1 (double 2s, play reverses after)
    ev = [e["event"] for e in s.events]
    assert "king_only" in ev and s.hand(0) == [parse_card("KS")]
    assert s.current_player() == 1 and s.observation(1)["phase"] == "challenged"
    s2 = scripted(hands=["KS 5S"], discard=["5H"])
    assert names(s2) == ["play 5♠", "play K♠", "play 5♠ last card", "play K♠ last card"]
    s.apply_action("play 4♦")   # challenge met with the 4 (roll 2+2): seat 0 draws 4, keeps its King
    assert parse_card("KS") in s.hand(0) and len(s.hand(0)) == 5


def test_KK_14_doubles_reverse_direction_once_play_resolves():
    s = scripted(hands=["5S 9H 2C", "3D 4D 8S", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                 round_two=[False] * 4, dice=(3, 3))
    s.apply_action("5S")
    # seat 1 rolled 3+3 (a double): plays; then play reverses, so seat 0 is next, not seat 2
    s.apply_action("3D")
    assert "reverse" in kinds(s) and s.observation(0)["direction"] == -1
    assert [e["player"] for e in s.events if e["event"] == "turn"][:2] == [1, 0]
    for opt, expect in (("never", 1), ("challenge_only", 1)):
        s = scripted(hands=["5S 9H 2C", "3D 4D 8S", "3C 4C", "3H 4H"], phase="round_one", roll=(5, 2),
                     round_two=[False] * 4, dice=(3, 3), doubles_reverse=opt)
        s.apply_action("5S")
        s.apply_action("3D")
        assert s.observation(0)["direction"] == expect


def test_KK_14_challenge_only_counts_the_challenge_roll():
    s = scripted(hands=["KS 9H 2C", "3D 8S 9S", "3C 4C", "3H 4H"], discard=["5H"], dice=(3, 3),
                 doubles_reverse="challenge_only")
    s.apply_action("KS")
    s.apply_action("3D")
    assert s.observation(0)["direction"] == -1 and s.current_player() == 0


# ---------------------------------------------------------------- Jokers
def test_KK_15_joker_on_anything_but_a_king():
    assert "play 🃏" in names(scripted(hands=["JK 2S"], discard=["9D"]))
    assert "play 🃏" in names(scripted(hands=["JK 2S"], discard=["9D", "JK"]))
    s = scripted(hands=["JK 2S 3S"], discard=["KD"], phase="open_roll", roll=(2, 3), open_roll=(2, 3))
    assert "play 🃏" not in names(s)


def test_KK_16_rolloff_others_draw_their_die_winner_chooses_direction():
    # 3 players; seat 0 plays the Joker; roll-off dice: 6, 2, 6; the tied 6s roll again: 3, 5
    s = scripted(n=3, hands=["JK 9H 2C", "3D 4D 8S", "KC KD"], discard=["5H"], dice=(6, 2, 6, 3, 5))
    s.apply_action("play 🃏")
    dice = [(e["player"], e["die"]) for e in s.events if e["event"] == "rolloff_die"]
    assert dice == [(0, 6), (1, 2), (2, 6), (0, 3), (2, 5)]
    assert s.current_player() == 2 and names(s) == ["clockwise", "counter-clockwise"]
    assert s.observation(0)["hand_sizes"] == [2 + 3, 3 + 2, 2]   # losers draw their own last die
    assert s.observation(0)["round_two"] == [False] * 3
    s.apply_action("counter-clockwise")
    assert [e for e in s.events if e["event"] == "direction"] == [
        {"event": "direction", "player": 2, "direction": -1}]
    rolls = [e["dice"] for e in s.events if e["event"] == "roll" and e["player"] == 2]
    doubles = sum(d[0] == d[1] for d in rolls)
    assert s.observation(0)["direction"] == (-1 if doubles % 2 == 0 else 1)


def test_KK_16_rolloff_turn_up_to_three_rolls_then_draws_last_sum():
    # seat 1 wins the roll-off (2 v 5) holding only Kings: on a Joker nothing can match
    s = scripted(n=2, hands=["JK 9H 2C", "KC KD"], discard=["5H"], dice=(2, 5))
    s.apply_action("play 🃏")
    s.apply_action("clockwise")
    rolls = [e["dice"] for e in s.events if e["event"] == "roll" and e["player"] == 1]
    assert len(rolls) == 3
    draws = [e for e in s.events if e["event"] == "draw" and e["player"] == 1]
    assert len(draws) == sum(rolls[-1])
    assert [e["reason"] for e in draws] == ["roll-off turn"] * len(draws)
    with pytest.raises(IllegalActionError):
        krazy_core.make("krazy-kings", jokers="none").new_initial_state(seed=1).apply_action(A_CW)


def one_card_stock():
    """Seat 3 to play 3H onto a discard pile holding every card but one of the stock
    (the stock has one card left): ``(state, the cards moved to the pile)``."""
    s = scripted(hands=["QC JC", "3D 4D 9D", "3C 4C 9C", "3H 4H 9S"], discard=["5H"], phase="round_one",
                 cur=3, roll=(1, 2), dice=(1, 1, 1, 1), round_two=[True, True, True, False])
    doc = json.loads(s.to_json())
    body = doc["state"]
    moved, body["stock"] = body["stock"][:-1], body["stock"][-1:]
    body["discard"] = moved + body["discard"]
    return krazy_core.make("krazy-kings").state_from_json(json.dumps(doc)), moved


def test_KK_17_and_18_rebuild_then_everyone_round_one():
    s, _ = one_card_stock()
    n_disc = len(s.observation(0)["discard_pile"])
    s.apply_action("3H")      # seat 0 misses twice (1+1) and must draw 2 with 1 card in stock
    ev = [e["event"] for e in s.events]
    i = ev.index("stock_rebuilt")
    assert ev[i + 1] == "round_one"
    obs = s.observation(0)
    assert obs["hand_sizes"][0] == 4
    # the new stock is the old discard pile (n_disc cards, plus 3H on top) less its top, less one draw
    assert obs["discard_pile"] == [parse_card("3H")]
    assert obs["stock_size"] == n_disc - 1
    assert obs["round_two"] == [False] * 4


def test_KK_19_last_card_must_be_announced():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"])
    assert names(s) == ["play 5♠", "play 9♥", "play 5♠ last card", "play 9♥ last card"]
    s.apply_action("play 5♠ last card")
    assert "last_card" in kinds(s) and s.observation(0)["hand_sizes"][0] == 1


def test_KK_19_a_card_alone_announces_when_it_leaves_one_card():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"])
    called = s.string_to_action("play 5♠ last card")
    assert s.string_to_action("5s") == s.string_to_action("5♠") == s.string_to_action("play 5s") == called
    assert s.string_to_action("5s!") == called
    assert s.string_to_action("play 5♠") == called - 53       # the exact name: unannounced
    assert s.string_to_action("play 5s no call") == s.string_to_action("5♠ no call") == called - 53
    t = scripted(hands=["5S 9H 3S", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"])
    assert t.action_to_string(t.string_to_action("5s")) == "play 5♠"   # leaves two: no call


def test_KK_19_caught_without_announcement_rolls_match_wins():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(4, 5))
    s.apply_action("play 5♠")                  # no call: caught, rolls 4+5: 9H matches, wins
    assert "caught" in kinds(s) and s.is_terminal() and s.returns() == [1.0, 0.0, 0.0, 0.0]


def test_KK_19_caught_without_announcement_draws_sum():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"], dice=(1, 2))
    s.apply_action("play 5♠")
    assert "caught" in kinds(s) and s.observation(0)["hand_sizes"][0] == 1 + 3


def test_KK_19_option_off_no_announcement_needed():
    s = scripted(hands=["5S 9H", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"], last_card_call=False)
    assert names(s) == ["play 5♠", "play 9♥"]
    s.apply_action("play 5♠")
    assert "caught" not in kinds(s) and s.observation(0)["hand_sizes"][0] == 1


def test_KK_20_first_empty_hand_wins_and_turn_limit_shares():
    s = scripted(hands=["5S", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"])
    s.apply_action("5S")
    assert s.is_terminal() and s.returns() == [1.0, 0.0, 0.0, 0.0] and s.legal_actions() == []
    # max_turns: seats 0, 2 and 3 hold the fewest cards (2 each) and share the win
    s = scripted(hands=["5S 9H 7C", "3D 4D 8S", "3C 4C", "3H 4H"], discard=["5H"], max_turns=10,
                 turns=10)
    s.apply_action("play 9♥")
    assert s.is_terminal() and s.stats()["turn_limit"]
    assert s.observation(0)["hand_sizes"] == [2, 3, 2, 2]
    assert s.returns() == [pytest.approx(1 / 3), 0.0, pytest.approx(1 / 3), pytest.approx(1 / 3)]
    assert sum(s.returns()) == pytest.approx(1.0)


def test_event_log_replays_every_card_movement():
    """A frontend can animate from the log alone: replaying deal, draw, play and rebuild
    events reproduces every hand, the discard pile and the stock size of the final state."""
    game = krazy_core.make("krazy-kings", num_players=4)
    for seed in range(30):
        s = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        hands = {p: [] for p in range(4)}
        discard, stock = [], 0
        rolls = 0
        for e in s.events_for("all"):
            k = e["event"]
            if k == "shuffle":
                stock = e["cards"]
            elif k in ("deal", "draw"):
                hands[e["player"]].append(e["card"])
                stock -= 1
            elif k == "play":
                hands[e["player"]].remove(e["card"])
                discard.append(e["card"])
            elif k == "stock_rebuilt":
                stock = e["cards"]
                discard = discard[-1:]
            elif k in ("roll", "challenge", "open_roll", "deal_roll", "caught"):
                assert all(1 <= d <= 6 for d in e["dice"])
                rolls += 1
        for p in range(4):
            assert sorted(hands[p]) == s.hand(p)
        assert discard == s.observation(0)["discard_pile"]
        assert stock == s.observation(0)["stock_size"]
        assert rolls >= 4


@pytest.mark.parametrize("opts", [dict(may_roll_when_able=True), dict(last_card_call=False),
                                  dict(may_roll_when_able=True, jokers="none", num_players=2)])
def test_random_action_matches_legal_actions_under_options(opts):
    """ops.random_action (search rollouts) picks legal[bounded(n)] with the roll action (KK-8)
    and the announcing twins (KK-19) in the list as legal_actions orders them."""
    opts = dict(opts)
    game = krazy_core.make("krazy-kings", num_players=opts.pop("num_players", 4), **opts)
    seen_roll = seen_announce = 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for k in range(4):
                sd = 1000 * seed + k
                a = state.random_action(sd)
                assert a == legal[Rng(sd).bounded(len(legal))]
                seen_roll += a == A_ROLL
                seen_announce += A_ANNOUNCE <= a < A_ROLL
            state.apply_action(rng.choice(legal))
    assert seen_roll > 0 if game.options.may_roll_when_able else seen_roll == 0
    assert seen_announce > 0 if game.options.last_card_call else seen_announce == 0


def test_random_playout_is_the_python_loop_of_uniform_picks():
    """ops.random_playout and ops.random_action (kz_bounded_nb: no draw when one action is
    legal) against a Python loop of legal[Rng.bounded(n)] on one generator (kz_bounded),
    both playout copies (POPCNT/PDEP and baseline x86-64) when this CPU runs both."""
    from krazy_core.games import krazy_kings as kk
    fast = kk._fast_playout()
    copies = [False, True] if fast else [False]
    try:
        for n in (2, 4, 5):
            game = krazy_core.make("krazy-kings", num_players=n)
            for seed in range(4):
                ref = game.new_initial_state(seed=seed)
                rng = Rng(seed + 100)
                steps = 0
                while not ref.is_terminal():
                    legal = ref.legal_actions()
                    ref.apply_action(legal[rng.bounded(len(legal))])
                    steps += 1
                for copy in copies:
                    kk._fast_playout(copy)
                    st = game.new_initial_state(seed=seed)
                    assert st._random_playout(seed + 100, -1, True) == steps
                    assert json.loads(st.to_json())["state"] == json.loads(ref.to_json())["state"]
                st = game.new_initial_state(seed=seed)
                assert st._random_playout(seed + 100, -1, False) == steps
                assert json.loads(st.to_json())["state"] == json.loads(ref.to_json())["state"]
    finally:
        kk._fast_playout(fast)


def test_both_playout_copies_search_alike():
    """Seeded ISMCTS with random rollouts gives the same statistics through either copy of
    ops.random_playout."""
    from krazy_core.games import krazy_kings as kk
    from krazy_core.search.ismcts import search
    fast = kk._fast_playout()
    if not fast:
        pytest.skip("this CPU runs only the baseline copy")
    game = krazy_core.make("krazy-kings", num_players=4)
    st = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(12):
        st.apply_action(rng.choice(st.legal_actions()))
    out = []
    try:
        for copy in (True, False):
            kk._fast_playout(copy)
            r = search(st, iterations=300, seed=3, rollout="random")
            out.append((r.action, sorted(r.visits.items()), sorted(r.values.items()), r.rollout_actions))
    finally:
        kk._fast_playout(fast)
    assert out[0] == out[1]
