# Crazy Rummy: the observation tensor writer (GameOps observation_tensor, the layout of
# TENSOR_LAYOUT in state.pyx).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ GameOps: tensor
cdef void cr_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (1154 float32) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py).
    CR-17's max_turns ends a round, not the game: no truncation op."""
    cdef const CRState *st = <const CRState *>vst
    cdef int p, q, i, k, m, o, n = st.num_players
    memset(v, 0, TENSOR * sizeof(float))
    for k in range(NK):
        v[k] = st.hand[player][k] / 4.0
    if st.up_live and st.n_discard:
        v[53 + st.discard[st.n_discard - 1]] = 1
    for i in range(st.n_discard):
        v[106 + st.discard[i]] += 0.25
    for q in range(n):
        p = (player + q) % n
        for k in range(3):
            m = p * 3 + k
            for i in range(st.melds[m].n):
                v[159 + (q * 3 + k) * 53 + st.melds[m].cards[i]] += 0.25
        o = 1113 + 4 * q
        v[o] = st.nhand[p] / 30.0
        v[o + 1] = st.down[p]
        v[o + 2] = st.buys[p] / 10.0
        v[o + 3] = total_score(st, p) / 1000.0
    v[1137 + st.round - 1] = 1
    v[1144 + st.phase] = 1
    v[1150] = st.n_stock / 108.0
    v[1151] = st.turns / <float>st.opt_max_turns
    v[1152] = 1 if st.cur == player else 0
    v[1153] = st.gd_k / 3.0 if st.phase == PH_BUILD else 0

CR_OPS.tensor_size = TENSOR
CR_OPS.observation_tensor = cr_observation_tensor
