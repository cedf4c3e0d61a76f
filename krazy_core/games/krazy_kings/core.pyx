# cython: language_level=3
"""Krazy Kings (``krazy-kings``), the rules core: new game, legal actions, apply, determinize,
heuristic policy, validate, random action and playout, the observation tensor's writer and the
GameOps table ``KK_OPS`` (no ``evaluate``: see tests/test_evaluate.py), one C unit (compiled as
``krazy_core.games.krazy_kings.core``).  The struct, enums and constants
are in ``core.pxd``; the Python face (``KrazyKingsState``, JSON, observation, event texts) is
``state.pyx``; the rules text is ``rules.md`` (KK-1 .. KK-20).  Parts of the unit live in
files it includes: ``inference.pxi`` (determinize), ``validate.pxi`` (the validator),
``tensor.pxi`` (the observation tensor writer, truncation).

The game: the dice-and-Kings shedding game.

Dice are rolled by the engine from the state's own PRNG, inside ``apply_action``, and each
roll is an event; a player is asked to act only when they have a choice (at least one
legal action).  Turns with nothing to choose (a Round One pass, a forced roll and draw, a
failed challenge) are played out automatically and recorded in the event log.

Action table (``num_distinct_actions = 109``)
=============  ===========================================================================
0 .. 51        discard the card ``suit*13 + rank-1`` (suits S H D C; A=1 .. K=13)
52             discard a Joker (the two Jokers are the same card)
53 .. 105      the same discard (``action - 53``) announcing "last card" (KK-19); legal
               exactly when the discard leaves one card and ``last_card_call`` is on
106            roll instead of playing (only with ``may_roll_when_able``, KK-8)
107, 108       the roll-off winner sets the direction of play: clockwise, counter-clockwise
               (KK-16)
=============  ===========================================================================

Decisions (``phase``): a Round One turn after the roll (KK-6); a Round Two turn (KK-7); a
Round Two player's pick after a forced roll (KK-8); a challenged player's answer (KK-11); a
player facing an open roll (KK-12); the roll-off winner's direction (KK-16) and turn.

Decisions the rules leave open, settled here (tested in tests/games/krazy_kings/test_krazy_kings.py):

- The dealer is seat 0 (option ``dealer``); seat 1 starts (KK-4).
- Each double shown by a roll that counts (KK-14) toggles a pending reversal, applied when
  the current play resolves: at the end of the turn, or, for a King, once the challenge is
  answered (the challenged seat is the next one in the old direction).
  ``doubles_reverse="challenge_only"`` counts the challenge roll (KK-11) and the open-roll
  rolls (KK-12) only.
- KK-12's rolls get no free re-roll (the rule names none).
- The roll-off winner's choice of direction replaces any reversal still pending.
- A player whose turn starts holding only a King challenges with it (KK-13) in either
  phase; facing a challenge or an open roll they answer as anyone else.
- The "caught" roll of KK-19 never reverses play (it is not among KK-14's rolls).
- ``returns()``: the winner 1.0, others 0.0; when ``max_turns`` ends the game, the k
  players with the fewest cards get 1/k each.  A turn is counted each time a player's turn
  begins (answering a challenge is a whole turn, KK-11).

Event kinds (``raw_events()`` tuples ``(kind, player, a, b)``) are in ``EVENT_NAMES``.

Public inference (``inference_cards`` / ``inference_count`` in ``to_json()`` and in every
seat's ``observation``): whenever the engine finds that the player to act has no legal
discard, it rolls, passes or draws for them in public, so the whole table learns that their
hand holds none of the cards that would have been legal.  Per seat p the state keeps a card
set S_p and a count n_p meaning "at least n_p of p's cards lie outside S_p":

- KK-6 (and KK-16's roll-off turn): each missed roll -- no card matching it, no King when a
  King could go on the top card (KK-10), no Joker when a Joker could (KK-15);
- KK-8: a Round Two player made to roll held no card of the top card's rank or suit, no
  King, no Joker (KK-7; not with ``may_roll_when_able``, where the roll may be a choice);
  each missed roll, chosen or not: no card matching it;
- KK-11: a failed challenge: no card matching the challenge roll; KK-12: no card matching
  the open roll, then none matching the new roll;
- KK-13: a lone King rolling and challenging reveals that the one card is a King; a player
  beginning a Round One or Two turn with one card that does not do so holds no King (and a
  lone King's failed roll proves nothing about Kings);
- KK-19: a caught player's last card missed the roll;
- KK-17: a stock rebuilt from the discard pile holds only those public cards (kept as
  ``stock_from``), and at that moment no hand holds one of them (a Joker only when both
  Jokers were in the pile).

A new whole-hand fact T sets S_p = S_p | T when n_p still covers the whole hand, else
S_p = T, and n_p = the hand size.  Cards drawn later are unconstrained: drawing keeps n_p;
discarding a card outside S_p lowers n_p by one (it may have been a constrained card), one
inside S_p keeps it.  Play never reads these fields; ``determinize`` deals each constrained
seat its n_p cards among the unseen cards outside S_p and the stock its cards from
``stock_from`` (most constrained first), the rest uniformly, resampling a deal that misses
an inference (for 32 of its 64 tries) and relaxing inferences that cannot all hold (rare in
play; always for contradictory hostile JSON) rather than looping.  Since nothing else reads
them, the worlds ``determinize`` deals for the search are *untracked*: apply_action leaves
their inference fields alone (a tenth of an ISMCTS iteration); every State, including one
``KrazyKingsState.determinize`` returns, keeps tracking.
"""


from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy, memmove
from libc.math cimport exp, log, log1p

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_rng_seed_state, kz_bounded, kz_bounded_nb, kz_d6,
                              kz_shuffle_u8, kz_ev_push, kz_rebuild_stock, KZ_TERMINAL,
                              kz_popcount64, kz_single_bit)

