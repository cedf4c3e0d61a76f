# ISMCTS: loading the learned value and policy models into a worker (value="model",
# prior_from="model"), chance nodes, and their Python faces policy_priors and model_values.
#
# Included by ismcts.pyx (textually: one C unit with it).

cdef int _attach_model(_Worker wk, dict model) except -1:
    """Point the worker at the value model's float32 arrays (checked by ``_model_arrays``)."""
    cdef const float[:, ::1] w1 = model["w1"]
    cdef const float[::1] b1 = model["b1"]
    cdef const float[::1] w2 = model["w2"]
    cdef const float[::1] b2 = model["b2"]
    wk.model_ref = model
    wk.w.value_model = 1
    wk.w.v_inputs = <int32_t>w1.shape[0]
    wk.w.v_hidden = <int32_t>w1.shape[1]
    wk.w.v_w1 = &w1[0, 0]
    wk.w.v_b1 = &b1[0]
    wk.w.v_w2 = &w2[0]
    wk.w.v_b2 = b2[0]
    wk.w.v_loser = 1 if model.get("outcome") == "one_loser" else 0
    wk.w.v_obs = <float *>malloc(<size_t>(wk.w.v_inputs + 1) * sizeof(float))
    wk.w.v_h = <float *>malloc(<size_t>(wk.w.v_hidden + 1) * sizeof(float))
    wk.w.v_nz = <int32_t *>malloc(<size_t>(wk.w.v_inputs + 1) * sizeof(int32_t))
    wk.w.v_nzv = <float *>malloc(<size_t>(wk.w.v_inputs + 1) * sizeof(float))
    wk.w.v_on = <int32_t *>malloc(<size_t>(wk.w.v_hidden + 1) * sizeof(int32_t))
    if wk.w.v_obs == NULL or wk.w.v_h == NULL or wk.w.v_nz == NULL or wk.w.v_nzv == NULL or wk.w.v_on == NULL:
        raise MemoryError()
    return 0


def _tensor_game(State state not None, what):
    """The game id of a ready ``state`` whose game has an observation tensor (what the
    learned models and ``chance_nodes`` read); else ``ConfigError`` naming ``what``."""
    if state.data == NULL:
        state._not_ready()
    gid = state.ops.game_id.decode()
    if state.ops.observation_tensor == NULL or state.ops.tensor_size <= 0:
        raise ConfigError(f"{what}: {gid} has no observation tensor in its GameOps table")
    return gid


def _model_arrays(State state not None, model):
    """The value model for ``state``'s game (``model``: ``None`` for the shipped one, or a
    ``.npz`` path), checked against the game's observation tensor.  Raises ``ConfigError``
    (``TypeError`` for a non-State, ``InvalidStateError`` for an unready one)."""
    from krazy_core.search.value_model import load_value_model
    gid = _tensor_game(state, "value='model'")
    cdef const kz_ops *ops = state.ops
    m = load_value_model(gid if model is None else model)
    if m["w1"].shape[0] != ops.tensor_size:
        raise ConfigError(f"value model {model or gid!r} takes {m['w1'].shape[0]} inputs; "
                          f"{gid}'s observation tensor has {ops.tensor_size}")
    return m


