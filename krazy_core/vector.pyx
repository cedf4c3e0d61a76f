# cython: language_level=3
"""A vectorized env in the core: ``N`` games stepped by one call, in C, without the GIL.

    >>> from krazy_core.vector import VectorEnv
    >>> env = VectorEnv("krazy-kings", num_envs=1024, num_players=4, opponents="heuristic",
    ...                 seed=0, threads=2)
    >>> obs, info = env.reset(seed=0)
    >>> obs["observation"].shape, obs["action_mask"].shape      # float32, int8
    ((1024, 219), (1024, 109))
    >>> actions = env.sample_legal()                            # one legal id per env
    >>> obs, rewards, terminated, truncated, info = env.step(actions)

The shape is Gymnasium's ``VectorEnv`` (``num_envs``, ``single_observation_space``,
``single_action_space``, ``observation_space``, ``action_space``, ``reset(seed=,
options=)``, ``step(actions)``, ``close()``, ``metadata["autoreset_mode"]`` = same step), so
common training loops run unchanged; the spaces need Gymnasium installed
(``pip install 'krazy_core[rl]'``); nothing else does.
``krazy_core.envs.gymnasium.make_vec`` wraps this class in a real
``gymnasium.vector.VectorEnv`` subclass for Gymnasium's wrappers.

One step, for every env ``i`` (spread over ``threads`` threads, each owning a slice of the
envs fixed at construction: the calling thread steps the first slice and ``threads - 1``
persistent native worker threads, started on the first call and stopped by ``close()``, the
others, all without the GIL and with no Python object per step; each env has its own
PRNGs, so results do not depend on ``threads``):

1. applies ``actions[i]`` for the seat to act (the learner's seat, or in all-seats mode
   whichever seat is to act);
2. plays the other seats with the in-core policies (``"random"``: a uniformly random legal
   action; ``"heuristic"``: the game's ``heuristic_action``) until the learner is to act
   again or the game is over (learner mode only);
3. when the game is over: ``rewards[i]`` = the learner's ``returns()`` (all-seats mode: the
   mover's), ``terminated[i]``, or ``truncated[i]`` when Krazy Kings' turn cap ended it
   (KK-20; its returns still score the fewest cards), the final observation goes to
   ``info["final_obs"]`` (``info["_final_obs"][i]`` True), and the env is dealt a new game
   at once (auto-reset in the same step; the new game's seed is drawn from the env's PRNG);
4. writes the observation of the seat to act (``observation_tensor``, float32) and its
   legal-action mask (int8) into the preallocated arrays.

Arrays returned (the env's own buffers, overwritten by the next call; copy what you keep):
``obs["observation"]`` ``(N, D)`` float32, ``obs["action_mask"]`` ``(N, A)`` int8,
``rewards`` ``(N,)`` float32, ``terminated``/``truncated`` ``(N,)`` bool, ``info["to_act"]``
``(N,)`` int32 (the seat whose view ``obs`` is), ``info["seat"]`` ``(N,)`` int32 (the
learner's seat; -1 in all-seats mode), ``info["seat_rewards"]`` ``(N, P)`` float32 (every
seat's returns when a game ended this step, else zeros).

Bad input: ``step`` checks the whole batch first (shape ``(N,)``, an integer dtype, each id
in ``[0, A)`` and legal in its env: ``mask[i, a] == 1``) and raises ``IllegalActionError``
naming the first bad env index, before any env moves, so nothing is half-stepped.  Options
out of range raise ``ConfigError``.
"""

cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.math cimport INFINITY
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from posix.unistd cimport getpid

from krazy_core._ops cimport (kz_ops, kz_rng, kz_rng_seed, kz_next, kz_bounded, KZ_MAX_PLAYERS)
from krazy_core._state cimport State, EventLog

import numpy as np

from krazy_core._state import check_seed
from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core._validate import c_int as _c_int

cdef extern from "krazy/pool.h" nogil:
    ctypedef void (*kzv_fn)(void *ctx, int k, int kind) noexcept nogil
    ctypedef struct kzv_pool:
        int n
    int kzv_pool_start(kzv_pool *p, int n, kzv_fn fn, void *ctx) nogil
    void kzv_pool_run(kzv_pool *p, int kind) nogil
    void kzv_pool_stop(kzv_pool *p) nogil


POLICIES = ("random", "heuristic", "policy", "policy:FILE.npz")
cdef enum:
    POL_RANDOM = 0
    POL_HEURISTIC = 1
    POL_LEARNED = 2
    MAX_POOL = 16
    SEAT_RANDOM = -1
    SEAT_ALL = -2
    MAX_DEAL_TRIES = 64         # deals in a row that end before the learner acts (never seen)
    RUN_STEP = 0
    RUN_RESET = 1
    RUN_SAMPLE = 2


