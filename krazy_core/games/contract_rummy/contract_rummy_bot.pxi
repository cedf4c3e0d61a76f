# Included by core.pyx: the C heuristic behind HeuristicBot (GameOps
# heuristic_action).  Reads only the acting player's hand and public facts.

cdef int card_value(const CRState *st, int p, int k) noexcept nogil:
    """How much seat p wants card kind k for the round's contract (higher = keep)."""
    cdef int v = 0, r, s, d, j, q, nb = CBOOKS[st.round], nr = CRUNS[st.round]
    if k == JK or is_two(k):
        return 100
    r = kind_rank(k)
    s = k // 13
    if nb > 0:
        for j in range(4):
            v += 12 * st.hand[p][j * 13 + r - 1]
        v -= 12 * (1 if st.hand[p][k] > 0 else 0)      # itself (one copy)
        v += 12 * (st.hand[p][k] - 1 if st.hand[p][k] > 1 else 0)
    if nr > 0:
        for d in range(-3, 4):
            if d == 0:
                continue
            q = r + d
            if q < 1 or q > 14:
                continue
            if st.hand[p][s * 13 + pos_rank(q) - 1]:
                v += 8 if (d == 1 or d == -1) else (5 if (d == 2 or d == -2) else 2)
    return v

cdef int lays_off_anywhere(const CRState *st, int p, int k) noexcept nogil:
    cdef int m
    for m in range(st.num_players * 3):
        if st.melds[m].kind == MK_NONE or (m // 3 == p and not st.opt_layoff_own):
            continue
        if ((fits(st, m, 0) | fits(st, m, 1)) >> k) & 1:
            return 1
    return 0

cdef int wants(const CRState *st, int p, int k, int buying) noexcept nogil:
    cdef int v
    if k == JK or is_two(k):
        return (not buying) or st.nhand[p] <= st.round + 10
    if st.down[p]:
        return lays_off_anywhere(st, p, k) and not buying
    v = card_value(st, p, k)
    if buying:
        return v >= 24 and st.nhand[p] <= st.round + 9
    return v >= 12

cdef int32_t cr_heuristic(const void *vst, kz_rng *rng) noexcept nogil:
    """HeuristicBot: take or buy the up-card when it is wild or builds toward the contract
    (buying only when it pairs up strongly and the hand is not swollen: the penalty card
    costs points); go down as soon as it can, laying every card it can into the contract;
    lay off everything it can (naturals first); swap naturals for wilds; discard the card
    least useful to it (pairs and run neighbours for the contract, points held) and to the
    next player (a card the next player could lay off is kept back)."""
    cdef const CRState *st = <const CRState *>vst
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n = cr_legal_actions(vst, acts), i, a, p = st.cur, k, best_a = -1, nxt
    cdef double sc, best = -1e18
    if n == 0:
        return -1
    if st.phase == PH_FIRST or st.phase == PH_TAKE or st.phase == PH_BUY:
        k = st.discard[st.n_discard - 1]
        if wants(st, p, k, st.phase == PH_BUY):
            return acts[0]
        return acts[1]
    if st.phase == PH_BUILD:
        for i in range(n):
            a = acts[i]
            if a < A_RUN:
                k = a - A_ADD
                if not st.gd_open:
                    sc = 50 + card_value(st, p, k)
                elif wildcard(k) and not (st.melds[p * 3 + st.gd_k].kind == MK_BOOK
                                          and book_natural(st.melds[p * 3 + st.gd_k].rank, k)) \
                        and not (st.melds[p * 3 + st.gd_k].kind == MK_RUN
                                 and run_natural(st.melds[p * 3 + st.gd_k].suit,
                                                 st.melds[p * 3 + st.gd_k].lo + st.melds[p * 3 + st.gd_k].n, k)):
                    sc = 40
                else:
                    sc = 60
            elif a < A_FINISH:
                k = 0
                for nxt in range(4):
                    if st.hand[p][nat_kind((a - A_RUN) // 13, (a - A_RUN) % 13 + 1 + nxt)]:
                        k += 1
                sc = 30 + k
            else:
                sc = 35
            if sc > best:
                best = sc
                best_a = a
        return best_a
    # PH_MAIN
    nxt = (p + 1) % st.num_players
    for i in range(n):
        a = acts[i]
        if a == A_GO_DOWN:
            return a
    for i in range(n):
        a = acts[i]
        if A_LAYOFF <= a < A_SWAP and not wildcard((a - A_LAYOFF) // 2 // MAXM):
            return a
    for i in range(n):
        a = acts[i]
        if A_SWAP <= a < A_KEEP:
            return a
    for i in range(n):
        a = acts[i]
        if A_LAYOFF <= a < A_SWAP:
            return a
    for i in range(n):
        a = acts[i]
        if a >= NK:
            continue
        sc = -card_value(st, p, a) + POINTS[a] * 0.5
        if st.hand[p][a] > 1 and CBOOKS[st.round] == 0:
            sc += 6                                          # a duplicate is useless in runs
        if st.down[nxt] and lays_off_anywhere(st, nxt, a):
            sc -= 30                                         # don't feed the next player
        sc += 0.001 * kz_bounded(rng, 100)
        if sc > best:
            best = sc
            best_a = a
    if best_a < 0:
        best_a = acts[n - 1]
    return best_a
