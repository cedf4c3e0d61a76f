"""Issue 19 item 7: ``best_arrangement``'s exact paths keep the answer (CR-2, CR-3, CR-5,
CR-10, CR-15): the books-only DP (rounds 1 and 4, any option), the runs DP with ace_wrap
(rounds 3, 6, 7), and the branch and bound with overlapping_runs, against the exhaustive
enumeration of every lay-down (``_all_laydowns``, no bound, no limit) on small hands and
against the branch and bound (``_best_arrangement(..., 99)``: no DP) on bigger ones; every
node of the ace_wrap walk against its children; and the worst hands of
benches/meld_worst_cases.py, whose answers were checked once against the branch and bound
(minutes each: not here)."""
import random

import pytest

from krazy_core.games import contract_rummy as cr
from krazy_core.games.contract_rummy import state as crs
from krazy_core.cards import parse_card
from contract_rummy_helpers import crowded_hand, _exhaustive_best
from helpers import slow_cases  # noqa: E402

POINTS = {1: 15, 2: 20, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for s in "SHDC" for r in RANKS] * 2 + ["JK"] * 4
OPTIONS = [(False, False), (True, False), (False, True)]      # (ace_wrap, overlapping_runs)


def _pts(code):
    """CR-15 points of a card code (suit << 4 | rank; Joker 0x50)."""
    if code >> 4 == 5:
        return 20
    return POINTS.get(code & 15, 5)


_crowded = crowded_hand


def _runny(rng, runs, wrap, books=0):
    """``runs`` random runs of 4 cards (round the corner with wrap), some wilds, and up to
    one more card: hands that often hold a contract of runs."""
    hand, cnt = [], {}
    cards = []
    for _ in range(runs):
        s = rng.choice("SHDC")
        lo = rng.randint(1, 13 if wrap else 11)
        for q in range(lo, lo + 4):
            r = RANKS[(q - 1) % 13]
            cards.append(rng.choice(["JK", "2C", "2D"]) if rng.random() < 0.15 else f"{r}{s}")
    for _ in range(books):
        r = rng.choice(RANKS)
        cards += [f"{r}{s}" for s in rng.sample("SHDC", 3)]
    cards += rng.sample(DECK, rng.randint(0, 1))
    for c in cards:
        if cnt.get(c, 0) < (4 if c == "JK" else 2):
            cnt[c] = cnt.get(c, 0) + 1
            hand.append(c)
    return hand


def _booky(rng, lo, hi):
    """A hand of lo..hi cards from 2-5 ranks, every suit twice, and wilds: many books."""
    ranks = rng.sample(RANKS, rng.randint(2, 5))
    pool = [f"{r}{s}" for r in ranks for s in "SHDC"] * 2 + ["JK"] * 4 + [f"2{s}" for s in "SHDC"] * 2
    hand, cnt = [], {}
    for c in rng.sample(pool, min(len(pool), rng.randint(lo, hi))):
        if cnt.get(c, 0) < (4 if c == "JK" else 2):
            cnt[c] = cnt.get(c, 0) + 1
            hand.append(c)
    return hand


def _check_valid(hand, rnd, wrap, got):
    """A lay-down of round rnd's contract from hand: its melds, the leftover and the points."""
    melds, left, pts = got
    nb, nr = cr.CONTRACTS[rnd]
    assert [cr.is_book(m) for m in melds] == [True] * nb + [False] * nr
    assert all(cr.is_run(m, ace_wrap=wrap) for m in melds[nb:])
    assert sorted(sum(melds, []) + left) == sorted(parse_card(c) for c in hand)
    assert pts == sum(_pts(c) for c in left)


@pytest.mark.parametrize("wrap,ov", OPTIONS)
@pytest.mark.parametrize("rnd", [1, 4])
def test_CR_5_books_dp_equals_exhaustive(rnd, wrap, ov):
    # the DP forced on small hands (exact_min 0), where listing every lay-down is cheap
    rng = random.Random(4100 + rnd * 10 + wrap * 2 + ov)
    down = 0
    for _ in range(60):
        hand = _booky(rng, 7, 13)
        want = _exhaustive_best(hand, rnd, wrap, ov)
        assert crs._best_arrangement(hand, rnd, wrap, ov, True, 0) == want, (hand, rnd)
        down += want is not None
    assert down >= 20                   # the comparison saw real lay-downs