cdef int _attach_policy(_Worker wk, dict model) except -1:
    """Point the worker at the policy model's float32 arrays (checked by ``_policy_arrays``;
    ``w2t`` is ``w2`` transposed, made there) and give its tree a prior per node."""
    cdef const float[:, ::1] w1 = model["w1"]
    cdef const float[::1] b1 = model["b1"]
    cdef const float[:, ::1] w2t = model["w2t"]
    cdef const float[::1] b2 = model["b2"]
    cdef const kz_ops *ops = wk.w.ops
    wk.policy_ref = model
    wk.w.policy_prior = 1
    wk.w.p_inputs = <int32_t>w1.shape[0]
    wk.w.p_hidden = <int32_t>w1.shape[1]
    wk.w.p_actions = <int32_t>w2t.shape[0]
    wk.w.p_w1 = &w1[0, 0]
    wk.w.p_b1 = &b1[0]
    wk.w.p_w2 = &w2t[0, 0]
    wk.w.p_b2 = &b2[0]
    wk.w.p_obs = <float *>malloc(<size_t>(wk.w.p_inputs + 1) * sizeof(float))
    wk.w.p_h = <float *>malloc(<size_t>(wk.w.p_hidden + 1) * sizeof(float))
    wk.w.p_prob = <double *>malloc(<size_t>(ops.max_legal + 1) * sizeof(double))
    wk.w.p_nz = <int32_t *>malloc(<size_t>(wk.w.p_inputs + 1) * sizeof(int32_t))
    wk.w.p_nzv = <float *>malloc(<size_t>(wk.w.p_inputs + 1) * sizeof(float))
    wk.w.p_on = <int32_t *>malloc(<size_t>(wk.w.p_hidden + 1) * sizeof(int32_t))
    wk.w.tree.prior = <float *>malloc(<size_t>wk.w.tree.cap * sizeof(float))
    if (wk.w.p_obs == NULL or wk.w.p_h == NULL or wk.w.p_prob == NULL or wk.w.p_nz == NULL
            or wk.w.p_nzv == NULL or wk.w.p_on == NULL or wk.w.tree.prior == NULL):
        raise MemoryError()
    memset(wk.w.tree.prior, 0, <size_t>wk.w.tree.cap * sizeof(float))
    return 0


cdef int _enable_chance_nodes(_Worker wk) except -1:
    cdef const kz_ops *ops = wk.w.ops
    _tensor_game(wk.root_state, "chance_nodes=True")
    wk.w.chance_nodes = 1
    wk.w.c_inputs = ops.tensor_size
    wk.w.c_obs = <float *>malloc(<size_t>(ops.tensor_size + 1) * sizeof(float))
    if wk.w.c_obs == NULL:
        raise MemoryError()
    return 0


def _policy_arrays(State state not None, model):
    """The policy model for ``state``'s game (``model``: ``None`` for the shipped one, or a
    ``.npz`` path), checked against the game's observation tensor and action count, with
    ``w2t`` (``w2`` transposed, C-contiguous) added for the C pass.  Raises ``ConfigError``."""
    import numpy as np
    from krazy_core.search.policy_model import load_policy_model
    gid = _tensor_game(state, "prior_from='model'")
    cdef const kz_ops *ops = state.ops
    m = load_policy_model(gid if model is None else model)
    if m["w1"].shape[0] != ops.tensor_size or m["w2"].shape[1] != ops.num_distinct_actions:
        raise ConfigError(f"policy model {model or gid!r} takes {m['w1'].shape[0]} inputs and scores "
                          f"{m['w2'].shape[1]} actions; {gid} has an observation tensor of "
                          f"{ops.tensor_size} and {ops.num_distinct_actions} actions")
    if "w2t" not in m:
        m["w2t"] = np.ascontiguousarray(m["w2"].T)
    return m


def policy_priors(state, model=None):
    """The policy model's prior over the legal actions of the player to act at ``state``, as
    ``search(..., prior_from="model")`` computes it in C: ``{action: probability}`` (sums to
    1).  ``model``: ``None`` (the game's shipped policy) or a ``.npz`` path.  Raises
    ``ConfigError`` when the game has no policy model or tensor, ``IllegalActionError`` at a
    terminal state."""
    if not isinstance(state, State):
        raise TypeError(f"policy_priors() needs a krazy_core State, got {type(state).__name__}")
    if (<State>state).data == NULL:
        (<State>state)._not_ready()
    cdef State st = <State>state
    if st.ops.is_terminal(st.data):
        raise IllegalActionError("the game is over: no legal action to give a prior to")
    m = _policy_arrays(st, model)
    cdef _Worker wk = _make_worker(st, 0, 0.7, 0.0, True, 0, 1, 0.0, 1, False, False, False, False, -1)
    _attach_policy(wk, m)
    cdef int32_t i, n = st.ops.legal_actions(st.data, wk.w.legal)
    cdef int32_t p = st.ops.current_player(st.data)
    with nogil:
        _policy_probs(&wk.w, st.data, p, n)
    return {int(wk.w.legal[i]): float(wk.w.p_prob[i]) for i in range(n)}


