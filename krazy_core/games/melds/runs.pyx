# cython: language_level=3
"""The contract optimizer's runs DPs: one dispatch (:func:`_runs_rest`) on ace_wrap and
overlapping_runs over four one-suit DPs (``_suit_runs``, its ace_wrap windows ``_win_runs`` /
``_suit_runs_wrap``, ``_suit_runs_ov``, and ``runs_ovw.pyx``), suits joined by the pool
wilds each uses.  The method notes are in the package docstring."""
from libc.string cimport memset, memcpy
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

from krazy_core.games.melds.laydown cimport *
from krazy_core.games.melds.runs_ovw cimport _suit_runs_ovw



cdef int _suit_runs(const uint8_t *h, int s, int lo_min, int R, int W, int out[4][RX_W],
                    int q0, int open_l, int open_cw, int open_lo1, int force) noexcept nogil:
    """The runs DP's one suit (no ace_wrap, no overlapping_runs): out[r][w] = the best value
    (points * RX_CARD + cards, CR-15 points) r fresh runs of suit ``s`` can lay from the
    counts ``h`` using exactly w of the pool's wilds, RX_NEG when none can.  Exact for
    CR-3/CR-5/CR-10 on positions 1..14: a fresh run starts at a position >= lo_min (the CR-10
    sequence lays runs in increasing (suit, first position)), covers 4..13 consecutive
    positions (never both Aces: a run from position 1 stops by 13), each by a natural of the
    hand (the Ace's one copy serves position 1 or 14, two copies both) or by a pool wild (at
    most 2 a run; the suit's own 2 in its place is natural, CR-2, but is one of the pool's
    wilds); two runs leave a position between them (no join, CR-10).  A pool count is exact:
    each suit's natural 2 is the specific card, every other wild any of the rest.
    open_l >= 0: a run being laid (open_l cards, open_cw wilds, open_lo1 if it began at
    position 1) goes on at position q0 (force: it holds no card yet and must take q0); it is
    not one of the r.  O(14 x 4 x 13 x 5 x 3 x 4) steps."""
    cdef int cur[4][RX_W][5][3][4]
    cdef int nxt[4][RX_W][5][3][4]
    cdef int q, j, w, l, c, f, v, k, nj, nl, nf, two, nat, vn, vw, ace1
    ace1 = h[s * 13] == 1           # one Ace: position 1 or 14, not both
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                for c in range(3):
                    for f in range(4):
                        cur[j][w][l][c][f] = RX_NEG
    if open_l >= 0:
        cur[0][0][open_l if open_l < 4 else 4][open_cw][1 if open_lo1 else 0] = 0
    else:
        cur[0][0][0][0][0] = 0
        q0 = 1
        force = 0
    vw = 20 * RX_CARD + 1
    for q in range(q0, 15):
        k = nat_kind(s, q)
        nat = h[k] > 0
        two = nat and is_two(k)
        vn = POINTS[k] * RX_CARD + 1
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(4):
                            nxt[j][w][l][c][f] = RX_NEG
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(4):
                            v = cur[j][w][l][c][f]
                            if v == RX_NEG:
                                continue
                            if (l == 0 or l >= 4) and not (force and q == q0) \
                                    and v > nxt[j][w][0][0][f & 2]:
                                nxt[j][w][0][0][f & 2] = v               # q uncovered
                            if l == 0:
                                if force and q == q0:
                                    nj = j                   # the open run's first card
                                else:
                                    if j == R or q < lo_min:
                                        continue
                                    nj = j + 1
                                nf = (f & 2) | (1 if q == 1 else 0)
                            else:
                                if q == 14 and (f & 1):
                                    continue                # a run from the low Ace stops at K
                                nj = j
                                nf = f
                            nl = l + 1 if l < 4 else 4
                            if nat and not two and not (q == 14 and ace1 and (f & 2)):
                                if v + vn > nxt[nj][w][nl][c][nf | (2 if q == 1 and ace1 else 0)]:
                                    nxt[nj][w][nl][c][nf | (2 if q == 1 and ace1 else 0)] = v + vn
                            if w < W:
                                if two and v + vw > nxt[nj][w + 1][nl][c][nf]:
                                    nxt[nj][w + 1][nl][c][nf] = v + vw
                                if c < 2 and v + vw > nxt[nj][w + 1][nl][c + 1][nf]:
                                    nxt[nj][w + 1][nl][c + 1][nf] = v + vw
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(4):
                            cur[j][w][l][c][f] = nxt[j][w][l][c][f]
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                if l == 0 or l >= 4:
                    for c in range(3):
                        for f in range(4):
                            if cur[j][w][l][c][f] > out[j][w]:
                                out[j][w] = cur[j][w][l][c][f]
    return 0


