# The generic State's stored forms: the bytes format (header, checksum, state_from_bytes,
# the body of State.to_bytes) and the C writer of the JSON event log and history (State.to_json).
#
# Included by _state.pyx (textually: one C unit with it).

cdef enum:
    HDR = 40
cdef packed struct kz_bytes_header:       # the 40-byte header of State.to_bytes()
    char magic[4]
    uint16_t version
    uint16_t header_size
    char game_id[16]
    uint32_t state_size
    uint32_t n_ev
    uint32_t n_hist
    uint32_t checksum

cdef uint16_t _ONE16 = 1
if (<uint8_t *>&_ONE16)[0] != 1:
    raise ImportError("krazy_core's state bytes assume a little-endian machine")


cdef uint32_t _checksum(const uint8_t *p, Py_ssize_t n) noexcept nogil:
    """A fast 32-bit hash of n bytes (8-byte words, multiply-xorshift; not cryptographic)."""
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL ^ <uint64_t>n, w
    cdef Py_ssize_t i = 0
    while i + 8 <= n:
        memcpy(&w, p + i, 8)
        h = (h ^ w) * 0x100000001B3ULL
        h ^= h >> 29
        i += 8
    w = 0
    if i < n:
        memcpy(&w, p + i, n - i)
        h = (h ^ w) * 0x100000001B3ULL
    h ^= h >> 32
    h *= 0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    return <uint32_t>h


def _checksum_of(const uint8_t[::1] data) -> int:
    """FOR TESTS: the checksum ``to_bytes`` writes for these bytes (everything after the
    header)."""
    return _checksum(&data[0] if data.shape[0] else NULL, data.shape[0])


cdef str _int_rows(const int32_t *d, Py_ssize_t n, int width):
    """``json.dumps([list(row) for row in rows])`` of n int32 values in rows of ``width``,
    written by C (the same text: ``[[1, 0, 3, 4], [2, -1, 0, 0]]``)."""
    if n <= 0:
        return "[]"
    cdef Py_ssize_t cap = n * 14 + 16, k = 0, i
    cdef char *buf = <char *>malloc(cap)
    if buf == NULL:
        raise MemoryError()
    try:
        buf[k] = b'['
        k += 1
        for i in range(n):
            if i % width == 0:
                if i:
                    buf[k] = b','; buf[k + 1] = b' '
                    k += 2
                buf[k] = b'['
                k += 1
            k += snprintf(buf + k, 13, "%d", <int>d[i])
            if i % width == width - 1 or i == n - 1:
                buf[k] = b']'
                k += 1
            else:
                buf[k] = b','; buf[k + 1] = b' '
                k += 2
        buf[k] = b']'
        k += 1
        return buf[:k].decode("ascii")
    finally:
        free(buf)


cdef Py_ssize_t _bad_event(const int32_t *d, Py_ssize_t n, int32_t max_kind, int n_players) noexcept nogil:
    """The first event (index) of n int32 values whose kind is not 1..max_kind or whose
    player is not -1 (the table) or a seat; -1 when all are good.  Both loaders use it."""
    cdef Py_ssize_t i = 0
    while i < n:
        if d[i] < 1 or d[i] > max_kind or d[i + 1] < -1 or d[i + 1] >= n_players:
            return i // KZ_EV_WIDTH
        i += KZ_EV_WIDTH
    return -1


cdef Py_ssize_t _bad_history(const int32_t *d, Py_ssize_t n, int n_players, int n_actions) noexcept nogil:
    """The first (player, action) pair (index) that is not a seat and an action id; -1 none."""
    cdef Py_ssize_t i = 0
    while i < n:
        if d[i] < 0 or d[i] >= n_players or d[i + 1] < 0 or d[i + 1] >= n_actions:
            return i // 2
        i += 2
    return -1


_PROTOTYPES = {}


cdef State _prototype(game):
    """A fresh state of ``game`` (cached per game): its ops, its class and its options'
    struct fields, for the loaders."""
    cdef State p = _PROTOTYPES.get(game)
    if p is None:
        p = game.new_initial_state(0)
        if len(_PROTOTYPES) > 256:
            _PROTOTYPES.clear()
        _PROTOTYPES[game] = p
    return p


