# cython: language_level=3, wraparound=True
"""Cards: the one encoding used everywhere in krazy_core, and its text forms.

A card is a plain ``int`` (``Card = int``), ``code = (suit << 4) | rank``:

- suits ``S H D C R`` (spades, hearts, diamonds, clubs, stars) are 0..4, ranks 1..13 with
  A=1, J=11, Q=12, K=13: ``QS`` is ``0x0C``, ``10H`` is ``0x1A``, ``3R`` (three of stars) is
  ``0x43``;
- the Joker is ``0x50`` (``JK``, ``🃏``); a game with two Jokers holds the code twice;
- KrassKariert's number cards 1..12 are ``0x61..0x6C`` (``"7"``), its specials are
  ``X`` ``0x70``, ``DRAW`` ``0x71`` and ``STOP`` ``0x72``.

Text forms: ``format_card(c)`` gives ``"Q♠" "10♥" "A♣" "3★" "🃏"``; ``format_card(c,
ascii=True)`` gives ``"QS" "10H" "AC" "3R" "JK"``.  ``parse_card`` reads both, case-blind,
with ``T`` accepted for 10 (``"TH"``).  Unknown text raises ``ValueError`` naming it.
"""

from typing import Iterable, List

from krazy_core._validate import c_int as _c_int

Card = int

SUIT_SPADES = 0
SUIT_HEARTS = 1
SUIT_DIAMONDS = 2
SUIT_CLUBS = 3
SUIT_STARS = 4
SUIT_JOKER = 5
SUIT_NUMBER = 6
SUIT_SPECIAL = 7
RANK_ACE = 1
RANK_JACK = 11
RANK_QUEEN = 12
RANK_KING = 13
JOKER = 0x50
X_CARD = 0x70
DRAW_CARD = 0x71
STOP_CARD = 0x72
NO_CARD = 0xFF

SUIT_LETTERS = "SHDCR"
SUIT_SYMBOLS = "♠♥♦♣★"
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SUIT_FROM_TEXT = {"S": 0, "H": 1, "D": 2, "C": 3, "R": 4,
                   "♠": 0, "♥": 1, "♦": 2, "♣": 3, "★": 4,
                   "♤": 0, "♡": 1, "♢": 2, "♧": 3, "☆": 4}
_RANK_FROM_TEXT = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_SPECIAL_TEXT = {X_CARD: "X", DRAW_CARD: "DRAW", STOP_CARD: "STOP"}
_SPECIAL_FROM_TEXT = {"X": X_CARD, "DRAW": DRAW_CARD, "STOP": STOP_CARD}


def make_card(suit, rank) -> int:
    """The code of the card of ``suit`` (0..4) and ``rank`` (1..13).  Raises ``ValueError``."""
    suit = _c_int(suit, "suit")
    rank = _c_int(rank, "rank")
    if not 0 <= suit <= 4 or not 1 <= rank <= 13:
        raise ValueError(f"no card with suit {suit!r} and rank {rank!r} (suit 0..4, rank 1..13)")
    return (suit << 4) | rank


def rank_of(card) -> int:
    """Rank 1..13 of a suited card (number value 1..12 of a KrassKariert card), 0 for a Joker."""
    card = _c_int(card, "card")
    return card & 15


def suit_of(card) -> int:
    """Suit 0..7 (see the module table)."""
    card = _c_int(card, "card")
    return card >> 4


def is_valid_card(card) -> bool:
    """Whether ``card`` is an int that is a code of this encoding."""
    if not isinstance(card, int) or isinstance(card, bool):
        return False
    if card < 0 or card > 0x7F:
        return False
    s, r = card >> 4, card & 15
    if s <= 4:
        return 1 <= r <= 13
    if s == 5:
        return r == 0
    if s == 6:
        return 1 <= r <= 12
    return r <= 2


def format_card(card, bint ascii=False) -> str:
    """Text of one card: ``"Q♠"``/``"QS"``, ``"10♥"``/``"10H"``, ``"🃏"``/``"JK"``, ``"7"``,
    ``"X"``, ``"STOP"``, ``"DRAW"``.  Raises ``ValueError`` for a code outside the encoding."""
    card = _c_int(card, "card")
    if not is_valid_card(card):
        raise ValueError(f"{card!r} is not a card code")
    s, r = card >> 4, card & 15
    if s <= 4:
        rank = RANK_TEXT.get(r, str(r))
        return rank + (SUIT_LETTERS[s] if ascii else SUIT_SYMBOLS[s])
    if s == 5:
        return "JK" if ascii else "🃏"
    if s == 6:
        return str(r)
    return _SPECIAL_TEXT[card]


def parse_card(text) -> int:
    """The code of a card written as ``"Q♠" "10♥" "QS" "10H" "TH" "JK" "🃏" "3R" "7" "X"``.

    Case-blind; surrounding spaces ignored.  An int that is a valid code is returned as is.
    Raises ``ValueError`` naming the text when it is not a card.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if is_valid_card(text):
            return text
        raise ValueError(f"{text!r} is not a card code")
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a card (expected text like 'QS', '10H' or 'JK')")
    t = text.strip().upper()
    if t in ("JK", "JOKER", "🃏", "*"):
        return JOKER
    if t in _SPECIAL_FROM_TEXT:
        return _SPECIAL_FROM_TEXT[t]
    if t.isdigit():
        n = int(t)
        if 1 <= n <= 12:
            return 0x60 | n
        raise ValueError(f"{text!r} is not a card (number cards are 1..12)")
    if len(t) >= 2 and t[-1] in _SUIT_FROM_TEXT:
        rank_text, suit = t[:-1], _SUIT_FROM_TEXT[t[-1]]
        if rank_text in _RANK_FROM_TEXT:
            rank = _RANK_FROM_TEXT[rank_text]
        elif rank_text.isdigit() and 2 <= int(rank_text) <= 10:
            rank = int(rank_text)
        else:
            raise ValueError(f"{text!r} is not a card (rank must be A, 2..10, T, J, Q or K)")
        return (suit << 4) | rank
    raise ValueError(f"{text!r} is not a card (try 'QS', '10H', 'TH', 'AC', '3R' for stars, 'JK')")


def parse_cards(text) -> List[int]:
    """Codes of cards written in one string separated by spaces or commas (``"QS 10H JK"``),
    or given as an iterable of texts or codes.  Raises ``ValueError`` on the first bad card."""
    if isinstance(text, str):
        return [parse_card(t) for t in text.replace(",", " ").split()]
    return [parse_card(t) for t in text]


def format_cards(cards: Iterable[int], bint ascii=False) -> str:
    """Cards as one space-separated string."""
    return " ".join(format_card(c, ascii) for c in cards)


def all_codes() -> List[int]:
    """Every valid code of the encoding, ascending."""
    return [c for c in range(0x80) if is_valid_card(c)]
