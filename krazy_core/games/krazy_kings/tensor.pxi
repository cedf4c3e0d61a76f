# Krazy Kings: the observation tensor writer (GameOps observation_tensor, the layout of
# TENSOR_LAYOUT in state.pyx) and truncation (KK-20).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ GameOps: tensor, truncation
cdef enum:
    KK_TAIL = 162           # the seats' counts, dice, phase and clocks: v[KK_TAIL:KK_TENSOR_SIZE]


cdef inline void _kk_tensor_tail(const KKState *st, int player, float *t) noexcept nogil:
    """The tensor from ``KK_TAIL`` on (t[i] is v[KK_TAIL + i]), written over zeros, for the
    dense tensor; ``kk_observation_nonzeros`` writes the same slots as a list
    (tests/test_policy.py checks that the two agree)."""
    cdef int p, q, o
    o = 162 - KK_TAIL
    for q in range(st.num_players):
        p = (player + q) % st.num_players
        t[o + 3 * q] = popcount(st.hand[p]) / 54.0
        t[o + 3 * q + 1] = st.round_two[p]
        t[o + 3 * q + 2] = 1 if st.cur == p else 0
    o = 177 - KK_TAIL
    t[o] = st.direction
    if st.d1:
        t[o + st.d1] = 1
        t[o + 6 + st.d2] = 1
    if st.open_d1:
        t[o + 12 + st.open_d1] = 1
        t[o + 18 + st.open_d2] = 1
    t[o + 25 + st.phase] = 1 if st.phase < 7 else 0
    t[o + 32] = 1 if st.challenger >= 0 else 0
    t[o + 33] = st.n_stock / 54.0
    t[o + 34] = st.turns / <float>st.opt_max_turns
    t[o + 35] = 1 if st.phase == PH_NONE else 0


cdef inline uint64_t _kk_seen_mask(const KKState *st) noexcept nogil:
    """Bit q: v[108 + q] is 1 (the discard pile's cards by index; the first Joker at 52, the
    second at 53).  The Jokers are counted rather than tested against the mask so far: no
    step of the loop waits on the one before."""
    cdef uint64_t m = 0
    cdef int i, q, jokers = 0
    for i in range(st.n_discard):
        q = CODE_TO_IDX[st.discard[i]]
        m |= (<uint64_t>1) << q
        jokers += q == 52
    if jokers >= 2:
        m |= (<uint64_t>1) << 53
    return m


cdef void kk_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (219 float32) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py)."""
    cdef const KKState *st = <const KKState *>vst
    cdef int i
    cdef uint64_t h = st.hand[player]
    memset(v, 0, 219 * sizeof(float))
    while h:
        i = __builtin_ctzll(h)
        v[i] = 1
        h &= h - 1
    if st.n_discard:
        v[54 + CODE_TO_IDX[st.discard[st.n_discard - 1]]] = 1
    h = _kk_seen_mask(st)
    while h:
        i = __builtin_ctzll(h)
        v[108 + i] = 1
        h &= h - 1
    _kk_tensor_tail(st, player, v + KK_TAIL)


cdef int32_t kk_observation_nonzeros(const void *vst, int player, int32_t *idx, float *val) noexcept nogil:
    """GameOps ``observation_nonzeros``: the nonzero entries of ``kk_observation_tensor``'s
    ``v``, ascending (the hand, the top card and the pile's cards from their bit masks, then
    the tail's slots); returns how many."""
    cdef const KKState *st = <const KKState *>vst
    cdef int32_t k = 0, p, q
    cdef uint64_t h = st.hand[player]
    cdef float f
    while h:
        idx[k] = __builtin_ctzll(h)
        val[k] = 1
        k += 1
        h &= h - 1
    if st.n_discard:
        idx[k] = 54 + CODE_TO_IDX[st.discard[st.n_discard - 1]]
        val[k] = 1
        k += 1
    h = _kk_seen_mask(st)
    while h:
        idx[k] = 108 + __builtin_ctzll(h)
        val[k] = 1
        k += 1
        h &= h - 1
    # the tail's entries in index order, branch-free (an entry counts when != 0.0, as in
    # the scan of the dense tensor); the slots are _kk_tensor_tail's, which writes no slot
    # twice on a state play can reach (d2 and open_d2 are 1..6 with their d1, the phases
    # from 7 on write a 0) -- tests/test_policy.py checks the two agree
    p = player
    for q in range(st.num_players):
        f = popcount(st.hand[p]) / 54.0
        idx[k] = 162 + 3 * q
        val[k] = f
        k += f != 0.0
        idx[k] = 163 + 3 * q
        val[k] = st.round_two[p]
        k += st.round_two[p] != 0
        idx[k] = 164 + 3 * q
        val[k] = 1
        k += st.cur == p
        p += 1                          # (player + q + 1) % num_players, without a division
        if p == st.num_players:
            p = 0
    idx[k] = 177
    val[k] = st.direction
    k += st.direction != 0
    if st.d1:
        idx[k] = 177 + st.d1
        idx[k + 1] = 183 + st.d2
        val[k] = 1
        val[k + 1] = 1
        k += 2
    if st.open_d1:
        idx[k] = 189 + st.open_d1
        idx[k + 1] = 195 + st.open_d2
        val[k] = 1
        val[k + 1] = 1
        k += 2
    idx[k] = 202 + st.phase
    val[k] = 1
    k += st.phase < 7
    idx[k] = 209
    val[k] = 1
    k += st.challenger >= 0
    f = st.n_stock / 54.0
    idx[k] = 210
    val[k] = f
    k += f != 0.0
    f = st.turns / <float>st.opt_max_turns
    idx[k] = 211
    val[k] = f
    k += f != 0.0
    idx[k] = 212
    val[k] = 1
    k += st.phase == PH_NONE
    return k

cdef int kk_truncated(const void *vst) noexcept nogil:
    """KK-20: the game is over with no winner, as the turn limit ended it."""
    cdef const KKState *st = <const KKState *>vst
    return 1 if (st.phase == PH_NONE and st.winner < 0) else 0

KK_OPS.tensor_size = KK_TENSOR_SIZE
KK_OPS.observation_tensor = kk_observation_tensor
KK_OPS.observation_nonzeros = kk_observation_nonzeros
KK_OPS.truncated = kk_truncated
