# Krazy Kings: determinization under the public inference (GameOps determinize): deal each
# constrained seat its cards outside S_p, the stock from stock_from, repair what cannot hold.
#
# Included by core.pyx (textually: one C unit with it).

cdef void _deal_pool(KKState *st, int player, const uint8_t *pool, const int *cnt) noexcept nogil:
    cdef int p, i, k = 0
    for p in range(st.num_players):
        if p == player:
            continue
        st.hand[p] = 0
        for i in range(cnt[p]):
            add_card(st, p, pool[k])
            k += 1
    for i in range(st.n_stock):
        st.stock[i] = pool[k + i]

cdef bint _has_inference(const KKState *st, int player, const int *cnt) noexcept nogil:
    cdef int p
    for p in range(st.num_players):
        if p != player and st.inf_n[p] > 0 and cnt[p] > 0:
            return True
    return False

cdef inline bint _card_in(uint64_t mask, uint8_t code) noexcept nogil:
    return (mask >> CODE_TO_IDX[code]) & 1

cdef inline uint64_t _positions(const uint8_t *pidx, int total, uint64_t cards) noexcept nogil:
    """The pool positions (bit i for pool[i], card index pidx[i]) holding a card of `cards`."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(total):
        m |= ((cards >> pidx[i]) & 1) << i
    return m

cdef bint _deal_inferred(KKState *st, int player, uint8_t *pool, int total, const int *cnt,
                         kz_rng *rng, int force_seat, uint64_t force_mask, bint reserve) noexcept nogil:
    """Deal the shuffled unseen cards honouring the public inferences: each constrained seat
    takes its ``inf_n`` cards among the unseen cards outside ``inf_mask``, and the stock,
    when it was rebuilt from public cards (KK-17), takes its cards among ``stock_from``; most
    constrained first (the least slack between the fitting unseen cards and the count
    needed), each in shuffled order.  When too few fit, the rest of that count is dealt
    freely (a hostile or contradictory inference is relaxed, never looped on).  The leftover
    cards are shuffled again and fill the hands' free places, then the stock's.
    With ``force_seat >= 0`` that seat first takes the first card of ``force_mask`` (outside
    its inferred set if it can): the last resort giving the player to act a legal discard.
    With ``reserve``, each takes first the fitting cards no later one could use (for tight
    tables, after the plain deal failed).  Returns whether every inference was met.
    Pool positions are handled as bit sets (``total <= NIDX < 64``): each consumer takes the
    lowest free positions that fit, as a scan in pool order would, without a branch per card."""
    cdef uint8_t rest[NIDX]
    cdef uint8_t pidx[NIDX]          # the card index at each pool position
    cdef int order[MAXP + 1]
    cdef int slack[MAXP + 1]
    cdef int got[MAXP + 1]      # got[MAXP]: the stock
    cdef int cons[MAXP]
    cdef int n_order = 0, p, q, i, j, k, need, m
    cdef uint64_t excl, later, avail, inside
    cdef uint64_t used = 0            # bit i: pool[i] dealt
    cdef uint64_t fits[MAXP + 1]     # the cards each consumer may take
    cdef uint64_t fitpos[MAXP + 1]   # the pool positions holding them
    cdef int r
    cdef bint met = True
    for i in range(total):
        pidx[i] = <uint8_t>CODE_TO_IDX[pool[i]]
    got[MAXP] = 0
    for p in range(MAXP + 1):
        if p < MAXP:
            if p >= st.num_players:
                continue
            got[p] = 0
            cons[p] = 0
            if p == player:
                continue
            st.hand[p] = 0
            need = st.inf_n[p] if st.inf_n[p] < cnt[p] else cnt[p]
            excl = st.inf_mask[p]
        else:
            need = st.n_stock if st.stock_from else 0
            excl = ~st.stock_from
        if need <= 0:
            continue
        fits[p] = ~excl
        fitpos[p] = _positions(pidx, total, fits[p])
        slack[p] = popcount(fitpos[p]) - need
        # insertion by slack, then seat (a public order: no hidden information in it)
        j = n_order
        while j > 0 and slack[order[j - 1]] > slack[p]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = p
        n_order += 1
    if force_seat >= 0 and force_seat != player and cnt[force_seat] > 0:
        # the first card of force_mask outside the seat's inferred set, else the first one
        avail = _positions(pidx, total, force_mask)
        if avail:
            inside = _positions(pidx, total, st.inf_mask[force_seat])
            i = __builtin_ctzll(avail & ~inside if avail & ~inside else avail)
            used |= 1ULL << i
            add_card(st, force_seat, pool[i])
            got[force_seat] = 1
            cons[force_seat] = 0 if (inside >> i) & 1 else 1
    for q in range(n_order):
        p = order[q]
        later = 0
        if reserve:
            for j in range(q + 1, n_order):
                later |= fits[order[j]]
        for r in range(2 if reserve else 1):
            if reserve and r == 0:
                avail = _positions(pidx, total, fits[p] & ~later) & ~used
            else:
                avail = fitpos[p] & ~used
            if p == MAXP:
                while got[MAXP] < st.n_stock and avail:
                    i = __builtin_ctzll(avail)
                    avail &= avail - 1
                    used |= 1ULL << i
                    st.stock[got[MAXP]] = pool[i]
                    got[MAXP] += 1
                continue
            need = st.inf_n[p] if st.inf_n[p] < cnt[p] else cnt[p]
            while cons[p] < need and got[p] < cnt[p] and avail:
                i = __builtin_ctzll(avail)
                avail &= avail - 1
                used |= 1ULL << i
                add_card(st, p, pool[i])
                got[p] += 1
                cons[p] += 1
        if p == MAXP:
            if got[MAXP] < st.n_stock:
                met = False
        elif cons[p] < (st.inf_n[p] if st.inf_n[p] < cnt[p] else cnt[p]):
            met = False
    m = 0
    avail = ~used & ((1ULL << total) - 1)
    while avail:
        i = __builtin_ctzll(avail)
        avail &= avail - 1
        rest[m] = pool[i]
        m += 1
    kz_shuffle_u8(rng, rest, m)
    k = 0
    for p in range(st.num_players):
        if p == player:
            continue
        while got[p] < cnt[p] and k < m:
            add_card(st, p, rest[k])
            got[p] += 1
            k += 1
    for i in range(got[MAXP], st.n_stock):
        st.stock[i] = rest[k] if k < m else 0
        k += 1
    return met


cdef bint _consistent(const KKState *st, int player) noexcept nogil:
    if st.phase == PH_NONE or st.phase == PH_DIRECTION or st.cur == player:
        return True
    return legal_cards(st) != 0

cdef void _repair(KKState *st, int player, kz_rng *rng) noexcept nogil:
    """Swap one unseen card (another hand's or the stock's) with one of the acting player's
    cards so that they hold a legal discard; hand sizes stay."""
    cdef int q, i, j, cur = st.cur, tries
    cdef uint64_t h, mine
    cdef uint8_t c, mine_code
    for tries in range(2):
        for q in range(st.num_players):
            if q == player or q == cur:
                continue
            h = st.hand[q]
            while h:
                i = __builtin_ctzll(h)
                h &= h - 1
                mine = st.hand[cur]
                j = __builtin_ctzll(mine)
                if i == 53 or (i == 52 and (mine >> 52) & 1):
                    continue
                remove_idx(st, q, i)
                remove_idx(st, cur, j)
                add_card(st, cur, IDX_TO_CODE[i])
                add_card(st, q, IDX_TO_CODE[j])
                if legal_cards(st):
                    return
                remove_idx(st, cur, i)
                remove_idx(st, q, j)
                add_card(st, cur, IDX_TO_CODE[j])
                add_card(st, q, IDX_TO_CODE[i])
        for i in range(st.n_stock):
            mine = st.hand[cur]
            j = __builtin_ctzll(mine)
            c = st.stock[i]
            if CODE_TO_IDX[c] == 52 and (mine >> 52) & 1:
                continue
            mine_code = IDX_TO_CODE[j]
            remove_idx(st, cur, j)
            add_card(st, cur, c)
            st.stock[i] = mine_code
            if legal_cards(st):
                return
            remove_idx(st, cur, CODE_TO_IDX[c])
            add_card(st, cur, mine_code)
            st.stock[i] = c

cdef void kk_determinize(void *vst, int player, kz_rng *rng) noexcept nogil:
    """Deal the cards `player` has not seen (other hands and the stock) again at random,
    keeping every hand size and the public inferences (KK-6 .. KK-19, see the module
    docstring); reseed the state's PRNG (future dice are unknown too).  The result is
    ``untracked``: a world the search plays out, where apply_action no longer updates the
    inference fields (``KrazyKingsState.determinize`` gives back a tracked State)."""
    cdef KKState *st = <KKState *>vst
    cdef uint8_t pool[NIDX]
    cdef int n = 0, p, i, k, c, cnt[MAXP]
    cdef bint constrained, met
    cdef uint64_t force = allowed_mask(st) if st.cur != player else 0   # before hands are cleared
    cdef int tries, jokers = 0
    cdef uint64_t h, unseen = 0
    # the unseen cards in canonical order (ascending codes) before the shuffle, so the
    # result depends only on which cards are unseen (and rng), not on where they lie: search
    # from a state and from any state `player` cannot tell from it determinizes alike (no
    # hidden information leaks).  Card index order is code order, the Jokers last.
    for p in range(st.num_players):
        cnt[p] = 0
        if p == player:
            continue
        h = st.hand[p]
        cnt[p] = popcount(h)
        unseen |= h & ~JOKERS
        jokers += <int>((h >> 52) & 1) + <int>((h >> 53) & 1)
        st.hand[p] = 0
    for i in range(st.n_stock):
        k = CODE_TO_IDX[st.stock[i]]
        if k >= 52:
            jokers += 1
        else:
            unseen |= 1ULL << k
    while unseen:
        pool[n] = IDX_TO_CODE[__builtin_ctzll(unseen)]
        n += 1
        unseen &= unseen - 1
    for i in range(jokers):
        pool[n] = JOKER_CODE
        n += 1
    n -= st.n_stock                   # n: the cards in other hands (the stock's come after)
    # The player to act holds a card matching the pending roll if a decision is pending
    # (the table saw them roll and not draw): a sample must agree, so resample until it does,
    # then, if need be, swap a fitting unseen card into their hand.  Seats with a public
    # inference (inf_n > 0), and a stock rebuilt from public cards, get their constrained
    # cards first (_deal_inferred); a deal that could not meet every inference is resampled
    # too, for the first 32 tries (from the 16th on, reserving cards for later seats).
    # (an untracked state's inference fields are stale: it is dealt freely)
    constrained = not st.untracked and (_has_inference(st, player, cnt) or st.stock_from != 0)
    for tries in range(64):
        kz_shuffle_u8(rng, pool, n + st.n_stock)
        met = True
        if constrained:
            met = _deal_inferred(st, player, pool, n + st.n_stock, cnt, rng, -1, 0, tries >= 16)
        else:
            _deal_pool(st, player, pool, cnt)
        if _consistent(st, player) and (met or tries >= 32):
            break
    if not _consistent(st, player) and constrained:
        kz_shuffle_u8(rng, pool, n + st.n_stock)
        _deal_inferred(st, player, pool, n + st.n_stock, cnt, rng, st.cur, force, True)
    if not _consistent(st, player):
        _repair(st, player, rng)
    kk_redraw(st, rng)
    st.untracked = 1                  # only determinize reads inferences: stop updating them
    st.playable = legal_cards(st)     # the hand to act may be another now


# ------------------------------------------------------------------ belief weighting
# The opponent model behind ops.belief_logweight: a seat is either "heuristic-like" (it
# discards by HeuristicBot's score, softened: a softmax of BEL_BETA times the score, mixed
# with BEL_EPS of uniform) or "random" (uniform over its legal discards), each with prior
# probability one half.  A world's weight is, per opponent, the likelihood of its recorded
# discards under that mixture of the two; the pool of worlds a search draws estimates, in
# effect, which of the two the seat is (a random player's discards fit the heuristic's
# worlds no better than others).
cdef double BEL_BETA = 4.0     # inverse temperature of the heuristic-like choice (score points)
cdef double BEL_EPS = 0.05     # the heuristic-like seat's share of uniformly random discards
cdef double BEL_PRIOR = 0.5    # prior probability that a seat is heuristic-like

cdef double kk_seat_loglik(const KKState *st, int p, double *log_heur, double *log_unif) noexcept nogil:
    """The log likelihoods of seat p's recorded discards given its hand in ``st``, under
    the heuristic-like and the random model (to *log_heur, *log_unif); returns the log of
    their BEL_PRIOR mixture.  The hand at each recorded decision is the hand now plus the
    cards discarded since, less the cards drawn since (draw records: which of the hand's
    cards they were is drawn at random, from a copy of the world's generator)."""
    cdef uint64_t h = st.hand[p], r, legal, m
    cdef int j, card, phase, n, c, nxt, min_opp, k
    cdef double lh = 0.0, lu = 0.0, mx, z, sc, s_card, a, b
    cdef double scores[NIDX]
    cdef uint8_t pos[NIDX]
    cdef kz_rng rng                    # which cards a draw brought: seeded from the world's
    kz_rng_seed(&rng, st.rng.s[0] ^ st.rng.s[1] ^ st.rng.s[2] ^ st.rng.s[3])   # words, never drawn from them
    for j in range(st.bel_n[p] - 1, -1, -1):
        r = st.bel_rec[p][j]
        card = bel_field(r, BEL_CARD, 6)
        if bel_field(r, BEL_PHASE, 3) == 0:
            # a draw of `card` cards: before it the hand lacked them, which of its cards they
            # were is unseen, so k of them leave it uniformly at random (the stock's cards
            # are alike to the reader; a partial Fisher-Yates over the hand's bits)
            n = 0
            m = h
            while m:
                pos[n] = <uint8_t>__builtin_ctzll(m)
                m &= m - 1
                n += 1
            if card >= n:
                h = 0
                continue
            for k in range(card):
                c = k + <int>kz_bounded(&rng, <uint32_t>(n - k))
                pos[k], pos[c] = pos[c], pos[k]
                h &= ~(1ULL << pos[k])
            if (h >> 53) & 1 and not (h >> 52) & 1:          # one Joker left: bit 52
                h ^= (1ULL << 53) | (1ULL << 52)
            continue
        if card >= 52:
            h |= (1ULL << 53) if (h >> 52) & 1 else (1ULL << 52)
        else:
            h |= 1ULL << card
        phase = bel_field(r, BEL_PHASE, 3)
        legal = hand_choices(decision_cards(phase, bel_field(r, BEL_D1, 3), bel_field(r, BEL_D2, 3),
                                            bel_field(r, BEL_TOP, 6)), h)   # KK-6 .. KK-15
        n = popcount(legal)
        if n <= 1 or not (legal >> card) & 1:
            continue                                         # no choice (or not this world's)
        nxt = bel_field(r, BEL_NEXT, 6)
        min_opp = bel_field(r, BEL_MINOPP, 6)
        mx = -1e300
        m = legal
        n = 0
        while m:
            c = __builtin_ctzll(m)
            m &= m - 1
            sc = heuristic_score(phase, c, h, nxt, min_opp)
            scores[n] = sc
            n += 1
            if sc > mx:
                mx = sc
        z = 0.0
        for c in range(n):
            z += exp(BEL_BETA * (scores[c] - mx))
        s_card = heuristic_score(phase, card, h, nxt, min_opp)
        lh += log((1.0 - BEL_EPS) * exp(BEL_BETA * (s_card - mx)) / z + BEL_EPS / n)
        lu -= log(<double>n)
    log_heur[0] = lh
    log_unif[0] = lu
    a = log(BEL_PRIOR) + lh
    b = log(1.0 - BEL_PRIOR) + lu
    if a < b:
        a, b = b, a
    return a + log1p(exp(b - a))

cdef double kk_belief_logweight(const void *vst, int player, double *seat_loglik) noexcept nogil:
    """ops.belief_logweight: the log likelihood of every other seat's recorded discards
    (bel_rec) in the world ``vst`` (kk_seat_loglik), summed over the seats; each seat's
    under the heuristic-like and the random kind to seat_loglik[2 p], [2 p + 1]."""
    cdef const KKState *st = <const KKState *>vst
    cdef double total = 0.0, lh, lu
    cdef int p
    for p in range(st.num_players):
        lh = lu = 0.0
        if p != player and st.bel_n[p] > 0:
            total += kk_seat_loglik(st, p, &lh, &lu)
        if seat_loglik != NULL:
            seat_loglik[2 * p] = lh
            seat_loglik[2 * p + 1] = lu
    return total

cdef void kk_redraw(void *vst, kz_rng *rng) noexcept nogil:
    """ops.redraw: the world's future dice and shuffles drawn anew from rng."""
    cdef KKState *st = <KKState *>vst
    st.rng.s[0] = rng.s[0] ^ 0x9E3779B97F4A7C15ULL
    kz_rng_seed(&st.rng, rng.s[1] ^ rng.s[3] ^ <uint64_t>kz_bounded(rng, 0xFFFFFFFFU))
