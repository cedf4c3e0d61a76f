# cython: language_level=3
"""The generic State: OpenSpiel's verbs over a game's C struct and its GameOps table.

Each game module subclasses :class:`State`, fills a ``kz_ops`` table (``src/krazy/ops.h``)
and adds what needs its struct's fields: ``observation``, ``action_to_string``,
``string_to_action``, ``_to_dict`` (JSON body), ``_event_dict``, ``_explain_illegal`` and
``__str__``.  Everything here is game-blind (``observation_tensor`` runs the table's writer;
the game's ``TENSOR_LAYOUT`` describes its segments).

The event log and the action history are shared between a state and its clones, so
``clone()`` is one ``memcpy`` of the struct; when two of them diverge, the one that did not
append first starts a new log node that refers to the shared prefix (``EventLog``: a node
holds a base node, the length of the base it shares and its own tail), so a diverging clone
costs its own events, not a copy of the whole log.  Readers flatten on read.
"""

cimport cython
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memcpy, memcmp, memset
from libc.stdlib cimport calloc, free, malloc
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdio cimport snprintf
from cpython.exc cimport PyErr_CheckSignals
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING

import json

import numpy as np

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_tape, kz_rng_seed, kz_ev_reserve, kz_bounded,
                              kz_ev_free, KZ_EV_WIDTH, KZ_TERMINAL, KZ_MAX_PLAYERS)
from krazy_core.errors import IllegalActionError, InvalidStateError, ConfigError, UnclearActionError

cdef enum:
    SCRATCH = 8192
cdef int32_t _scratch[SCRATCH]       # legal actions of the state being asked (GIL held)

TERMINAL_PLAYER = KZ_TERMINAL
MAX_PLAYERS = KZ_MAX_PLAYERS
EVENT_WIDTH = KZ_EV_WIDTH
JSON_FORMAT = 1
BYTES_MAGIC = b"KZST"
BYTES_FORMAT = 1
MAX_LOG = 10_000_000     # events, and history entries, a loader takes (JSON and bytes alike)
SLICE_SECONDS = 0.05     # in-core loops (simulate_random) look for Ctrl-C at least this often


from krazy_core.rng import check_seed     # the PRNG sits below the state
from krazy_core._validate import c_int as _c_int, c_count as _c_count, is_bool as _is_bool
import krazy_core._words as _words           # the game's words (pure Python, game-blind)

# ------------------------------------------------------------------ the bytes and JSON formats
include "_state_format.pxi"


# ------------------------------------------------------------------ the event log
include "_state_log.pxi"


