# cython: language_level=3
"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS) over the GameOps table.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2),
2012.  One tree is grown for the player to act at the root (the *searcher*).  Each iteration

1. copies the root struct into a scratch buffer (``memcpy``) and **determinizes** it from the
   searcher's view (``ops.determinize``: other hands, the stock order and the future dice are
   sampled again), so the hidden parts of the root never matter;
2. **descends** the tree: at a node, the children whose (player, action) is legal in this
   determinization are *available*; each gets its availability count raised, and the one
   with the highest UCT score ``mean + c * sqrt(ln(avail) / visits)`` is followed;
3. **expands** one untried legal action (chosen uniformly) when the node has any;
4. **rolls out** to the end of the game, or of the round with ``horizon="round"`` (the
   default) in a game of many rounds, or ``max_rollout`` actions: uniformly random legal
   actions, or ``ops.heuristic_action`` with ``rollout="heuristic"`` when the game has one;
5. **backs up** ``ops.returns`` at the end of the game, else ``ops.evaluate`` (the game's
   estimate of the returns from the scores so far): each node adds the return of the player
   who acted into it.

Children are keyed by (player to act, action), so one tree node never mixes the moves of two
seats (in Krazy Kings the dice decide who acts next).  The tree is a flat C pool of 40-byte
nodes; the loop touches no Python object and runs without the GIL.  Root parallelism:
``threads=k`` grows k independent trees (each with its own seed drawn from ``seed``) in k
threads and
sums their root visit counts; the game's ops functions must therefore be reentrant (no
mutable globals), as ops.h asks.

The Python face is :func:`search`; the bot is ``krazy_core.bots.ISMCTSBot``.
"""

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport exp, log, sqrt, INFINITY
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcmp, memcpy, memset
cdef extern from "krazy/clock.h" nogil:
    double kz_monotonic_s() noexcept     # CLOCK_MONOTONIC (POSIX) or QueryPerformanceCounter (Windows)

from krazy_core._ops cimport (kz_ops, kz_rng, kz_rng_seed, kz_next, kz_bounded, kz_uniform,
                              KZ_MAX_PLAYERS)
from krazy_core._state cimport State

import dataclasses
import threading
import time

from krazy_core.errors import ConfigError, IllegalActionError

cdef enum:
    INITIAL_NODES = 4096
cdef extern from *:
    """#define SLICE 0.05"""
    const double SLICE          # seconds between two looks for signals (Ctrl-C) in the caller's thread
cdef double BELIEF_KIND = 0.9   # opponents="belief": the posterior from which a seat plays the heuristic
cdef double BELIEF_MIN_ESS = 64.0   # belief weights are tempered to keep at least this effective sample size

NODE_BYTES = sizeof(kz_node) + sizeof(kz_link)   # 32 + 8: statistics and sibling link
# the options (one frozen dataclass) and their defaults live in search/options.py; re-exported here
from krazy_core.search.options import (SearchOptions, check_options, game_defaults, DEFAULT_EXPLORATION,
                                       DEFAULT_PRIOR, DEFAULT_MAX_NODES, DEFAULT_MODEL_PRIOR, ROLLOUTS,
                                       OPPONENTS, HORIZONS, VALUES, PRIORS, OPTIONS)


cdef inline double _now() noexcept nogil:
    return kz_monotonic_s()


# ------------------------------------------------------------------------- the tree
cdef enum:
    KEY_ACTION = 0xFFFFFF       # kz_link.key = action | player << 24 (actions < 2**24, seats < 128)


cdef int32_t _new_node(kz_tree *t, int32_t parent, int32_t action, int32_t player) noexcept nogil:
    """Append a node (linked first among its parent's children); -1 when the pool is full."""
    cdef kz_node *grown
    cdef kz_link *grown_links
    cdef float *grown_prior
    cdef int32_t cap, i
    if t.n >= t.cap:
        if t.cap >= t.max_nodes:
            return -1
        cap = t.cap * 2 if t.cap * 2 <= t.max_nodes else t.max_nodes
        grown = <kz_node *>realloc(t.nodes, <size_t>cap * sizeof(kz_node))
        if grown == NULL:
            t.max_nodes = t.cap         # out of memory: stop growing, keep searching
            return -1
        t.nodes = grown
        grown_links = <kz_link *>realloc(t.links, <size_t>cap * sizeof(kz_link))
        if grown_links == NULL:
            t.max_nodes = t.cap
            return -1
        t.links = grown_links
        if t.prior != NULL:
            grown_prior = <float *>realloc(t.prior, <size_t>cap * sizeof(float))
            if grown_prior == NULL:
                t.max_nodes = t.cap
                return -1
            t.prior = grown_prior
        t.cap = cap
    i = t.n
    t.n += 1
    t.nodes[i].action = action
    t.nodes[i].player = player
    t.nodes[i].parent = parent
    t.nodes[i].first_child = -1
    t.nodes[i].visits = 0
    t.nodes[i].avail = 1
    t.nodes[i].reward = 0.0
    if t.prior != NULL:
        t.prior[i] = 0.0
    t.links[i].key = action | (player << 24) if parent >= 0 else -1
    if parent >= 0:
        t.links[i].next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = i
    else:
        t.links[i].next_sibling = -1
    return i


cdef int _tree_init(kz_tree *t, int32_t max_nodes) noexcept nogil:
    t.cap = INITIAL_NODES if INITIAL_NODES <= max_nodes else max_nodes
    t.max_nodes = max_nodes
    t.n = 0
    t.prior = NULL
    t.nodes = <kz_node *>malloc(<size_t>t.cap * sizeof(kz_node))
    t.links = <kz_link *>malloc(<size_t>t.cap * sizeof(kz_link))
    if t.nodes == NULL or t.links == NULL:
        return -1
    _new_node(t, -1, -1, -1)
    return 0