ctypedef struct kz_vec:
    const kz_ops *ops
    int32_t n_envs
    int32_t n_players
    int32_t size                # bytes of one state struct
    int32_t D                   # floats in one observation
    int32_t A                   # distinct actions
    int32_t seat_mode           # >= 0: the learner's fixed seat; SEAT_RANDOM; SEAT_ALL
    int32_t policy[KZ_MAX_PLAYERS]   # POL_* of each seat when it is not the learner
    int32_t n_pool              # 0: the seats' policies are fixed; else a pool drawn per episode
    int32_t pool[MAX_POOL]      # POL_* of each pool member
    uint32_t pool_cum[MAX_POOL] # cumulative integer weights (pool_cum[n_pool - 1]: the total)
    int32_t *env_policy         # n_envs * n_players: each env's seats' policies this episode
    # the learned policy (POL_LEARNED; PolicyBot's choice): argmax over the legal actions of
    # relu(x @ w1 + b1) @ w2 + b2, x the acting seat's observation tensor (ties: first legal)
    const float *p_w1           # D * H, input-major (read only; the arrays belong to Python)
    const float *p_b1           # H
    const float *p_w2t          # A * H: w2 transposed
    const float *p_b2           # A
    int32_t p_hidden            # H
    char *states                # n_envs * size bytes
    kz_rng *rngs                # n_envs PRNGs: deals, random seats, opponents' draws
    int32_t *seat               # n_envs: the learner's seat this episode (-1: all seats)
    int32_t *actions            # n_envs: the batch being applied (checked)
    float *obs                  # n_envs * D
    int8_t *mask                # n_envs * A
    float *rew                  # n_envs
    uint8_t *term               # n_envs
    uint8_t *trunc              # n_envs
    uint8_t *done               # n_envs: a game ended this step (final_obs valid)
    int32_t *to_act             # n_envs
    float *seat_rew             # n_envs * n_players
    float *final_obs            # n_envs * D
    int8_t *final_mask          # n_envs * A (all zeros: nobody acts in a finished game)
    int64_t *episodes           # n_envs: games finished
    kz_rng *srngs               # n_envs PRNGs of sample_legal (seeded by reset(seed))
    int64_t *sample             # n_envs: sample_legal's output
    int32_t n_chunks            # slices of the envs, one per thread
    int32_t *bounds             # n_chunks + 1: chunk k is envs [bounds[k], bounds[k+1])
    int32_t *legal              # n_chunks * (ops.max_legal + 1): each chunk's scratch list
    int64_t *decisions          # n_chunks: actions applied by each chunk since creation


cdef inline void *_st(kz_vec *v, int32_t i) noexcept nogil:
    return v.states + <size_t>i * <size_t>v.size


cdef int32_t _learned_action(kz_vec *v, void *st, int p, int32_t *legal) noexcept nogil:
    """PolicyBot's move in C: the legal action of the highest logit (ties and non-finite
    logits: the first legal action), with the same float sums as ``policy_priors``."""
    cdef int32_t n = v.ops.legal_actions(st, legal), i, j, a, best = -1, H = v.p_hidden, T = v.D
    cdef float *x = <float *>(legal + v.ops.max_legal + 1)
    cdef float *h = x + T
    cdef const float *row
    cdef float z, xi, top = 0.0
    if n <= 0:
        return -1
    if n == 1:
        return legal[0]
    v.ops.observation_tensor(st, p, x)
    for j in range(H):
        h[j] = v.p_b1[j]
    for i in range(T):
        xi = x[i]
        if xi != 0.0:
            row = v.p_w1 + <size_t>i * H
            for j in range(H):
                h[j] += xi * row[j]
    for j in range(H):
        if h[j] < 0.0:
            h[j] = 0.0
    for i in range(n):
        a = legal[i]
        z = v.p_b2[a]
        row = v.p_w2t + <size_t>a * H
        for j in range(H):
            z += h[j] * row[j]
        if z != z or z == INFINITY or z == -INFINITY:
            return legal[0]
        if best < 0 or z > top:
            best = a
            top = z
    return best


cdef inline int32_t _policy_action(kz_vec *v, int32_t i, void *st, int32_t *legal) noexcept nogil:
    cdef int n
    cdef int p = v.ops.current_player(st)
    cdef int32_t pol = v.policy[p] if v.n_pool == 0 else v.env_policy[<size_t>i * v.n_players + p]
    if pol == POL_HEURISTIC and v.ops.heuristic_action != NULL:
        return v.ops.heuristic_action(st, &v.rngs[i])
    if pol == POL_LEARNED:
        return _learned_action(v, st, p, legal)
    if v.ops.random_action != NULL:
        return v.ops.random_action(st, &v.rngs[i])
    n = v.ops.legal_actions(st, legal)
    return legal[kz_bounded(&v.rngs[i], <uint32_t>n)] if n > 0 else -1


cdef int64_t _advance(kz_vec *v, int32_t i, void *st, int32_t *legal) noexcept nogil:
    """Play the opponents until the learner is to act or the game is over."""
    cdef int32_t a
    cdef int64_t k = 0
    if v.seat_mode == SEAT_ALL:
        return 0
    while not v.ops.is_terminal(st) and v.ops.current_player(st) != v.seat[i]:
        a = _policy_action(v, i, st, legal)
        if a < 0:
            break
        v.ops.apply_action(st, a, NULL)
        k += 1
    return k


