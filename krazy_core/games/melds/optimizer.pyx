# cython: language_level=3
"""The exact optimizer for contract lay-downs (CR-10, moved from ``contract_rummy/state.pyx``):
the lay-down of a contract of CR-4 that lays the most points, then the most cards, and of
those the least (sorted melds, leftover) -- by DPs from RX_MIN cards (the books DP, the runs
DPs of ``runs.pyx``, the mixed books-and-runs search), by a branch and bound over the CR-10
lay-down sequence (``laydown.pxd``) below.  No callback, no step budget, no import-time
wiring.  The method and its bounds: the package docstring."""
from libc.string cimport memset, memcpy
from libc.stdint cimport int32_t, uint8_t, uint32_t

from krazy_core.games.melds.laydown cimport *
from krazy_core.games.melds.runs cimport _runs_rest
from krazy_core.games.melds.rules cimport kz_meld_rules, kz_rules_crazy, KZ_MELD_MAX_HAND
from krazy_core.games.melds.free cimport kz_meld_contract
from krazy_core.games.melds.runs_ovw import _ow_raise
from krazy_core.cards import format_card



cdef inline tuple _laydown_of(const kz_laydown *leaf):
    return ld_laydown_of(leaf.melds, nmelds(leaf.round), leaf.hand[0])


cdef int _hand_value(const kz_laydown *st, int *ncards) noexcept nogil:
    """CR-15 points of seat 0's hand; its cards into *ncards."""
    cdef int k, pts = 0, n = 0
    for k in range(NK):
        pts += st.hand[0][k] * POINTS[k]
        n += st.hand[0][k]
    ncards[0] = n
    return pts


cdef enum:
    BB_SOLVER_MAX = 24          # hands up to this many cards get the shared solver's bound
    BB_SOLVER_MIN = 17          # ... from this many (smaller hands: the plain search is faster)


cdef int _books_value(const uint8_t *h, int nb) noexcept nogil:
    """Books only (rounds 1 and 4, CR-4): the best value (points * RX_CARD + cards, CR-15)
    ``nb`` books can lay from the counts ``h``, -1 when they cannot (CR-2, CR-5: 3+ cards
    of one rank, at most 1 wild; in a book of 2s the 2s are natural and only a Joker is
    wild).  A book's rank holds all its naturals in an optimal lay-down (one more natural
    is never worse), so it is a DP over the ranks other than 2: k = 0..3 books of rank r
    (2k <= its naturals n; they need max(0, 3k - n) wilds, and have k wild places),
    counting books and wilds needed; then k2 books of 2s (3k2 cards, at most k2 Jokers, all
    the 2s they can take) and the pool: every 2 lies when there is a book of 2s, the
    Jokers up to the wild places.  O(12 x 4 x 4 x 13 x 4) steps."""
    cdef int J = h[JK], T2 = h[1] + h[14] + h[27] + h[40], P, r, s, k, n, val, b, d, D, k2, v, laid
    cdef int best[4][14]
    cdef int nxt[4][14]
    cdef int res = -1
    P = J + T2
    for b in range(4):
        for D in range(14):
            best[b][D] = RX_NEG
    best[0][0] = 0
    for r in range(1, 14):
        if r == 2:
            continue
        n = 0
        val = 0
        for s in range(4):
            k = s * 13 + r - 1
            n += h[k]
            val += h[k] * (POINTS[k] * RX_CARD + 1)
        for b in range(4):
            for D in range(14):
                nxt[b][D] = best[b][D]
        for k in range(1, 4):
            if n < 2 * k:
                break
            d = 3 * k - n if 3 * k > n else 0
            for b in range(nb - k + 1):
                for D in range(P - d + 1):
                    if best[b][D] != RX_NEG and best[b][D] + val > nxt[b + k][D + d]:
                        nxt[b + k][D + d] = best[b][D] + val
        for b in range(4):
            for D in range(14):
                best[b][D] = nxt[b][D]
    for k2 in range(nb + 1):
        b = nb - k2
        if k2:
            if 3 * k2 - (k2 if k2 < J else J) > T2:
                continue
            laid = T2 + (J if J < b + k2 else b + k2)
            d = P - 3 * k2
        else:
            laid = P if P < b else b
            d = P
        for D in range(d + 1 if d < 13 else 14):
            v = best[b][D]
            if v != RX_NEG and v + laid * (20 * RX_CARD + 1) > res:
                res = v + laid * (20 * RX_CARD + 1)
    return res