@pytest.mark.parametrize("rnd", [1, 4])
def test_CR_5_books_dp_equals_branch_and_bound_up_to_41_cards(rnd):
    rng = random.Random(4200 + rnd)
    down = 0
    for i in range(60):
        hand = rng.sample(DECK, rng.randint(14, 41)) if i % 3 else _booky(rng, 14, 18)
        wrap, ov = rng.choice(OPTIONS)
        got = cr.best_arrangement(hand, rnd, ace_wrap=wrap, overlapping_runs=ov, as_codes=True)
        assert got == crs._best_arrangement(hand, rnd, wrap, ov, True, 99), (hand, rnd)
        if got is not None:
            _check_valid(hand, rnd, wrap, got)
            down += 1
    assert down >= 30


def test_CR_5_books_dp_books_of_twos_take_only_a_joker_as_wild():
    # CR-2: in a book of 2s the 2s are natural, only a Joker is wild; the Jokers go where a
    # wild may stand.  Each answer is the exhaustive enumeration's (ties included).
    for hand, rnd, pts in (("2S 2S 2H 2D 2C JK JK 9H 9D 9C", 1, 0),
                           ("2S 2H 2D 2C JK 5H 5D", 1, 0),
                           ("2S 2H 2D JK JK 5H 5D", 1, 0),       # one Joker in each book
                           ("2S 2H JK 5H 5D 6S 6C", 1, 20),      # the 2s as wilds, a wild left
                           ("2S 2S 2H 2H 2D 2D JK 9S 9H 9D", 4, 0)):   # two books of 2s
        got = cr.best_arrangement(hand, rnd, as_codes=True)
        assert got == _exhaustive_best(hand.split(), rnd, False, False), hand
        assert got[2] == pts, (hand, got)
    # three books of one rank (8 naturals and a wild, CR-5): round 4 from one rank alone
    hand = [f"7{s}" for s in "SHDC"] * 2 + ["2C"]
    got = cr.best_arrangement(hand, 4, as_codes=True)
    assert got == _exhaustive_best(hand, 4, False, False)
    assert len(got[0]) == 3 and got[1:] == ([], 0)
    assert cr.best_arrangement(hand[:-1], 4) is None


@pytest.mark.parametrize("rnd", [3, 6, 7])
def test_CR_3_ace_wrap_runs_dp_equals_exhaustive(rnd):
    rng = random.Random(3300 + rnd)
    down = 0
    for _ in range(60 if rnd == 3 else 30):
        hand = _crowded(rng, 8, 13) if rnd == 3 else _runny(rng, cr.CONTRACTS[rnd][1], True,
                                                                      cr.CONTRACTS[rnd][0])
        want = _exhaustive_best(hand, rnd, True, False)
        assert crs._best_arrangement(hand, rnd, True, False, True, 0) == want, (hand, rnd)
        down += want is not None
    assert down >= 4


@pytest.mark.parametrize("rnd", [3, 6, 7])
@pytest.mark.slow
def test_CR_3_ace_wrap_runs_dp_equals_branch_and_bound(rnd):
    rng = random.Random(3400 + rnd)
    down = 0
    for i in range(25):
        hand = _crowded(rng, 14, 18) if i % 2 else _runny(rng, 4, True, cr.CONTRACTS[rnd][0])
        got = cr.best_arrangement(hand, rnd, ace_wrap=True, as_codes=True)
        assert got == crs._best_arrangement(hand, rnd, True, False, True, 99), (hand, rnd)
        if got is not None:
            _check_valid(hand, rnd, True, got)
            down += 1
    assert down >= 10


def test_CR_3_ace_wrap_runs_dp_every_node_is_its_best_child():
    # the DP's value at every node of the runs phase is the best over the node's legal
    # steps (what the walk relies on): round corners, the window's last rank, 2s in place
    rng = random.Random(3500)
    for hand in (["QS", "KS", "AS", "2S", "3S", "4S", "5S", "JS", "9H", "10H", "JH", "QH", "JK"],
                 ["KH", "AH", "2H", "3H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"]):
        assert crs._dp_check(hand, 3, True) == []
    for _ in range(12):
        hand = _crowded(rng, 9, 12)
        assert crs._dp_check(hand, rng.choice([3, 7]), True) == [], hand


