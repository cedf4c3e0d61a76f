# cython: language_level=3
"""The free solver: the exact branch and bound (``free.pxd``), its lay-down of the best
arrangement (``materialize.pxi``) and the wild-share bound (``shares.pxi``), one C unit so the
search's private context stays private and its hot helpers inline."""

cimport cython
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t

from krazy_core.games.melds.rules cimport (kz_meld_rules, kz_arrangement, KZ_MELD_MAX_HAND,
                                           KZ_MELD_MAX_MELDS, KZ_MELD_NONE, KZ_MELD_BOOK,
                                           KZ_MELD_RUN, KZ_WILD_ANY, KZ_MELD_MAX_POS,
                                           kz_rules_kings, kz_rules_crazy, kz_rules_finish,
                                           kz_is_wild, kz_card_points, kz_meld_kind,
                                           _known, _is_book, _is_run)

cdef extern from *:
    """
    static inline int kz_ctz16(unsigned int x) { return __builtin_ctz(x); }
    static inline int kz_popcount(unsigned int x) { return __builtin_popcount(x); }
    """
    int kz_ctz16(unsigned int x) noexcept nogil
    int kz_popcount(unsigned int x) noexcept nogil


# --------------------------------------------------------------------------- the search

cdef struct _Rec:
    int8_t kind
    int8_t suit             # run: suit
    int8_t rank             # book: rank
    int8_t a                # run: first natural position
    int8_t b                # run: last natural position
    int8_t j                # wilds the meld needs
    int8_t L                # its length with them
    uint16_t mask           # run: naturals at positions a + bit
    uint8_t x[5]            # book: naturals of each suit
    int8_t plo              # contract run sharing its suit: the span laid (CR-10 no join), else -1
    int8_t phi


cdef struct _Ctx:
    const kz_meld_rules *R
    uint8_t cnt[5][16]      # natural cards by suit and rank
    uint16_t nz[5]          # bit k set iff cnt[s][k] > 0
    int wl                  # wilds not in a meld yet
    int cur                 # points of naturals left over so far
    int best                # best total found (or the bound to beat)
    int capa                # wilds the melds so far could still take
    int nb
    int nr
    int full                # 1: nothing may be left over
    int want_b              # contract: books wanted, -1 free
    int want_r
    int span_run            # most positions one run's naturals may span
    int span_book           # most naturals in one book
    int skip_single_run     # a 1-natural run is never better than a 1-natural book
    int share_prune         # full lay-down, runs of 3: prune nodes by the wild-share bound
    int dead_prune          # free lay-down, runs of 3: prune by the points of dead naturals
    int leftcost[KZ_MELD_MAX_HAND + 1]   # points of leaving k wilds (the k cheapest)
    int depth
    int best_depth
    int best_wl
    int best_absorb
    int found
    int done
    _Rec stack[KZ_MELD_MAX_MELDS]
    _Rec best_stack[KZ_MELD_MAX_MELDS]


cdef inline void _take(_Ctx *C, int s, int k) noexcept nogil:
    C.cnt[s][k] -= 1
    if C.cnt[s][k] == 0:
        C.nz[s] &= <uint16_t>~(1u << k)


cdef inline void _put(_Ctx *C, int s, int k) noexcept nogil:
    C.cnt[s][k] += 1
    C.nz[s] |= <uint16_t>(1u << k)


cdef inline unsigned int _span_mask(const kz_meld_rules *R, int lo, int hi) noexcept nogil:
    """Positions lo..hi as bits: linear (bit q), or with Ace wrap by rank around the circle."""
    cdef unsigned int m = 0
    cdef int q
    for q in range(lo, hi + 1):
        m |= (1u << ((q - 1) % 13)) if R.wrap else (1u << q)
    return m


cdef inline int _touches(const kz_meld_rules *R, unsigned int m1, unsigned int m2) noexcept nogil:
    """Whether two same-suit runs' position sets overlap or join (CR-10: one sequence)."""
    cdef unsigned int grow
    if R.wrap:
        grow = m1 | ((m1 << 1) & 0x1FFFu) | (m1 >> 1) | ((m1 & 1u) << 12) | ((m1 >> 12) & 1u)
    else:
        grow = m1 | (m1 << 1) | (m1 >> 1)
    return 1 if (grow & m2) else 0


