# KrassKariert: determinization (GameOps determinize): deal again what the player has not seen.
#
# Included by core.pyx (textually: one C unit with it).

cdef void ka_determinize(ka_state *s, int player, kz_rng *rng) noexcept nogil:
    """Deals again everything `player` has not seen: the other hands (keeping the cards
    everyone knows are there, the reserves they took) in a new random order, and the draw
    pile (keeping its top card if `player` is drawing it); reseeds the state's PRNG."""
    cdef uint8_t pool[54]
    cdef uint8_t cnt[15]
    cdef uint8_t newh[18]
    cdef int n = s.num_players, q, i, k, m = 0, keep_top, kept, take
    keep_top = s.phase == KA_PH_INSERT and s.to_act == player and s.pending > 0
    for q in range(n):
        if q == player:
            continue
        memcpy(cnt, s.known[q], sizeof(cnt))
        for i in range(s.hand_n[q]):
            k = card_kind(s.hand[q][i])
            if cnt[k] > 0:
                cnt[k] -= 1
            else:
                pool[m] = s.hand[q][i]
                m += 1
    for i in range(s.pile_n - (1 if keep_top else 0)):
        pool[m] = s.pile[i]
        m += 1
    # sort first, so the sample depends only on what `player` knows (not on where the
    # unseen cards really are), then shuffle
    for i in range(1, m):
        k = pool[i]
        q = i - 1
        while q >= 0 and pool[q] > k:
            pool[q + 1] = pool[q]
            q -= 1
        pool[q + 1] = <uint8_t>k
    kz_shuffle_u8(rng, pool, m)
    take = 0
    for q in range(n):
        if q == player:
            continue
        kept = 0
        for k in range(KA_KINDS):
            for i in range(s.known[q][k]):
                newh[kept] = <uint8_t>(0x61 + k) if k < 12 else <uint8_t>(0x70 + k - 12)
                kept += 1
        while kept < s.hand_n[q]:
            newh[kept] = pool[take]
            take += 1
            kept += 1
        kz_shuffle_u8(rng, newh, kept)
        memcpy(s.hand[q], newh, kept)
    for i in range(s.pile_n - (1 if keep_top else 0)):
        s.pile[i] = pool[take]
        take += 1
    kz_rng_seed(&s.rng, kz_next(rng))
