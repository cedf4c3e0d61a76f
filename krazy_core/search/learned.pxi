# ISMCTS: the learned value and policy evaluated in C without the GIL inside an
# iteration (small MLPs over the observation tensor), and chance-node children.
#
# Included by ismcts.pyx (textually: one C unit with it).

cdef extern from *:
    """
    /* The policy's first layer over the nonzero inputs (_policy_probs).  Every path gives
       each h[j] as the same float: b1[j], then + val[t] * w1[nz[t], j] for t = 0, 1, ...,
       each product and sum rounded to float (no fused multiply-add: the build enables
       none, and target("avx") below enables no FMA); vectors add lane by lane. */
    #include <string.h>
    #if defined(__GNUC__) || defined(__clang__)
    #define KZ_V4F_BLOCKS 1
    typedef float kz_v4f __attribute__((vector_size(16)));
    typedef float kz_v4fu __attribute__((vector_size(16), aligned(4)));  /* unaligned load/store */
    #else
    #define KZ_V4F_BLOCKS 0
    #endif
    #if KZ_V4F_BLOCKS && (defined(__x86_64__) || defined(__i386__))
    #define KZ_AVX_BLOCKS 1
    #include <immintrin.h>
    typedef float kz_v8f __attribute__((vector_size(32)));
    typedef float kz_v8fu __attribute__((vector_size(32), aligned(4)));
    static int kz_cpu_avx(void) { return __builtin_cpu_supports("avx") ? 1 : 0; }
    #else
    #define KZ_AVX_BLOCKS 0
    static int kz_cpu_avx(void) { return 0; }
    #endif
    /* -1: not asked yet (threads that race here write the same value); 0: the 4-float path
       (tests set it to compare the paths) */
    static int kz_avx_state = -1;
    static int kz_have_avx(void) {
        if (kz_avx_state < 0)
            kz_avx_state = kz_cpu_avx();
        return kz_avx_state;
    }

    /* nz[0..k) = the indices i < T (ascending) of x[i] != 0.0 (NaN included, +-0 not),
       val[0..k) = their x[i]; returns k (what a game's observation_nonzeros writes).  The
       tensor is a few one-hot segments, mostly zeros: four floats at a time are skipped
       when all four are +-0 (every bit but the signs clear), and a group with a nonzero is
       compacted without a branch per input (a test per input would mispredict on most of
       the nonzeros). */
    static int32_t kz_nonzero_inputs(const float *x, int32_t T, int32_t *nz, float *val) {
        int32_t i = 0, k = 0, q;
        uint64_t u[2];
        uint32_t b;
        for (; i + 4 <= T; i += 4) {
            memcpy(u, x + i, 16);
            if (((u[0] | u[1]) & 0x7fffffff7fffffffULL) == 0)
                continue;
            for (q = 0; q < 4; q++) {
                memcpy(&b, x + i + q, 4);
                nz[k] = i + q;
                val[k] = x[i + q];
                k += (b << 1) != 0;
            }
        }
        for (; i < T; i++) {
            memcpy(&b, x + i, 4);
            nz[k] = i;
            val[k] = x[i];
            k += (b << 1) != 0;
        }
        return k;
    }

    /* on[0..m) = the j < H (ascending) of not (h[j] <= 0): the hidden units the ReLU
       keeps (a NaN included); returns m. */
    static int32_t kz_live_units(const float *h, int32_t H, int32_t *on) {
        int32_t j, m = 0;
        for (j = 0; j < H; j++) {
            on[m] = j;
            m += !(h[j] <= 0.0f);
        }
        return m;
    }

    #if KZ_AVX_BLOCKS
    /* H a multiple of 64, on a CPU with AVX: 64 columns at a time in eight 8-float
       registers (one load and add a row of them, no store until the block is done), and
       the live units from the registers' sign masks. */
    __attribute__((target("avx")))
    static int32_t kz_first_layer_avx(const float *w1, const float *b1, const int32_t *nz,
                                      const float *val, int32_t k, int32_t H, float *h,
                                      int32_t *on) {
        int32_t t, c, m = 0;
        uint64_t live;
        const __m256 zero = _mm256_setzero_ps();
        for (c = 0; c < H; c += 64) {
            kz_v8f a0, a1, a2, a3, a4, a5, a6, a7;
            const kz_v8fu *b = (const kz_v8fu *)(b1 + c);
            a0 = b[0]; a1 = b[1]; a2 = b[2]; a3 = b[3];
            a4 = b[4]; a5 = b[5]; a6 = b[6]; a7 = b[7];
            for (t = 0; t < k; t++) {
                const float xi = val[t];
                const kz_v8fu *r = (const kz_v8fu *)(w1 + (size_t)nz[t] * H + c);
                if (xi == 1.0f) {   /* a one-hot input: 1 * w is w, no multiply */
                    a0 += r[0]; a1 += r[1]; a2 += r[2]; a3 += r[3];
                    a4 += r[4]; a5 += r[5]; a6 += r[6]; a7 += r[7];
                } else {
                    const kz_v8f xv = {xi, xi, xi, xi, xi, xi, xi, xi};
                    a0 += xv * r[0]; a1 += xv * r[1]; a2 += xv * r[2]; a3 += xv * r[3];
                    a4 += xv * r[4]; a5 += xv * r[5]; a6 += xv * r[6]; a7 += xv * r[7];
                }
            }
            kz_v8fu *o = (kz_v8fu *)(h + c);
            o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3;
            o[4] = a4; o[5] = a5; o[6] = a6; o[7] = a7;
            /* not (h <= 0), a NaN included: _CMP_NLE_UQ */
            live = (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a0, zero, _CMP_NLE_UQ))
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a1, zero, _CMP_NLE_UQ)) << 8
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a2, zero, _CMP_NLE_UQ)) << 16
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a3, zero, _CMP_NLE_UQ)) << 24
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a4, zero, _CMP_NLE_UQ)) << 32
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a5, zero, _CMP_NLE_UQ)) << 40
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a6, zero, _CMP_NLE_UQ)) << 48
                 | (uint64_t)_mm256_movemask_ps(_mm256_cmp_ps((__m256)a7, zero, _CMP_NLE_UQ)) << 56;
            while (live) {
                on[m++] = c + __builtin_ctzll(live);
                live &= live - 1;
            }
        }
        return m;
    }
    #endif

    /* out[i..i+G) (those < n) = the logits of legal[i..i+G): b2[a] + h[j] * w2t[a, j] over
       the live units j = on[0..m), in that order, each product and sum rounded to float.
       G independent sums at once, so the adds overlap instead of each waiting on the one
       before; lanes past n repeat legal[i] (computed, not stored). */
    #define KZ_LOGIT_GROUP(NAME, G)                                                    \
    static void NAME(const float *w2t, const float *b2, const int32_t *legal, int32_t i,   \
                     int32_t n, const float *h, const int32_t *on, int32_t m, int32_t H,   \
                     double *out) {                                                     \
        const float *r[G];                                                              \
        float z[G];                                                                     \
        int32_t l, t, a;                                                                \
        for (l = 0; l < G; l++) {                                                       \
            a = legal[i + l < n ? i + l : i];                                           \
            r[l] = w2t + (size_t)a * H;                                                 \
            z[l] = b2[a];                                                               \
        }                                                                               \
        for (t = 0; t < m; t++) {                                                       \
            const int32_t j = on[t];                                                    \
            const float hj = h[j];                                                      \
            for (l = 0; l < G; l++)                                                     \
                z[l] = z[l] + hj * r[l][j];                                             \
        }                                                                               \
        for (l = 0; l < G && i + l < n; l++)                                            \
            out[i + l] = z[l];                                                          \
    }
    KZ_LOGIT_GROUP(kz_logits4, 4)
    KZ_LOGIT_GROUP(kz_logits8, 8)

    /* out[0..n) = the logits of legal[0..n) (kz_logits4/8): eight at a time while more
       than four are left, then four. */
    static void kz_policy_logits(const float *w2t, const float *b2, const int32_t *legal,
                                 int32_t n, const float *h, const int32_t *on, int32_t m,
                                 int32_t H, double *out) {
        int32_t i = 0;
        while (n - i > 4) {
            kz_logits8(w2t, b2, legal, i, n, h, on, m, H, out);
            i += 8;
        }
        if (i < n)
            kz_logits4(w2t, b2, legal, i, n, h, on, m, H, out);
    }

    /* h[0..H) = the first layer before the ReLU, b1 + the rows nz[0..k) of w1 (H floats
       each) times val[0..k); on[0..m) = its live units (kz_live_units); returns m.  AVX
       when it can; else, with GCC or clang and H a multiple of 32, 32 columns at a time in
       eight 4-float registers; else the plain loop. */
    static int32_t kz_sparse_first_layer(const float *w1, const float *b1, const int32_t *nz,
                                         const float *val, int32_t k, int32_t H, float *h,
                                         int32_t *on) {
        int32_t t, j;
    #if KZ_AVX_BLOCKS
        if (H % 64 == 0 && kz_have_avx())
            return kz_first_layer_avx(w1, b1, nz, val, k, H, h, on);
    #endif
    #if KZ_V4F_BLOCKS
        if (H % 32 == 0) {
            int32_t c;
            for (c = 0; c < H; c += 32) {
                kz_v4f a0, a1, a2, a3, a4, a5, a6, a7;
                const kz_v4fu *b = (const kz_v4fu *)(b1 + c);
                a0 = b[0]; a1 = b[1]; a2 = b[2]; a3 = b[3];
                a4 = b[4]; a5 = b[5]; a6 = b[6]; a7 = b[7];
                for (t = 0; t < k; t++) {
                    const float xi = val[t];
                    const kz_v4fu *r = (const kz_v4fu *)(w1 + (size_t)nz[t] * H + c);
                    if (xi == 1.0f) {
                        a0 += r[0]; a1 += r[1]; a2 += r[2]; a3 += r[3];
                        a4 += r[4]; a5 += r[5]; a6 += r[6]; a7 += r[7];
                    } else {
                        const kz_v4f xv = {xi, xi, xi, xi};   /* spelled out: clang and GCC alike */
                        a0 += xv * r[0]; a1 += xv * r[1]; a2 += xv * r[2]; a3 += xv * r[3];
                        a4 += xv * r[4]; a5 += xv * r[5]; a6 += xv * r[6]; a7 += xv * r[7];
                    }
                }
                kz_v4fu *o = (kz_v4fu *)(h + c);
                o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3;
                o[4] = a4; o[5] = a5; o[6] = a6; o[7] = a7;
            }
            return kz_live_units(h, H, on);
        }
    #endif
        for (j = 0; j < H; j++)
            h[j] = b1[j];
        for (t = 0; t < k; t++) {
            const float xi = val[t];
            const float *row = w1 + (size_t)nz[t] * H;
            for (j = 0; j < H; j++)
                h[j] += xi * row[j];
        }
        return kz_live_units(h, H, on);
    }
    """
    int kz_avx_state
    int kz_cpu_avx() noexcept nogil
    int kz_have_avx() noexcept nogil
    int32_t kz_nonzero_inputs(const float *x, int32_t T, int32_t *nz, float *val) noexcept nogil
    int32_t kz_sparse_first_layer(const float *w1, const float *b1, const int32_t *nz,
                                  const float *val, int32_t k, int32_t H, float *h,
                                  int32_t *on) noexcept nogil
    void kz_policy_logits(const float *w2t, const float *b2, const int32_t *legal, int32_t n,
                          const float *h, const int32_t *on, int32_t m, int32_t H,
                          double *out) noexcept nogil