cdef class State:
    """A game state.  Create one with ``game.new_initial_state(seed)`` or
    ``game.state_from_json(text)``, never directly.

    The verbs are OpenSpiel's: ``current_player()``, ``legal_actions()``,
    ``legal_action_mask()``, ``apply_action()``, ``is_terminal()``, ``returns()``,
    ``clone()``.  Actions are ints in ``[0, game.num_distinct_actions)``; each game
    documents its action table at the top of its module.

    Seats: every verb that takes a player (``observation``, ``observation_tensor``,
    ``determinize``, ``hand``, ``legal_actions(player)``, ``legal_action_mask(player)``,
    ``events_for``) wants an ``int`` seat ``0..num_players-1`` (or a numpy integer) and
    raises ``ValueError`` for anything else: a ``bool``, a ``float`` such as ``1.5``, a
    string (``events_for`` also takes ``None`` and ``"all"``), or a seat out of range,
    however large.  A state made without its factory (``type(s).__new__(type(s))``) holds
    nothing: every method raises ``InvalidStateError``.
    """

    def __init__(self, *args, **kwargs):
        raise TypeError("states are made by game.new_initial_state(seed) or game.state_from_json(text)")

    def __dealloc__(self):
        if self.data != NULL:
            free(self.data)
            self.data = NULL

    cdef int _init(self, const kz_ops *ops, object game) except -1:
        global _tape_next
        self.ops = ops
        self.game = game
        self.data = calloc(1, ops.state_size)
        if self.data == NULL:
            raise MemoryError()
        if _tape_next is not None:        # new_state_taped: this deal reads a tape
            _arm(self, _tape_next)
            _tape_next = None
        self.log = EventLog.__new__(EventLog)
        self.n_ev = 0
        self.n_hist = 0
        return 0

    cdef State _blank(self):
        raise NotImplementedError

    cdef int _not_ready(self) except -1:
        """Raise for a state made without its factory (``type(s).__new__(type(s))``, a
        subclass whose ``__init__`` skips the game's, ``copy.copy`` of one): its struct is
        NULL.  Every Python-facing method checks ``self.data == NULL`` first (one compare)."""
        raise InvalidStateError(
            f"this {type(self).__name__} was not made by game.new_initial_state(seed) or "
            "game.state_from_json(text): it holds no state")

    cdef int _player_index(self, player) except -1:
        """``player`` as a seat ``0..num_players-1``: an ``int`` or anything with
        ``__index__`` (a numpy integer), never a ``bool``, a ``float`` or a string.  Raises
        ``ValueError`` for anything else and for a seat out of range (one contract for every
        verb that takes a seat; see the class docstring)."""
        if self.data == NULL: self._not_ready()
        cdef int n = self.ops.num_players(self.data)
        if _is_bool(player) or not hasattr(type(player), "__index__"):
            raise ValueError(f"player must be a seat 0..{n - 1} (an int), got {player!r}")
        p = player.__index__()
        if not 0 <= p < n:
            raise ValueError(f"player {player!r} out of range 0..{n - 1}")
        return p

    cdef kz_events *_writable_log(self) except NULL:
        """The log node to append to (its ``ev``; ``hist`` beside it): ours if no state
        sharing it has appended past our end (to the events or the history), else a new tail
        node whose base is the shared prefix (nothing copied; past ``LOG_MAX_DEPTH`` nodes,
        one flat copy of our part instead)."""
        cdef EventLog head = self.log, fresh
        if (head.base_ev + head.ev.n == self.n_ev and head.base_hist + head.hist.n == self.n_hist):
            return &head.ev
        # skip nodes whose own values we do not use
        while (head.base is not None and head.base_ev == self.n_ev
               and head.base_hist == self.n_hist):
            head = head.base
        fresh = EventLog.__new__(EventLog)
        if head.depth + 1 >= LOG_MAX_DEPTH:
            self._flat_log(fresh, True, True)
        else:
            fresh.base = head
            fresh.base_ev = self.n_ev
            fresh.base_hist = self.n_hist
            fresh.depth = head.depth + 1
            _reserve_exact(&fresh.ev, TAIL_EV)
            _reserve_exact(&fresh.hist, TAIL_HIST)
        self.log = fresh
        return &fresh.ev

    cdef int _flat_log(self, EventLog fresh, bint events, bint history) except -1:
        """Fill the empty root node ``fresh`` with a flat copy of this state's events (when
        ``events``) and history (when ``history``), with room to grow."""
        if events:
            if kz_ev_reserve(&fresh.ev, <int32_t>self.n_ev + 64 * KZ_EV_WIDTH) != 0:
                raise MemoryError()
            _log_copy(self.log, self.n_ev, False, 0, fresh.ev.data)
            fresh.ev.n = <int32_t>self.n_ev
        if history:
            if kz_ev_reserve(&fresh.hist, <int32_t>self.n_hist + 128) != 0:
                raise MemoryError()
            _log_copy(self.log, self.n_hist, True, 0, fresh.hist.data)
            fresh.hist.n = <int32_t>self.n_hist
        return 0

    cdef int _legal(self, int32_t *out) noexcept:
        return self.ops.legal_actions(self.data, out)

    cdef const int32_t *_log_span(self, bint hist, Py_ssize_t start, int32_t **tmp) except? NULL:
        """This state's event values (or history values when ``hist``) from ``start`` to its
        end, contiguous: a pointer into the last log node when they all lie there (the usual
        case: nothing copied, ``*tmp`` set to NULL), else a flat copy in ``*tmp``, which the
        caller frees.  The one place the readers (``raw_events``, ``history``, ``to_json``,
        ``__eq__``, the search's ``previous`` check) reach the log's storage."""
        cdef Py_ssize_t n = self.n_hist if hist else self.n_ev
        cdef Py_ssize_t b = _base_n(self.log, hist)
        tmp[0] = NULL
        if start >= b:
            return _part(self.log, hist).data + (start - b)
        tmp[0] = <int32_t *>malloc(<size_t>(n - start) * sizeof(int32_t))
        if tmp[0] == NULL:
            raise MemoryError()
        _log_copy(self.log, n, hist, start, tmp[0])
        return tmp[0]

    cdef int _log_read(self, bint hist, Py_ssize_t start, int32_t *out) except -1:
        """Copy this state's event values (or history values) from ``start`` to its end to
        ``out`` (``to_bytes`` writes them straight into its output)."""
        _log_copy(self.log, self.n_hist if hist else self.n_ev, hist, start, out)
        return 0

    cdef int _log_starts_with(self, State old) except -1:
        """1 when ``old``'s events and history are the start of this state's, else 0."""
        cdef int32_t *ta = NULL
        cdef int32_t *tb = NULL
        cdef const int32_t *a
        cdef const int32_t *b
        cdef bint h
        cdef Py_ssize_t n
        if self.n_ev < old.n_ev or self.n_hist < old.n_hist:
            return 0
        if self.log is old.log:          # one node, which only grows: old's part is ours
            return 1
        for h in (False, True):
            n = old.n_hist if h else old.n_ev
            if n == 0:
                continue
            try:
                a = self._log_span(h, 0, &ta)
                b = old._log_span(h, 0, &tb)
                if memcmp(a, b, <size_t>n * sizeof(int32_t)) != 0:
                    return 0
            finally:
                free(ta)
                free(tb)
                ta = tb = NULL
        return 1

    cdef int _validate_loaded(self) except -1:
        """The game's one validator (``ops.validate``), as both loaders call it: raises
        ``InvalidStateError`` with its message when the struct is not a state play can reach."""
        cdef State ref = _prototype(self.game)
        cdef const char *msg
        if self.ops.validate == NULL:
            raise InvalidStateError(f"{self.game.game_id} has no state validator")
        msg = self.ops.validate(self.data, ref.data)
        if msg != NULL:
            raise InvalidStateError((<bytes>msg).decode("utf-8", "replace"))
        return 0

    # ---------------------------------------------------------------- OpenSpiel verbs
    def current_player(self) -> int:
        """Seat to act (0..num_players-1), or ``-4`` (``TERMINAL_PLAYER``) once the game is over."""
        if self.data == NULL: self._not_ready()
        return self.ops.current_player(self.data)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        if self.data == NULL: self._not_ready()
        return self.ops.is_terminal(self.data) != 0

    def is_chance_node(self) -> bool:
        """Always ``False``: dice and shuffles are drawn from the state's own PRNG inside
        ``apply_action`` and recorded as events, so there are no chance nodes."""
        if self.data == NULL: self._not_ready()
        return False

    def num_players(self) -> int:
        if self.data == NULL: self._not_ready()
        return self.ops.num_players(self.data)

    def legal_actions(self, player=None) -> list:
        """The legal actions of the player to act: a sorted ``list[int]`` without repeats;
        empty when the game is over (or when ``player`` is given and is not to act).  Raises
        ``ValueError`` for a bad seat (see the class docstring)."""
        if self.data == NULL: self._not_ready()
        cdef int n, i
        if player is not None and self._player_index(player) != self.ops.current_player(self.data):
            return []
        n = self.ops.legal_actions(self.data, _scratch)
        out = [None] * n
        for i in range(n):
            out[i] = _scratch[i]
        return out

    def legal_action_mask(self, player=None):
        """``numpy.ndarray`` of ``bool``, shape ``(game.num_distinct_actions,)``: True where
        the action is legal for the player to act (all False when ``player`` is given and is
        not to act).  Raises ``ValueError`` for a bad seat (see the class docstring)."""
        if self.data == NULL: self._not_ready()
        cdef int n, i
        mask = np.zeros(self.ops.num_distinct_actions, dtype=np.bool_)
        if player is not None and self._player_index(player) != self.ops.current_player(self.data):
            return mask
        cdef unsigned char[::1] m = mask.view(np.uint8)
        n = self.ops.legal_actions(self.data, _scratch)
        for i in range(n):
            m[_scratch[i]] = 1
        return mask

    def apply_action(self, action):
        """Apply ``action`` (an int, or the text ``action_to_string`` gives) for the player
        to act.  Raises ``IllegalActionError`` saying why, and leaves the state exactly as it
        was, when the action is not legal (or the game is over)."""
        if self.data == NULL: self._not_ready()
        cdef int32_t a
        cdef int n, i
        cdef bint ok = False
        cdef kz_events *ev
        if type(action) is int:
            a_obj = action
        else:
            a_obj = self._coerce_action(action)
        if not (0 <= a_obj < self.ops.num_distinct_actions):
            raise IllegalActionError(
                f"action {action!r} is out of range [0, {self.ops.num_distinct_actions}) in {self._compact()}",
                state=self.clone())
        a = a_obj
        n = self.ops.legal_actions(self.data, _scratch)
        for i in range(n):
            if _scratch[i] == a:
                ok = True
                break
        if not ok:
            raise IllegalActionError(self._illegal_message(a, action), action=a, state=self.clone())
        cdef EventLog log = self.log
        if log.base_ev + log.ev.n == self.n_ev and log.base_hist + log.hist.n == self.n_hist:
            ev = &log.ev        # the usual case, inline: our node is ours to append to
        else:
            ev = self._writable_log()
            log = self.log
        if kz_ev_reserve(&log.hist, log.hist.n + 2) != 0:
            raise MemoryError()
        log.hist.data[log.hist.n] = self.ops.current_player(self.data)
        log.hist.data[log.hist.n + 1] = a
        self.ops.apply_action(self.data, a, ev)
        log.hist.n += 2
        self.n_hist = log.base_hist + log.hist.n
        self.n_ev = log.base_ev + log.ev.n

    def history(self) -> list:
        """The actions applied since the deal, oldest first: a ``list[int]`` (OpenSpiel's
        ``history()``; dice and shuffles are drawn inside actions, so there are no chance
        outcomes in it).  Saved in the JSON (key ``"history"``)."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i
        cdef int32_t *tmp = NULL
        cdef const int32_t *d = self._log_span(True, 0, &tmp)
        try:
            return [d[i + 1] for i in range(0, self.n_hist, 2)]
        finally:
            free(tmp)

    def full_history(self) -> list:
        """The history with the seat of each action: ``list[tuple[int, int]]`` of
        ``(player, action)``, oldest first."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i
        cdef int32_t *tmp = NULL
        cdef const int32_t *d = self._log_span(True, 0, &tmp)
        try:
            return [(d[i], d[i + 1]) for i in range(0, self.n_hist, 2)]
        finally:
            free(tmp)

    def observation_tensor(self, player):
        """``player``'s view as numbers: a ``numpy.ndarray`` of float32, shape
        ``game.observation_tensor_shape`` (``(ops.tensor_size,)``), written by the game's
        GameOps writer (the same values the vectorized env and the learned models read).
        Its named segments are ``game.observation_tensor_layout``: ``TensorSegment(name,
        offset, size, doc)`` end to end, ``doc`` saying what each entry holds (a count or a
        size over its maximum, a one-hot, a flag), seats counted from ``player`` onward.
        Only what ``observation(player)`` shows goes in.  Raises ``ValueError`` for a
        ``player`` that is not a seat."""
        player = self._player_index(player)     # an int seat, else ValueError
        if self.ops.observation_tensor == NULL:
            raise NotImplementedError(f"{self.game.game_id} has no observation tensor")
        t = np.zeros(self.ops.tensor_size, dtype=np.float32)
        cdef float[::1] v = t
        self.ops.observation_tensor(self.data, player, &v[0])
        return t

    def returns(self) -> list:
        """Per-player returns, ``list[float]`` of length ``num_players``: each game's
        definition is in its module docstring (all zeros while the game is running)."""
        if self.data == NULL: self._not_ready()
        cdef double out[KZ_MAX_PLAYERS]
        cdef int np_ = self.ops.num_players(self.data)
        self.ops.returns(self.data, out)
        return [out[i] for i in range(np_)]

    def evaluate(self) -> list:
        """The game's estimate of the final returns, ``list[float]`` of length
        ``num_players``, on the scale of ``returns()``: at a terminal state exactly
        ``returns()``; before it, for games of many rounds (Kings Rummy, Crazy Rummy,
        KrassKariert), each player's expected return from the scores or chips so far (a
        softmax model; mid-round it also reads every hand in this state, so call it on a
        ``determinize``d copy to respect a player's view).  Games without an estimate
        (Krazy Kings) give ``returns()``: zeros while running.  This is what ISMCTS backs up
        from a rollout cut at a round's end."""
        if self.data == NULL: self._not_ready()
        cdef double out[KZ_MAX_PLAYERS]
        cdef int np_ = self.ops.num_players(self.data)
        if self.ops.evaluate != NULL:
            self.ops.evaluate(self.data, out)
        else:
            self.ops.returns(self.data, out)
        return [out[i] for i in range(np_)]

    def rewards(self) -> list:
        """Same as ``returns()`` at a terminal state, zeros before (rewards come at the end)."""
        if self.data == NULL: self._not_ready()
        if self.ops.is_terminal(self.data):
            return self.returns()
        return [0.0] * self.ops.num_players(self.data)

    def clone(self):
        """An independent copy: one ``memcpy`` of the struct; the event log is shared
        copy-on-write."""
        if self.data == NULL: self._not_ready()
        cdef State c = self._blank()
        c.ops = self.ops
        c.game = self.game
        c.data = malloc(self.ops.state_size)
        if c.data == NULL:
            raise MemoryError()
        memcpy(c.data, self.data, self.ops.state_size)
        c.log = self.log
        c.n_ev = self.n_ev
        c.n_hist = self.n_hist
        return c

    def __copy__(self):
        if self.data == NULL: self._not_ready()
        return self.clone()

    def __deepcopy__(self, memo):
        if self.data == NULL: self._not_ready()
        return self.clone()

    def determinize(self, player, seed=None):
        """A full state sampled to agree with everything ``player`` has seen: the hidden
        cards (other hands, the stock order) are dealt again at random among the places
        they could be, and the PRNG that rolls future dice is reseeded.  ``seed`` makes it
        reproducible.  Raises ``ValueError`` for a bad seat (see the class docstring)."""
        if self.data == NULL: self._not_ready()
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef kz_rng rng
        if not 0 <= player < self.ops.num_players(self.data):
            raise ValueError(f"player {player!r} out of range 0..{self.ops.num_players(self.data) - 1}")
        kz_rng_seed(&rng, <uint64_t>check_seed(seed))
        cdef State c = self.clone()
        self.ops.determinize(c.data, player, &rng)
        return c

    def heuristic_action(self, seed=None) -> int:
        """The game's heuristic move for the player to act (``HeuristicBot`` uses it).  It
        reads only what that player may see.  Raises ``IllegalActionError`` when the game is
        over."""
        if self.data == NULL: self._not_ready()
        cdef kz_rng rng
        if self.ops.is_terminal(self.data):
            raise IllegalActionError(f"the game is over; no move to choose in {self._compact()}",
                                     state=self.clone())
        kz_rng_seed(&rng, <uint64_t>check_seed(seed))
        return self.ops.heuristic_action(self.data, &rng)

    def random_action(self, seed=None) -> int:
        """A uniformly random legal action drawn as search rollouts and in-core playouts draw
        it: ``legal_actions()[Rng(seed).bounded(len(legal_actions()))]``, through the game's
        ``ops.random_action`` when it has one (the same draw, without the list).  Returns -1
        when the game is over."""
        if self.data == NULL: self._not_ready()
        cdef kz_rng rng
        cdef int32_t n
        cdef int32_t *buf
        kz_rng_seed(&rng, <uint64_t>check_seed(seed))
        if self.ops.random_action != NULL:
            return self.ops.random_action(self.data, &rng)
        buf = <int32_t *>malloc(<size_t>(self.ops.max_legal + 1) * sizeof(int32_t))
        if buf == NULL:
            raise MemoryError()
        n = self.ops.legal_actions(self.data, buf)
        a = buf[kz_bounded(&rng, <uint32_t>n)] if n > 0 else -1
        free(buf)
        return a

    def _random_playout(self, seed=None, max_steps=-1, bint use_op=True) -> int:
        """FOR TESTS: play up to ``max_steps`` (< 0: no cap) random actions on this state,
        events off (the log is not extended), through ``ops.random_playout`` when the game has
        one and ``use_op``, else through random_action/apply_action one by one.  Returns the
        actions applied."""
        if self.data == NULL: self._not_ready()
        cdef kz_rng rng
        cdef int32_t steps = 0, cap = _c_int(max_steps, "max_steps"), a
        cdef int n
        kz_rng_seed(&rng, <uint64_t>check_seed(seed))
        if use_op and self.ops.random_playout != NULL:
            return self.ops.random_playout(self.data, &rng, cap)
        while steps != cap and not self.ops.is_terminal(self.data):
            if self.ops.random_action != NULL:
                a = self.ops.random_action(self.data, &rng)
            else:
                n = self.ops.legal_actions(self.data, _scratch)
                a = _scratch[kz_bounded(&rng, <uint32_t>n)] if n > 0 else -1
            if a < 0:
                break
            self.ops.apply_action(self.data, a, NULL)
            steps += 1
        return steps

    # ---------------------------------------------------------------- events
    def raw_events(self, since=0) -> list:
        """Every event from number ``since`` on (0: all) as a tuple ``(kind, player, a, b)``
        of ints, hidden cards included (an omniscient log, for replay and tests).  Kinds are
        documented per game."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i
        cdef Py_ssize_t start = min(_event_number(since), self.n_ev // KZ_EV_WIDTH) * KZ_EV_WIDTH
        cdef int32_t *tmp = NULL
        cdef const int32_t *d = self._log_span(False, start, &tmp)
        try:
            return [(d[i], d[i + 1], d[i + 2], d[i + 3]) for i in range(0, self.n_ev - start, KZ_EV_WIDTH)]
        finally:
            free(tmp)

    @property
    def num_events(self) -> int:
        """Events logged so far: the cursor for ``events_for(player, since=...)``."""
        if self.data == NULL: self._not_ready()
        return self.n_ev // KZ_EV_WIDTH

    @property
    def events(self) -> list:
        """The public event log: a ``list[dict]`` (JSON-ready), one per event, with the
        identity of every card only its owner saw replaced by ``None``."""
        if self.data == NULL: self._not_ready()
        return self.events_for(None)

    def events_for(self, player, since=0) -> list:
        """The event log as ``player`` saw it (their own cards shown): a ``list[dict]``, from
        event number ``since`` on (0: the whole log).  ``player`` is a seat
        ``0..num_players-1``; ``None`` gives the public log, ``"all"`` the omniscient one.
        Read incrementally: keep ``n = state.num_events`` and later ask
        ``events_for(player, since=n)`` for what happened since (each event is read once;
        ``events_for(p)[n:]`` rebuilds the whole log).  Raises ``ValueError`` for any other
        ``player`` (a seat out of range would otherwise read as a spectator and silently give
        the public log) or a negative ``since``; a ``since`` past the end gives ``[]``."""
        if self.data == NULL: self._not_ready()
        if player is not None and not (isinstance(player, str) and player == "all"):
            try:
                player = self._player_index(player)
            except ValueError:
                raise ValueError(f"events_for: player must be a seat 0..{self.game.num_players - 1}, "
                                 f"None (the public log) or 'all' (every card shown), got {player!r}") from None
        out = []
        for (k, p, a, b) in self.raw_events(since):
            try:
                out.append(self._event_dict(k, p, a, b, player))
            except (ValueError, KeyError, IndexError, TypeError, OverflowError):
                # fields that name no card (hostile JSON or bytes: display data only)
                out.append({"kind": k, "player": p, "a": a, "b": b, "unreadable": True})
        return out

    def events_since(self, n, player=None) -> list:
        """``events_for(player, since=n)``: the events from number ``n`` on, as ``player``
        sees them (``None``: the public view)."""
        return self.events_for(player, since=n)

    def _event_dict(self, kind, player, a, b, viewer):
        return {"kind": kind, "player": player, "a": a, "b": b}

    # ---------------------------------------------------------------- JSON
    def to_json(self, **json_kwargs) -> str:
        """The whole state (hidden cards and PRNG included) as a JSON string; read it back
        with ``game.state_from_json``.  Format version ``JSON_FORMAT``: an object with keys
        ``format``, ``game``, ``num_players``, ``options``, ``state`` (the game's body),
        ``events`` (``[kind, player, a, b]`` int lists) and ``history`` (``[player, action]``
        pairs).  Without ``json_kwargs`` the event log and the history are written by C
        (the same text ``json.dumps`` writes, faster); with them, by ``json.dumps``."""
        if self.data == NULL: self._not_ready()
        return _to_json(self, json_kwargs)

    def to_bytes(self) -> bytes:
        """The whole state as compact bytes; read them back with ``game.state_from_bytes``
        (``pickle`` goes this way too; timings against ``to_json``: ``benches/README.md``).
        ``game.state_from_bytes(s.to_bytes())`` equals ``s`` (``==``) and plays on
        identically.  The bytes are for this build of this machine's kind (the
        struct is copied as laid out in memory, little-endian): for storage, use the JSON.

        Layout (format ``BYTES_FORMAT`` = 1), all integers little-endian::

            offset  size  field
            0       4     magic b"KZST"
            4       2     format version (1)
            6       2     header size (40)
            8       16    game id, ASCII, NUL-padded (e.g. b"krazy-kings")
            24      4     state struct size in bytes (the game's ops.state_size)
            28      4     event values (int32; 4 per event: kind, player, a, b)
            32      4     history values (int32; 2 per action: player, action)
            36      4     checksum of every byte after the header (a 32-bit FNV-style
                          hash over 8-byte words; catches corruption, not forgery)
            40      ...   the struct, then the events, then the history (int32 each)
        """
        if self.data == NULL: self._not_ready()
        return _to_bytes(self)

    def _to_dict(self):
        self._not_ready()                    # every game overrides it: only a bare State gets here

    def _load_events(self, events, max_kind=2**30):
        """Load a JSON event list (validated: a list of 4-int lists in int32 range, kinds in
        ``1..max_kind`` (the game's ``ops.max_event_kind`` when it sets one), players -1 (the
        table) or a seat -- the check ``state_from_bytes`` makes too).  The card fields are
        display data: ``events_for`` renders an event whose fields name no card as its raw
        numbers (``"unreadable": True``)."""
        if self.data == NULL: self._not_ready()
        max_kind = _c_int(max_kind, "max_kind")      # ValueError beyond a C int
        cdef Py_ssize_t i = 0, bad
        cdef EventLog log = EventLog.__new__(EventLog)
        cdef int n_players = self.game.num_players
        cdef int32_t *d
        if self.ops.max_event_kind > 0:
            max_kind = self.ops.max_event_kind
        if not isinstance(events, list):
            raise InvalidStateError("'events' must be a list")
        if len(events) > MAX_LOG:
            raise InvalidStateError("'events' is too long")
        if kz_ev_reserve(&log.ev, <int32_t>(len(events) * KZ_EV_WIDTH + 64 * KZ_EV_WIDTH)) != 0:
            raise MemoryError()
        d = log.ev.data
        for e in events:
            if type(e) is not list or len(<list>e) != KZ_EV_WIDTH:
                raise InvalidStateError(f"event {e!r} is not a list of {KZ_EV_WIDTH} ints")
            for x in <list>e:
                if type(x) is not int or not (-2**31 <= x < 2**31):
                    raise InvalidStateError(f"event {e!r} holds {x!r}, not an int32")
                d[i] = x
                i += 1
        bad = _bad_event(d, i, max_kind, n_players)
        if bad >= 0:
            e = events[bad]
            if not 1 <= e[0] <= max_kind:
                raise InvalidStateError(f"event {e!r} has no known kind (1..{max_kind})")
            raise InvalidStateError(f"event {e!r}: player {e[1]} is not a seat of this "
                                    f"{n_players}-player game (or -1 for the table)")
        log.ev.n = <int32_t>i
        self._flat_log(log, False, True)         # the history stays as it was
        self.log = log
        self.n_ev = i

    def _validate(self):
        """FOR THE LOADERS: run the game's one C validator on this state (as
        ``state_from_json`` and ``state_from_bytes`` do); raises ``InvalidStateError``."""
        if self.data == NULL: self._not_ready()
        self._validate_loaded()

    def _load_history(self, history):
        """Load a JSON history (validated: a list of ``[player, action]`` int pairs, a seat
        of this game and an action in ``[0, num_distinct_actions)``).  It is the record of
        how the state came about; nothing in the rules reads it."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i = 0
        cdef int n_players = self.game.num_players
        cdef int n_actions = self.ops.num_distinct_actions
        if not isinstance(history, list):
            raise InvalidStateError("'history' must be a list")
        if len(history) > 10_000_000:
            raise InvalidStateError("'history' is too long")
        cdef EventLog log = EventLog.__new__(EventLog)   # our own flat node: the history is rewritten
        self._flat_log(log, True, False)
        if kz_ev_reserve(&log.hist, <int32_t>(2 * len(history) + 2)) != 0:
            raise MemoryError()
        for h in history:
            if (not isinstance(h, list) or len(h) != 2 or type(h[0]) is not int
                    or type(h[1]) is not int):
                raise InvalidStateError(f"history entry {h!r} is not a [player, action] pair of ints")
            if not 0 <= h[0] < n_players:
                raise InvalidStateError(f"history entry {h!r}: player {h[0]} is not a seat of "
                                        f"this {n_players}-player game")
            if not 0 <= h[1] < n_actions:
                raise InvalidStateError(f"history entry {h!r}: action {h[1]} is out of range "
                                        f"[0, {n_actions})")
            log.hist.data[i] = h[0]
            log.hist.data[i + 1] = h[1]
            i += 2
        log.hist.n = <int32_t>i
        self.log = log
        self.n_hist = i

    def __reduce__(self):
        """Pickled as ``(game, to_bytes())``, read back by ``game.state_from_bytes`` (the
        same validation as any bytes)."""
        if self.data == NULL: self._not_ready()
        return (_state_from_bytes, (self.game, self.to_bytes()))

    # ---------------------------------------------------------------- equality, text
    def __eq__(self, other):
        if self.data == NULL: self._not_ready()
        cdef State o
        if not isinstance(other, State):
            return NotImplemented
        o = other
        if o.data == NULL: o._not_ready()
        if o.ops != self.ops or o.game != self.game or o.n_ev != self.n_ev:
            return False
        if memcmp(o.data, self.data, self.ops.state_size) != 0:
            return False
        cdef int32_t *ta = NULL
        cdef int32_t *tb = NULL
        if self.n_ev and o.log is not self.log:      # one node: the same events
            try:
                if memcmp(o._log_span(False, 0, &ta), self._log_span(False, 0, &tb),
                          self.n_ev * sizeof(int32_t)) != 0:
                    return False
            finally:
                free(ta)
                free(tb)
        return True

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def _compact(self):
        if self.data == NULL: self._not_ready()
        return (f"[{self.game.game_id} players={self.ops.num_players(self.data)} "
                f"to_act={self.ops.current_player(self.data)} events={self.num_events}]")

    def __repr__(self):
        if self.data == NULL:
            return f"{type(self).__name__}(not made by a game: no state)"
        return (f"{type(self).__name__}(game={self.game.game_id!r}, num_players="
                f"{self.ops.num_players(self.data)}, current_player={self.ops.current_player(self.data)}, "
                f"terminal={bool(self.ops.is_terminal(self.data))})")

    def _coerce_action(self, action):
        if _is_bool(action):
            raise IllegalActionError(f"action {action!r} is not an int or an action string",
                                     state=self.clone())
        if isinstance(action, int):
            return int(action)
        if isinstance(action, str):
            return self.string_to_action(action)
        try:
            import operator
            return operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action {action!r} is not an int or an action string in {self._compact()}",
                state=self.clone()) from None

    def _illegal_message(self, a, original):
        a = _c_int(a, "a")
        if self.data == NULL: self._not_ready()
        if self.ops.is_terminal(self.data):
            why = "the game is over"
        else:
            why = self._explain_illegal(a)
        try:
            text = self.action_to_string(a)
        except Exception:
            text = "?"
        legal = self.legal_actions()
        shown = ", ".join(f"{x} {self.action_to_string(x)}" for x in legal[:12])
        if len(legal) > 12:
            shown += ", ..."
        return f"illegal action {original!r} ({text}) in {self._compact()}: {why}. Legal: [{shown}]"

    def _explain_illegal(self, a):
        """Per game: why legal action ``a`` is refused now (called for an in-range id that is
        not legal, the game running)."""
        a = _c_int(a, "a")
        return "it is not among the legal actions"

    def explain_illegal(self, action):
        """Why ``action`` (an int id, or a text ``string_to_action`` reads) may not be played
        now: a sentence naming the rule, e.g. ``"player 0 does not hold 3♠"``; ``None`` when
        it is legal.  Never raises for a bad action: an id out of range, a bool or a text
        that names no move is explained too."""
        if self.data == NULL: self._not_ready()
        if _is_bool(action):
            return f"{action!r} is not an action (an int or an action's name)"
        if isinstance(action, str):
            try:
                self.string_to_action(action)
                return None
            except UnclearActionError as e:
                return str(e)
            except IllegalActionError as e:
                return self.explain_illegal(e.action) if e.action is not None else str(e)
        try:
            import operator
            a = operator.index(action)
        except TypeError:
            return f"{action!r} is not an action (an int or an action's name)"
        if not 0 <= a < self.ops.num_distinct_actions:
            return f"action {a} is out of range [0, {self.ops.num_distinct_actions})"
        if self.ops.is_terminal(self.data):
            return "the game is over"
        if a in self.legal_actions():
            return None
        return self._explain_illegal(a)

    def action_to_string(self, action) -> str:
        return str(action)

    def _actions_named(self, str text):
        """Per game: the action ids ``text`` names, legal now or not, best reading first
        (``[]``: none).  ``text`` is stripped, lower case, its blanks single.  A game's short
        forms go here; it may raise ``UnclearActionError`` saying what is wrong with one.
        This default reads the exact names ``action_to_string`` writes."""
        if self.data == NULL: self._not_ready()
        cdef int a
        out = []
        for a in range(self.ops.num_distinct_actions):
            try:
                if _norm(self.action_to_string(a)) == text:
                    out.append(a)
            except (ValueError, KeyError, IndexError):
                pass
        return out

    def string_to_action(self, text) -> int:
        """The legal action ``text`` names: an ``action_to_string`` text (any case, any
        blanks), or one of the game's short forms (documented per game).  One contract for
        every game:

        - returns a legal action id (an int), never an illegal one, never a silent pick;
        - raises ``IllegalActionError`` (``.action`` = the id) when ``text`` names a move that
          is not legal now, saying why (``explain_illegal``);
        - raises ``UnclearActionError`` (an ``IllegalActionError``; ``.matches`` = the legal
          ids that fit) when it fits several legal moves, listing them, or names none,
          listing the legal moves.
        """
        cdef int a
        if self.data == NULL: self._not_ready()
        if not isinstance(text, str):
            raise UnclearActionError(f"{text!r} is not an action's name (a str)", matches=(),
                                     state=self.clone())
        legal = self.legal_actions()
        want = _norm(text)
        for a in legal:
            if _norm(self.action_to_string(a)) == want:
                return a
        try:
            named = self._actions_named(want) if want else []
        except IllegalActionError as e:         # a game's short form says what is wrong
            raise e._attach(self)
        seen = set()
        hits = []
        for a in named:
            if a not in seen:
                seen.add(a)
                if a in legal:
                    hits.append(a)
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise UnclearActionError(
                f"{text!r} fits {len(hits)} moves: " + ", ".join(repr(self.action_to_string(h)) for h in hits)
                + "; say which", matches=hits, state=self.clone())
        if named:
            a = named[0]
            if self.ops.is_terminal(self.data):
                why = "the game is over"
            else:
                why = self._explain_illegal(a)
            raise IllegalActionError(f"{self.action_to_string(a)} is not allowed now: {why}", action=a,
                                     state=self.clone())
        shown = ", ".join(repr(self.action_to_string(x)) for x in legal[:12]) + (", ..." if len(legal) > 12 else "")
        if not legal:
            shown = "none (the game is over)"
        raise UnclearActionError(f"no move is called {text!r} in {self._compact()}; legal: {shown}",
                                 matches=(), state=self.clone())


    # ------------------------------------------------------------ the game's words
    # (games/<game>/words.py through krazy_core._words: for every frontend, the terminal's
    # words; nothing here is on the hot path)
    def describe_action(self, action) -> dict:
        """Action ``action`` (an int id in ``[0, num_distinct_actions)``, legal or not) as
        data: ``{"id": int, "kind": str, "label": str, "text": str, ...}`` and the fields of
        its kind (``cards``/``cards_text``, ``meld``, ``end``, ``suit``, ``positions``,
        ``slot``, ``position``, ``combination``, ``x_values``, ``direction``, ``announce``;
        ``schemas/action.json``).  Seats, melds and hand positions in data count from 0;
        ``text`` is the player's words, counting them from 1 as the table does; ``label`` is
        ``action_to_string``.  Raises ``ValueError`` for an id out of range or not an int."""
        if self.data == NULL: self._not_ready()
        return _words.describe_action(self, action)

    def action_from(self, move) -> int:
        """The legal action id that ``move`` describes: a dict as :meth:`describe_action`
        gives, with ``id`` alone, or ``kind`` and the fields that say which move (``cards``,
        ``meld``, ``end``, ``positions``, ``combination``...; ``label``/``text`` are not
        read).  The inverse of :meth:`describe_action` for every legal action.  Raises
        ``IllegalActionError`` (``.action`` the id, the reason in the message) for a move
        that is not legal now, ``UnclearActionError`` (``.matches``) for one that fits
        several legal moves or names none.  Never changes the state."""
        if self.data == NULL: self._not_ready()
        return _words.action_from(self, move)

    def explain(self, action):
        """Why ``action`` (an int id, an action's text as :meth:`string_to_action` reads it,
        or a described move as :meth:`action_from` reads it) may not be played now, in the
        player's words (seats, melds and hand positions from 1) with the rule number;
        ``None`` when it is legal.  Never raises for a bad action."""
        if self.data == NULL: self._not_ready()
        return _words.explain(self, action)

    def explain_card(self, card, seat=None):
        """Why the card ``card`` (a code, or a text ``parse_card`` reads) in ``seat``'s hand
        (default: the seat to move) has no legal move now, with the rule (``"6♣: you rolled
        3+2; only a 2, a 3 or a 5, a King or a Joker may be played (KK-6)"``); ``None`` when
        one of its moves is legal.  Raises ``ValueError`` for a bad seat."""
        if self.data == NULL: self._not_ready()
        if seat is not None:
            seat = self._player_index(seat)
        return _words.explain_card(self, card, seat)

    def prompt(self, seat=None, names=None) -> str:
        """What ``seat`` (default: the seat to move) must decide now, in the player's words
        with the rule (``"To beat: pair 7 (seat 3). Play 1-3 adjacent cards that beat it, ...
        (KA-6, KA-7, KA-9)"``); for another seat, whose turn it is.  ``names``: one name per
        seat (default ``"seat 1"``...).  Raises ``ValueError`` for a bad seat or names."""
        if self.data == NULL: self._not_ready()
        if seat is not None:
            seat = self._player_index(seat)
        return _words.prompt(self, seat, names)

    def narrate(self, viewer=None, since=0, names=None) -> list:
        """The play by play of ``events_for(viewer, since)`` as the terminal prints it, a
        ``list[str]``: bookkeeping events left out, a run of draws one line.  ``names``: one
        name per seat (default ``"seat 1"``..., the viewer ``"seat N (you)"``).  Raises
        ``ValueError`` as ``events_for`` does."""
        if self.data == NULL: self._not_ready()
        return _words.narrate(self, viewer, since, names)

    def narrate_event(self, event, names=None, viewer=None):
        """The sentence of one event dict (from :meth:`events_for`), or ``None`` for a
        bookkeeping event the line of another event says (a card dealt, a turn starting)."""
        if self.data == NULL: self._not_ready()
        return _words.narrate_event(self, event, names, viewer)

    def facts(self, seat, names=None) -> dict:
        """What a table shows ``seat`` beside its observation, per game (Kings Rummy: the best
        arrangement of the hand and the last-turn flag, KR-10 .. KR-12; Crazy Rummy: the melds
        with each wild and what it stands for, CR-2; KrassKariert: what is to beat and the last
        trick's winner, KA-7, KA-10; Krazy Kings: the dice to match).  Raises ``ValueError``
        for a bad seat."""
        if self.data == NULL: self._not_ready()
        return _words.facts(self, self._player_index(seat), names)


def _event_number(since):
    """``since`` of ``events_for``/``raw_events``: an int >= 0, else ``ValueError``."""
    if _is_bool(since) or not hasattr(since, "__index__") or since.__index__() < 0:
        raise ValueError(f"since must be an event number >= 0 (num_events is a cursor), got {since!r}")
    return since.__index__()


def _norm(text):
    """An action text as compared: stripped, lower case, blanks single."""
    return " ".join(text.split()).lower()


def _state_from_json(game, text):
    return game.state_from_json(text)


def _state_from_bytes(game, data):
    return state_from_bytes(game, data)


def seed_rng_struct(seed):
    """The four 64-bit words of a PRNG seeded with ``seed`` (for tests)."""
    cdef kz_rng r
    kz_rng_seed(&r, <uint64_t>check_seed(seed))
    return [r.s[0], r.s[1], r.s[2], r.s[3]]


# ------------------------------------------------------------------ batch playouts
include "_state_playouts.pxi"


# ------------------------------------------------------------------ explicit chance (tapes)
include "_state_tapes.pxi"
