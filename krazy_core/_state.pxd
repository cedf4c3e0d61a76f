# cython: language_level=3
"""The generic State every game's state class extends (layout contract)."""
from libc.stdint cimport int32_t
from krazy_core._ops cimport kz_ops, kz_events, kz_rng

cdef class EventLog:
    cdef kz_events ev               # append-only int32 records, KZ_EV_WIDTH per event
    cdef kz_events hist             # the action history: (player, action) int32 pairs

cdef class State:
    cdef const kz_ops *ops          # the game's C function table
    cdef void *data                 # ops.state_size bytes: the whole game state, PRNG included
    cdef readonly object game       # the immutable krazy_core.game.Game this state belongs to
    cdef EventLog log               # shared copy-on-write with clones
    cdef Py_ssize_t n_ev            # int32 values of `log` that belong to this state
    cdef Py_ssize_t n_hist          # int32 values of `log.hist` that belong to this state

    cdef int _init(self, const kz_ops *ops, object game) except -1
    cdef State _blank(self)
    cdef int _not_ready(self) except -1
    cdef int _player_index(self, player) except -1
    cdef kz_events *_writable_log(self) except NULL
    cdef int _legal(self, int32_t *out) noexcept
    cdef const int32_t *_event_data(self) noexcept
    cdef int _validate_loaded(self) except -1
