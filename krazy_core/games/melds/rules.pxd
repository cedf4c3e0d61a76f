# cython: language_level=3
"""The exact rummy meld solver shared by both rummy games (layout contract).

Every function is plain C: ``noexcept nogil``, no allocation, safe on any hand of at most
``KZ_MELD_MAX_HAND`` valid card codes (cards the rules don't know count as deadwood that
never melds).  The meld rules are a small struct so Kings Rummy (KR-5..KR-7) and Crazy
Rummy (CR-2, CR-3, CR-5) share one solver; fill it with ``kz_rules_kings`` /
``kz_rules_crazy`` or by hand.

Run positions: a run occupies consecutive *positions*; ``pos_rank`` maps a position to the
rank standing there.  Positions are ranks ``rank_lo..rank_hi``; with ``ace_high`` position
14 is an Ace above the King (CR-3: an Ace is low or high, never both); with ``wrap``
positions ``1..26`` go round the ranks twice (K-A-2 is a run) and a run is at most 13 long.

Use from another Cython module::

    from krazy_core.games.melds.rules cimport kz_meld_rules, kz_arrangement, kz_rules_crazy, kz_meld_kind
    from krazy_core.games.melds.free cimport kz_meld_contract, kz_meld_deadwood
    cdef kz_meld_rules rules
    kz_rules_crazy(&rules, 0)                     # once; the struct is plain data (memcpy-able)
    pts = kz_meld_contract(&rules, hand, n, 1, 1, &arr)   # 1 book + 1 run, fewest points left
    if pts >= 0: ...  arr.meld_of[i] is card i's meld, arr.kind/suit/rank/length describe melds
"""
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t

cdef enum:
    KZ_MELD_MAX_HAND = 32       # cards in one hand the solver accepts
    KZ_MELD_MAX_MELDS = 24      # melds in one arrangement (a hand of 32 has at most 10)
    KZ_MELD_NONE = 0            # a set of cards that is no meld
    KZ_MELD_BOOK = 1            # 3+ cards of one rank (KR-5, CR-5)
    KZ_MELD_RUN = 2             # 3+ (4+) cards of one suit in sequence (KR-6, CR-5)
    KZ_WILD_ANY = -1            # max_wild_*: any number of wilds, all-wild melds allowed (KR-7)
    KZ_MELD_MAX_POS = 27        # run positions 0..26 (0 unused)


cdef struct kz_meld_rules:
    int8_t min_book             # cards in the shortest book (KR 3, CR 3)
    int8_t min_run              # cards in the shortest run (KR 3, CR 4)
    int8_t max_wild_book        # wilds one book may hold: KZ_WILD_ANY, or fewer than min_book (CR 1)
    int8_t max_wild_run         # wilds one run may hold: KZ_WILD_ANY, or fewer than min_run (CR 2)
    int8_t rank_lo              # lowest natural rank (KR 3, CR 1 = Ace)
    int8_t rank_hi              # highest natural rank (13 = King)
    int8_t ace_high             # 1: an Ace may also stand above the King (CR-3); needs rank_lo == 1
    int8_t wrap                 # 1: runs go round K-A-2 (CR option ace_wrap); needs rank_lo == 1
    int8_t wild_rank            # every card of this rank is wild (KR: the round's n; CR: 2); 0 = none
    int8_t wild_rank_natural    # 1: such a card in its natural place counts as natural (CR-2)
    int16_t points[14]          # points of a card left in hand: [rank] for suited cards,
                                # [0] for a Joker; [wild_rank] is a wild card's value (KR-14)
    # derived by kz_rules_finish (call it after filling the fields above):
    int8_t pos_lo               # lowest run position
    int8_t pos_hi               # highest run position
    int8_t max_run_len          # longest possible run (KR 11, CR 13)
    int8_t pos_rank[KZ_MELD_MAX_POS]   # rank at each position, 0 = no position


cdef struct kz_arrangement:
    int32_t points              # points of the cards left over (deadwood), KR-12/KR-14
    int32_t n_melds             # melds laid down
    int32_t n_left              # cards left over
    int8_t meld_of[KZ_MELD_MAX_HAND]    # per hand index: the meld it lies in, -1 = left over
    int8_t pos_of[KZ_MELD_MAX_HAND]     # per hand index: run position it stands for / book rank
                                        # (0 for a wild in an all-wild book)
    int8_t kind[KZ_MELD_MAX_MELDS]      # KZ_MELD_BOOK or KZ_MELD_RUN
    int8_t suit[KZ_MELD_MAX_MELDS]      # a run's suit; -1 for a book
    int8_t rank[KZ_MELD_MAX_MELDS]      # a book's rank (0 = all wilds); a run's first position
    int8_t length[KZ_MELD_MAX_MELDS]    # cards in the meld


# Rules of the two games.  wild_rank 3..13; points are KR-14 (face value, J 11, Q 12, K 13).
cdef void kz_rules_kings(kz_meld_rules *r, int wild_rank, int wild_points, int joker_points) noexcept nogil
# CR-2, CR-3, CR-5, CR-15: runs of 4+, books of 3+, <= 2 wilds per run, <= 1 per book.
cdef void kz_rules_crazy(kz_meld_rules *r, int ace_wrap) noexcept nogil
# fills pos_lo/pos_hi/max_run_len/pos_rank from the other fields
cdef void kz_rules_finish(kz_meld_rules *r) noexcept nogil

# 1 if the card is wild under the rules (a Joker, or a card of the wild rank)
cdef int kz_is_wild(const kz_meld_rules *r, uint8_t card) noexcept nogil
# points of one card left in hand
cdef int kz_card_points(const kz_meld_rules *r, uint8_t card) noexcept nogil

# What the n cards are, all together, as one meld: KZ_MELD_BOOK, KZ_MELD_RUN (book wins a
# tie, e.g. three wilds) or KZ_MELD_NONE.
cdef int kz_meld_kind(const kz_meld_rules *r, const uint8_t *cards, int n) noexcept nogil

# 0 a card unknown to the rules, 1 natural, 2 pure wild, 3 wild that may be natural
# (inline here: the solver's hot loops call it)
cdef inline int _known(const kz_meld_rules *r, uint8_t card) noexcept nogil:
    """0 unknown to the rules, 1 natural, 2 pure wild, 3 wild that may be natural."""
    cdef int s = card >> 4
    cdef int k = card & 15
    if card == 0x50:
        return 2
    if s > 4 or k < 1 or k > 13:
        return 0
    if k == r.wild_rank:
        return 3 if r.wild_rank_natural else 2
    if k < r.rank_lo or k > r.rank_hi:
        return 0
    return 1

# 1 if the n cards are one book / one run under the rules
cdef int _is_book(const kz_meld_rules *r, const uint8_t *cards, int n) noexcept nogil
cdef int _is_run(const kz_meld_rules *r, const uint8_t *cards, int n) noexcept nogil
