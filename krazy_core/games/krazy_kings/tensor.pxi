# Krazy Kings: the observation tensor writer (GameOps observation_tensor, the layout of
# TENSOR_LAYOUT in state.pyx) and truncation (KK-20).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ GameOps: tensor, truncation
cdef void kk_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (219 float32) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py)."""
    cdef const KKState *st = <const KKState *>vst
    cdef int p, q, i, o
    cdef uint64_t h = st.hand[player]
    memset(v, 0, 219 * sizeof(float))
    while h:
        i = __builtin_ctzll(h)
        v[i] = 1
        h &= h - 1
    if st.n_discard:
        v[54 + CODE_TO_IDX[st.discard[st.n_discard - 1]]] = 1
    for i in range(st.n_discard):
        q = CODE_TO_IDX[st.discard[i]]
        if q == 52 and v[108 + 52]:
            q = 53
        v[108 + q] = 1
    o = 162
    for q in range(st.num_players):
        p = (player + q) % st.num_players
        v[o + 3 * q] = popcount(st.hand[p]) / 54.0
        v[o + 3 * q + 1] = st.round_two[p]
        v[o + 3 * q + 2] = 1 if st.cur == p else 0
    o = 177
    v[o] = st.direction
    if st.d1:
        v[o + st.d1] = 1
        v[o + 6 + st.d2] = 1
    if st.open_d1:
        v[o + 12 + st.open_d1] = 1
        v[o + 18 + st.open_d2] = 1
    v[o + 25 + st.phase] = 1 if st.phase < 7 else 0
    v[o + 32] = 1 if st.challenger >= 0 else 0
    v[o + 33] = st.n_stock / 54.0
    v[o + 34] = st.turns / <float>st.opt_max_turns
    v[o + 35] = 1 if st.phase == PH_NONE else 0

cdef int kk_truncated(const void *vst) noexcept nogil:
    """KK-20: the game is over with no winner, as the turn limit ended it."""
    cdef const KKState *st = <const KKState *>vst
    return 1 if (st.phase == PH_NONE and st.winner < 0) else 0

KK_OPS.tensor_size = KK_TENSOR_SIZE
KK_OPS.observation_tensor = kk_observation_tensor
KK_OPS.truncated = kk_truncated
