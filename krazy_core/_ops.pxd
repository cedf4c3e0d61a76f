# cython: language_level=3
"""C declarations shared by every Cython module: the PRNG, the event log and the GameOps
table.  The C side lives in ``src/krazy/*.h``; this file is the layout contract."""
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

cdef extern from "krazy/rng.h" nogil:
    ctypedef struct kz_rng:
        uint64_t s[4]               # xoshiro256** state, never all zero
    void kz_rng_seed(kz_rng *r, uint64_t seed) noexcept
    void kz_rng_seed_state(kz_rng *r, uint64_t seed) noexcept  # a new_game's: keeps a tape
    uint64_t kz_next(kz_rng *r) noexcept
    uint32_t kz_bounded(kz_rng *r, uint32_t n) noexcept   # uniform in [0, n), unbiased
    uint32_t kz_bounded_nb(kz_rng *r, uint32_t n) noexcept   # the same, no branch on n <= 1
    int kz_d6(kz_rng *r) noexcept                          # 1..6
    double kz_uniform(kz_rng *r) noexcept                  # [0, 1)
    void kz_shuffle_u8(kz_rng *r, uint8_t *a, int n) noexcept  # Fisher-Yates in place
    # explicit chance (OpenSpiel): a generator with s[0..2] == 0 and s[3] = &tape is "taped":
    # its bounded draws (n >= 2) read the tape instead of drawing (rng.h)
    ctypedef struct kz_tape:
        const uint32_t *vals        # the outcomes chosen so far, each in [0, n) of its draw
        int32_t len                 # values in vals
        int32_t pos                 # draws made (may pass len)
        uint32_t need               # n of the first draw past the end (0: none)
        kz_rng rest                 # draws past the end: a real stream (the step runs on)

cdef extern from "krazy/bits.h" nogil:
    int kz_popcount64(uint64_t x) noexcept                # set bits (POPCNT or inline SWAR)
    int kz_single_bit(uint64_t x) noexcept                # 1 when exactly one bit is set

cdef extern from "krazy/piles.h" nogil:
    # discard pile but its top -> under the stock, shuffle (KK-17, KR-13, CR-14); cards moved
    int kz_rebuild_stock(uint8_t *stock, int32_t *n_stock, uint8_t *discard,
                         int32_t *n_discard, kz_rng *rng) noexcept

cdef extern from "krazy/evaluate.h" nogil:
    # each of n players' chance to end with the lowest value, a softmax with temperature tau
    void kz_chance_lowest(const double *value, int n, double tau, double *out) noexcept
    # the same with tau = spread * sqrt(rounds still to play; a round under way counts half)
    void kz_chance_lowest_rounds(const double *value, int n, double spread, double rounds_left,
                                 double *out) noexcept

cdef extern from "krazy/events.h" nogil:
    enum: KZ_EV_WIDTH
    ctypedef struct kz_events:
        int32_t *data               # n int32: events of KZ_EV_WIDTH (kind, player, a, b)
        int32_t n                   # int32 values in use
        int32_t cap                 # int32 values allocated
    int kz_ev_reserve(kz_events *ev, int32_t need) noexcept
    void kz_ev_push(kz_events *ev, int32_t kind, int32_t player, int32_t a, int32_t b) noexcept
    void kz_ev_free(kz_events *ev) noexcept

cdef extern from "krazy/ops.h" nogil:
    enum: KZ_TERMINAL
    enum: KZ_MAX_PLAYERS
    ctypedef struct kz_ops:
        const char *game_id
        int32_t state_size              # bytes in one state struct
        int32_t num_distinct_actions    # actions are ints in [0, num_distinct_actions)
        int32_t max_legal               # upper bound on len(legal_actions)
        int32_t max_players
        int (*current_player)(const void *st) noexcept nogil
        int (*legal_actions)(const void *st, int32_t *out) noexcept nogil
        int (*apply_action)(void *st, int32_t action, kz_events *ev) noexcept nogil
        int (*is_terminal)(const void *st) noexcept nogil
        void (*returns)(const void *st, double *out) noexcept nogil
        int (*num_players)(const void *st) noexcept nogil
        void (*determinize)(void *st, int player, kz_rng *rng) noexcept nogil
        int32_t (*heuristic_action)(const void *st, kz_rng *rng) noexcept nogil
        void (*new_game)(void *st, uint64_t seed) noexcept nogil
        int32_t (*round_index)(const void *st) noexcept nogil
        void (*evaluate)(const void *st, double *out) noexcept nogil
        # OPTIONAL (NULL: use legal_actions): legal[kz_bounded(rng, n)] or -1, without the list
        int32_t (*random_action)(const void *st, kz_rng *rng) noexcept nogil
        # OPTIONAL (NULL: loop over random_action/apply_action): up to max_steps (< 0: no cap)
        # random actions with events off, exactly as that loop; returns the actions applied
        int32_t (*random_playout)(void *st, kz_rng *rng, int32_t max_steps) noexcept nogil
        # OPTIONAL (0/NULL: none): floats in one observation tensor; writes player's tensor
        # (exactly State.observation_tensor(player)) to out, for a checked seat
        int32_t tensor_size
        void (*observation_tensor)(const void *st, int player, float *out) noexcept nogil
        # OPTIONAL (NULL: never): 1 when the game ended by its turn cap (KK-20), not by play
        int (*truncated)(const void *st) noexcept nogil
        # OPTIONAL (NULL: no bytes loading): the game's one validator of a loaded struct (both
        # loaders call it): NULL when st is consistent, else a static message; ref is a fresh
        # state of the same game (its options); recomputes derived fields
        const char *(*validate)(void *st, const void *ref) noexcept nogil
        int32_t max_event_kind          # OPTIONAL (0: no check): event kinds are 1..max_event_kind
        # OPTIONAL (NULL: write observation_tensor and scan it): the tensor's nonzero entries,
        # indices ascending to idx, values to val; returns how many (exactly out[i] != 0.0)
        int32_t (*observation_nonzeros)(const void *st, int player, int32_t *idx, float *val) noexcept nogil
        # OPTIONAL (NULL: unweighted worlds): log likelihood of the opponents' (all seats but
        # player's) observed choices in the determinized world st (belief weighting); with
        # seat_loglik, each seat's under the model's two kinds (2 doubles a seat)
        double (*belief_logweight)(const void *st, int player, double *seat_loglik) noexcept nogil
        # OPTIONAL (with belief_logweight): new future chance draws for a determinized world
        void (*redraw)(void *st, kz_rng *rng) noexcept nogil