cdef list _book_candidates(const uint8_t *h):
    """Every book the counts ``h`` can make, as its cards' codes in laying order (naturals by
    kind, then the wild), ascending: the order of best_arrangement's key."""
    cdef int r, s, a0, a1, a2, a3, k, w
    out = []
    for r in range(1, 14):
        ks = [s * 13 + r - 1 for s in range(4)]
        wilds = [JK] if r == 2 else [1, 14, 27, 40, JK]
        for a0 in range(h[ks[0]] + 1):
            for a1 in range(h[ks[1]] + 1):
                for a2 in range(h[ks[2]] + 1):
                    for a3 in range(h[ks[3]] + 1):
                        nat = ([KIND_CODE[ks[0]]] * a0 + [KIND_CODE[ks[1]]] * a1 +
                               [KIND_CODE[ks[2]]] * a2 + [KIND_CODE[ks[3]]] * a3)
                        if len(nat) >= 3:
                            out.append(tuple(nat))
                        if len(nat) >= 2:
                            for w in wilds:
                                if h[w]:
                                    out.append(tuple(nat) + (KIND_CODE[w],))
    out.sort()
    return out


cdef object _books_walk(uint8_t *h, int nb):
    """Books only: the least key (books sorted by their cards) of the lay-downs laying
    :func:`_books_value`: book by book, the least candidate (:func:`_book_candidates`) that
    some best lay-down holds (its value plus the best of the rest is the best).  None when
    the hand has no ``nb`` books.  At most nb x 13 x 3^4 x 6 candidates, each one DP."""
    cdef int target = _books_value(h, nb), i, v, val
    if target < 0:
        return None
    lay = []
    for i in range(nb):
        found = None
        for cand in _book_candidates(h):
            val = 0
            for c in cand:
                h[CODE_KIND[c]] -= 1
                val += POINTS[CODE_KIND[c]] * RX_CARD + 1
            v = _books_value(h, nb - i - 1)
            if v >= 0 and val + v == target:
                found = cand
                target = v
                break
            for c in cand:
                h[CODE_KIND[c]] += 1
        if found is None:
            raise AssertionError("best_arrangement: the books DP found no book")
        lay.append(("book", -1, 0, found))
    return lay



cdef int _fresh_ub(const kz_laydown *st, int first, const kz_meld_rules *rules, int use_solver) noexcept nogil:
    """An upper bound on the points the contract's melds ``first``.. (not yet begun) can lay
    from seat 0's hand: the shared solver's fewest points left for that many books and runs
    (``kz_meld_contract``, which knows no join rule: a relaxation); -1 when even that has
    none.  Hands over BB_SOLVER_MAX cards, or use_solver 0: every card's points (no bound)."""
    cdef int nb = CBOOKS[st.round], nr = CRUNS[st.round], books, runs, k, c, n = 0, pts
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    books = nb - first if nb > first else 0
    runs = nr - (first - nb if first > nb else 0)
    if runs < 0:
        runs = 0
    pts = _hand_value(st, &n)
    if books == 0 and runs == 0:
        return 0
    if n > BB_SOLVER_MAX or not use_solver:
        return pts
    n = 0
    for k in range(NK):
        for c in range(st.hand[0][k]):
            buf[n] = KIND_CODE[k]
            n += 1
    c = kz_meld_contract(rules, buf, n, books, runs, NULL)
    if c < 0:
        return -1
    return pts - c


