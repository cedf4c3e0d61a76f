# cython: language_level=3
"""The exact rummy meld solver shared by Kings Rummy and Crazy Rummy.

The question (KR-10, KR-12): given a hand -- a multiset, the same card may be held twice --
and which cards are wild, which arrangement into books and runs leaves the fewest points,
and can every card but one be laid down (going out)?  The answer is exact, not greedy: at
wild rank 7 the hand ``3H 4H 5H 6H 6S 6C 9D`` leaves 9 points (``3H 4H 5H`` + ``6H 6S 6C``),
not the 21 a greedy "longest run first" split would leave.

Method (C, no GIL, no allocation): wilds are a pooled count; natural cards sit in a
suit x rank count table.  A depth-first branch and bound takes the first natural card ``c``
(suit-major, rank ascending) and decides its fate: left over (deadwood), in a run in which
it is the lowest natural card, or in a book of its rank with any of the other naturals of
that rank.  A meld of ``2m`` or more cards splits into two melds of at least ``m`` (with no
more wilds in either part), so in the free arrangement a run spans at most ``2m-1``
positions and a book holds at most ``2m-1`` naturals -- which keeps the search small.  A
meld is given only the wilds it needs; any wilds left at the end join melds that still have
room under the rules' wild caps (or, when wilds are unlimited, form an all-wild book), and
the wilds that stay in hand are the cheapest ones.  The rules (minimum lengths, wild caps,
rank range, Ace high or wrap-around, the wild rank and whether it can be natural, points)
are one small struct, :c:type:`kz_meld_rules` (see ``melds.pxd``).

Python faces (Kings Rummy rules, ``wild_rank`` 3..13, KR-5..KR-7, KR-14): :func:`is_book`,
:func:`is_run`, :func:`is_meld`, :func:`best_arrangement`, :func:`deadwood_points`,
:func:`going_out_discards`.  Cards are strings (``"7H"``, ``"QR"`` for the Queen of stars,
``"JK"``) or int codes of :mod:`krazy_core.cards`; bad input raises ``ValueError``.
"""

cimport cython
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t

from krazy_core.games.melds cimport (kz_meld_rules, kz_arrangement, KZ_MELD_MAX_HAND,
                                     KZ_MELD_MAX_MELDS, KZ_MELD_NONE, KZ_MELD_BOOK,
                                     KZ_MELD_RUN, KZ_WILD_ANY, KZ_MELD_MAX_POS,
                                     kz_contract_query, KZ_CQ_KINDS, KZ_CQ_JOKER, KZ_CQ_MAX_FIXED,
                                     KZ_CQ_NO_NAT, KZ_CQ_NONE)

from krazy_core.cards import parse_card, format_card
from krazy_core._validate import c_int as _c_int, index_in as _index_in

cdef extern from *:
    """
    static inline int kz_ctz16(unsigned int x) { return __builtin_ctz(x); }
    static inline int kz_popcount(unsigned int x) { return __builtin_popcount(x); }
    """
    int kz_ctz16(unsigned int x) noexcept nogil
    int kz_popcount(unsigned int x) noexcept nogil

cdef enum:
    BIG_CAP = 1000              # absorb capacity of a meld that takes any number of wilds
    NO_BEST = 1 << 30
    WSCALE = 27720              # lcm(1..11): wilds per natural as exact integers (naturals <= 11)

MAX_HAND = KZ_MELD_MAX_HAND
BOOK = KZ_MELD_BOOK
RUN = KZ_MELD_RUN


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
    int64_t steps           # work so far: search nodes, book choices, run subsets tried, contract run placements
    int64_t budget          # > 0: stop (done, exhausted) once steps pass it; 0: no budget
    int exhausted           # 1: the budget ran out before the first leaf was recorded
    int stop_found          # 1: stop at the first leaf recorded (the bound is the exact minimum)
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
        C.steps += 1
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
        if cost == 0 or C.stop_found:
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
                    C.steps += 1
                    if C.budget and C.steps > C.budget:
                        C.exhausted = 1
                        C.done = 1
                        return
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
    C.steps += 1
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
    C.steps += 1
    if C.budget and C.steps > C.budget:
        C.exhausted = 1
        C.done = 1
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
                    int32_t limit=NO_BEST, int32_t known=-1, int64_t budget=0,
                    int64_t *steps=NULL) noexcept nogil:
    """The search.  ``limit`` < NO_BEST (free lay-down, no ``out``): only arrangements
    leaving fewer than ``limit`` points count; returns ``limit`` when there is none.
    ``known`` >= 0 (contract mode, no ``limit``): the fewest points, known exactly (the
    game's DP): the search starts from the bound known + 1 and skips phase 1 below (which
    only finds that value), so it records the same combo and leaf as without it, and stops
    there (no later leaf can leave less); the caller checks the value it returns against
    ``known``.  ``budget`` > 0 (with ``known``): at most that many steps (search nodes, book
    choices, run subsets tried, contract run placements) before that leaf, else -2 (nothing recorded);
    ``steps`` (if not NULL): the steps taken."""
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
    if known >= 0:
        if known - fixed < 0:
            return -1
        C.best = known - fixed + 1      # the first leaf reaching known: the one recorded without it
    bound0 = C.best
    memset(natural_dual, 0, sizeof(natural_dual))
    C.found = 0
    C.done = 0
    C.steps = 0
    C.budget = budget if known >= 0 else 0
    C.exhausted = 0
    C.stop_found = 1 if known >= 0 else 0
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
        for combo in range(ncombo - 1 if known < 0 else -1, -1, -1):
            if not _combo_split(combo, dual_cnt, sym_prev, natural_dual):
                continue
            if _combo_bound(&C, R, dual_cnt, npure, basecnt, basenz, natural_dual, allw) >= C.best:
                continue
            _run_combo(&C, R, hand, n, 0, dual_cnt, nd, basecnt, basenz, natural_dual, wpts)
            if C.done:
                break
        if C.best < bound0 or known >= 0:
            vstar = C.best if known < 0 else known - fixed
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
                if C.exhausted:
                    break
    if steps != NULL:
        steps[0] = C.steps
    if best_combo < 0:
        if C.exhausted:
            return -2
        return limit if limit < NO_BEST else -1
    if out != NULL:
        _materialize(R, hand, n, &C, best_natural_dual, out)
    return C.best + fixed