cdef int32_t _find_path(kz_tree *t, const int32_t *path, int32_t n_pairs, int32_t searcher,
                        bint opp_heuristic) noexcept nogil:
    """The node reached from the root by the ``(player, action)`` pairs of ``path``, or -1
    when the tree never went there.  With ``opp_heuristic`` the opponents' moves have no
    nodes and are stepped over."""
    cdef int32_t node = 0, i, key, child
    for i in range(n_pairs):
        if opp_heuristic and path[2 * i] != searcher:
            continue
        key = path[2 * i + 1] | (path[2 * i] << 24)
        child = t.nodes[node].first_child
        while child >= 0 and t.links[child].key != key:
            child = t.links[child].next_sibling
        if child < 0:
            return -1
        node = child
    return node


cdef int _copy_subtree(const kz_tree *src, int32_t x, kz_tree *dst) noexcept nogil:
    """Make ``dst`` (fresh from ``_tree_init``) a copy of the subtree of ``src`` under node
    ``x``, with ``x`` as the root: statistics kept, children in the same order, breadth
    first.  Copies what fits in ``dst.max_nodes``.  Returns -1 when memory runs out (``dst``
    is then still a valid tree)."""
    cdef int32_t *old_of = <int32_t *>malloc(<size_t>src.n * sizeof(int32_t))
    cdef int32_t head = 0, o, no, c, nn, prev
    if old_of == NULL:
        return -1
    dst.nodes[0].visits = src.nodes[x].visits
    dst.nodes[0].avail = src.nodes[x].avail
    dst.nodes[0].reward = src.nodes[x].reward
    old_of[0] = x                       # dst node i copies src node old_of[i]
    while head < dst.n:
        o = old_of[head]
        no = head
        head += 1
        prev = -1
        c = src.nodes[o].first_child
        while c >= 0:
            nn = _new_node(dst, no, src.nodes[c].action, src.nodes[c].player)
            if nn < 0:
                free(old_of)
                return 0                # full: the rest of the subtree stays behind
            # _new_node linked it first among its siblings: put it back in src's order
            dst.nodes[no].first_child = dst.links[nn].next_sibling
            dst.links[nn].next_sibling = -1
            if prev < 0:
                dst.nodes[no].first_child = nn
            else:
                dst.links[prev].next_sibling = nn
            prev = nn
            dst.nodes[nn].visits = src.nodes[c].visits
            dst.nodes[nn].avail = src.nodes[c].avail
            dst.nodes[nn].reward = src.nodes[c].reward
            if dst.prior != NULL and src.prior != NULL:
                dst.prior[nn] = src.prior[c]
            old_of[nn] = c
            c = src.links[c].next_sibling
    free(old_of)
    return 0


# ------------------------------------------------------------------------- learned value
include "learned.pxi"


# ------------------------------------------------------------------------- one iteration
@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline int32_t _rollout_action(kz_worker *w, void *st) noexcept nogil:
    cdef int n
    if w.heuristic:
        return w.ops.heuristic_action(st, &w.rng)
    if w.ops.random_action != NULL:     # the same draw and pick, without the list
        return w.ops.random_action(st, &w.rng)
    n = w.ops.legal_actions(st, w.legal)
    if n <= 0:
        return -1
    return w.legal[kz_bounded(&w.rng, <uint32_t>n)]


cdef double _pool_ess(const double *logw, int32_t n, double tau) noexcept nogil:
    """The effective sample size (sum w)^2 / sum w^2 of the weights exp(tau * logw), logw <= 0."""
    cdef double total = 0.0, sq = 0.0, x
    cdef int32_t i
    for i in range(n):
        x = exp(tau * logw[i])
        total += x
        sq += x * x
    return total * total / sq


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _draw_pool(kz_worker *w, kz_rng *rng) noexcept nogil:
    """Belief weighting: draw ``pool_cap`` determinizations of the root from rng and weigh
    each by ``exp(ops.belief_logweight)`` (normalized by the largest, so no overflow); their
    cumulative weights go to ``pool_cdf``.  When every weight is equal (no opponent has
    shown a choice the model reads) the pool is dropped: iterations determinize anew."""
    cdef const kz_ops *ops = w.ops
    cdef size_t size = <size_t>ops.state_size
    cdef int32_t i, q, n = w.pool_cap, players = ops.num_players(w.root)
    cdef double mx = -1e300, mn = 1e300, total = 0.0, sq = 0.0, x, y, lo, hi, target
    cdef double seat[2 * KZ_MAX_PLAYERS]
    cdef double kind_max[2 * KZ_MAX_PLAYERS]
    cdef double kind_sum[2 * KZ_MAX_PLAYERS]
    cdef char *world
    for q in range(2 * KZ_MAX_PLAYERS):
        kind_max[q] = -1e300
        kind_sum[q] = 0.0
    for i in range(w.pool_cap):
        if w.pool_deadline > 0.0 and i >= 64 and (i & 63) == 0 and _now() >= w.pool_deadline:
            n = i                       # out of time: the worlds drawn so far
            break
        world = w.pool + <size_t>i * size
        memcpy(world, w.root, size)
        ops.determinize(world, w.searcher, rng)
        x = ops.belief_logweight(world, w.searcher, seat)
        w.pool_cdf[i] = x
        if x > mx:
            mx = x
        if x < mn:
            mn = x
        for q in range(2 * players):    # running log-sum-exp of each seat's kind likelihoods
            y = seat[q]
            if y > kind_max[q]:
                kind_sum[q] = kind_sum[q] * exp(kind_max[q] - y) + 1.0
                kind_max[q] = y
            else:
                kind_sum[q] += exp(y - kind_max[q])
    for q in range(players):            # each kind equally likely a priori (the model's prior
        x = kind_max[2 * q] + log(kind_sum[2 * q])          # is in its weights, not here)
        y = kind_max[2 * q + 1] + log(kind_sum[2 * q + 1])
        w.pool_heur[q] = -1.0 if (q == w.searcher or x == y) else 1.0 / (1.0 + exp(y - x))
        if w.opp_belief and w.pool_heur[q] >= BELIEF_KIND:
            w.opp_mask |= 1 << q
    w.pool_n = n
    w.pool_tau = 1.0
    if not (mx - mn > 1e-12):           # equal weights (or NaN): nothing to weigh
        w.pool_cap = 0
        w.pool_ess = n
        return
    for i in range(n):
        w.pool_cdf[i] -= mx
    target = BELIEF_MIN_ESS if n >= 4 * BELIEF_MIN_ESS else 0.25 * n
    if _pool_ess(w.pool_cdf, n, 1.0) < target:
        # tempered: the weights' power tau in (0, 1) whose effective sample size is
        # BELIEF_MIN_ESS (bisection; the ESS falls as tau grows), so that a few worlds the
        # model likes best (several opponents' evidence multiplied) do not stand for all
        # (a pool of under 4 * BELIEF_MIN_ESS worlds keeps a quarter of its size)
        lo = 0.0
        hi = 1.0
        for i in range(30):
            x = 0.5 * (lo + hi)
            if _pool_ess(w.pool_cdf, n, x) >= target:
                lo = x
            else:
                hi = x
        w.pool_tau = lo
    for i in range(n):
        x = exp(w.pool_tau * w.pool_cdf[i])
        total += x
        sq += x * x
        w.pool_cdf[i] = total
    for i in range(n):
        w.pool_cdf[i] /= total
    w.pool_cdf[n - 1] = 1.0
    w.pool_ess = total * total / sq


