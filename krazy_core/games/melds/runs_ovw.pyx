# cython: language_level=3
"""The contract optimizer's runs DP for overlapping_runs with ace_wrap (CR-3 and CR-10
options): one suit's ranks as a cycle cut between K and A (see the package docstring)."""
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

from krazy_core.games.melds.laydown cimport *



# ---- the overlapping_runs runs DP with ace_wrap: one suit's ranks as a cycle cut between K and A
# An item (one open run piece, or a wrapping run's finished tail waiting for its head), a code 0..227:
cdef enum:
    OW_NORM = 0                 # a run inside A..K: ((first rank - 1) * 3 + wilds) * 4 + no-K * 2 + is-open-run
    OW_SUF = 156                # a wrapping run's tail, begun at A: + wilds * 2 + is-open-run
    OW_REC = 162                # a finished tail (its last rank hi) waiting for its head: + (hi - 1) * 3 + wilds
    OW_PRE = 198                # a wrapping run's head, open through K: + (cards bucket 0..4 * 3 + wilds) * 2 + is-open-run
# a free slot of the hash tables: 0xFFFFFFFFU (no state packs to it: item codes + 1 <= 228)

cdef struct _OwTab:
    uint32_t *keys          # open addressing, 0xFFFFFFFFU = free
    int *vals
    uint32_t *act           # the slots of the keys, in the order they came
    int nact, cap, bits

cdef _OwTab _ow_tab[2]
cdef int _ow_nomem = 0       # set when a table could not grow (best_arrangement raises MemoryError)


def _ow_raise():
    """MemoryError when the overlap-with-wrap DP's tables could not grow (its answers then
    are void)."""
    global _ow_nomem
    if _ow_nomem:
        _ow_nomem = 0
        raise MemoryError("best_arrangement: the runs DP's tables")


