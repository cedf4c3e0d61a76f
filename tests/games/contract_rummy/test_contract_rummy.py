"""Crazy Rummy (contract-rummy): one or more tests per rule CR-1 .. CR-17 with exact
values, from scripted states (tests/games/contract_rummy/contract_rummy_helpers.py) and seeded games."""
import json
import re

import pytest

import krazy_core
from krazy_core import ConfigError, IllegalActionError, InvalidStateError
from krazy_core.games import contract_rummy as cr

from contract_rummy_helpers import scripted, act, texts, cards, norm


def game(**kw):
    return krazy_core.make("contract-rummy", **kw)


def ev(state, name):
    return [e for e in state.events_for("all") if e["event"] == name]


# ------------------------------------------------------------------ materials
def test_CR_1_two_decks_and_four_jokers_make_108_cards():
    s = game().new_initial_state(seed=3)
    c = s.census()
    assert len(c) == 108
    assert c.count(0x50) == 4
    assert c.count(parse("7H")) == 2 and c.count(parse("AS")) == 2


def test_CR_1_jokers_option_and_player_range():
    assert len(game(jokers=0).new_initial_state(seed=1).census()) == 104
    assert len(game(jokers=2).new_initial_state(seed=1).census()) == 106
    for n in (2, 6):
        assert game(num_players=n).new_initial_state(seed=1).num_players() == n
    with pytest.raises(ConfigError):
        game(num_players=7)
    with pytest.raises(ConfigError):
        game(jokers=5)


def parse(t):
    return cards(t)[0]


def test_CR_2_twos_and_jokers_are_wild_a_natural_2_counts_as_natural():
    assert cr.is_run("AH 2H 3H 4H")                   # 2H in its place: natural
    assert cr.is_run("AH 2H 3H JK 5H 2C")             # natural 2H + two wilds (JK, 2C)
    assert not cr.is_run("AH 2S 3H JK 5H 2C")         # 2S is a wild there: three wilds
    assert cr.is_book("2H 2C 2S")                      # a book of 2s is natural
    assert cr.is_book("2H 2C JK")
    assert not cr.is_book("2H 2C JK JK")


def test_CR_2_natural_two_in_a_run_cannot_be_swapped_out():
    # a natural 2H sits in its place in seat 0's run: there is no wild to swap out
    s = scripted(rnd=3, hands={0: "9S 9C 9D KS", 1: "2H AH 5C 6C 7C 8C QS QD KD KH"},
                 melds={0: ("run", 1, 1, "AH 2H 3H 4H"), 1: ("run", 3, 9, "9C 10C JC QC")},
                 phase="play", cur=1, up_live=False, turns=1, down=(0,))
    assert not [t for t in texts(s) if t.startswith("swap")]


def test_CR_3_ace_low_or_high_never_wrap():
    assert cr.is_run("AH 2H 3H 4H") and cr.is_run("JH QH KH AH")
    assert not cr.is_run("KS AS 2S 3S")
    assert cr.is_run("KS AS 2S 3S", ace_wrap=True)
    assert not cr.is_run("QH KH AH 2H 3H")             # 2H would need a wrap; one wild can't bridge
    assert cr.contract_options("KS AS 2S 3S 9H 10H JH QH", 3) == []
    assert cr.contract_options("KS AS 2S 3S 9H 10H JH QH", 3, ace_wrap=True) == [
        (("K♠", "A♠", "2♠", "3♠"), ("9♥", "10♥", "J♥", "Q♥"))]


# ------------------------------------------------------------------ rounds and contracts
@pytest.mark.parametrize("rnd,dealt,books,runs", [(1, 7, 2, 0), (2, 8, 1, 1), (3, 9, 0, 2), (4, 10, 3, 0),
                                                   (5, 11, 2, 1), (6, 12, 1, 2), (7, 13, 0, 3)])
def test_CR_4_cards_dealt_and_contract_per_round(rnd, dealt, books, runs):
    s = game(first_round=rnd, rounds=1).new_initial_state(seed=rnd)
    o = s.observation(1)
    assert o["round"] == rnd and o["cards_dealt"] == dealt
    assert o["contract"] == {"books": books, "runs": runs}
    assert o["hand_sizes"] == [dealt] * 4
    assert o["stock_size"] == 108 - 4 * dealt - 1


def test_CR_5_books_and_runs_with_the_wild_caps():
    assert cr.is_run("5H JK 2C 8H")                   # the seed's example: 5, Joker, 2, 8 of hearts
    assert not cr.is_book("4C 4D 2S JK")               # two wilds in a book
    assert cr.is_book("4C 4D 2S") and cr.is_book("4C 4C 4D")   # duplicates allowed
    assert not cr.is_book("4C 4D")                     # 3 or more
    assert not cr.is_run("5H 6H 7H")                   # 4 or more
    assert not cr.is_run("5H JK 2C 2D 9H")             # three wilds