cdef int _open_ub(const kz_laydown *st, int *cards) noexcept nogil:
    """An upper bound on the points (and in *cards the cards) the open meld can still take:
    a book its rank's naturals from the last kind laid on and one wild; a run the positions
    up to its (free wilds + 1)-th gap, each natural's points, plus 20 per free wild."""
    cdef const Meld *md = &st.melds[st.gd_k]
    cdef int wilds = st.hand[0][JK] + st.hand[0][1] + st.hand[0][14] + st.hand[0][27] + st.hand[0][40]
    cdef int pts = 0, c = 0, s, k, b, room, i, miss = 0, walked = 0
    if md.kind == MK_BOOK:
        if st.gd_last < NO_NAT:
            for s in range(4):
                k = s * 13 + md.rank - 1
                if k >= st.gd_last:
                    pts += st.hand[0][k] * POINTS[k]
                    c += st.hand[0][k]
        if md.wilds == 0 and (st.hand[0][JK] > 0 if md.rank == 2 else wilds > 0):
            pts += 20
            c += 1
        cards[0] = c
        return pts
    b = 2 - md.wilds
    if b > wilds:
        b = wilds
    room = 13 - md.n
    if room > pos_hi(st.opt_wrap) - (md.lo + md.n) + 1:
        room = pos_hi(st.opt_wrap) - (md.lo + md.n) + 1
    for i in range(room):
        k = nat_kind(md.suit, md.lo + md.n + i)
        if st.hand[0][k] > 0:
            pts += POINTS[k]
        else:
            miss += 1
            if miss > b:
                break
        walked += 1
    cards[0] = walked
    return pts + 20 * b


cdef class _Best:
    cdef int pts0, n0, best_p, best_c, use_solver, exact
    cdef object key
    cdef kz_meld_rules rules


cdef int _record(kz_laydown *leaf, _Best X) except -1:
    """A finished lay-down: keep it in X when it lays more (points, then cards) or as much
    with a lesser key (sorted melds, leftover)."""
    cdef int rem_n = 0, rem_p, lp, ln
    rem_p = _hand_value(leaf, &rem_n)
    lp = X.pts0 - rem_p
    ln = X.n0 - rem_n
    if lp > X.best_p or (lp == X.best_p and ln > X.best_c):
        X.best_p = lp
        X.best_c = ln
        lay, left = _laydown_of(leaf)
        X.key = (tuple(sorted(lay)), left)
    elif lp == X.best_p and ln == X.best_c:
        lay, left = _laydown_of(leaf)
        key = (tuple(sorted(lay)), left)
        if key < X.key:
            X.key = key
    return 0


cdef int _walk(const kz_laydown *st, _Best X, int target) except -1:
    """Only runs left below st (any option :func:`_runs_rest` covers): the least-key lay-down
    laying ``target`` (:func:`_runs_rest`'s value, the best) from st, one step at a time.  The
    key orders runs by (suit, first position, cards), the order the CR-10 sequence lays them
    in, so the least key takes at each step the least step that keeps ``target`` reachable:
    finishing the run (a shorter run is less), else the least card code, else the least
    (suit, first position) to start.  O(41 steps x 50 actions) calls of :func:`_runs_rest`."""
    cdef int32_t acts[LD_MAX_ACTS]
    cdef int n, i, j, rest, n0 = 0, n1 = 0, p0, p1, found
    cdef kz_laydown node
    cdef kz_laydown child
    memcpy(&node, st, sizeof(kz_laydown))
    while node.phase == PH_BUILD:
        n = ld_legal_actions(&node, acts)
        p0 = _hand_value(&node, &n0)
        found = 0
        for j in range(n):
            if n and acts[n - 1] == A_FINISH:
                i = n - 1 if j == 0 else j - 1        # finishing first: the shorter run
            else:
                i = j
            memcpy(&child, &node, sizeof(kz_laydown))
            ld_apply(&child, acts[i])
            p1 = _hand_value(&child, &n1)
            rest = _runs_rest(&child)
            if rest >= 0 and (p0 - p1) * RX_CARD + (n0 - n1) + rest == target:
                memcpy(&node, &child, sizeof(kz_laydown))
                target = rest
                found = 1
                break
        if not found:
            raise AssertionError("best_arrangement: the runs DP and the lay-down sequence disagree")
    return _record(&node, X)


