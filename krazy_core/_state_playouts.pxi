# The generic State: batch playouts without the GIL (simulate_random and its slices).
#
# Included by _state.pyx (textually: one C unit with it).

cdef long long _heuristic_playouts(const kz_ops *ops, void *st, long long g0, long long g1,
                                   uint64_t seed, kz_rng *rng, long long *terminal_games) noexcept nogil:
    """Games g0..g1-1 of simulate_random(policy="heuristic"), every seat on the C heuristic."""
    cdef long long g, decisions = 0
    cdef int32_t a
    for g in range(g0, g1):
        ops.new_game(st, seed + <uint64_t>g)
        while not ops.is_terminal(st):
            a = ops.heuristic_action(st, rng)
            if a < 0:
                break
            ops.apply_action(st, a, NULL)
            decisions += 1
        terminal_games[0] += 1
    return decisions


cdef long long _random_playouts(const kz_ops *ops, void *st, long long g0, long long g1,
                                uint64_t seed, kz_rng *rng, long long *terminal_games) noexcept nogil:
    """Games g0..g1-1 of simulate_random (game g dealt from seed + g), drawing from rng."""
    cdef int32_t acts[SCRATCH]
    cdef long long g, decisions = 0
    cdef int n
    cdef int32_t a
    for g in range(g0, g1):
        ops.new_game(st, seed + <uint64_t>g)
        if ops.random_playout != NULL:       # the same loop, inlined by the game (ops.h)
            decisions += ops.random_playout(st, rng, -1)
            terminal_games[0] += 1
            continue
        while not ops.is_terminal(st):
            if ops.random_action != NULL:        # the same draw and pick, without the list
                a = ops.random_action(st, rng)
                if a < 0:
                    break
            else:
                n = ops.legal_actions(st, acts)
                if n <= 0:
                    break
                a = acts[kz_bounded(rng, <uint32_t>n)]
            ops.apply_action(st, a, NULL)
            decisions += 1
        terminal_games[0] += 1
    return decisions


def _games_in_slices(n_games):
    """An iterator of ``(g0, g1)`` ranges covering games ``0..n_games-1`` (none for
    ``n_games <= 0``) for a loop that runs each range without the GIL and looks for signals
    between two (``PyErr_CheckSignals``: Ctrl-C raises ``KeyboardInterrupt`` within about
    ``SLICE_SECONDS``).  Ranges start at one game and double while a range takes less than a
    tenth of that, so the checks cost nothing measurable; the games and their draws are those
    of one uninterrupted loop.  Raises ``ConfigError`` (when called) for an ``n_games`` that
    is not an int or is beyond ``2**63 - 1``."""
    return _slices(_c_count(n_games, "n_games", -2**63, 2**63 - 1))


def _slices(n):
    """The generator of ``_games_in_slices`` (``n`` checked again: a ``ConfigError`` at the
    first step for a count beyond a C ``long long``)."""
    import time
    cdef long long n_games = _c_count(n, "n_games", -2**63, 2**63 - 1)
    cdef long long g = 0, k = 1
    while g < n_games:
        k = min(k, n_games - g)
        t = time.perf_counter()
        yield g, g + k
        g += k
        PyErr_CheckSignals()
        if time.perf_counter() - t < SLICE_SECONDS / 10 and k < 2**40:
            k *= 2


def simulate_random(game, n_games, seed=0, str policy="random") -> dict:
    """Play ``n_games`` games of ``game`` with uniformly random moves entirely in the core,
    without the GIL (no Python per move).  Game ``i`` is dealt from ``seed + i``.
    ``policy="heuristic"``: every seat plays the game's C heuristic instead.  Every
    ``simulate_random`` of the package (``kings_rummy``, ``krass_kariert``) has this signature
    and this result.

    Returns ``{"games": int, "decisions": int, "seconds": float, "decisions_per_second":
    float}``: decisions are player actions (dice and shuffles are not actions).  Raises
    ``ConfigError`` for an ``n_games`` that is not an int in ``1..2**63-1`` or an unknown
    policy; ``KeyboardInterrupt`` on
    Ctrl-C (the games run in slices of at most about ``SLICE_SECONDS`` between two looks for
    signals).
    """
    import time
    cdef State s
    cdef long long decisions = 0, done = 0, g0, g1
    cdef uint64_t sd
    cdef kz_rng rng
    n_games = _c_count(n_games, "n_games")
    if policy not in ("random", "heuristic"):
        raise ConfigError(f"policy must be 'random' or 'heuristic', got {policy!r}")
    cdef bint heur = policy == "heuristic"
    s = game.new_initial_state(seed)
    if s.data == NULL: s._not_ready()
    sd = <uint64_t>check_seed(seed)
    kz_rng_seed(&rng, sd ^ 0xA5A5A5A5DEADBEEFULL)
    t0 = time.perf_counter()
    for g0, g1 in _games_in_slices(n_games):     # Ctrl-C stops it between two slices
        with nogil:
            if heur:
                decisions += _heuristic_playouts(s.ops, s.data, g0, g1, sd, &rng, &done)
            else:
                decisions += _random_playouts(s.ops, s.data, g0, g1, sd, &rng, &done)
    dt = time.perf_counter() - t0
    return {"games": done, "decisions": decisions, "seconds": dt,
            "decisions_per_second": decisions / dt if dt > 0 else float("inf")}
