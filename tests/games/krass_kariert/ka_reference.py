"""A small pure-Python reference for KrassKariert's combinations (KA-5 .. KA-8), written
straight from the rules and independent of the Cython module, so that Hypothesis can check
``krazy_core.games.krass_kariert`` against it.

Cards here are numbers 1..12 or the strings ``"X"``, ``"DRAW"``, ``"STOP"``.
"""

from itertools import product
from typing import Iterable, List, Optional, Tuple

TYPES = ("solo", "2-straight", "pair", "3-straight", "triple")
Combination = Tuple[str, int]


def combination(values: Iterable[int], two_straight: bool = True) -> Optional[Combination]:
    """(type, value) of 1-3 numbers in any order, or None (KA-6: no wrap-around)."""
    v = sorted(values)
    if len(v) == 1:
        return ("solo", v[0])
    if len(v) == 2:
        if v[0] == v[1]:
            return ("pair", v[0])
        if two_straight and v[1] == v[0] + 1:
            return ("2-straight", v[1])
        return None
    if len(v) == 3:
        if v[0] == v[2]:
            return ("triple", v[0])
        if v[1] == v[0] + 1 and v[2] == v[1] + 1:
            return ("3-straight", v[2])
    return None


def strength(c: Combination) -> Tuple[int, int]:
    return (TYPES.index(c[0]), c[1])


def beats(new: Combination, old: Optional[Combination]) -> bool:
    """KA-7: higher type whatever the numbers, or same type and strictly higher value."""
    return old is None or strength(new) > strength(old)


def window_options(cards, two_straight: bool = True) -> List[Combination]:
    """Every combination the adjacent cards can be played as, each X taking any value
    1..12 (KA-8); weakest first.  Empty if a Draw or Stop card is among them."""
    if any(c in ("DRAW", "STOP") for c in cards):
        return []
    numbers = [c for c in cards if c != "X"]
    k = len(cards) - len(numbers)
    found = set()
    for xs in product(range(1, 13), repeat=k):
        c = combination(numbers + list(xs), two_straight)
        if c is not None:
            found.add(c)
    return sorted(found, key=strength)


def adjacent_plays(hand, two_straight: bool = True, above: Optional[Combination] = None):
    """(start, length, combination) of every play a hand allows that beats ``above``."""
    out = []
    for start in range(len(hand)):
        for length in (1, 2, 3):
            if start + length <= len(hand):
                for c in window_options(hand[start:start + length], two_straight):
                    if beats(c, above):
                        out.append((start, length, c))
    return out
