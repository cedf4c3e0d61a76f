# cython: language_level=3
"""The CR-10 lay-down sequence of one hand (``laydown.pxd``): the step check (``ld_steps``) is
the one Crazy Rummy's lay-down (its ``core.pyx`` PH_BUILD) asks, so the steps are the same,
in the same order, here over the counts alone."""
from libc.string cimport memset, memcpy
from libc.stdint cimport int32_t, uint8_t, uint32_t

from krazy_core.games.melds.rules cimport kz_meld_rules, kz_rules_crazy
from krazy_core.games.melds.contract cimport (kz_contract_query, kz_contract_feasible, kz_run_mask,
                                              kz_runs_join)

# CR-4: contract r's (books, runs); Crazy Rummy's core exports it as its own CONTRACTS
CONTRACTS = {1: (2, 0), 2: (1, 1), 3: (0, 2), 4: (3, 0), 5: (2, 1), 6: (1, 2), 7: (0, 3)}


cdef void _init_tables():
    cdef int s, r, k
    for k in range(256):
        CODE_KIND[k] = -1
    for s in range(4):
        for r in range(1, 14):
            k = s * 13 + r - 1
            KIND_CODE[k] = (s << 4) | r
            CODE_KIND[(s << 4) | r] = k
            if r == 1:
                POINTS[k] = 15
            elif r == 2:
                POINTS[k] = 20
            elif r <= 8:
                POINTS[k] = 5
            else:
                POINTS[k] = 10
    KIND_CODE[JK] = 0x50
    CODE_KIND[0x50] = JK
    POINTS[JK] = 20
    for k, (b, r) in CONTRACTS.items():
        CBOOKS[k] = b
        CRUNS[k] = r
    CBOOKS[0] = 0
    CRUNS[0] = 0

_init_tables()

# The existence check: the shared solver's contract mode (contract.pxd ``kz_contract_feasible``)
# answers it, under Crazy Rummy's meld rules (``kz_rules_crazy``, one table per ace_wrap value).
cdef kz_meld_rules CR_RULES[2]
kz_rules_crazy(&CR_RULES[0], 0)
kz_rules_crazy(&CR_RULES[1], 1)


cdef uint32_t run_mask(int wrap, int lo, int hi) noexcept nogil:
    """Positions (non-wrap, bits 1..14) or ranks mod 13 (wrap, bits 0..12) a run covers
    (the shared solver's ``kz_run_mask``)."""
    return kz_run_mask(&CR_RULES[1 if wrap else 0], lo, hi)


cdef int touches(int wrap, int overlap, uint32_t a, uint32_t b) noexcept nogil:
    """CR-10: two same-suit runs of one contract join when their positions touch or overlap
    (with ``overlapping_runs``: only when they touch without overlapping, i.e. would
    continue each other); the shared solver's ``kz_runs_join``."""
    return kz_runs_join(&CR_RULES[1 if wrap else 0], overlap, a, b)


cdef void ld_init(kz_laydown *st, const uint8_t *cnt, int rnd, int wrap, int overlap) noexcept nogil:
    cdef int k
    memset(st, 0, sizeof(kz_laydown))
    for k in range(NK):
        st.hand[0][k] = cnt[k]
        st.nhand[0] += cnt[k]
    st.round = rnd
    st.opt_wrap = 1 if wrap else 0
    st.opt_overlap = 1 if overlap else 0
    st.phase = PH_BUILD


cdef inline int feasible(const kz_build *b, kz_contract_query *c) noexcept nogil:
    """1 if the lay-down described by c can still be completed (exact)."""
    return kz_contract_feasible(&CR_RULES[1 if b.wrap else 0], c)


cdef int ld_holds_contract(const uint8_t *hand, int nhand, int rnd, int wrap, int overlap) noexcept nogil:
    cdef kz_contract_query c
    cdef kz_build b
    if nhand < 3 * CBOOKS[rnd] + 4 * CRUNS[rnd]:
        return 0
    memset(&b, 0, sizeof(kz_build))
    b.hand = hand
    b.round = rnd
    b.wrap = wrap
    b.overlap = overlap
    query_of(&b, &c)
    return feasible(&b, &c)


cdef int ld_can_lay(const kz_laydown *st) noexcept nogil:
    return ld_holds_contract(st.hand[0], st.nhand[0], st.round, st.opt_wrap, st.opt_overlap)


cdef void query_of(const kz_build *b, kz_contract_query *c) noexcept nogil:
    """The lay-down in progress b (building), or a fresh one."""
    cdef int k, nb = CBOOKS[b.round], nr = CRUNS[b.round], j
    cdef const Meld *m
    memset(c, 0, sizeof(kz_contract_query))
    memcpy(c.cnt, b.hand, NK)
    c.overlap = b.overlap
    c.book_lb = 1
    c.run_lb = -1
    c.pkind = MK_NONE
    if not b.building:
        c.nb = nb
        c.nr = nr
        return
    for j in range(b.gd_k):
        m = &b.melds[j]
        if m.kind == MK_BOOK:
            c.book_lb = m.rank
        else:
            c.run_lb = m.suit * 32 + m.lo
            c.fix_suit[c.nfix] = m.suit
            c.fix_mask[c.nfix] = run_mask(b.wrap, m.lo, m.lo + m.n - 1)
            c.nfix += 1
    k = b.gd_k + (1 if b.gd_open else 0)
    c.nb = nb - k if nb > k else 0
    c.nr = nr - (k - nb if k > nb else 0)
    if b.gd_open:
        m = &b.melds[b.gd_k]
        c.pkind = m.kind
        c.pn = m.n
        c.pw = m.wilds
        if m.kind == MK_BOOK:
            c.prank = m.rank
            c.plast = b.gd_last
        else:
            c.psuit = m.suit
            c.plo = m.lo