cdef int _contract_runs(_Ctx *C, int need, int *plo, int *phi) noexcept nogil:
    """Contract lay-downs (CR-10): runs of one suit must neither overlap nor join.  The
    most wilds (up to ``need``) the runs can take beyond their own, each run's span chosen
    among at most 3 lengths x 3 starts (x 2 laps with Ace wrap; CR-5: at most 2 wilds a run) so that no two runs of
    a suit touch, or -1 when no placement is join-free.  ``plo``/``phi``: the spans (-1: a
    run alone in its suit, placed by the materializer as before).  At most 18^3 placements."""
    cdef const kz_meld_rules *R = C.R
    cdef int idx[KZ_MELD_MAX_MELDS]
    cdef int nlo[KZ_MELD_MAX_MELDS]
    cdef int nhi[KZ_MELD_MAX_MELDS]
    cdef int olo[KZ_MELD_MAX_MELDS]
    cdef int ohi[KZ_MELD_MAX_MELDS]
    cdef int ch[KZ_MELD_MAX_MELDS]
    cdef int nopt[KZ_MELD_MAX_MELDS]
    cdef int optlo[KZ_MELD_MAX_MELDS][24]
    cdef int opthi[KZ_MELD_MAX_MELDS][24]
    cdef unsigned int optm[KZ_MELD_MAX_MELDS][24]
    cdef int nr = 0, i, j, d, ln, lo, sh, cap, nat, e, best = -1, tot, ok, shared, capr
    cdef _Rec *r
    cdef _Rec *r2
    for d in range(C.depth):
        plo[d] = -1
        phi[d] = -1
    for d in range(C.depth):
        r = &C.stack[d]
        if r.kind != KZ_MELD_RUN:
            continue
        shared = 0
        for j in range(C.depth):
            r2 = &C.stack[j]
            if j != d and r2.kind == KZ_MELD_RUN and r2.suit == r.suit:
                shared = 1
        if not shared:
            continue
        idx[nr] = d
        nat = kz_popcount(r.mask)
        capr = R.max_wild_run if R.max_wild_run != KZ_WILD_ANY else R.max_run_len
        cap = nat + capr
        if cap > R.max_run_len:
            cap = R.max_run_len
        nopt[nr] = 0
        for ln in range(r.L, cap + 1):
            for lo in range(r.b - ln + 1, r.a + 1):
                # with Ace wrap the same run one lap lower too (K-A-2 past position 26)
                for sh in range(0, 14 if R.wrap and r.a > 13 else 1, 13):
                    if lo - sh < R.pos_lo or lo - sh + ln - 1 > R.pos_hi or nopt[nr] >= 24:
                        continue
                    optlo[nr][nopt[nr]] = lo - sh
                    opthi[nr][nopt[nr]] = lo - sh + ln - 1
                    optm[nr][nopt[nr]] = _span_mask(R, lo - sh, lo - sh + ln - 1)
                    nopt[nr] += 1
        if nopt[nr] == 0:
            return -1
        nr += 1
    # runs alone in their suit: the wilds they may take as _runs counted them
    tot = 0
    for d in range(C.depth):
        r = &C.stack[d]
        if r.kind == KZ_MELD_RUN:
            ok = 1
            for i in range(nr):
                if idx[i] == d:
                    ok = 0
            if ok:
                e = R.max_run_len - r.L
                if R.max_wild_run != KZ_WILD_ANY and R.max_wild_run - r.j < e:
                    e = R.max_wild_run - r.j
                tot += e
    if nr == 0:
        return tot if tot < need else need
    # every placement of the shared-suit runs (odometer)
    for i in range(nr):
        ch[i] = 0
    while True:
        ok = 1
        e = tot
        for i in range(nr):
            e += (opthi[i][ch[i]] - optlo[i][ch[i]] + 1) - C.stack[idx[i]].L
            for j in range(i):
                if C.stack[idx[j]].suit == C.stack[idx[i]].suit and \
                        _touches(R, optm[j][ch[j]], optm[i][ch[i]]):
                    ok = 0
        if ok:
            if e > need:
                e = need
            if e > best:
                best = e
                for i in range(nr):
                    olo[i] = optlo[i][ch[i]]
                    ohi[i] = opthi[i][ch[i]]
        i = 0
        while i < nr:
            ch[i] += 1
            if ch[i] < nopt[i]:
                break
            ch[i] = 0
            i += 1
        if i == nr:
            break
    if best < 0:
        return -1
    for i in range(nr):
        plo[idx[i]] = olo[i]
        phi[idx[i]] = ohi[i]
    return best


