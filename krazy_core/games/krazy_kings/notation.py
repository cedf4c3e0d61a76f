"""Krazy Kings' notation (pure Python): the action ids as named constants and the reading of a
typed move (``State.string_to_action``'s game part).  Imports nothing of the game: ``state.pyx``
imports it (and checks at import that these ids are ``core.pxd``'s), the package ``__init__``
re-exports the ids.  Naming an action (``action_to_string``) and explaining a refusal read the
struct, so they stay in ``state.pyx``.

Action table (109 ids):

- ``DISCARD + i`` (0 .. 51): discard the card of index ``i = suit*13 + rank-1`` (suits S H D C,
  A=1 .. K=13; ``discard_action``);
- ``DISCARD_JOKER`` (52): discard a Joker (the two Jokers are one choice);
- ``ANNOUNCE + a`` (53 .. 105): the discard ``a`` announcing "last card" (KK-19), legal exactly
  when it leaves one card and the option ``last_card_call`` is on;
- ``ROLL`` (106): roll instead of playing (option ``may_roll_when_able``, KK-8);
- ``CLOCKWISE``, ``COUNTER_CLOCKWISE`` (107, 108): the roll-off winner's direction (KK-16).
"""
from __future__ import annotations

from typing import Any, List, Optional

from krazy_core.cards import JOKER as _JOKER_CODE, parse_card

DISCARD = 0
"""First of the 52 discards of a suited card: ``DISCARD + suit*13 + rank-1`` (KK-6, KK-7)."""
DISCARD_JOKER = 52
"""Discard a Joker (KK-15, KK-16)."""
ANNOUNCE = 53
"""First of the 53 announcing discards: ``ANNOUNCE + discard`` calls "last card" (KK-19)."""
ROLL = 106
"""Roll instead of playing (``may_roll_when_able``, KK-8)."""
CLOCKWISE = 107
"""The roll-off winner sets play clockwise (KK-16)."""
COUNTER_CLOCKWISE = 108
"""The roll-off winner sets play counter-clockwise (KK-16)."""
NUM_ACTIONS = 109
"""Action ids are ``0 .. NUM_ACTIONS - 1`` (``game.num_distinct_actions``)."""


def card_index(code: int) -> Optional[int]:
    """The card index (0..51 suited, 52 the Joker) of a card code of this deck, else ``None``
    (a star-suited Kings Rummy card, a code out of range)."""
    if code == _JOKER_CODE:
        return DISCARD_JOKER
    suit, rank = code >> 4, code & 15
    if 0 <= code < 128 and suit < 4 and 1 <= rank <= 13:
        return suit * 13 + rank - 1
    return None


def discard_action(code: int, announce: bool = False) -> int:
    """The action discarding the card ``code`` (announcing "last card" when ``announce``,
    KK-19).  Raises ``ValueError`` for a code that is no card of this deck."""
    i = card_index(code)
    if i is None:
        raise ValueError(f"{code!r} is not a card code of Krazy Kings")
    return i + (ANNOUNCE if announce else DISCARD)


def actions_named(state: Any, low: str) -> Optional[List[int]]:
    """What ``string_to_action`` reads beyond the exact action names, from lower-cased text: a
    card alone (``"qs"``, ``"q♠"``, ``"jk"``, ``"play qs"``; ``"!"`` or ``" last card"`` after
    it announces).  A card alone whose play leaves one card announces last card when that is
    legal in ``state`` (KK-19: nobody means to be caught); only the exact name ``"play Q♠"``,
    ``" no call"`` after the card (``"play qs no call"``) or the action number plays it
    unannounced.  ``None`` when the text names no card (the
    caller then reads it the generic way)."""
    announce = low.endswith("!") or low.endswith("last card")
    silent = low.endswith(("no call", "without call", "without calling"))
    for word in ("no call", "without calling", "without call"):
        low = low.replace(word, "")
    core = low.rstrip("!").replace("last card", "").replace("play", "").strip()
    try:
        code = parse_card(core)
    except ValueError:
        return None
    i = card_index(code)
    if i is None:
        return None
    if not announce and not silent and (i + ANNOUNCE) in state.legal_actions():
        announce = True
    return [i + (ANNOUNCE if announce else DISCARD)]