cdef int fixed_unknown(const kz_meld_rules *R, const uint8_t *hand, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if _known(R, hand[i]) == 0:
            return 1
    return 0


cdef void _sort_int(int *a, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef int _grab(const uint8_t *hand, int n, int8_t *meld_of, uint8_t card) noexcept nogil:
    cdef int i
    for i in range(n):
        if meld_of[i] == -2 and hand[i] == card:
            return i
    return -1


cdef int _room(const kz_meld_rules *R, _Rec *rec, int wilds, int lo, int hi) noexcept nogil:
    """How many more wilds a laid-down meld may take."""
    cdef int room
    if rec.kind == KZ_MELD_BOOK:
        return BIG_CAP if R.max_wild_book == KZ_WILD_ANY else R.max_wild_book - wilds
    if rec.plo >= 0:
        return 0                # a contract run's join-free span (CR-10) is laid already
    room = R.max_run_len - (hi - lo + 1)
    if R.max_wild_run != KZ_WILD_ANY and R.max_wild_run - wilds < room:
        room = R.max_wild_run - wilds
    return room


cdef void _materialize(const kz_meld_rules *R, const uint8_t *hand, int n, _Ctx *C,
                       int *natural_dual, kz_arrangement *out) noexcept nogil:
    cdef int i, t, mi, s, bit, q, pos, nm, nw, extra, give, capb, capr, room, total
    cdef int widx[KZ_MELD_MAX_HAND]
    cdef int wp[KZ_MELD_MAX_HAND]
    cdef int lo[KZ_MELD_MAX_MELDS]
    cdef int hi[KZ_MELD_MAX_MELDS]
    cdef int wilds_in[KZ_MELD_MAX_MELDS]
    cdef int8_t taken[KZ_MELD_MAX_MELDS][KZ_MELD_MAX_POS]
    cdef int dual_left[5]
    cdef _Rec *rec
    cdef int kind, v, sh
    memset(out, 0, sizeof(kz_arrangement))
    memset(taken, 0, sizeof(taken))
    for i in range(n):
        out.meld_of[i] = -2
    nm = C.best_depth
    out.n_melds = nm
    # naturals
    for s in range(5):
        dual_left[s] = natural_dual[s]
    for mi in range(nm):
        rec = &C.best_stack[mi]
        out.kind[mi] = rec.kind
        if rec.kind == KZ_MELD_BOOK:
            out.suit[mi] = -1
            out.rank[mi] = rec.rank
            out.length[mi] = 0
            for s in range(5):
                for t in range(rec.x[s]):
                    i = _grab(hand, n, out.meld_of, <uint8_t>((s << 4) | rec.rank))
                    if i >= 0:
                        out.meld_of[i] = <int8_t>mi
                        out.pos_of[i] = rec.rank
                        out.length[mi] += 1
        else:
            out.suit[mi] = rec.suit
            out.length[mi] = 0
            lo[mi] = rec.a if rec.plo < 0 else rec.plo
            hi[mi] = rec.b if rec.plo < 0 else rec.phi
            sh = 13 if (rec.plo >= 0 and rec.plo + 12 < rec.a) else 0   # planned a lap lower
            for bit in range(rec.b - rec.a + 1):
                if (rec.mask >> bit) & 1:
                    q = rec.a + bit - sh
                    taken[mi][q] = 1
                    i = _grab(hand, n, out.meld_of, <uint8_t>((rec.suit << 4) | R.pos_rank[q]))
                    if i >= 0:
                        out.meld_of[i] = <int8_t>mi
                        out.pos_of[i] = <int8_t>q
                        out.length[mi] += 1
    # wilds: every card the search treated as wild, dearest first
    nw = 0
    for i in range(n):
        if out.meld_of[i] != -2:
            continue
        kind = _known(R, hand[i])
        if kind == 2 or kind == 3:
            widx[nw] = i
            wp[nw] = kz_card_points(R, hand[i])
            nw += 1
    # a dual card kept natural but left over still counts as a natural left over: those
    # were not grabbed; drop natural_dual[s] - (grabbed) of them from the wild list
    for s in range(5):
        for mi in range(nm):
            rec = &C.best_stack[mi]
            if rec.kind == KZ_MELD_BOOK and rec.rank == R.wild_rank:
                dual_left[s] -= rec.x[s]
            elif rec.kind == KZ_MELD_RUN and rec.suit == s:
                for bit in range(rec.b - rec.a + 1):
                    if (rec.mask >> bit) & 1 and R.pos_rank[rec.a + bit] == R.wild_rank:
                        dual_left[s] -= 1
    for s in range(5):
        t = 0
        while t < dual_left[s]:
            for i in range(nw):
                if hand[widx[i]] == <uint8_t>((s << 4) | R.wild_rank):
                    out.meld_of[widx[i]] = -1       # a natural left over
                    widx[i] = widx[nw - 1]
                    wp[i] = wp[nw - 1]
                    nw -= 1
                    break
            t += 1
    # dearest first (stable enough: insertion sort descending)
    for i in range(1, nw):
        v = wp[i]
        t = widx[i]
        q = i - 1
        while q >= 0 and wp[q] < v:
            wp[q + 1] = wp[q]
            widx[q + 1] = widx[q]
            q -= 1
        wp[q + 1] = v
        widx[q + 1] = t
    give = 0
    for mi in range(nm):
        rec = &C.best_stack[mi]
        wilds_in[mi] = rec.j
        for t in range(rec.j):
            if give >= nw:
                break
            i = widx[give]
            give += 1
            out.meld_of[i] = <int8_t>mi
            out.length[mi] += 1
            if rec.kind == KZ_MELD_BOOK:
                out.pos_of[i] = rec.rank
            else:
                _fill_wild_pos(R, &lo[mi], &hi[mi], taken[mi], &pos)
                out.pos_of[i] = <int8_t>pos
    # wilds absorbed into melds with room, or (KR-7) all into one all-wild book
    extra = C.best_absorb
    capb = R.max_wild_book
    capr = R.max_wild_run
    # contract runs placed join-free (CR-10): fill their planned spans first
    for mi in range(nm):
        rec = &C.best_stack[mi]
        if rec.kind != KZ_MELD_RUN or rec.plo < 0:
            continue
        for q in range(lo[mi], hi[mi] + 1):
            if not taken[mi][q] and extra > 0 and give < nw:
                i = widx[give]
                give += 1
                taken[mi][q] = 1
                out.meld_of[i] = <int8_t>mi
                out.pos_of[i] = <int8_t>q
                out.length[mi] += 1
                wilds_in[mi] += 1
                extra -= 1
    total = 0
    for mi in range(nm):
        total += _room(R, &C.best_stack[mi], wilds_in[mi], lo[mi], hi[mi])
    if extra > 0 and total >= extra:
        for mi in range(nm):
            rec = &C.best_stack[mi]
            room = _room(R, rec, wilds_in[mi], lo[mi], hi[mi])
            while room > 0 and extra > 0 and give < nw:
                i = widx[give]
                give += 1
                out.meld_of[i] = <int8_t>mi
                out.length[mi] += 1
                wilds_in[mi] += 1
                if rec.kind == KZ_MELD_BOOK:
                    out.pos_of[i] = rec.rank
                else:
                    _fill_wild_pos(R, &lo[mi], &hi[mi], taken[mi], &pos)
                    out.pos_of[i] = <int8_t>pos
                room -= 1
                extra -= 1
    elif extra > 0 and nm < KZ_MELD_MAX_MELDS:
        out.kind[nm] = KZ_MELD_BOOK
        out.suit[nm] = -1
        out.rank[nm] = 0
        out.length[nm] = 0
        while extra > 0 and give < nw:
            i = widx[give]
            give += 1
            out.meld_of[i] = <int8_t>nm
            out.pos_of[i] = 0
            out.length[nm] += 1
            extra -= 1
        nm += 1
        out.n_melds = nm
    for mi in range(nm):
        if out.kind[mi] == KZ_MELD_RUN:
            out.rank[mi] = <int8_t>lo[mi]
            out.length[mi] = hi[mi] - lo[mi] + 1
    out.points = 0
    out.n_left = 0
    for i in range(n):
        if out.meld_of[i] < 0:
            out.meld_of[i] = -1
            out.pos_of[i] = 0
            out.points += kz_card_points(R, hand[i])
            out.n_left += 1


cdef int32_t kz_meld_deadwood(const kz_meld_rules *r, const uint8_t *hand, int n,
                              kz_arrangement *out) noexcept nogil:
    return _solve(r, hand, n, 0, -1, -1, out)


cdef int32_t kz_meld_deadwood_below(const kz_meld_rules *r, const uint8_t *hand, int n,
                                    int32_t limit) noexcept nogil:
    if limit >= NO_BEST:
        return _solve(r, hand, n, 0, -1, -1, NULL)
    return _solve(r, hand, n, 0, -1, -1, NULL, 1, limit)


cdef inline int _count_naturals(const kz_meld_rules *r, const uint8_t *hand, int n,
                                uint8_t *rank_cnt, unsigned int *suitmask, int *wilds) noexcept nogil:
    """Count the hand's naturals by rank (``rank_cnt[16]``) and mark them by suit
    (``suitmask[5]``, bit = rank), and its pure wilds (``*wilds``).  Returns 1 when every
    card is a natural or a pure wild, else the ``_known`` kind (0 or 3) of the first card
    that is neither (the counts are then partial)."""
    cdef int i, ki
    memset(rank_cnt, 0, 16 * sizeof(uint8_t))
    memset(suitmask, 0, 5 * sizeof(unsigned int))
    wilds[0] = 0
    for i in range(n):
        ki = _known(r, hand[i])
        if ki == 1:
            rank_cnt[hand[i] & 15] += 1
            suitmask[hand[i] >> 4] |= 1u << (hand[i] & 15)
        elif ki == 2:
            wilds[0] += 1
        else:
            return ki
    return 1


cdef int _lone_cards_exceed_wilds(const kz_meld_rules *r, const uint8_t *hand, int n,
                                  int spare) noexcept nogil:
    """A quick necessary test for laying down every card (but ``spare`` of them): a natural
    card with no natural partner (same rank, or same suit close enough for the wilds to
    bridge the gap) needs a meld of its own filled with wilds.  1 when there are not wilds
    enough for those."""
    cdef int i, w = 0, lone = 0, need = 99, ki, s, k, lo, hi
    cdef unsigned int m
    cdef uint8_t rank_cnt[16]
    cdef unsigned int suitmask[5]
    cdef unsigned int window
    if r.wrap or r.ace_high:
        return 0
    ki = _count_naturals(r, hand, n, rank_cnt, suitmask, &w)
    if ki == 3:
        return 0                        # a wild that may be natural: no quick test
    if ki == 0:
        return 1 if spare == 0 else 0
    if r.max_wild_book == KZ_WILD_ANY or r.max_wild_book >= r.min_book - 1:
        need = r.min_book - 1
    if (r.max_wild_run == KZ_WILD_ANY or r.max_wild_run >= r.min_run - 1) and r.min_run - 1 < need:
        need = r.min_run - 1
    for s in range(5):
        m = suitmask[s]
        while m:
            k = kz_ctz16(m)
            m &= m - 1
            if rank_cnt[k] >= 2:
                continue                # a card of the same rank (or the same card twice)
            lo = k - w - 1
            hi = k + w + 1
            if lo < 0:
                lo = 0
            if hi > 15:
                hi = 15
            window = ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1) & ~(1u << k)
            if suitmask[s] & window:
                continue
            lone += 1
            if need == 99 and lone > spare:
                return 1
            if (lone - spare) * need > w:
                return 1
    return 0


cdef int kz_meld_all(const kz_meld_rules *r, const uint8_t *hand, int n) noexcept nogil:
    cdef int32_t share[KZ_MELD_MAX_HAND]
    cdef int32_t total = 0, top = 0
    cdef int w = 0
    if n == 0:
        return 1
    if n < r.min_book and n < r.min_run:
        return 0
    if n <= KZ_MELD_MAX_HAND and _wild_shares(r, hand, n, share, &total, &top, &w, 0) and total > w * WSCALE:
        return 0                        # the naturals need more wilds than the hand holds
    if _lone_cards_exceed_wilds(r, hand, n, 0):
        return 0
    return 1 if _solve(r, hand, n, 1, -1, -1, NULL) == 0 else 0




cdef uint32_t _RUN3[25][512]    # shares of runs of 3..5 (min_run 3), see _init_run3
cdef uint8_t _RUN3W[25][512]    # fewest wilds of such a run (255: none fits)
cdef int32_t _INV[12]           # WSCALE // k


cdef void _init_run3() noexcept nogil:
    """``_RUN3[lo * 5 + hi][bits]``: the fewest wilds per natural (times WSCALE) of a run of
    3..5 positions through the middle bit of a 9-bit window of one suit (``bits``: the suit's
    naturals at positions k-4 .. k+4, bit 4 = k), when the lowest ``lo`` and highest ``hi``
    positions of the window lie outside the rules' run positions.  1 << 30: no run fits."""
    cdef int lo, hi, bits, L, a, j, nat, v, best, k, fewest
    for k in range(1, 12):
        _INV[k] = WSCALE // k
    _INV[0] = 0
    for lo in range(5):
        for hi in range(5):
            for bits in range(512):
                best = 1 << 30
                fewest = 255
                if bits & 16:
                    for L in range(3, 6):
                        for a in range(4 - L + 1, 5):       # window bits a .. a+L-1 hold bit 4
                            if a < lo or a + L - 1 > 8 - hi:
                                continue
                            nat = 0
                            for j in range(a, a + L):
                                nat += (bits >> j) & 1
                            v = (L - nat) * (WSCALE // nat)
                            if v < best:
                                best = v
                            if L - nat < fewest:
                                fewest = L - nat
                _RUN3[lo * 5 + hi][bits] = <uint32_t>best
                _RUN3W[lo * 5 + hi][bits] = <uint8_t>fewest


_init_run3()


cdef int _wild_shares(const kz_meld_rules *r, const uint8_t *hand, int n,
                      int32_t *share, int32_t *total, int32_t *top, int *wilds,
                      int32_t slack=-1, int use_table=1) noexcept nogil:
    """A lower bound on the wilds needed to lay down every natural card of the hand.

    For each natural card c, ``share[i]`` is ``WSCALE`` times the fewest wilds per natural
    card of any meld that could hold c: a book of c's rank with all the hand's naturals of
    that rank, or a run of c's suit over a window of ``min_run .. 2*min_run-1`` positions
    round c, with every natural of that suit in the window.  Lemma: if the naturals N and w
    wilds lay down completely, then sum(share) <= w * WSCALE.  Proof: split every run of
    ``2*min_run`` or more positions into two runs of at least ``min_run`` (the same wilds);
    each meld M then holds n_M naturals and j_M wilds, sum(j_M) <= w, and for every c in M
    the candidate meld of the same rank (books: all b >= n_M naturals of the rank, needing
    max(0, min_book - b) <= j_M wilds) or the same window (runs: nat >= n_M naturals,
    needing L - nat <= j_M) gives share(c) <= WSCALE * j_M / n_M; summing over c in M and
    over M gives the claim.  Caps on wilds per meld only remove melds, so the bound holds
    under any caps.  Fewer naturals never lower a share, so the shares of a hand also bound
    every sub-hand.

    Writes share[i] for each natural hand[i] (0 for wilds), *total (sum), *top (largest)
    and *wilds.  With ``slack >= 0`` it stops early, returning 2 (shares and total
    partial), as soon as the total exceeds ``wilds * WSCALE + slack``: the caller rejects
    the hand.  Returns 1 when done, 0 when the bound does not apply (run positions that wrap or put an
    Ace high, a wild rank that may be natural, cards the rules don't know, long melds):
    then the caller must not use it."""
    cdef int i, k, s, L, a, a0, a1, nat, lmax, best, v, ki, row, b
    cdef int w = 0, fast
    cdef int32_t tot = 0, mx = 0
    cdef uint8_t rank_cnt[16]
    cdef uint8_t pref[5][18]         # pref[s][p]: distinct naturals of suit s at positions < p
    cdef unsigned int suitmask[5]
    cdef uint8_t c, prev = 0xFF
    if r.wrap or r.ace_high or r.min_book < 1 or r.min_run < 1 or r.min_book > 12:
        return 0
    lmax = 2 * r.min_run - 1
    if lmax > r.max_run_len:
        lmax = r.max_run_len
    if lmax > 11 or r.pos_lo < 1 or r.pos_hi > 15:
        return 0
    fast = 1 if (use_table and r.min_run == 3 and lmax == 5) else 0
    if _count_naturals(r, hand, n, rank_cnt, suitmask, &w) != 1:
        return 0
    if not fast:
        for s in range(5):
            pref[s][0] = 0
            for k in range(17):
                pref[s][k + 1] = pref[s][k] + ((suitmask[s] >> k) & 1)
    best = 0
    for i in range(n):
        c = hand[i]
        if c == prev:                   # the same card again: the same share
            share[i] = best
            tot += best
            continue
        share[i] = 0
        k = c & 15
        if c == 0x50 or k == r.wild_rank:
            continue
        prev = c
        s = c >> 4
        b = rank_cnt[k]
        best = 0
        if b < r.min_book:
            best = (r.min_book - b) * _INV[b]
            if fast:
                row = _run3_row(r, k)
                if row >= 0:
                    v = <int>_RUN3[row][((suitmask[s] << 4) >> k) & 511]
                    if v < best:
                        best = v
            else:
                for L in range(r.min_run, lmax + 1):
                    a0 = k - L + 1
                    if a0 < r.pos_lo:
                        a0 = r.pos_lo
                    a1 = k
                    if a1 > r.pos_hi - L + 1:
                        a1 = r.pos_hi - L + 1
                    for a in range(a0, a1 + 1):
                        nat = pref[s][a + L] - pref[s][a]
                        v = (L - nat) * _INV[nat]
                        if v < best:
                            best = v
                    if best == 0:
                        break
        share[i] = best
        tot += best
        if best > mx:
            mx = best
        if slack >= 0 and tot > w * WSCALE + slack:
            total[0] = tot
            top[0] = mx
            wilds[0] = w
            return 2
    total[0] = tot
    top[0] = mx
    wilds[0] = w
    return 1


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


# --------------------------------------------------------------------------- Python faces

cdef int _kings_rules(kz_meld_rules *r, wild_rank, wild_points, joker_points) except -1:
    # any integer (numpy.int64(9) too), never a bool
    w = _index_in(wild_rank, 3, 13)
    if w is None:
        raise ValueError(f"wild_rank must be an int in 3..13 (the round's n, KR-3), got {wild_rank!r}")
    wp = _index_in(wild_points, 0, 1000)
    jp = _index_in(joker_points, 0, 1000)
    for name, v, x in (("wild_points", wild_points, wp), ("joker_points", joker_points, jp)):
        if x is None:
            raise ValueError(f"{name} must be an int in 0..1000, got {v!r}")
    kz_rules_kings(r, w, wp, jp)
    return 0


def _card_items(cards, what="hand"):
    """The items of a hand as a caller gives it: a string split at spaces and commas, else the
    collection's items (an iterator read once).  Raises ``ValueError`` for bytes and for what
    is no collection.  Every game's card parser starts here (melds: Kings Rummy, Crazy Rummy;
    ``contract_rummy``'s lay-down helpers)."""
    if isinstance(cards, (bytes, bytearray)):
        raise ValueError(f"{what} must be card texts or codes, got {cards!r}")
    if isinstance(cards, str):
        return cards.replace(",", " ").split()
    try:
        return list(cards)
    except TypeError:
        raise ValueError(f"{what} must be a string of cards or a list of cards, got "
                         f"{type(cards).__name__}") from None


def _parse_kings_cards(cards, what="hand"):
    """Codes of Kings Rummy cards (KR-1: suits S H D C R, ranks 3..K, and JK)."""
    items = _card_items(cards, what)
    codes = []
    for c in items:
        try:
            code = parse_card(c)
        except ValueError:
            code = -1                   # parse_card's examples name other games' cards ('AC')
        if code != 0x50 and (code < 0 or (code >> 4) > 4 or (code & 15) < 3):
            raise ValueError(f"{c!r} is not a Kings Rummy card (try 'QS', '10H', 'TH', '3R' for stars, "
                             f"'JK': suits S H D C R, ranks 3..K; KR-1)")
        codes.append(code)
    if len(codes) > KZ_MELD_MAX_HAND:
        raise ValueError(f"{what} has {len(codes)} cards; the solver takes at most {KZ_MELD_MAX_HAND}")
    return codes


cdef int _load(list codes, uint8_t *buf) except -1:
    cdef int i
    for i in range(len(codes)):
        buf[i] = <uint8_t>codes[i]
    return len(codes)


def _fmt(code):
    code = _c_int(code, "code")
    return format_card(code, True)


def is_book(cards, wild_rank, *, joker_points=50, wild_points=20):
    """Whether ``cards`` together form one book (KR-5, KR-7): 3+ cards of one rank, any
    suits, duplicates allowed, any number of wilds.  ``wild_rank`` 3..13 (KR-3).
    Raises ``ValueError`` for a bad card or wild rank."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(cards, "cards")
    cdef int n = _load(codes, buf)
    return n > 0 and _is_book(&r, buf, n) == 1


def is_run(cards, wild_rank, *, joker_points=50, wild_points=20):
    """Whether ``cards`` together form one run (KR-6, KR-7): 3+ cards of one suit in
    consecutive ranks 3..K (no wrap), wilds standing for any missing card.
    Raises ``ValueError`` for a bad card or wild rank."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(cards, "cards")
    cdef int n = _load(codes, buf)
    return n > 0 and _is_run(&r, buf, n) == 1


def is_meld(cards, wild_rank, *, joker_points=50, wild_points=20):
    """Whether ``cards`` together form a book or a run (KR-5..KR-7)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(cards, "cards")
    cdef int n = _load(codes, buf)
    return kz_meld_kind(&r, buf, n) != KZ_MELD_NONE


def deadwood_points(hand, wild_rank, *, wild_points=20, joker_points=50):
    """Fewest points the hand can leave over (KR-12, KR-14), an int."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int32_t pts
    with nogil:
        pts = kz_meld_deadwood(&r, buf, n, NULL)
    return int(pts)


cdef tuple _arrangement_lists(const kz_meld_rules *r, list codes, kz_arrangement *a, bint as_codes,
                              bint ascii=True):
    cdef int mi, i
    f = (lambda c: c) if as_codes else ((lambda c: format_card(c, True)) if ascii else format_card)
    melds = []
    for mi in range(a.n_melds):
        members = [(a.pos_of[i], codes[i]) for i in range(len(codes)) if a.meld_of[i] == mi]
        if a.kind[mi] == KZ_MELD_RUN:
            members.sort(key=lambda t: t[0])
        else:
            members.sort(key=lambda t: (t[1] == 0x50 or (t[1] & 15) == r.wild_rank, t[1]))
        melds.append([f(c) for _, c in members])
    left = sorted(codes[i] for i in range(len(codes)) if a.meld_of[i] < 0)
    return melds, [f(c) for c in left], int(a.points)


def best_arrangement(hand, wild_rank, *, wild_points=20, joker_points=50, as_codes=False, ascii=True):
    """The arrangement of ``hand`` into books and runs leaving the fewest points (KR-12).

    Returns ``(melds, leftover, points)``: ``melds`` a list of melds, each a list of cards
    (runs in rank order, a wild at the place it stands for); ``leftover`` the cards left in
    hand, ascending; ``points`` their value (KR-14: face value, J 11, Q 12, K 13, a wild
    ``wild_points``, a Joker ``joker_points``).  Cards are ASCII strings (``"7H"``), suit
    symbols with ``ascii=False`` (``"7♥"``, as ``cards.format_card``), or int codes with
    ``as_codes=True``: the one ``best_arrangement`` shape shared with
    :func:`crazy_best_arrangement` and ``contract_rummy.best_arrangement``: the hand first,
    the game's one positional context (here the wild rank), rule options as keywords,
    ``as_codes`` / ``ascii`` for the card form, ``(melds, leftover, points)`` back.  Raises ``ValueError`` for a bad card, wild rank, or more
    than 32 cards.
    """
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    with nogil:
        kz_meld_deadwood(&r, buf, n, &a)
    return _arrangement_lists(&r, codes, &a, as_codes, ascii)


def going_out_discards(hand, wild_rank, *, as_codes=False):
    """The distinct cards the player could discard to go out (KR-10): those ``d`` such that
    the hand without one ``d`` lays down completely in books and runs.  Ascending by code;
    empty when the hand cannot go out.  Raises ``ValueError`` for a bad card or wild rank."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef uint8_t outb[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int k
    with nogil:
        k = kz_meld_going_out(&r, buf, n, outb)
    return [outb[i] if as_codes else _fmt(outb[i]) for i in range(k)]


def can_meld_all(hand, wild_rank):
    """Whether every card of ``hand`` lays down in books and runs (KR-10 after the discard)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    return kz_meld_all(&r, buf, n) == 1


# --- Crazy Rummy rules (CR-2, CR-3, CR-5, CR-15), for the contract-rummy module and tests

def _parse_crazy_cards(cards):
    items = _card_items(cards)
    codes = []
    for c in items:
        try:
            code = parse_card(c)
        except ValueError:
            code = -1                   # parse_card's examples name other games' cards ('3R')
        if code != 0x50 and (code < 0 or (code >> 4) > 3):
            raise ValueError(f"{c!r} is not a Crazy Rummy card (try 'QS', '10H', 'TH', 'AC', 'JK': "
                             f"suits S H D C, ranks A..K, the Joker; CR-1)")
        codes.append(code)
    if len(codes) > KZ_MELD_MAX_HAND:
        raise ValueError(f"hand has {len(codes)} cards; the solver takes at most {KZ_MELD_MAX_HAND}")
    return codes


def crazy_meld_kind(cards, *, ace_wrap=False):
    """``"book"``, ``"run"`` or ``None``: what ``cards`` form under Crazy Rummy's meld rules
    (CR-2 2s and Jokers wild, a 2 in its natural place natural; CR-3 Ace low or high, wrap
    only with ``ace_wrap``; CR-5 books 3+ with at most 1 wild, runs 4+ with at most 2)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(cards)
    cdef int n = _load(codes, buf)
    return {KZ_MELD_BOOK: "book", KZ_MELD_RUN: "run"}.get(kz_meld_kind(&r, buf, n))


def crazy_contract_feasible(hand, books, runs, *, ace_wrap=False, overlapping_runs=False):
    """Whether ``hand`` (Crazy Rummy cards) holds a contract of ``books`` books and ``runs``
    runs laid down under CR-10 (books 3+, runs 4+, same-suit runs that do not join; with
    ``overlapping_runs`` they may overlap but never continue each other): the shared
    solver's ``kz_contract_feasible``, which Crazy Rummy's going-down and lay-down checks
    use.  ``books + runs`` is at most 3 (CR-4).  Raises ``ValueError`` for bad cards or
    counts."""
    cdef kz_meld_rules r
    for name, v in (("books", books), ("runs", runs)):
        if type(v) is not int or not 0 <= v <= KZ_CQ_MAX_FIXED:
            raise ValueError(f"{name} must be an int in 0..{KZ_CQ_MAX_FIXED}, got {v!r}")
    if books + runs > KZ_CQ_MAX_FIXED:
        raise ValueError(f"a contract has at most {KZ_CQ_MAX_FIXED} melds (CR-4), got {books} + {runs}")
    codes = _parse_crazy_cards(hand)
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    return _feasible(&r, codes, books, runs, overlapping_runs)


cdef bint _feasible(const kz_meld_rules *r, list codes, int books, int runs, bint overlap) except -1:
    """kz_contract_feasible on a fresh contract of ``books`` + ``runs`` melds (at most 3)."""
    cdef kz_contract_query q
    memset(&q, 0, sizeof(q))
    for c in codes:
        k = KZ_CQ_JOKER if c == 0x50 else (c >> 4) * 13 + (c & 15) - 1
        if q.cnt[k] == 255:
            raise ValueError("too many copies of one card")
        q.cnt[k] += 1
    q.overlap = 1 if overlap else 0
    q.nb = books
    q.nr = runs
    q.book_lb = 1
    q.run_lb = -1
    q.pkind = KZ_CQ_NONE
    return kz_contract_feasible(r, &q) == 1


cdef extern from "krazy/clock.h" nogil:
    int64_t kz_monotonic_ns() noexcept      # CLOCK_MONOTONIC (POSIX) or QueryPerformanceCounter


cdef enum:
    ORACLE_MIN = 14             # contract mode asks the oracle from this many cards (the game's DPs' own floor;
                                # below, the search takes at most a few ms)
    CONTRACT_BUDGET = 10000000  # steps of the search from the oracle's exact bound (see crazy_best_arrangement)
    BEYOND_CR1_MAX = 22         # contract mode: most cards of a hand beyond CR-1 (the search alone answers)
_contract_oracle = None
cdef int64_t _contract_budget = CONTRACT_BUDGET
_contract_fallbacks = 0     # calls answered by the oracle's lay-down (the budget ran out), for tests
_contract_last_steps = 0    # steps of the last search from the oracle's bound, for tests and benchmarks
_contract_last_ns = 0       # and its time (ns)


def _set_contract_oracle(f):
    """Contract mode's exact answer: ``f(codes, books, runs, ace_wrap)`` -> None (not known:
    the contract is no Crazy Rummy round's, or the hand breaks CR-1) or ``(points,
    arrangement)``: the fewest points, -1 when no such lay-down exists (arrangement None),
    and a lay-down leaving them, ``(melds, leftover, points)`` in int codes (each meld a
    list of codes, a run low to high with each wild at its place).
    ``krazy_core.games.contract_rummy`` sets its DPs here when it is imported (melds
    imports no game: the layer rule)."""
    global _contract_oracle
    _contract_oracle = f


_oracle_loader = None        # makes the oracle when none is set (krazy_core/__init__.py sets it)


def _set_oracle_loader(f):
    """``f()`` registers the contract oracle (:func:`_set_contract_oracle`): called by contract
    mode the first time it would ask the oracle and none is set, so that a caller who imported
    only this module gets the bounded answer too.  ``krazy_core/__init__.py`` (above the
    games: the layer rule holds) sets a loader that imports ``krazy_core.games.contract_rummy``."""
    global _oracle_loader
    _oracle_loader = f


def _set_contract_budget(steps):
    """Tests and benchmarks: the step budget of contract mode's search from the oracle's
    exact bound (``crazy_best_arrangement``); 0 for none.  Returns the previous budget."""
    global _contract_budget
    if type(steps) is not int or not 0 <= steps < 2 ** 62:
        raise ValueError(f"steps must be an int in 0..2**62 - 1, got {steps!r}")
    old = _contract_budget
    _contract_budget = steps
    return int(old)


def _contract_budget_stats():
    """Tests and benchmarks: ``(fallbacks, steps, ns)``, how many contract-mode calls since
    import ran out of the step budget and returned the oracle's lay-down, and the steps and
    nanoseconds the last search from the oracle's bound took (steps: at most the budget
    plus one leaf's run placements)."""
    return _contract_fallbacks, _contract_last_steps, _contract_last_ns


def _contract_counts(contract):
    """``(books, runs)`` of a contract, checked: ints, at most 3 melds in all (CR-4)."""
    if not isinstance(contract, (tuple, list)) or len(contract) != 2:
        raise ValueError(f"contract must be None or (books, runs), a tuple or list of 2 ints, got {contract!r}")
    nb, nr = contract
    for name, v in (("books", nb), ("runs", nr)):
        if type(v) is not int or not 0 <= v <= KZ_CQ_MAX_FIXED:
            raise ValueError(f"contract {name} must be an int in 0..{KZ_CQ_MAX_FIXED}, got {v!r}")
    if nb + nr > KZ_CQ_MAX_FIXED:
        raise ValueError(f"a contract has at most {KZ_CQ_MAX_FIXED} melds (CR-4), got {nb} + {nr}")
    return nb, nr


def _beyond_cr1(codes):
    """Whether a hand breaks CR-1: more than 2 of a card or more than 4 Jokers."""
    seen = {}
    for c in codes:
        seen[c] = seen.get(c, 0) + 1
    return any(k > (4 if c == 0x50 else 2) for c, k in seen.items())


cdef tuple _oracle_lists(const kz_meld_rules *r, arr, bint as_codes, bint ascii):
    """The oracle's lay-down (int codes) in ``crazy_best_arrangement``'s form: a run as the
    game lists it (rank order, each wild at its place), a book naturals first (the same
    sort as ``_arrangement_lists``), the leftover ascending by code."""
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int nm
    wr = r.wild_rank
    f = (lambda c: c) if as_codes else ((lambda c: format_card(c, True)) if ascii else format_card)
    melds_c, left_c, pts = arr
    melds = []
    for m in melds_c:
        m = [int(c) for c in m]
        nm = _load(m, buf)
        if kz_meld_kind(r, buf, nm) == KZ_MELD_BOOK:
            m.sort(key=lambda c: (c == 0x50 or (c & 15) == wr, c))
        melds.append([f(c) for c in m])
    return melds, [f(c) for c in sorted(int(c) for c in left_c)], int(pts)


def crazy_best_arrangement(hand, *, ace_wrap=False, contract=None, as_codes=False, ascii=True):
    """Crazy Rummy rules: ``(melds, leftover, points)`` leaving the fewest points (CR-15
    values), melds free; or with ``contract=(books, runs)`` exactly that many books and runs,
    each as long as wished, laid as CR-10 lays a contract down, ``None`` when the hand holds
    no such melds.

    ``melds``: a list of melds, each a list of cards (a run in rank order with each wild at
    the place it stands for, a book naturals first); ``leftover``: the cards left, ascending
    by code; ``points``: their CR-15 value (an int).  Cards are ASCII strings (``"AS"``,
    ``"10H"``, ``"JK"``), suit symbols with ``ascii=False`` (``"A♠"``, ``"🃏"``, the form
    ``contract_rummy.best_arrangement`` gives by default), or int codes with
    ``as_codes=True`` (the one ``best_arrangement`` shape).  ``hand``: a string of cards
    or a list of strings / codes, at most 32.  Rules: CR-2 (2s and Jokers wild, a 2 in its
    natural place natural), CR-3 (Ace low or high; K-A-2 only with ``ace_wrap``), CR-5
    (books 3+ with at most 1 wild, runs 4+ with at most 2).

    Contract mode guarantees (CR-10): two runs of one suit never overlap or join into one
    sequence (``AS 2S 3S 2H`` is not laid next to ``4S..KS``; a wild is placed where it
    keeps the runs apart), so the points are those of the game's
    ``contract_rummy.best_arrangement(hand, round)`` for the round whose contract this is
    (checked on thousands of random hands, tests/test_melds_contract.py); ties between
    equal-points lay-downs may be broken differently.  It has no option for the house rule
    ``overlapping_runs``.  A contract has at most 3 melds (CR-4: ``books`` and ``runs`` ints
    0..3).

    Cost, bounded.  The search is the shared branch and bound
    (``kz_meld_contract``), plus at each complete lay-down holding two runs of one suit at
    most 18^3 placements of their spans (3 lengths x 3 starts, x 2 laps with Ace wrap, a
    run), runs whose naturals already touch pruned; it is not proven polynomial, so:

    * A hand that holds no such lay-down is answered None by the going-down check first
      (``kz_contract_feasible``: at most (52 x 16)^3 steps), so no search has to prove it.
    * From 14 cards, when the contract is a Crazy Rummy round's (CR-4) and the hand keeps
      CR-1 (at most 2 of a card, 4 Jokers), the game's exact DPs give the fewest points and
      a lay-down leaving them (``contract_rummy.best_arrangement``, polynomial: its
      docstring gives the bounds and their measured worst, round 5 with ace_wrap the
      slowest; registered when ``krazy_core.games.contract_rummy`` is imported, and
      imported at the first call that needs it through a loader ``krazy_core/__init__.py``
      sets, so also for a caller who imported only this module: this layer imports no game).  The search then starts from that exact bound and stops at
      its first leaf reaching it -- the lay-down the plain search records -- within a budget
      of 10,000,000 steps (a search node, a book's choice of naturals, a run's naturals
      tried, a placement of two same-suit runs' spans: 10-30 ns each).  When the budget runs
      out the answer is the game's lay-down in this function's form: the same points (both
      are the exact minimum), perhaps another of the equal-points lay-downs.  Random hands
      of 20..32 cards take at most 1.7 M steps from 4 suits and 24 M from 2 (crowded
      one-suit hands up to 160 M: 1 in 20 of them runs out); on 3,400 such hands the
      answers are the old ones bit for bit but for the 22 that ran out (the same points),
      and so on 3,000 of 14..19 cards (none ran out; the DPs were asked from 20 cards
      before).  Measured worst (benches/meld_worst_cases.py, on a shared 2-core machine):
      32 cards, two suits twice and 4 wilds, ace_wrap, contract (0, 3) 12-17 s -> 0.10 s,
      (0, 2) 3.8-7.1 s -> 0.14-0.21 s; a random 29-card one-suit hand, (1, 2) with ace_wrap,
      1.3-1.5 s -> 0.11-0.13 s; 19-card hands hunted for the search alone 0.3-0.55 s ->
      0.001-0.08 s.
    * Below 14 cards, the contracts that are no round's ((0, 0), (1, 0), (0, 1)) and hands
      beyond CR-1: the search alone, bounded by the input: at most 32 cards, and at most 22
      when the hand breaks CR-1 (ValueError beyond: 24 such cards took 0.8-1.2 s).  Measured
      worst of the hands we built or hunted: 13 cards 4 ms, 22 cards beyond CR-1 (one suit
      three times, 10 wilds) (1, 2) with ace_wrap 0.23-0.34 s, 32 cards (0, 1) 0.06 s.

    Raises ``ValueError`` for a bad card (not S H D C, A..K or JK), more than 32 cards, a
    contract that is not ``(books, runs)`` of at most 3 melds, or a contract-mode hand
    beyond CR-1 of more than 22 cards."""
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int32_t pts
    cdef int nb = -1, nr = -1
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int32_t known = -1
    cdef int64_t budget = _contract_budget, steps = 0, t0, t1
    global _contract_fallbacks, _contract_last_steps, _contract_last_ns
    if contract is None:
        pts = kz_meld_deadwood(&r, buf, n, &a)
    else:
        nb, nr = _contract_counts(contract)
        if n > BEYOND_CR1_MAX and _beyond_cr1(codes):
            raise ValueError(
                f"contract mode takes at most {BEYOND_CR1_MAX} cards when the hand holds more than 2 "
                f"of a card or more than 4 Jokers (beyond CR-1 only the search answers, and past "
                f"{BEYOND_CR1_MAX} cards it can take seconds); got {n}: pass a Crazy Rummy hand "
                f"(up to {KZ_MELD_MAX_HAND} cards) or fewer cards")
        if not _feasible(&r, codes, nb, nr, False):
            return None             # no such lay-down (the going-down check): the search need not prove it
        if n >= ORACLE_MIN and _contract_oracle is None and _oracle_loader is not None:
            _oracle_loader()        # the game's DPs, imported once (the layer rule: not from here)
        if n >= ORACLE_MIN and _contract_oracle is not None:
            v = _contract_oracle(codes, nb, nr, bool(ace_wrap))
            if v is not None:
                if v[0] < 0:
                    return None
                known = v[0]
        if known >= 0:
            # the search from the exact bound: the same lay-down as without it (_solve),
            # within the step budget; past it the game's own lay-down (the same points)
            with nogil:
                t0 = kz_monotonic_ns()
                pts = _solve(&r, buf, n, 0, nb, nr, &a, 1, NO_BEST, known, budget, &steps)
                t1 = kz_monotonic_ns()
            _contract_last_steps = steps
            _contract_last_ns = t1 - t0
            if pts == -2:
                _contract_fallbacks += 1
                return _oracle_lists(&r, v[1], as_codes, ascii)
            if pts != known:                # (never seen: the plain search, to be exact)
                known = -1
        if known < 0:
            with nogil:
                pts = kz_meld_contract(&r, buf, n, nb, nr, &a)
        if pts < 0:
            return None
    return _arrangement_lists(&r, codes, &a, as_codes, ascii)




def _time_solver(hands, wild_ranks):
    """Benchmark hook: nanoseconds of each ``kz_meld_deadwood`` call, timed in C around the
    call (no Python overhead), for Kings Rummy hands (lists of codes) and their wild ranks."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int64_t t0, t1
    cdef int n
    out = []
    for h, w in zip(hands, wild_ranks):
        _kings_rules(&r, w, 20, 50)
        n = _load(_parse_kings_cards(h), buf)
        with nogil:
            t0 = kz_monotonic_ns()
            kz_meld_deadwood(&r, buf, n, NULL)
            t1 = kz_monotonic_ns()
        out.append(t1 - t0)
    return out


def _crazy_is(cards, kind, ace_wrap=False):
    """Test hook: whether ``cards`` are a book (``kind`` 1) or a run (2) by Crazy Rummy rules."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    codes = _parse_crazy_cards(cards)
    cdef int n = _load(codes, buf)
    if n == 0:
        return False
    return bool(_is_book(&r, buf, n) if kind == 1 else _is_run(&r, buf, n))


def _wild_share_bound(hand, wild_rank, use_table=True):
    """Test hook (Kings Rummy rules): ``None`` when the wild-share bound does not apply, else
    ``(shares, total, wilds, scale)``: ``shares[i]`` is card i's share of the wilds any
    complete lay-down needs, times ``scale`` (0 for wilds); see ``_wild_shares``.
    ``use_table=False``: the plain window loop instead of the runs-of-3 table."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    cdef int32_t share[KZ_MELD_MAX_HAND]
    cdef int32_t total = 0, top = 0
    cdef int w = 0, i
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    if not _wild_shares(&r, buf, n, share, &total, &top, &w, -1, 1 if use_table else 0):
        return None
    return [int(share[i]) for i in range(n)], int(total), w, WSCALE


def _can_meld_all_unfiltered(hand, wild_rank):
    """Test hook: ``can_meld_all`` by the exact search alone, without the quick necessary
    tests or the search's wild-share pruning (the oracle the bound is checked against)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    if n == 0:
        return True
    return _solve(&r, buf, n, 1, -1, -1, NULL, 0) == 0


def _arrangement_pruned_and_not(hand, wild_rank, wild_points=20, joker_points=50):
    """Test hook: ``(pruned, unpruned)``, each ``(points, meld_of, pos_of, kinds, lengths)``
    of ``kz_meld_deadwood``'s arrangement with and without the search's dead-natural pruning:
    they must be the same (pruning only skips subtrees that cannot beat the best so far)."""
    cdef kz_meld_rules r
    cdef kz_arrangement a
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, wild_points, joker_points)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    cdef int pr, i
    out = []
    for pr in (1, 0):
        pts = _solve(&r, buf, n, 0, -1, -1, &a, pr)
        out.append((int(pts), [a.meld_of[i] for i in range(n)], [a.pos_of[i] for i in range(n)],
                    [a.kind[i] for i in range(a.n_melds)], [a.length[i] for i in range(a.n_melds)]))
    return tuple(out)


def _deadwood_below(hand, wild_rank, limit):
    """Test hook: ``kz_meld_deadwood_below`` (Kings Rummy rules, wild 20, Joker 50)."""
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    _kings_rules(&r, wild_rank, 20, 50)
    codes = _parse_kings_cards(hand)
    cdef int n = _load(codes, buf)
    return int(kz_meld_deadwood_below(&r, buf, n, limit))