def model_values(state, model=None):
    """Each seat's return at ``state`` as ``search(..., value="model")`` backs it up, computed
    by the search's own C forward pass (list of float, length ``num_players``, sums to 1, or to
    n - 1 in a game of one loser; the exact returns at a terminal state).  ``model``: ``None`` (the game's shipped model) or a
    ``.npz`` path.  Raises ``ConfigError`` when the game has no model or tensor."""
    if not isinstance(state, State):
        raise TypeError(f"model_values() needs a krazy_core State, got {type(state).__name__}")
    if (<State>state).data == NULL:
        (<State>state)._not_ready()
    cdef State st = <State>state
    m = _model_arrays(st, model)
    cdef _Worker wk = _make_worker(st, 0, 0.7, 0.0, True, 0, 1, 0.0, 1, False, False, False, False, -1)
    _attach_model(wk, m)
    cdef double R[KZ_MAX_PLAYERS]
    cdef int i, n = st.ops.num_players(st.data)
    if st.ops.is_terminal(st.data):
        return st.returns()
    with nogil:
        _model_values(&wk.w, st.data, R)
    return [R[i] for i in range(n)]


def _observation_nonzeros(State state not None, player, bint scan=False):
    """Seat ``player``'s observation tensor as the search's learned models read it: ``(idx,
    val)``, the indices (ascending, list of int) and values (list of float) of its nonzero
    entries, from the game's ``observation_nonzeros`` (``scan=True``, or a game without it:
    the dense tensor scanned).  For tests: both equal the nonzeros of
    ``state.observation_tensor(player)``.  Raises ``ConfigError`` for a game without a
    tensor, ``ValueError`` for a seat out of range."""
    _tensor_game(state, "_observation_nonzeros")
    cdef const kz_ops *ops = state.ops
    if type(player) is not int or not 0 <= player < ops.num_players(state.data):
        raise ValueError(f"player must be a seat, an int in 0..{ops.num_players(state.data) - 1}, got {player!r}")
    cdef int32_t T = ops.tensor_size, k
    cdef int seat = player
    cdef float *x = <float *>malloc(<size_t>(T + 1) * sizeof(float))
    cdef float *val = <float *>malloc(<size_t>(T + 1) * sizeof(float))
    cdef int32_t *nz = <int32_t *>malloc(<size_t>(T + 1) * sizeof(int32_t))
    try:
        if x == NULL or val == NULL or nz == NULL:
            raise MemoryError()
        if scan or ops.observation_nonzeros == NULL:
            ops.observation_tensor(state.data, seat, x)
            k = kz_nonzero_inputs(x, T, nz, val)
        else:
            k = _tensor_nonzeros(ops, state.data, seat, x, nz, val)
        return [int(nz[i]) for i in range(k)], [float(val[i]) for i in range(k)]
    finally:
        free(x)
        free(val)
        free(nz)


def _first_layer_avx(flag=None):
    """Whether the policy's first layer takes its AVX path (x86 with AVX, hidden units a
    multiple of 64): the setting after setting it to ``flag`` (bool) when given.  For
    tests: the 4-float path must give the same floats.  ``True`` on a CPU without AVX
    raises ``ValueError``."""
    global kz_avx_state
    if flag is not None:
        if flag and not kz_cpu_avx():
            raise ValueError("this CPU (or this build) has no AVX path")
        kz_avx_state = 1 if flag else 0
    return kz_have_avx() != 0
