# cython: language_level=3
"""The meld rules (:c:type:`kz_meld_rules`, ``rules.pxd``) of both rummy games and what one
set of cards is: a book, a run or no meld (KR-5..KR-7; CR-2, CR-3, CR-5)."""

from libc.string cimport memset
from libc.stdint cimport int8_t, int16_t, uint8_t


# --------------------------------------------------------------------------- rules

cdef void kz_rules_finish(kz_meld_rules *r) noexcept nogil:
    cdef int p
    memset(r.pos_rank, 0, sizeof(r.pos_rank))
    if r.wrap:
        r.pos_lo = 1
        r.pos_hi = 26
        for p in range(1, 27):
            r.pos_rank[p] = <int8_t>((p - 1) % 13 + 1)
        r.max_run_len = 13
        return
    r.pos_lo = r.rank_lo
    r.pos_hi = r.rank_hi
    for p in range(r.rank_lo, r.rank_hi + 1):
        r.pos_rank[p] = <int8_t>p
    if r.ace_high and r.rank_lo == 1 and r.rank_hi == 13:
        r.pos_hi = 14
        r.pos_rank[14] = 1
    r.max_run_len = r.pos_hi - r.pos_lo + 1
    if r.max_run_len > 13:
        r.max_run_len = 13


cdef void kz_rules_kings(kz_meld_rules *r, int wild_rank, int wild_points, int joker_points) noexcept nogil:
    cdef int k
    memset(r, 0, sizeof(kz_meld_rules))
    r.min_book = 3
    r.min_run = 3
    r.max_wild_book = KZ_WILD_ANY
    r.max_wild_run = KZ_WILD_ANY
    r.rank_lo = 3
    r.rank_hi = 13
    r.wild_rank = <int8_t>wild_rank
    r.wild_rank_natural = 0
    for k in range(1, 14):
        r.points[k] = <int16_t>k
    r.points[0] = <int16_t>joker_points
    if 1 <= wild_rank <= 13:
        r.points[wild_rank] = <int16_t>wild_points
    kz_rules_finish(r)


cdef void kz_rules_crazy(kz_meld_rules *r, int ace_wrap) noexcept nogil:
    cdef int k
    memset(r, 0, sizeof(kz_meld_rules))
    r.min_book = 3
    r.min_run = 4
    r.max_wild_book = 1
    r.max_wild_run = 2
    r.rank_lo = 1
    r.rank_hi = 13
    r.ace_high = 1
    r.wrap = 1 if ace_wrap else 0
    r.wild_rank = 2
    r.wild_rank_natural = 1
    r.points[0] = 20
    r.points[1] = 15
    r.points[2] = 20
    for k in range(3, 9):
        r.points[k] = 5
    for k in range(9, 14):
        r.points[k] = 10
    kz_rules_finish(r)



cdef int kz_is_wild(const kz_meld_rules *r, uint8_t card) noexcept nogil:
    return 1 if _known(r, card) >= 2 else 0


cdef int kz_card_points(const kz_meld_rules *r, uint8_t card) noexcept nogil:
    if card == 0x50:
        return r.points[0]
    if (card >> 4) > 4 or (card & 15) < 1 or (card & 15) > 13:
        return 0
    return r.points[card & 15]


# --------------------------------------------------------------------------- one meld

cdef int _is_book(const kz_meld_rules *r, const uint8_t *cards, int n) noexcept nogil:
    cdef int i, k, rank0 = 0, nat = 0, pure = 0, dual = 0
    if n < r.min_book:
        return 0
    for i in range(n):
        k = _known(r, cards[i])
        if k == 0:
            return 0
        if k == 1:
            if rank0 and (cards[i] & 15) != rank0:
                return 0
            rank0 = cards[i] & 15
            nat += 1
        elif k == 2:
            pure += 1
        else:
            dual += 1
    # dual wilds are natural in a book of their own rank (CR-2), wild otherwise
    if rank0 == 0 and dual > 0:
        nat = dual
        dual = 0
    if r.max_wild_book == KZ_WILD_ANY:
        return 1
    if nat == 0:
        return 0
    return 1 if pure + dual <= r.max_wild_book else 0


cdef int _is_run(const kz_meld_rules *r, const uint8_t *cards, int n) noexcept nogil:
    cdef int i, k, a, q, s, suit0 = -1, pure = 0, w, s_lo, s_hi
    cdef int dual_by_suit[5]
    cdef unsigned int natmask = 0, wm
    if n < r.min_run or n > r.max_run_len:
        return 0
    memset(dual_by_suit, 0, sizeof(dual_by_suit))
    for i in range(n):
        k = _known(r, cards[i])
        if k == 0:
            return 0
        if k == 1:
            s = cards[i] >> 4
            if suit0 >= 0 and s != suit0:
                return 0
            suit0 = s
            if natmask & (1u << (cards[i] & 15)):
                return 0            # the same rank twice
            natmask |= 1u << (cards[i] & 15)
        elif k == 2:
            pure += 1
        else:
            dual_by_suit[cards[i] >> 4] += 1
    if suit0 >= 0:
        s_lo = suit0
        s_hi = suit0
    else:
        s_lo = 0
        s_hi = 4
    for s in range(s_lo, s_hi + 1):
        for a in range(r.pos_lo, r.pos_hi - n + 2):
            wm = 0
            for q in range(a, a + n):
                wm |= 1u << r.pos_rank[q]
            if natmask & ~wm:
                continue
            w = pure
            for i in range(5):
                w += dual_by_suit[i]
            # one dual card of the run's suit may stand in its own place (CR-2)
            if dual_by_suit[s] > 0 and (wm >> r.wild_rank) & 1 and not ((natmask >> r.wild_rank) & 1):
                w -= 1
            if r.max_wild_run == KZ_WILD_ANY or w <= r.max_wild_run:
                return 1
    return 0


cdef int kz_meld_kind(const kz_meld_rules *r, const uint8_t *cards, int n) noexcept nogil:
    if n <= 0 or n > KZ_MELD_MAX_HAND:
        return KZ_MELD_NONE
    if _is_book(r, cards, n):
        return KZ_MELD_BOOK
    if _is_run(r, cards, n):
        return KZ_MELD_RUN
    return KZ_MELD_NONE
