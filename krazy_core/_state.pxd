# cython: language_level=3
"""The generic State every game's state class extends (layout contract)."""
from libc.stdint cimport int32_t
from krazy_core._ops cimport kz_ops, kz_events, kz_rng

cdef class EventLog:
    # One node of a state's log: the first base_ev event values and base_hist history values
    # of `base`'s log (flattened; None: none), then this node's own values.  What a state
    # reads of a node never changes: a node only grows at its end, and only while no state
    # sharing it has appended past it (State._writable_log).
    cdef kz_events ev               # own event values, KZ_EV_WIDTH int32 per event (append-only)
    cdef kz_events hist             # own history values: (player, action) int32 pairs
    cdef EventLog base              # the shared prefix, or None
    cdef Py_ssize_t base_ev         # int32 event values read from base before ev
    cdef Py_ssize_t base_hist       # int32 history values read from base before hist
    cdef int depth                  # nodes below this one (0: base is None)

cdef class State:
    cdef const kz_ops *ops          # the game's C function table
    cdef void *data                 # ops.state_size bytes: the whole game state, PRNG included
    cdef readonly object game       # the immutable krazy_core.game.Game this state belongs to
    cdef EventLog log               # the log's last node, shared with clones (prefix shared)
    cdef Py_ssize_t n_ev            # int32 event values of `log` (flattened) that belong to this state
    cdef Py_ssize_t n_hist          # int32 history values of `log` (flattened) that belong to this state

    cdef int _init(self, const kz_ops *ops, object game) except -1
    cdef State _blank(self)
    cdef int _not_ready(self) except -1
    cdef int _player_index(self, player) except -1
    cdef kz_events *_writable_log(self) except NULL
    cdef int _flat_log(self, EventLog fresh, bint events, bint history) except -1
    cdef int _legal(self, int32_t *out) noexcept
    cdef const int32_t *_log_span(self, bint hist, Py_ssize_t start, int32_t **tmp) except? NULL
    cdef int _log_read(self, bint hist, Py_ssize_t start, int32_t *out) except -1
    cdef int _log_starts_with(self, State old) except -1
    cdef int _validate_loaded(self) except -1