@cython.boundscheck(False)
@cython.wraparound(False)
cdef inline void _world(kz_worker *w, void *st, kz_rng *rng) noexcept nogil:
    """The iteration's determinization into st: drawn anew (ops.determinize), or with belief
    weighting a pooled world picked in proportion to its weight, with new chance draws."""
    cdef const kz_ops *ops = w.ops
    cdef int32_t lo, hi, mid
    cdef double u
    cdef kz_rng pool_rng
    if w.pool_cap > 0 and w.pool_n == 0:
        # the pool's own generator, seeded from rng without drawing from it: a pool that is
        # dropped (no evidence) leaves the search exactly the one without beliefs
        kz_rng_seed(&pool_rng, rng.s[0] ^ rng.s[2] ^ 0xB5AD4ECEDA1CE2A9ULL)
        _draw_pool(w, &pool_rng)
    if w.pool_cap <= 0:
        memcpy(st, w.root, <size_t>ops.state_size)
        ops.determinize(st, w.searcher, rng)
        return
    u = kz_uniform(rng)
    lo = 0
    hi = w.pool_n - 1
    while lo < hi:                      # the first world whose cumulative weight passes u
        mid = (lo + hi) >> 1
        if w.pool_cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    memcpy(st, w.pool + <size_t>lo * <size_t>ops.state_size, <size_t>ops.state_size)
    ops.redraw(st, rng)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _iterate(kz_worker *w) noexcept nogil:
    """One iteration: determinize, select/expand, roll out, back up."""
    cdef const kz_ops *ops = w.ops
    cdef void *st = w.scratch
    cdef kz_node *nodes
    cdef kz_link *links
    cdef int32_t key, pk
    cdef int32_t node = 0, child, best, a, p, n, i, k, m, untried, depth = 0, steps = 0, h
    cdef int32_t gen, start_round = 0
    cdef double score, best_score, lg
    cdef double R[KZ_MAX_PLAYERS]

    cdef int32_t forced = -1
    cdef double top, ptop, pa
    cdef bint fresh = False
    if w.paired:
        if w.round_pos >= w.round_n:            # a new round: one world for every root action
            if w.omniscient:
                memcpy(w.det, w.root, <size_t>ops.state_size)
            else:
                _world(w, w.det, &w.round_rng)
            kz_rng_seed(&w.det_rng, kz_next(&w.round_rng))
            w.round_n = ops.legal_actions(w.det, w.round_actions)
            w.round_pos = 0
        memcpy(st, w.det, <size_t>ops.state_size)
        w.rng = w.det_rng
        forced = w.round_actions[w.round_pos]
    elif w.omniscient:
        memcpy(st, w.root, <size_t>ops.state_size)
    else:
        _world(w, st, &w.rng)

    # ---- selection and expansion
    while not ops.is_terminal(st):
        p = ops.current_player(st)
        n = ops.legal_actions(st, w.legal)
        if n <= 0:
            break
        if (w.opp_mask >> p) & 1:
            a = ops.heuristic_action(st, &w.rng)  # modelled opponent: no tree node
            ops.apply_action(st, a, NULL)
            w.tree_actions += 1
            continue
        if w.tree_depth >= 0 and depth >= w.tree_depth:
            break                       # as deep as the tree may grow: roll out from here
        if node == 0 and forced >= 0:
            w.legal[0] = forced                 # paired round: this iteration's root action
            n = 1
        if w.gen >= 0x7FFFFFF0:
            memset(w.mark, 0, <size_t>ops.num_distinct_actions * sizeof(int32_t))
            w.gen = 0
        w.gen += 2
        gen = w.gen                     # mark[a] == gen: legal, untried; gen + 1: legal, has a child
        for i in range(n):
            w.mark[w.legal[i]] = gen
        nodes = w.tree.nodes
        links = w.tree.links
        untried = n
        m = 0                           # available children, in list order: w.avail[0..m)
        pk = p << 24
        child = nodes[node].first_child
        while child >= 0:
            key = links[child].key
            if (key & ~KEY_ACTION) == pk and w.mark[key & KEY_ACTION] == gen:
                w.mark[key & KEY_ACTION] = gen + 1
                w.avail[m] = child
                m += 1
                untried -= 1
            child = links[child].next_sibling
        h = -1
        if w.prior > 0.0 and not w.policy_prior:
            h = ops.heuristic_action(st, &w.rng)
        if untried > 0:
            a = -1
            pa = 0.0
            if w.policy_prior:
                _policy_probs(w, st, p, n)      # the untried action the policy likes best first
                ptop = -1.0
                for i in range(n):
                    if w.mark[w.legal[i]] == gen and w.p_prob[i] > ptop:
                        ptop = w.p_prob[i]
                        a = w.legal[i]
                pa = ptop if a >= 0 else 0.0
            elif h >= 0 and w.mark[h] == gen:
                a = h                   # progressive bias: the heuristic's move first
            if a < 0:                   # uniformly at random among the untried
                k = <int32_t>kz_bounded(&w.rng, <uint32_t>untried)
                for i in range(n):
                    if w.mark[w.legal[i]] == gen:
                        if k == 0:
                            a = w.legal[i]
                            break
                        k -= 1
            child = _new_node(&w.tree, node, a, p)
            if child >= 0:
                if w.tree.prior != NULL:
                    w.tree.prior[child] = <float>pa
                ops.apply_action(st, a, NULL)
                w.tree_actions += 1
                node = child
                depth += 1
                if w.chance_nodes:
                    child = _outcome_child(w, st, node, &fresh)
                    if child >= 0:
                        node = child
                break
            if untried == n:            # pool full and nothing to select: roll out from here
                break
        # UCT over the available children, then raise their availability counts
        # (the walk above collected them: no second walk down the sibling list)
        nodes = w.tree.nodes
        best = -1
        best_score = -INFINITY
        for i in range(m):
            child = w.avail[i]
            if nodes[child].visits == 0:
                score = INFINITY
            else:
                lg = log(<double>nodes[child].avail)
                score = (nodes[child].reward / nodes[child].visits
                         + w.exploration * sqrt(lg / nodes[child].visits))
                if w.policy_prior:
                    score += (w.prior * w.tree.prior[child] * sqrt(<double>nodes[child].avail)
                              / (nodes[child].visits + 1))
                elif nodes[child].action == h:
                    score += w.prior / (nodes[child].visits + 1)
            if score > best_score:
                best_score = score
                best = child
            nodes[child].avail += 1
        ops.apply_action(st, nodes[best].action, NULL)
        w.tree_actions += 1
        node = best
        depth += 1
        if w.chance_nodes:
            child = _outcome_child(w, st, node, &fresh)
            if child < 0:
                break                   # pool full: roll out from the action node
            node = child
            if fresh:
                break                   # a new outcome: roll out from it

    if depth > w.max_depth:
        w.max_depth = depth

    # ---- rollout (to the end, the end of the round with horizon "round", or max_rollout)
    if w.horizon_round:
        start_round = ops.round_index(st)
    if not w.heuristic and not w.horizon_round and ops.random_playout != NULL:
        # the same random rollout in one call (ops.h): the game inlines its own steps
        steps = ops.random_playout(st, &w.rng, w.max_rollout)
        if w.max_rollout >= 0 and steps >= w.max_rollout and not ops.is_terminal(st):
            w.truncated += 1
    else:
        while not ops.is_terminal(st):
            if w.max_rollout >= 0 and steps >= w.max_rollout:
                w.truncated += 1
                break
            if w.horizon_round and ops.round_index(st) != start_round:
                break
            a = _rollout_action(w, st)
            if a < 0:
                break
            ops.apply_action(st, a, NULL)
            steps += 1
    w.rollout_actions += steps

    # ---- backup: each node scores the return of the player who acted into it
    for i in range(KZ_MAX_PLAYERS):
        R[i] = 0.0
    if w.value_model and not ops.is_terminal(st):
        _model_values(w, st, R)         # value="model": the learned value of the cut rollout
    elif ops.evaluate != NULL:
        ops.evaluate(st, R)             # returns() when terminal, an estimate otherwise
    else:
        ops.returns(st, R)
    nodes = w.tree.nodes
    while node > 0:
        nodes[node].visits += 1
        nodes[node].reward += R[nodes[node].player]
        node = nodes[node].parent
    nodes[0].visits += 1
    w.iterations += 1
    if forced >= 0:
        w.round_ret[w.round_pos] = R[w.searcher]
        w.round_pos += 1
        if w.round_pos == w.round_n:            # score the round: who did best in this world
            top = -INFINITY
            for i in range(w.round_n):
                if w.round_ret[i] > top:
                    top = w.round_ret[i]
            k = 0
            for i in range(w.round_n):
                if w.round_ret[i] == top:
                    k += 1
            for i in range(w.round_n):
                if w.round_ret[i] == top:
                    w.best_share[w.round_actions[i]] += 1.0 / k


