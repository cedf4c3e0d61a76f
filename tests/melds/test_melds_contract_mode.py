"""``melds.crazy_best_arrangement(contract=...)`` (CR-4, CR-10): for a round's contract and a
hand within CR-1 the answer is the game's own lay-down (``contract_rummy.best_arrangement``,
the contract optimizer: exact, polynomial from 14 cards, no step budget), whatever the hand;
the cases the optimizer does not cover (contracts that are no round's, hands beyond CR-1) go
to the search alone, bounded by the input checks (contracts of at most 3 melds, at most 22
cards beyond CR-1) and measured (benches/meld_worst_cases.py)."""
import pathlib
import random
from collections import Counter

import pytest

from contract_rummy_helpers import cr_points
from krazy_core.games import contract_rummy as cr
from krazy_core.games import melds as M

DECK = [(s << 4) | r for s in range(4) for r in range(1, 14)] * 2 + [0x50] * 4
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ROUND_OF = {v: k for k, v in cr.CONTRACTS.items()}


def _two_suits_twice(n):
    """Spades and hearts A..K twice over, cut to n - 4, two Jokers, 2C and 2D (CR-1)."""
    return ([f"{r}{s}" for s in "SH" for r in RANKS] * 2)[:n - 4] + ["JK", "JK", "2C", "2D"]


def _codes(hand):
    return M._parse_crazy_cards(hand)


def _run_positions(m, wrap):
    """(suit, positions) of a run listed in rank order with each wild at its place: the
    positions as a bit set (by rank round the circle with Ace wrap), None when no start fits
    (CR-3, CR-5: at most 2 wilds)."""
    suit = next(c >> 4 for c in m if c != 0x50 and (c & 15) != 2)
    for p0 in range(1, (26 if wrap else 14) - len(m) + 2):
        nat = [c >> 4 == suit and (c & 15) == (p0 + i - 1) % 13 + 1 for i, c in enumerate(m)]
        if all(ok or c == 0x50 or (c & 15) == 2 for ok, c in zip(nat, m)) and nat.count(False) <= 2:
            if wrap:
                return suit, sum(1 << ((p0 + i - 1) % 13) for i in range(len(m)))
            return suit, sum(1 << (p0 + i) for i in range(len(m)))
    return None


def _touch(a, b, wrap):
    """Two position sets of one suit overlap or join (CR-10: one sequence)."""
    grow = a | (a << 1) | (a >> 1)
    if wrap:
        grow = (grow | ((a & 1) << 12) | ((a >> 12) & 1)) & 0x1FFF
    return bool(grow & b)


def check_laydown(hand, got, contract, wrap):
    """``got`` (codes) is a lay-down of ``contract`` from ``hand`` in crazy_best_arrangement's
    form: melds + leftover = the hand as a multiset, the contract's books and runs (CR-5), two
    runs of a suit neither overlapping nor joining (CR-10), a book naturals first, the
    leftover ascending, the points its CR-15 value."""
    melds, left, pts = got
    assert Counter(sum(melds, []) + left) == Counter(hand)
    assert left == sorted(left)
    assert pts == sum(cr_points(c) for c in left)
    kinds = [M.crazy_meld_kind(m, ace_wrap=wrap) for m in melds]
    assert sorted(kinds) == sorted(["book"] * contract[0] + ["run"] * contract[1]), melds
    spans = []
    for m, kind in zip(melds, kinds):
        if kind == "book":
            nat = [c for c in m if not (c == 0x50 or (c & 15) == 2)]
            assert m[:len(nat)] == sorted(nat), m
        else:
            span = _run_positions(m, wrap)
            assert span is not None, m
            assert not any(s == span[0] and _touch(b, span[1], wrap) for s, b in spans), melds
            spans.append(span)


def _random_hands(seed, count, lo=20, hi=32, suits=(1, 2, 4)):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(lo, hi)
        k = rng.choice(suits)
        pool = [c for c in DECK if c == 0x50 or (c >> 4) < k]
        yield rng.sample(pool, min(n, len(pool))), rng.randint(1, 7), rng.random() < 0.3