@pytest.mark.slow
def test_CR_10_overlapping_runs_best_is_the_exhaustive_best():
    # the shared solver keeps two runs of one suit apart, so with overlapping_runs it is no
    # bound: the search took it and stopped at 5 points left; the exhaustive best lays all
    hand = ["JK", "5H", "4H", "6H", "2H", "JH", "2H", "9H", "AH", "9H", "QH", "AH", "2D", "KH",
            "JK", "2S", "4H"]
    want = ([[17, 2, 18, 20], [20, 21, 22, 18, 34, 25], [80, 25, 80, 27, 28, 29, 17]], [], 0)
    assert _exhaustive_best(hand, 7, False, True) == want
    assert cr.best_arrangement(hand, 7, overlapping_runs=True, as_codes=True) == want
    rng = random.Random(1010)
    for _ in range(25):
        hand = _crowded(rng, 9, 12)
        rnd = rng.choice([3, 6, 7, 2, 5])
        assert cr.best_arrangement(hand, rnd, overlapping_runs=True, as_codes=True) == \
            _exhaustive_best(hand, rnd, False, True), (hand, rnd)


@pytest.mark.parametrize("wrap,ov", OPTIONS)
@pytest.mark.parametrize("rnd", range(1, 8))
@pytest.mark.slow
def test_issue19_best_arrangement_equals_the_references_on_random_hands(rnd, wrap, ov):
    # 7..41 cards (overlapping_runs, still a search: up to 24), every round and option:
    # the exhaustive enumeration up to 11 cards, the branch and bound where it is quick
    # (books only; 12..16 cards otherwise), and a valid lay-down of the contract above that
    # (2,100 hands: the slow tier)
    rng = random.Random(19000 + rnd * 10 + wrap * 2 + ov)
    for i in range(100):
        n = rng.randint(7, 24 if ov else 41)
        if i % 3 == 0:
            hand = _crowded(rng, 7, 11) if cr.CONTRACTS[rnd][1] else _booky(rng, 7, 11)
        else:
            hand = rng.sample(DECK, n)
        got = cr.best_arrangement(hand, rnd, ace_wrap=wrap, overlapping_runs=ov, as_codes=True)
        if len(hand) <= 11:
            assert got == _exhaustive_best(hand, rnd, wrap, ov), (hand, rnd)
        elif cr.CONTRACTS[rnd][1] == 0 or len(hand) <= 16:
            assert got == crs._best_arrangement(hand, rnd, wrap, ov, True, 99), (hand, rnd)
        if got is not None:
            _check_valid(hand, rnd, wrap, got)


# ---- the worst hands of benches/meld_worst_cases.py: the exact answers (checked against
# the branch and bound once: 57..93 s each there, 0.02 s here)

def _suits(ss):
    return [f"{r}{s}" for s in ss for r in RANKS]


def test_issue19_worst_round_3_ace_wrap_three_suits():
    hand = _suits("SHD") + ["JK", "2C"]
    assert cr.best_arrangement(hand, 3, ace_wrap=True, as_codes=True) == (
        [[1, 2, 3, 4, 5, 6, 7, 18, 9, 10, 11, 12, 13], [33, 34, 35, 36, 37, 38, 50, 80, 41, 42, 43, 44, 45]],
        [8, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 39, 40], 110)


def test_issue19_worst_round_3_ace_wrap_two_suits_twice():
    hand = (_suits("SH") * 2)[:37] + ["JK", "JK", "2C", "2D"]
    melds, left, pts = cr.best_arrangement(hand, 3, ace_wrap=True, as_codes=True)
    assert pts == 115
    _check_valid(hand, 3, True, (melds, left, pts))


def test_issue19_worst_round_7_ace_wrap_three_suits():
    hand = _suits("SHD") + ["JK", "2C"]
    assert cr.best_arrangement(hand, 7, ace_wrap=True, as_codes=True) == (
        [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
         [33, 34, 35, 36, 37, 38, 50, 80, 41, 42, 43, 44, 45]], [39, 40], 10)


