# The quick necessary tests for laying every card down (included by free.pyx: the
# search prunes with the runs-of-3 table).

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