cdef void _run(kz_worker *w) noexcept nogil:
    """Iterate until the iteration cap or the deadline (at least one iteration)."""
    while True:
        _iterate(w)
        if w.max_iterations >= 0 and w.iterations >= w.max_iterations:
            return
        if w.deadline > 0.0 and _now() >= w.deadline:     # every iteration (vDSO: ~25 ns)
            return


# ------------------------------------------------------------------------- Python face
@cython.final
cdef class _Worker:
    """One tree and its scratch buffers; ``run()`` iterates without the GIL."""
    cdef kz_worker w
    cdef State root_state           # keeps the root struct alive while workers read it
    cdef object model_ref           # keeps the value model's arrays alive (value="model")
    cdef object policy_ref          # keeps the policy model's arrays alive (prior_from="model")

    def __dealloc__(self):
        free(self.w.scratch)
        free(self.w.legal)
        free(self.w.mark)
        free(self.w.avail)
        free(self.w.tree.nodes)
        free(self.w.tree.links)
        free(self.w.det)
        free(self.w.round_actions)
        free(self.w.round_ret)
        free(self.w.best_share)
        free(self.w.v_obs)
        free(self.w.v_h)
        free(self.w.v_nz)
        free(self.w.v_nzv)
        free(self.w.v_on)
        free(self.w.tree.prior)
        free(self.w.p_obs)
        free(self.w.p_h)
        free(self.w.p_prob)
        free(self.w.p_nz)
        free(self.w.p_nzv)
        free(self.w.p_on)
        free(self.w.c_obs)
        free(self.w.pool)
        free(self.w.pool_cdf)

    def run(self, bint interruptible=False):
        """Iterate to the budget without the GIL.  ``interruptible`` (the caller's own
        thread): iterate in slices of at most ``SLICE`` seconds and look for signals between
        them, so Ctrl-C stops a long search.  A slice ends between two iterations and the
        next continues the same tree and generator, so an iteration budget gives the same
        result either way."""
        cdef double real = self.w.deadline, now
        _check_worker(self)
        if not interruptible:
            with nogil:
                _run(&self.w)
            return
        try:
            while True:
                now = _now()
                self.w.deadline = now + SLICE if real <= 0.0 else min(real, now + SLICE)
                with nogil:
                    _run(&self.w)
                if self.w.max_iterations >= 0 and self.w.iterations >= self.w.max_iterations:
                    return
                if real > 0.0 and _now() >= real:
                    return
                PyErr_CheckSignals()        # raises KeyboardInterrupt after a Ctrl-C
        finally:
            self.w.deadline = real

    def __reduce__(self):
        """Pickle and copy what a later search reads of a finished tree (``previous=``):
        its root state, the node pool (nodes, links, priors) and the searcher.  The copy
        holds no scratch buffers: it can be continued by ``search(previous=...)``, which
        copies the subtree it needs into fresh workers, but not run itself."""
        _check_worker(self)
        cdef kz_tree *t = &self.w.tree
        nodes = (<char *>t.nodes)[:<size_t>t.n * sizeof(kz_node)]
        links = (<char *>t.links)[:<size_t>t.n * sizeof(kz_link)]
        prior = None if t.prior == NULL else (<char *>t.prior)[:<size_t>t.n * sizeof(float)]
        return (_worker_from_tree, (self.root_state, nodes, links, prior, t.n, t.max_nodes,
                                    self.w.searcher, self.w.opp_heuristic))

    cdef int adopt(self, _Worker old, int32_t node) except -1:
        """Start from a copy of ``old``'s subtree under ``node`` instead of an empty tree."""
        if _copy_subtree(&old.w.tree, node, &self.w.tree) != 0:
            raise MemoryError()
        return 0

    def root_children(self):
        """{action: (visits, reward sum)} of the root's children."""
        _check_worker(self)
        cdef kz_node *nodes = self.w.tree.nodes
        cdef int32_t c = nodes[0].first_child
        out = {}
        while c >= 0:
            out[nodes[c].action] = (nodes[c].visits, nodes[c].reward,
                                    self.w.best_share[nodes[c].action] if self.w.paired else 0.0)
            c = self.w.tree.links[c].next_sibling
        return out


