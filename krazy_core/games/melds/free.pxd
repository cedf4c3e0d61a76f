# cython: language_level=3
"""The free solver (Kings Rummy's engine, also Crazy Rummy's free and contract lay-downs):
an exact branch and bound over a hand's melds; see the package docstring for the method."""
from libc.stdint cimport int32_t, int64_t, uint8_t

from krazy_core.games.melds.rules cimport kz_meld_rules, kz_arrangement

cdef enum:
    BIG_CAP = 1000              # absorb capacity of a meld that takes any number of wilds
    NO_BEST = 1 << 30
    WSCALE = 27720              # lcm(1..11): wilds per natural as exact integers (naturals <= 11)

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

# The search itself (the functions above are it with fixed arguments); see free.pyx.
cdef int32_t _solve(const kz_meld_rules *R, const uint8_t *hand, int n, int full,
                    int want_b, int want_r, kz_arrangement *out, int prune=*,
                    int32_t limit=*) noexcept nogil
# The wild-share bound (a necessary test for laying every card down); see shares.pxi.
cdef int _wild_shares(const kz_meld_rules *r, const uint8_t *hand, int n,
                      int32_t *share, int32_t *total, int32_t *top, int *wilds,
                      int32_t slack=*, int use_table=*) noexcept nogil
