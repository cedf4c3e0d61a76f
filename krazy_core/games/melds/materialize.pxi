# The free solver's lay-down of the best arrangement it found (included by free.pyx:
# it reads the search's private context).

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