cdef int step_ok(const kz_build *b, int a) noexcept nogil:
    """Whether the lay-down step a keeps the contract completable (never strands)."""
    cdef kz_contract_query c
    cdef int k, s, lo
    cdef int kind = MK_BOOK if b.gd_k < CBOOKS[b.round] else MK_RUN
    query_of(b, &c)
    if a == A_FINISH:
        if not b.gd_open:
            return 0
        if c.pkind == MK_BOOK and c.pn < 3:
            return 0
        if c.pkind == MK_RUN and c.pn < 4:
            return 0
        c.pclosed = 1                   # finished at this length (CR-10, overlapping_runs)
        return feasible(b, &c)
    if a >= A_RUN:
        if b.gd_open or kind != MK_RUN:
            return 0
        s = (a - A_RUN) // 13
        lo = (a - A_RUN) % 13 + 1
        if lo > lo_max(b.wrap) or s * 32 + lo < c.run_lb + 1 - c.overlap:
            return 0
        c.nr -= 1
        c.pkind = MK_RUN
        c.psuit = s
        c.plo = lo
        c.pn = 0
        c.pw = 0
        return feasible(b, &c)
    k = a - A_ADD
    if c.cnt[k] == 0:
        return 0
    if not b.gd_open:
        if kind != MK_BOOK or k == JK or kind_rank(k) < c.book_lb:
            return 0
        c.nb -= 1
        c.pkind = MK_BOOK
        c.prank = kind_rank(k)
        c.pn = 1
        c.pw = 0
        c.plast = k
        c.cnt[k] -= 1
        return feasible(b, &c)
    if c.pkind == MK_BOOK:
        if book_natural(c.prank, k) and k >= c.plast and c.plast < NO_NAT:
            c.cnt[k] -= 1
            c.pn += 1
            c.plast = k
            return feasible(b, &c)
        if book_wild(c.prank, k) and c.pw == 0:
            c.cnt[k] -= 1
            c.pn += 1
            c.pw = 1
            c.plast = NO_NAT
            return feasible(b, &c)
        return 0
    # run: the card at the next position
    if c.pn >= 13 or c.plo + c.pn > pos_hi(b.wrap):
        return 0
    if run_natural(c.psuit, c.plo + c.pn, k):
        c.cnt[k] -= 1
        c.pn += 1
        return feasible(b, &c)
    if wildcard(k) and c.pw < 2:
        c.cnt[k] -= 1
        c.pn += 1
        c.pw += 1
        return feasible(b, &c)
    return 0


cdef int ld_steps(const kz_build *b, int32_t *out) noexcept nogil:
    cdef int n = 0, a
    if not b.building:
        return 0
    for a in range(A_ADD, A_FINISH + 1):
        if a < A_RUN:
            if b.hand[a - A_ADD] == 0:
                continue
        elif a < A_FINISH:
            if b.gd_open or b.gd_k < CBOOKS[b.round]:
                continue
        if step_ok(b, a):
            out[n] = a
            n += 1
    return n


cdef int ld_legal_actions(const kz_laydown *st, int32_t *out) noexcept nogil:
    cdef kz_build b
    ld_view(&b, st.hand[0], st.melds, st.round, st.opt_wrap, st.opt_overlap, st.phase == PH_BUILD,
            st.gd_k, st.gd_open, st.gd_last)
    return ld_steps(&b, out)


cdef void ld_apply(kz_laydown *st, int32_t a) noexcept nogil:
    """The step a (CR-10); finishing the contract's last meld ends the lay-down (PH_DONE)."""
    cdef int p = 0
    cdef Meld *md
    if st.phase != PH_BUILD:
        return
    md = &st.melds[p * 3 + st.gd_k]
    if a == A_FINISH:
        st.gd_k += 1
        st.gd_open = 0
        st.gd_last = 0
        if st.gd_k == nmelds(st.round):
            st.gd_k = 0
            st.phase = PH_DONE
        return
    st.gd_last = ld_meld_step(md, a, st.gd_open, st.gd_last)
    st.gd_open = 1
    if a < A_RUN:
        st.hand[p][a - A_ADD] -= 1
        st.nhand[p] -= 1


cdef list ld_codes(const uint8_t *cnt):
    cdef int k
    out = []
    for k in range(NK):
        out += [KIND_CODE[k]] * cnt[k]
    return sorted(out)


cdef dict ld_meld_dict(const Meld *md):
    if md.kind == MK_NONE:
        return None
    cards = [KIND_CODE[md.cards[i]] for i in range(md.n)]
    if md.kind == MK_BOOK:
        return {"kind": "book", "rank": md.rank, "suit": None, "lo": None, "cards": cards}
    return {"kind": "run", "rank": None, "suit": md.suit, "lo": md.lo, "cards": cards}


cdef tuple ld_laydown_of(const Meld *melds, int nm, const uint8_t *hand):
    lay = []
    for k in range(nm):
        d = ld_meld_dict(&melds[k])
        lay.append((d["kind"], d["suit"] if d["suit"] is not None else -1,
                    d["lo"] if d["lo"] is not None else 0, tuple(d["cards"])))
    return (tuple(lay), tuple(ld_codes(hand)))
