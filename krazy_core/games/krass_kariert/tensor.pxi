# KrassKariert: the observation tensor writer (GameOps observation_tensor, the layout of
# TENSOR_LAYOUT in state.pyx).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ GameOps: tensor
cdef void ka_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (KA_TENSOR = 623 float32, the
    segments of state.TENSOR_LAYOUT) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py).
    KrassKariert has no turn cap: no truncation op."""
    cdef const ka_state *s = <const ka_state *>vst
    cdef int q, p, i, o, k, n
    n = s.num_players
    memset(v, 0, KA_TENSOR * sizeof(float))
    for i in range(s.hand_n[player]):
        v[i * 15 + card_kind(s.hand[player][i])] = 1
    for q in range(n):
        p = (player + q) % n
        o = 270 + 51 * q
        v[o] = s.hand_n[p] / 18.0
        for i in range(2):
            if s.reserve[p][i] != NO_CARD:
                v[o + 1 + 15 * i + card_kind(s.reserve[p][i])] = 1
        v[o + 31] = s.chips[p] / <float>(s.chips_start if s.chips_start > 1 else 1)
        for k in range(KA_KINDS):
            v[o + 32 + k] = s.known[p][k] / 4.0
        v[o + 47] = 1 if (s.phase != KA_PH_OVER and s.to_act == p) else 0
        v[o + 48] = 1 if s.leader == p else 0
        v[o + 49] = 1 if s.best_player == p else 0
        v[o + 50] = 1 if s.hand_n[p] > 0 else 0
    o = 525
    for i in range(s.played_n):
        v[o + card_kind(s.played[i])] += 0.25
    o = 540
    if s.best_combo >= 0:
        v[o + s.best_combo] = 1
    v[o + 57] = s.stop_played
    if s.draws_in_trick >= 1:
        v[o + 58] = 1
    if s.draws_in_trick >= 2:
        v[o + 59] = 1
    o = 600
    if s.phase == KA_PH_INSERT:
        v[o] = 1
        v[o + 1] = s.pending / 6.0
        if s.to_act == player and s.pending > 0:
            v[o + 2 + card_kind(s.pile[s.pile_n - 1])] = 1
    v[617] = s.pile_n / 54.0
    for q in range(n):
        v[618 + q] = 1

KA_OPS.tensor_size = KA_TENSOR
KA_OPS.observation_tensor = ka_observation_tensor
