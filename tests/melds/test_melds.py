"""The meld solver (krazy_core/games/melds.pyx) against the rules and the pure-Python
reference in tests/melds/meld_reference.py (KR-5..KR-7, KR-10, KR-12, KR-14; CR-2, CR-3, CR-5)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from krazy_core.cards import parse_cards
from krazy_core.games import contract_rummy as cr
from krazy_core.games import melds as M

import importlib.util, pathlib
_spec = importlib.util.spec_from_file_location("meld_reference", pathlib.Path(__file__).with_name("meld_reference.py"))
REF = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REF)


# ---- the must-hold cases

def test_KR_6_KR_7_wild_stands_for_gap_in_run():
    assert M.is_run("3H 4H 7H 6H", 7)           # 7H stands for 5H
    assert M.is_meld("3H 4H 7H 6H", 7)


def test_KR_5_book_with_duplicate_cards():
    assert M.is_book("QH QH QD", 7)
    assert M.is_book("KH KH KS", 7)
    assert not M.is_run("QH QH QD", 7)


def test_KR_6_run_gap_too_wide_for_one_wild():
    assert not M.is_run("3H JK 6H", 7)
    assert not M.is_meld("3H JK 6H", 7)


def test_KR_7_all_wild_meld():
    assert M.is_meld("5H 5S 5C", 5)
    assert M.is_book("JK JK 9S", 9)
    assert M.is_run("JK JK JK", 4)


def test_KR_5_KR_6_not_a_meld_at_w3():
    assert not M.is_meld("5H 5H 6H", 3)


def test_KR_7_joker_extends_run():
    assert M.is_run("JH QH KH JK", 7)


def test_KR_14_unmelded_hand_scores_57():
    melds, left, pts = M.best_arrangement("5H JS KC 4D 9R", M.kings_rules(5))
    assert melds == [] and pts == 57             # 20 + 11 + 13 + 4 + 9
    assert M.deadwood_points("5H JS KC 4D 9R", 5) == 57


def test_KR_12_exact_not_greedy():
    melds, left, pts = M.best_arrangement("3H 4H 5H 6H 6S 6C 9D", M.kings_rules(7))
    assert pts == 9 and left == ["9D"]
    assert sorted(map(sorted, melds)) == [["3H", "4H", "5H"], ["6C", "6H", "6S"]]


# ---- more rule cases

def test_KR_6_no_wrap_around():
    assert not M.is_run("QH KH 3H", 9)
    assert M.is_run("JH QH KH", 9)


def test_KR_6_run_of_one_suit_only():
    assert not M.is_run("3H 4S 5H", 9)
    assert not M.is_run("3H 3H 4H 5H", 9)        # the same rank twice is no run


def test_KR_6_run_may_hold_the_wild_rank_as_itself():
    assert M.is_run("5H 6H 7H", 6)               # 6H wild, standing for itself (KR-7)


def test_KR_5_book_minimum_three():
    assert not M.is_book("QH QD", 7)
    assert not M.is_meld("JK JK", 7)


def test_KR_7_wilds_unlimited_in_a_meld():
    assert M.is_book("QH JK JK JK 7S 7D", 7)
    assert M.is_run("3H JK JK JK JK 8H", 7)
    assert not M.is_run("3H JK JK JK JK JK JK JK JK JK JK 8H", 7)   # 12 cards: only 11 ranks


def test_KR_12_extra_wilds_join_melds():
    melds, left, pts = M.best_arrangement("3H 4H 5H JK 9S", M.kings_rules(7))
    assert pts == 9 and left == ["9S"]
    assert melds == [["3H", "4H", "5H", "JK"]]
    melds, left, pts = M.best_arrangement("3H 4H 5H 7C 9S 9D", M.kings_rules(7))
    assert pts == 0 and left == []               # 7C makes 9S 9D a book
    assert sorted(map(sorted, melds)) == [["3H", "4H", "5H"], ["7C", "9D", "9S"]]


def test_KR_14_wild_and_joker_points():
    assert M.deadwood_points("JK", 7) == 50
    assert M.deadwood_points("7S", 7) == 20
    assert M.deadwood_points("7S JK", 7) == 70
    assert M.deadwood_points("7S JK", 7, wild_points=25, joker_points=40) == 65
    assert M.deadwood_points("JK JK JK", 7) == 0
    assert M.deadwood_points("JK 7S 9D", 7) == 0
    assert M.deadwood_points("JK 9D", 7) == 59


def test_KR_10_going_out_discards():
    assert M.going_out_discards("3H 4H 5H 6H 6S 6C 9D", 7) == ["9D"]
    assert M.going_out_discards("3H 4H 5H 6H 6S 9C 9D", 7) == []
    # four of a kind: any of them may go, and the wild too
    assert M.going_out_discards("QH QS QD QC", 7) == ["QS", "QH", "QD", "QC"]
    assert M.going_out_discards("QH QS QD JK", 7) == ["QS", "QH", "QD", "JK"]
    assert M.going_out_discards("3H 4H 5H 6H", 9) == ["3H", "6H"]
    assert M.can_meld_all("3H 4H 5H 6H", 9)
    assert M.going_out_discards("3H 4H 5H 6H", 9, as_codes=True) == parse_cards("3H 6H")


def test_arrangement_shape_and_order():
    melds, left, pts = M.best_arrangement("9H JK 6H 8H", M.kings_rules(3))
    assert melds == [["6H", "JK", "8H", "9H"]] and pts == 0
    melds, left, pts = M.best_arrangement(parse_cards("9H JK 6H 8H"), M.kings_rules(3), as_codes=True)
    assert melds == [parse_cards("6H JK 8H 9H")]


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="wild_rank"):
        M.is_meld("3H 4H 5H", 2)
    with pytest.raises(ValueError, match="wild_rank"):
        M.best_arrangement("3H 4H 5H", M.kings_rules(14))
    with pytest.raises(ValueError, match="not a Kings Rummy card"):
        M.is_meld("2H 3H 4H", 7)
    with pytest.raises(ValueError, match="not a Kings Rummy card"):
        M.best_arrangement(["AH"], M.kings_rules(7))
    with pytest.raises(ValueError):
        M.best_arrangement("ZZ", M.kings_rules(7))
    with pytest.raises(ValueError, match="at most 32"):
        M.best_arrangement(["3H"] * 33, M.kings_rules(7))
    with pytest.raises(ValueError):
        M.going_out_discards(b"3H", 7)


def test_empty_and_tiny_hands():
    assert M.best_arrangement([], M.kings_rules(7)) == ([], [], 0)
    assert M.going_out_discards(["QH"], 7) == ["QH"]
    assert not M.is_meld([], 7)


# ---- Crazy Rummy rules through the same core

def test_CR_5_runs_of_four_with_two_wilds():
    assert M.crazy_meld_kind("5H JK 2H 8H") == "run"       # the seed's example
    assert M.crazy_meld_kind("5H 6H 7H") is None            # runs are 4+
    assert M.crazy_meld_kind("5H JK JK 2S 9H") is None      # 3 wilds in a run
    assert M.crazy_meld_kind("5H 5S 2C") == "book"
    assert M.crazy_meld_kind("5H 5S 2C JK") is None         # 2 wilds in a book


def test_CR_2_natural_two_and_CR_3_ace():
    assert M.crazy_meld_kind("AH 2H 3H JK 2S") == "run"      # 2H natural, 2 wilds
    assert M.crazy_meld_kind("2H 2S 2C") == "book"
    assert M.crazy_meld_kind("QH KH AH JK") == "run"         # Ace high
    assert M.crazy_meld_kind("KH AH 2H 3H") is None          # no wrap
    assert M.crazy_meld_kind("KH AH 2H 3H", ace_wrap=True) == "run"


def test_CR_10_contract_arrangement():
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9S 9C 9D 2S"
    melds, left, pts = M.crazy_best_arrangement(hand, contract=(1, 1))
    assert pts == 0 and len(melds) == 2
    assert M.crazy_best_arrangement(hand, contract=(2, 1)) is None
    # CR-10: AH..4H and 5H..8H would join into one run; one heart is left between them
    # (before issue 19 item 7's follow-up the solver answered 30 by joining them)
    melds, left, pts = M.crazy_best_arrangement(hand, contract=(0, 2))
    assert pts == 35 and pts == cr.best_arrangement(hand, 3)[2]
    assert sorted(left) == ["5H", "9C", "9D", "9S"]


# ---- the reference agrees

def _deal(rng, n, k, w, suits=5):
    naturals = [(s << 4) | r for s in range(suits) for r in range(3, 14) if r != w] * 2
    wilds = [0x50] * 6 + [(s << 4) | w for s in range(5)] * 2
    return rng.sample(naturals, n - k) + rng.sample(wilds, k)


def _check(hand, w):
    ref = REF.best_points(hand, w)
    melds, left, pts = M.best_arrangement(hand, M.kings_rules(w), as_codes=True)
    assert pts == ref, (w, M.best_arrangement(hand, M.kings_rules(w)))
    assert all(REF.is_meld(m, w) for m in melds)
    assert sorted(sum(melds, []) + left) == sorted(hand)
    assert sum(REF.points(c, w) for c in left) == pts


@settings(max_examples=300, deadline=None)
@given(w=st.integers(3, 13), n=st.integers(3, 14), k=st.integers(0, 6),
       suits=st.sampled_from([1, 2, 5]), seed=st.integers(0, 2**32))
def test_KR_12_solver_agrees_with_reference(w, n, k, suits, seed):
    hand = _deal(random.Random(seed), n, min(k, n), w, suits)
    _check(hand, w)


@settings(max_examples=120, deadline=None)
@given(w=st.integers(3, 13), n=st.integers(3, 14), k=st.integers(0, 6),
       suits=st.sampled_from([1, 2, 5]), seed=st.integers(0, 2**32))
def test_KR_10_going_out_agrees_with_reference(w, n, k, suits, seed):
    hand = _deal(random.Random(seed), n, min(k, n), w, suits)
    assert M.going_out_discards(hand, w, as_codes=True) == REF.going_out(hand, w)


@settings(max_examples=200, deadline=None)
@given(w=st.integers(3, 13), cards=st.lists(st.sampled_from(
    [0x50] + [(s << 4) | r for s in range(5) for r in range(3, 14)]), min_size=1, max_size=8))
def test_KR_5_KR_6_meld_tests_agree_with_reference(w, cards):
    assert M.is_book(cards, w) == REF.is_book(cards, w)
    assert M.is_run(cards, w) == REF.is_run(cards, w)
    assert M.is_meld(cards, w) == REF.is_meld(cards, w)


# ---- Crazy Rummy: the search against brute-force partitions (melds checked one by one)

CR_POINTS = {1: 15, 2: 20, **{k: 5 for k in range(3, 9)}, **{k: 10 for k in range(9, 14)}}


def _cr_points(c):
    return 20 if c == 0x50 else CR_POINTS[c & 15]


def _cr_brute(hand, contract=None, ace_wrap=False):
    """Fewest points left: free melds (sizes 3..7 suffice, see meld_reference) or exactly
    ``contract = (books, runs)`` melds of any size."""
    from functools import lru_cache
    from itertools import combinations

    @lru_cache(maxsize=None)
    def f(rest, nb, nr):
        if not rest:
            return 0 if contract is None or (nb, nr) == (0, 0) else None
        c, others = rest[0], rest[1:]
        best = f(others, nb, nr)
        best = None if best is None else best + _cr_points(c)
        top = len(others) if contract else 6
        seen = set()
        for k in range(2, top + 1):
            for idx in combinations(range(len(others)), k):
                combo = tuple(others[i] for i in idx)
                if combo in seen:
                    continue
                seen.add(combo)
                meld = (c,) + combo
                left = tuple(x for i, x in enumerate(others) if i not in idx)
                for kind in (1, 2):
                    if contract is not None and (nb if kind == 1 else nr) == 0:
                        continue
                    if M._crazy_is(meld, kind, ace_wrap):
                        v = f(left, nb - (kind == 1), nr - (kind == 2)) if contract else f(left, 0, 0)
                        if v is not None and (best is None or v < best):
                            best = v
        return best

    hand = tuple(sorted(hand))
    if contract is None:
        return f(hand, 0, 0)
    # melds need a natural first card in this recursion: put wilds last
    hand = tuple(sorted(hand, key=lambda c: (c == 0x50 or (c & 15) == 2, c)))
    return f(hand, *contract)


_CR_DECK = [(s << 4) | r for s in range(4) for r in range(1, 14)] * 2 + [0x50] * 4


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(3, 9), suits=st.sampled_from([1, 2, 4]),
       wrap=st.booleans())
def test_CR_5_solver_agrees_with_brute_force(seed, n, suits, wrap):
    rng = random.Random(seed)
    deck = [c for c in _CR_DECK if c == 0x50 or (c >> 4) < suits]
    hand = rng.sample(deck, n)
    melds, left, pts = M.crazy_best_arrangement(hand, ace_wrap=wrap, as_codes=True)
    assert pts == _cr_brute(hand, ace_wrap=wrap), M.crazy_best_arrangement(hand, ace_wrap=wrap)
    assert sorted(sum(melds, []) + left) == sorted(hand)
    assert all(M.crazy_meld_kind(m, ace_wrap=wrap) for m in melds)
    assert sum(_cr_points(c) for c in left) == pts


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(6, 9), suits=st.sampled_from([1, 2]),
       contract=st.sampled_from([(2, 0), (1, 1), (0, 2)]))
def test_CR_10_contract_agrees_with_brute_force(seed, n, suits, contract):
    rng = random.Random(seed)
    deck = [c for c in _CR_DECK if c == 0x50 or (c >> 4) < suits]
    hand = rng.sample(deck, n)
    got = M.crazy_best_arrangement(hand, contract=contract, as_codes=True)
    want = _cr_brute(hand, contract=contract)
    assert (got[2] if got else None) == want, (M.crazy_best_arrangement(hand, contract=contract), want)
    if got:
        melds, left, pts = got
        kinds = sorted(M.crazy_meld_kind(m) for m in melds)
        assert kinds == sorted(["book"] * contract[0] + ["run"] * contract[1])
        assert sorted(sum(melds, []) + left) == sorted(hand)


# ---- the wild-share bound that lets kz_meld_going_out skip most going-out checks

def _meldy_hand(rng, w, n):
    """A hand of n cards made mostly of melds (books and runs of 3..5, some wilds standing
    in), then random cards: going out is often possible or nearly so."""
    wilds = [0x50] + [(s << 4) | w for s in range(5)]
    hand = []
    while len(hand) < n:
        room = n - len(hand)
        if room < 3 or rng.random() < 0.2:
            hand.append(rng.choice([(s << 4) | r for s in range(5) for r in range(3, 14)] + wilds))
            continue
        L = rng.randint(3, min(5, room))
        if rng.random() < 0.5:
            r = rng.choice([k for k in range(3, 14) if k != w])
            meld = [(rng.randrange(5) << 4) | r for _ in range(L)]
        else:
            a = rng.randint(3, 14 - L)
            s = rng.randrange(5)
            meld = [(s << 4) | k for k in range(a, a + L)]
        for i in range(L):
            if rng.random() < 0.25:
                meld[i] = rng.choice(wilds)
        hand += meld
    rng.shuffle(hand)
    return hand


def _check_share_bound(hand, w):
    bound = M._wild_share_bound(hand, w)
    assert bound is not None
    shares, total, nwild, scale = bound
    assert total == sum(shares)
    assert M._wild_share_bound(hand, w, use_table=False) == bound     # table == window loop
    # the lemma: a hand that lays down completely needs at least total/scale wilds
    if M._can_meld_all_unfiltered(hand, w):
        assert total <= nwild * scale, (w, hand)
    # what kz_meld_going_out skips: a discard d whose bound fails never lets the rest meld
    outs = set()
    for i, d in enumerate(hand):
        rest = hand[:i] + hand[i + 1:]
        is_wild = d == 0x50 or (d & 15) == w
        skip = total > (nwild - 1) * scale if is_wild else total - shares[i] > nwild * scale
        melds = M._can_meld_all_unfiltered(rest, w)
        assert M.can_meld_all(rest, w) == melds
        if skip:
            assert not melds, (w, hand, d)
        if melds:
            outs.add(d)
    # and the going-out answer is exactly the brute force over every discard
    assert M.going_out_discards(hand, w, as_codes=True) == sorted(outs)


@settings(max_examples=400, deadline=None)
@given(w=st.integers(3, 13), n=st.integers(1, 16), seed=st.integers(0, 2**32))
def test_KR_10_wild_share_bound_never_rejects_a_hand_that_goes_out(w, n, seed):
    rng = random.Random(seed)
    _check_share_bound(_meldy_hand(rng, w, n), w)
    k = rng.randint(0, min(n, 4))
    _check_share_bound(_deal(rng, n, k, w, rng.choice([1, 2, 5])), w)


def _sweep(check, seed, per_rank):
    """``check(hand, w)`` on ``per_rank`` seeded hands of 1..14 cards for every wild rank
    3..13 (rounds 1..11), half of them built from melds."""
    rng = random.Random(seed)
    for w in range(3, 14):
        for t in range(per_rank):
            n = rng.randint(1, 14)
            hand = _meldy_hand(rng, w, n) if t % 2 else _deal(rng, n, rng.randint(0, min(n, 3)), w)
            check(hand, w)


@pytest.mark.slow
def test_KR_10_wild_share_bound_many_hands_every_wild_rank():
    """Seeded sweep: 2,000 hands per wild rank 3..13 (round 1..11), half built from melds."""
    _sweep(_check_share_bound, 20261129, 2000)


def test_KR_10_wild_share_bound_values():
    # 3H 4H 5H a natural run (0), 7S 7D a pair (1/2 each), 9C alone (2), one Joker; wild rank 8
    shares, total, nwild, scale = M._wild_share_bound("3H 4H 5H 7S 7D 9C JK", 8)
    assert shares == [0, 0, 0, scale // 2, scale // 2, 2 * scale, 0]
    assert (total, nwild) == (3 * scale, 1)
    # 3H 4H 6H: the window 3..6 holds three naturals and needs one wild: 1/3 each
    assert M._wild_share_bound("3H 4H 6H", 8)[0] == [scale // 3] * 3
    # total 3 - the largest share 2 = 1 <= 1 wild: the check must still run (discard 9C)
    assert M.going_out_discards("3H 4H 5H 7S 7D 9C JK", 8) == ["9C"]


# ---- the deadwood search's dead-natural pruning changes nothing

def _check_dead_prune(hand, w):
    pruned, unpruned = M._arrangement_pruned_and_not(hand, w)
    assert pruned == unpruned, (w, hand)


@settings(max_examples=300, deadline=None)
@given(w=st.integers(3, 13), n=st.integers(1, 16), seed=st.integers(0, 2**32))
def test_KR_12_dead_natural_pruning_same_arrangement(w, n, seed):
    rng = random.Random(seed)
    _check_dead_prune(_meldy_hand(rng, w, n), w)
    _check_dead_prune(_deal(rng, n, rng.randint(0, min(n, 4)), w, rng.choice([1, 2, 5])), w)


def test_KR_12_dead_natural_pruning_many_hands_every_wild_rank():
    _sweep(_check_dead_prune, 112920262, 1500)


@settings(max_examples=200, deadline=None)
@given(w=st.integers(3, 13), n=st.integers(1, 14), seed=st.integers(0, 2**32),
       slack=st.integers(-30, 30))
def test_KR_12_bounded_deadwood_search(w, n, seed, slack):
    """kz_meld_deadwood_below(limit): the exact points when below limit, else limit."""
    rng = random.Random(seed)
    hand = _meldy_hand(rng, w, n) if seed % 2 else _deal(rng, n, rng.randint(0, min(n, 3)), w)
    pts = M.deadwood_points(hand, w)
    limit = max(0, pts + slack)
    assert M._deadwood_below(hand, w, limit) == (pts if pts < limit else limit)
    assert M._deadwood_below(hand, w, 1 << 30) == pts


# --------------------------------------------------------------------------- contracts in steps
# issue 12 item 3: Crazy Rummy's going-down and lay-down checks are the shared solver's
# kz_contract_feasible; its fresh-contract face against the independent reference
# (tests/games/contract_rummy/contract_rummy_reference.py: sub-multisets of every 3-card book and 4-card run).

def _cr_kinds(codes):
    from contract_rummy_reference import kind
    return [kind(c) for c in codes]


def test_CR_10_contract_feasible_examples():
    assert M.crazy_contract_feasible("5S 6S 7S 8S 9H 9C 9D", 1, 1)
    assert not M.crazy_contract_feasible("5S 6S 7S 8S 9H 9C 9D", 2, 1)
    # two same-suit runs that touch join (CR-10): not two runs ...
    assert not M.crazy_contract_feasible("AS 2S 3S 4S 5S 6S 7S 8S", 0, 2)
    # ... unless one card apart, or overlapping with the option
    assert M.crazy_contract_feasible("AS 2S 3S 4S 6S 7S 8S 9S", 0, 2)
    assert not M.crazy_contract_feasible("AS 2S 3S 4S 3S 4S 5S 6S", 0, 2)
    assert M.crazy_contract_feasible("AS 2S 3S 4S 3S 4S 5S 6S", 0, 2, overlapping_runs=True)
    # a book of 2s takes a Joker as its wild, never another 2 (CR-2)
    assert M.crazy_contract_feasible("2S 2H JK", 1, 0)
    assert M.crazy_contract_feasible("2S 2H 2D", 1, 0)
    # wrap only with ace_wrap (CR-3)
    assert M.crazy_contract_feasible("QH KH AH 2H", 0, 1)          # the 2 a wild J, Ace high
    assert M.crazy_contract_feasible("KH AH 2H 3H", 0, 1, ace_wrap=True)
    assert not M.crazy_contract_feasible("KH AH 3H 4H", 0, 1)
    with pytest.raises(ValueError):
        M.crazy_contract_feasible("5S", 2, 2)
    with pytest.raises(ValueError):
        M.crazy_contract_feasible("5S", -1, 0)


@pytest.mark.parametrize("wrap,overlap", [(False, False), (True, False), (False, True)])
@pytest.mark.slow
def test_CR_10_contract_feasible_agrees_with_the_reference(wrap, overlap):
    """800 seeded hands of 6..12 cards from two suits with wilds, every contract shape."""
    import random
    from collections import Counter
    from contract_rummy_reference import Rules, fresh_ok, CONTRACTS
    rules = Rules(wrap, overlap)
    rng = random.Random(1234 + 2 * wrap + overlap)
    deck = [(s << 4) | r for s in (0, 1) for r in range(1, 14)] * 2 + [0x20 | 2, 0x30 | 2, 0x50, 0x50]
    agree = yes = 0
    for i in range(800):
        hand = rng.sample(deck, rng.randint(6, 12))
        nb, nr = CONTRACTS[1 + i % 7]
        want = fresh_ok(rules, Counter(_cr_kinds(hand)), nb, nr, 1, -1, [])
        got = M.crazy_contract_feasible(hand, nb, nr, ace_wrap=wrap, overlapping_runs=overlap)
        assert got == want, (hand, nb, nr)
        agree += 1
        yes += want
    assert agree == 800 and 40 <= yes <= 760       # both answers occur often


def test_CR_10_contract_rummy_going_down_is_the_shared_check():
    """contract_rummy's going-down check (CR-10) answers as the shared solver on random hands."""
    import random
    from krazy_core.games.contract_rummy import state as crs
    from contract_rummy_reference import CONTRACTS
    rng = random.Random(7)
    deck = [(s << 4) | r for s in range(4) for r in range(1, 14)] * 2 + [0x50] * 4
    for i in range(300):
        hand = rng.sample(deck, rng.randint(7, 14))
        rnd = 1 + i % 7
        nb, nr = CONTRACTS[rnd]
        assert crs._can_go_down_hand(hand, rnd) == M.crazy_contract_feasible(hand, nb, nr)
