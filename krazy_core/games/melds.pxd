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

    from krazy_core.games.melds cimport kz_meld_rules, kz_arrangement, kz_rules_crazy, \
        kz_meld_contract, kz_meld_deadwood, kz_meld_kind
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

# Minimum points left over when the hand is laid down in melds (exact, KR-12).
# Fills *out (may be NULL).  Hands over KZ_MELD_MAX_HAND cards return -1.
cdef int32_t kz_meld_deadwood(const kz_meld_rules *r, const uint8_t *hand, int n,
                              kz_arrangement *out) noexcept nogil

# kz_meld_deadwood's points when they are below limit, else limit (a bounded search: much
# faster when the caller only needs to know whether a hand beats a known one).
cdef int32_t kz_meld_deadwood_below(const kz_meld_rules *r, const uint8_t *hand, int n,
                                    int32_t limit) noexcept nogil

# 1 if every one of the n cards can be laid down in melds (0 cards: 1).
cdef int kz_meld_all(const kz_meld_rules *r, const uint8_t *hand, int n) noexcept nogil

# Going out (KR-10): the distinct cards d, ascending, such that the hand without one d melds
# completely; written to out (room for n), returns how many.
cdef int kz_meld_going_out(const kz_meld_rules *r, const uint8_t *hand, int n,
                           uint8_t *out) noexcept nogil

# A contract (CR-10): lay down exactly `books` books and `runs` runs, each as long as wished,
# leaving the fewest points.  Returns those points, or -1 if the hand holds no such melds.
# Fills *out (may be NULL).  (Same-suit runs that would join into one sequence are not
# checked here: the caller's rule.)
cdef int32_t kz_meld_contract(const kz_meld_rules *r, const uint8_t *hand, int n,
                              int books, int runs, kz_arrangement *out) noexcept nogil


# ---------------------------------------------------------------------------- contracts in steps
# A contract laid down in steps (CR-10): is it still completable?  The counts are by *kind*
# (``suit*13 + rank-1``, suits 0..3, ranks 1..13; [KZ_CQ_JOKER] the Jokers), the melds are
# laid in a fixed order (books, by rank, then runs, by (suit, first position)), one of them
# may be partly built, and same-suit runs of one contract may not join.  For rules with a cap
# on the wilds of each meld (books 1, runs 2), books 3+ and runs 4+, and the wild rank (2)
# natural in its place: Crazy Rummy's meld rules, ``kz_rules_crazy`` (ace_wrap either way); a
# book of 2s is natural and its one wild must be a Joker (CR-2).
cdef enum:
    KZ_CQ_KINDS = 53            # count slots: 52 suited kinds and the Jokers
    KZ_CQ_JOKER = 52            # the Jokers' slot
    KZ_CQ_MAX_FIXED = 3         # runs fixed in one contract (CR-4: at most 3)
    KZ_CQ_NO_NAT = 53           # plast after a book's wild: no more naturals
    KZ_CQ_NONE = 0              # pkind: no meld partly built
    # pkind KZ_MELD_BOOK / KZ_MELD_RUN: that meld is partly built


cdef struct kz_contract_query:
    uint8_t cnt[KZ_CQ_KINDS]    # cards left in hand, by kind, 0..255
    int32_t wrap                # set by kz_contract_feasible from the rules (CR-3 ace_wrap)
    int32_t overlap             # 1: same-suit runs may overlap, never continue each other
                                # (CR-10 option overlapping_runs); 0: they may not touch
    int32_t nb                  # fresh books still to lay (the partial meld excluded), 0..
    int32_t nr                  # fresh runs still to lay, 0..
    int32_t book_lb             # a fresh book's rank >= book_lb (1..13)
    int32_t run_lb              # a fresh run's key suit*32 + first position > run_lb (>= with overlap); -1 none
    int32_t nfix                # runs already laid in this contract, 0..KZ_CQ_MAX_FIXED
    int32_t fix_suit[KZ_CQ_MAX_FIXED]   # their suits
    uint32_t fix_mask[KZ_CQ_MAX_FIXED]  # their kz_run_mask
    int32_t wneed               # wilds promised to melds (any wild), 0..
    int32_t jres                # Jokers promised (the wild of a book of the wild rank)
    int32_t pkind               # the partly built meld: KZ_CQ_NONE, KZ_MELD_BOOK, KZ_MELD_RUN
    int32_t prank               # its rank (book)
    int32_t pn                  # its cards so far
    int32_t pw                  # its wilds so far
    int32_t plast               # a book's last natural kind laid (KZ_CQ_NO_NAT after its wild)
    int32_t psuit               # a run's suit 0..3
    int32_t plo                 # a run's first position
    int32_t pclosed             # 1: the partial run is finished at its length (the finish
                                # step); 0: with overlap it may still grow (CR-10 option
                                # overlapping_runs: a run may have to grow to overlap the next)


# The positions lo..hi of a run as a bit mask (without wrap bits 1..14; with wrap the ranks,
# bits 0..12), and whether two same-suit runs' masks join (CR-10; ``overlap`` as above).
# (Inline here, so an importer's hot path -- Crazy Rummy's ctx_from_state -- has no call.)
cdef inline uint32_t kz_run_mask(const kz_meld_rules *r, int lo, int hi) noexcept nogil:
    cdef uint32_t m = 0
    cdef int q
    for q in range(lo, hi + 1):
        if r.wrap:
            m |= 1U << ((q - 1) % 13)
        else:
            m |= 1U << q
    return m
cdef int kz_runs_join(const kz_meld_rules *r, int overlap, uint32_t a, uint32_t b) noexcept nogil
# The highest first position of a run (wrap: 13; else pos_hi - min_run + 1).
cdef int kz_run_lo_max(const kz_meld_rules *r) noexcept nogil
# 1 if the contract described by *q can be completed from q.cnt (exact), else 0; -1 for
# rules other than Crazy Rummy's (kz_rules_crazy).  *q is scratch: changed on return.
cdef int kz_contract_feasible(const kz_meld_rules *r, kz_contract_query *q) noexcept nogil