def _worker_from_tree(State root, bytes nodes, bytes links, prior, int32_t n,
                      int32_t max_nodes, int32_t searcher, int32_t opp_heuristic):
    """The unpickler of ``_Worker.__reduce__``: a finished tree to continue from.  Checks
    the node pool (sizes, parent/child/sibling indices in range) so a hostile pickle cannot
    reach C with bad indices; raises ``TypeError``/``ValueError``."""
    if root is None or root.data == NULL:
        raise TypeError("a search tree needs its root State")
    if n < 1 or n > max_nodes or len(nodes) != <size_t>n * sizeof(kz_node) \
            or len(links) != <size_t>n * sizeof(kz_link) \
            or (prior is not None and (type(prior) is not bytes or len(prior) != <size_t>n * sizeof(float))):
        raise ValueError("a pickled search tree with inconsistent sizes")
    cdef _Worker wk = _Worker.__new__(_Worker)
    memset(&wk.w, 0, sizeof(kz_worker))
    wk.root_state = root
    wk.w.ops = root.ops
    wk.w.root = root.data
    wk.w.searcher = searcher
    wk.w.opp_heuristic = opp_heuristic
    wk.w.opp_mask = ~(1 << searcher) if opp_heuristic else 0
    wk.w.tree.n = n
    wk.w.tree.cap = n
    wk.w.tree.max_nodes = max_nodes
    wk.w.tree.nodes = <kz_node *>malloc(<size_t>n * sizeof(kz_node))
    wk.w.tree.links = <kz_link *>malloc(<size_t>n * sizeof(kz_link))
    if wk.w.tree.nodes == NULL or wk.w.tree.links == NULL:
        raise MemoryError()
    memcpy(wk.w.tree.nodes, <const char *>nodes, <size_t>n * sizeof(kz_node))
    memcpy(wk.w.tree.links, <const char *>links, <size_t>n * sizeof(kz_link))
    if prior is not None:
        wk.w.tree.prior = <float *>malloc(<size_t>n * sizeof(float))
        if wk.w.tree.prior == NULL:
            raise MemoryError()
        memcpy(wk.w.tree.prior, <const char *>prior, <size_t>n * sizeof(float))
    # a tree, not any graph: every index in range, each node in at most one child list, the
    # list of its own parent, and parents before children (so no walk can loop or overrun)
    cdef int32_t i, c
    cdef kz_node *nd = wk.w.tree.nodes
    cdef kz_link *ln = wk.w.tree.links
    seen = bytearray(n)
    for i in range(n):
        if (nd[i].first_child < -1 or nd[i].first_child >= n or ln[i].next_sibling < -1
                or ln[i].next_sibling >= n or nd[i].parent >= i or (i > 0 and nd[i].parent < 0)
                or (i == 0 and nd[i].parent != -1)):
            raise ValueError(f"a pickled search tree with a bad index at node {i}")
    for i in range(n):
        c = nd[i].first_child
        while c >= 0:
            if seen[c] or nd[c].parent != i:
                raise ValueError(f"a pickled search tree that is not a tree (node {c})")
            seen[c] = 1
            c = ln[c].next_sibling
    return wk


cdef int _check_worker(w) except -1:
    """A tree of a search: a ``_Worker`` that ``_make_worker`` filled (one made by hand
    holds no tree and no game table).  Raises ``TypeError``."""
    if type(w) is not _Worker or (<_Worker>w).w.ops == NULL or (<_Worker>w).w.tree.nodes == NULL \
            or (<_Worker>w).w.tree.n < 1 or (<_Worker>w).root_state is None:
        raise TypeError(f"not a search tree made by search(): {type(w).__name__}")
    return 0