cdef inline int32_t _tensor_nonzeros(const kz_ops *ops, const void *st, int32_t p, float *x,
                                     int32_t *nz, float *val) noexcept nogil:
    """Seat ``p``'s observation tensor at ``st`` as its nonzero entries: ``nz[0..k)`` the
    indices (ascending), ``val[0..k)`` the values; returns k.  The game's
    ``observation_nonzeros`` when it has one, else its dense tensor written to ``x``
    (``ops.tensor_size`` floats of scratch) and scanned."""
    if ops.observation_nonzeros != NULL:
        return ops.observation_nonzeros(st, p, nz, val)
    ops.observation_tensor(st, p, x)
    return kz_nonzero_inputs(x, ops.tensor_size, nz, val)


# ------------------------------------------------------------------------- learned value
@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
cdef void _model_values(kz_worker *w, const void *st, double *R) noexcept nogil:
    """``R[p]`` = seat p's modelled return at the unfinished state ``st``: the MLP's chance to
    win from p's own observation tensor, normalized so the seats' values sum to 1 (with
    ``v_loser``, a game of one loser: the chances to lose ``1 - v`` sum to 1 and ``R[p]`` is
    1 minus p's, so the values sum to n - 1 as the returns do).  The first layer is the
    policy's (``kz_sparse_first_layer`` over the tensor's nonzero entries, the same floats
    as ``x @ w1 + b1``); the output adds its live units in index order."""
    cdef const kz_ops *ops = w.ops
    cdef int np_ = ops.num_players(st), p, t, j, k, m, H = w.v_hidden
    cdef float *h = w.v_h
    cdef float z
    cdef double total = 0.0
    for p in range(np_):
        k = _tensor_nonzeros(ops, st, p, w.v_obs, w.v_nz, w.v_nzv)
        m = kz_sparse_first_layer(w.v_w1, w.v_b1, w.v_nz, w.v_nzv, k, H, h, w.v_on)
        z = w.v_b2
        for t in range(m):
            j = w.v_on[t]
            z += h[j] * w.v_w2[j]
        R[p] = 1.0 / (1.0 + exp(-<double>z))
        if w.v_loser:
            R[p] = 1.0 - R[p]           # the chance to lose
        total += R[p]
    if total > 0.0:
        for p in range(np_):
            R[p] /= total
    elif w.v_loser:
        for p in range(np_):
            R[p] = 1.0 / np_
    if w.v_loser:
        for p in range(np_):
            R[p] = 1.0 - R[p]


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
cdef void _policy_probs(kz_worker *w, const void *st, int32_t p, int32_t n) noexcept nogil:
    """``w.p_prob[i]`` = the policy model's probability of ``w.legal[i]`` (i < n) for seat
    ``p`` at ``st``: the softmax over those n actions of ``relu(x @ w1 + b1) @ w2 + b2``, x
    = p's observation tensor (its nonzero entries: ``_tensor_nonzeros``).  The first layer
    adds the rows of ``w1`` of the nonzero inputs only, in vector registers
    (``kz_sparse_first_layer``); the second is computed for the legal actions only, several
    at once, over the ReLU's live units only (``kz_policy_logits``; ``p_w2`` is ``w2``
    transposed: one contiguous row of H weights an action).  One legal action is 1.0
    without the pass.

    Every logit is the same float, rounded the same way, as the dense
    ``relu(x @ w1 + b1) @ w2 + b2`` summed in index order: the skipped terms are +-0 (the
    weights are finite: ``check_weights``), which leave a sum as it is but for the sign of a
    0, and the softmax below takes ``z - top`` and ``exp`` of it, the same for +0 and -0
    (tests/test_policy.py compares it with the dense pass bit for bit)."""
    cdef int32_t i, k, m, H = w.p_hidden
    cdef float *h = w.p_h
    cdef float *x = w.p_obs
    cdef int32_t *nz = w.p_nz
    cdef int32_t *on = w.p_on
    cdef double top = -INFINITY, total = 0.0
    if n == 1:
        # one action: exp(z - z) / itself, or the uniform 1 / 1 of a logit that is not
        # finite -- 1.0 whatever the model says, so no forward pass
        w.p_prob[0] = 1.0
        return
    k = _tensor_nonzeros(w.ops, st, p, x, nz, w.p_nzv)
    m = kz_sparse_first_layer(w.p_w1, w.p_b1, nz, w.p_nzv, k, H, h, on)   # on[:m]: the ReLU's live units
    kz_policy_logits(w.p_w2, w.p_b2, w.legal, n, h, on, m, H, w.p_prob)
    for i in range(n):
        if w.p_prob[i] > top:
            top = w.p_prob[i]
    if top != top or top == INFINITY or top == -INFINITY:
        total = 0.0                     # a logit that is not finite: no preference
    else:
        for i in range(n):
            # the top logit's exp(+0.0) is 1.0 exactly: no call for it
            w.p_prob[i] = 1.0 if w.p_prob[i] == top else exp(w.p_prob[i] - top)
            total += w.p_prob[i]
    if not (total > 0.0 and total < INFINITY):
        for i in range(n):
            w.p_prob[i] = 1.0 / n
        return
    for i in range(n):
        w.p_prob[i] /= total


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int32_t _outcome_child(kz_worker *w, const void *st, int32_t node, bint *created) noexcept nogil:
    """``chance_nodes``: the child of the action node ``node`` for what the searcher observes
    now (an FNV-1a hash of its observation tensor: the dice just rolled, the cards it drew,
    the counts and the top card), made when new (``created``); -1 when the pool is full.
    So the decisions below an action are keyed by the searcher's information set, not pooled
    over every roll and draw that action can lead to."""
    cdef int32_t i, child, T = w.c_inputs
    cdef uint32_t hsh = 2166136261u, bits
    cdef float *x = w.c_obs
    w.ops.observation_tensor(st, w.searcher, x)
    for i in range(T):
        memcpy(&bits, &x[i], 4)
        hsh = (hsh ^ bits) * 16777619u
    hsh &= 0x7FFFFFFF
    child = w.tree.nodes[node].first_child
    while child >= 0:
        if w.tree.links[child].key == <int32_t>hsh:
            created[0] = False
            return child
        child = w.tree.links[child].next_sibling
    child = _new_node(&w.tree, node, -2, w.tree.nodes[node].player)
    if child >= 0:
        w.tree.links[child].key = <int32_t>hsh
    created[0] = True
    return child