cdef int _bb(kz_laydown *st, _Best X, int fub) except -1:
    """Branch and bound over the lay-down sequence below st: the lay-downs laying the most
    points, then the most cards (X.best_p, X.best_c), and of those the least
    (sorted melds, leftover) in X.key.  fub: the bound of the melds after the open one
    (-2: not known yet).  Once only runs are left in a contract of 2 or 3 runs (X.exact):
    their exact value (:func:`_runs_rest`) and the least lay-down reaching it
    (:func:`_walk`), no branching.  (One run left, rounds 2 and 5: the search over one run's
    start, length and wilds is polynomial already, and faster.)"""
    cdef int32_t acts[LD_MAX_ACTS]
    cdef int n, i, rem_n = 0, rem_p, ub_p, ub_c, oc = 0, v
    cdef kz_laydown child
    rem_p = _hand_value(st, &rem_n)
    if X.exact and st.gd_k >= CBOOKS[st.round] and CRUNS[st.round] >= 2:
        v = _runs_rest(st)
        if v < 0:
            return 0
        ub_p = X.pts0 - rem_p + v // RX_CARD
        ub_c = X.n0 - rem_n + v % RX_CARD
        if ub_p < X.best_p or (ub_p == X.best_p and ub_c < X.best_c):
            return 0
        if ub_p == X.best_p and ub_c == X.best_c and CBOOKS[st.round] and X.key is not None:
            # a tie: the key starts with the sorted books, so books not less than the best's
            # cannot give a lesser key (equal books: the same runs below)
            books = tuple(sorted(("book", -1, 0, tuple(ld_meld_dict(&st.melds[k])["cards"]))
                                 for k in range(CBOOKS[st.round])))
            if books >= X.key[0][:CBOOKS[st.round]]:
                return 0
        return _walk(st, X, v)
    if st.gd_open:
        if fub == -2:
            fub = _fresh_ub(st, st.gd_k + 1, &X.rules, X.use_solver)
            if fub < 0:
                return 0
        ub_p = X.pts0 - rem_p + _open_ub(st, &oc) + fub
        ub_c = X.n0
    else:
        fub = _fresh_ub(st, st.gd_k, &X.rules, X.use_solver)
        if fub < 0:
            return 0
        ub_p = X.pts0 - rem_p + fub
        ub_c = X.n0
    if ub_p < X.best_p or (ub_p == X.best_p and ub_c < X.best_c):
        return 0
    n = ld_legal_actions(st, acts)
    for i in range(n):
        memcpy(&child, st, sizeof(kz_laydown))
        ld_apply(&child, acts[i])
        if child.phase == PH_BUILD:
            # a card into the open meld keeps fub; starting or finishing a meld changes it
            _bb(&child, X, fub if (st.gd_open and child.gd_open) else -2)
        else:
            _record(&child, X)
    return 0


cdef int _book_value(tuple cand):
    cdef int v = 0
    for c in cand:
        v += POINTS[CODE_KIND[c]] * RX_CARD + 1
    return v


