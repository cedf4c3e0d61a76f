# cython: language_level=3
"""Contract feasibility: ``kz_contract_feasible`` (``contract.pxd``), exact, for Crazy
Rummy's meld rules."""

from libc.string cimport memset, memcpy
from libc.stdint cimport int32_t, uint8_t, uint32_t

from krazy_core.games.melds.rules cimport (kz_meld_rules, KZ_MELD_BOOK, KZ_MELD_RUN, KZ_MELD_MAX_POS)


# kz_contract_feasible (melds.pxd): lay the contract's melds in their fixed order from the
# counts, exactly.  The partly built meld is completed first (its next natural or a wild),
# then the fresh runs by their first four positions' natural/wild choice (a longer run is
# never needed for the contract to exist -- except with overlap, CR-10 option
# overlapping_runs, where a run may have to grow to overlap a later same-suit run it would
# otherwise continue, or with wrap an earlier one round the corner: there each run, fresh
# or partly built and not being finished (pclosed), is also tried at every longer length),
# then the fresh books by counts (suits no longer matter).  Wilds are lazy: a meld
# promises a wild (wneed, jres for a Joker) and any wild left may keep it, so a 2 used as
# a natural must leave enough wilds for the promises.
# Crazy Rummy's meld rules only (kz_rules_crazy: books 3+ with <= 1 wild, runs 4+ with <= 2,
# 2s wild and natural in their place, Ace low or high, wrap from the rules); their sizes are
# constants here (the C compiler unrolls the 4-position windows).  Cost: at most 52 windows x
# 16 natural/wild choices per fresh run and 13 x 2 choices per fresh book, so at most
# (52 * 16)^3 steps for a contract of 3 runs (CR-4: at most 3 melds), whatever the hand size.

cdef inline int _cq_is_two(int k) noexcept nogil:
    return k < 52 and k % 13 == 1


cdef inline int _cq_kind_rank(int k) noexcept nogil:
    return k % 13 + 1


cdef inline int _cq_nat_kind(int suit, int q) noexcept nogil:
    return suit * 13 + (q - 1) % 13


cdef inline int _cq_pos_hi(int wrap) noexcept nogil:
    return 26 if wrap else 14


cdef inline int _cq_lo_max(int wrap) noexcept nogil:
    return 13 if wrap else 11


cdef inline uint32_t _cq_run_mask(int wrap, int lo, int hi) noexcept nogil:
    cdef uint32_t m = 0
    cdef int q
    for q in range(lo, hi + 1):
        if wrap:
            m |= 1U << ((q - 1) % 13)
        else:
            m |= 1U << q
    return m


cdef inline int _cq_touches(int wrap, int overlap, uint32_t a, uint32_t b) noexcept nogil:
    cdef uint32_t e
    if overlap and (a & b):
        return 0
    if wrap:
        e = a | ((a << 1) | (a >> 12)) | ((a >> 1) | (a << 12))
        e &= 0x1FFF
    else:
        e = a | (a << 1) | (a >> 1)
    return (e & b) != 0


cdef int kz_runs_join(const kz_meld_rules *r, int overlap, uint32_t a, uint32_t b) noexcept nogil:
    return _cq_touches(r.wrap, overlap, a, b)


cdef int kz_run_lo_max(const kz_meld_rules *r) noexcept nogil:
    return _cq_lo_max(r.wrap)


cdef inline int _cq_pool(const kz_contract_query *c) noexcept nogil:
    return c.cnt[KZ_CQ_JOKER] + c.cnt[1] + c.cnt[14] + c.cnt[27] + c.cnt[40]

cdef inline int _cq_take_nat(kz_contract_query *c, int k) noexcept nogil:
    if c.cnt[k] == 0:
        return 0
    c.cnt[k] -= 1
    if _cq_is_two(k) and _cq_pool(c) < c.wneed + c.jres:
        c.cnt[k] += 1
        return 0
    return 1

cdef inline int _cq_take_wild(kz_contract_query *c) noexcept nogil:
    if _cq_pool(c) < c.wneed + c.jres + 1:
        return 0
    c.wneed += 1
    return 1

cdef inline int _cq_take_joker(kz_contract_query *c) noexcept nogil:
    if c.cnt[KZ_CQ_JOKER] < c.jres + 1 or _cq_pool(c) < c.wneed + c.jres + 1:
        return 0
    c.jres += 1
    return 1

