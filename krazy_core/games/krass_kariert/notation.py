"""Short forms a KrassKariert player types for a move (``KrassKariertState.string_to_action``
reads the full action strings first, then these):

=======================  ================================================================
``p3``, ``play 3``       the card at hand position 3 (positions as the table numbers them)
``3-4``, ``play 3-5``    the adjacent cards at those positions, as the one combination they
                         make now; add the kind and/or value when X cards make several
                         (``3-4 pair``, ``3-4 pair 5``, ``3-4 2-straight 6``)
``pair 5``, ``solo 7``   that combination, wherever the hand holds it (``single`` = solo)
``stop``, ``draw``       the Stop / Draw card (``stop 7``: the one at position 7)
``reserve 8 at 2``       take reserve card 8 into position 2 (``take 8 at 2``, ``r 8 2``;
                         the card may be left out when there is one reserve card)
``insert 4``, ``at 4``   insert the drawn card at position 4 (KA-12)
=======================  ================================================================

A short form that fits several legal moves, or points at cards that make no move, raises
``UnclearActionError`` saying what is wrong and how to say it; one that names a move the
rules forbid now returns that move (``apply_action`` / the table then explain why).
"""

from __future__ import annotations

import re

from krazy_core.cards import format_card
from krazy_core.errors import UnclearActionError

STOP_AT, DRAW_AT, RESERVE_AT, INSERT_AT, NUM_COMBOS, MAX_HAND = 1026, 1044, 1062, 1098, 57, 18
X, DRAW, STOP = 0x70, 0x71, 0x72
KINDS = {"solo": "solo", "single": "solo", "2-straight": "2-straight", "pair": "pair",
         "3-straight": "3-straight", "triple": "triple", "straight": "straight"}
_KIND = "|".join(sorted(map(re.escape, KINDS), key=len, reverse=True))
_WINDOW = re.compile(rf"(?:(?:play|p)\s*)?(\d+)\s*-\s*(\d+)(?:\s+({_KIND}))?(?:\s+(\d+))?"
                     rf"|(?:play|p)\s*(\d+)(?:\s+({_KIND}))?(?:\s+(\d+))?")
_COMBO = re.compile(rf"(?:play\s+)?({_KIND})\s+(\d+)")
_SPECIAL = re.compile(r"(?:play\s+)?(?:the\s+)?(stop|draw)(?:\s+card)?(?:\s+(?:at\s+)?(\d+))?")
_INSERT = re.compile(r"(?:insert(?:\s+at)?|at)\s+(?:position\s+)?(\d+)")
_RESERVE = re.compile(r"(?:take\s+(?:reserve\s+)?|reserve\s+|r\s+)(?:(\S+?)\s*)??"
                      r"(?:(?:at|into|in|to)\s+(?:position\s+)?)?(\d+)?")


def _cards(codes):
    return " ".join(format_card(c) for c in codes)


def _span(lo, hi):
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _where(lo, hi):
    return f"position {lo}" if lo == hi else f"positions {lo}-{hi}"


def _typed(lo, hi):
    """The short form of a window, as read back: ``p3`` (one card) or ``3-4``."""
    return f"p{lo}" if lo == hi else f"{lo}-{hi}"


def _ways(combos):
    words = [f"{t} {v}" for t, v in combos]
    return ", ".join(words) if len(words) <= 4 else f"{', '.join(words[:2])}, ... {words[-1]}"


def read_short_form(state, text):
    """The action a short form names (legal or not), ``None`` when ``text`` is no short form.
    Raises ``UnclearActionError`` (see the module docstring)."""
    # core when used: state.pyx checks this module's tables against core's at import, so
    # importing this module alone must not import the package (tests load it alone)
    from krazy_core.games.krass_kariert.core import combination_index, window_combinations
    want = " ".join(str(text).strip().lower().split())
    p = state.current_player()
    if p < 0 or not want:
        return None
    obs = state.observation(p)
    hand = obs["hand"]
    hn = len(hand)
    legal = set(state.legal_actions())
    two = state.game.options.two_straight

    m = _INSERT.fullmatch(want)
    if m:
        pos = int(m.group(1))
        if pos > hn:
            raise UnclearActionError(f"position {pos} is past the end of your hand: a card goes "
                                     f"in at 0 (the front) .. {hn} (the end)")
        return INSERT_AT + pos
    if obs["phase"] == "insert":
        if _WINDOW.fullmatch(want) or _COMBO.fullmatch(want) or _SPECIAL.fullmatch(want):
            raise UnclearActionError(f"first insert the drawn {format_card(obs['drawn_card'])}: "
                                     f"'insert N' puts it at position N (0..{hn})")
        return None

    m = _SPECIAL.fullmatch(want)
    if m:
        card, base = (STOP, STOP_AT) if m.group(1) == "stop" else (DRAW, DRAW_AT)
        if m.group(2) is not None:
            return base + int(m.group(2)) if int(m.group(2)) < MAX_HAND else None
        where = [i for i, c in enumerate(hand) if c == card]
        if not where:
            raise UnclearActionError(f"you hold no {format_card(card)} card")
        ok = [i for i in where if base + i in legal]
        if len(ok) > 1:
            raise UnclearActionError(f"you hold {format_card(card)} cards at positions "
                                     f"{' and '.join(map(str, ok))}: type "
                                     + " or ".join(f"'{m.group(1)} {i}'" for i in ok))
        return base + (ok or where)[0]

    m = _WINDOW.fullmatch(want)
    if m:
        if m.group(1) is not None:
            lo, hi, kind, value = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        else:
            lo = hi = int(m.group(5))
            kind, value = m.group(6), m.group(7)
        return _window(hand, lo, hi, KINDS.get(kind), value, legal, two, window_combinations,
                       combination_index)

    m = _COMBO.fullmatch(want)
    if m:
        return _combo(hand, KINDS[m.group(1)], int(m.group(2)), legal, two, window_combinations,
                      combination_index)

    if want in ("reserve", "take reserve", "take", "r"):
        return _reserve(obs["reserves"][p], hn, None, None)
    m = _RESERVE.fullmatch(want)
    if m:
        card_word, pos_word = m.group(1), m.group(2)
        if card_word is None and pos_word is not None and not re.search(r"\b(at|into|in|to)\b", want):
            card_word, pos_word = pos_word, None        # "reserve 8": the card, not a place
        return _reserve(obs["reserves"][p], hn, card_word, pos_word)
    return None