cdef bint _book_full(const uint8_t *h, tuple books, int wrap, int overlap=0):
    """The mixed rounds' lemma (no overlapping_runs): in a lay-down laying the most
    (points, then cards) every natural of a book's rank lies in a book or a run, and the
    runs hold at most one card of each (suit, rank) (runs of one suit do not share a rank,
    CR-10), so the books leave at most 1 of each natural of their ranks.  Excepted: rank 2
    (a 2 is also a wild in a run, CR-2) and, without ace_wrap, Aces (CR-3: one run of a
    suit may take its Ace low, another high: ``AS AS AH AH AD 2S 3S 4S JS QS KS`` in round
    6 lays all 11 cards only with both AS in runs).  With ace_wrap a suit's runs lie in one
    window of 13 positions.  With overlapping_runs in round 6 (two runs of one suit may share
    a rank, CR-10 option; every card is held at most twice, CR-1) there is no such lemma:
    ``overlap`` 1 checks only that the hand holds the books.  Whether ``books`` (with counts
    ``h`` before them) keep it."""
    cdef int k, r
    cdef int take[NK]
    memset(take, 0, sizeof(take))
    ranks = set()
    for b in books:
        for c in b:
            take[CODE_KIND[c]] += 1
        ranks.add(kind_rank(CODE_KIND[b[0]]))
    for k in range(NK):
        if take[k] > h[k]:
            return 0
    if overlap:
        return 1
    for r in ranks:
        if r == 2 or (r == 1 and not wrap):
            continue
        for k in range(r - 1, 52, 13):
            if h[k] - take[k] > 1:
                return 0
    return 1


cdef int _after_books(const kz_laydown *st0, kz_laydown *node, tuple books) except -1:
    """node = st0 with ``books`` (each a tuple of codes in laying order) laid by the CR-10
    sequence (cr_apply: add the cards, finish), the books in rank order."""
    memcpy(node, st0, sizeof(kz_laydown))
    for b in sorted(books, key=lambda b: kind_rank(CODE_KIND[b[0]])):
        for c in b:
            ld_apply(node, A_ADD + CODE_KIND[c])
        ld_apply(node, A_FINISH)
    return 0


cdef int _set_value(const kz_laydown *st0, tuple books, int bv) except -2:
    """bv (the books' value) plus the runs DP after laying ``books``; -1 when no runs."""
    cdef kz_laydown nd
    cdef int v
    _after_books(st0, &nd, books)
    v = _runs_rest(&nd)
    return v + bv if v >= 0 else -1


cdef object _mixed_best(const kz_laydown *st0, _Best X):
    """Rounds 2, 5 and 6 (books and runs): exact (with overlapping_runs, round 6 every
    book).  Every set of the contract's books that keeps :func:`_book_full` (per book rank
    2^4 choices of the naturals, 6 of the wild; two books: pairs, taken best first by their
    value and cut once
    their value plus the runs DP of the whole hand (a bound: fewer cards lay no more) is
    below the best), each followed by the runs DP (:func:`_runs_rest`); of the best, the
    least sorted books, then the least runs by :func:`_walk`."""
    cdef const uint8_t *h = st0.hand[0]
    cdef int nb = CBOOKS[st0.round], full, best = -1, v, bv, i, j, k, wrap = st0.opt_wrap
    cdef int ov = 1 if st0.opt_overlap and CRUNS[st0.round] >= 2 else 0
    cdef kz_laydown node
    import heapq
    cands = _book_candidates(h)
    memcpy(&node, st0, sizeof(kz_laydown))
    node.gd_k = nb
    full = _runs_rest(&node)
    if full < 0:
        return None
    bestb = None
    if nb == 1:
        L = sorted(((_book_value(c), c) for c in cands if _book_full(h, (c,), wrap, ov)),
                   key=lambda x: (-x[0], x[1]))
        for bv, c in L:
            if bv + full < best:
                break
            if bv + full == best and (c,) >= bestb:
                continue
            v = _set_value(st0, (c,), bv)
            if v > best or (v == best and v >= 0 and (c,) < bestb):
                best = v
                bestb = (c,)
    else:
        # same-rank pairs: explicitly; distinct ranks: pairs of the single books, best first
        singles = sorted(((_book_value(c), c) for c in cands if _book_full(h, (c,), wrap, ov)),
                         key=lambda x: (-x[0], x[1]))
        byrank = {}
        for c in cands:
            byrank.setdefault(kind_rank(CODE_KIND[c[0]]), []).append(c)
        same = []
        for r, cs in byrank.items():
            for i in range(len(cs)):
                for j in range(i, len(cs)):
                    if _book_full(h, (cs[i], cs[j]), wrap, ov):
                        same.append((_book_value(cs[i]) + _book_value(cs[j]), (cs[i], cs[j])))
        same.sort(key=lambda x: (-x[0], x[1]))
        n1 = len(singles)
        heap = [(-2 * singles[0][0], 0, 0)] if n1 else []
        seen = {(0, 0)}
        si = 0
        while True:
            # the next best of the two streams
            top_d = -heap[0][0] if heap else -1
            top_s = same[si][0] if si < len(same) else -1
            if top_d < 0 and top_s < 0:
                break
            if top_s >= top_d:
                bv = top_s
                books = same[si][1]
                si += 1
            else:
                _, i, j = heapq.heappop(heap)
                for a, b in ((i + 1, j), (i, j + 1)):
                    if a <= b < n1 and (a, b) not in seen:
                        seen.add((a, b))
                        heapq.heappush(heap, (-(singles[a][0] + singles[b][0]), a, b))
                bv = singles[i][0] + singles[j][0]
                books = (singles[i][1], singles[j][1])
                if kind_rank(CODE_KIND[books[0][0]]) == kind_rank(CODE_KIND[books[1][0]]):
                    continue                    # same rank: the other stream
                if not _book_full(h, books, wrap, ov):
                    continue
            if bv + full < best:
                break
            if bv + full == best and tuple(sorted(books)) >= bestb:
                continue
            v = _set_value(st0, books, bv)
            key = tuple(sorted(books))
            if v > best or (v == best and v >= 0 and key < bestb):
                best = v
                bestb = key
    if bestb is None:
        return None
    _after_books(st0, &node, bestb)
    v = _runs_rest(&node)
    _walk(&node, X, v)
    return X.key