cdef int64_t _new_episode(kz_vec *v, int32_t i, int32_t *legal) noexcept nogil:
    cdef void *st = _st(v, i)
    cdef int t
    cdef int64_t k = 0
    cdef int32_t p, m
    cdef uint32_t u
    for t in range(MAX_DEAL_TRIES):
        v.ops.new_game(st, kz_next(&v.rngs[i]))
        if v.seat_mode == SEAT_RANDOM:
            v.seat[i] = <int32_t>kz_bounded(&v.rngs[i], <uint32_t>v.n_players)
        if v.n_pool:                    # each seat's opponent this episode, from the pool
            for p in range(v.n_players):
                u = kz_bounded(&v.rngs[i], v.pool_cum[v.n_pool - 1])
                m = 0
                while u >= v.pool_cum[m]:
                    m += 1
                v.env_policy[<size_t>i * v.n_players + p] = v.pool[m]
        k += _advance(v, i, st, legal)
        if not v.ops.is_terminal(st):
            break
    return k


cdef void _write_obs(kz_vec *v, int32_t i, int32_t *legal) noexcept nogil:
    cdef void *st = _st(v, i)
    cdef int p = v.ops.current_player(st)
    cdef int n, k
    cdef int8_t *m = v.mask + <size_t>i * <size_t>v.A
    v.to_act[i] = p
    if p < 0:                               # only if MAX_DEAL_TRIES deals all ended at once
        p = v.seat[i] if v.seat[i] >= 0 else 0
    v.ops.observation_tensor(st, p, v.obs + <size_t>i * <size_t>v.D)
    memset(m, 0, <size_t>v.A)
    n = v.ops.legal_actions(st, legal)
    for k in range(n):
        m[legal[k]] = 1


cdef int64_t _step_env(kz_vec *v, int32_t i, int32_t *legal) noexcept nogil:
    cdef void *st = _st(v, i)
    cdef int mover = v.ops.current_player(st)
    cdef int p, viewer
    cdef double R[KZ_MAX_PLAYERS]
    cdef int64_t k = 1
    v.ops.apply_action(st, v.actions[i], NULL)
    k += _advance(v, i, st, legal)
    v.done[i] = 0
    v.rew[i] = 0.0
    v.term[i] = 0
    v.trunc[i] = 0
    for p in range(v.n_players):
        v.seat_rew[<size_t>i * v.n_players + p] = 0.0
    if v.ops.is_terminal(st):
        v.ops.returns(st, R)
        viewer = v.seat[i] if v.seat_mode != SEAT_ALL else mover
        v.rew[i] = <float>R[viewer]
        for p in range(v.n_players):
            v.seat_rew[<size_t>i * v.n_players + p] = <float>R[p]
        if v.ops.truncated != NULL and v.ops.truncated(st):
            v.trunc[i] = 1
        else:
            v.term[i] = 1
        v.done[i] = 1
        v.episodes[i] += 1
        v.ops.observation_tensor(st, viewer, v.final_obs + <size_t>i * <size_t>v.D)
        k += _new_episode(v, i, legal)
    _write_obs(v, i, legal)
    return k


cdef void _reset_range(kz_vec *v, int32_t lo, int32_t hi, int32_t *legal) noexcept nogil:
    cdef int32_t i
    for i in range(lo, hi):
        v.done[i] = 0
        v.rew[i] = 0.0
        v.term[i] = 0
        v.trunc[i] = 0
        _new_episode(v, i, legal)
        _write_obs(v, i, legal)


cdef void _sample_range(kz_vec *v, int32_t lo, int32_t hi) noexcept nogil:
    """One uniformly random legal action per env from its own ``srngs[i]`` (the k-th set
    entry of its mask row, k drawn in [0, count)); -1 for a row with none."""
    cdef int32_t i, a, c, k
    cdef const int8_t *m
    for i in range(lo, hi):
        m = v.mask + <size_t>i * <size_t>v.A
        c = 0
        for a in range(v.A):
            c += m[a] != 0
        if c == 0:
            v.sample[i] = -1
            continue
        k = <int32_t>kz_bounded(&v.srngs[i], <uint32_t>c)
        for a in range(v.A):
            if m[a] != 0:
                if k == 0:
                    v.sample[i] = a
                    break
                k -= 1


cdef inline size_t _chunk_ints_of(const kz_vec *v) noexcept nogil:
    """int32 slots of one chunk's scratch: the legal list, then (learned policy) D + H floats."""
    return <size_t>(v.ops.max_legal + 1) + <size_t>(v.D + v.p_hidden if v.p_hidden > 0 else 0)


cdef void _chunk_work(void *ctx, int k, int kind) noexcept nogil:
    """Chunk ``k``'s share of one call (step, reset or sample): envs [bounds[k], bounds[k+1])."""
    cdef kz_vec *v = <kz_vec *>ctx
    cdef int32_t i, lo = v.bounds[k], hi = v.bounds[k + 1]
    cdef int32_t *legal = v.legal + <size_t>k * _chunk_ints_of(v)
    cdef int64_t n = 0
    if kind == RUN_STEP:
        for i in range(lo, hi):
            n += _step_env(v, i, legal)
        v.decisions[k] += n
    elif kind == RUN_RESET:
        _reset_range(v, lo, hi, legal)
    else:
        _sample_range(v, lo, hi)


