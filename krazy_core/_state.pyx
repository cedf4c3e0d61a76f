# cython: language_level=3
"""The generic State: OpenSpiel's verbs over a game's C struct and its GameOps table.

Each game module subclasses :class:`State`, fills a ``kz_ops`` table (``src/krazy/ops.h``)
and adds what needs its struct's fields: ``observation``, ``observation_tensor``,
``action_to_string``, ``string_to_action``, ``_to_dict`` (JSON body), ``_event_dict``,
``_explain_illegal`` and ``__str__``.  Everything here is game-blind.

The event log and the action history are shared between a state and its clones and copied
only when two of them diverge (copy-on-write), so ``clone()`` is one ``memcpy`` of the struct.
"""

cimport cython
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memcpy, memcmp, memset
from libc.stdlib cimport calloc, free, malloc
from libc.stdint cimport int32_t, uint32_t, uint64_t
from cpython.exc cimport PyErr_CheckSignals

import json

import numpy as np

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_ev_reserve, kz_bounded,
                              kz_ev_free, KZ_EV_WIDTH, KZ_TERMINAL, KZ_MAX_PLAYERS)
from krazy_core.errors import IllegalActionError, InvalidStateError, ConfigError, UnclearActionError

DEF SCRATCH = 8192
cdef int32_t _scratch[SCRATCH]       # legal actions of the state being asked (GIL held)

TERMINAL_PLAYER = KZ_TERMINAL
MAX_PLAYERS = KZ_MAX_PLAYERS
EVENT_WIDTH = KZ_EV_WIDTH
JSON_FORMAT = 1
SLICE_SECONDS = 0.05     # in-core loops (simulate_random) look for Ctrl-C at least this often


from krazy_core.rng import check_seed     # the PRNG sits below the state (issue 12 item 4)
from krazy_core._validate import c_int as _c_int


