"""Kings Rummy's notation (pure Python): the action ids as named constants and the reading of a
typed move (``State.string_to_action``'s game part).  Imports nothing of the game: ``state.pyx``
imports it (and checks at import that these ids and kinds are ``core.pxd``'s), the package
``__init__`` re-exports the ids.  Naming an action (``action_to_string``) and explaining a
refusal read the struct, so they stay in ``state.pyx``.

Action table (114 ids); a card's *kind* is ``suit*11 + rank-3`` (0 .. 54) for suits S H D C R
(stars) = 0..4 and ranks 3..13 (J Q K = 11 12 13), 55 for the Joker (``card_kind``):

- ``DRAW`` (0): draw the top card of the stock (KR-8);
- ``TAKE`` (1): take the top card of the discard pile (KR-8);
- ``DISCARD + kind`` (2 .. 57): discard a card of that kind (KR-9);
- ``GO_OUT + kind`` (58 .. 113): discard it and go out, legal exactly when the rest of the hand
  lays down in books and runs (KR-10).

Short forms ``string_to_action`` reads after the exact ``action_to_string`` names (``"draw"``,
``"take 7♥"``, ``"discard Q★"``, ``"go out, discard Q★"``):

=================================  ==========================================================
``d``, ``draw``, ``s``, ``stock``  draw the top card of the stock
``t``, ``take``, ``p``, ``pile``   take the top card of the discard pile
``QR``, ``Q★``, ``discard QR``     discard a card of that kind (any card ``parse_card`` reads)
``out QR``, ``QR out``             discard it and go out
=================================  ==========================================================

A short form names its move whether or not it is legal now; ``string_to_action`` then refuses
an illegal one saying why (``explain_illegal``).
"""
from __future__ import annotations

from typing import Any, List, Optional

from krazy_core.cards import JOKER as _JOKER_CODE, parse_card

DRAW = 0
"""Draw the top card of the stock (KR-8)."""
TAKE = 1
"""Take the top card of the discard pile (KR-8)."""
DISCARD = 2
"""First of the 56 discards: ``DISCARD + kind`` discards a card of that kind (KR-9)."""
GO_OUT = 58
"""First of the 56 discards going out: ``GO_OUT + kind`` (KR-10)."""
NUM_KINDS = 56
"""Card kinds (55 suited, then the Joker): the size of the ``DISCARD`` and ``GO_OUT`` ranges."""
NUM_ACTIONS = 114
"""Action ids are ``0 .. NUM_ACTIONS - 1`` (``game.num_distinct_actions``)."""


def card_kind(code: int) -> int:
    """Kind 0..55 of a Kings Rummy card code (discard action = ``DISCARD + kind``): ``suit*11 +
    rank-3`` for a suited card, 55 for the Joker.  Raises ``ValueError`` for anything else (a
    code of another deck, out of range, not an int)."""
    if type(code) is int and 0 <= code < 128:
        if code == _JOKER_CODE:
            return NUM_KINDS - 1
        suit, rank = code >> 4, code & 15
        if suit < 5 and 3 <= rank <= 13:
            return suit * 11 + rank - 3
    raise ValueError(f"{code!r} is not a Kings Rummy card code")


def actions_named(state: Any, low: str) -> Optional[List[int]]:
    """What ``string_to_action`` reads beyond the exact action names, from lower-cased text with
    single blanks: ``d``/``draw``/``s``/``stock``, ``t``/``take``/``p``/``pile``/``discard
    pile``, a card alone (``"qr"``, ``"q★"``, ``"discard qr"``: discard it) or with ``out``
    (``"out qr"``, ``"qr out"``, ``"go out, discard qr"``: go out discarding it).  ``None`` when
    the text is none of these (the caller then reads it the generic way).  ``state`` is not
    read (the signature every game's notation has)."""
    if low in ("d", "draw", "stock", "s"):
        return [DRAW]
    if low in ("t", "take", "pile", "discard pile", "p"):
        return [TAKE]
    out = "out" in low
    core = low.replace("go out", "").replace("out", "").replace("discard", "").replace(",", "").strip()
    try:
        kind = card_kind(parse_card(core))
    except ValueError:                  # no card, or a card of no Kings Rummy kind
        return None
    return [(GO_OUT if out else DISCARD) + kind]
