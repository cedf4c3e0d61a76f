"""Issue 12 item 3 / issue 19 item 7: ``melds.crazy_best_arrangement(contract=...)`` obeys
CR-10 (a contract's runs of one suit neither overlap nor join) and so agrees with
``contract_rummy.best_arrangement``, the game's exact answer, on every contract."""
import random

import pytest

from krazy_core.cards import parse_cards
from krazy_core.games import contract_rummy as cr
from krazy_core.games import melds as M

DECK = [(s << 4) | r for s in range(4) for r in range(1, 14)] * 2 + [0x50] * 4


def _hands(seed, count, lo, hi):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(lo, hi)
        suits = rng.choice([1, 2, 4])
        pool = [c for c in DECK if c == 0x50 or (c >> 4) < suits]
        yield rng.sample(pool, min(n, len(pool))), rng.random() < 0.3


def _pts(x):
    return None if x is None else x[2]


def test_CR_10_two_spade_runs_do_not_join():
    """The brief's hand: 0 points only by AS 2S 3S 2H next to 4S..KS, which join."""
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H JK 2C"
    melds, left, pts = M.crazy_best_arrangement(hand, contract=(0, 3))
    assert pts == 5 and left == ["5S"]
    assert pts == cr.best_arrangement(hand, 7)[2]
    assert melds[0] == ["AS", "2S", "3S", "4S"]
    assert melds[1][:8] == ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]


def test_CR_10_wild_placed_away_from_the_other_run():
    """3 Jokers, spades 4 6 7 / 9..K with Ace wrap: the run 9..K takes its Joker above K
    (as the Ace), not at 8 where it would join 4..7."""
    hand = "7S JS JK JK QS 6S KS 10S 9S 7S JK 4S"
    melds, left, pts = M.crazy_best_arrangement(hand, contract=(0, 2), ace_wrap=True)
    assert pts == 5 == cr.best_arrangement(hand, 3, ace_wrap=True)[2]
    assert ["9S", "10S", "JS", "QS", "KS", "JK"] in melds


@pytest.mark.parametrize("rnd", range(1, 8))
@pytest.mark.slow
def test_CR_10_contract_points_equal_contract_rummy(rnd):
    """500 seeded random hands of 4..15 cards per contract (30% with Ace wrap), plus 40 of
    16..22 cards: the contract mode's search alone (``_search_contract``, the shared solver)
    and the game's contract optimizer (which ``crazy_best_arrangement`` answers with), two
    methods, give the same points, and None exactly alike."""
    contract = cr.CONTRACTS[rnd]
    n = 0
    for hand, wrap in list(_hands(100 + rnd, 500, 4, 15)) + list(_hands(200 + rnd, 40, 16, 22)):
        a = M.faces._search_contract(hand, contract, ace_wrap=wrap)
        b = cr.best_arrangement(hand, rnd, ace_wrap=wrap, as_codes=True)
        assert _pts(a) == _pts(b), (hand, rnd, wrap, a, b)
        n += a is not None
    assert n > 20                   # the hands reach the contract often enough to mean something


def _key(lay):
    """A lay-down as a comparable value: runs in their order (a wild at its place), books
    as multisets."""
    return sorted((("r", tuple(m)) if cr.is_run(m) and not cr.is_book(m) else ("b", tuple(sorted(m))))
                  for m in lay)


def test_CR_10_contract_arrangement_is_a_legal_lay_down():
    """The arrangement itself is one the game lists (contract_options, every CR-10 lay-down)
    on 1,200 hands of up to 12 cards: so no two runs of a suit overlap or join."""
    checked = 0
    for i, (hand, wrap) in enumerate(_hands(7, 1200, 7, 12)):
        rnd = 1 + i % 7
        a = M.crazy_best_arrangement(hand, contract=cr.CONTRACTS[rnd], ace_wrap=wrap, as_codes=True)
        if a is None:
            continue
        opts = cr.contract_options(hand, rnd, ace_wrap=wrap)
        want = _key([list(m) for m in a[0]])
        assert any(_key([parse_cards(list(m)) for m in lay]) == want for lay in opts), (hand, rnd, wrap, a)
        checked += 1
    assert checked > 100


def test_one_best_arrangement_shape_card_forms():
    """Issue 12 item 3: both best_arrangements give (melds, leftover, points) with the card
    form chosen the same way: ascii=True "AS", ascii=False "A♠", as_codes=True codes."""
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H JK 2C"
    a = M.crazy_best_arrangement(hand, contract=(0, 3), ascii=False)
    b = cr.best_arrangement(hand, 7)
    assert a[1] == b[1] == ["5♠"] and a[0][0] == b[0][0] == ["A♠", "2♠", "3♠", "4♠"]
    assert M.crazy_best_arrangement(hand, contract=(0, 3)) == M.crazy_best_arrangement(hand, contract=(0, 3), ascii=True)
    assert cr.best_arrangement(hand, 7, ascii=True)[1] == ["5S"] and cr.best_arrangement(hand, 7, ascii=True)[2] == 5
    assert cr.best_arrangement(hand, 7, ascii=False) == b
    codes = cr.best_arrangement(hand, 7, as_codes=True, ascii=True)
    assert codes[1] == [0x05] and codes == cr.best_arrangement(hand, 7, as_codes=True)
    assert M.best_arrangement("3H 4H 5H JK 9S", M.kings_rules(7), ascii=False)[1] == ["9♠"]
    assert M.best_arrangement("3H 4H 5H JK 9S", M.kings_rules(7))[1] == ["9S"]
    assert "🃏" in M.crazy_best_arrangement("3H 4H 5H JK 9S", ascii=False)[0][0]