@cython.final
cdef class EventLog:
    """An append-only array of int32 event records (see ``src/krazy/events.h``), and the
    action history beside it: ``(player, action)`` int32 pairs."""

    def __dealloc__(self):
        kz_ev_free(&self.ev)
        kz_ev_free(&self.hist)


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
        self.ops = ops
        self.game = game
        self.data = calloc(1, ops.state_size)
        if self.data == NULL:
            raise MemoryError()
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
        if isinstance(player, bool) or not hasattr(type(player), "__index__"):
            raise ValueError(f"player must be a seat 0..{n - 1} (an int), got {player!r}")
        p = player.__index__()
        if not 0 <= p < n:
            raise ValueError(f"player {player!r} out of range 0..{n - 1}")
        return p

    cdef kz_events *_writable_log(self) except NULL:
        """The log to append to: ours if no clone has appended past our end (to the events
        or the history), else a copy of our part."""
        cdef EventLog fresh
        if self.log.ev.n != self.n_ev or self.log.hist.n != self.n_hist:
            fresh = EventLog.__new__(EventLog)
            if (kz_ev_reserve(&fresh.ev, <int32_t>self.n_ev + 64 * KZ_EV_WIDTH) != 0
                    or kz_ev_reserve(&fresh.hist, <int32_t>self.n_hist + 128) != 0):
                raise MemoryError()
            if self.n_ev:
                memcpy(fresh.ev.data, self.log.ev.data, self.n_ev * sizeof(int32_t))
            if self.n_hist:
                memcpy(fresh.hist.data, self.log.hist.data, self.n_hist * sizeof(int32_t))
            fresh.ev.n = <int32_t>self.n_ev
            fresh.hist.n = <int32_t>self.n_hist
            self.log = fresh
        return &self.log.ev

    cdef int _legal(self, int32_t *out) noexcept:
        return self.ops.legal_actions(self.data, out)

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
        ev = self._writable_log()
        if kz_ev_reserve(&self.log.hist, self.log.hist.n + 2) != 0:
            raise MemoryError()
        self.log.hist.data[self.log.hist.n] = self.ops.current_player(self.data)
        self.log.hist.data[self.log.hist.n + 1] = a
        self.ops.apply_action(self.data, a, ev)
        self.log.hist.n += 2
        self.n_hist = self.log.hist.n
        self.n_ev = self.log.ev.n

    def history(self) -> list:
        """The actions applied since the deal, oldest first: a ``list[int]`` (OpenSpiel's
        ``history()``; dice and shuffles are drawn inside actions, so there are no chance
        outcomes in it).  Saved in the JSON (key ``"history"``)."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i
        cdef int32_t *d = self.log.hist.data
        return [d[i + 1] for i in range(0, self.n_hist, 2)]

    def full_history(self) -> list:
        """The history with the seat of each action: ``list[tuple[int, int]]`` of
        ``(player, action)``, oldest first."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i
        cdef int32_t *d = self.log.hist.data
        return [(d[i], d[i + 1]) for i in range(0, self.n_hist, 2)]

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
        cdef int32_t steps = 0, cap = max_steps, a
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
        cdef int32_t *d = self.log.ev.data
        cdef Py_ssize_t start = min(_event_number(since), self.n_ev // KZ_EV_WIDTH) * KZ_EV_WIDTH
        return [(d[i], d[i + 1], d[i + 2], d[i + 3]) for i in range(start, self.n_ev, KZ_EV_WIDTH)]

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
        return [self._event_dict(k, p, a, b, player) for (k, p, a, b) in self.raw_events(since)]

    def events_since(self, n, player=None) -> list:
        """``events_for(player, since=n)``: the events from number ``n`` on, as ``player``
        sees them (``None``: the public view)."""
        return self.events_for(player, since=n)

    def _event_dict(self, kind, player, a, b, viewer):
        return {"kind": kind, "player": player, "a": a, "b": b}

    # ---------------------------------------------------------------- JSON
    def to_json(self, **json_kwargs) -> str:
        """The whole state (hidden cards and PRNG included) as a JSON string; read it back
        with ``game.state_from_json``.  Format version ``JSON_FORMAT``."""
        if self.data == NULL: self._not_ready()
        doc = {
            "format": JSON_FORMAT,
            "game": self.game.game_id,
            "num_players": self.game.num_players,
            "options": self.game.options_dict(),
            "state": self._to_dict(),
            "events": [list(e) for e in self.raw_events()],
            "history": [list(h) for h in self.full_history()],
        }
        return json.dumps(doc, **json_kwargs)

    def _to_dict(self):
        self._not_ready()                    # every game overrides it: only a bare State gets here

    def _load_events(self, events, int max_kind=2**30):
        """Load a JSON event list (validated: a list of 4-int lists in int32 range, kinds in
        ``1..max_kind``, players -1 (the table) or a seat).  The card fields are display
        data: a renderer must not trust them (``ui`` modules fall back to the raw tuple)."""
        if self.data == NULL: self._not_ready()
        cdef Py_ssize_t i = 0
        cdef EventLog log = EventLog.__new__(EventLog)
        cdef int n_players = self.game.num_players
        if not isinstance(events, list):
            raise InvalidStateError("'events' must be a list")
        if len(events) > 10_000_000:
            raise InvalidStateError("'events' is too long")
        if kz_ev_reserve(&log.ev, <int32_t>(len(events) * KZ_EV_WIDTH + KZ_EV_WIDTH)) != 0:
            raise MemoryError()
        for e in events:
            if not isinstance(e, list) or len(e) != KZ_EV_WIDTH:
                raise InvalidStateError(f"event {e!r} is not a list of {KZ_EV_WIDTH} ints")
            for x in e:
                if type(x) is not int or not (-2**31 <= x < 2**31):
                    raise InvalidStateError(f"event {e!r} holds {x!r}, not an int32")
                log.ev.data[i] = x
                i += 1
            if not 1 <= e[0] <= max_kind:
                raise InvalidStateError(f"event {e!r} has no known kind (1..{max_kind})")
            if not -1 <= e[1] < n_players:
                raise InvalidStateError(f"event {e!r}: player {e[1]} is not a seat of this "
                                        f"{n_players}-player game (or -1 for the table)")
        log.ev.n = <int32_t>i
        self.log = log
        self.n_ev = i

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
        self._writable_log()                     # our own copy: we are about to rewrite it
        if kz_ev_reserve(&self.log.hist, <int32_t>(2 * len(history) + 2)) != 0:
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
            self.log.hist.data[i] = h[0]
            self.log.hist.data[i + 1] = h[1]
            i += 2
        self.log.hist.n = <int32_t>i
        self.n_hist = i

    def __reduce__(self):
        if self.data == NULL: self._not_ready()
        return (_state_from_json, (self.game, self.to_json()))

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
        if self.n_ev and o.log is not self.log:
            if memcmp(o.log.ev.data, self.log.ev.data, self.n_ev * sizeof(int32_t)) != 0:
                return False
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
        if isinstance(action, bool):
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
        if isinstance(action, bool):
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


def _event_number(since):
    """``since`` of ``events_for``/``raw_events``: an int >= 0, else ``ValueError``."""
    if isinstance(since, bool) or not hasattr(since, "__index__") or since.__index__() < 0:
        raise ValueError(f"since must be an event number >= 0 (num_events is a cursor), got {since!r}")
    return since.__index__()


def _norm(text):
    """An action text as compared: stripped, lower case, blanks single."""
    return " ".join(text.split()).lower()


def _state_from_json(game, text):
    return game.state_from_json(text)


def seed_rng_struct(seed):
    """The four 64-bit words of a PRNG seeded with ``seed`` (for tests)."""
    cdef kz_rng r
    kz_rng_seed(&r, <uint64_t>check_seed(seed))
    return [r.s[0], r.s[1], r.s[2], r.s[3]]


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


def _games_in_slices(long long n_games):
    """Yield ``(g0, g1)`` ranges covering games ``0..n_games-1`` for a loop that runs each
    range without the GIL and looks for signals between two (``PyErr_CheckSignals``: Ctrl-C
    raises ``KeyboardInterrupt`` within about ``SLICE_SECONDS``).  Ranges start at one game
    and double while a range takes less than a tenth of that, so the checks cost nothing
    measurable; the games and their draws are those of one uninterrupted loop."""
    import time
    cdef long long g = 0, k = 1
    while g < n_games:
        k = min(k, n_games - g)
        t = time.perf_counter()
        yield g, g + k
        g += k
        PyErr_CheckSignals()
        if time.perf_counter() - t < SLICE_SECONDS / 10 and k < 2**40:
            k *= 2


def simulate_random(game, long long n_games, seed=0, str policy="random") -> dict:
    """Play ``n_games`` games of ``game`` with uniformly random moves entirely in the core,
    without the GIL (no Python per move).  Game ``i`` is dealt from ``seed + i``.
    ``policy="heuristic"``: every seat plays the game's C heuristic instead.  Every
    ``simulate_random`` of the package (``kings_rummy``, ``krass_kariert``) has this signature
    and this result.

    Returns ``{"games": int, "decisions": int, "seconds": float, "decisions_per_second":
    float}``: decisions are player actions (dice and shuffles are not actions).  Raises
    ``ConfigError`` for ``n_games < 1`` or an unknown policy; ``KeyboardInterrupt`` on
    Ctrl-C (the games run in slices of at most about ``SLICE_SECONDS`` between two looks for
    signals).
    """
    import time
    cdef State s
    cdef long long decisions = 0, done = 0, g0, g1
    cdef uint64_t sd
    cdef kz_rng rng
    if n_games < 1:
        raise ConfigError(f"n_games must be >= 1, got {n_games}")
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