cdef void _leaf(_Ctx *C) noexcept nogil:
    cdef const kz_meld_rules *R = C.R
    cdef int absorbed = 0, left, cost, d, e, runroom, bookroom, need, ex, cut, sh
    cdef int plo[KZ_MELD_MAX_MELDS]
    cdef int phi[KZ_MELD_MAX_MELDS]
    cdef int contract = 0
    if C.want_b >= 0 and (C.nb != C.want_b or C.nr != C.want_r):
        return
    if C.want_b >= 0 and C.nr >= 2:
        # CR-10: a contract's runs of one suit must not overlap or join; the wilds the
        # melds can still take are the books' room plus what a join-free placement leaves
        contract = 1
        runroom = 0
        for d in range(C.depth):
            if C.stack[d].kind == KZ_MELD_RUN:
                e = R.max_run_len - C.stack[d].L
                if R.max_wild_run != KZ_WILD_ANY and R.max_wild_run - C.stack[d].j < e:
                    e = R.max_wild_run - C.stack[d].j
                runroom += e
        bookroom = C.capa - runroom
        need = C.wl - bookroom
        if need < 0:
            need = 0
        ex = _contract_runs(C, need, plo, phi)
        if ex < 0:
            return
        absorbed = bookroom + ex
        if absorbed > C.wl:
            absorbed = C.wl
    elif C.wl > 0:
        if C.want_b < 0 and R.max_wild_book == KZ_WILD_ANY and C.wl >= R.min_book:
            absorbed = C.wl             # KR-7: enough wilds for an all-wild book
        else:
            absorbed = C.wl if C.wl < C.capa else C.capa
    left = C.wl - absorbed
    if C.full and left > 0:
        return
    cost = C.cur + C.leftcost[left]
    if cost < C.best:
        C.best = cost
        C.found = 1
        C.best_depth = C.depth
        for d in range(C.depth):
            C.stack[d].plo = -1
            C.stack[d].phi = -1
        if contract:
            # the spans' extra positions (filled first by the materializer) are at most the
            # wilds absorbed: trim unneeded ends
            cut = 0
            for d in range(C.depth):
                if plo[d] >= 0:
                    cut += (phi[d] - plo[d] + 1) - C.stack[d].L
            cut -= absorbed
            for d in range(C.depth):
                if plo[d] < 0:
                    continue
                sh = 13 if plo[d] + 12 < C.stack[d].a else 0      # the lower lap (Ace wrap)
                while cut > 0 and (phi[d] - plo[d] + 1) > C.stack[d].L:
                    if phi[d] > C.stack[d].b - sh:
                        phi[d] -= 1
                    else:
                        plo[d] += 1
                    cut -= 1
                C.stack[d].plo = <int8_t>plo[d]
                C.stack[d].phi = <int8_t>phi[d]
        memcpy(C.best_stack, C.stack, C.depth * sizeof(_Rec))
        C.best_wl = C.wl
        C.best_absorb = absorbed
        if cost == 0:
            C.done = 1


cdef inline int _clashes(_Ctx *C, int s, int a, int b) noexcept nogil:
    """Contract mode (CR-10): whether naturals at positions a..b of suit s touch a run of s
    laid already (overlap or join): no placement of the wilds can part them, prune."""
    cdef int d
    cdef unsigned int m = _span_mask(C.R, a, b)
    for d in range(C.depth):
        if C.stack[d].kind == KZ_MELD_RUN and C.stack[d].suit == s and \
                _touches(C.R, _span_mask(C.R, C.stack[d].a, C.stack[d].b), m):
            return 1
    return 0


