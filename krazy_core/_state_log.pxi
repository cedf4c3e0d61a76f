# The generic State's event log and action history: EventLog nodes shared between a state
# and its clones (a shared prefix, then each node's own tail), and the helpers that read them.
#
# Included by _state.pyx (textually: one C unit with it).

cdef enum:
    LOG_MAX_DEPTH = 32          # log nodes below a new one before it is flattened instead
    TAIL_EV = 64                # int32 values a new tail node allocates first (16 events)
    TAIL_HIST = 16              # (8 actions); it grows by doubling (kz_ev_reserve)


@cython.final
cdef class EventLog:
    """One node of a state's event log and action history: the shared prefix (the first
    ``base_ev`` event values and ``base_hist`` history values of the ``base`` node's log,
    flattened; none when ``base`` is None), then this node's own append-only int32 event
    records (``src/krazy/events.h``: the game C code pushes into ``ev``) and ``(player,
    action)`` pairs.  At most ``LOG_MAX_DEPTH`` nodes deep."""

    def __dealloc__(self):
        kz_ev_free(&self.ev)
        kz_ev_free(&self.hist)


def _log_layout(State state not None):
    """FOR TESTS: the nodes of ``state``'s event log, last first: a list of ``(shared_ev,
    own_ev, shared_hist, own_hist)`` int32 value counts (what the node takes from its base,
    and what it holds itself), and the node's ``id`` beside it: ``[(id, (a, b, c, d)), ...]``."""
    if state.data == NULL: state._not_ready()
    out = []
    cdef EventLog node = state.log
    while node is not None:
        out.append((id(node), (node.base_ev, node.ev.n, node.base_hist, node.hist.n)))
        node = node.base
    return out


cdef int _reserve_exact(kz_events *e, Py_ssize_t cap) except -1:
    """A first allocation of ``cap`` int32 values for an empty ``e`` (kz_ev_reserve would
    start at 256)."""
    if cap > 0 and e.cap == 0:
        e.data = <int32_t *>malloc(<size_t>cap * sizeof(int32_t))
        if e.data == NULL:
            raise MemoryError()
        e.cap = <int32_t>cap
    return 0


cdef inline kz_events *_part(EventLog node, bint hist) noexcept:
    return &node.hist if hist else &node.ev


cdef inline Py_ssize_t _base_n(EventLog node, bint hist) noexcept:
    return node.base_hist if hist else node.base_ev


cdef void _log_copy(EventLog node, Py_ssize_t n, bint hist, Py_ssize_t start, int32_t *out) noexcept:
    """Copy the values ``[start, n)`` of ``node``'s flattened log (the events, or the history
    when ``hist``) to ``out``: each node's own values from its shared length on, walking
    down to the root.  ``n`` is at most the node's flattened length."""
    cdef Py_ssize_t b, lo
    cdef kz_events *e
    while node is not None and n > start:
        b = _base_n(node, hist)
        if n > b:
            lo = b if b > start else start
            e = _part(node, hist)
            memcpy(out + (lo - start), e.data + (lo - b), <size_t>(n - lo) * sizeof(int32_t))
            n = lo
        node = node.base