cdef class VectorEnv:
    """``num_envs`` games of ``game_id`` stepped together in C (see the module docstring).

    ``VectorEnv(game_id, num_envs, *, num_players=None, seat=0, opponents="random",
    seed=None, threads=1, **options)``:

    - ``seat``: the learner's seat (an int), ``"random"`` (drawn per episode from the env's
      PRNG; ``info["seat"]`` says which) or ``"all"`` (self-play: every seat is a learner;
      ``obs`` is the view of ``info["to_act"]``, ``rewards`` go to the seat that moved);
    - ``opponents``: an in-core policy for every other seat, or a list of one per seat (the
      learner's entry is ignored): ``"random"``, ``"heuristic"``, or ``"policy"`` /
      ``"policy:FILE.npz"`` (the learned policy's most likely legal action, as
      ``krazy_core.learn.model.PolicyBot`` picks it, the network run in C; the game's shipped
      policy or the weights in FILE; ``ConfigError`` if it does not load or fit the game;
      one learned model per env);
    - ``opponent_pool`` (a list of up to 16 such words) with optional ``opponent_weights``
      (non-negative ints, default all 1): when given, each episode every seat's opponent is
      drawn from the pool by weight from that env's PRNG (so seeded, whatever ``threads``),
      replacing ``opponents``;
    - ``seed``: an int; env ``i``'s PRNG is seeded from ``seed`` and ``i``, and every deal,
      random seat and opponent draw comes from it: the same seed gives the same arrays step
      for step, whatever ``threads``;
    - ``threads``: envs are split once into that many slices, stepped in parallel without
      the GIL by the calling thread and ``threads - 1`` persistent worker threads (POSIX
      threads; ``RuntimeError`` if they cannot start);
    - ``options``: the game's options (``krazy rules GAME``), as ``krazy_core.make``.

    Raises ``ConfigError`` for a bad option, and for a ``num_envs`` or ``threads`` that is
    not an int in ``1..2**31-1``.
    """

    cdef kz_vec v
    cdef State template
    cdef readonly object game
    cdef readonly int num_envs
    cdef readonly int threads
    cdef kzv_pool pool
    cdef bint pool_on
    cdef long pool_pid               # the process that started the workers (a fork has none)
    cdef object _spaces
    cdef public object metadata
    cdef public object render_mode
    cdef public object spec
    cdef readonly bint closed
    cdef bint seeded
    cdef uint64_t base_seed
    cdef object _obs, _mask, _rew, _term, _trunc, _done, _to_act, _seat, _seat_rew
    cdef object _final_obs, _final_mask, _episodes, _info
    cdef readonly tuple opponents
    cdef readonly object opponent_pool
    cdef readonly object opponent_weights
    cdef object _model

    def __cinit__(self):
        memset(&self.v, 0, sizeof(kz_vec))

    def __init__(self, game_id, num_envs, *, num_players=None, seat=0, opponents="random",
                 seed=None, threads=1, opponent_pool=None, opponent_weights=None, **options):
        import krazy_core
        from krazy_core._validate import c_count
        cdef int32_t i, P
        cdef const kz_ops *ops
        num_envs = c_count(num_envs, "num_envs", 1, 2**31 - 1)    # ConfigError, never OverflowError
        threads = c_count(threads, "threads", 1, 2**31 - 1)
        game = game_id if isinstance(game_id, krazy_core.Game) else krazy_core.make(
            game_id, num_players=num_players, **options)
        self.game = game
        self.template = game.new_initial_state(0)
        ops = self.template.ops
        if ops.observation_tensor == NULL or ops.new_game == NULL:
            raise ConfigError(f"{game.game_id}: this game's GameOps table has no "
                              f"observation_tensor/new_game; it cannot be vectorized")
        P = game.num_players
        self.v.ops = ops
        self.v.n_envs = num_envs
        self.v.n_players = P
        self.v.size = ops.state_size
        self.v.D = ops.tensor_size
        self.v.A = ops.num_distinct_actions
        if isinstance(seat, str) and seat == "random":
            self.v.seat_mode = SEAT_RANDOM
        elif isinstance(seat, str) and seat == "all":
            self.v.seat_mode = SEAT_ALL
        elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < P:
            self.v.seat_mode = seat
        else:
            raise ConfigError(f"seat must be a seat 0..{P - 1}, 'random' or 'all', got {seat!r}")
        if isinstance(opponents, str):
            opp = [opponents] * P
        else:
            opp = list(opponents)
            if len(opp) != P:
                raise ConfigError(f"opponents: one policy per seat ({P}), got {len(opp)}")
        models = set()
        for i in range(P):
            self.v.policy[i] = self._policy_id(opp[i], "opponents", models)
        self.opponents = tuple(opp)
        self.opponent_pool = None
        self.opponent_weights = None
        if opponent_pool is not None:
            pool = [opponent_pool] if isinstance(opponent_pool, str) else list(opponent_pool)
            if not 1 <= len(pool) <= MAX_POOL:
                raise ConfigError(f"opponent_pool: 1 to {MAX_POOL} in-core policies, got {len(pool)}")
            if opponent_weights is None:
                weights = [1] * len(pool)
            else:
                weights = list(opponent_weights)
                if len(weights) != len(pool) or any(isinstance(w, bool) or not isinstance(w, int)
                                                    or w < 0 for w in weights) or sum(weights) <= 0 \
                        or sum(weights) >= 2 ** 31:
                    raise ConfigError(f"opponent_weights: {len(pool)} non-negative ints, not all zero "
                                      f"(sum < 2**31), got {opponent_weights!r}")
            total = 0
            for k in range(len(pool)):
                self.v.pool[k] = self._policy_id(pool[k], "opponent_pool", models)
                total += weights[k]
                self.v.pool_cum[k] = <uint32_t>total
            self.v.n_pool = len(pool)
            self.opponent_pool = tuple(pool)
            self.opponent_weights = tuple(weights)
        elif opponent_weights is not None:
            raise ConfigError("opponent_weights needs opponent_pool")
        if len(models) > 1:
            raise ConfigError(f"one learned policy per VectorEnv, got {sorted(models)!r}")
        self._model = None
        if models:
            from krazy_core.search.ismcts import _policy_arrays
            name = models.pop()
            m = _policy_arrays(self.template, None if name == "" else name)   # ConfigError
            self._model = {k: np.ascontiguousarray(m[k], dtype=np.float32) for k in ("w1", "b1", "w2t", "b2")}
            self._bind_model()
        self.num_envs = num_envs
        self.threads = min(threads, num_envs)
        N, D, A = num_envs, self.v.D, self.v.A
        self._obs = np.zeros((N, D), dtype=np.float32)
        self._mask = np.zeros((N, A), dtype=np.int8)
        self._rew = np.zeros(N, dtype=np.float32)
        self._term = np.zeros(N, dtype=np.bool_)
        self._trunc = np.zeros(N, dtype=np.bool_)
        self._done = np.zeros(N, dtype=np.bool_)
        self._to_act = np.zeros(N, dtype=np.int32)
        self._seat = np.zeros(N, dtype=np.int32)
        self._seat_rew = np.zeros((N, P), dtype=np.float32)
        self._final_obs = np.zeros((N, D), dtype=np.float32)
        self._final_mask = np.zeros((N, A), dtype=np.int8)
        self._episodes = np.zeros(N, dtype=np.int64)
        self._bind()
        self.v.states = <char *>malloc(<size_t>N * <size_t>self.v.size)
        self.v.rngs = <kz_rng *>malloc(<size_t>N * sizeof(kz_rng))
        self.v.srngs = <kz_rng *>malloc(<size_t>N * sizeof(kz_rng))
        self.v.actions = <int32_t *>calloc(<size_t>N, sizeof(int32_t))
        self.v.sample = <int64_t *>calloc(<size_t>N, sizeof(int64_t))
        T = self.threads
        self.v.n_chunks = T
        self.v.bounds = <int32_t *>calloc(<size_t>T + 1, sizeof(int32_t))
        self.v.legal = <int32_t *>malloc(<size_t>T * self._chunk_ints() * sizeof(int32_t))
        self.v.env_policy = <int32_t *>calloc(<size_t>N * <size_t>P, sizeof(int32_t))
        self.v.decisions = <int64_t *>calloc(<size_t>T, sizeof(int64_t))
        if (self.v.states == NULL or self.v.rngs == NULL or self.v.actions == NULL
                or self.v.srngs == NULL or self.v.sample == NULL or self.v.bounds == NULL
                or self.v.legal == NULL or self.v.decisions == NULL or self.v.env_policy == NULL):
            raise MemoryError()
        for i in range(N):
            kz_rng_seed(&self.v.srngs[i], <uint64_t>i + 1)
        for i in range(N):
            memcpy(_st(&self.v, i), self.template.data, <size_t>self.v.size)
            self.v.seat[i] = self.v.seat_mode if self.v.seat_mode >= 0 else -1
        per, extra = divmod(N, T)           # the work is split once, here
        lo = 0
        for k in range(T):
            self.v.bounds[k] = lo
            lo = lo + per + (1 if k < extra else 0)
        self.v.bounds[T] = N
        self.pool_on = False
        self.closed = False
        self.render_mode = None
        self.spec = None
        self._spaces = None
        from krazy_core._vector_meta import metadata
        self.metadata = metadata()
        self.seeded = False
        if seed is not None:
            self._seed(seed)
        self._info = None

    cdef size_t _chunk_ints(self):
        return _chunk_ints_of(&self.v)

    def _policy_id(self, word, what, set models):
        """POL_* of an in-core policy word; a ``policy`` word adds its model to ``models``."""
        if word == "random":
            return POL_RANDOM
        if word == "heuristic":
            return POL_HEURISTIC
        if isinstance(word, str) and (word == "policy" or (word.startswith("policy:") and word.endswith(".npz"))):
            models.add(word[7:])
            return POL_LEARNED
        raise ConfigError(f"{what}: {word!r} is not an in-core policy; choose from random, heuristic, "
                          f"policy, policy:FILE.npz (bots such as ISMCTS: the Gymnasium env)")

    cdef _bind_model(self):
        cdef float[:, ::1] w1 = self._model["w1"]
        cdef float[::1] b1 = self._model["b1"]
        cdef float[:, ::1] w2t = self._model["w2t"]
        cdef float[::1] b2 = self._model["b2"]
        self.v.p_w1 = &w1[0, 0]
        self.v.p_b1 = &b1[0]
        self.v.p_w2t = &w2t[0, 0]
        self.v.p_b2 = &b2[0]
        self.v.p_hidden = <int32_t>w1.shape[1]

    cdef _bind(self):
        cdef float[:, ::1] o = self._obs
        cdef int8_t[:, ::1] m = self._mask
        cdef float[::1] r = self._rew
        cdef uint8_t[::1] te = self._term.view(np.uint8)
        cdef uint8_t[::1] tr = self._trunc.view(np.uint8)
        cdef uint8_t[::1] dn = self._done.view(np.uint8)
        cdef int32_t[::1] ta = self._to_act
        cdef int32_t[::1] se = self._seat
        cdef float[:, ::1] sr = self._seat_rew
        cdef float[:, ::1] fo = self._final_obs
        cdef int8_t[:, ::1] fm = self._final_mask
        cdef int64_t[::1] ep = self._episodes
        self.v.obs = &o[0, 0]
        self.v.mask = &m[0, 0]
        self.v.rew = &r[0]
        self.v.term = &te[0]
        self.v.trunc = &tr[0]
        self.v.done = &dn[0]
        self.v.to_act = &ta[0]
        self.v.seat = &se[0]
        self.v.seat_rew = &sr[0, 0]
        self.v.final_obs = &fo[0, 0]
        self.v.final_mask = &fm[0, 0]
        self.v.episodes = &ep[0]

    def __dealloc__(self):
        self._stop_pool()
        free(self.v.states)
        free(self.v.rngs)
        free(self.v.actions)
        free(self.v.srngs)
        free(self.v.sample)
        free(self.v.bounds)
        free(self.v.legal)
        free(self.v.decisions)
        free(self.v.env_policy)
        self.v.env_policy = NULL
        self.v.states = NULL
        self.v.rngs = NULL
        self.v.actions = NULL
        self.v.srngs = NULL
        self.v.sample = NULL
        self.v.bounds = NULL
        self.v.legal = NULL
        self.v.decisions = NULL

    cdef void _stop_pool(self) noexcept:
        if self.pool_on and getpid() == self.pool_pid:
            with nogil:
                kzv_pool_stop(&self.pool)
            self.pool_on = False

    cdef _seed(self, seed):
        cdef int32_t i
        cdef uint64_t s = <uint64_t>check_seed(seed)
        for i in range(self.v.n_envs):
            kz_rng_seed(&self.v.rngs[i], s ^ (<uint64_t>(i + 1) * 0x9E3779B97F4A7C15ULL))
            kz_rng_seed(&self.v.srngs[i], s ^ (<uint64_t>(i + 1) * 0xD1B54A32D192ED03ULL)
                        ^ 0x5A4D504C45ULL)
        self.seeded = True

    # ------------------------------------------------------------------ pickle / copy
    def __reduce__(self):
        """Pickle and copy by value, mid-episode: the options it was made with, every env's
        state struct and PRNG, and the arrays of the last step; the copy steps exactly as
        the original would (a closed env copies as closed).  ``copy.copy`` is a deep copy
        too (the envs share no buffers)."""
        seat = {SEAT_RANDOM: "random", SEAT_ALL: "all"}.get(self.v.seat_mode, self.v.seat_mode)
        n = <size_t>self.v.n_envs
        states = (<char *>self.v.states)[:n * <size_t>self.v.size]
        rngs = (<char *>self.v.rngs)[:n * sizeof(kz_rng)] + (<char *>self.v.srngs)[:n * sizeof(kz_rng)]
        arrays = {k: np.array(a) for k, a in zip(_ARRAYS, self._arrays())}
        pol = (<char *>self.v.env_policy)[:n * <size_t>self.v.n_players * sizeof(int32_t)]
        pools = None if self.opponent_pool is None else (list(self.opponent_pool),
                                                          list(self.opponent_weights), pol)
        return (_vector_from_parts, (self.game, self.num_envs, seat, list(self.opponents),
                                     self.threads, states, rngs, arrays, bool(self.seeded),
                                     self.decisions, bool(self.closed), self.metadata, self.spec,
                                     pools))

    def __copy__(self):
        return self.__deepcopy__({})

    def __deepcopy__(self, memo):
        f, args = self.__reduce__()
        return f(*args)

    cdef list _arrays(self):
        return [self._obs, self._mask, self._rew, self._term, self._trunc, self._done,
                self._to_act, self._seat, self._seat_rew, self._final_obs, self._final_mask,
                self._episodes]

    cdef _restore(self, bytes states, bytes rngs, dict arrays, bint seeded, int64_t decisions,
                  bint closed):
        cdef size_t n = <size_t>self.v.n_envs
        if len(states) != n * <size_t>self.v.size or len(rngs) != 2 * n * sizeof(kz_rng):
            raise ValueError("a pickled VectorEnv of another build or size: the state "
                             "structs do not fit")
        for k, dst in zip(_ARRAYS, self._arrays()):
            a = np.asarray(arrays[k])
            if a.shape != dst.shape:
                raise ValueError(f"a pickled VectorEnv with a bad {k[1:]} array {a.shape}")
            dst[...] = a
        memcpy(self.v.states, <const char *>states, len(states))
        memcpy(self.v.rngs, <const char *>rngs, n * sizeof(kz_rng))
        memcpy(self.v.srngs, <const char *>rngs + n * sizeof(kz_rng), n * sizeof(kz_rng))
        self.seeded = seeded
        self.v.decisions[0] = decisions
        self.closed = closed

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed=None, options=None):
        """Deal a new game in every env (seeded from ``seed`` when given; otherwise the
        envs' PRNGs continue, or are seeded from the OS on the first reset).  Returns
        ``(obs, info)`` as ``step`` does."""
        self._check_open()
        if options:
            raise ConfigError(f"reset options are not used by VectorEnv, got {options!r}")
        if seed is not None or not self.seeded:
            self._seed(seed)
        self._episodes[:] = 0
        self._seat_rew[:] = 0
        self._run(RUN_RESET)
        return self._obs_dict(), self._infos()

    def step(self, actions):
        """Apply one action per env; returns ``(obs, rewards, terminated, truncated, info)``
        (module docstring).  ``actions``: ``(num_envs,)`` of an integer dtype (a list is
        accepted), each legal in its env.  Raises ``IllegalActionError`` naming the first bad
        env index before any env is stepped."""
        self._check_open()
        if not self.seeded:
            raise IllegalActionError("call reset() before step()")
        self._check_actions(actions)
        self._run(RUN_STEP)
        return self._obs_dict(), self._rew, self._term, self._trunc, self._infos()

    cdef _check_actions(self, actions):
        cdef int32_t i, N = self.v.n_envs, A = self.v.A
        cdef int64_t a
        cdef int64_t[::1] av
        arr = np.asarray(actions)
        if arr.shape != (N,):
            raise IllegalActionError(f"actions must have shape ({N},) (one per env), got {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be integers (int32/int64), got dtype {arr.dtype}")
        if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and N and arr.max() > 2**62:
            i = int(np.argmax(arr > 2**62))
            raise IllegalActionError(f"env {i}: action {arr[i]} is out of range [0, {A})")
        av = np.ascontiguousarray(arr, dtype=np.int64)
        for i in range(N):
            a = av[i]
            if a < 0 or a >= A:
                raise IllegalActionError(f"env {i}: action {a} is out of range [0, {A}); no env "
                                         f"was stepped")
            if self.v.mask[<size_t>i * A + a] != 1:
                legal = np.flatnonzero(self._mask[i]).tolist()
                shown = ", ".join(map(str, legal[:16])) + (", ..." if len(legal) > 16 else "")
                raise IllegalActionError(f"env {i}: action {a} is not legal for seat "
                                         f"{self.v.to_act[i]} (legal: [{shown}]); no env was stepped")
        for i in range(N):
            self.v.actions[i] = <int32_t>av[i]

    cdef int _run(self, int kind) except -1:
        """One call over every env: chunk 0 on this thread, the others on the persistent
        workers (started on the first call with ``threads > 1``), the GIL released."""
        if self.pool_on and getpid() != self.pool_pid:
            # a forked child (a subprocess vector env) inherits the pool but not its threads:
            # forget it (its memory stays with the parent's copy) and start our own
            self.pool_on = False
        if self.v.n_chunks > 1 and not self.pool_on:
            if kzv_pool_start(&self.pool, self.v.n_chunks - 1, _chunk_work, &self.v) != 0:
                kzv_pool_stop(&self.pool)
                raise RuntimeError("VectorEnv: could not start its worker threads")
            self.pool_on = True
            self.pool_pid = getpid()
        with nogil:
            if self.v.n_chunks == 1:
                _chunk_work(&self.v, 0, kind)
            else:
                kzv_pool_run(&self.pool, kind)
        return 0

    def _obs_dict(self):
        return {"observation": self._obs, "action_mask": self._mask}

    def _infos(self):
        return {"to_act": self._to_act, "seat": self._seat, "seat_rewards": self._seat_rew,
                "final_obs": {"observation": self._final_obs, "action_mask": self._final_mask},
                "_final_obs": self._done}

    def close(self):
        """Stop the worker threads (if any).  Idempotent."""
        self._stop_pool()
        self.closed = True

    def _check_open(self):
        if self.closed:
            raise ConfigError("this VectorEnv is closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def unwrapped(self):
        return self

    @property
    def num_players(self) -> int:
        return self.v.n_players

    @property
    def decisions(self) -> int:
        """Actions applied by every seat (learners and in-core opponents) since creation."""
        cdef int32_t k
        return sum(self.v.decisions[k] for k in range(self.v.n_chunks))

    @property
    def episodes(self):
        """``(num_envs,)`` int64: games finished in each env since the last ``reset``."""
        return self._episodes

    def sample_legal(self, seed=None):
        """A uniformly random legal action per env: ``(num_envs,)`` int64, drawn in C from
        each env's own sampling generator (seeded by ``reset(seed)``, then continuing from
        call to call; ``seed``: an int, reseed those generators from it first).  The same
        seeds give the same draws whatever ``threads``.  Raises ``IllegalActionError``
        before ``reset()``."""
        cdef int32_t i
        cdef uint64_t s
        self._check_open()
        if not self.seeded:
            raise IllegalActionError("call reset() before sample_legal()")
        if seed is not None:
            s = <uint64_t>check_seed(seed)
            for i in range(self.v.n_envs):
                kz_rng_seed(&self.v.srngs[i], s ^ (<uint64_t>(i + 1) * 0xD1B54A32D192ED03ULL))
        self._run(RUN_SAMPLE)
        out = np.empty(self.v.n_envs, dtype=np.int64)
        cdef int64_t[::1] o = out
        if self.v.n_envs:
            memcpy(&o[0], self.v.sample, <size_t>self.v.n_envs * sizeof(int64_t))
        return out

    def get_state(self, i):
        """Env ``i``'s game as a ``State`` (a copy; its event log and history are empty:
        the vectorized env keeps none).  Raises ``IndexError``."""
        i = _c_int(i, "i")
        cdef State s
        if not 0 <= i < self.v.n_envs:
            raise IndexError(f"env {i} out of range 0..{self.v.n_envs - 1}")
        s = self.template.clone()
        memcpy(s.data, _st(&self.v, i), <size_t>self.v.size)
        s.log = EventLog.__new__(EventLog)
        s.n_ev = 0
        s.n_hist = 0
        return s

    # ------------------------------------------------------------------ spaces (Gymnasium)
    def _make_spaces(self):
        if self._spaces is None:
            from krazy_core._vector_meta import spaces
            self._spaces = spaces(self.game, self.v.n_envs)
        return self._spaces

    @property
    def single_observation_space(self):
        return self._make_spaces()[0]

    @property
    def single_action_space(self):
        return self._make_spaces()[1]

    @property
    def observation_space(self):
        return self._make_spaces()[2]

    @property
    def action_space(self):
        return self._make_spaces()[3]

    def __repr__(self):
        seat = {SEAT_RANDOM: "'random'", SEAT_ALL: "'all'"}.get(self.v.seat_mode, str(self.v.seat_mode))
        return (f"VectorEnv({self.game.game_id!r}, num_envs={self.num_envs}, num_players="
                f"{self.v.n_players}, seat={seat}, opponents={list(self.opponents)!r}, "
                f"threads={self.threads})")


_ARRAYS = ("_obs", "_mask", "_rew", "_term", "_trunc", "_done", "_to_act", "_seat",
           "_seat_rew", "_final_obs", "_final_mask", "_episodes")


def _vector_from_parts(game, num_envs, seat, opponents, threads, states, rngs, arrays,
                       seeded, decisions, closed, metadata, spec, pools=None):
    """The unpickler of ``VectorEnv.__reduce__``.  Raises ``ValueError`` when the state
    bytes do not fit this build's structs (a pickle from another version)."""
    cdef VectorEnv env
    if pools is None:
        env = VectorEnv(game, num_envs, seat=seat, opponents=opponents, threads=threads)
    else:
        env = VectorEnv(game, num_envs, seat=seat, opponents=opponents, threads=threads,
                        opponent_pool=pools[0], opponent_weights=pools[1])
        if len(pools[2]) != <size_t>env.v.n_envs * env.v.n_players * sizeof(int32_t):
            raise ValueError("a pickled VectorEnv with a bad opponent table")
        memcpy(env.v.env_policy, <const char *>pools[2], len(pools[2]))
    env._restore(states, rngs, arrays, seeded, decisions, closed)
    env.metadata = metadata
    env.spec = spec
    return env


def truncated(State state) -> bool:
    """Whether ``state`` is over because its game's turn cap ended it (Krazy Kings'
    ``max_turns``, KK-20) rather than by play: the game's ``ops.truncated`` (games without
    one: never).  The RL envs report such an end as a truncation."""
    return state.ops.truncated != NULL and state.ops.truncated(state.data) != 0


def observation_tensor_into(State state, player, float[::1] out):
    """Write ``state.observation_tensor(player)`` into ``out`` (a float32 array of
    ``game.observation_tensor_shape``) through the game's ``ops.observation_tensor``, without
    allocating.  Raises ``ValueError`` for a seat out of range or a wrong length."""
    player = _c_int(player, "player")
    if not 0 <= player < state.ops.num_players(state.data):
        raise ValueError(f"player {player!r} out of range 0..{state.ops.num_players(state.data) - 1}")
    if out.shape[0] != state.ops.tensor_size:
        raise ValueError(f"out must hold {state.ops.tensor_size} float32, got {out.shape[0]}")
    state.ops.observation_tensor(state.data, player, &out[0])
