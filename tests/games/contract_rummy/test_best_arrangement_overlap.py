"""Issue 19 item 7: ``best_arrangement`` with ``overlapping_runs`` (CR-10 option: runs of one
suit may overlap, never continue one another) by the exact overlap runs DP (no ace_wrap;
rounds 3, 6, 7, and rounds 2, 5, where one run makes the option moot): the same answers as
the exhaustive enumeration of every lay-down (``_all_laydowns``, no limit) and as the branch
and bound (``_best_arrangement(..., 99)``: no DP), every node of the runs phase its best
child, and each answer laid by the engine step by step (every step a legal action)."""
import random
import sys

import pytest

from krazy_core.games import contract_rummy as cr
from krazy_core.games.contract_rummy import state as crs
from krazy_core.cards import parse_card
from contract_rummy_helpers import crowded_hand, _exhaustive_best, _replay, OVERLAP_WORST

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [f"{r}{s}" for s in "SHDC" for r in RANKS] * 2 + ["JK"] * 4
A_ADD, A_RUN, A_FINISH = 58, 111, 163          # core.pxd: the lay-down steps


def _ascii(hand, rnd, **kw):
    return cr.best_arrangement(hand.split(), rnd, overlapping_runs=True, ascii=True, **kw)


def test_CR_10_overlap_a_run_grows_to_overlap_the_next():
    # 5H..QH and JH..AH overlap at J, Q: all 12 cards; without the option they may not
    # touch, and 30 points stay
    hand = "5H 6H 7H 8H 9H 10H JH QH JH QH KH AH"
    assert _ascii(hand, 3) == ([["5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH"],
                                ["JH", "QH", "KH", "AH"]], [], 0)
    assert cr.best_arrangement(hand.split(), 3, ascii=True) == \
        ([["5H", "6H", "7H", "8H"], ["10H", "JH", "QH", "KH", "AH"]], ["9H", "JH", "QH"], 30)
    got = crs._best_arrangement(hand.split(), 3, False, True, True, 0)     # the DP forced
    assert got == _exhaustive_best(hand.split(), 3, False, True)
    _replay(hand.split(), 3, False, True, got)


