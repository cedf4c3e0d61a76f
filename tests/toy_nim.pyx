# cython: language_level=3
"""A toy game over the GameOps table, only for testing the search game-blind.

"Hidden Nim" for 2..4 players: a public pile of stones; on a turn, take 1, 2 or 3 stones
(actions 0, 1, 2) or gamble (action 3: roll a die from the state's PRNG; 4-6 removes two
stones, 1-3 none; only while the pile holds at least 2).  Whoever takes the last stone
wins (return 1, others 0).  Each player also holds one secret card (1..9, distinct) that
nobody else sees and that changes nothing: ``determinize`` deals the other players' cards
again from the unseen ones (in a canonical order, so the result depends only on what the
player saw) and reseeds the PRNG, as a real game's must.
"""
from libc.stdint cimport int32_t, uint8_t, uint64_t
from krazy_core._ops cimport kz_ops, kz_rng, kz_events, kz_rng_seed, kz_next, kz_d6, kz_bounded, KZ_TERMINAL
from krazy_core._state cimport State

ctypedef struct nim_state:
    int32_t n_players
    int32_t to_act
    int32_t pile
    int32_t winner          # -1 while running
    uint8_t card[4]         # secret cards
    kz_rng rng

cdef int _cur(const void *st) noexcept nogil:
    cdef const nim_state *s = <const nim_state *>st
    return KZ_TERMINAL if s.winner >= 0 else s.to_act

cdef int _legal(const void *st, int32_t *out) noexcept nogil:
    cdef const nim_state *s = <const nim_state *>st
    cdef int n = 0, k
    if s.winner >= 0:
        return 0
    for k in range(3):
        if k + 1 <= s.pile:
            out[n] = k
            n += 1
    if s.pile >= 2:
        out[n] = 3
        n += 1
    return n

cdef int _apply(void *st, int32_t a, kz_events *ev) noexcept nogil:
    cdef nim_state *s = <nim_state *>st
    if a < 3:
        s.pile -= a + 1
    elif kz_d6(&s.rng) >= 4:
        s.pile -= 2
    if s.pile == 0:
        s.winner = s.to_act
    else:
        s.to_act = (s.to_act + 1) % s.n_players
    return 0

cdef int _term(const void *st) noexcept nogil:
    return (<const nim_state *>st).winner >= 0

cdef void _returns(const void *st, double *out) noexcept nogil:
    cdef const nim_state *s = <const nim_state *>st
    cdef int i
    for i in range(s.n_players):
        out[i] = 1.0 if s.winner == i else 0.0

cdef int _np(const void *st) noexcept nogil:
    return (<const nim_state *>st).n_players

cdef void _determinize(void *st, int player, kz_rng *rng) noexcept nogil:
    cdef nim_state *s = <nim_state *>st
    cdef uint8_t pool[9]
    cdef int n = 0, c, i, taken
    for c in range(1, 10):
        if c != s.card[player]:
            pool[n] = <uint8_t>c
            n += 1
    for i in range(s.n_players):
        if i != player:
            taken = <int>kz_bounded(rng, <unsigned>n)
            s.card[i] = pool[taken]
            pool[taken] = pool[n - 1]
            n -= 1
    kz_rng_seed(&s.rng, kz_next(rng))

cdef int32_t _heuristic(const void *st, kz_rng *rng) noexcept nogil:
    cdef const nim_state *s = <const nim_state *>st
    if s.pile <= 3:
        return s.pile - 1
    return <int32_t>kz_bounded(rng, 3)

cdef kz_ops OPS
OPS.game_id = "toy-nim"
OPS.state_size = sizeof(nim_state)
OPS.num_distinct_actions = 4
OPS.max_legal = 4
OPS.max_players = 4
OPS.current_player = _cur
OPS.legal_actions = _legal
OPS.apply_action = _apply
OPS.is_terminal = _term
OPS.returns = _returns
OPS.num_players = _np
OPS.determinize = _determinize
OPS.heuristic_action = _heuristic


class ToyGame:
    game_id = "toy-nim"

    def __init__(self, num_players):
        self.num_players = num_players


cdef class NimState(State):
    cdef State _blank(self):
        return NimState.__new__(NimState)

    def secret_cards(self):
        cdef nim_state *s = <nim_state *>self.data
        return [s.card[i] for i in range(s.n_players)]


def new_state(int pile, int num_players=2, int to_act=0, uint64_t seed=0, cards=None):
    """A Hidden Nim state with ``pile`` stones; ``cards`` are the secret cards (default 1, 2, ...)."""
    cdef NimState st = NimState.__new__(NimState)
    st._init(&OPS, ToyGame(num_players))
    cdef nim_state *s = <nim_state *>st.data
    s.n_players = num_players
    s.to_act = to_act
    s.pile = pile
    s.winner = -1
    cards = cards or list(range(1, num_players + 1))
    for i in range(num_players):
        s.card[i] = cards[i]
    kz_rng_seed(&s.rng, seed)
    return st


def set_heuristic(bint on):
    """Toggle the heuristic in the ops table (tests the random fallback)."""
    global OPS
    if on:
        OPS.heuristic_action = _heuristic
    else:
        OPS.heuristic_action = NULL
