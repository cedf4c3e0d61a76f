# cython: language_level=3
"""The one card encoding of krazy_core (layout contract; see cards.pyx for the table).

A card is a uint8 ``code = (suit << 4) | rank``:

========  =====  ===========================================================
suit      value  ranks
========  =====  ===========================================================
spades    0      1..13 (A=1, 2..10, J=11, Q=12, K=13)
hearts    1      1..13
diamonds  2      1..13
clubs     3      1..13
stars     4      1..13 (Kings Rummy uses 3..13)
joker     5      rank 0 only: JOKER = 0x50
number    6      KrassKariert number cards 1..12: 0x61..0x6C
special   7      KrassKariert X = 0x70, DRAW = 0x71, STOP = 0x72
========  =====  ===========================================================
"""
from libc.stdint cimport uint8_t

cdef enum:
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

cdef inline int card_rank(uint8_t c) noexcept nogil:
    return c & 15

cdef inline int card_suit(uint8_t c) noexcept nogil:
    return c >> 4

cdef inline uint8_t make_card(int suit, int rank) noexcept nogil:
    return <uint8_t>((suit << 4) | rank)