cdef _Worker _make_worker(State state, uint64_t seed, double exploration, double prior,
                          bint heuristic, int32_t max_rollout, int64_t max_iterations,
                          double deadline, int32_t max_nodes, bint paired, bint opp_heuristic,
                          bint omniscient, bint horizon_round, int32_t tree_depth, int32_t beliefs=0):
    cdef const kz_ops *ops = state.ops
    cdef _Worker wk = _Worker.__new__(_Worker)
    if ops.num_distinct_actions > KEY_ACTION + 1:
        raise ValueError(f"{ops.game_id.decode()}: ISMCTS keys tree nodes by actions < 2**24")
    memset(&wk.w, 0, sizeof(kz_worker))
    wk.root_state = state
    wk.w.ops = ops
    wk.w.root = state.data
    wk.w.scratch = malloc(<size_t>ops.state_size)
    wk.w.legal = <int32_t *>malloc(<size_t>(ops.max_legal + 1) * sizeof(int32_t))
    wk.w.mark = <int32_t *>malloc(<size_t>(ops.num_distinct_actions + 1) * sizeof(int32_t))
    wk.w.avail = <int32_t *>malloc(<size_t>(ops.max_legal + 1) * sizeof(int32_t))
    if wk.w.scratch == NULL or wk.w.legal == NULL or wk.w.mark == NULL or wk.w.avail == NULL:
        raise MemoryError()
    memset(wk.w.mark, 0, <size_t>(ops.num_distinct_actions + 1) * sizeof(int32_t))
    if _tree_init(&wk.w.tree, max_nodes) != 0:
        raise MemoryError()
    kz_rng_seed(&wk.w.rng, seed)
    wk.w.searcher = ops.current_player(state.data)
    wk.w.heuristic = 1 if (heuristic and ops.heuristic_action != NULL) else 0
    wk.w.max_rollout = max_rollout
    wk.w.horizon_round = 1 if (horizon_round and ops.round_index != NULL) else 0
    wk.w.exploration = exploration
    wk.w.prior = prior if ops.heuristic_action != NULL else 0.0
    wk.w.omniscient = 1 if omniscient else 0
    wk.w.opp_heuristic = 1 if (opp_heuristic and ops.heuristic_action != NULL) else 0
    if wk.w.opp_heuristic:
        wk.w.opp_mask = ~(1 << wk.w.searcher)
    for k in range(KZ_MAX_PLAYERS):
        wk.w.pool_heur[k] = -1.0
    wk.w.max_iterations = max_iterations
    wk.w.deadline = deadline
    wk.w.tree_depth = tree_depth
    if paired:
        wk.w.paired = 1
        wk.w.det = malloc(<size_t>ops.state_size)
        wk.w.round_actions = <int32_t *>malloc(<size_t>(ops.max_legal + 1) * sizeof(int32_t))
        wk.w.round_ret = <double *>malloc(<size_t>(ops.max_legal + 1) * sizeof(double))
        wk.w.best_share = <double *>malloc(<size_t>(ops.num_distinct_actions + 1) * sizeof(double))
        if (wk.w.det == NULL or wk.w.round_actions == NULL or wk.w.round_ret == NULL
                or wk.w.best_share == NULL):
            raise MemoryError()
        memset(wk.w.best_share, 0, <size_t>(ops.num_distinct_actions + 1) * sizeof(double))
        wk.w.round_rng = wk.w.rng
        kz_next(&wk.w.rng)
    if beliefs > 0 and not omniscient and ops.belief_logweight != NULL and ops.redraw != NULL:
        if 0 < max_iterations < beliefs:
            beliefs = <int32_t>max_iterations  # no more worlds than the tree's iterations
        wk.w.pool = <char *>malloc(<size_t>beliefs * <size_t>ops.state_size)
        wk.w.pool_cdf = <double *>malloc(<size_t>beliefs * sizeof(double))
        if wk.w.pool == NULL or wk.w.pool_cdf == NULL:
            raise MemoryError()
        wk.w.pool_cap = beliefs
        wk.w.pool_deadline = deadline
    return wk


def _belief_logweight(State state not None, player):
    """Test hook: the game's ``ops.belief_logweight`` of ``state`` read as a world seen by
    ``player`` (the log likelihood of the other seats' recorded choices), or None for a game
    without a belief model.  Raises ``ValueError`` for a seat out of range."""
    if state.data == NULL:
        state._not_ready()
    if state.ops.belief_logweight == NULL:
        return None
    if type(player) is not int or not 0 <= player < state.ops.num_players(state.data):
        raise ValueError(f"player must be a seat, an int in 0..{state.ops.num_players(state.data) - 1}, "
                         f"got {player!r}")
    return state.ops.belief_logweight(state.data, <int>player, NULL)


# ------------------------------------------------------------------------- learned models: loading, faces
include "models.pxi"


class SearchTree:
    """The trees of a finished search, kept so the next search can continue them
    (``reuse=True``; see :func:`search`).  Opaque: pass it, or the ``SearchResult`` holding
    it, as ``search(..., previous=...)``.  ``root``: a clone of the state searched;
    ``searcher``: its player to act; ``nodes``: tree nodes in all its trees."""

    __slots__ = ("workers", "root", "searcher", "game", "opponents", "nodes")

    def __init__(self, workers, root, searcher, game, opponents):
        _check_tree_parts(workers, root)
        self.workers = workers
        self.root = root
        self.searcher = searcher
        self.game = game
        self.opponents = opponents
        self.nodes = sum((<_Worker>w).w.tree.n for w in workers)

    def __repr__(self):
        return (f"SearchTree(searcher={self.searcher}, depth={len(self.root.history())} actions, "
                f"nodes={self.nodes}, trees={len(self.workers)})")


def _check_tree_parts(workers, root):
    """A ``SearchTree`` holds what a search made: a list of its workers over one game's
    table and a ready clone of its root.  Anything else (a tree put together by hand, or
    attributes replaced since) raises ``TypeError`` rather than reaching C."""
    if not isinstance(root, State) or (<State>root).data == NULL:
        raise TypeError(f"SearchTree.root must be the State a search made, got {type(root).__name__}")
    if not isinstance(workers, list) or not workers:
        raise TypeError("SearchTree.workers must be the non-empty list of trees a search made")
    for w in workers:
        _check_worker(w)
        if (<_Worker>w).w.ops != (<State>root).ops:
            raise TypeError("SearchTree.workers: a tree of another game than its root")


cdef bint _continues(State new, State old):
    """Whether ``new`` came from ``old`` by applying actions: both logs (events and history)
    of ``old`` are the start of ``new``'s.  (The deal is in the events, so a new game with the
    same history, e.g. none yet, is not taken for the old one.)"""
    if new.ops != old.ops:
        return False
    return new._log_starts_with(old) == 1


