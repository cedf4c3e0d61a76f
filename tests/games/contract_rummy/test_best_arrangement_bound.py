"""Issue 19 item 7: ``best_arrangement``'s exact runs DP (CR-3, CR-5, CR-10, CR-15) and its
least-key walk keep the answer: against the exhaustive enumeration of every lay-down
(``_all_laydowns``, which has no bound) on random crowded hands (also with the DP forced on
small hands), and on the worst hands of benches/meld_worst_cases.py.
The old branch and bound is compared on thousands of hands by
benches/best_arrangement_old_vs_new.py (two trees side by side)."""
import random

import pytest

from krazy_core.games import contract_rummy as cr
from krazy_core.games.contract_rummy import state as crs
from krazy_core.cards import parse_card
from contract_rummy_helpers import crowded_hand
from helpers import slow_cases  # noqa: E402

POINTS = {1: 15, 2: 20, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _pts(code):
    """CR-15 points of a card code (suit << 4 | rank; Joker 0x50)."""
    if code >> 4 == 5:
        return 20
    return POINTS.get(code & 15, 5)


def _exhaustive_best(hand, rnd):
    """The best lay-down by listing them all: most points laid, then most cards, then the
    least (sorted melds, leftover) -- best_arrangement's documented order."""
    lays = crs._all_laydowns(hand, rnd, False, False)
    if not lays:
        return None
    def score(x):
        lay, left = x
        return (-sum(_pts(c) for c in left), -len(left))
    top = max(score(x) for x in lays)
    lay, left = min(x for x in lays if score(x) == top)
    return ([list(m[3]) for m in lay], list(left), sum(_pts(c) for c in left))


def _hand(rng):
    suits = rng.sample("SHDC", rng.choice([1, 2, 2, 3]))
    pool = [f"{r}{s}" for s in suits for r in RANKS] * 2 + ["JK"] * 4 + ["2S", "2H", "2D", "2C"]
    size = rng.randint(14, 16)          # the run bound starts at 14 cards
    hand, cnt = [], {}
    for c in rng.sample(pool, size):
        if cnt.get(c, 0) < (4 if c == "JK" else 2):
            cnt[c] = cnt.get(c, 0) + 1
            hand.append(c)
    return hand


@pytest.mark.parametrize("rnd", [3, 6, 7, 2, 5])
@pytest.mark.slow
def test_CR_10_best_arrangement_equals_exhaustive_on_crowded_runs(rnd):
    rng = random.Random(1900 + rnd)
    checked = down = 0
    while checked < 30:
        hand = _hand(rng)
        if len(crs._all_laydowns(hand, rnd, False, False, 20001)) > 20000:
            continue                    # too many to list in a test
        want = _exhaustive_best(hand, rnd)
        assert cr.best_arrangement(hand, rnd, as_codes=True) == want, (hand, rnd)
        checked += 1
        down += want is not None
    assert down >= 10                   # the comparison saw real lay-downs


def _two_suits(n):
    cards = [f"{r}{s}" for s in "SH" for r in RANKS]
    return cards[:n - 2] + ["JK", "2C"]


def test_CR_10_best_arrangement_worst_hands_two_runs_of_a_suit_must_not_join():
    # 20 cards (AS..KS, AH..5H, JK, 2C), round 7: all 13 spades cannot lie in two spade runs
    # (CR-10: they would join), so one spade stays; the cheapest is a 5-point card.
    melds_, left, pts = cr.best_arrangement(_two_suits(20), 7)
    assert melds_ == [['A♠', '2♠', '3♠', '4♠'], ['6♠', '7♠', '8♠', '9♠', '10♠', 'J♠', 'Q♠', 'K♠'],
                      ['A♥', '2♥', '3♥', '4♥', '5♥', '2♣', '🃏']]
    assert left == ['5♠'] and pts == 5
    # 24 cards: still one 5-point spade left (the third run cannot be made of JK and 2C alone)
    melds_, left, pts = cr.best_arrangement(_two_suits(24), 7, as_codes=True)
    assert pts == 5 and len(left) == 1 and _pts(left[0]) == 5
    assert len(melds_) == 3 and all(cr.is_run(m) for m in melds_)
    assert sorted(sum(melds_, []) + left) == sorted(parse_card(c) for c in _two_suits(24))


def _small_hand(rng, lo=4, hi=13):
    return crowded_hand(rng, lo, hi)


@pytest.mark.parametrize("rnd", [3, 7, 2, 6])
@slow_cases('6')
def test_CR_10_runs_dp_forced_on_small_hands_equals_exhaustive(rnd):
    # the DP normally starts at 14 cards; forced (exact_min=0) on small hands, where listing
    # every lay-down is cheap: the same answer, ties (least key) included
    rng = random.Random(7700 + rnd)
    checked = down = 0
    while checked < 60:
        hand = _small_hand(rng, 11, 15) if rnd in (6, 7) else _small_hand(rng)
        if len(crs._all_laydowns(hand, rnd, False, False, 3001)) > 3000:
            continue
        want = _exhaustive_best(hand, rnd)
        assert crs._best_arrangement(hand, rnd, False, False, True, 0) == want, (hand, rnd)
        checked += 1
        down += want is not None
    assert down >= 3                    # (more in benches/best_arrangement_old_vs_new.py)


def test_CR_3_runs_dp_one_ace_serves_one_end_and_no_run_holds_both_aces():
    # one A of spades: A-2-3-4 and J-Q-K-A cannot both use it (CR-3); the DP must not count it
    # twice.  Two Aces: both runs lie.
    one = ["AS", "2S", "3S", "4S", "JS", "QS", "KS", "5H", "6H", "7H", "8H"]
    assert crs._best_arrangement(one, 3, False, False, True, 0) == _exhaustive_best(one, 3)
    melds_, left, pts = cr.best_arrangement(one + ["AS"], 3)
    assert melds_ == [['A♠', '2♠', '3♠', '4♠'], ['J♠', 'Q♠', 'K♠', 'A♠']]
    assert left == ['5♥', '6♥', '7♥', '8♥'] and pts == 20
    # A..K of spades twice over and an Ace more: no run of 14 (A low and high, CR-3)
    full = [f"{r}S" for r in RANKS] + ["AS"]
    assert crs._best_arrangement(full, 3, False, False, True, 0) == _exhaustive_best(full, 3)


def test_issue19_best_arrangement_big_hands_are_fast():
    # round 7, three full suits, a Joker and 2C (41 cards, the most a random game deals):
    # the runs DP, not the search (the old search did not finish)
    import time
    hand = [f"{r}{s}" for s in "SH" for r in RANKS] * 1 + [f"{r}D" for r in RANKS] + ["JK", "2C"]
    t = time.process_time()
    melds_, left, pts = cr.best_arrangement(hand, 7, as_codes=True)
    assert time.process_time() - t < 5.0
    assert len(melds_) == 3 and all(cr.is_run(m) for m in melds_)
    assert sorted(sum(melds_, []) + left) == sorted(parse_card(c) for c in hand)
    # runs of 13 cannot grow (CR-3): the two wilds stand in for two 5-point naturals
    assert pts == 10 and len(left) == 2 and all(_pts(c) == 5 for c in left)