cdef int _load_counts(codes, uint8_t *cnt) except -1:
    """The counts by kind of a hand of Crazy Rummy card codes (the caller checked them)."""
    cdef int k
    memset(cnt, 0, NK)
    for c in codes:
        k = CODE_KIND[c]
        if k < 0 or cnt[k] == 255:
            raise ValueError(f"{c!r} is not a Crazy Rummy card code")
        cnt[k] += 1
    return 0


def best_laydown(codes, int rnd, ace_wrap, overlapping_runs, as_codes=False, ascii=False, int exact_min=RX_MIN):
    """The lay-down of contract ``rnd`` (1..7, CR-4) that leaves the fewest points (CR-15) in
    hand: ``(melds, leftover, points)`` (melds a list of lists of cards, a run low to high with
    each wild at its place, leftover ascending by code), or ``None`` when the hand cannot lay
    it.  Ties: the fewest cards left, then the least melds (sorted: books, then runs by suit
    and first position, each by its cards' codes).  ``codes``: the hand as card codes (the
    caller checks CR-1); cards out as codes (``as_codes``), ASCII (``ascii``) or with suit
    symbols.  ``exact_min``: the DPs answer from hands of that many cards (tests: 0, every
    hand; 99, never: the plain branch and bound).  Raises ``MemoryError`` when a DP's tables
    could not grow."""
    cdef kz_laydown st
    cdef _Best X
    cdef int n = 0
    cdef uint8_t cnt[NK]
    if not 1 <= rnd <= 7:
        raise ValueError(f"contract must be 1..7 (CR-4), got {rnd!r}")
    _load_counts(codes, cnt)
    ld_init(&st, cnt, rnd, 1 if ace_wrap else 0, 1 if overlapping_runs else 0)
    if not ld_can_lay(&st):
        return None
    X = _Best()
    X.n0 = 0
    X.pts0 = _hand_value(&st, &X.n0)
    f = (lambda c: c) if as_codes else ((lambda c: format_card(c, True)) if ascii else format_card)
    if CRUNS[rnd] == 0 and X.n0 >= exact_min:
        lay = _books_walk(st.hand[0], CBOOKS[rnd])       # books only: exact, no search
        if lay is None:
            raise AssertionError("best_arrangement: the books DP and the going-down check disagree")
        left = ld_codes(st.hand[0])
        pts = _hand_value(&st, &n)
        return ([[f(c) for c in m[3]] for m in lay], [f(c) for c in left], pts)
    # the shared solver's contract mode keeps two runs of one suit apart: a bound only
    # without overlapping_runs (with it, the solver's best can lay less than a lay-down can)
    X.use_solver = 1 if BB_SOLVER_MIN <= X.n0 <= BB_SOLVER_MAX and not overlapping_runs else 0
    # overlapping_runs: the overlap runs DP (with ace_wrap the overlap-with-wrap DP); with
    # one run (rounds 2, 5) the option changes nothing
    X.exact = 1 if X.n0 >= exact_min else 0
    X.best_p = -1
    X.best_c = -1
    X.key = None
    kz_rules_crazy(&X.rules, 1 if ace_wrap else 0)
    if X.exact and CBOOKS[rnd] and CRUNS[rnd]:
        _mixed_best(&st, X)                    # books and runs: exact, no search
        if X.key is None:
            raise AssertionError("best_arrangement: the mixed DP and the going-down check disagree")
    else:
        _bb(&st, X, -2)
    _ow_raise()
    if X.key is None:
        return None
    lay, left = X.key
    pts = X.pts0 - X.best_p
    return ([[f(c) for c in m[3]] for m in lay], [f(c) for c in left], pts)