def _reuse_nodes(tree, State state, list workers, dict opts):
    """The node of each old tree where ``state`` lies (-1: not in that tree), or ``None``
    when the trees cannot be continued: another game or searcher, other ``threads`` or
    ``opponents``, or a state that does not come from the old root by actions."""
    cdef _Worker old
    if type(tree) is not SearchTree:
        raise TypeError(f"previous must be a SearchResult, a SearchTree or None, got {type(tree).__name__}")
    _check_tree_parts(tree.workers, tree.root)
    cdef State root = tree.root
    if (tree.game != state.game or tree.searcher != state.current_player()
            or len(tree.workers) != len(workers) or tree.opponents != opts["opponents"]
            or not _continues(state, root)):
        return None
    cdef int32_t n = <int32_t>((state.n_hist - root.n_hist) // 2)
    cdef int32_t *tmp = NULL
    cdef const int32_t *path = state._log_span(True, root.n_hist, &tmp)   # the actions since the root
    found = []
    try:
        for w in tree.workers:
            old = <_Worker>w
            found.append(_find_path(&old.w.tree, path, n, old.w.searcher, old.w.opp_heuristic))
    finally:
        free(tmp)
    return found


class SearchResult:
    """What :func:`search` found.

    ``action`` (int): the most visited root action (ties: higher mean return, then the
    smaller action).  ``policy``: ``{action: visit fraction}`` over the root's legal actions
    (sums to 1).  ``visits``: ``{action: visits}``; ``values``: ``{action: mean return of the
    searcher}``.  ``iterations`` (all threads), ``nodes`` (tree nodes, all threads),
    ``elapsed`` (seconds), ``threads``, ``bytes_per_iteration`` (tree node bytes added / iterations: about
    one 40-byte node per iteration), ``tree_bytes`` (node pool bytes allocated, all trees), ``max_depth`` (deepest tree node reached), ``rollout_actions`` (mean actions
    per rollout), ``truncated`` (rollouts cut by ``max_rollout``), ``reused`` (root visits
    carried over from ``previous``: 0 for a fresh tree), ``tree`` (a :class:`SearchTree` to
    continue with ``search(..., previous=result)`` when ``reuse=True``; ``None`` otherwise),
    ``beliefs`` (with ``beliefs=N``, the first tree's pool: ``{"worlds": worlds drawn,
    "weighted": whether they were played by weight (False: every world weighed the same,
    each iteration dealt anew), "ess": the weights' effective sample size, "tau": the power
    the weights were tempered to (1.0: none), "heuristic_like": {seat: posterior that the
    seat is of the model's first kind}}`` for the seats with evidence; ``None`` when beliefs
    are off or no opponent has shown a choice).
    """

    __slots__ = ("action", "policy", "visits", "values", "iterations", "nodes", "elapsed",
                 "threads", "bytes_per_iteration", "tree_bytes", "max_depth", "rollout_actions", "truncated",
                 "reused", "tree", "beliefs")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw[k])

    def iterations_per_second(self) -> float:
        return self.iterations / self.elapsed if self.elapsed > 0 else float("inf")

    def __repr__(self):
        return (f"SearchResult(action={self.action}, iterations={self.iterations}, nodes={self.nodes}, "
                f"elapsed={self.elapsed:.4f}, threads={self.threads})")


def search(state, *, previous=None, options=None, **kwargs):
    """Search ``state`` for the player to act with SO-ISMCTS and return a :class:`SearchResult`.

    :param state: a krazy_core ``State``, not terminal; it is not changed (the search reads a
        copy of its struct).
    :param previous: a ``SearchResult`` or ``SearchTree`` of an earlier search with
        ``reuse=True``, or ``None``.  When ``state`` came from that search's root by actions
        (``full_history()``) and its trees hold that line of play, each tree continues from a
        copy of the subtree found there, its statistics kept (gathered over the older
        information set: a prior the new iterations dilute); otherwise (another game,
        searcher, ``threads`` or ``opponents``, or a line never explored) it starts afresh.
    :param options: a :class:`~krazy_core.search.options.SearchOptions`, used as it is (the
        game's defaults are not applied); keyword options given with it replace its fields
        (``dataclasses.replace``).
    :param kwargs: the fields of :class:`~krazy_core.search.options.SearchOptions` by name
        (``iterations``, ``time_limit``, ``seed``, ``exploration``, ``prior``, ...); without
        ``options``, the game's ``GameSpec.search_defaults`` (:func:`game_defaults`) fill
        those left out, then the fields' defaults.
    :returns: a :class:`SearchResult`: the most visited root action (with ``paired=True``
        the best mean return), visit counts, mean returns and the trees' statistics.
    :raises ConfigError: an unknown option or a bad value, a game or file without the learned
        model an option asks for, ``chance_nodes=True`` with ``previous``.
    :raises IllegalActionError: the game is over.
    :raises TypeError: ``state`` is not a krazy_core ``State``, ``options`` not a
        ``SearchOptions``, ``previous`` not a result, a tree or ``None``.
    """
    if not isinstance(state, State):
        raise TypeError(f"search() needs a krazy_core State, got {type(state).__name__}")
    if (<State>state).data == NULL:
        (<State>state)._not_ready()
    if options is not None:
        if not isinstance(options, SearchOptions):
            raise TypeError(f"options must be a SearchOptions or None, got {type(options).__name__}")
        if kwargs:
            for k in kwargs:
                if k not in OPTIONS:
                    raise ConfigError(f"unknown search option {k!r}; options: {', '.join(OPTIONS)}")
            options = dataclasses.replace(options, **kwargs)
        opts = options.resolved()
    else:
        opts = check_options(kwargs, defaults=game_defaults(state))
    if previous is not None and not isinstance(previous, (SearchResult, SearchTree)):
        raise TypeError(f"previous must be a SearchResult, a SearchTree or None, got {type(previous).__name__}")
    if isinstance(previous, SearchResult):
        previous = previous.tree
    if previous is not None and opts["chance_nodes"]:
        raise ConfigError("chance_nodes=True cannot continue a previous search's tree: drop previous=")
    if previous is not None and opts["opponents"] == "belief":
        if options is None and "opponents" not in kwargs:
            opts["opponents"] = "tree"  # the game's default yields, as to reuse=True
        else:
            raise ConfigError("opponents='belief' cannot continue a previous search's tree: drop previous=")
    return _search(state, opts, previous)