cdef int _win_runs(const uint8_t *h, int s, int qa, int qb, int start_lo, int start_hi, int last_first,
                   int R, int W, int out[4][RX_W], int open_l, int open_cw, int open_first, int force,
                   int fresh_first) noexcept nogil:
    """The ace_wrap runs DP's one window of suit ``s`` (no overlapping_runs): out[r][w] = the
    best value (points * RX_CARD + cards) r fresh runs of the suit can lay on the linear
    positions qa..qb (each rank at most once: the caller's window is at most 13 positions)
    using exactly w pool wilds, RX_NEG when none can.  A fresh run starts at a position in
    start_lo..start_hi (its first position, CR-10 order), or at qa when fresh_first (that
    run counts in r and is the window's first run); runs leave a position between them (no
    join, CR-10); last_first: position qb may be covered by the window's first run only (any
    other run there would touch it round the corner).  open_l >= 0: a run being laid
    (open_l cards, open_cw wilds; open_first: it is the window's first run; force: it holds
    no card yet and must take qa) goes on at qa; it is not one of the r.  Wilds as in
    :func:`_suit_runs`.  O(13 x 4 x 13 x 5 x 3 x 2) steps."""
    cdef int cur[4][RX_W][5][3][2]
    cdef int nxt[4][RX_W][5][3][2]
    cdef int q, j, w, l, c, f, v, k, nj, nl, nf, two, nat, vn, vw, first_q
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                for c in range(3):
                    for f in range(2):
                        cur[j][w][l][c][f] = RX_NEG
    if open_l >= 0:
        cur[0][0][open_l if open_l < 4 else 4][open_cw][open_first] = 0
    else:
        cur[0][0][0][0][0] = 0
        force = 0
    vw = 20 * RX_CARD + 1
    for q in range(qa, qb + 1):
        k = nat_kind(s, q)
        nat = h[k] > 0
        two = nat and is_two(k)
        vn = POINTS[k] * RX_CARD + 1
        first_q = q == qa and (force or fresh_first)
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(2):
                            nxt[j][w][l][c][f] = RX_NEG
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(2):
                            v = cur[j][w][l][c][f]
                            if v == RX_NEG:
                                continue
                            if (l == 0 or l >= 4) and not first_q and v > nxt[j][w][0][0][0]:
                                nxt[j][w][0][0][0] = v               # q uncovered
                            if l == 0:
                                if force and q == qa:
                                    nj = j                   # the open run's first card
                                    nf = open_first
                                elif fresh_first and q == qa:
                                    if j == R:
                                        continue
                                    nj = j + 1
                                    nf = 1
                                else:
                                    if j == R or q < start_lo or q > start_hi:
                                        continue
                                    nj = j + 1
                                    nf = 0
                            else:
                                nj = j
                                nf = f
                            if last_first and q == qb and not nf:
                                continue                    # it would touch the first run
                            nl = l + 1 if l < 4 else 4
                            if nat and not two and v + vn > nxt[nj][w][nl][c][nf]:
                                nxt[nj][w][nl][c][nf] = v + vn
                            if w < W:
                                if two and v + vw > nxt[nj][w + 1][nl][c][nf]:
                                    nxt[nj][w + 1][nl][c][nf] = v + vw
                                if c < 2 and v + vw > nxt[nj][w + 1][nl][c + 1][nf]:
                                    nxt[nj][w + 1][nl][c + 1][nf] = v + vw
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(2):
                            cur[j][w][l][c][f] = nxt[j][w][l][c][f]
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                if l == 0 or l >= 4:
                    for c in range(3):
                        for f in range(2):
                            if cur[j][w][l][c][f] > out[j][w]:
                                out[j][w] = cur[j][w][l][c][f]
    return 0