def test_issue19_worst_books_eight_copies_of_five_ranks():
    hand = [f"{r}{s}" for r in ["3", "4", "5", "6", "7"] for s in "SHDC"] * 2 + ["JK"]
    assert cr.best_arrangement(hand, 4, as_codes=True) == (
        [[3, 3, 19, 19, 35, 35, 51, 51], [4, 4, 20, 20, 36, 36, 52, 52], [5, 5, 21, 21, 37, 37, 53, 53, 80]],
        [6, 6, 7, 7, 22, 22, 23, 23, 38, 38, 39, 39, 54, 54, 55, 55], 80)
    melds, left, pts = cr.best_arrangement(hand, 1, as_codes=True)
    assert pts == 120 and len(melds) == 2 and melds[1][-1] == 80


def test_issue19_worst_books_four_ranks_eight_times_and_nine_wilds():
    # benches/meld_worst_cases.py's books hand (the search: 1.6 s; the DP: 0.003 s): every
    # 2 in a book of 2s, the Jokers as the books' wilds (CR-2, CR-5)
    hand = ["10S", "JK", "6H", "AS", "2C", "AS", "JK", "2H", "10S", "6H", "2C", "2S", "10D", "6S", "AC",
            "AD", "10C", "3S", "JK", "AD", "10D", "2S", "10H", "6C", "2D", "AC", "3D", "6D", "10H", "3S",
            "2H", "2D", "3H", "JK", "AH", "3C", "AH", "3H", "3D", "6D", "6C"]
    assert cr.best_arrangement(hand, 4, as_codes=True) == (
        [[1, 1, 17, 17, 33, 33, 49, 49, 80], [2, 2, 18, 18, 34, 34, 50, 50, 80],
         [10, 10, 26, 26, 42, 42, 58, 80]],
        [3, 3, 6, 19, 19, 22, 22, 35, 35, 38, 38, 51, 54, 54, 80], 90)
    assert cr.best_arrangement(hand, 1, as_codes=True) == (
        [[1, 1, 17, 17, 33, 33, 49, 49, 80], [2, 2, 18, 18, 34, 34, 50, 50, 80]],
        [3, 3, 6, 10, 10, 19, 19, 22, 22, 26, 26, 35, 35, 38, 38, 42, 42, 51, 54, 54, 58, 80, 80], 180)


# ---- the mixed rounds 2, 5, 6 (books and runs), no overlapping_runs: exact, no search

def _mixed_hand(rng, lo, hi):
    """Books of 2-4 ranks, runs of 1-2 suits and wilds: hands that often hold both."""
    kind = rng.random()
    if kind < 0.4:
        return _booky(rng, lo, hi) + _runny(rng, 2, False)[:rng.randint(0, 8)]
    if kind < 0.7:
        return _runny(rng, 3, False, books=2)
    return _crowded(rng, lo, hi)


def _clip(hand):
    out, cnt = [], {}
    for c in hand:
        if cnt.get(c, 0) < (4 if c == "JK" else 2):
            cnt[c] = cnt.get(c, 0) + 1
            out.append(c)
    return out


def test_CR_5_a_books_natural_can_belong_in_a_run():
    # "a book's rank holds all its naturals" (the books-only lemma) fails with runs in the
    # contract: 5S makes the spade run, the book of 5s keeps its other three
    hand = ["5S", "5S", "5H", "5D", "3S", "4S", "6S", "7D", "8D", "9D", "10D"]
    assert crs._best_arrangement(hand, 6, False, False, False, 0, True) == (
        [["5S", "5H", "5D"], ["3S", "4S", "5S", "6S"], ["7D", "8D", "9D", "10D"]], [], 0)
    assert crs._best_arrangement(hand, 6, False, False, False, 99, True) == (
        [["5S", "5H", "5D"], ["3S", "4S", "5S", "6S"], ["7D", "8D", "9D", "10D"]], [], 0)


def test_CR_3_both_aces_of_a_suit_can_lie_in_runs():
    # the mixed DP's lemma (the books leave at most 1 of each natural of their ranks) has
    # an exception without ace_wrap: one run takes AS low, another high (CR-3); with
    # ace_wrap the two runs would join round the corner (CR-10) and the hand cannot go down
    hand = "AS AS AH AH AD 2S 3S 4S JS QS KS".split()
    want = ([["AH", "AH", "AD"], ["AS", "2S", "3S", "4S"], ["JS", "QS", "KS", "AS"]], [], 0)
    assert crs._best_arrangement(hand, 6, False, False, False, 0, True) == want
    assert crs._best_arrangement(hand, 6, False, False, False, 99, True) == want
    assert crs._best_arrangement(hand, 6, True, False, False, 0, True) is None