def _search(State state, dict opts, previous=None):
    cdef const kz_ops *ops = state.ops
    cdef int k, threads = opts["threads"]
    cdef int64_t iters, per, extra
    cdef double deadline = 0.0, t0
    cdef uint64_t seed = opts["seed"]
    cdef _Worker wk
    if state.data == NULL:
        state._not_ready()
    if ops.is_terminal(state.data):
        raise IllegalActionError(f"the game is over; no move to search for in {state._compact()}")
    legal = state.legal_actions()
    if not legal:
        raise IllegalActionError(f"no legal action to search in {state._compact()}")
    root = state.clone()                # workers read this struct; the caller may mutate theirs
    iters = -1 if opts["iterations"] is None else opts["iterations"]
    t0 = _now()
    if opts["time_limit"] is not None:
        deadline = t0 + <double>opts["time_limit"]
    max_rollout = -1 if opts["max_rollout"] is None else opts["max_rollout"]
    if iters >= 0 and threads > iters:
        threads = <int>iters
    vmodel = _model_arrays(state, opts["model"]) if opts["value"] == "model" else None
    pmodel = (_policy_arrays(state, opts["policy_model"])
              if opts["prior_from"] == "model" and opts["prior"] > 0 else None)
    workers = []
    for k in range(threads):
        if iters >= 0:
            per = iters // threads + (1 if k < iters % threads else 0)
        else:
            per = -1
        workers.append(_make_worker(root, (seed + <uint64_t>k * 0x9E3779B97F4A7C15ULL),
                                    opts["exploration"], opts["prior"], opts["rollout"] == "heuristic",
                                    max_rollout, per, deadline, opts["max_nodes"], opts["paired"],
                                    opts["opponents"] == "heuristic", opts["omniscient"],
                                    opts["horizon"] == "round",
                                    -1 if opts["tree_depth"] is None else opts["tree_depth"],
                                    opts["beliefs"]))
        if vmodel is not None:
            _attach_model(<_Worker>workers[k], vmodel)
        if pmodel is not None:
            _attach_policy(<_Worker>workers[k], pmodel)
        if opts["chance_nodes"]:
            _enable_chance_nodes(<_Worker>workers[k])
        if opts["opponents"] == "belief" and ops.heuristic_action != NULL:
            (<_Worker>workers[k]).w.opp_belief = 1
    reused = carried = 0
    if previous is not None:
        found = _reuse_nodes(previous, state, workers, opts)
        if found is not None:
            for k in range(threads):
                if found[k] >= 0:
                    (<_Worker>workers[k]).adopt(<_Worker>previous.workers[k], found[k])
                    reused += (<_Worker>workers[k]).w.tree.nodes[0].visits
                    carried += (<_Worker>workers[k]).w.tree.n
    if threads == 1:
        (<_Worker>workers[0]).run(True)
    else:
        pool = [threading.Thread(target=w.run, daemon=True) for w in workers[1:]]
        for t in pool:
            t.start()
        try:
            (<_Worker>workers[0]).run(True)
        except BaseException:
            # Ctrl-C (or any error) in the caller's thread: every other tree stops after the
            # iteration it is in (each looks at its budget after every iteration), and the
            # search returns only once they have, so nothing keeps iterating behind it
            for w in workers[1:]:
                (<_Worker>w).w.max_iterations = 0
                (<_Worker>w).w.deadline = 1e-9
            for t in pool:
                t.join()
            raise
        for t in pool:
            t.join()
    elapsed = _now() - t0

    visits = {a: 0 for a in legal}
    rewards = {a: 0.0 for a in legal}
    shares = {a: 0.0 for a in legal}
    total_iters = nodes = alloc = depth = trunc = 0
    r_actions = 0
    for w in workers:
        wk = <_Worker>w
        for a, (v, r, b) in wk.root_children().items():
            if a in visits:
                visits[a] += v
                rewards[a] += r
                shares[a] += b
        total_iters += wk.w.iterations
        nodes += wk.w.tree.n
        alloc += wk.w.tree.cap * NODE_BYTES
        depth = max(depth, wk.w.max_depth)
        trunc += wk.w.truncated
        r_actions += wk.w.rollout_actions
    beliefs = None
    wk = <_Worker>workers[0]
    if wk.w.pool_n > 0:
        kinds = {q: wk.w.pool_heur[q] for q in range(ops.num_players(state.data)) if wk.w.pool_heur[q] >= 0.0}
        if wk.w.pool_cap > 0 or kinds:
            beliefs = {"worlds": wk.w.pool_n, "weighted": wk.w.pool_cap > 0, "ess": wk.w.pool_ess,
                       "tau": wk.w.pool_tau, "heuristic_like": kinds}
    total_visits = sum(visits.values())
    values = {a: (rewards[a] / visits[a] if visits[a] else 0.0) for a in legal}
    total_shares = sum(shares.values())
    if opts["paired"] and total_shares > 0:
        # every root action got the same worlds: pick the best mean, report how often each
        # action did best in a world
        best = max(legal, key=lambda a: (values[a], shares[a], -a))
        policy = {a: shares[a] / total_shares for a in legal}
    else:
        best = max(legal, key=lambda a: (visits[a], values[a], -a))
        policy = {a: (visits[a] / total_visits if total_visits else 1.0 / len(legal)) for a in legal}
    return SearchResult(action=best, policy=policy, visits=visits, values=values,
                        iterations=total_iters, nodes=nodes, elapsed=elapsed, threads=threads,
                        bytes_per_iteration=(nodes - carried) * NODE_BYTES / total_iters if total_iters else 0.0,
                        tree_bytes=alloc,
                        max_depth=depth, rollout_actions=r_actions / total_iters if total_iters else 0.0,
                        truncated=trunc, reused=reused, beliefs=beliefs,
                        tree=SearchTree(workers, root, ops.current_player(state.data),
                                        state.game, opts["opponents"]) if opts["reuse"] else None)