cdef extern from *:
    """
    #include "krazy/rng.h"
    /* ops.random_playout is the whole of a random rollout, kk_playout below: GCC is asked to
     * inline every call in it (flatten: kk_apply, play_card, run_from, draw_cards ... with
     * events off), which saves the calls' register saves and the event-log tests per action.
     * Two copies on x86 with GCC or clang: one for any x86-64, one using POPCNT and BMI2's
     * PDEP to count and pick the random legal card (kk_playout_for picks one at import, from
     * the CPU); elsewhere the first only.  kk_playout_c is kk_playout's own C name (given
     * below with Cython's cname syntax, so no generated name is spelt here). */
    #if defined(__GNUC__) || defined(__clang__)
    #define KK_FLATTEN __attribute__((flatten))
    #else
    #define KK_FLATTEN
    #endif
    static int32_t kk_playout_c(void *, kz_rng *, int32_t, int);
    KK_FLATTEN static int32_t kk_playout_base(void *st, kz_rng *rng, int32_t max_steps) {
        return kk_playout_c(st, rng, max_steps, 0);
    }
    typedef int32_t (*kk_playout_fn)(void *, kz_rng *, int32_t);
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    #include <immintrin.h>
    __attribute__((flatten, target("popcnt,bmi,bmi2")))
    static int32_t kk_playout_bmi2(void *st, kz_rng *rng, int32_t max_steps) {
        return kk_playout_c(st, rng, max_steps, 1);
    }
    static kk_playout_fn kk_playout_for(int bmi2) { return bmi2 ? kk_playout_bmi2 : kk_playout_base; }
    /* PDEP is fast on Intel (Haswell on) and AMD Zen 3 on; Zen 1/2 microcode it (slow) */
    static int kk_cpu_fast_pdep(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2")
            && (__builtin_cpu_is("intel")
    #if defined(__clang__) || __GNUC__ >= 11
                || __builtin_cpu_is("amdfam19h")
    #endif
                );
    }
    /* only ever inlined into kk_playout_bmi2 (the base copy's calls are dead code) */
    __attribute__((target("popcnt"))) static inline int kk_popcnt(uint64_t x) {
        return __builtin_popcountll(x);
    }
    __attribute__((target("popcnt,bmi,bmi2"))) static inline int kk_select_pdep(uint64_t m, int k) {
        return (int)__builtin_ctzll(_pdep_u64(1ULL << k, m));   /* the k-th lowest set bit of m */
    }
    #else
    static kk_playout_fn kk_playout_for(int bmi2) { (void)bmi2; return kk_playout_base; }
    static int kk_cpu_fast_pdep(void) { return 0; }
    static inline int kk_popcnt(uint64_t x) { (void)x; return 0; }             /* never called */
    static inline int kk_select_pdep(uint64_t m, int k) { (void)m; (void)k; return 0; }
    #endif
    """
    ctypedef int32_t (*kk_playout_fn)(void *, kz_rng *, int32_t) noexcept nogil
    kk_playout_fn kk_playout_for(int bmi2) noexcept nogil
    int kk_cpu_fast_pdep() noexcept nogil
    int kk_popcnt(uint64_t x) noexcept nogil
    int kk_select_pdep(uint64_t m, int k) noexcept nogil