cdef void _runs(_Ctx *C, int s, int k) noexcept nogil:
    cdef const kz_meld_rules *R = C.R
    cdef int ps[2]
    cdef int np = 0, pi, p, a, b, q, ra, rb, wid, L, j, amin, bmax, nat, room, extra, bit
    cdef unsigned int avail, sub, base, m
    cdef int capr = R.max_wild_run
    if C.want_r >= 0 and C.nr >= C.want_r:
        return
    if C.depth >= KZ_MELD_MAX_MELDS:
        return
    if R.wrap:
        ps[0] = k + 13
        np = 1
    else:
        if R.pos_rank[k] == k and k >= R.pos_lo:
            ps[np] = k
            np += 1
        if k == 1 and R.pos_hi == 14:
            ps[np] = 14
            np += 1
    for pi in range(np):
        p = ps[pi]
        amin = p - C.span_run + 1
        if amin < R.pos_lo:
            amin = R.pos_lo
        a = p
        while a >= amin:
            if a != p:
                ra = R.pos_rank[a]
                if ra == 0 or C.cnt[s][ra] == 0:
                    a -= 1
                    continue
            bmax = a + C.span_run - 1
            if bmax > R.pos_hi:
                bmax = R.pos_hi
            for b in range(p, bmax + 1):
                if b != p:
                    rb = R.pos_rank[b]
                    if rb == 0 or C.cnt[s][rb] == 0:
                        continue
                wid = b - a + 1
                L = R.min_run if wid < R.min_run else wid
                if L > R.max_run_len:
                    break
                base = (1u << (p - a)) | 1u | (1u << (b - a))
                avail = 0
                for q in range(a + 1, b):
                    if q != p and C.cnt[s][R.pos_rank[q]] > 0:
                        avail |= 1u << (q - a)
                sub = avail
                while True:
                    m = base | sub
                    nat = kz_popcount(m)
                    j = L - nat
                    if j <= C.wl and (capr == KZ_WILD_ANY or j <= capr) and \
                            not (nat == 1 and C.skip_single_run) and \
                            not (C.want_b >= 0 and _clashes(C, s, a, b)):
                        # lay the run down
                        for bit in range(wid):
                            if (m >> bit) & 1:
                                _take(C, s, R.pos_rank[a + bit])
                        room = R.max_run_len - L
                        if capr == KZ_WILD_ANY or capr - j > room:
                            extra = room
                        else:
                            extra = capr - j
                        C.wl -= j
                        C.capa += extra
                        C.nr += 1
                        C.stack[C.depth].kind = KZ_MELD_RUN
                        C.stack[C.depth].suit = <int8_t>s
                        C.stack[C.depth].a = <int8_t>a
                        C.stack[C.depth].b = <int8_t>b
                        C.stack[C.depth].mask = <uint16_t>m
                        C.stack[C.depth].j = <int8_t>j
                        C.stack[C.depth].L = <int8_t>L
                        C.depth += 1
                        _dfs(C, s)
                        C.depth -= 1
                        C.nr -= 1
                        C.capa -= extra
                        C.wl += j
                        for bit in range(wid):
                            if (m >> bit) & 1:
                                _put(C, s, R.pos_rank[a + bit])
                        if C.done:
                            return
                    if sub == 0:
                        break
                    sub = (sub - 1) & avail
            a -= 1


cdef void _book_rec(_Ctx *C, int s0, int k, int s, int nat, _Rec *rec) noexcept nogil:
    """Choose how many naturals of rank k each suit s.. gives to the book (c already in)."""
    cdef const kz_meld_rules *R = C.R
    cdef int t, j, extra, have
    cdef int capb = R.max_wild_book
    if s == 5:
        j = R.min_book - nat
        if j < 0:
            j = 0
        if j > C.wl or (capb != KZ_WILD_ANY and j > capb):
            return
        extra = BIG_CAP if capb == KZ_WILD_ANY else capb - j
        rec.j = <int8_t>j
        rec.L = <int8_t>(nat + j)
        C.wl -= j
        C.capa += extra
        C.nb += 1
        C.stack[C.depth] = rec[0]
        C.depth += 1
        _dfs(C, s0)
        C.depth -= 1
        C.nb -= 1
        C.capa -= extra
        C.wl += j
        return
    have = C.cnt[s][k]
    _book_rec(C, s0, k, s + 1, nat, rec)
    t = 0
    while t < have and nat + t + 1 <= C.span_book and not C.done:
        t += 1
        _take(C, s, k)
        rec.x[s] += 1
        _book_rec(C, s0, k, s + 1, nat + t, rec)
    while t > 0:
        t -= 1
        _put(C, s, k)
        rec.x[s] -= 1


cdef void _books(_Ctx *C, int s, int k) noexcept nogil:
    cdef _Rec rec
    if C.want_b >= 0 and C.nb >= C.want_b:
        return
    if C.depth >= KZ_MELD_MAX_MELDS:
        return
    memset(&rec, 0, sizeof(rec))
    rec.kind = KZ_MELD_BOOK
    rec.suit = -1
    rec.rank = <int8_t>k
    rec.x[s] = 1
    _take(C, s, k)
    _book_rec(C, s, k, s, 1, &rec)
    _put(C, s, k)


