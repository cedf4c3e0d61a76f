# Crazy Rummy: determinization (GameOps determinize, through cr_determinize_playable in
# core.pyx): deal again the cards the player has not seen.
#
# Included by core.pyx (textually: one C unit with it).

cdef void cr_determinize(void *vst, int player, kz_rng *rng) noexcept nogil:
    """Deal again, at random, the cards `player` has not seen: the stock and the unknown
    part of every other hand (cards seen taken stay where they are); hand sizes kept.
    The state's PRNG is reseeded (future shuffles are unknown too)."""
    cdef CRState *st = <CRState *>vst
    cdef uint8_t pool_[NCARDS]
    cdef int n = 0, p, k, j, need[MAXP]
    cdef int tally[NK]
    for p in range(st.num_players):
        need[p] = 0
        if p == player:
            continue
        for k in range(NK):
            j = st.hand[p][k] - st.known[p][k]
            while j > 0:
                pool_[n] = k
                n += 1
                j -= 1
                need[p] += 1
            st.hand[p][k] = st.known[p][k]
        st.nhand[p] -= need[p]
    for j in range(st.n_stock):
        pool_[n + j] = st.stock[j]
    # sort the unseen cards first (counting sort by kind): a sample then depends only on
    # what `player` knows, never on the hidden order of the stock
    n += st.n_stock
    memset(tally, 0, sizeof(tally))
    for j in range(n):
        tally[pool_[j]] += 1
    j = 0
    for k in range(NK):
        while tally[k] > 0:
            pool_[j] = k
            j += 1
            tally[k] -= 1
    n -= st.n_stock
    kz_shuffle_u8(rng, pool_, n + st.n_stock)
    j = 0
    for p in range(st.num_players):
        if p == player:
            continue
        for k in range(need[p]):
            add_card(st, p, pool_[j])
            j += 1
    for k in range(st.n_stock):
        st.stock[k] = pool_[j + k]
    kz_rng_seed(&st.rng, rng.s[1] ^ rng.s[3] ^ <uint64_t>kz_bounded(rng, 0xFFFFFFFFU))