cdef int _suit_runs_wrap(const kz_laydown *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The ace_wrap runs DP's one suit (no overlapping_runs; CR-3 option, CR-5, CR-10):
    out[r][w] as :func:`_suit_runs`, below the lay-down in progress of st.  The suit's runs
    in CR-10 order start at increasing first positions lo (1..13); the first of them, L1,
    fixes a window L1..L1+12 of 13 positions (each rank once: no run covers a rank twice)
    that all of them lie in, the others ending by L1+11 (L1+12 is the rank before L1: a run
    there would touch the first round the corner).  A fresh suit: the best over L1 (13
    windows); the suit being laid: one window after its runs so far.  O(13 x
    :func:`_win_runs`)."""
    cdef const uint8_t *h = st.hand[0]
    cdef int tmp[4][RX_W]
    cdef int j, w, L1, nb = CBOOKS[st.round], m, first_lo = -1, last = -1
    cdef const Meld *md
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k):
            md = &st.melds[m]
            if md.suit == s:
                if first_lo < 0:
                    first_lo = md.lo
                last = m
    if st.phase == PH_BUILD and st.gd_open and st.gd_k >= nb and st.melds[st.gd_k].suit == s:
        md = &st.melds[st.gd_k]
        if first_lo < 0:
            _win_runs(h, s, md.lo + md.n, md.lo + 12, md.lo + 1, 13, 1, R, W, out,
                      md.n, md.wilds, 1, md.n == 0, 0)
        else:
            _win_runs(h, s, md.lo + md.n, first_lo + 11, md.lo + 1, 13, 0, R, W, out,
                      md.n, md.wilds, 0, md.n == 0, 0)
        return 0
    if last >= 0:
        md = &st.melds[last]
        _win_runs(h, s, md.lo + md.n + 1, first_lo + 11, md.lo + md.n + 1, 13, 0, R, W, out,
                  -1, 0, 0, 0, 0)
        return 0
    out[0][0] = 0
    for L1 in range(1, 14):
        _win_runs(h, s, L1, L1 + 12, L1 + 1, 13, 1, R, W, tmp, -1, 0, 0, 0, 1)
        for j in range(R + 1):
            for w in range(W + 1):
                if tmp[j][w] > out[j][w]:
                    out[j][w] = tmp[j][w]
    return 0

# ---- the overlapping_runs runs DP: one suit's open runs as a multiset of up to 3 run codes
cdef enum:
    OV_CODES = 30               # a run code: (cards bucket 0..4 * 3 + wilds 0..2) * 2 + began at position 1
    OV_MS = 5456                # multisets of at most 3 codes (1 + 30 + 465 + 4960)
    OV_ST = 851136              # OV_MS x 4 runs begun x RX_W wilds used x 3 low Aces used
cdef int _OV_IDX[29791]     # sorted (descending, +1, 0 = none) code triple -> multiset index
cdef uint8_t _OV_RUN[OV_MS][3]
cdef uint8_t _OV_N[OV_MS]
cdef int _ov_val[2][OV_ST]  # the DP's two layers (RX_NEG = unreached), kept all RX_NEG between calls
cdef int _ov_act[2][OV_ST]  # the reached states of each layer
cdef int _ov_nact[2]
cdef int _ov_ready = 0        # the tables are built on the first call (13.6 MB touched then, not at import)


cdef inline int _ov_key(int x, int y, int z) noexcept nogil:
    """Codes (-1 = none) -> the multiset index."""
    cdef int t
    if y > x:
        t = x; x = y; y = t
    if z > y:
        t = y; y = z; z = t
        if y > x:
            t = x; x = y; y = t
    return _OV_IDX[(x + 1) * 961 + (y + 1) * 31 + (z + 1)]


cdef void _ov_init() noexcept nogil:
    global _ov_ready
    cdef int i, x, y, z, n = 0
    for i in range(29791):
        _OV_IDX[i] = -1
    for x in range(-1, OV_CODES):
        for y in range(-1, x + 1 if x >= 0 else 0):
            for z in range(-1, y + 1 if y >= 0 else 0):
                _OV_IDX[(x + 1) * 961 + (y + 1) * 31 + (z + 1)] = n
                _OV_N[n] = (x >= 0) + (y >= 0) + (z >= 0)
                _OV_RUN[n][0] = x if x >= 0 else 0
                _OV_RUN[n][1] = y if y >= 0 else 0
                _OV_RUN[n][2] = z if z >= 0 else 0
                n += 1
    for i in range(OV_ST):
        _ov_val[0][i] = RX_NEG
        _ov_val[1][i] = RX_NEG
    _ov_nact[0] = 0
    _ov_nact[1] = 0
    _ov_ready = 1


cdef inline void _ov_put(int layer, int ms, int j, int w, int a, int v) noexcept nogil:
    cdef int i = ((ms * 4 + j) * RX_W + w) * 3 + a
    if _ov_val[layer][i] == RX_NEG:
        _ov_act[layer][_ov_nact[layer]] = i
        _ov_nact[layer] += 1
        _ov_val[layer][i] = v
    elif v > _ov_val[layer][i]:
        _ov_val[layer][i] = v


cdef int _suit_runs_ov(const kz_laydown *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The overlapping_runs runs DP's one suit (no ace_wrap; CR-3, CR-5, CR-10 option):
    out[r][w] as :func:`_suit_runs`, below the lay-down in progress of st.  Positions 1..14
    left to right; the state is the multiset of the suit's open runs (each: cards 0..4+,
    wilds 0..2, began at position 1), the fresh runs begun, the pool wilds used and the low
    Aces used (position 14 has the rest).  At a position each open run stops (4+ cards) or
    takes a natural or a wild (a natural 2 in its place: a pool card, no cap, CR-2); fresh
    runs begin (first positions at or after the CR-10 order's last, up to 11) only where
    no run stopped just before: two runs of one suit may overlap but never continue one
    another (CR-10, ``kz_runs_join``), nor continue a run laid before (its last position + 1
    is no first position).  The run being laid: its cards so far stand at its first
    positions, it joins the multiset where it goes on.  A run from position 1 stops by 13
    (CR-3).  Bound: 14 positions x the reached states (at most 5,456 multisets x 4 x 13 x 3)
    x at most 27 x 10 moves each."""
    cdef const uint8_t *h = st.hand[0]
    cdef int nb = CBOOKS[st.round], m, qb = 1, q0 = -1, ocode = -1, q, cur = 0, nx, i, idx, v
    cdef int ms, j, w, a, n, k, avail, two, vn, vw = 20 * RX_CARD + 1, lo_ok
    cdef int rc[3]
    cdef int nc[6]
    cdef int ch[3]
    cdef int combo, ncombo, bad, nn, nw, ended, t, tn, tmax, x, c, l, f, nv, nw2, na, nms, jj
    cdef uint8_t forbid[16]
    cdef const Meld *md
    if not _ov_ready:
        _ov_init()
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    memset(forbid, 0, sizeof(forbid))
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k):
            md = &st.melds[m]
            if md.suit == s:
                forbid[md.lo + md.n] = 1        # would continue that run (CR-10)
                qb = md.lo                      # CR-10 order: fresh runs begin here or later
        if st.gd_open and st.gd_k >= nb and st.melds[st.gd_k].suit == s:
            md = &st.melds[st.gd_k]
            qb = md.lo
            q0 = md.lo + md.n
            ocode = ((md.n if md.n < 4 else 4) * 3 + md.wilds) * 2 + (1 if md.lo == 1 else 0)
    _ov_nact[0] = 0
    _ov_put(0, 0, 0, 0, 0, 0)
    for q in range(qb, 16):
        if q == q0 or (q == 15 and q0 == 15):
            # the run being laid goes on here: into every state's multiset
            nx = 1 - cur
            _ov_nact[nx] = 0
            for i in range(_ov_nact[cur]):
                idx = _ov_act[cur][i]
                v = _ov_val[cur][idx]
                _ov_val[cur][idx] = RX_NEG
                a = idx % 3
                w = (idx // 3) % RX_W
                j = (idx // (3 * RX_W)) % 4
                ms = idx // (3 * RX_W * 4)
                n = _OV_N[ms]
                if n >= 3:
                    continue
                rc[0] = -1
                rc[1] = -1
                if n > 0:
                    rc[0] = _OV_RUN[ms][0]
                if n > 1:
                    rc[1] = _OV_RUN[ms][1]
                _ov_put(nx, _ov_key(rc[0], rc[1], ocode), j, w, a, v)
            cur = nx
        if q == 15:
            break
        k = nat_kind(s, q)
        two = is_two(k)
        vn = POINTS[k] * RX_CARD + 1
        lo_ok = q >= qb and q <= 11 and not forbid[q]
        nx = 1 - cur
        _ov_nact[nx] = 0
        for i in range(_ov_nact[cur]):
            idx = _ov_act[cur][i]
            v = _ov_val[cur][idx]
            _ov_val[cur][idx] = RX_NEG
            a = idx % 3
            w = (idx // 3) % RX_W
            j = (idx // (3 * RX_W)) % 4
            ms = idx // (3 * RX_W * 4)
            n = _OV_N[ms]
            avail = h[k] - (a if q == 14 else 0)
            ncombo = 1
            for x in range(n):
                rc[x] = _OV_RUN[ms][x]
                ncombo *= 3
            for combo in range(ncombo):
                t = combo
                bad = 0
                nn = 0
                nw = 0
                ended = 0
                for x in range(n):
                    ch[x] = t % 3
                    t //= 3
                    l = rc[x] // 6
                    c = (rc[x] // 2) % 3
                    f = rc[x] & 1
                    if ch[x] == 0:
                        if l < 4:
                            bad = 1
                        ended = 1
                    else:
                        if q == 14 and f:
                            bad = 1                 # a run from the low Ace stops at K (CR-3)
                        if ch[x] == 1:
                            nn += 1
                        elif c >= 2:
                            bad = 1
                        else:
                            nw += 1
                if bad or nn > avail:
                    continue
                tmax = 0
                if lo_ok and not ended:
                    tmax = R - j
                    if tmax > 3 - (nn + nw):
                        tmax = 3 - (nn + nw)
                for t in range(tmax + 1):
                    for tn in range(t + 1):             # fresh runs taking a natural
                        if nn + tn > avail:
                            break
                        na = nn + tn
                        nw2 = w + nw + (t - tn) + (na if two else 0)
                        if nw2 > W:
                            continue
                        nv = v + na * vn + (nw + t - tn) * vw
                        # the new multiset
                        jj = 0
                        for x in range(n):
                            if ch[x]:
                                l = rc[x] // 6
                                c = (rc[x] // 2) % 3 + (1 if ch[x] == 2 else 0)
                                nc[jj] = (((l + 1) if l < 4 else 4) * 3 + c) * 2 + (rc[x] & 1)
                                jj += 1
                        for x in range(t):
                            nc[jj] = (1 * 3 + (0 if x < tn else 1)) * 2 + (1 if q == 1 else 0)
                            jj += 1
                        nc[jj] = -1
                        nc[jj + 1] = -1
                        nc[jj + 2] = -1
                        nms = _ov_key(nc[0], nc[1], nc[2])
                        _ov_put(nx, nms, j + t, nw2, na if q == 1 else a, nv)
        cur = nx
    for i in range(_ov_nact[cur]):
        idx = _ov_act[cur][i]
        v = _ov_val[cur][idx]
        _ov_val[cur][idx] = RX_NEG
        w = (idx // 3) % RX_W
        j = (idx // (3 * RX_W)) % 4
        ms = idx // (3 * RX_W * 4)
        n = _OV_N[ms]
        bad = 0
        for x in range(n):
            if _OV_RUN[ms][x] // 6 < 4:
                bad = 1
        if not bad and v > out[j][w]:
            out[j][w] = v
    _ov_nact[cur] = 0
    return 0



cdef int _runs_rest(const kz_laydown *st) noexcept nogil:
    """The best value (points * RX_CARD + cards) seat 0 can still lay from st when only runs
    are left to lay (st.gd_k >= the contract's books): the run being laid and the fresh runs
    after it, exactly (:func:`_suit_runs`, with ace_wrap :func:`_suit_runs_wrap`, with
    overlapping_runs and 2+ runs :func:`_suit_runs_ov`, with both :func:`_suit_runs_ovw`;
    suits joined by the pool wilds each uses); -1 when the lay-down
    cannot be completed.  Polynomial: O(4 x 14 x 4 x 13 x 5 x 3 x 4 + 4 x 4^2 x 13^2) steps,
    with ace_wrap O(4 x 13 x 13 x 4 x 13 x 5 x 3 x 2 + 4 x 4^2 x 13^2)."""
    cdef const uint8_t *h = st.hand[0]
    cdef int W = h[JK] + h[1] + h[14] + h[27] + h[40]
    cdef int one[4][RX_W]
    cdef int acc[4][RX_W]
    cdef int tmp[4][RX_W]
    cdef int s, r, w, r2, w2, best, R, s_last = -1, lo_next = 1, k, nb = CBOOKS[st.round]
    cdef int open_l = -1, open_cw = 0, open_lo1 = 0, force = 0
    cdef const Meld *md
    if st.phase != PH_BUILD:
        return 0
    R = CRUNS[st.round] - (st.gd_k - nb)
    if st.gd_open:
        md = &st.melds[st.gd_k]
        R -= 1
        s_last = md.suit
        lo_next = md.lo + md.n
        open_l = md.n
        open_cw = md.wilds
        open_lo1 = md.lo == 1
        force = md.n == 0
    elif st.gd_k > nb:
        md = &st.melds[st.gd_k - 1]
        s_last = md.suit
        lo_next = md.lo + md.n + 1
    if W > RX_W - 1:
        W = RX_W - 1
    for r in range(4):
        for w in range(RX_W):
            acc[r][w] = RX_NEG
    acc[0][0] = 0
    for s in range(4):
        if s < s_last:
            continue                            # CR-10 order: no run of this suit any more
        if st.opt_overlap and CRUNS[st.round] >= 2 and st.opt_wrap:
            _suit_runs_ovw(st, s, R, W, one)
        elif st.opt_overlap and CRUNS[st.round] >= 2:
            _suit_runs_ov(st, s, R, W, one)
        elif st.opt_wrap:
            _suit_runs_wrap(st, s, R, W, one)
        elif s == s_last and open_l >= 0:
            _suit_runs(h, s, 1, R, W, one, lo_next, open_l, open_cw, open_lo1, force)
        else:
            _suit_runs(h, s, lo_next if s == s_last else 1, R, W, one, 1, -1, 0, 0, 0)
        for r in range(R + 1):
            for w in range(W + 1):
                tmp[r][w] = RX_NEG
        for r in range(R + 1):
            for w in range(W + 1):
                if acc[r][w] == RX_NEG:
                    continue
                for r2 in range(R + 1 - r):
                    for w2 in range(W + 1 - w):
                        if one[r2][w2] != RX_NEG and acc[r][w] + one[r2][w2] > tmp[r + r2][w + w2]:
                            tmp[r + r2][w + w2] = acc[r][w] + one[r2][w2]
        for r in range(R + 1):
            for w in range(W + 1):
                acc[r][w] = tmp[r][w]
    best = -1
    for w in range(W + 1):
        if acc[R][w] > best:
            best = acc[R][w]
    return best