def test_CR_10_overlap_runs_never_continue_one_another():
    # 3S-7S, 5S-9S, 8S-QS would lay all 15, but 3S-7S and 8S-QS continue one another
    # (CR-10): one of 7S, 8S stays (the least key keeps 7S); two runs lay all of it
    hand = "3S 4S 5S 6S 7S 5S 6S 7S 8S 9S 8S 9S 10S JS QS"
    assert _ascii(hand, 7) == ([["3S", "4S", "5S", "6S"], ["5S", "6S", "7S", "8S", "9S"],
                                ["8S", "9S", "10S", "JS", "QS"]], ["7S"], 5)
    assert _ascii(hand, 3) == ([["3S", "4S", "5S", "6S", "7S", "8S", "9S"],
                                ["5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]], [], 0)
    assert cr.best_arrangement(hand.split(), 7) is None         # apart, three runs do not fit
    for rnd in (3, 7):
        got = cr.best_arrangement(hand.split(), rnd, overlapping_runs=True, as_codes=True)
        assert got == crs._best_arrangement(hand.split(), rnd, False, True, True, 99)
        _replay(hand.split(), rnd, False, True, got)


def test_CR_10_overlap_book_and_two_runs_of_one_suit():
    # round 6: a book, then two spade runs, AS-5S (the low Ace) and 2S JK 9S..AS (the high
    # one, two wilds); the second 3S 4S 5S stay: 15 points either way (the least key)
    hand = "AS 2S 3S 4S 5S AS 2S 3S 4S 5S JK KS QS JS 10S 9S 7H 7D 7C".split()
    want = ([["7H", "7D", "7C"], ["AS", "2S", "3S", "4S", "5S"],
             ["2S", "JK", "9S", "10S", "JS", "QS", "KS", "AS"]], ["3S", "4S", "5S"], 15)
    assert cr.best_arrangement(hand, 6, overlapping_runs=True, ascii=True) == want
    got = cr.best_arrangement(hand, 6, overlapping_runs=True, as_codes=True)
    assert got == crs._best_arrangement(hand, 6, False, True, True, 99)
    _replay(hand, 6, False, True, got)


WORST = OVERLAP_WORST   # (hand, round): the DP's answers (contract_rummy_helpers)


@pytest.mark.parametrize("name,rnd", sorted(WORST))
def test_CR_10_overlap_worst_hands_exact_answers(name, rnd):
    # benches/meld_worst_cases.py's 41-card hands: A..K of three suits, a Joker and 2C; two
    # suits twice and 4 wilds.  Two runs of a suit overlap where that lays more (round 7
    # "twice": AS..2H and AS 2D..KS share 3S..JS)
    three = [f"{r}{s}" for s in "SHD" for r in RANKS] + ["JK", "2C"]
    twice = ([f"{r}{s}" for s in "SH" for r in RANKS] * 2)[:37] + ["JK", "JK", "2C", "2D"]
    hand = three if name == "three" else twice
    melds, rest = WORST[name, rnd].split(" // ")
    *left, pts = rest.split()
    want = ([m.split() for m in melds.split(" | ")], left, int(pts))
    assert cr.best_arrangement(hand, rnd, overlapping_runs=True, ascii=True) == want
    _replay(hand, rnd, False, True, cr.best_arrangement(hand, rnd, overlapping_runs=True, as_codes=True))


@pytest.mark.parametrize("rnd", [3, 6, 7])
def test_CR_10_overlap_dp_every_node_is_its_best_child(rnd):
    # the DP's value at every node of the runs phase (open runs, overlaps, a run from the
    # low Ace, 2s in place) is the best over the node's legal steps: what the walk relies on
    rng = random.Random(1070 + rnd)
    assert crs._dp_check("5H 6H 7H 8H 9H 10H JH QH JH KH AH".split(), 3, False, True) == []
    for _ in range(10):
        hand = crowded_hand(rng, 8, 11, nsuits=(1, 1, 2))
        assert crs._dp_check(hand, rnd, False, True) == [], hand


def test_CR_10_overlap_dp_value_after_steps():
    # after "start run H from 5H, lay 5H..8H" the rest of the 12 cards lays 9H..QH onto the
    # open run and JH..AH: 8 more cards, 85 points; finished at 8H, the next run may not
    # begin at 9H (it would continue it): 10H..AH, 5 cards, 55 points
    hand = "5H 6H 7H 8H 9H 10H JH QH JH QH KH AH".split()
    steps = [A_RUN + 13 + 4] + [A_ADD + 13 + r - 1 for r in (5, 6, 7, 8)]
    assert crs._runs_rest_after(hand, 3, False, True, steps) == (85, 8)
    assert crs._runs_rest_after(hand, 3, False, True, steps + [A_FINISH]) == (55, 5)
    # with ace_wrap too (the overlap-with-wrap DP): JH..AH may go on round the corner, but
    # nothing is left to take there; the same values
    assert crs._runs_rest_after(hand, 3, True, True, steps) == (85, 8)
    assert crs._runs_rest_after(hand, 3, True, True, steps + [A_FINISH]) == (55, 5)


@pytest.mark.parametrize("rnd", [3, 6, 7, 2, 5])
def test_CR_10_overlap_dp_equals_exhaustive(rnd):
    # the DP forced on small hands (exact_min 0), where listing every lay-down is cheap
    rng = random.Random(1100 + rnd)
    down = 0
    for _ in range(50):
        hand = crowded_hand(rng, 8, 13, nsuits=(1, 1, 2, 3))
        want = _exhaustive_best(hand, rnd, False, True)
        got = crs._best_arrangement(hand, rnd, False, True, True, 0)
        assert got == want, (hand, rnd)
        if got is not None:
            down += 1
            _replay(hand, rnd, False, True, got)
    assert down >= 4


def _against_branch_and_bound(rnd, seed, n, hi, exh=15):
    # 14..hi cards (the branch and bound takes seconds above 22): the same answer (ties
    # included), laid by the engine; up to exh cards against the exhaustive enumeration too
    rng = random.Random(seed)
    down = 0
    for i in range(n):
        hand = crowded_hand(rng, 14, hi, nsuits=(1, 2)) if i % 2 else rng.sample(DECK, rng.randint(14, hi))
        wrap = rnd in (2, 5) and i % 3 == 0          # one run: ace_wrap by the wrap DP
        got = cr.best_arrangement(hand, rnd, ace_wrap=wrap, overlapping_runs=True, as_codes=True)
        assert got == crs._best_arrangement(hand, rnd, wrap, True, True, 99), (hand, rnd)
        if len(hand) <= exh:
            assert got == _exhaustive_best(hand, rnd, wrap, True), (hand, rnd)
        if got is not None:
            down += 1
            _replay(hand, rnd, wrap, True, got)
    return down


@pytest.mark.parametrize("rnd", [3, 6, 7, 2, 5])
@pytest.mark.slow
def test_CR_10_overlap_dp_equals_branch_and_bound_on_random_hands(rnd):
    assert _against_branch_and_bound(rnd, 1200 + rnd, 40, 22) >= 10      # the slow tier


@pytest.mark.parametrize("rnd", [3, 6, 7, 2, 5])
def test_CR_10_overlap_dp_equals_branch_and_bound_on_small_hands(rnd):
    assert _against_branch_and_bound(rnd, 1250 + rnd, 8, 15, 14) >= 2


def test_issue19_overlap_big_hands_are_fast():
    # 41 cards, rounds 3, 6, 7: the DP (the branch and bound took 20..41 s)
    import time
    rng = random.Random(1300)
    worst = 0.0
    for _ in range(6):
        hand = rng.sample(DECK, 41)
        for rnd in (3, 6, 7):
            t = time.perf_counter()
            cr.best_arrangement(hand, rnd, overlapping_runs=True)
            worst = max(worst, time.perf_counter() - t)
    assert worst < 2.0, worst