cdef int _cq_books(kz_contract_query *c, int klo, int nb) noexcept nogil:
    """nb fresh books of ranks >= klo from the counts (suits no longer matter)."""
    cdef kz_contract_query d
    cdef int k, s, nat, i, got
    if nb == 0:
        return 1
    for k in range(klo, 14):
        nat = 0
        for s in range(4):
            nat += c.cnt[s * 13 + k - 1]
        if nat < 2:
            continue
        # three naturals
        if nat >= 3:
            d = c[0]
            got = 0
            for s in range(4):
                while got < 3 and d.cnt[s * 13 + k - 1] > 0:
                    d.cnt[s * 13 + k - 1] -= 1
                    got += 1
            if k != 2 or _cq_pool(&d) >= d.wneed + d.jres:
                if _cq_books(&d, k, nb - 1):
                    return 1
        # two naturals and a wild
        d = c[0]
        got = 0
        for s in range(4):
            while got < 2 and d.cnt[s * 13 + k - 1] > 0:
                d.cnt[s * 13 + k - 1] -= 1
                got += 1
        if k != 2 or _cq_pool(&d) >= d.wneed + d.jres:
            if k == 2:
                i = _cq_take_joker(&d)
            else:
                i = _cq_take_wild(&d)
            if i and _cq_books(&d, k, nb - 1):
                return 1
    return 0

cdef int _cq_runs(kz_contract_query *c) noexcept nogil:
    """c.nr fresh runs, keys above c.run_lb, then the books (exact)."""
    cdef kz_contract_query d
    cdef int s, lo, j, q, i, k, r, miss, key, bad, mask, nw, ok
    cdef uint32_t m
    cdef int avail = _cq_pool(c) - c.wneed - c.jres
    for s in range(4):
        for lo in range(1, _cq_lo_max(c.wrap) + 1):
            key = s * 32 + lo
            if key < c.run_lb + 1 - c.overlap:
                continue
            miss = 0
            for q in range(lo, lo + 4):
                if c.cnt[_cq_nat_kind(s, q)] == 0:
                    miss += 1
            if miss > 2 or miss > avail:
                continue
            m = _cq_run_mask(c.wrap, lo, lo + 3)
            bad = 0
            # (with overlap and wrap a run adjacent to a fixed one may still grow round the
            # corner into it: checked when it is fixed, in _cq_complete_run)
            if not (c.overlap and c.wrap):
                for j in range(c.nfix):
                    if c.fix_suit[j] == s and _cq_touches(c.wrap, c.overlap, c.fix_mask[j], m):
                        bad = 1
            if bad:
                continue
            # bit i of mask: a wild at position lo+i (at most 2 wilds)
            for mask in range(16):
                nw = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1)
                if nw > 2 or nw < miss:
                    continue
                d = c[0]
                ok = 1
                for i in range(4):
                    k = _cq_nat_kind(s, lo + i)
                    if (mask >> i) & 1:
                        if c.cnt[k] > 0:
                            # a wild instead of an available natural helps only if a later
                            # meld may need that natural
                            r = _cq_kind_rank(k)
                            if not ((c.nb > 0 and r >= c.book_lb) or (c.nr > 1 and (r == 1 or c.wrap or c.overlap))):
                                ok = 0
                                break
                        if not _cq_take_wild(&d):
                            ok = 0
                            break
                    elif not _cq_take_nat(&d, k):
                        ok = 0
                        break
                if not ok:
                    continue
                d.nr -= 1
                if c.overlap:
                    # CR-10 option overlapping_runs: the run may have to grow past its 4
                    # cards to overlap (not continue) another, so it is laid as a partial
                    # run that _cq_complete_run fixes at each length it can reach
                    d.pkind = KZ_MELD_RUN
                    d.psuit = s
                    d.plo = lo
                    d.pn = 4
                    d.pw = nw
                    d.pclosed = 0
                    if _cq_complete_run(&d, 0):
                        return 1
                    continue
                d.run_lb = key
                d.fix_suit[d.nfix] = s
                d.fix_mask[d.nfix] = m
                d.nfix += 1
                if d.nr > 0:
                    if _cq_runs(&d):
                        return 1
                elif _cq_books(&d, d.book_lb, d.nb):
                    return 1
    return 0

cdef int _cq_fresh(kz_contract_query *c) noexcept nogil:
    if c.nr > 0:
        return _cq_runs(c)
    return _cq_books(c, c.book_lb, c.nb)