def test_check_laydown_refuses_joined_runs():
    """The checker itself: AS-4S and 5S-8S join (CR-10); 4S 5S 6S 7S JK is fine alone."""
    hand = [1, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(AssertionError):
        check_laydown(hand, [[[1, 2, 3, 4], [5, 6, 7, 8]], [], 0], (0, 2), False)
    check_laydown(hand + [80], [[[4, 5, 6, 7, 80]], [1, 2, 3, 8], 45], (0, 1), False)
    with pytest.raises(AssertionError):             # QS KS AS 2S and 4S-7S join round the corner
        check_laydown([12, 13, 1, 2, 4, 5, 6, 7], [[[12, 13, 1, 2], [3, 4, 5, 6]], [], 0], (0, 2), True)


# ------------------------------------------------------------- the game's lay-down

WORST = [  # (name, hand, contract, ace_wrap, fewest points): the search alone took seconds on each
    ("two suits twice, 32, (0,3), ace_wrap", _two_suits_twice(32), (0, 3), True, 55),
    ("two suits twice, 32, (0,2), ace_wrap", _two_suits_twice(32), (0, 2), True, 55),
    # a random one-suit hand of 29 cards, round 6 with ace_wrap: 95 M search steps
    ("one suit, 29, (1,2), ace_wrap", [4, 4, 6, 12, 10, 5, 11, 7, 1, 9, 6, 13, 1, 80, 2, 10, 3, 80, 3, 80,
                                       8, 9, 12, 5, 7, 8, 2, 11, 80], (1, 2), True, 95),
]


def _same_laydown(got, game):
    """Equal lay-downs in the two forms: the same melds (as multisets, in order), leftover
    and points (crazy_best_arrangement lists a book naturals first, the game in laying order)."""
    assert got[2] == game[2]
    assert [sorted(m) for m in got[0]] == [sorted(m) for m in game[0]] and got[1] == game[1]


@pytest.mark.parametrize("name,hand,contract,wrap,want", WORST, ids=[w[0] for w in WORST])
def test_CR_10_worst_hands_give_the_games_lay_down(name, hand, contract, wrap, want):
    """The worst hands we built for the search: the answer is the game's lay-down (CR-4
    round's contract), its exact points, a legal lay-down (CR-5, CR-10)."""
    got = M.crazy_best_arrangement(hand, contract=contract, ace_wrap=wrap, as_codes=True)
    game = cr.best_arrangement(hand, ROUND_OF[contract], ace_wrap=wrap, as_codes=True)
    assert got[2] == want
    check_laydown(_codes(hand), got, contract, wrap)
    _same_laydown(got, game)


def test_CR_10_contract_mode_is_the_games_lay_down():
    """60 seeded random hands of 20..32 cards (CR-1; 1, 2 or 4 suits, a random round, 30%
    ace_wrap): the game's points and lay-down, in this function's form (a book naturals
    first, leftover ascending; the string forms alike), or None with the game's None."""
    _game_check(60, 1, 20, 32)


def test_CR_10_contract_mode_is_the_games_lay_down_small_hands():
    """The same under 14 cards, where the optimizer searches rather than runs its DPs."""
    _game_check(200, 3, 8, 13)


@pytest.mark.slow
def test_CR_10_contract_mode_is_the_games_lay_down_many():
    """The same on 600 hands of 14..32 cards (slow tier)."""
    _game_check(600, 2, 14, 32)


def _game_check(count, seed, lo, hi):
    laid = 0
    for hand, rnd, wrap in _random_hands(seed, count, lo, hi):
        contract = cr.CONTRACTS[rnd]
        got = M.crazy_best_arrangement(hand, contract=contract, ace_wrap=wrap, as_codes=True)
        game = cr.best_arrangement(hand, rnd, ace_wrap=wrap, as_codes=True)
        if game is None:
            assert got is None
            continue
        check_laydown(hand, got, contract, wrap)
        _same_laydown(got, game)
        text = M.crazy_best_arrangement(hand, contract=contract, ace_wrap=wrap)
        assert text == ([[M._fmt(c) for c in m] for m in got[0]], [M._fmt(c) for c in got[1]], got[2])
        laid += 1
    assert laid > count * (0.8 if lo >= 14 else 0.2), laid


# ------------------------------------------------------------- the cases the DPs do not cover

def test_CR_4_contract_of_more_than_3_melds_is_refused():
    """CR-4: a contract has at most 3 melds (the search alone took over 30 s on 32 cards
    for (0, 4)); books and runs are ints 0..3, as in crazy_contract_feasible."""
    hand = _two_suits_twice(16)
    for bad in ((0, 4), (2, 2), (4, 0), (-1, 1), (1.0, 1), (1,), "ab", 3):
        with pytest.raises(ValueError, match="contract|melds"):
            M.crazy_best_arrangement(hand, contract=bad)
    assert M.crazy_best_arrangement(hand, contract=[1, 2])[2] == 5     # a list is fine


def test_CR_1_contract_mode_takes_22_cards_beyond_the_double_deck():
    """A hand beyond CR-1 (3 of a card, or 5+ Jokers) has no exact DP: contract mode takes
    at most 22 such cards (ValueError beyond, naming the fix); 22 is answered (measured worst
    0.23 s), and the free lay-down still takes 32."""
    spades3 = [f"{r}S" for r in RANKS if r != "2"] * 3
    wilds = ["JK"] * 6 + ["2H", "2D", "2C", "2S"]
    with pytest.raises(ValueError, match="at most 22 cards .* more than 2 of a card"):
        M.crazy_best_arrangement(spades3[:13] + wilds, contract=(1, 2), ace_wrap=True)
    melds, left, pts = M.crazy_best_arrangement(spades3[:12] + wilds, contract=(1, 2), ace_wrap=True)
    assert pts == 50
    assert M.crazy_best_arrangement(spades3[:22] + wilds)[2] == 0
    assert M.crazy_best_arrangement(["2S"] * 22, contract=(2, 0))[2] == 0       # books of any length


SEARCH_ONLY = [  # (name, hand, contract, ace_wrap, points): measured in benches/meld_worst_cases.py
    # 19 cards: the search alone before (hunted by mutation: 0.3-0.8 s), the DPs' path now
    ("19 cards two suits twice, (0,3), ace_wrap", _two_suits_twice(19), (0, 3), True, 20),
    ("19 cards two suits twice, (0,2), ace_wrap", _two_suits_twice(19), (0, 2), True, 10),
    ("19 cards hunted, (0,3), ace_wrap", [1, 2, 3, 4, 5, 6, 7, 18, 9, 10, 2, 18, 13, 28, 8, 12, 11, 1, 34],
     (0, 3), True, 30),
    ("19 cards hunted, (0,2), ace_wrap", [3, 6, 2, 4, 8, 1, 7, 10, 9, 50, 11, 12, 5, 2, 18, 34, 13, 50, 1],
     (0, 2), True, 70),
    ("19 cards hunted, no lay-down, (0,3), ace_wrap", [1, 2, 1, 4, 3, 34, 7, 8, 10, 5, 11, 12, 13, 50, 18, 2, 6,
                                                        50, 9], (0, 3), True, None),
    # under 14 cards (the optimizer's search); contracts no round's, hands beyond CR-1 (the search alone)
    ("13 cards hunted, (0,2), ace_wrap", [2, 1, 3, 4, 5, 6, 18, 1, 18, 12, 13, 2, 34], (0, 2), True, 20),
    ("32 cards two suits twice, (0,1), ace_wrap", _two_suits_twice(32), (0, 1), True, 200),
    ("32 cards two suits twice, (1,0)", _two_suits_twice(32), (1, 0), False, 225),
    ("22 cards beyond CR-1, (1,2), ace_wrap", ([f"{r}S" for r in RANKS if r != "2"] * 3)[:12] +
     ["JK"] * 6 + ["2H", "2D", "2C", "2S"], (1, 2), True, 50),
]


@pytest.mark.parametrize("name,hand,contract,wrap,want", SEARCH_ONLY, ids=[w[0] for w in SEARCH_ONLY])
def test_CR_10_worst_search_only_cases_finish(name, hand, contract, wrap, want):
    """The worst hands we built or hunted for the search (19 cards and 13, now the
    optimizer's) or that only the search answers (contracts that are no round's, hands
    beyond CR-1): each finishes (benches/meld_worst_cases.py: at most 0.35 s)
    with its exact points (the game's, for a CR-4 round's contract) and a legal lay-down
    (CR-5, CR-10); None when the going-down check finds no lay-down."""
    got = M.crazy_best_arrangement(hand, contract=contract, ace_wrap=wrap, as_codes=True)
    if want is None:
        assert got is None and not M.crazy_contract_feasible(hand, *contract, ace_wrap=wrap)
    else:
        assert got[2] == want
        check_laydown(_codes(hand), got, contract, wrap)
    if contract in ROUND_OF and len(hand) in (13, 19):
        game = cr.best_arrangement(hand, ROUND_OF[contract], ace_wrap=wrap)
        assert (game and game[2]) == want


def test_CR_10_melds_alone_answers_contracts_exactly(tmp_path):
    """A caller who imports only ``krazy_core.games.melds`` (not the game) gets the same
    contract mode: the exact optimizer lives in the meld package (no game is imported, nothing
    is installed at import)."""
    import subprocess
    import sys
    hand = " ".join(_two_suits_twice(32))
    code = (
        "import sys, krazy_core.games.melds as M\n"
        "print('krazy_core.games.contract_rummy' in sys.modules)\n"
        f"r = M.crazy_best_arrangement({hand!r}, contract=(0, 3), ace_wrap=True)\n"
        "print(r[2], 'krazy_core.games.contract_rummy' in sys.modules)\n")
    # cwd: a folder without the checkout ('-c' puts the cwd first on sys.path: from the
    # checkout's root the child would import the unbuilt source tree)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=_child_env(), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "55", "False"]


def _child_env():
    """The test's environment, with the imported krazy_core's parent first on PYTHONPATH (so
    the child imports the same build: in place or installed)."""
    import os
    import krazy_core
    env = dict(os.environ)
    root = str(pathlib.Path(krazy_core.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_CR_10_lay_down_helpers_take_odd_arguments_as_values_or_refuse_them():
    """A tester's hostile calls: an iterator as the hand was read twice (best_arrangement gave
    None, contract_options []), a hand that is no collection raised TypeError, a limit past C's
    ssize_t OverflowError, and a set or an iterator as the contract was taken (a set in any
    order).  Now: the iterator is read once, the rest are ValueErrors."""
    hand = ["AS", "2S", "3S", "4S", "5H", "5D", "5C", "KS"]
    want = cr.best_arrangement(hand, 2)
    assert want is not None and want[2] == 10
    assert cr.best_arrangement(iter(hand), 2) == want
    assert cr.best_arrangement(tuple(hand), 2) == want
    assert cr.contract_options(iter(hand), 2) == cr.contract_options(hand, 2) != []
    assert cr.contract_options(hand, 2, limit=2 ** 70) == cr.contract_options(hand, 2)
    for bad in (None, 42, 1.5):
        with pytest.raises(ValueError, match="cards must be"):
            cr.best_arrangement(bad, 2)
        with pytest.raises(ValueError, match="cards must be"):
            cr.contract_options(bad, 2)
        with pytest.raises(ValueError, match="hand must be"):
            M.crazy_best_arrangement(bad, contract=(1, 1))
    for contract in ({1, 2}, iter((1, 1)), (1, 1, 0), "11", 11):
        with pytest.raises(ValueError, match=r"\(books, runs\)"):
            M.crazy_best_arrangement(hand, contract=contract)
    assert M.crazy_best_arrangement(hand, contract=[1, 1])[2] == M.crazy_best_arrangement(hand, contract=(1, 1))[2]