cdef int _ow_alloc(_OwTab *t, int bits) noexcept nogil:
    cdef int i, cap = 1 << bits
    t.keys = <uint32_t *>malloc(cap * sizeof(uint32_t))
    t.vals = <int *>malloc(cap * sizeof(int))
    t.act = <uint32_t *>malloc((cap // 2 + 1) * sizeof(uint32_t))
    if t.keys == NULL or t.vals == NULL or t.act == NULL:
        free(t.keys)
        free(t.vals)
        free(t.act)
        t.keys = NULL
        t.vals = NULL
        t.act = NULL
        t.cap = 0
        return -1
    for i in range(cap):
        t.keys[i] = 0xFFFFFFFFU
    t.cap = cap
    t.bits = bits
    t.nact = 0
    return 0


cdef inline int _ow_slot(const _OwTab *t, uint32_t key) noexcept nogil:
    cdef uint32_t i = (key * 2654435761U) >> (32 - t.bits)
    while t.keys[i] != 0xFFFFFFFFU and t.keys[i] != key:
        i = (i + 1) & (t.cap - 1)
    return i


cdef int _ow_put(_OwTab *t, uint32_t key, int v) noexcept nogil:
    """The best value of state ``key`` in table t: max(old, v)."""
    global _ow_nomem
    cdef _OwTab g
    cdef int i, n
    if t.nact * 2 >= t.cap:                 # grow (rehash) at half full
        if _ow_alloc(&g, t.bits + 1) < 0:
            _ow_nomem = 1
            return -1
        for n in range(t.nact):
            i = _ow_slot(&g, t.keys[t.act[n]])
            g.keys[i] = t.keys[t.act[n]]
            g.vals[i] = t.vals[t.act[n]]
            g.act[n] = i
        g.nact = t.nact
        free(t.keys)
        free(t.vals)
        free(t.act)
        t[0] = g
    i = _ow_slot(t, key)
    if t.keys[i] == 0xFFFFFFFFU:
        t.keys[i] = key
        t.vals[i] = v
        t.act[t.nact] = i
        t.nact += 1
    elif v > t.vals[i]:
        t.vals[i] = v
    return 0


cdef void _ow_clear(_OwTab *t) noexcept nogil:
    cdef int n
    for n in range(t.nact):             # by slot: no probing (a cleared slot would cut a chain)
        t.keys[t.act[n]] = 0xFFFFFFFFU
    t.nact = 0


cdef inline uint32_t _ow_wrapmask(int lo, int hi) noexcept nogil:
    """Ranks lo..13 and 1..hi (a wrapping run, hi < lo) as run_mask's wrap bits 0..12."""
    return ((0x1FFF >> (lo - 1)) << (lo - 1)) | ((1U << hi) - 1)


cdef inline uint32_t _ow_mask(int lo, int hi) noexcept nogil:
    """Ranks lo..hi (lo <= hi, inside A..K) as wrap bits."""
    return ((1U << hi) - 1) & ~((1U << (lo - 1)) - 1)


ctypedef struct _OwCtx:
    int q, avail, two, vn, vw, W, jcap, qb
    int olo, oend, ow, ocase     # the open run of this suit: first rank, last free position, its wilds;
                                 # ocase 1: not wrapped yet (it begins at olo), 2: wrapped, 0: none
    int nfix
    uint32_t fix[3]              # the suit's runs laid before, run_mask (wrap bits)
    int ac                       # the state's bit: a run inside A..K from A has stopped
    int nstop                    # runs inside A..K that stopped at q - 1 (their first ranks in stoplo)
    int stoplo[3]
    int ostart                   # 1 once the open run (ocase 1) has begun, when q == olo
    uint8_t fxok[14][14]         # [lo][hi]: a run of ranks lo..hi (inside A..K) joins no run laid before
    uint8_t fwok[14][14]         # [lo][hi]: a run of ranks lo..K, A..hi (wrapping) joins none
    _OwTab *nx


cdef inline int _ow_fixed_ok(const _OwCtx *c, uint32_t m) noexcept nogil:
    """A run of ranks m joins none of the suit's runs laid before (CR-10 with overlapping_runs:
    kz_runs_join)."""
    cdef int i
    for i in range(c.nfix):
        if touches(1, 1, m, c.fix[i]):
            return 0
    return 1


cdef void _ow_emit(_OwCtx *c, int *it, int n, int j, int nat, int wil, int val) noexcept nogil:
    """One successor state into c.nx: items it[0..n), j runs counted, nat naturals and wil wilds
    taken at q (the pool wilds: the wilds, and the naturals when q is the 2's place, CR-2)."""
    cdef int a, b, t, w2, lo, l2, hi, nr = 0, ok
    cdef int s[3]
    cdef int rh[3]
    cdef uint32_t key
    if nat > c.avail:
        return
    if c.ocase == 1 and c.q == c.olo and not c.ostart:
        return                                  # the open run goes on at its first rank
    w2 = (c.W >> 8) + wil + (nat if c.two else 0)
    if w2 > (c.W & 255):
        return
    for a in range(n):
        s[a] = it[a]
        if s[a] >= OW_REC and s[a] < OW_PRE:
            rh[nr] = (s[a] - OW_REC) // 3 + 1
            nr += 1
    # a run inside A..K with 4+ cards (not from A): its first rank matters only through the
    # records' last ranks (lo <= hi, lo == hi + 1) and the runs laid before (joined at each
    # later last rank): the latest first rank that agrees on all of them stands for it
    for a in range(n):
        if s[a] >= OW_SUF:
            continue
        lo = (s[a] >> 2) // 3 + 1
        if lo < 2 or lo > c.q - 3:
            continue
        for l2 in range(c.q - 3, lo, -1):
            ok = 1
            for b in range(nr):
                if (l2 <= rh[b]) != (lo <= rh[b]) or (l2 == rh[b] + 1) != (lo == rh[b] + 1):
                    ok = 0
                    break
            if ok and c.nfix:
                for hi in range(c.q, 14):
                    if c.fxok[l2][hi] != c.fxok[lo][hi]:
                        ok = 0
                        break
            if ok:
                s[a] += ((l2 - lo) * 3) * 4
                break
    # a record: its last rank matters only through the bucket of its cards (1, 2, 3+), the runs
    # inside A..K (their first ranks: lo <= hi, lo == hi + 1) and the runs laid before (joined
    # at each later first rank of its head): the latest last rank that agrees stands for it
    for a in range(n):
        if s[a] < OW_REC or s[a] >= OW_PRE:
            continue
        hi = (s[a] - OW_REC) // 3 + 1
        if hi < 3:
            continue
        for l2 in range(c.q - 1, hi, -1):
            ok = 1
            for b in range(n):
                if s[b] < OW_SUF:
                    lo = (s[b] >> 2) // 3 + 1
                    if (lo <= l2) != (lo <= hi) or (lo == l2 + 1) != (lo == hi + 1):
                        ok = 0
                        break
            if ok and c.nfix:
                for b in range(c.q + 1, 14):
                    if c.fwok[b][l2] != c.fwok[b][hi]:
                        ok = 0
                        break
            if ok:
                s[a] += (l2 - hi) * 3
                break
    for a in range(n):                          # sorted descending (n <= 3; a copy: the callers
        for b in range(a + 1, n):               # go on with it)
            if s[b] > s[a]:
                t = s[a]
                s[a] = s[b]
                s[b] = t
    key = 0
    for a in range(3):
        key = (key << 8) | (<uint32_t>(s[a] + 1) if a < n else 0)
    key |= (<uint32_t>j << 24) | (<uint32_t>c.ac << 27) | (<uint32_t>w2 << 28)
    _ow_put(c.nx, key, val + nat * c.vn + wil * c.vw)


cdef void _ow_starts(_OwCtx *c, int *it, int n, int j, int nat, int wil, int val, int opt) noexcept nogil:
    """The runs beginning at q (fresh ones from option opt on: 0/1 a tail at A by a natural/wild,
    2/3 a run inside A..K, 4 + 2i (+1) the head of record it[i]), then the successor."""
    cdef int i, code, hi, rw, x, y, cnt
    _ow_emit(c, it, n, j, nat, wil, val)
    for x in range(opt, 4 + 2 * n):
        if x < 4:
            if n >= 3 or j >= c.jcap:
                continue
            if x < 2:
                if c.q != 1:
                    continue
                it[n] = OW_SUF + (x & 1) * 2
            else:
                if c.q < c.qb or c.q > 10 or c.nstop:
                    continue                    # CR-10 order; 4 cards by K; a run stopped at q-1 (join)
                it[n] = OW_NORM + ((c.q - 1) * 3 + (x & 1)) * 4 + c.ac * 2
            _ow_starts(c, it, n + 1, j + 1, nat + 1 - (x & 1), wil + (x & 1), val, x)
        else:
            i = (x - 4) >> 1
            code = it[i]
            if code < OW_REC or code >= OW_PRE or c.q < c.qb:
                continue
            hi = (code - OW_REC) // 3 + 1
            rw = (code - OW_REC) % 3
            if (x & 1) and rw >= 2:
                continue
            cnt = 0
            for y in range(c.nstop):
                if c.stoplo[y] > hi:            # that run and this one would be apart and touch
                    cnt = 1
            if cnt or not _ow_fixed_ok(c, _ow_wrapmask(c.q, hi)):
                continue
            cnt = hi + 1
            it[i] = OW_PRE + (((cnt if cnt < 4 else 4) * 3 + rw + (x & 1)) * 2)
            _ow_starts(c, it, n, j, nat + 1 - (x & 1), wil + (x & 1), val, x + 2 - (x & 1))
            it[i] = code


cdef enum:
    OW_CACHE = 64
cdef uint64_t _ow_ckey[OW_CACHE]            # a fresh suit's answer by (suit, its counts, R, W) + 1, 0 = none
cdef int _ow_cval[OW_CACHE][4][RX_W]


cdef int _suit_runs_ovw(const kz_laydown *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The overlapping_runs runs DP with ace_wrap: :func:`_suit_runs_ovw_dp`, its answers for a
    suit with no run laid yet (the same counts, runs and pool: the same answer) kept in a
    direct-mapped cache of 64 (the walk asks the other suits again at every step)."""
    cdef int nb = CBOOKS[st.round], m, r, w, i
    cdef uint64_t key = 0
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k + (1 if st.gd_open else 0)):
            if st.melds[m].kind == MK_RUN and st.melds[m].suit == s:
                return _suit_runs_ovw_dp(st, s, R, W, out)
    for i in range(13):
        key = key * 3 + st.hand[0][s * 13 + i]
    key = ((key * 4 + s) * 4 + R) * 16 + W + 1
    i = <int>(key % OW_CACHE)
    if _ow_ckey[i] != key:
        _suit_runs_ovw_dp(st, s, R, W, _ow_cval[i])
        _ow_ckey[i] = 0 if _ow_nomem else key
    for r in range(4):
        for w in range(RX_W):
            out[r][w] = _ow_cval[i][r][w]
    return 0


cdef int _suit_runs_ovw_dp(const kz_laydown *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The overlapping_runs runs DP with ace_wrap (CR-3 option, CR-5, CR-10 option): out[r][w] as
    :func:`_suit_runs`, below the lay-down in progress of st.  The suit's ranks are a cycle;
    a run is an arc of 4..13 ranks (each rank once).  The cycle is cut between K and A and
    swept A..K once (each rank's naturals used once); a run is an item of the state's multiset
    (at most 3): a run inside A..K (its first rank and wilds; its cards follow from the
    position), a wrapping run's tail (begun at A, its wilds), the tail's record once it ends
    (its last rank hi and wilds), and the head that binds a record later (at or after the
    CR-10 order's first rank, cards bucket 0..4+ and wilds, open through K).  Two runs of the
    suit join (CR-10, ``kz_runs_join``: apart, touching round the cycle) only at a rank where
    one stops and the next begins, and the sweep checks each case where it happens: inside
    A..K (never), a run stopping just before a head (joined unless the head's tail reaches
    its first rank), a run beginning just after a tail (joined unless it is still open when
    the head begins), across K-A (a run from A that stopped at hi and a run open through K
    begun after hi: the bit ``ac`` and each run's no-K bit); runs laid before by their masks.
    The run being laid is the item flagged is-open-run: its laid cards stand free at its
    first ranks (wrapped already: a tail from A).  Bound: 13 positions x the reached states
    (at most 228^3 / 6 item multisets x 5 runs counted x 13 wilds x 2, far fewer reached) x at
    most 27 x 8 x 945 moves each."""
    global _ow_nomem
    cdef const uint8_t *h = st.hand[0]
    cdef int nb = CBOOKS[st.round], m, q, cur = 0, i, a, n, nn, j, w, v, combo, ncombo, t, x, y
    cdef int code, lo, iw, nk, iso, bad, nat, wil, hi, jj, kk, k
    cdef uint32_t key
    cdef int it[3]
    cdef int ni[6]
    cdef int recs_hi[3]
    cdef int nrec
    cdef _OwCtx c
    cdef _OwTab *T
    cdef const Meld *md
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    if _ow_tab[0].cap == 0:
        if _ow_alloc(&_ow_tab[0], 12) < 0 or _ow_alloc(&_ow_tab[1], 12) < 0:
            _ow_nomem = 1
            return -1
    memset(&c, 0, sizeof(_OwCtx))
    c.qb = 1
    c.vw = 20 * RX_CARD + 1
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k):
            md = &st.melds[m]
            if md.suit == s:
                c.fix[c.nfix] = run_mask(1, md.lo, md.lo + md.n - 1)
                c.nfix += 1
                c.qb = md.lo
        if st.gd_open and st.gd_k >= nb and st.melds[st.gd_k].suit == s:
            md = &st.melds[st.gd_k]
            c.qb = md.lo
            c.olo = md.lo
            c.ow = md.wilds
            if md.lo + md.n - 1 <= 13:
                c.ocase = 1
                c.oend = md.lo + md.n - 1
            else:
                c.ocase = 2
                c.oend = md.lo + md.n - 14
    c.jcap = R + (1 if c.ocase == 1 else 0)
    for lo in range(1, 14):
        for hi in range(lo, 14):
            c.fxok[lo][hi] = _ow_fixed_ok(&c, _ow_mask(lo, hi))
        for hi in range(1, lo):
            c.fwok[lo][hi] = _ow_fixed_ok(&c, _ow_wrapmask(lo, hi))
    T = _ow_tab
    _ow_clear(&T[0])
    _ow_clear(&T[1])
    _ow_put(&T[0], 0, 0)
    for q in range(1, 14):
        k = nat_kind(s, q)
        c.q = q
        c.two = is_two(k)
        c.avail = h[k]
        c.vn = POINTS[k] * RX_CARD + 1
        c.nx = &T[1 - cur]
        for i in range(T[cur].nact):
            key = T[cur].keys[T[cur].act[i]]
            v = T[cur].vals[T[cur].act[i]]
            n = 0
            for a in range(3):
                t = (key >> (16 - 8 * a)) & 255
                if t:
                    it[n] = t - 1
                    n += 1
            j = (key >> 24) & 7
            w = key >> 28
            c.W = (w << 8) | W
            if q == 1 and c.ocase == 2:
                if n < 3:
                    # the wrapped open run: its tail from A (laid so far: free), not one of the r
                    it[n] = OW_SUF + c.ow * 2 + 1
                    n += 1
                else:
                    continue
            # every open item stops, takes a natural or a wild (records wait)
            ncombo = 1
            for a in range(n):
                if it[a] < OW_REC or it[a] >= OW_PRE:
                    ncombo *= 3
            for combo in range(ncombo):
                t = combo
                bad = 0
                nat = 0
                wil = 0
                nn = 0
                nrec = 0
                c.nstop = 0
                c.ac = (key >> 27) & 1
                for a in range(n):
                    code = it[a]
                    if code >= OW_REC and code < OW_PRE:
                        ni[nn] = code
                        nn += 1
                        continue
                    x = t % 3
                    t //= 3
                    if code < OW_SUF:
                        lo = (code >> 2) // 3 + 1
                        iw = (code >> 2) % 3
                        nk = (code >> 1) & 1
                        iso = code & 1
                        if iso and q <= c.oend:
                            if x:
                                bad = 1             # a laid card: only the free move (x 0)
                            else:
                                ni[nn] = code
                                nn += 1
                            continue
                        if x == 0:
                            if q - lo < 4 or not c.fxok[lo][q - 1]:
                                bad = 1
                                continue
                            for y in range(n):      # a tail that ended just before it: its head
                                if it[y] >= OW_REC and it[y] < OW_PRE and \
                                        (it[y] - OW_REC) // 3 + 1 == lo - 1:
                                    bad = 1         # begins after this one stopped (joined)
                            c.stoplo[c.nstop] = lo
                            c.nstop += 1
                            if lo == 1:
                                c.ac = 1
                        elif x == 1:
                            nat += 1
                            ni[nn] = code
                            nn += 1
                        else:
                            if iw >= 2:
                                bad = 1
                                continue
                            wil += 1
                            ni[nn] = code + 4
                            nn += 1
                    elif code < OW_REC:
                        iw = ((code - OW_SUF) >> 1)
                        iso = code & 1
                        if iso and q <= c.oend:
                            if x:
                                bad = 1
                            else:
                                ni[nn] = code
                                nn += 1
                            continue
                        if x == 0:
                            if q == 1:
                                bad = 1
                                continue
                            if iso:
                                # the wrapped open run ends at q - 1 (its head is laid)
                                if (q - 1) + (14 - c.olo) < 4 or \
                                        not _ow_fixed_ok(&c, _ow_wrapmask(c.olo, q - 1)):
                                    bad = 1
                            else:
                                ni[nn] = OW_REC + (q - 2) * 3 + iw
                                nn += 1
                            continue
                        if (q > 12) or (iso and q >= c.olo):
                            bad = 1                 # a head must follow (each rank once)
                            continue
                        if x == 1:
                            nat += 1
                            ni[nn] = code
                        else:
                            if iw >= 2:
                                bad = 1
                                continue
                            wil += 1
                            ni[nn] = code + 2
                        nn += 1
                    else:
                        iso = code & 1
                        jj = ((code - OW_PRE) >> 1) // 3
                        iw = ((code - OW_PRE) >> 1) % 3
                        if iso and q <= c.oend:
                            if x:
                                bad = 1
                            else:               # a laid card: it counts, costs nothing
                                jj = jj + 1 if jj < 4 else 4
                                ni[nn] = OW_PRE + ((jj * 3 + iw) * 2) + iso
                                nn += 1
                            continue
                        if x == 0:
                            bad = 1                 # a head stays open through K
                            continue
                        jj = jj + 1 if jj < 4 else 4
                        if x == 1:
                            nat += 1
                        else:
                            if iw >= 2:
                                bad = 1
                                continue
                            wil += 1
                            iw += 1
                        ni[nn] = OW_PRE + ((jj * 3 + iw) * 2) + iso
                        nn += 1
                if bad or nat > c.avail:
                    continue
                # the open run (ocase 1) begins at its first rank: inside A..K, or as a head
                if c.ocase == 1 and q == c.olo:
                    c.ostart = 1
                    x = 1 if c.oend >= q else 0     # its first card laid already: free
                    # inside A..K
                    if nn < 3 and not c.nstop:
                        if x:
                            ni[nn] = OW_NORM + ((q - 1) * 3 + c.ow) * 4 + c.ac * 2 + 1
                            _ow_starts(&c, ni, nn + 1, j, nat, wil, v, 0)
                        else:
                            ni[nn] = OW_NORM + ((q - 1) * 3 + 0) * 4 + c.ac * 2 + 1
                            _ow_starts(&c, ni, nn + 1, j, nat + 1, wil, v, 0)
                            ni[nn] = OW_NORM + ((q - 1) * 3 + 1) * 4 + c.ac * 2 + 1
                            _ow_starts(&c, ni, nn + 1, j, nat, wil + 1, v, 0)
                    # the head of a record (its tail was counted as a fresh run: j - 1)
                    for a in range(nn):
                        code = ni[a]
                        if code < OW_REC or code >= OW_PRE:
                            continue
                        hi = (code - OW_REC) // 3 + 1
                        iw = (code - OW_REC) % 3 + c.ow
                        bad = 0
                        for y in range(c.nstop):
                            if c.stoplo[y] > hi:
                                bad = 1
                        if bad or iw > 2 or not _ow_fixed_ok(&c, _ow_wrapmask(q, hi)):
                            continue
                        kk = hi + 1 if hi + 1 < 4 else 4
                        if x:
                            ni[a] = OW_PRE + (kk * 3 + iw) * 2 + 1
                            _ow_starts(&c, ni, nn, j - 1, nat, wil, v, 0)
                        else:
                            ni[a] = OW_PRE + (kk * 3 + iw) * 2 + 1
                            _ow_starts(&c, ni, nn, j - 1, nat + 1, wil, v, 0)
                            if iw < 2:
                                ni[a] = OW_PRE + (kk * 3 + iw + 1) * 2 + 1
                                _ow_starts(&c, ni, nn, j - 1, nat, wil + 1, v, 0)
                        ni[a] = code
                    c.ostart = 0
                else:
                    _ow_starts(&c, ni, nn, j, nat, wil, v, 0)
        _ow_clear(&T[cur])
        cur = 1 - cur
        if _ow_nomem:
            _ow_clear(&T[cur])
            return -1
    # the end: every run open through K is whole, no record waits for its head
    for i in range(T[cur].nact):
        key = T[cur].keys[T[cur].act[i]]
        v = T[cur].vals[T[cur].act[i]]
        j = (key >> 24) & 7
        w = key >> 28
        if j > R:
            continue
        bad = 0
        for a in range(3):
            t = (key >> (16 - 8 * a)) & 255
            if not t:
                continue
            code = t - 1
            if code < OW_SUF:
                lo = (code >> 2) // 3 + 1
                if (code >> 1) & 1 or 14 - lo < 4 or not c.fxok[lo][13]:
                    bad = 1
            elif code < OW_PRE:
                bad = 1
            elif ((code - OW_PRE) >> 1) // 3 < 4:
                bad = 1
        if not bad and v > out[j][w]:
            out[j][w] = v
    _ow_clear(&T[cur])
    return 0