# ------------------------------------------------------------------ tables
# (IDX_TO_CODE, CODE_TO_IDX, KINGS and JOKERS are declared in core.pxd: state.pyx reads them)
cdef int32_t IDX_VALUE[NIDX]      # dice value (KK-2): A=1 .. Q=12; 0 for Kings and Jokers
cdef uint64_t VALUE_MASK[13]      # cards whose dice value is v (1..12)
cdef uint64_t SUIT_MASK[4]
cdef uint64_t RANK_MASK[14]
cdef uint64_t ROLL_MASK[7][7]     # cards matching the roll (d1, d2)
cdef double MATCH_P[14]           # chance a random roll matches dice value v
cdef uint8_t SELECT_IN_BYTE[8 * 256]   # [j * 256 + b]: position of the j-th lowest set bit of b
# by top card index + 1 (0: empty discard pile):
cdef uint64_t R1_ON_TOP[NIDX + 1] # Kings (KK-10) and Jokers (KK-15) a Round One discard may be besides a match
cdef uint64_t R2_ON_TOP[NIDX + 1] # the Round Two discards: rank or suit, Kings, Jokers (KK-7, KK-10, KK-15)
cdef void _init_tables():
    global KINGS, JOKERS
    JOKERS = (1ULL << 52) | (1ULL << 53)
    KINGS = 0
    cdef int s, r, i, a, b, v, t
    for i in range(128):
        CODE_TO_IDX[i] = -1
    for i in range(13):
        VALUE_MASK[i] = 0
    for i in range(14):
        RANK_MASK[i] = 0
        MATCH_P[i] = 0
    for s in range(4):
        SUIT_MASK[s] = 0
        for r in range(1, 14):
            i = s * 13 + r - 1
            IDX_TO_CODE[i] = (s << 4) | r
            CODE_TO_IDX[(s << 4) | r] = i
            SUIT_MASK[s] |= 1ULL << i
            RANK_MASK[r] |= 1ULL << i
            if r == 13:
                KINGS |= 1ULL << i
                IDX_VALUE[i] = 0
            else:
                IDX_VALUE[i] = r
                VALUE_MASK[r] |= 1ULL << i
    IDX_TO_CODE[52] = JOKER_CODE
    IDX_TO_CODE[53] = JOKER_CODE
    IDX_VALUE[52] = 0
    IDX_VALUE[53] = 0
    CODE_TO_IDX[JOKER_CODE] = 52
    for b in range(256):
        v = 0
        for a in range(8):
            if (b >> a) & 1:
                SELECT_IN_BYTE[v * 256 + b] = a
                v += 1
    for t in range(-1, NIDX):
        R1_ON_TOP[t + 1] = 0
        R2_ON_TOP[t + 1] = 0
        if t < 0 or (t < 52 and (KINGS >> t) & 1 == 0):
            R1_ON_TOP[t + 1] |= KINGS                  # KK-10: not on a King or a Joker
        if t < 0 or t >= 52 or (KINGS >> t) & 1 == 0:
            R1_ON_TOP[t + 1] |= JOKERS                 # KK-15: not on a King
        if t >= 0 and t < 52 and (KINGS >> t) & 1 == 0:
            R2_ON_TOP[t + 1] = SUIT_MASK[t // 13] | RANK_MASK[t % 13 + 1] | KINGS | JOKERS   # KK-7
        elif t >= 52:
            R2_ON_TOP[t + 1] = JOKERS                  # nothing matches a Joker; a Joker may go on it
    for a in range(7):
        for b in range(7):
            ROLL_MASK[a][b] = 0
    for a in range(1, 7):
        for b in range(1, 7):
            ROLL_MASK[a][b] = VALUE_MASK[a] | VALUE_MASK[b] | VALUE_MASK[a + b]
            for v in range(1, 13):
                if v == a or v == b or v == a + b:
                    MATCH_P[v] += 1.0 / 36.0

_init_tables()

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

cdef inline int popcount(uint64_t x) noexcept nogil:
    return kz_popcount64(x)

cdef inline uint64_t byte_prefix_counts(uint64_t m) noexcept nogil:
    """Byte i: the set bits of m in its bytes 0..i (byte 7: popcount(m)); broadword."""
    m = m - ((m >> 1) & 0x5555555555555555ULL)
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL)
    return ((m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL) * 0x0101010101010101ULL

cdef inline int select_bit(uint64_t m, uint64_t prefix, int k) noexcept nogil:
    """Position of the k-th lowest set bit of m (0 <= k < popcount(m)); prefix =
    byte_prefix_counts(m).  No loop, so no branch that depends on k (a random pick's k would
    defeat the branch predictor): the first byte whose prefix count exceeds k, then a table."""
    cdef uint64_t over = ((prefix | 0x8080808080808080ULL) - <uint64_t>(k + 1) * 0x0101010101010101ULL) & 0x8080808080808080ULL
    cdef int byte = __builtin_ctzll(over) >> 3
    cdef int before = <int>(((prefix << 8) >> (byte * 8)) & 0xFF)
    return byte * 8 + SELECT_IN_BYTE[(k - before) * 256 + <int>((m >> (byte * 8)) & 0xFF)]


# ------------------------------------------------------------------ card movement
# (the hot helpers below are written without branches where a random card or die decides:
# a mispredicted branch costs more than the few instructions that replace it)
cdef inline void add_card(KKState *st, int p, uint8_t code) noexcept nogil:
    cdef int i = CODE_TO_IDX[code]
    i += (i == 52) & <int>((st.hand[p] >> 52) & 1)        # the second Joker: bit 53
    st.hand[p] |= 1ULL << i

cdef inline void remove_idx(KKState *st, int p, int i) noexcept nogil:
    # i is 0..52; a Joker is taken from bit 53 first so that one Joker always sits on bit 52
    i += (i == 52) & <int>((st.hand[p] >> 53) & 1)
    st.hand[p] &= ~(1ULL << i)

cdef inline int next_seat(const KKState *st, int p) noexcept nogil:
    """The seat after p in the direction of play (KK-4, KK-14); no division."""
    p += st.direction
    p += st.num_players & -<int>(p < 0)
    return p - (st.num_players & -<int>(p >= st.num_players))

cdef inline int top_idx(const KKState *st) noexcept nogil:
    if st.n_discard == 0:
        return -1
    return CODE_TO_IDX[st.discard[st.n_discard - 1]]

cdef void everyone_round_one(KKState *st, int reason, kz_events *ev) noexcept nogil:
    memset(st.round_two, 0, MAXP)            # seats past num_players are 0 anyway
    kz_ev_push(ev, EV_ROUND_ONE, -1, reason, 0)

cdef int rebuild_stock(KKState *st, kz_events *ev) noexcept nogil:
    """KK-17/KK-18: the discard pile but its top becomes the shuffled stock."""
    cdef uint64_t pile = _pile_mask(st) if st.n_stock == 0 and not st.untracked else 0
    cdef int k = st.n_discard - 1
    if k <= 0:
        return 0
    if st.n_stock == 0:
        # kz_rebuild_stock with whole-array copies of fixed size (a few vector moves, not a
        # loop per card): slots past a pile's top are zero, so the stock gets the pile, then
        # its top slot is cleared; the same shuffle
        memcpy(st.stock, st.discard, NIDX)
        st.stock[k] = 0
        st.discard[0] = st.discard[k]
        memset(&st.discard[1], 0, NIDX - 1)
        st.n_stock = k
        st.n_discard = 1
        kz_shuffle_u8(&st.rng, st.stock, k)
    else:
        k = kz_rebuild_stock(st.stock, &st.n_stock, st.discard, &st.n_discard, &st.rng)
    infer_rebuild(st, pile)
    kz_ev_push(ev, EV_REBUILD, -1, st.n_stock, 0)
    everyone_round_one(st, 1, ev)
    return k

cdef void draw_cards(KKState *st, int p, int k, int reason, kz_events *ev) noexcept nogil:
    """Seat p draws k cards from the top of the stock, which is rebuilt (KK-17) whenever it
    runs out; fewer when even that leaves it empty.  The cards the stock holds are taken in
    one loop, the hand kept in a local (add_card's bit for each card)."""
    cdef int i, n, take
    cdef uint8_t c
    cdef uint64_t h
    cdef int drawn = 0
    while k > 0:
        if st.n_stock == 0:
            rebuild_stock(st, ev)
            if st.n_stock == 0:
                break
        n = st.n_stock
        take = k if k < n else n
        k -= take
        h = st.hand[p]
        for i in range(take):
            n -= 1
            c = st.stock[n]
            st.stock[n] = 0                   # unused slots stay zero: states compare by memcmp
            i = CODE_TO_IDX[c]
            i += (i == 52) & <int>((h >> 52) & 1)             # the second Joker: bit 53
            h |= 1ULL << i
            kz_ev_push(ev, EV_DRAW, p, c, reason)
        st.hand[p] = h
        st.n_stock = n
        drawn += take
    if drawn > 0 and not st.untracked:
        note_draw(st, p, drawn)

cdef inline int counts_double(const KKState *st, bint challenge_roll) noexcept nogil:
    if st.opt_doubles == 0:
        return 1
    if st.opt_doubles == 1:
        return challenge_roll
    return 0

cdef inline void roll(KKState *st, int p, int kind, bint challenge_roll, int32_t *d1, int32_t *d2, kz_events *ev) noexcept nogil:
    d1[0] = kz_d6(&st.rng)
    d2[0] = kz_d6(&st.rng)
    kz_ev_push(ev, kind, p, d1[0], d2[0])
    st.pending_reverse ^= (d1[0] == d2[0]) & counts_double(st, challenge_roll)

cdef inline int end_turn(KKState *st, int p, kz_events *ev) noexcept nogil:
    """The play resolves: apply a pending reversal (KK-14); the next seat to begin."""
    cdef int r = st.pending_reverse                          # 0 or 1
    st.direction -= 2 * r * st.direction
    st.pending_reverse = 0
    if r and ev != NULL:
        kz_ev_push(ev, EV_REVERSE, p, st.direction, 0)
    st.d1 = 0
    st.d2 = 0
    return next_seat(st, p)

cdef void finish(KKState *st, int winner, kz_events *ev) noexcept nogil:
    st.winner = winner
    st.cur = KZ_TERMINAL
    st.phase = PH_NONE
    st.playable = 0
    st.d1 = 0
    st.d2 = 0
    if winner >= 0:
        kz_ev_push(ev, EV_WIN, winner, 0, 0)

# ------------------------------------------------------------------ legality
cdef inline uint64_t decision_cards(int phase, int d1, int d2, int top1) noexcept nogil:
    """The cards a discard may be in a decision of ``phase`` with roll (d1, d2) on the top
    card of index ``top1 - 1`` (0: none), before the hand is looked at: the roll's matches
    (KK-6, KK-8, KK-11, KK-12) and in Round One Kings and Jokers (KK-10, KK-15), or Round
    Two's matches of the top card (KK-7).  Also a belief record's (inference.pxi)."""
    if phase == PH_R1:
        return ROLL_MASK[d1][d2] | R1_ON_TOP[top1]
    if phase == PH_R2:
        return R2_ON_TOP[top1]
    return ROLL_MASK[d1][d2]           # PH_R2_ROLLED, PH_CHALLENGED, PH_OPEN: dice values only

cdef inline uint64_t phase_cards(const KKState *st) noexcept nogil:
    """decision_cards of the current decision of a running game."""
    return decision_cards(st.phase, st.d1, st.d2, top_idx(st) + 1)

cdef inline uint64_t hand_choices(uint64_t allowed, uint64_t h) noexcept nogil:
    """The discards hand ``h`` has among the cards ``allowed``: never a King as the last
    card (KK-13), the two Jokers one choice (bit 53 counts as 52)."""
    allowed &= h
    allowed &= ~(KINGS & -<uint64_t>kz_single_bit(h))
    allowed |= (allowed >> 1) & (1ULL << 52)
    return allowed & ~(1ULL << 53)

cdef inline uint64_t legal_cards(const KKState *st) noexcept nogil:
    """Hand bits the player to act may discard in the current decision."""
    cdef int p = st.cur
    if st.phase == PH_NONE or st.phase == PH_DIRECTION or p < 0:
        return 0
    return hand_choices(phase_cards(st), st.hand[p])

cdef inline uint64_t pending_cards(KKState *st) noexcept nogil:
    """``legal_cards``, kept in ``st.playable``: a decision is pending when it is not 0."""
    st.playable = legal_cards(st)
    return st.playable

# ------------------------------------------------------------------ public inference
cdef inline uint64_t deck_bits(const KKState *st) noexcept nogil:
    return ((1ULL << 52) - 1) | (JOKERS if st.opt_jokers else 0)

cdef uint64_t allowed_mask(const KKState *st) noexcept nogil:
    """The cards the player to act could discard in the current decision if they held
    them: ``legal_cards`` before the hand is looked at (KK-6/7/8/10/11/12/13/15).  When
    ``legal_cards`` finds nothing, the whole hand lies outside this set, and everyone at the
    table knows it (the engine rolls, passes or draws in public)."""
    cdef int p = st.cur
    cdef uint64_t allowed
    if st.phase == PH_NONE or st.phase == PH_DIRECTION or p < 0:
        return 0
    allowed = phase_cards(st)
    if kz_single_bit(st.hand[p]):
        allowed &= ~KINGS                     # KK-13: a lone King proves nothing here
    return allowed & deck_bits(st)

cdef void infer_none_of(KKState *st, int p, uint64_t t) noexcept nogil:
    """Public fact: none of seat p's cards is in t.  Joins the seat's earlier inference
    when all of its cards are still constrained, else replaces it."""
    cdef int h
    if st.untracked:
        return
    h = popcount(st.hand[p])
    t &= deck_bits(st)
    if t == 0 or h == 0:
        return
    if st.inf_n[p] == h:
        st.inf_mask[p] |= t
    else:
        st.inf_mask[p] = t
        st.inf_n[p] = h

cdef inline void infer_refused(KKState *st) noexcept nogil:
    """The player to act had no legal discard (legal_cards == 0) in public."""
    if not st.untracked:
        infer_none_of(st, st.cur, allowed_mask(st))

cdef inline void note_discard(KKState *st, int p, int i) noexcept nogil:
    """Seat p discarded card index i: a card outside the inferred set may have been one
    of the constrained cards; one inside it was drawn after the inference."""
    cdef int h
    if st.untracked:
        return
    h = popcount(st.hand[p])
    if (st.inf_mask[p] >> i) & 1 == 0 and st.inf_n[p] > 0:
        st.inf_n[p] -= 1
    if st.inf_n[p] > h:
        st.inf_n[p] = h
    if st.inf_n[p] == 0:
        st.inf_mask[p] = 0

cdef inline uint64_t bel_pack(int card, int phase, int d1, int d2, int top1, int size, int nxt,
                              int min_opp) noexcept nogil:
    return (<uint64_t>card << BEL_CARD | <uint64_t>phase << BEL_PHASE | <uint64_t>d1 << BEL_D1
            | <uint64_t>d2 << BEL_D2 | <uint64_t>top1 << BEL_TOP | <uint64_t>size << BEL_SIZE
            | <uint64_t>nxt << BEL_NEXT | <uint64_t>min_opp << BEL_MINOPP)

cdef inline int bel_field(uint64_t r, int shift, int bits) noexcept nogil:
    return <int>((r >> shift) & ((1ULL << bits) - 1))

cdef inline void _bel_push(KKState *st, int p, uint64_t r) noexcept nogil:
    """Append belief record r to seat p's, dropping the oldest past KK_BEL_REC."""
    cdef int n = st.bel_n[p]
    if n >= KK_BEL_REC:
        memmove(&st.bel_rec[p][0], &st.bel_rec[p][1], (KK_BEL_REC - 1) * sizeof(uint64_t))
        n = KK_BEL_REC - 1
    st.bel_rec[p][n] = r
    st.bel_n[p] = <uint8_t>(n + 1)

cdef void note_draw(KKState *st, int p, int k) noexcept nogil:
    """Seat p drew k hidden cards: a draw record (phase 0, the count in the card field),
    added to the newest record when that is a draw too (at most 63)."""
    cdef int n = st.bel_n[p], had
    if n > 0 and bel_field(st.bel_rec[p][n - 1], BEL_PHASE, 3) == 0:
        had = bel_field(st.bel_rec[p][n - 1], BEL_CARD, 6)
        st.bel_rec[p][n - 1] = <uint64_t>(had + k if had + k < 63 else 63)
        return
    _bel_push(st, p, <uint64_t>(k if k < 63 else 63))

cdef void note_choice(KKState *st, int p, int i) noexcept nogil:
    """Seat p, to act, chose to discard card index i (0..52): keep the decision's public
    context as a belief record (bel_pack), the oldest dropped past KK_BEL_REC."""
    cdef int q, min_opp = 63, k
    for q in range(st.num_players):
        k = popcount(st.hand[q])
        if q != p and k < min_opp:
            min_opp = k
    _bel_push(st, p, bel_pack(i, st.phase, st.d1, st.d2, top_idx(st) + 1, popcount(st.hand[p]),
                              popcount(st.hand[next_seat(st, p)]), min_opp))

cdef uint64_t _pile_mask(const KKState *st) noexcept nogil:
    """The discard pile but its top as a card set (the Joker bits when it holds a Joker)."""
    cdef uint64_t m = 0
    cdef int i, j
    for i in range(st.n_discard - 1):
        j = CODE_TO_IDX[st.discard[i]]
        m |= JOKERS if j >= 52 else (1ULL << j)
    return m

cdef void infer_rebuild(KKState *st, uint64_t pile) noexcept nogil:
    """KK-17: the stock was rebuilt from public cards (the old discard pile), so it holds
    only those, and no hand holds one of them at this moment (a Joker only when both were
    in the pile: the Jokers are alike)."""
    cdef int p, jokers = 0, i
    cdef uint64_t none_of = pile & ~JOKERS
    if pile == 0:
        return
    for i in range(st.n_stock):
        if st.stock[i] == JOKER_CODE:
            jokers += 1
    if jokers == 2:
        none_of |= JOKERS
    st.stock_from = pile & deck_bits(st)
    for p in range(st.num_players):
        infer_none_of(st, p, none_of)

cdef int kk_legal_actions(const void *vst, int32_t *out) noexcept nogil:
    cdef const KKState *st = <const KKState *>vst
    cdef int n = 0, i
    cdef uint64_t m, h
    if st.phase == PH_NONE:
        return 0
    if st.phase == PH_DIRECTION:
        out[0] = A_CW
        out[1] = A_CCW
        return 2
    m = st.playable                                         # legal_cards(st)
    h = st.hand[st.cur]
    while m:
        i = __builtin_ctzll(m)
        out[n] = i
        n += 1
        m &= m - 1
    if st.opt_last_card and kz_single_bit(h & (h - 1)):     # two cards in hand
        for i in range(n):
            out[n + i] = out[i] + A_ANNOUNCE
        n *= 2
    if st.phase == PH_R2 and st.opt_may_roll:
        out[n] = A_ROLL
        n += 1
    return n

cdef int32_t kk_random_action(const void *vst, kz_rng *rng) noexcept nogil:
    """ops.random_action: ``kk_legal_actions(st, out)[kz_bounded(rng, n)]`` (-1 when there
    is none) without writing the list: count the discards, draw once, pick the k-th."""
    return random_action(<const KKState *>vst, rng, False)

cdef inline int32_t random_action(const KKState *st, kz_rng *rng, bint bmi2) noexcept nogil:
    """kk_random_action; with ``bmi2`` (a constant: only in kk_playout_bmi2) by POPCNT and
    PDEP instead of the broadword count and select."""
    cdef uint64_t m, h, prefix = 0
    cdef int c, n, k, base = 0
    cdef bint roll
    if st.phase == PH_NONE:
        return -1
    if st.phase == PH_DIRECTION:
        return A_CW + <int32_t>kz_bounded(rng, 2)
    m = st.playable                                         # legal_cards(st)
    h = st.hand[st.cur]
    if bmi2:
        c = kk_popcnt(m)
    else:
        prefix = byte_prefix_counts(m)
        c = <int>(prefix >> 56)                              # popcount(m)
    n = c
    if st.opt_last_card and kz_single_bit(h & (h - 1)):     # two cards: the announcing twins
        n += c
    roll = (st.phase == PH_R2) & (st.opt_may_roll != 0)      # and last, roll instead (KK-8)
    if roll:
        n += 1
    if n <= 0:
        return -1
    k = <int>kz_bounded_nb(rng, <uint32_t>n)                # n is often 1 (then no draw)
    if roll and k == n - 1:
        return A_ROLL
    if k >= c:
        k -= c
        base = A_ANNOUNCE
    if bmi2:
        return base + kk_select_pdep(m, k)
    return base + select_bit(m, prefix, k)                   # the k-th lowest legal card

# ------------------------------------------------------------------ turns
cdef inline bint roll_for_match(KKState *st, int p, int rolls, kz_events *ev) noexcept nogil:
    """Roll up to `rolls` times (KK-6, KK-8 with free_reroll, KK-16's three), stopping at
    the first roll that gives the player to act a legal discard."""
    cdef int k
    for k in range(rolls):
        roll(st, p, EV_ROLL, False, &st.d1, &st.d2, ev)
        if pending_cards(st):
            return True
        infer_refused(st)                    # KK-6/KK-8/KK-16: nothing matched this roll
    return False

cdef inline int begin_turn(KKState *st, int p, kz_events *ev) noexcept nogil:
    """Starts seat p's turn.  Returns -1 when a decision is pending or the game is over,
    else the next seat whose turn begins (this turn played itself out)."""
    cdef int32_t d1 = 0, d2 = 0
    cdef int ch
    cdef uint64_t h
    if st.turns >= st.opt_max_turns:
        end_by_turn_limit(st, ev)
        return -1
    st.turns += 1
    st.cur = p
    kz_ev_push(ev, EV_TURN, p, st.turns, 0)
    h = st.hand[p]
    if st.challenger >= 0:                                   # KK-11
        st.phase = PH_CHALLENGED
        st.d1 = st.ch_d1
        st.d2 = st.ch_d2
        if pending_cards(st):
            return -1
        infer_refused(st)                                    # KK-11: nothing matched
        ch = st.challenger
        kz_ev_push(ev, EV_CHALLENGE_FAILED, p, st.ch_d1 + st.ch_d2, ch)
        draw_cards(st, p, st.ch_d1 + st.ch_d2, 2, ev)
        st.open_d1 = st.ch_d1                                # KK-12: the roll stays open
        st.open_d2 = st.ch_d2
        st.challenger = -1
        return end_turn(st, p, ev)
    if st.open_d1:                                           # KK-12
        st.phase = PH_OPEN
        st.d1 = st.open_d1
        st.d2 = st.open_d2
        if pending_cards(st):
            return -1
        infer_refused(st)                                    # KK-12: the open roll
        roll(st, p, EV_OPEN_ROLL, True, &d1, &d2, ev)
        st.open_d1 = d1
        st.open_d2 = d2
        st.d1 = d1
        st.d2 = d2
        if pending_cards(st):
            return -1
        infer_refused(st)                                    # KK-12: the new roll
        draw_cards(st, p, d1 + d2, 3, ev)
        return end_turn(st, p, ev)
    if kz_single_bit(h) and (h & KINGS):                     # KK-13
        kz_ev_push(ev, EV_KING_ONLY, p, 0, 0)
        infer_none_of(st, p, ~KINGS)                         # the last card is a King
        return king_challenge(st, p, ev)
    if kz_single_bit(h):
        infer_none_of(st, p, KINGS)                          # KK-13 did not apply: no King
    if not st.round_two[p]:                                  # KK-6
        st.phase = PH_R1
        if roll_for_match(st, p, 1 + st.opt_free_reroll, ev):
            return -1
        kz_ev_push(ev, EV_PASS, p, 0, 0)
        return end_turn(st, p, ev)
    st.phase = PH_R2                                         # KK-7
    st.d1 = 0
    st.d2 = 0
    if pending_cards(st):
        return -1
    if not st.opt_may_roll:
        infer_refused(st)                                    # KK-8: could not play (KK-7)
    return forced_roll(st, p, ev)

cdef inline int forced_roll(KKState *st, int p, kz_events *ev) noexcept nogil:
    """KK-8: roll, discard a match if any; else (free re-roll) draw s."""
    st.phase = PH_R2_ROLLED
    if roll_for_match(st, p, 1 + st.opt_free_reroll, ev):
        return -1
    draw_cards(st, p, st.d1 + st.d2, 0, ev)
    return end_turn(st, p, ev)

cdef inline int king_challenge(KKState *st, int p, kz_events *ev) noexcept nogil:
    """KK-11: p rolls at once and challenges the next seat."""
    cdef int32_t d1 = 0, d2 = 0
    roll(st, p, EV_CHALLENGE, True, &d1, &d2, ev)
    st.challenger = p
    st.ch_d1 = d1
    st.ch_d2 = d2
    st.open_d1 = 0
    st.open_d2 = 0
    st.d1 = 0
    st.d2 = 0
    return next_seat(st, p)

cdef int rolloff_turn_roll(KKState *st, int p, kz_events *ev) noexcept nogil:
    """KK-16: the roll-off winner's Round One turn of up to three rolls."""
    st.rolloff_rolls = 1
    if roll_for_match(st, p, 3, ev):
        return -1
    st.rolloff_rolls = 0
    draw_cards(st, p, st.d1 + st.d2, 6, ev)
    return end_turn(st, p, ev)

cdef int rolloff(KKState *st, int joker_player, kz_events *ev) noexcept nogil:
    """KK-16: everyone rolls one die, the highest wins (ties roll again); the others draw
    their own last die; everyone back to Round One; the winner chooses the direction."""
    cdef int last[MAXP]
    cdef bint in_[MAXP]
    cdef int p, best, n_best, rnd = 0, w = -1
    for p in range(st.num_players):
        in_[p] = True
        last[p] = 0
    while True:
        rnd += 1
        best = 0
        for p in range(st.num_players):
            if in_[p]:
                last[p] = kz_d6(&st.rng)
                kz_ev_push(ev, EV_ROLLOFF_DIE, p, last[p], rnd)
                best = last[p] if last[p] > best else best
        n_best = 0
        for p in range(st.num_players):                  # without branches on the dice
            in_[p] = in_[p] & (last[p] == best)
            n_best += in_[p]
            w = p if in_[p] else w
        if n_best == 1:
            break
    kz_ev_push(ev, EV_ROLLOFF_WIN, w, best, joker_player)
    for p in range(st.num_players):
        if p != w:
            draw_cards(st, p, last[p], 4, ev)
    everyone_round_one(st, 2, ev)
    st.cur = w
    st.phase = PH_DIRECTION
    st.playable = 0
    st.d1 = 0
    st.d2 = 0
    return -1

cdef void end_by_turn_limit(KKState *st, kz_events *ev) noexcept nogil:
    st.turn_limit = 1
    kz_ev_push(ev, EV_TURN_LIMIT, -1, st.turns, 0)
    finish(st, -1, ev)

cdef inline int play_card(KKState *st, int i, bint announce, kz_events *ev) noexcept nogil:
    """The player to act discards card index i (0..52).  Returns the next seat to begin,
    or -1 (decision pending / game over)."""
    cdef int p = st.cur, phase = st.phase, last, d1 = 0, d2 = 0, ch, v
    cdef uint8_t code = IDX_TO_CODE[i]
    cdef uint64_t h
    if not st.untracked:
        note_choice(st, p, i)
    remove_idx(st, p, i)
    note_discard(st, p, i)
    st.discard[st.n_discard] = code
    st.n_discard += 1
    st.round_two[p] = 1                                      # KK-5
    kz_ev_push(ev, EV_PLAY, p, code, announce)
    h = st.hand[p]
    if h == 0:                                               # KK-20
        finish(st, p, ev)
        return -1
    if kz_single_bit(h) and st.opt_last_card:                # KK-19
        if announce:
            kz_ev_push(ev, EV_ANNOUNCE, p, 0, 0)
        else:
            d1 = kz_d6(&st.rng)
            d2 = kz_d6(&st.rng)
            kz_ev_push(ev, EV_CAUGHT, p, d1, d2)
            last = __builtin_ctzll(h)
            if ROLL_MASK[d1][d2] & h:
                if not st.untracked:
                    st.inf_n[p] = 0
                    st.inf_mask[p] = 0
                st.hand[p] = 0
                st.discard[st.n_discard] = IDX_TO_CODE[last]
                st.n_discard += 1
                kz_ev_push(ev, EV_PLAY, p, IDX_TO_CODE[last], 0)
                finish(st, p, ev)
                return -1
            infer_none_of(st, p, ROLL_MASK[d1][d2])          # KK-19: the last card missed
            draw_cards(st, p, d1 + d2, 5, ev)
    if phase == PH_CHALLENGED:                               # KK-11: challenge met
        ch = st.challenger
        v = IDX_VALUE[i]
        kz_ev_push(ev, EV_CHALLENGE_MET, p, code, ch)
        st.challenger = -1
        draw_cards(st, ch, v, 1, ev)
        if st.num_players == 2:
            if st.pending_reverse:
                end_turn(st, p, ev)
            st.d1 = 0
            st.d2 = 0
            return p                                         # the winner plays next
        return end_turn(st, p, ev)
    if phase == PH_OPEN:                                     # KK-12: the open roll closes
        st.open_d1 = 0
        st.open_d2 = 0
        return end_turn(st, p, ev)
    st.rolloff_rolls = 0
    if (KINGS >> i) & 1:                                     # KK-10/11 (i <= 52: no King bit)
        return king_challenge(st, p, ev)
    if i >= 52 and st.opt_jokers:                            # KK-16
        return rolloff(st, p, ev)
    return end_turn(st, p, ev)

cdef void run_from(KKState *st, int nxt, kz_events *ev) noexcept nogil:
    while nxt >= 0 and st.phase != PH_NONE:
        nxt = begin_turn(st, nxt, ev)

cdef inline int kk_apply(void *vst, int32_t a, kz_events *ev) noexcept nogil:
    cdef KKState *st = <KKState *>vst
    cdef int nxt
    if st.phase == PH_NONE:
        return -1
    if a == A_CW or a == A_CCW:                              # KK-16
        st.direction = 1 if a == A_CW else -1
        st.pending_reverse = 0
        kz_ev_push(ev, EV_DIRECTION, st.cur, st.direction, 0)
        if st.turns >= st.opt_max_turns:
            end_by_turn_limit(st, ev)
            return 0
        st.turns += 1
        kz_ev_push(ev, EV_TURN, st.cur, st.turns, 0)
        st.phase = PH_R1
        st.rolloff_rolls = 0
        nxt = rolloff_turn_roll(st, st.cur, ev)
    elif a == A_ROLL:                                        # KK-8 with may_roll_when_able
        nxt = forced_roll(st, st.cur, ev)
    else:                                                    # one call site: inlined
        nxt = play_card(st, a - A_ANNOUNCE if a >= A_ANNOUNCE else a, a >= A_ANNOUNCE, ev)
    run_from(st, nxt, ev)
    return 0

cdef int32_t kk_playout "kk_playout_c"(void *vst, kz_rng *rng, int32_t max_steps, bint bmi2) noexcept nogil:
    """ops.random_playout (kk_playout_base or kk_playout_bmi2, which inline all of it):
    random_action then kk_apply (events off) until the game ends or max_steps actions
    (< 0: no cap); returns the actions applied.  The rollout's generator is copied into a
    local for the loop, so it may live in registers (the same draws)."""
    cdef KKState *st = <KKState *>vst
    cdef int32_t steps = 0, a
    cdef kz_rng g = rng[0]
    while steps != max_steps and st.phase != PH_NONE:
        a = random_action(st, &g, bmi2)
        if a < 0:
            break
        kk_apply(st, a, NULL)
        steps += 1
    rng[0] = g
    return steps


def _fast_playout(enable=None):
    """Which ops.random_playout copy runs: True = POPCNT/PDEP (``kk_playout_bmi2``, chosen at
    import when the CPU has fast PDEP), False = the baseline x86-64 one.  ``enable``
    (tests only) switches it when given: both must play identically."""
    global _FAST
    if enable is not None:
        if enable and not kk_cpu_fast_pdep():
            raise ValueError("this CPU has no fast PDEP")
        _FAST = bool(enable)
        KK_OPS.random_playout = kk_playout_for(_FAST)
    return _FAST

# ------------------------------------------------------------------ new game
cdef void kk_new_game(void *vst, uint64_t seed) noexcept nogil:
    """KK-1, KK-3, KK-4: shuffle, deal by 2d6 rolls from the dealer's left, seat left of
    the dealer starts in Round One, clockwise."""
    cdef KKState *st = <KKState *>vst
    cdef int n = 52 + (2 if st.opt_jokers else 0), i, p, k, d1, d2, seat
    kz_rng_seed_state(&st.rng, seed)
    memset(st.stock, 0, sizeof(st.stock))
    memset(st.discard, 0, sizeof(st.discard))
    for p in range(MAXP):
        st.hand[p] = 0
        st.round_two[p] = 0
        st.inf_mask[p] = 0
        st.inf_n[p] = 0
    st.inf_pad = 0
    memset(st.bel_rec, 0, sizeof(st.bel_rec))
    memset(st.bel_n, 0, sizeof(st.bel_n))
    memset(st.bel_pad, 0, sizeof(st.bel_pad))
    st.stock_from = 0
    st.untracked = 0
    st.playable = 0
    for i in range(52):
        st.stock[i] = IDX_TO_CODE[i]
    if st.opt_jokers:
        st.stock[52] = JOKER_CODE
        st.stock[53] = JOKER_CODE
    st.n_stock = n
    st.n_discard = 0
    kz_shuffle_u8(&st.rng, st.stock, n)
    st.direction = 1
    st.d1 = 0
    st.d2 = 0
    st.open_d1 = 0
    st.open_d2 = 0
    st.challenger = -1
    st.ch_d1 = 0
    st.ch_d2 = 0
    st.rolloff_rolls = 0
    st.pending_reverse = 0
    st.turns = 0
    st.winner = -1
    st.turn_limit = 0
    st.phase = PH_R1
    st.cur = (st.dealer + 1) % st.num_players


cdef void kk_deal(KKState *st, kz_events *ev) noexcept nogil:
    cdef int p, k, d1, d2, seat
    kz_ev_push(ev, EV_SHUFFLE, st.dealer, st.n_stock, 0)
    for k in range(st.num_players):
        seat = (st.dealer + 1 + k) % st.num_players
        d1 = kz_d6(&st.rng)
        d2 = kz_d6(&st.rng)
        kz_ev_push(ev, EV_DEAL_ROLL, seat, d1, d2)
        for p in range(d1 + d2):
            if st.n_stock == 0:
                break
            st.n_stock -= 1
            add_card(st, seat, st.stock[st.n_stock])
            kz_ev_push(ev, EV_DEAL, seat, st.stock[st.n_stock], 0)
            st.stock[st.n_stock] = 0
    run_from(st, (st.dealer + 1) % st.num_players, ev)


cdef void kk_new_game_dealt(void *vst, uint64_t seed) noexcept nogil:
    kk_new_game(vst, seed)
    kk_deal(<KKState *>vst, NULL)

# ------------------------------------------------------------------ ops
cdef int kk_current_player(const void *vst) noexcept nogil:
    return (<const KKState *>vst).cur

cdef int kk_is_terminal(const void *vst) noexcept nogil:
    return (<const KKState *>vst).phase == PH_NONE

cdef int kk_num_players(const void *vst) noexcept nogil:
    return (<const KKState *>vst).num_players

cdef void kk_returns(const void *vst, double *out) noexcept nogil:
    """KK-20: the winner 1.0, others 0.0; at the turn limit the k seats with the fewest
    cards 1/k each; all zeros while the game runs."""
    cdef const KKState *st = <const KKState *>vst
    cdef int p, best = 1000, k = 0, c
    for p in range(st.num_players):
        out[p] = 0.0
    if st.phase != PH_NONE:
        return
    if st.winner >= 0:
        out[st.winner] = 1.0
        return
    for p in range(st.num_players):
        c = popcount(st.hand[p])
        if c < best:
            best = c
    for p in range(st.num_players):
        if popcount(st.hand[p]) == best:
            k += 1
    for p in range(st.num_players):
        if popcount(st.hand[p]) == best:
            out[p] = 1.0 / k

# ------------------------------------------------------------------ determinize (inference.pxi)
include "inference.pxi"

# ------------------------------------------------------------------ heuristic (bots)
cdef inline double heuristic_score(int phase, int i, uint64_t hand, int nxt_n, int min_opp) noexcept nogil:
    """HeuristicBot's score of discarding card index i (0..52) from ``hand`` in a decision
    of ``phase``, the next seat holding ``nxt_n`` cards and the smallest other hand
    ``min_opp``: the highest wins (kk_heuristic; the belief weighting's opponent model)."""
    cdef double score
    if phase == PH_CHALLENGED:
        return IDX_VALUE[i]                                   # the challenger draws it
    if i < 52 and (KINGS >> i) & 1:
        return 30.0 if nxt_n <= 3 else -20.0
    if i >= 52:
        return 25.0 if min_opp <= 3 else -30.0
    score = 10.0 * (1.0 - MATCH_P[IDX_VALUE[i]])
    if phase == PH_R2 or phase == PH_R1:
        # prefer a card whose suit we keep (a follow-up next time)
        score += 0.5 * popcount(hand & SUIT_MASK[i // 13] & ~(1ULL << i))
    return score

cdef int32_t kk_heuristic(const void *vst, kz_rng *rng) noexcept nogil:
    """A casual player's sense (HeuristicBot): shed the cards dice rarely match (J, Q, 10,
    9 ...) first and keep the low ones for Round One rolls; keep Kings to challenge a player
    close to going out, Jokers for when an opponent is close; answer a challenge with the
    highest card (the challenger draws its value); always announce a last card; never roll
    by choice.  Reads only the player's own hand and public facts."""
    cdef const KKState *st = <const KKState *>vst
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n = kk_legal_actions(vst, acts), i, a, p = st.cur, nxt, best_a = -1
    cdef int min_opp = 1000, c, q, k_here, nxt_n
    cdef double score, best = -1e18
    if n == 0:
        return -1
    if st.phase == PH_DIRECTION:
        # send play toward the opponent with more cards; the player after us acts first
        q = (p + 1) % st.num_players
        c = (p - 1 + st.num_players) % st.num_players
        if popcount(st.hand[q]) >= popcount(st.hand[c]):
            return A_CW
        return A_CCW
    nxt = next_seat(st, p)
    nxt_n = popcount(st.hand[nxt])
    for q in range(st.num_players):
        if q != p and popcount(st.hand[q]) < min_opp:
            min_opp = popcount(st.hand[q])
    k_here = popcount(st.hand[p])
    for a in range(n):
        i = acts[a]
        if i == A_ROLL:
            continue
        if k_here == 2 and st.opt_last_card and i < A_ANNOUNCE:
            continue                                          # announce instead
        if i >= A_ANNOUNCE:
            i -= A_ANNOUNCE
        score = heuristic_score(st.phase, i, st.hand[p], nxt_n, min_opp)
        score += 0.001 * kz_bounded(rng, 100)
        if score > best:
            best = score
            best_a = acts[a]
    if best_a < 0:
        best_a = acts[0]
    return best_a

cdef kz_ops KK_OPS
KK_OPS.game_id = "krazy-kings"
KK_OPS.state_size = sizeof(KKState)
KK_OPS.num_distinct_actions = NUM_ACTIONS
KK_OPS.max_legal = NUM_ACTIONS
KK_OPS.max_players = MAXP
KK_OPS.current_player = kk_current_player
KK_OPS.legal_actions = kk_legal_actions
KK_OPS.apply_action = kk_apply
KK_OPS.is_terminal = kk_is_terminal
KK_OPS.returns = kk_returns
KK_OPS.num_players = kk_num_players
KK_OPS.determinize = kk_determinize
KK_OPS.heuristic_action = kk_heuristic
KK_OPS.new_game = kk_new_game_dealt
KK_OPS.random_action = kk_random_action
KK_OPS.belief_logweight = kk_belief_logweight
KK_OPS.redraw = kk_redraw
_FAST = bool(kk_cpu_fast_pdep())
KK_OPS.random_playout = kk_playout_for(_FAST)


# ------------------------------------------------------------------ for state.pyx (core.pxd)
cdef const kz_ops *kk_ops() noexcept nogil:
    """The GameOps table of Krazy Kings (every State of the game points at it)."""
    return &KK_OPS

cdef uint64_t kk_legal_cards(const KKState *st) noexcept nogil:
    return legal_cards(st)

cdef void kk_add_card(KKState *st, int p, uint8_t code) noexcept nogil:
    add_card(st, p, code)


# ------------------------------------------------------------------ the one validator
include "validate.pxi"


# ------------------------------------------------------------------ GameOps: tensor, truncation
include "tensor.pxi"


def _belief_params(beta=None, eps=None, prior=None):
    """Test hook (measurements): set the belief model's BEL_BETA (a float >= 0), BEL_EPS
    (in (0, 1]) and BEL_PRIOR (in (0, 1)) of inference.pxi for this process; returns the
    values in force.  Raises ``ValueError`` for a value out of range."""
    global BEL_BETA, BEL_EPS, BEL_PRIOR
    def num(x, lo, hi, lo_open, hi_open, name):
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise ValueError(f"{name} must be a number, got {x!r}")
        x = float(x)
        if not (x > lo if lo_open else x >= lo) or not (x < hi if hi_open else x <= hi):
            raise ValueError(f"{name} must be in {'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}, got {x!r}")
        return x
    b = BEL_BETA if beta is None else num(beta, 0.0, 1e6, False, False, "beta")
    e = BEL_EPS if eps is None else num(eps, 0.0, 1.0, True, False, "eps")
    q = BEL_PRIOR if prior is None else num(prior, 0.0, 1.0, True, True, "prior")
    BEL_BETA, BEL_EPS, BEL_PRIOR = b, e, q
    return BEL_BETA, BEL_EPS, BEL_PRIOR