cdef int _cq_complete_book(kz_contract_query *c, int need) noexcept nogil:
    cdef kz_contract_query d
    cdef int k, s
    if need == 0:
        d = c[0]
        d.pkind = KZ_CQ_NONE
        d.book_lb = d.prank
        return _cq_fresh(&d)
    if c.plast < KZ_CQ_NO_NAT:
        for s in range(4):
            k = s * 13 + c.prank - 1
            if k >= c.plast and c.cnt[k] > 0:
                d = c[0]
                if _cq_take_nat(&d, k):
                    d.plast = k
                    d.pn += 1
                    if _cq_complete_book(&d, need - 1):
                        return 1
    if c.pw == 0:
        d = c[0]
        if (_cq_take_joker(&d) if c.prank == 2 else _cq_take_wild(&d)):
            d.pw = 1
            d.pn += 1
            if _cq_complete_book(&d, need - 1):
                return 1
    return 0

cdef int _cq_complete_run(kz_contract_query *c, int need) noexcept nogil:
    cdef kz_contract_query d
    cdef int q, k, j, ok, nxt
    cdef uint32_t m
    if need == 0:
        m = _cq_run_mask(c.wrap, c.plo, c.plo + c.pn - 1)
        ok = 1
        for j in range(c.nfix):
            if c.fix_suit[j] == c.psuit and _cq_touches(c.wrap, c.overlap, c.fix_mask[j], m):
                ok = 0
        if ok:
            d = c[0]
            d.fix_suit[d.nfix] = c.psuit
            d.fix_mask[d.nfix] = m
            d.nfix += 1
            d.run_lb = c.psuit * 32 + c.plo
            d.pkind = KZ_CQ_NONE
            if _cq_fresh(&d):
                return 1
        # CR-10 option overlapping_runs: a run not yet finished may grow by a card to
        # overlap a later run (or, with wrap, an earlier one round the corner) that it
        # would otherwise continue.  Without overlap growing never helps: it only uses
        # cards and widens what the run touches.
        if not c.overlap or c.pclosed or not (c.nr > 0 or c.wrap):
            return 0
        return _cq_complete_run(c, -1)
    nxt = need - 1 if need > 0 else 0   # need < 0: one more card, then fixed or grown again
    q = c.plo + c.pn
    if q > _cq_pos_hi(c.wrap) or c.pn >= 13:
        return 0
    k = _cq_nat_kind(c.psuit, q)
    if c.cnt[k] > 0:
        d = c[0]
        if _cq_take_nat(&d, k):
            d.pn += 1
            if _cq_complete_run(&d, nxt):
                return 1
    if c.pw < 2:
        d = c[0]
        if _cq_take_wild(&d):
            d.pn += 1
            d.pw += 1
            if _cq_complete_run(&d, nxt):
                return 1
    return 0

cdef int _cq_feasible(kz_contract_query *c) noexcept nogil:
    """1 if the lay-down described by c can still be completed (exact)."""
    cdef int tot = 0, k
    for k in range(KZ_CQ_KINDS):
        tot += c.cnt[k]
    if c.pkind == KZ_MELD_BOOK:
        if tot < 3 * c.nb + 4 * c.nr + (3 - c.pn if c.pn < 3 else 0):
            return 0
        return _cq_complete_book(c, 3 - c.pn if c.pn < 3 else 0)
    if c.pkind == KZ_MELD_RUN:
        if tot < 3 * c.nb + 4 * c.nr + (4 - c.pn if c.pn < 4 else 0):
            return 0
        return _cq_complete_run(c, 4 - c.pn if c.pn < 4 else 0)
    if tot < 3 * c.nb + 4 * c.nr:
        return 0
    return _cq_fresh(c)


cdef int _cq_rules_ok(const kz_meld_rules *r) noexcept nogil:
    """The rules the contract mode takes: Crazy Rummy's (``kz_rules_crazy``)."""
    return (r.min_book == 3 and r.min_run == 4 and r.max_wild_book == 1 and r.max_wild_run == 2
            and r.rank_lo == 1 and r.rank_hi == 13 and r.ace_high == 1 and r.wild_rank == 2
            and r.wild_rank_natural == 1)


cdef int kz_contract_feasible(const kz_meld_rules *r, kz_contract_query *c) noexcept nogil:
    if not _cq_rules_ok(r):
        return -1
    if c.nfix < 0 or c.nr < 0 or c.nb < 0 \
            or c.nfix + c.nr + (1 if c.pkind == KZ_MELD_RUN else 0) > KZ_CQ_MAX_FIXED:
        return 0
    c.wrap = 1 if r.wrap else 0
    return _cq_feasible(c)