cdef inline int _run3_row(const kz_meld_rules *R, int k) noexcept nogil:
    """The row of ``_RUN3`` / ``_RUN3W`` for the runs of 3..5 positions through rank ``k``:
    ``lo * 5 + hi``, where ``lo`` / ``hi`` count the window starts that ``pos_lo`` /
    ``pos_hi`` cut off; -1 when ``k`` lies outside the run positions (no run holds it)."""
    cdef int lo = R.pos_lo - k + 4
    cdef int hi = k + 4 - R.pos_hi
    if lo < 0:
        lo = 0
    if hi < 0:
        hi = 0
    if lo > 4 or hi > 4:
        return -1
    return lo * 5 + hi


cdef int _naturals_overflow(_Ctx *C) noexcept nogil:
    """1 when the naturals not yet laid need more wilds than are left (the wild-share bound
    of ``_wild_shares`` on C.cnt, runs of 3..5 by the table): no complete lay-down below."""
    cdef const kz_meld_rules *R = C.R
    cdef int s, k, b, best, v, row
    cdef int32_t tot = 0, limit = C.wl * WSCALE
    cdef unsigned int m
    for s in range(5):
        m = C.nz[s]
        while m:
            k = kz_ctz16(m)
            m &= m - 1
            b = C.cnt[0][k] + C.cnt[1][k] + C.cnt[2][k] + C.cnt[3][k] + C.cnt[4][k]
            if b >= R.min_book:
                continue
            best = (R.min_book - b) * _INV[b]
            row = _run3_row(R, k)
            if row >= 0:
                v = <int>_RUN3[row][((<unsigned int>C.nz[s] << 4) >> k) & 511]
                if v < best:
                    best = v
            tot += best * C.cnt[s][k]
            if tot > limit:
                return 1
    return 0


cdef int _dead_points(_Ctx *C) noexcept nogil:
    """Points of the naturals not yet laid that no meld can hold any more: a book of their
    rank needs more wilds than are left, and so does every run of 3..5 positions through
    them (a longer run splits into runs of 3..5 with no more wilds, so none holds them
    either).  Those stay in hand: a lower bound on the points still to come."""
    cdef const kz_meld_rules *R = C.R
    cdef int s, k, b, row, dead = 0
    cdef unsigned int m
    for s in range(5):
        m = C.nz[s]
        while m:
            k = kz_ctz16(m)
            m &= m - 1
            b = C.cnt[0][k] + C.cnt[1][k] + C.cnt[2][k] + C.cnt[3][k] + C.cnt[4][k]
            if R.min_book - b <= C.wl:
                continue
            row = _run3_row(R, k)
            if row >= 0 and _RUN3W[row][((<unsigned int>C.nz[s] << 4) >> k) & 511] <= C.wl:
                continue
            dead += R.points[k] * C.cnt[s][k]
    return dead


cdef void _dfs(_Ctx *C, int s) noexcept nogil:
    cdef int k, pts
    if C.done or C.cur >= C.best:
        return
    if C.share_prune and _naturals_overflow(C):
        return
    if C.dead_prune and C.cur + _dead_points(C) >= C.best:
        return
    while s < 5 and C.nz[s] == 0:
        s += 1
    if s == 5:
        _leaf(C)
        return
    k = kz_ctz16(C.nz[s])
    _runs(C, s, k)
    if C.done:
        return
    _books(C, s, k)
    if C.done or C.full:
        return
    pts = C.R.points[k]
    _take(C, s, k)
    C.cur += pts
    _dfs(C, s)
    C.cur -= pts
    _put(C, s, k)


# --------------------------------------------------------------------------- driver

cdef void _fill_wild_pos(const kz_meld_rules *R, int *lo, int *hi, int8_t *taken, int *pos) noexcept nogil:
    """The next position a wild takes in a run: a gap, else above, else below."""
    cdef int q
    for q in range(lo[0], hi[0] + 1):
        if not taken[q]:
            taken[q] = 1
            pos[0] = q
            return
    if hi[0] + 1 <= R.pos_hi:
        hi[0] += 1
        taken[hi[0]] = 1
        pos[0] = hi[0]
    else:
        lo[0] -= 1
        taken[lo[0]] = 1
        pos[0] = lo[0]