cdef int _dp_check_rec(kz_laydown *st, list bad, int depth) except -2:
    """Tests: _runs_rest(st) against the best child (laid + _runs_rest(child)) below st,
    every node of the runs phase; the inconsistent nodes into bad.  Returns _runs_rest(st)."""
    cdef int32_t acts[LD_MAX_ACTS]
    cdef int n, i, best = -1, v, p0, p1, n0 = 0, n1 = 0, r
    cdef kz_laydown child
    if st.phase != PH_BUILD:
        return 0
    v = _runs_rest(st) if st.gd_k >= CBOOKS[st.round] else -1
    n = ld_legal_actions(st, acts)
    p0 = _hand_value(st, &n0)
    for i in range(n):
        memcpy(&child, st, sizeof(kz_laydown))
        ld_apply(&child, acts[i])
        p1 = _hand_value(&child, &n1)
        r = _dp_check_rec(&child, bad, depth + 1)
        if r >= 0 and (p0 - p1) * RX_CARD + (n0 - n1) + r > best:
            best = (p0 - p1) * RX_CARD + (n0 - n1) + r
        if len(bad) > 3:
            return v
    if st.gd_k >= CBOOKS[st.round] and best != v:
        bad.append(([ld_meld_dict(&st.melds[k]) for k in range(st.gd_k + (1 if st.gd_open else 0))],
                    ld_codes(st.hand[0]), v, best))
    return v


def _dp_check(codes, int rnd, ace_wrap, overlap=False, book_actions=()):
    """Tests: the runs DP's consistency below the lay-down of ``book_actions`` (lay-down
    step ids, Crazy Rummy's action ids)."""
    cdef kz_laydown st
    cdef uint8_t cnt[NK]
    _load_counts(codes, cnt)
    ld_init(&st, cnt, rnd, 1 if ace_wrap else 0, 1 if overlap else 0)
    for a in book_actions:
        ld_apply(&st, a)
    bad = []
    _dp_check_rec(&st, bad, 0)
    _ow_raise()
    return bad


def _runs_rest_after(codes, int rnd, ace_wrap, overlap=False, actions=()):
    """Tests: :func:`_runs_rest` after the lay-down steps ``actions`` (step ids)."""
    cdef kz_laydown st
    cdef uint8_t cnt[NK]
    _load_counts(codes, cnt)
    ld_init(&st, cnt, rnd, 1 if ace_wrap else 0, 1 if overlap else 0)
    for a in actions:
        ld_apply(&st, a)
    v = _runs_rest(&st)
    _ow_raise()
    return (v // RX_CARD, v % RX_CARD) if v >= 0 else None
