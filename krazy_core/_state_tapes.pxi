# The generic State: explicit chance (Tape, rng_words, apply_taped, new_state_taped)
# for OpenSpiel's explicit-chance games (krazy_core/envs/openspiel.py).
#
# Included by _state.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ explicit chance (tapes)
# OpenSpiel's explicit-chance games (krazy_core/envs/openspiel.py) resolve every random draw
# of the engine as a chance node: an action (or a new deal) is applied with the state's own
# generator "taped" (src/krazy/rng.h): each bounded draw reads the next chosen outcome.  The
# generator lives inside each game's struct; its byte offset is found once per game.

cdef dict _RNG_AT = {}
cdef object _tape_next = None


@cython.final
cdef class Tape:
    """The outcomes of the draws of one step, for a taped generator (``rng.h``).

    ``Tape(values)``: ``values`` a sequence of ints ``>= 0`` (each the outcome of one bounded
    draw ``kz_bounded(n)``, in ``[0, n)``).  After a taped step, ``pos`` is the number of
    draws the step made and ``need`` the ``n`` of the first draw past the end of the tape
    (0 when the tape covered every draw: the step is fully determined)."""
    cdef kz_tape t
    cdef uint32_t *vals

    def __cinit__(self, values=()):
        cdef Py_ssize_t i, n = len(values)
        self.vals = <uint32_t *>malloc(<size_t>(n + 1) * sizeof(uint32_t))
        if self.vals == NULL:
            raise MemoryError()
        for i in range(n):
            v = values[i]
            if not 0 <= v < 2 ** 32:
                raise ValueError(f"tape values are draws in [0, 2**32), got {v!r}")
            self.vals[i] = <uint32_t>v
        self.t.vals = self.vals
        self.t.len = <int32_t>n
        self.t.pos = 0
        self.t.need = 0
        kz_rng_seed(&self.t.rest, 0x7A9E5EED)

    def __init__(self, values=()):
        pass                            # filled by __cinit__

    def __dealloc__(self):
        free(self.vals)

    @property
    def pos(self) -> int:
        return self.t.pos

    @property
    def need(self) -> int:
        return self.t.need


cdef Py_ssize_t _rng_offset(State s) except -1:
    """Byte offset of the state's own ``kz_rng`` in its struct (found once per game, by
    looking for the generator words its JSON gives: they must occur exactly once)."""
    key = <size_t>s.ops
    off = _RNG_AT.get(key)
    if off is None:
        import sys
        words = json.loads(s.to_json())["state"]["rng"]
        pat = b"".join(int(w).to_bytes(8, sys.byteorder) for w in words)
        data = (<char *>s.data)[:s.ops.state_size]
        off = data.find(pat)
        if off < 0 or off % 8 or data.find(pat, off + 1) >= 0:
            raise RuntimeError(f"{s.ops.game_id.decode()}: cannot locate the state's generator")
        _RNG_AT[key] = off
    return off


cdef int _arm(State s, Tape tape) except -1:
    cdef Py_ssize_t off = _RNG_AT[<size_t>s.ops]
    cdef uint64_t *w = <uint64_t *>(<char *>s.data + off)
    w[0] = 0
    w[1] = 0
    w[2] = 0
    w[3] = <uint64_t><size_t>&tape.t
    return 0


def rng_words(State s not None, words=None):
    """The four words of ``s``'s own generator (a list); with ``words`` (four ints in
    ``[0, 2**64)``, not all zero), set them first and return the old ones."""
    if s.data == NULL: s._not_ready()
    cdef uint64_t *w = <uint64_t *>(<char *>s.data + _rng_offset(s))
    old = [w[0], w[1], w[2], w[3]]
    if words is not None:
        ws = [int(x) for x in words]
        if len(ws) != 4 or any(not 0 <= x < 2 ** 64 for x in ws) or not any(ws[:3]):
            raise ValueError(f"generator words must be four ints in [0, 2**64), the first three "
                             f"not all zero (that marks a tape): {words!r}")
        for i in range(4):
            w[i] = <uint64_t>ws[i]
    return old


def apply_taped(State s not None, action, Tape tape not None, words):
    """Apply ``action`` to ``s`` with its generator taped: every bounded draw the step makes
    reads ``tape``; afterwards the generator is set to ``words`` (four ints, the state's
    deterministic generator in explicit-chance play).  Raises ``IllegalActionError`` as
    ``apply_action`` (the state unchanged).  Check ``tape.need`` after: non-zero means the
    step drew past the tape (the caller discards ``s``)."""
    if s.data == NULL: s._not_ready()
    _rng_offset(s)
    old = rng_words(s)
    _arm(s, tape)
    try:
        s.apply_action(action)
    except BaseException:
        rng_words(s, old)
        raise
    rng_words(s, words)


def new_state_taped(game, Tape tape not None, words):
    """``game.new_initial_state(0)`` dealt from ``tape`` (the shuffle and any dice of the
    deal read it; the seed is ignored), its generator then set to ``words``."""
    global _tape_next
    probe = game.new_initial_state(0)
    _rng_offset(probe)
    _tape_next = tape
    try:
        s = game.new_initial_state(0)
    finally:
        _tape_next = None
    rng_words(s, words)
    return s
