"""A small pure-Python reference for the Kings Rummy meld rules (KR-5..KR-7, KR-12, KR-14).

Brute force with memoisation, written to be obviously right rather than fast: the best
arrangement is the minimum, over every way to lay the first card (left over, or in a meld
of 3..5 cards with any of the others), of the best arrangement of the rest.  Melds of 6 or
more cards need not be tried: each splits into two melds of 3 or more (a book into two
books, a run into two runs, an all-wild meld into two all-wild melds), leaving the same
cards.  Cards are int codes (suit << 4 | rank, Joker 0x50).
"""
from functools import lru_cache
from itertools import combinations

JOKER = 0x50


def is_wild(card, w):
    return card == JOKER or (card & 15) == w


def points(card, w, wild_points=20, joker_points=50):
    if card == JOKER:
        return joker_points
    if (card & 15) == w:
        return wild_points
    return card & 15


def is_book(cards, w):
    if len(cards) < 3:
        return False
    ranks = {c & 15 for c in cards if not is_wild(c, w)}
    return len(ranks) <= 1


def is_run(cards, w):
    n = len(cards)
    if n < 3 or n > 11:                 # ranks 3..K: 11 places
        return False
    nat = [c for c in cards if not is_wild(c, w)]
    if len({c >> 4 for c in nat}) > 1:
        return False
    ranks = [c & 15 for c in nat]
    if len(set(ranks)) != len(ranks):
        return False
    if not ranks:
        return True
    return max(ranks) - min(ranks) + 1 <= n


def is_meld(cards, w):
    return is_book(cards, w) or is_run(cards, w)


def best_points(hand, w, wild_points=20, joker_points=50):
    """Fewest points left over (KR-12) of a hand of card codes at wild rank ``w``."""
    key = lambda c: (is_wild(c, w), c)          # naturals first, wilds last

    @lru_cache(maxsize=None)
    def f(rest):
        if not rest:
            return 0
        c, others = rest[0], rest[1:]
        best = points(c, w, wild_points, joker_points) + f(others)
        if is_wild(c, w):
            pool = list(range(len(others)))
        else:
            pool = [i for i, x in enumerate(others)
                    if is_wild(x, w) or (x & 15) == (c & 15) or (x >> 4) == (c >> 4)]
        seen = set()
        for k in (2, 3, 4):
            for idx in combinations(pool, k):
                combo = tuple(others[i] for i in idx)
                if combo in seen:
                    continue
                seen.add(combo)
                if is_meld((c,) + combo, w):
                    left = list(others)
                    for i in reversed(idx):
                        del left[i]
                    v = f(tuple(left))
                    if v < best:
                        best = v
                        if best == 0:
                            return 0
        return best

    return f(tuple(sorted(hand, key=key)))


def going_out(hand, w):
    """Distinct cards whose discard leaves a hand that melds completely (KR-10), ascending."""
    out = []
    for d in sorted(set(hand)):
        rest = list(hand)
        rest.remove(d)
        if best_points(rest, w) == 0:
            out.append(d)
    return out