cdef int _combo_bound(_Ctx *C, const kz_meld_rules *R, const int *dual_cnt, int npure,
                      uint8_t basecnt[5][16], const uint16_t *basenz,
                      const int *natural_dual, const int *wsorted) noexcept nogil:
    """A lower bound on the points any arrangement of the combo leaves: the wilds no meld can
    take.  With both wild caps finite (CR-5: a book 1, a run 2) a book with j wilds holds
    at least max(1, min_book - cap) naturals per cap wilds, a run likewise, so each natural
    c makes room for at most rho_b wilds in a book and rho_r in a run (a run only when c's
    suit holds another natural rank: a run needs 2+ naturals when min_run - cap >= 2).
    Wilds left over >= W - floor(sum of the naturals' room); they cost at least the
    cheapest that many (``wsorted``: every wild's points, ascending).  0 when caps are
    unlimited (KR-7: all-wild melds)."""
    cdef int s, k, nat, w, left, i, capable, db, dr, cb, cr
    cdef int64_t room = 0, D
    if R.max_wild_book == KZ_WILD_ANY or R.max_wild_run == KZ_WILD_ANY:
        return 0
    cb = R.max_wild_book
    cr = R.max_wild_run
    db = R.min_book - cb if R.min_book - cb > 1 else 1
    dr = R.min_run - cr if R.min_run - cr > 1 else 1
    D = <int64_t>db * dr
    w = npure
    for s in range(5):
        w += dual_cnt[s] - natural_dual[s]
        nat = natural_dual[s]
        for k in range(16):
            nat += basecnt[s][k]
        if nat == 0:
            continue
        capable = 1 if (R.min_run - cr <= 1 or
                        kz_popcount(basenz[s] | ((1u << R.wild_rank) if natural_dual[s] else 0u)) >= 2) else 0
        if capable and <int64_t>cr * db > <int64_t>cb * dr:
            room += <int64_t>nat * cr * db
        else:
            room += <int64_t>nat * cb * dr
    left = w - <int>(room // D)
    if left <= 0:
        return 0
    k = 0
    for i in range(left):
        k += wsorted[i]
    return k


cdef int _combo_split(int combo, const int *dual_cnt, const int *sym_prev,
                      int *natural_dual) noexcept nogil:
    """The combo's natural 2s per suit into natural_dual; 0 when a symmetric suit earlier
    holds fewer (not the first of its orbit: skip it)."""
    cdef int s, t = combo
    for s in range(5):
        natural_dual[s] = t % (dual_cnt[s] + 1)
        t //= dual_cnt[s] + 1
    for s in range(5):
        if sym_prev[s] >= 0 and natural_dual[sym_prev[s]] < natural_dual[s]:
            return 0
    return 1


cdef void _run_combo(_Ctx *C, const kz_meld_rules *R, const uint8_t *hand, int n, int combo,
                     const int *dual_cnt, int nd, uint8_t basecnt[5][16], const uint16_t *basenz,
                     const int *natural_dual, int *wpts) noexcept nogil:
    """One search with the dual cards split as natural_dual says (C.best kept: the bound)."""
    cdef int i, t, s, kind, nw
    memcpy(C.cnt, basecnt, sizeof(C.cnt))
    nw = 0
    for i in range(n):
        kind = _known(R, hand[i])
        if kind == 2:
            wpts[nw] = kz_card_points(R, hand[i])
            nw += 1
    for s in range(5):
        if nd:
            C.cnt[s][R.wild_rank] += <uint8_t>natural_dual[s]
        for t in range(dual_cnt[s] - natural_dual[s]):
            wpts[nw] = R.points[R.wild_rank]
            nw += 1
    _sort_int(wpts, nw)             # ascending
    C.leftcost[0] = 0
    for t in range(nw):
        C.leftcost[t + 1] = C.leftcost[t] + wpts[t]
    for s in range(5):
        C.nz[s] = basenz[s]
        if natural_dual[s]:
            C.nz[s] |= <uint16_t>(1u << R.wild_rank)
    C.wl = nw
    C.cur = 0
    C.capa = 0
    C.nb = 0
    C.nr = 0
    C.depth = 0
    C.found = 0
    _dfs(C, 0)


cdef int32_t _solve(const kz_meld_rules *R, const uint8_t *hand, int n, int full,
                    int want_b, int want_r, kz_arrangement *out, int prune=1,
                    int32_t limit=NO_BEST) noexcept nogil:
    """The search.  ``limit`` < NO_BEST (free lay-down, no ``out``): only arrangements
    leaving fewer than ``limit`` points count; returns ``limit`` when there is none."""
    cdef _Ctx C
    cdef int i, t, s, k, kind, fixed = 0, nd = 0, npure = 0, nw, combo, ncombo, best_combo = -1
    cdef int dual_cnt[5]
    cdef int natural_dual[5]
    cdef int best_natural_dual[5]
    cdef int sym_prev[5]
    cdef int bound0, vstar
    cdef int allw[KZ_MELD_MAX_HAND]
    cdef int wpts[KZ_MELD_MAX_HAND]
    cdef int base_cnt_ok
    cdef uint8_t basecnt[5][16]
    cdef uint16_t basenz[5]
    if n < 0 or n > KZ_MELD_MAX_HAND:
        return -1
    memset(basecnt, 0, sizeof(basecnt))
    memset(basenz, 0, sizeof(basenz))
    memset(dual_cnt, 0, sizeof(dual_cnt))
    memset(best_natural_dual, 0, sizeof(best_natural_dual))
    for i in range(n):
        kind = _known(R, hand[i])
        if kind == 0:
            fixed += kz_card_points(R, hand[i])
        elif kind == 1:
            basecnt[hand[i] >> 4][hand[i] & 15] += 1
            basenz[hand[i] >> 4] |= <uint16_t>(1u << (hand[i] & 15))
        elif kind == 2:
            npure += 1
        else:
            dual_cnt[hand[i] >> 4] += 1
            nd += 1
    if full and fixed_unknown(R, hand, n):
        return -1
    ncombo = 1
    for s in range(5):
        ncombo *= dual_cnt[s] + 1
    C.R = R
    C.best = NO_BEST
    if limit < NO_BEST:
        if limit - fixed <= 0:
            return limit
        C.best = limit - fixed          # branch and bound starts from the caller's bound
    bound0 = C.best
    memset(natural_dual, 0, sizeof(natural_dual))
    C.found = 0
    C.done = 0
    C.full = full
    C.want_b = want_b
    C.want_r = want_r
    if want_b >= 0:
        C.span_run = R.max_run_len
        C.span_book = KZ_MELD_MAX_HAND
        C.skip_single_run = 0
    else:
        C.span_run = 2 * R.min_run - 1
        if C.span_run > R.max_run_len:
            C.span_run = R.max_run_len
        C.span_book = 2 * R.min_book - 1
        C.skip_single_run = 1 if (R.max_wild_book == KZ_WILD_ANY and R.min_book <= R.min_run) else 0
    # complete lay-downs (kz_meld_all) under rules the wild-share table covers: prune by it
    C.share_prune = 1 if (prune and full and want_b < 0 and nd == 0 and not R.wrap and not R.ace_high
                          and R.min_run == 3 and R.max_run_len >= 5 and R.min_book >= 1
                          and R.min_book <= 12 and R.pos_lo >= 1 and R.pos_hi <= 15) else 0
    # free lay-downs (deadwood) under the same rules: prune by the naturals no meld can hold
    C.dead_prune = 1 if (prune and not full and want_b < 0 and nd == 0 and not R.wrap
                         and not R.ace_high and R.min_run == 3 and R.max_run_len >= 5
                         and R.min_book >= 1 and R.pos_lo >= 1 and R.pos_hi <= 15) else 0
    if ncombo == 1:
        _run_combo(&C, R, hand, n, 0, dual_cnt, nd, basecnt, basenz, natural_dual, wpts)
        if C.found:
            best_combo = 0
            memcpy(best_natural_dual, natural_dual, sizeof(natural_dual))
    else:
        # Wild 2s that may be natural (CR-2): every split of them into naturals / wilds per
        # suit is a combo.  The answer is the first combo (in index order) that reaches the
        # fewest points v*, and its first leaf reaching v*: phase 1 finds v* trying the combos
        # from the most naturals down (a good bound early); phase 2 then runs the combos in
        # index order with the bound v* + 1, stopping at the first that reaches v* (the same
        # combo and leaf the plain index-order loop records).  Suits holding the same cards
        # are interchangeable: a combo that is not the first of its orbit under swapping such
        # suits (first: the symmetric suits' natural counts non-increasing with the suit) has
        # the same value as that first one, so it is skipped in both phases.
        nw = 0
        for i in range(n):
            kind = _known(R, hand[i])
            if kind == 2 or kind == 3:
                allw[nw] = R.points[R.wild_rank] if kind == 3 else kz_card_points(R, hand[i])
                nw += 1
        _sort_int(allw, nw)
        for s in range(5):
            sym_prev[s] = -1
            for t in range(s - 1, -1, -1):
                if dual_cnt[t] == dual_cnt[s] and memcmp(basecnt[t], basecnt[s], 16) == 0:
                    sym_prev[s] = t
                    break
        for combo in range(ncombo - 1, -1, -1):
            if not _combo_split(combo, dual_cnt, sym_prev, natural_dual):
                continue
            if _combo_bound(&C, R, dual_cnt, npure, basecnt, basenz, natural_dual, allw) >= C.best:
                continue
            _run_combo(&C, R, hand, n, 0, dual_cnt, nd, basecnt, basenz, natural_dual, wpts)
            if C.done:
                break
        if C.best < bound0:
            vstar = C.best
            C.best = vstar + 1
            C.done = 0
            for combo in range(ncombo):
                if not _combo_split(combo, dual_cnt, sym_prev, natural_dual):
                    continue
                if _combo_bound(&C, R, dual_cnt, npure, basecnt, basenz, natural_dual, allw) >= C.best:
                    continue
                _run_combo(&C, R, hand, n, 0, dual_cnt, nd, basecnt, basenz, natural_dual, wpts)
                if C.found:
                    best_combo = combo
                    memcpy(best_natural_dual, natural_dual, sizeof(natural_dual))
                    break
    if best_combo < 0:
        return limit if limit < NO_BEST else -1
    if out != NULL:
        _materialize(R, hand, n, &C, best_natural_dual, out)
    return C.best + fixed


include "materialize.pxi"


cdef int32_t kz_meld_deadwood(const kz_meld_rules *r, const uint8_t *hand, int n,
                              kz_arrangement *out) noexcept nogil:
    return _solve(r, hand, n, 0, -1, -1, out)


cdef int32_t kz_meld_deadwood_below(const kz_meld_rules *r, const uint8_t *hand, int n,
                                    int32_t limit) noexcept nogil:
    if limit >= NO_BEST:
        return _solve(r, hand, n, 0, -1, -1, NULL)
    return _solve(r, hand, n, 0, -1, -1, NULL, 1, limit)


include "shares.pxi"


cdef int kz_meld_going_out(const kz_meld_rules *r, const uint8_t *hand, int n,
                           uint8_t *out) noexcept nogil:
    cdef uint8_t rest[KZ_MELD_MAX_HAND]
    cdef uint8_t seen[256]
    cdef int32_t share[KZ_MELD_MAX_HAND]
    cdef int32_t total = 0, top = 0, cap = 0
    cdef int i, t, m, found = 0, w = 0, bound
    if n < 1 or n > KZ_MELD_MAX_HAND:
        return 0
    # the hand without its discard d must lay down completely: its naturals need at least
    # total - share[d] wilds (d natural) or total with one wild fewer (d wild); see _wild_shares
    # a share is at most min_book - 1 (a book of one natural): past that slack nothing fits
    bound = _wild_shares(r, hand, n, share, &total, &top, &w, (r.min_book - 1) * WSCALE)
    if bound == 2:
        return 0
    if bound:
        cap = w * WSCALE
        if total - top > cap:
            return 0
    # discarding one natural card frees at most that card; discarding a wild leaves fewer
    elif n > 1 and _lone_cards_exceed_wilds(r, hand, n, 1):
        return 0
    memset(seen, 0, sizeof(seen))
    for i in range(n):
        if seen[hand[i]]:
            continue
        seen[hand[i]] = 1
        if bound:
            if _known(r, hand[i]) == 1:
                if total - share[i] > cap:
                    continue
            elif total > cap - WSCALE:
                continue
        m = 0
        for t in range(n):
            if t != i:
                rest[m] = hand[t]
                m += 1
        if kz_meld_all(r, rest, m):
            seen[hand[i]] = 2
    for i in range(256):
        if seen[i] == 2:
            out[found] = <uint8_t>i
            found += 1
    return found


cdef int32_t kz_meld_contract(const kz_meld_rules *r, const uint8_t *hand, int n,
                              int books, int runs, kz_arrangement *out) noexcept nogil:
    if books < 0 or runs < 0 or books + runs > KZ_MELD_MAX_MELDS:
        return -1
    return _solve(r, hand, n, 0, books, runs, out)


# --------------------------------------------------------------------------- contracts in steps
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