def _window(hand, lo, hi, kind, value, legal, two, window_combinations, combination_index):
    hn = len(hand)
    if hi < lo or hi - lo > 2:
        raise UnclearActionError(f"{lo}-{hi} is no combination: play 1-3 adjacent cards, as "
                                 "positions like '3' (with play), '3-4' or '3-5'")
    if hi >= hn:
        raise UnclearActionError(f"your hand has positions 0-{hn - 1}: {_span(lo, hi)} is past "
                                 "its end" if hn else "your hand is empty")
    cards = hand[lo:hi + 1]
    if lo == hi and cards[0] in (STOP, DRAW):
        return (STOP_AT if cards[0] == STOP else DRAW_AT) + lo
    combos = window_combinations(cards, two)
    if not combos:
        raise UnclearActionError(f"{_where(lo, hi)} hold{'s' if lo == hi else ''} {_cards(cards)}: no combination "
                                 "(adjacent cards make a solo, straight, pair or triple; KA-5, KA-6)")
    if kind == "straight":
        kind = "2-straight" if hi - lo == 1 else "3-straight"
    fit = [(t, v) for t, v in combos if (kind is None or t == kind) and (value is None or v == int(value))]
    if not fit:
        asked = " ".join(x for x in (kind, value) if x)
        raise UnclearActionError(f"{_where(lo, hi)} hold{'s' if lo == hi else ''} {_cards(cards)}: "
                                 f"{'they make' if lo < hi else 'it makes'} {_ways(combos)}, not {asked}")
    acts = [lo * NUM_COMBOS + combination_index(t, v) for t, v in fit]
    ok = [a for a, tv in zip(acts, fit) if a in legal]
    if len(ok) == 1:
        return ok[0]
    if len(ok) > 1:
        ways = [tv for a, tv in zip(acts, fit) if a in legal]
        raise UnclearActionError(f"{_where(lo, hi)} ({_cards(cards)}) can be played as "
                                 f"{_ways(ways)}: say which, e.g. "
                                 f"'{_typed(lo, hi)} {ways[-1][0]} {ways[-1][1]}'")
    return acts[-1]                 # the strongest: the rules say why it may not be played


def _combo(hand, kind, value, legal, two, window_combinations, combination_index):
    if kind == "straight":
        raise UnclearActionError(f"say '2-straight {value}' or '3-straight {value}'")
    if not 1 <= value <= 12:
        raise UnclearActionError(f"a {kind} has a value 1..12, not {value}")
    try:
        c = combination_index(kind, value)
    except ValueError as e:
        raise UnclearActionError(str(e)) from None
    ln = {"solo": 1, "2-straight": 2, "pair": 2}.get(kind, 3)
    starts = [i for i in range(len(hand) - ln + 1)
              if (kind, value) in window_combinations(hand[i:i + ln], two)]
    if not starts:
        raise UnclearActionError(f"your hand has no {kind} {value}"
                                 + (" in adjacent cards" if ln > 1 else ""))
    ok = [i for i in starts if i * NUM_COMBOS + c in legal]
    if len(ok) > 1:
        raise UnclearActionError(f"{kind} {value} lies at positions "
                                 + " and ".join(_span(i, i + ln - 1) for i in ok)
                                 + ": type " + " or ".join(f"'{_typed(i, i + ln - 1)}'" for i in ok))
    return (ok or starts)[0] * NUM_COMBOS + c


def _reserve(reserves, hn, card_word, pos_word):
    from krazy_core.games.krass_kariert.core import _as_card   # when used: see read_short_form
    slots = [i for i, c in enumerate(reserves) if c is not None]
    if not slots:
        raise UnclearActionError("you have no reserve card left")
    shown = " and ".join(format_card(reserves[i]) for i in slots)
    if card_word is not None:
        try:
            card = _as_card(card_word.upper() if card_word.isalpha() else card_word)
        except ValueError:
            raise UnclearActionError(f"{card_word!r} is not a card; your reserve: {shown}") from None
        slots = [i for i in slots if reserves[i] == card]
        if not slots:
            raise UnclearActionError(f"your reserve is {shown}: no {format_card(card)}")
    elif len({reserves[i] for i in slots}) > 1:
        raise UnclearActionError(f"say which reserve card, {shown}: e.g. "
                                 f"'reserve {format_card(reserves[slots[0]])} at 0'")
    if pos_word is None:
        if hn:
            raise UnclearActionError(f"say where it goes in your hand: 'reserve "
                                     f"{format_card(reserves[slots[0]])} at N', N from 0 (the "
                                     f"front) to {hn} (the end)")
        pos = 0
    else:
        pos = int(pos_word)
        if pos > hn:
            raise UnclearActionError(f"position {pos} is past the end of your hand: 0 (the front) "
                                     f".. {hn} (the end)")
    return RESERVE_AT + slots[0] * MAX_HAND + pos