@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("rnd", [2, 5, 6])
@slow_cases('5-True')
def test_CR_10_mixed_dp_equals_exhaustive(rnd, wrap):
    # the mixed DP forced on small hands (exact_min 0) against every lay-down listed
    rng = random.Random(5100 + rnd * 10 + wrap)
    down = 0
    for _ in range(120):
        hand = _clip(_mixed_hand(rng, 7, 12))[:12]
        want = _exhaustive_best(hand, rnd, wrap, False)
        assert crs._best_arrangement(hand, rnd, wrap, False, True, 0) == want, (hand, rnd)
        down += want is not None
    assert down >= 15                   # the comparison saw real lay-downs


@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("rnd", [2, 5, 6])
@pytest.mark.slow
def test_CR_10_mixed_dp_equals_branch_and_bound(rnd, wrap):
    # 10..30 cards, the default path (the DP from 14 cards) and the DP forced, against the
    # plain branch and bound (exact_min 99)
    rng = random.Random(5200 + rnd * 10 + wrap)
    down = 0
    for i in range(150):                # 900 hands, ~75 s: the slow tier
        hand = rng.sample(DECK, rng.randint(14, 30)) if i % 2 else _clip(_mixed_hand(rng, 10, 20))
        want = crs._best_arrangement(hand, rnd, wrap, False, True, 99)
        assert crs._best_arrangement(hand, rnd, wrap, False, True, 0) == want, (hand, rnd)
        if want is not None:
            _check_valid(hand, rnd, wrap, want)
            down += 1
    assert down >= 40


def test_issue19_worst_round_5_four_ranks_twice_and_eight_wilds():
    # benches/meld_worst_cases.py's round-5 hand (checked once against the branch and bound:
    # 8.5 s there, 0.2 s here).  Both AC lie in melds (CR-3: the run takes its Ace low), and
    # three Jokers stay in hand: a book takes one wild, a run two (CR-5)
    hand = ["JK"] * 4 + ["2S", "2H", "2D", "2C"] + [f"{r}{s}" for r in "59KA" for s in "SHDC"] * 2 + ["7S"]
    books = [["AS", "AS", "AH", "AH", "AD", "AD", "AC", "2S"], ["9S", "9S", "9H", "9H", "9D", "9D", "9C", "9C", "2H"]]
    left = ["5S", "5S", "7S", "KS", "KS", "5H", "5H", "KH", "KH", "5D", "5D", "KD", "KD", "5C"]
    assert cr.best_arrangement(hand, 5, ascii=True) == (
        books + [["AC", "2C", "2D", "JK", "5C"]], left + ["KC", "KC", "JK", "JK", "JK"], 180)
    assert cr.best_arrangement(hand, 5, ascii=True, ace_wrap=True) == (
        books + [["KC", "AC", "2C", "2D", "JK", "5C"]], left + ["KC", "JK", "JK", "JK"], 170)


@pytest.mark.slow
def test_issue19_worst_round_5_ace_wrap_four_ranks_twice_every_suit():
    # the slowest hand a hunt found for the mixed DP (0.93 s; 9.8 s by the branch and bound,
    # the same answer): 9 10 Q A twice in every suit and all 8 wilds.  The run is
    # 9C 10C (2D) QC (JK) AC 2C round the corner (CR-3 ace_wrap): 2 wilds and 2C natural
    # at its place (CR-2, CR-5); each book of 8 naturals takes one 2 as its wild
    hand = [f"{r}{s}" for r in ["9", "10", "Q", "A"] for s in "SHDC"] * 2 + ["JK"] * 4 + ["2S", "2H", "2D", "2C"]
    assert cr.best_arrangement(hand, 5, ace_wrap=True, as_codes=True) == (
        [[1, 1, 17, 17, 33, 33, 49, 2], [9, 9, 25, 25, 41, 41, 57, 18], [57, 58, 34, 60, 80, 49, 50]],
        [10, 10, 12, 12, 26, 26, 28, 28, 42, 42, 44, 44, 58, 60, 80, 80, 80], 200)
