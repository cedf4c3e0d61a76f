"""Issue 19 item 7: ``best_arrangement``'s join-aware run bound (CR-5, CR-10, CR-15) keeps the
exact answer: against the exhaustive enumeration of every lay-down (``_all_laydowns``, which
has no bound) on random crowded hands, and on the worst hands of benches/meld_worst_cases.py.
The old branch and bound is compared on thousands of hands by
benches/best_arrangement_old_vs_new.py (two trees side by side)."""
import random

import pytest

from krazy_core.games import contract_rummy as cr
from krazy_core.games.contract_rummy import state as crs
from krazy_core.cards import parse_card

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