def state_from_bytes(game, data):
    """A state read back from ``State.to_bytes()`` (``game.state_from_bytes`` calls it;
    the layout is in ``to_bytes``'s docstring).  ``data``: ``bytes``, ``bytearray`` or any
    contiguous buffer.

    Raises ``InvalidStateError`` for anything truncated, corrupted (the checksum),
    made for another game or another build (magic, format version, header size, game id,
    struct size) or hostile: the struct goes through the game's one validator (the one the
    JSON loader calls too: options, counters, seats, card codes and the card multiset, the
    phase), every event's kind and player and every history entry are checked as the JSON
    loader checks them.  Never crashes and never returns an inconsistent state."""
    cdef const uint8_t[::1] view
    try:
        view = data
    except (TypeError, ValueError, BufferError) as e:
        raise InvalidStateError(f"state bytes must be bytes or a contiguous buffer, got "
                                f"{type(data).__name__}") from None
    cdef Py_ssize_t total = view.shape[0]
    cdef const uint8_t *b = &view[0] if total > 0 else NULL
    cdef kz_bytes_header h
    cdef State ref = _prototype(game)
    cdef State s
    cdef Py_ssize_t ss = ref.ops.state_size, bad
    cdef EventLog log
    if total < HDR:
        raise InvalidStateError(f"state bytes are truncated: {total} bytes, the header alone is {HDR}")
    memcpy(&h, b, HDR)
    if memcmp(h.magic, b"KZST", 4) != 0:
        raise InvalidStateError("not krazy_core state bytes (magic is not b'KZST')")
    if h.version != BYTES_FORMAT:
        raise InvalidStateError(f"unknown state bytes format {h.version} (this version reads {BYTES_FORMAT})")
    if h.header_size != HDR:
        raise InvalidStateError(f"state bytes header is {h.header_size} bytes, this format's is {HDR}")
    gid = (<bytes>(<char *>h.game_id)[:16]).rstrip(b"\0")
    if gid != game.game_id.encode("ascii"):
        raise InvalidStateError(f"state bytes are for game {gid.decode('latin-1')!r}, not {game.game_id!r}")
    if h.state_size != ss:
        raise InvalidStateError(f"state bytes hold a {h.state_size}-byte struct; this build's "
                                f"{game.game_id} struct is {ss} bytes")
    if h.n_ev % KZ_EV_WIDTH or h.n_hist % 2 or h.n_ev > KZ_EV_WIDTH * MAX_LOG or h.n_hist > 2 * MAX_LOG:
        raise InvalidStateError(f"state bytes announce {h.n_ev} event values and {h.n_hist} "
                                "history values: not whole events/pairs, or too many")
    if total != HDR + ss + 4 * (<Py_ssize_t>h.n_ev + h.n_hist):
        raise InvalidStateError(f"state bytes are {total} bytes; the header announces "
                                f"{HDR + ss + 4 * (<Py_ssize_t>h.n_ev + h.n_hist)} (truncated or padded)")
    if _checksum(b + HDR, total - HDR) != h.checksum:
        raise InvalidStateError("state bytes are corrupted (checksum mismatch)")
    s = ref._blank()
    s._init(ref.ops, game)
    memcpy(s.data, b + HDR, ss)
    s._validate_loaded()
    cdef const int32_t *ev = <const int32_t *>(b + HDR + ss)
    bad = _bad_event(ev, h.n_ev, s.ops.max_event_kind if s.ops.max_event_kind > 0 else 2**30,
                     game.num_players)
    if bad >= 0:
        raise InvalidStateError(f"event {bad} has no known kind or a player that is no seat")
    bad = _bad_history(ev + h.n_ev, h.n_hist, game.num_players, s.ops.num_distinct_actions)
    if bad >= 0:
        raise InvalidStateError(f"history entry {bad} is not a seat and an action id")
    log = s.log
    if (kz_ev_reserve(&log.ev, <int32_t>h.n_ev + 64 * KZ_EV_WIDTH) != 0
            or kz_ev_reserve(&log.hist, <int32_t>h.n_hist + 128) != 0):
        raise MemoryError()
    if h.n_ev:
        memcpy(log.ev.data, ev, 4 * h.n_ev)
    if h.n_hist:
        memcpy(log.hist.data, ev + h.n_ev, 4 * h.n_hist)
    log.ev.n = <int32_t>h.n_ev
    log.hist.n = <int32_t>h.n_hist
    s.n_ev = h.n_ev
    s.n_hist = h.n_hist
    return s


cdef str _to_json(State st, dict json_kwargs):
    """The body of ``State.to_json`` (its docstring has the format)."""
    doc = {
        "format": JSON_FORMAT,
        "game": st.game.game_id,
        "num_players": st.game.num_players,
        "options": st.game.options_dict(),
        "state": st._to_dict(),
    }
    if json_kwargs:
        doc["events"] = [list(e) for e in st.raw_events()]
        doc["history"] = [list(h) for h in st.full_history()]
        return json.dumps(doc, **json_kwargs)
    head = json.dumps(doc)
    cdef int32_t *te = NULL
    cdef int32_t *th = NULL
    try:
        ev = _int_rows(st._log_span(False, 0, &te), st.n_ev, KZ_EV_WIDTH)
        hist = _int_rows(st._log_span(True, 0, &th), st.n_hist, 2)
    finally:
        free(te)
        free(th)
    return "".join((head[:len(head) - 1], ', "events": ', ev, ', "history": ', hist, "}"))


cdef bytes _to_bytes(State st):
    """The body of ``State.to_bytes`` (its docstring has the layout)."""
    cdef Py_ssize_t ss = st.ops.state_size
    cdef Py_ssize_t total = HDR + ss + 4 * (st.n_ev + st.n_hist)
    out = PyBytes_FromStringAndSize(NULL, total)
    cdef uint8_t *b = <uint8_t *>PyBytes_AS_STRING(out)
    cdef kz_bytes_header *h = <kz_bytes_header *>b
    memset(b, 0, HDR)
    memcpy(h.magic, b"KZST", 4)
    h.version = BYTES_FORMAT
    h.header_size = HDR
    gid = st.game.game_id.encode("ascii")
    memcpy(h.game_id, <const char *>gid, min(len(gid), 16))
    h.state_size = <uint32_t>ss
    h.n_ev = <uint32_t>st.n_ev
    h.n_hist = <uint32_t>st.n_hist
    memcpy(b + HDR, st.data, ss)
    st._log_read(False, 0, <int32_t *>(b + HDR + ss))
    st._log_read(True, 0, <int32_t *>(b + HDR + ss + 4 * st.n_ev))
    h.checksum = _checksum(b + HDR, total - HDR)
    return out