def test_CR_5_caps_hold_for_lay_offs():
    # seat 0 is down; seat 1's run holds two wilds and its book one: only naturals fit
    s = scripted(rnd=2, hands={0: "9H JK 2D 4S 7D", 1: "QS QD KD KH"},
                 melds={0: ("book", 9, None, "9S 9D 9C"), 1: ("run", 0, 3, "3S 4S 5S 6S"),
                        3: ("book", 7, None, "7C 7S 2S"), 4: ("run", 1, 5, "5H JK 2C 8H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0, 1))
    offs = [t for t in texts(s) if t.startswith("lay off")]
    assert offs == [norm("lay off 9H on meld 4 high"), norm("lay off 7D on meld 3")]   # a book has no end
    assert s.string_to_action("lay off 7D on meld 3 low") == s.string_to_action("lay off 7D on meld 3")


def test_CR_6_deal_from_the_dealers_left_then_the_up_card_and_dealer_moves_left():
    s = game(num_players=3).new_initial_state(seed=11)
    raw = s.events_for("all")
    deals = [e for e in raw if e["event"] == "deal"]
    assert [e["player"] for e in deals[:4]] == [1, 2, 0, 1]
    assert len(deals) == 21
    assert raw.index(ev(s, "up_card")[0]) > raw.index(deals[-1])
    assert s.observation(0)["dealer"] == 0 and s.current_player() == 0
    # end round 1 quickly with the turn limit: round 2 is dealt by seat 1
    s = game(num_players=3, max_turns=1).new_initial_state(seed=11)
    while s.observation(0)["round"] == 1:
        s.apply_action(s.legal_actions()[-1] if s.current_player() >= 0 else 0)
    assert s.observation(0)["dealer"] == 1 and s.current_player() == 1


# ------------------------------------------------------------------ the seed's four up-card options
def seed_table(**kw):
    return scripted(hands={0: "3S 4S 6D 8C 10H QS KC", 1: "5D 5C 9H JH AS 7C 7S",
                           2: "6C 6H 9S 10D JC QH KD", 3: "3D 4H 8S 8D JS 10C AH"},
                    up="5H", stock_top="QC 4C 9C", **kw)


def test_CR_7_option_1_dealer_takes_the_first_up_card_without_discarding():
    s = seed_table()
    assert texts(s) == ["take up-card", "decline up-card"] and s.current_player() == 0
    act(s, "take up-card")
    assert s.observation(0)["hand_sizes"] == [8, 8, 7, 7]            # dealer kept 8, seat 1 drew
    assert parse("5H") in s.hand(0) and parse("QC") in s.hand(1)
    assert s.current_player() == 1 and s.observation(1)["phase"] == "play"
    assert s.observation(1)["up_card"] is None


def test_CR_7_option_2_dealer_declines_and_player_2_takes_it_as_the_draw():
    s = seed_table()
    act(s, "decline up-card")
    assert s.current_player() == 1 and texts(s) == ["take up-card", "decline up-card"]
    act(s, "take up-card")
    assert s.observation(1)["hand_sizes"] == [7, 8, 7, 7] and parse("5H") in s.hand(1)
    assert s.observation(1)["phase"] == "play"
    act(s, "discard 9H")
    assert s.current_player() == 2 and s.observation(2)["up_card"] == parse("9H")


def test_CR_7_option_3_player_3_buys_with_a_penalty_card_and_player_2_draws():
    s = seed_table()
    act(s, "decline up-card", "decline up-card")
    assert s.current_player() == 2 and texts(s) == ["buy", "pass"]
    act(s, "buy")
    assert s.hand(2) == sorted(cards("6C 6H 9S 10D JC QH KD 5H QC"))   # up-card + penalty (stock top)
    assert s.hand(1)[-1] == parse("4C") or parse("4C") in s.hand(1)     # player 2 draws the next card
    assert s.current_player() == 1 and s.observation(1)["phase"] == "play"
    assert s.observation(0)["hand_sizes"] == [7, 8, 9, 7]


def test_CR_7_option_4_player_4_buys_after_player_3_passes_else_player_2_draws():
    s = seed_table()
    act(s, "decline up-card", "decline up-card", "pass")
    assert s.current_player() == 3 and texts(s) == ["buy", "pass"]
    act(s, "buy")
    assert s.observation(0)["hand_sizes"] == [7, 8, 7, 9]
    assert parse("5H") in s.hand(3) and parse("QC") in s.hand(3) and parse("4C") in s.hand(1)
    t = seed_table()
    act(t, "decline up-card", "decline up-card", "pass", "pass")     # nobody: the dealer is not asked again
    assert t.current_player() == 1 and parse("QC") in t.hand(1)
    assert t.observation(1)["discard_pile"] == [parse("5H")] and t.observation(1)["up_card"] is None


def test_CR_8_buy_order_skips_the_discarder_and_respects_buy_limit_and_penalty_cards():
    s = seed_table(buy_limit=1, penalty_cards=2)
    act(s, "take up-card")                         # dealer takes; seat 1 drew QC
    act(s, "discard QC")                           # seat 1 discards: seat 2's up-card
    assert s.current_player() == 2
    act(s, "decline up-card")
    assert s.current_player() == 3                 # buyers: 3, 0 (not seat 1, the discarder)
    act(s, "pass")
    assert s.current_player() == 0
    act(s, "buy")
    assert s.observation(0)["hand_sizes"] == [11, 7, 8, 7]   # 8 + QC + 2 penalty cards; seat 2 drew
    assert s.observation(0)["buys"] == [1, 0, 0, 0]
    assert s.current_player() == 2
    act(s, "discard 6C")
    act(s, "decline up-card")                      # seat 3 declines 6C: seat 0 at the limit, seat 1 may buy
    assert s.current_player() == 1
    act(s, "pass")
    assert s.current_player() == 3 and s.observation(3)["phase"] == "play"


def test_CR_9_draw_then_discard_ends_the_turn():
    s = seed_table()
    act(s, "decline up-card", "take up-card")
    assert all(t.startswith("discard") or t == "go down" for t in texts(s))
    act(s, "discard AS")
    assert s.current_player() == 2 and s.observation(2)["phase"] == "take_or_decline"
    assert s.observation(2)["turn"] == 2


# ------------------------------------------------------------------ going down
def test_CR_10_go_down_with_the_contract_step_by_step():
    s = scripted(hands={1: "7H 7S 7C 9D 9C JK 3S 5D"}, up="KD", stock_top="", phase="play", cur=1,
                 up_live=False, turns=1)
    assert "go down" in texts(s)
    act(s, "go down")
    # a book lists its naturals in kind order (S H D C), its wild last; the Joker is
    # needed by the 9s, so every step that would strand them is withheld
    assert texts(s) == [norm("lay 7S")]
    act(s, "lay 7S")
    assert texts(s) == [norm("lay 7H")]
    act(s, "lay 7H")
    assert texts(s) == [norm("lay 7C")]
    act(s, "lay 7C")
    assert texts(s) == ["finish meld"]
    act(s, "finish meld")
    assert texts(s) == [norm("lay 9D")]
    act(s, "lay 9D", "lay 9C")
    assert texts(s) == [norm("lay JK")]
    act(s, "lay JK")
    assert texts(s) == ["finish meld"]
    act(s, "finish meld")
    o = s.observation(1)
    assert o["down"][1] and o["phase"] == "play"
    assert [m["cards"] for m in o["melds"]] == [cards("7S 7H 7C"), cards("9D 9C JK")]
    assert [m["id"] for m in o["melds"]] == [3, 4]
    assert s.hand(1) == cards("3S 5D")
    assert "go down" not in texts(s)


def test_CR_10_contract_options_are_the_distinct_lay_downs():
    assert cr.contract_options("7H 7S 7C 9D 9C JK 3S", 1) == [(("7♠", "7♥", "7♣"), ("9♦", "9♣", "🃏"))]
    opts = cr.contract_options("7H 7S 7C 7D 9D 9C JK", 1)
    assert len(opts) == 5
    assert (("7♠", "7♥", "7♦", "7♣"), ("9♦", "9♣", "🃏")) in opts
    assert (("7♠", "7♥", "7♦", "🃏"), ()) not in opts
    assert cr.contract_options("7H 7S 9D 9C 3S KD 5C", 1) == []
    assert cr.best_arrangement("7H 7S 7C 7D 9D 9C JK 3S", 1) == (
        [["7♠", "7♥", "7♦", "7♣"], ["9♦", "9♣", "🃏"]], ["3♠"], 5)
    assert cr.best_arrangement("7H 7S 9D 9C 3S KD 5C", 1) is None


def test_CR_10_two_runs_of_one_suit_never_join():
    assert cr.contract_options("3H 4H 5H 6H 7H 8H 9H 10H", 3) == []          # 3-6 + 7-10 would join
    assert cr.contract_options("3H 4H 5H 6H 8H 9H 10H JH", 3) == [
        (("3♥", "4♥", "5♥", "6♥"), ("8♥", "9♥", "10♥", "J♥"))]
    assert len(cr.contract_options("3H 4H 5H 6H 3C 4C 5C 6C", 3)) == 1


def test_CR_10_option_overlapping_runs():
    g = game(first_round=3, rounds=5, overlapping_runs=True)
    hand = "3H 4H 5H 6H 5H 6H 7H 8H QC"
    assert cr.contract_options(hand, 3) == []                         # default: they would join
    assert cr.contract_options(hand, 3, overlapping_runs=True) == [
        (("3♥", "4♥", "5♥", "6♥"), ("5♥", "6♥", "7♥", "8♥"))]
    s = scripted(rnd=3, hands={1: hand + " KD"}, phase="play", cur=1, up_live=False, turns=1,
                 overlapping_runs=True)
    assert "go down" in texts(s)
    act(s, "go down")
    assert texts(s) == [norm("start run H from 3H")]
    act(s, "start run H from 3H", "lay 3H", "lay 4H", "lay 5H", "lay 6H", "finish meld")
    assert texts(s) == [norm("start run H from 5H")]                  # overlapping, not continuing
    t = scripted(rnd=3, hands={1: "3H 4H 5H 6H 7H 8H 9H 10H KD QC"}, phase="play", cur=1,
                 up_live=False, turns=1, overlapping_runs=True)
    assert "go down" not in texts(t)                                  # 3-6 + 7-10 still join
    assert g.options.overlapping_runs


def _hearts_two_run_laydowns(counts, overlapping):
    """Every (run, run) lay-down of a wild-free all-hearts hand, brute force (CR-10): runs
    lo..hi (positions, Ace 1 or 14) of 4+ cards drawn from ``counts`` {position: copies},
    the pair in (lo, hi) order; same-suit runs never continue each other, and overlap only
    with the option."""
    runs = [(lo, hi) for lo in range(1, 12) for hi in range(lo + 3, 15)]
    out = []
    for a in runs:
        for b in runs:
            if b < a:
                continue
            use = {q: 0 for q in range(1, 15)}
            for lo, hi in (a, b):
                for q in range(lo, hi + 1):
                    use[q] += 1
            if use[1] + use[14] > counts.get(1, 0) + counts.get(14, 0) or any(
                    use[q] > counts.get(q, 0) for q in range(2, 14)) or use[1] > 0 and use[14] > 0:
                continue
            share = a[1] >= b[0]
            if share and not overlapping:
                continue
            if not share and b[0] == a[1] + 1:
                continue                                       # they would continue: join
            out.append((a, b))
    return out


def _spans(options):
    pos = {"A": 14, "J": 11, "Q": 12, "K": 13}
    def p(c):
        r = c[:-1]
        return pos[r] if r in pos else int(r)
    out = []
    for m1, m2 in options:
        lo1, lo2 = p(m1[0]), p(m2[0])
        lo1 = 1 if m1[0][:-1] == "A" and len(m1) > 1 and p(m1[1]) == 2 else lo1
        lo2 = 1 if m2[0][:-1] == "A" and len(m2) > 1 and p(m2[1]) == 2 else lo2
        out.append(((lo1, lo1 + len(m1) - 1), (lo2, lo2 + len(m2) - 1)))
    return sorted(out)


def test_CR_10_overlapping_runs_a_run_may_grow_to_overlap_the_next():
    # 5-Q and J-A overlap on J and Q: allowed with the option, though 5-Q's first four cards
    # and J-A alone would not show it (the run must grow past 4 cards to overlap, not
    # continue).  Earlier the check laid runs at 4 cards and never offered it.
    hand = "5H 6H 7H 8H 9H 10H JH QH JH QH KH AH"
    opts = cr.contract_options(hand, 3, overlapping_runs=True)
    want = (("5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "J♥", "Q♥"), ("J♥", "Q♥", "K♥", "A♥"))
    assert want in opts
    assert (("5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "J♥"), ("J♥", "Q♥", "K♥", "A♥")) in opts
    # forbidden joins still refused: 5-10 + J-A continue each other (no shared card)
    assert (("5♥", "6♥", "7♥", "8♥", "9♥", "10♥"), ("J♥", "Q♥", "K♥", "A♥")) not in opts
    assert not any(len(a) == 6 and a[0] == "5♥" and b[0] == "J♥" for a, b in opts)
    counts = {5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 2, 12: 2, 13: 1, 14: 1}
    assert _spans(opts) == sorted(_hearts_two_run_laydowns(counts, True))
    assert len(opts) == 14
    # without the option nothing changes: the 5 lay-downs whose runs keep apart
    plain = cr.contract_options(hand, 3)
    assert _spans(plain) == sorted(_hearts_two_run_laydowns(counts, False))
    assert len(plain) == 5 and want not in plain


def test_CR_10_overlapping_runs_growing_lay_down_reachable_by_legal_steps():
    hand = "5H 6H 7H 8H 9H 10H JH QH JH QH KH AH"
    s = scripted(rnd=3, hands={1: hand + " KD"}, phase="play", cur=1, up_live=False, turns=1,
                 overlapping_runs=True)
    assert "go down" in texts(s)
    act(s, "go down", "start run H from 5H", "lay 5H", "lay 6H", "lay 7H", "lay 8H", "lay 9H",
        "lay 10H")
    # 5-10 may not finish here (J-A would continue it) but may grow to J and overlap
    assert norm("finish meld") not in texts(s)
    assert norm("lay JH") in texts(s)
    act(s, "lay JH")
    assert norm("finish meld") in texts(s)
    act(s, "lay QH", "finish meld")
    assert texts(s) == [norm("start run H from JH")]
    act(s, "start run H from JH", "lay JH", "lay QH", "lay KH", "lay AH")
    assert norm("finish meld") in texts(s)
    act(s, "finish meld")
    assert "go down" not in texts(s) and not [t for t in texts(s) if t.startswith("lay ")]
    # forbidden: 5-10 finished, then J-A would continue it -- and no other run is left
    t = scripted(rnd=3, hands={1: "5H 6H 7H 8H 9H 10H JH QH KH AH KD QC"}, phase="play", cur=1,
                 up_live=False, turns=1, overlapping_runs=True)
    assert "go down" in texts(t)                                       # 5-8 + J-A keep apart
    act(t, "go down", "start run H from 5H", "lay 5H", "lay 6H", "lay 7H", "lay 8H", "lay 9H")
    assert norm("lay 10H") not in texts(t)                             # 5-10 + J-A would join


def test_CR_10_overlapping_runs_with_ace_wrap_a_run_grows_round_the_corner():
    # 2-5 is down; J-A would continue it round the corner (A next to 2): it may not finish
    # there, but grows by the second 2H (natural, CR-2) to overlap 2-5 on the 2
    s = scripted(rnd=3, hands={1: "2H 3H 4H 5H JH QH KH AH 2H KD"}, phase="play", cur=1,
                 up_live=False, turns=1, overlapping_runs=True, ace_wrap=True)
    act(s, "go down", "start run H from 2H", "lay 2H", "lay 3H", "lay 4H", "lay 5H",
        "finish meld", "start run H from JH", "lay JH", "lay QH", "lay KH", "lay AH")
    assert norm("finish meld") not in texts(s)
    act(s, "lay 2H", "finish meld")
    assert not [t for t in texts(s) if t.startswith(("lay ", "start run", "finish"))]


def test_CR_10_no_new_melds_after_going_down_and_no_second_lay_down():
    s = scripted(hands={1: "7H 7S 7C 9D 9C JK 3S 5D 5S 5C 5H"}, up="KD", phase="play", cur=1,
                 up_live=False, turns=1)
    act(s, "go down", "lay 7S", "lay 7H", "lay 7C", "finish meld", "lay 9D", "lay 9C", "lay JK",
        "finish meld")
    assert not [t for t in texts(s) if t.startswith(("go down", "lay ", "start run"))]


def test_CR_11_lay_off_on_other_players_melds_at_either_end():
    s = scripted(rnd=2, hands={0: "4S 9S 8H AD", 1: "QS QD KD KH"},
                 melds={0: ("book", 9, None, "9D 9C 9H"), 1: ("run", 3, 4, "4C 5C 6C 7C"),
                        3: ("book", 12, None, "QC QH QS"), 4: ("run", 0, 5, "5S 6S 7S 8S")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0, 1))
    offs = [t for t in texts(s) if t.startswith("lay off")]
    assert offs == [norm("lay off 4S on meld 4 low"), norm("lay off 9S on meld 4 high")]  # not own 9 book
    act(s, "lay off 4S on meld 4 low", "lay off 9S on meld 4 high")
    assert s.melds()[3]["cards"] == cards("4S 5S 6S 7S 8S 9S") and s.melds()[3]["lo"] == 4
    own = scripted(rnd=2, hands={0: "4S 9S 8H AD", 1: "QS QD KD KH"}, layoff_on_own=True,
                   melds={0: ("book", 9, None, "9D 9C 9H"), 1: ("run", 3, 4, "4C 5C 6C 7C"),
                          3: ("book", 12, None, "QC QH QS"), 4: ("run", 0, 5, "5S 6S 7S 8S")},
                   phase="play", cur=0, up_live=False, turns=1, down=(0, 1))
    assert norm("lay off 9S on meld 0") in texts(own)              # a book: no end


def test_CR_11_not_down_no_lay_off():
    s = scripted(rnd=2, hands={0: "4S 9S 8H AD", 1: "QS QD KD KH"},
                 melds={3: ("book", 12, None, "QC QH QS"), 4: ("run", 0, 5, "5S 6S 7S 8S")},
                 phase="play", cur=0, up_live=False, turns=1, down=(1,))
    assert not [t for t in texts(s) if t.startswith("lay off")]


def test_CR_12_swap_a_natural_for_a_wild_in_an_opponents_run_seed_example():
    s = scripted(rnd=2, hands={0: "7H 4D 9C", 1: "QS QD KD KH 7C"},
                 melds={3: ("book", 7, None, "7S 7D JK"), 4: ("run", 1, 5, "5H 6H 2S 8H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(1,))
    assert [t for t in texts(s) if t.startswith("swap")] == [norm("swap 7H into meld 4")]   # never a book
    act(s, "swap 7H into meld 4")
    assert s.melds()[1]["cards"] == cards("5H 6H 7H 8H")
    assert s.hand(0) == sorted(cards("2S 4D 9C"))
    swap = [e for e in s.events if e["event"] == "swap"][0]
    assert swap["card_text"] == "7♥" and swap["wild_text"] == "2♠" and swap["meld"] == 4
    t = scripted(rnd=2, hands={0: "7H 4D 9C", 1: "QS QD KD KH 7C"}, swap_requires_down=True,
                 melds={3: ("book", 7, None, "7S 7D JK"), 4: ("run", 1, 5, "5H 6H 2S 8H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(1,))
    assert not [x for x in texts(t) if x.startswith("swap")]


def test_CR_13_going_out_by_discard_by_lay_off_and_final_round_rule():
    s = scripted(rnd=2, hands={0: "4D", 1: "QS QD KD KH 7C"},
                 melds={0: ("book", 9, None, "9D 9C 9H"), 1: ("run", 3, 4, "4C 5C 6C 7C")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0,))
    act(s, "discard 4D")
    assert ev(s, "go_out")[0]["player"] == 0
    assert s.scores() == [[2, [0, 45, 90, 40]]]        # QS QD KD KH 7C = 45; the next round is dealt
    assert s.observation(0)["round"] == 3 and s.observation(0)["dealer"] == 1
    t = scripted(rnd=2, hands={0: "8C", 1: "QS QD KD KH 7C"},
                 melds={0: ("book", 9, None, "9D 9C 9H"), 1: ("run", 3, 4, "4C 5C 6C 7C")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0,), layoff_on_own=True)
    act(t, "lay off 8C on meld 1 high")
    assert ev(t, "go_out")[0]["player"] == 0 and t.scores()[0][1][0] == 0
    f = scripted(rnd=7, hands={0: "8C", 1: "QS QD KD KH 7C"}, final_round_no_discard=True,
                 melds={0: ("run", 3, 4, "4C 5C 6C 7C"), 1: ("run", 0, 4, "4S 5S 6S 7S"),
                        2: ("run", 1, 4, "4H 5H 6H 7H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0,))
    assert texts(f) == ["keep last card"]
    act(f, "keep last card")
    assert f.current_player() == 1 and f.hand(0) == cards("8C")


def test_CR_14_empty_stock_is_rebuilt_from_the_discard_pile_then_the_round_ends():
    s = scripted(hands={1: "5D 5C 9H JH AS 7C 7S"}, up="5H", discard_below="3D 3C", phase="play",
                 cur=1, up_live=False, turns=1)
    # empty the stock into seat 3's hand is not possible via JSON: use the census instead
    body = json.loads(s.to_json())
    st = body["state"]
    st["hands"][3] = sorted(st["hands"][3] + st["stock"])
    st["stock"] = []
    s = s.game.state_from_json(json.dumps(body))
    act(s, "discard 9H")                             # seat 2 must draw: the pile (3D 3C 5H) is rebuilt
    act(s, "decline up-card")                        # nobody buys (seat 3, 0 pass)
    act(s, "pass", "pass")
    assert ev(s, "stock_rebuilt")[0]["cards"] == 3
    assert s.observation(2)["discard_pile"] == [parse("9H")]
    assert s.observation(2)["stock_size"] == 2
    # both empty: the round ends with no winner
    t = scripted(up="9H", phase="take_or_decline", cur=2, up_live=True, discarder=1, turns=2)
    body = json.loads(t.to_json())
    st = body["state"]
    st["hands"][3] = sorted(st["hands"][3] + st["stock"])
    st["stock"] = []
    s2 = t.game.state_from_json(json.dumps(body))
    act(s2, "decline up-card", "pass", "pass")
    end = ev(s2, "round_end")[0]
    assert end["player"] == -1 and end["reason"] == "no cards left (CR-14)"


def test_CR_15_scoring_values_and_returns():
    s = scripted(rnd=7, rounds=1, hands={0: "4D", 1: "AS 9H 3C 2D JK", 2: "KH QH JH 10H 8C", 3: "AS"},
                 melds={0: ("run", 3, 4, "4C 5C 6C 7C"), 1: ("run", 0, 4, "4S 5S 6S 7S"),
                        2: ("run", 1, 4, "4H 5H 6H 7H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0,))
    act(s, "discard 4D")
    assert s.is_terminal()
    assert s.scores() == [[7, [0, 70, 45, 15]]]
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]


def test_CR_15_ties_share_the_win():
    s = scripted(rnd=7, first_round=6, rounds=2,
                 hands={0: "4D", 1: "AS 9H 3C 2D JK", 2: "KH QH JH 10H 8C", 3: "AS"},
                 melds={0: ("run", 3, 4, "4C 5C 6C 7C"), 1: ("run", 0, 4, "4S 5S 6S 7S"),
                        2: ("run", 1, 4, "4H 5H 6H 7H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0,))
    body = json.loads(s.to_json())
    body["state"]["scores"][5] = [15, 0, 0, 0]          # round 6: seat 1 went out
    body["state"]["round_results"][5] = 1
    s = s.game.state_from_json(json.dumps(body))
    act(s, "discard 4D")
    assert s.totals() == [15, 70, 45, 15]
    assert s.returns() == [0.5, 0.0, 0.0, 0.5]


def test_json_rejects_what_the_rules_forbid():
    s = scripted(rnd=2, hands={0: "7H 4D 9C", 1: "QS QD KD KH 7C"},
                 melds={3: ("book", 7, None, "7S 7D JK"), 4: ("run", 1, 5, "5H 6H 2S 8H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(1,))
    good = json.loads(s.to_json())

    def bad(edit):
        body = json.loads(json.dumps(good))
        edit(body["state"])
        with pytest.raises(InvalidStateError):
            s.game.state_from_json(json.dumps(body))

    def three_wilds(b):                                  # CR-5: at most 2 wilds in a run
        for wild, natural, i in ((0x50, 0x15, 0), (0x32, 0x16, 1)):   # 5H -> JK, 6H -> 2C
            b["stock"].remove(wild)
            b["stock"].append(natural)
            b["melds"][4]["cards"][i] = wild

    body = json.loads(json.dumps(good))
    three_wilds(body["state"])
    with pytest.raises(InvalidStateError, match="at most 2 wilds"):
        s.game.state_from_json(json.dumps(body))
    bad(three_wilds)
    bad(lambda b: b["melds"][4].update(lo=12))           # the run would pass the Ace
    bad(lambda b: b["melds"][3].update(rank=8))          # 7s in a book of 8s
    bad(lambda b: b.update(down=[False, False, False, False]))   # melds of a seat not down
    bad(lambda b: b["hands"][0].append(0x50))            # a fifth Joker
    bad(lambda b: b["known"].__setitem__(0, [0x12]))     # known card not in hand
    bad(lambda b: b.update(phase="buy_or_pass", up_live=True))   # buyer = turn player
    bad(lambda b: b.update(phase="going_down", building=[1, False, 0]))   # meld 0 missing


def test_json_round_trip_mid_lay_down():
    s = scripted(hands={1: "7H 7S 7C 9D 9C JK 3S 5D"}, up="KD", phase="play", cur=1,
                 up_live=False, turns=1)
    act(s, "go down", "lay 7S", "lay 7H")
    back = s.game.state_from_json(s.to_json())
    assert back == s and back.legal_actions() == s.legal_actions()


def test_CR_16_rounds_and_first_round():
    g = game(first_round=6, rounds=2, max_turns=2)
    s = g.new_initial_state(seed=2)
    assert s.observation(0)["round"] == 6 and s.observation(0)["cards_dealt"] == 12
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    assert [r for r, _ in s.scores()] == [6, 7]
    s = game(first_round=5, rounds=3, max_turns=1).new_initial_state(seed=1)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    assert [r for r, _ in s.scores()] == [5, 6, 7]


def test_CR_16_rounds_past_round_7_are_a_config_error_at_make():
    """As KR-16: make() itself rejects first_round + rounds - 1 > 7 (it used to play round 7
    only, quietly)."""
    with pytest.raises(ConfigError, match=r"first_round=7 and rounds=7.*rounds <= 1.*CR-16"):
        game(first_round=7, rounds=7)
    with pytest.raises(ConfigError, match=r"first_round=5 and rounds=7 would play rounds 5\.\.11.*CR-16"):
        game(first_round=5)                               # the default rounds=7
    assert game(first_round=7, rounds=1).options.rounds == 1
    assert game(first_round=1, rounds=7).options.first_round == 1


def test_CR_17_turn_limit_ends_the_round_with_no_winner():
    s = game(max_turns=3, rounds=1).new_initial_state(seed=4)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0] if s.legal_actions()[0] != 53 else 54)
    assert ev(s, "turn_limit")[0]["turn"] == 3
    assert ev(s, "round_end")[0]["player"] == -1
    assert s.stats()["turn_limit"] and s.stats()["turn_limit_rounds"] == 1
    assert all(x > 0 for x in s.scores()[0][1])


# ------------------------------------------------------------------ the face
def test_action_table_and_strings():
    s = game().new_initial_state(seed=1)
    assert s.game.num_distinct_actions == 3009
    assert s.action_to_string(57) == "go down"
    assert s.action_to_string(164 + (parse_kind("9S") * 18 + 4) * 2 + 1) == norm("lay off 9S on meld 4 high")
    assert s.action_to_string(2072 + parse_kind("7H") * 18 + 4) == norm("swap 7H into meld 4")
    assert s.action_to_string(111 + 1 * 13 + 4) == norm("start run H from 5H")
    with pytest.raises(IllegalActionError):
        s.apply_action(57)


def parse_kind(t):
    c = parse(t)
    return (c >> 4) * 13 + (c & 15) - 1


def test_heuristic_bot_goes_down_as_soon_as_it_can():
    s = scripted(hands={1: "7H 7S 7C 9D 9C JK 3S 5D"}, up="KD", phase="play", cur=1,
                 up_live=False, turns=1)
    assert s.action_to_string(s.heuristic_action(1)) == "go down"
    while s.observation(1)["phase"] == "going_down" or not s.observation(1)["down"][1]:
        s.apply_action(s.heuristic_action(1))
    assert s.observation(1)["down"][1]


def test_heuristic_games_end_by_going_out():
    g = game()
    s = g.new_initial_state(seed=9)
    while not s.is_terminal():
        s.apply_action(s.heuristic_action(7))
    ends = ev(s, "round_end")
    assert len(ends) == 7 and sum(e["player"] >= 0 for e in ends) >= 6


def test_CR_10_best_arrangement_agrees_with_the_shared_meld_solver():
    """melds.pyx (the shared solver) knows no same-suit join rule: with at most one run the
    two agree exactly; with more runs ours never leaves fewer points."""
    import random
    from krazy_core.cards import format_card
    from krazy_core.games import melds
    rng = random.Random(2)
    agree = 0
    for _ in range(300):
        suits = rng.sample(range(4), rng.randint(1, 3))
        lo = rng.randint(1, 8)
        pool = [(s << 4) | r for s in suits for r in range(lo, min(13, lo + 6) + 1) if r != 2] * 2 \
            + [0x50, 0x50, 0x12, 0x22]
        rnd = rng.randint(1, 7)
        hand = [format_card(c) for c in rng.sample(pool, min(len(pool), rnd + 6 + rng.randint(0, 2)))]
        mine = cr.best_arrangement(" ".join(hand), rnd)
        theirs = melds.crazy_best_arrangement(hand, contract=cr.CONTRACTS[rnd])
        if cr.CONTRACTS[rnd][1] <= 1:
            assert (mine is None) == (theirs is None), hand
            if mine:
                assert mine[2] == theirs[2], hand
                agree += 1
        elif mine is not None:
            assert theirs is not None and mine[2] >= theirs[2], hand
    assert agree >= 40


# ------------------------------------------------------------------ action names
def _card_forms(text):
    """``text`` with its card words rewritten: Unicode, ASCII, upper and lower case."""
    from krazy_core.cards import format_card
    forms = {text, text.lower(), text.upper()}
    words = []
    for w in text.split():
        try:
            c = parse(w)
        except ValueError:
            c = None
        words.append(format_card(c, ascii=True) if c is not None and (c >> 4 <= 3 or c == 0x50) else w)
    ascii_text = " ".join(words)
    forms |= {ascii_text, ascii_text.lower(), ascii_text.upper()}
    return forms


def test_string_to_action_reads_every_card_form_for_every_action_kind():
    """string_to_action(action_to_string(a)) == a for every legal action of many seeded
    states, with the card also written in ASCII (``8S``, ``10H``, ``JK``), upper and lower case
    (what the ``krazy play`` prompt sends)."""
    import random
    kinds = set()
    checked = 0
    for seed in range(6):
        g = game(num_players=2 + seed % 3, first_round=1 + seed % 7, rounds=1, jokers=4)
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal() and steps < 400:
            legal = s.legal_actions()
            for a in legal:
                t = s.action_to_string(a)
                kinds.add(t.split()[0] if not t.startswith("lay off") else "lay off")
                for form in _card_forms(t):
                    assert s.string_to_action(form) == a, (form, t)
                    checked += 1
            a = s.heuristic_action(seed) if rng.random() < 0.8 else rng.choice(legal)
            s.apply_action(a)
            steps += 1
    assert {"discard", "take", "decline", "buy", "pass", "go", "lay", "start", "finish",
            "lay off"} <= kinds, kinds
    assert checked > 2000


def test_string_to_action_ascii_examples_and_unknown_names():
    s = scripted(hands={1: "7H 7S 7C 9D 9C JK 3S 10D"}, up="KD", phase="play", cur=1,
                 up_live=False, turns=1)
    assert s.string_to_action("discard 10D") == s.string_to_action("discard 10♦")
    assert s.string_to_action("discard 3s") == s.string_to_action("DISCARD 3♠")
    assert s.string_to_action("discard jk") == s.string_to_action("discard 🃏")
    assert s.string_to_action("  discard   TD ") == s.string_to_action("discard 10♦")
    for bad in ("discard 8S", "discard ZZ", "discard", "lay 10H", "fold"):
        with pytest.raises(IllegalActionError):
            s.string_to_action(bad)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply_action("discard 8S")
    assert s.to_json() == before
    s.apply_action("go down")
    assert s.action_to_string(s.string_to_action("lay 7s")) == norm("lay 7S")
    assert s.string_to_action("LAY 7S") == s.string_to_action("lay 7♠")


def test_CR_11_lay_off_event_on_a_book_names_no_end():
    """A book has no low/high end: its lay-off event says so (end None, meld_kind "book") and
    the table words it "on meld 4 (book)" (the engine's meld 3: the table numbers melds from 1,
    as seats); a run keeps its end."""
    from krazy_core.games.contract_rummy import view as ui
    s = scripted(rnd=2, hands={0: "9H JK 2D 4S 7D", 1: "QS QD KD KH"},
                 melds={0: ("book", 9, None, "9S 9D 9C"), 1: ("run", 0, 3, "3S 4S 5S 6S"),
                        3: ("book", 7, None, "7C 7S 2S"), 4: ("run", 1, 5, "5H JK 2C 8H")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0, 1))
    labels = {ui.action_label(s, a) for a in s.legal_actions()}
    assert norm("lay off 7D on meld 4") + " (book)" in labels
    assert norm("lay off 9H on meld 5 high") in labels
    assert s.string_to_action("lay off 7d on meld 3 (book)") == s.string_to_action("lay off 7D on meld 3")
    assert s.string_to_action("lay off 7D on meld 3") == s.string_to_action(norm("lay off 7D on meld 3 low"))
    assert s.string_to_action("lay off 9h on meld 4") == s.string_to_action("lay off 9H on meld 4 high")
    with pytest.raises(IllegalActionError):
        s.string_to_action("lay off 7D on meld 4")
    act(s, "lay off 7D on meld 3 low", "lay off 9H on meld 4 high")
    offs = ev(s, "lay_off")
    assert [(e["meld"], e["meld_kind"], e["end"]) for e in offs] == [(3, "book", None), (4, "run", "high")]
    lines = [ui.describe_event(e, ["A", "B", "C", "D"]) for e in offs]
    assert lines == [norm("A lays off 7D on meld 4 (book)"), norm("A lays off 9H on meld 5 (high end)")]
    back = s.game.state_from_json(s.to_json())
    assert ev(back, "lay_off") == offs


def test_CR_11_CR_12_refused_lay_offs_and_swaps_say_why_at_the_table():
    """The table's answer to a typed lay off or swap that is not legal now names the rule
    broken (the engine's string_to_action still refuses such names outright)."""
    from krazy_core.cli.moves import _resolve_name
    s = scripted(rnd=2, hands={0: "4S 9S 8H AD KS", 1: "QD KD KH"},
                 melds={0: ("book", 9, None, "9D 9C 9H"), 1: ("run", 3, 4, "4C 5C 6C 7C"),
                        3: ("book", 12, None, "QC QH QS"), 4: ("run", 0, 5, "5S 6S 7S 8S")},
                 phase="play", cur=0, up_live=False, turns=1, down=(0, 1))
    legal = s.legal_actions()
    labels = [s.action_to_string(a) for a in legal]

    def why(text):
        with pytest.raises(IllegalActionError):
            s.string_to_action(text)
        # typed at the table, which numbers melds from 1 (as seats): the engine's meld + 1
        a, err = _resolve_name(s, re.sub(r"meld (\d+)", lambda m: f"meld {int(m.group(1)) + 1}", text),
                               legal, labels)
        assert a is None
        return err

    assert "not your own (CR-11" in why("lay off K♠ on meld 0")
    assert "does not fit the book of meld 4" in why("lay off KS on meld 3")
    assert "does not extend the run of meld 5 at its low end" in why("lay off 8H on meld 4")
    assert "there is no meld 8 on the table (meld numbers: seat 1: 1-3; seat 2: 4-6; seat 3: 7-9; " \
           "seat 4: 10-12)" in why("lay off 4S on meld 7")
    assert "never swapped out of a book (CR-12)" in why("swap KS into meld 3")
    assert "holds no wild standing for 9♠" in why("swap 9S into meld 4")
    assert "you hold no 7♥" in why("lay off 7H on meld 4 low")         # the table says "you" to the seat to act
    assert _resolve_name(s, "lay off 4S on meld 5", legal, labels)[0] == s.string_to_action("lay off 4S on meld 4 low")
    # a number that is no meld of the table says which there are
    assert why("lay off 4S on meld 12") == ("13 is not a meld number at this table: melds are numbered 1-12 (seat 1: "
                                            "1-3; seat 2: 4-6; seat 3: 7-9; seat 4: 10-12) (or type the move's "
                                            "number from the list)")


def test_CR_10_going_down_refusal_says_the_laying_order():
    """A book's naturals are laid in suit order (the lay-down sequence numbers each distinct
    lay-down once): after starting a book of Jacks with J♥ the J♠ is refused, and the reason
    says the order and what it costs."""
    s = krazy_core.make("contract-rummy", num_players=2).new_initial_state(seed=2114)
    for t in ["take up-card", "go down", "lay 5h", "lay 5d", "lay 5c", "finish meld", "lay 7d",
              "lay 7c", "lay 2s", "finish meld", "discard 9d", "decline up-card", "go down",
              "lay 7s", "lay 7c", "lay 2s", "finish meld", "lay Jh"]:
        s.apply_action(t)
    assert texts(s) == [norm("lay J♦")]
    with pytest.raises(IllegalActionError, match="suit order ♠ ♥ ♦ ♣ and the wilds last, so a "
                                                 "book that has taken a ♥ can no longer take a ♠"):
        s.apply_action("lay J♠")


def test_action_ids_are_named_constants_of_the_package():
    """Issue 12 item 1: the action ids importable by name, each the first id of its range
    (CR-7 .. CR-13), equal to what the compiled state names and numbers."""
    import krazy_core
    from krazy_core.games import contract_rummy as crp
    s = krazy_core.make("contract-rummy").new_initial_state(seed=1)
    assert crp.NUM_ACTIONS == s.game.num_distinct_actions == 3009
    assert s.action_to_string(crp.DISCARD + 12) == "discard K♠"
    assert s.action_to_string(crp.DISCARD + 52) == "discard 🃏"
    assert [s.action_to_string(a) for a in (crp.TAKE, crp.DECLINE, crp.BUY, crp.PASS, crp.GO_DOWN)] == \
        ["take up-card", "decline up-card", "buy", "pass", "go down"]
    assert s.action_to_string(crp.LAY + 13) == "lay A♥"
    assert s.action_to_string(crp.START_RUN + 13 + 4) == "start run H from 5♥"
    assert s.action_to_string(crp.FINISH) == "finish meld"
    assert s.action_to_string(crp.LAY_OFF + (0 * crp.MELD_SLOTS + 4) * 2 + 1) == "lay off A♠ on meld 4 high"
    assert s.action_to_string(crp.SWAP + 2 * crp.MELD_SLOTS + 5) == "swap 3♠ into meld 5"
    assert s.action_to_string(crp.KEEP) == "keep last card"
    assert crp.KINDS == crp.TAKE and crp.LAY + crp.KINDS == crp.START_RUN
    assert crp.START_RUN + 4 * 13 == crp.FINISH and crp.LAY_OFF + crp.KINDS * crp.MELD_SLOTS * 2 == crp.SWAP
    assert crp.SWAP + (crp.KINDS - 1) * crp.MELD_SLOTS == crp.KEEP == crp.NUM_ACTIONS - 1   # naturals only
    # no meld on the table yet: the state names every action as notation's text does
    assert [crp._action_text(a) for a in range(crp.NUM_ACTIONS)] == \
        [s.action_to_string(a) for a in range(crp.NUM_ACTIONS)]


def test_CR_8_a_lay_off_typed_with_an_end_onto_a_book_lays_it_off():
    """A fresh user's find: 'lay off 4h on meld 8 high' onto a book (no ends, CR-8) was
    refused as '4♥ does not fit the book of meld 8'; the end is dropped for a book."""
    import random
    from krazy_core.cli.moves import _resolve_name
    from krazy_core.games.contract_rummy import view
    from krazy_core.ui import load_ui
    g = krazy_core.make("contract-rummy", num_players=2)
    ui = load_ui("contract-rummy")
    found = 0
    for seed in range(60):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal() and found < 3:
            legal = s.legal_actions()
            labels = [ui.action_label(s, a) for a in legal]
            for a, lab in zip(legal, labels):
                if lab.startswith("lay off ") and not lab.endswith((" low", " high")):
                    meld = int(re.search(r"meld (\d+)", lab).group(1))
                    lab = lab.split(" (")[0]            # 'lay off 4♥ on meld 8 (book)' as typed
                    kinds = {m["id"] + 1: m["kind"] for m in s.observation(s.current_player())["melds"]}
                    assert kinds[meld] == "book"
                    for end in ("high", "low", "HI"):
                        got, err = _resolve_name(s, f"{lab} {end}", legal, labels, ui=ui)
                        assert (got, err) == (a, None), (lab, end, err)
                    found += 1
                    break
            s.apply_action(s.heuristic_action(rng.getrandbits(64)) if rng.random() < 0.8 else rng.choice(legal))
        if found >= 3:
            break
    assert found == 3
    # a run keeps its end: the typed text is unchanged
    s = g.new_initial_state(seed=1)
    assert view.typed_text(s, "lay off 7h on meld 4 high") == "lay off 7h on meld 3 high"
