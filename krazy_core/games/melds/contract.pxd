# cython: language_level=3
"""Contract feasibility (Crazy Rummy's engine, CR-10): is a contract laid down in steps still
completable?  Layout contract; the code is contract.pyx."""
from libc.stdint cimport int32_t, uint8_t, uint32_t

from krazy_core.games.melds.rules cimport kz_meld_rules, KZ_MELD_BOOK, KZ_MELD_RUN

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
