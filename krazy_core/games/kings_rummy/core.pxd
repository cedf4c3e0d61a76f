# cython: language_level=3
"""Kings Rummy's layout contract (``krazy_core.games.kings_rummy.core``): the state struct, the
enums and constants, the tables, and the cdef functions of ``core.pyx`` that ``state.pyx`` calls
(cross-module cimport).  Cards are codes (``krazy_core.cards``: ``suit << 4 | rank`` for suits
S H D C R (stars) = 0..4 and ranks 3..13, J Q K = 11 12 13; the Joker ``0x50``).  A card *kind*
is ``suit*11 + rank-3`` (0..54) for a suited card, 55 for the Joker: the unit of the action
table (``notation.py``) and of every per-kind count below."""
from libc.stdint cimport int32_t, uint8_t, uint64_t
from krazy_core._ops cimport kz_ops, kz_events, kz_rng
from krazy_core.games.melds.rules cimport kz_meld_rules

# ------------------------------------------------------------------ constants
cdef enum:
    MAXP = 7                # seats at most (KR-1)
    MAXH = 14               # cards in one hand at most: 13 in round 11, plus the one drawn
    NCARDS = 116            # the deck (KR-1): 5 suits x 11 ranks x 2, and 6 Jokers
    NKIND = 56              # card kinds: 55 suited kinds + the Joker
    # the action table (krazy_core.games.kings_rummy: DRAW, TAKE, DISCARD, GO_OUT ..)
    A_STOCK = 0             # draw the top card of the stock (KR-8)
    A_TAKE = 1              # take the top card of the discard pile (KR-8)
    A_DISCARD = 2           # + kind: discard a card of that kind (KR-9)       (2 .. 57)
    A_OUT = 58              # + kind: discard it and go out (KR-10)             (58 .. 113)
    NUM_ACTIONS = 114
    KR_TENSOR_SIZE = 604    # floats in one observation tensor (state.TENSOR_LAYOUT's segments)

cdef enum:                  # KRState.phase: the decision pending
    PH_NONE = 0             # game over
    PH_DRAW = 1             # the player to act draws (KR-8)
    PH_DISCARD = 2          # the player to act discards (KR-9, KR-10)

cdef enum:                  # event kinds (kind, player, a, b): core.pyx's docstring; names: state.EVENT_NAMES
    EV_ROUND = 1, EV_SHUFFLE, EV_DEAL, EV_UPCARD, EV_TURN, EV_DRAW, EV_TAKE, EV_DISCARD,
    EV_GO_OUT, EV_LAY, EV_ROUND_SCORE, EV_REBUILD, EV_TURN_LIMIT, EV_GAME_OVER
    EV_LAST = EV_GAME_OVER  # kinds are 1 .. EV_LAST (ops.max_event_kind)

# ------------------------------------------------------------------ the state (one memcpy clones it)
ctypedef struct KRState:
    kz_rng rng                      # the state's own PRNG (xoshiro256**): the deal's shuffles
                                    # and the stock rebuilt (KR-13)
    kz_meld_rules rules             # meld rules of the round (wild rank = round + 2, wild and
                                    # Joker points); derived from round and options (set_rules)
    uint8_t hand[MAXP][MAXH]        # card codes per seat, ascending; slots past n_hand are 0
    uint8_t n_hand[MAXP]            # cards in each hand, round + 2 (+1 for the seat that has
                                    # drawn and not yet discarded); 0 for seats beyond the table
    uint8_t known[MAXP][NKIND]      # per seat and kind: cards of that kind everyone knows the
                                    # hand holds (taken from the discard pile, not discarded
                                    # since), 0 .. count in the hand
    uint8_t stock[NCARDS]           # card codes, bottom .. top (top = stock[n_stock-1]); slots
                                    # past n_stock are 0
    uint8_t discard[NCARDS]         # the discard pile's card codes, bottom .. top
    uint8_t last_hand[MAXP][MAXH]   # the hands as laid down at the end of the last round scored
    uint8_t last_n[MAXP]            # cards in each of those, 0 .. MAXH
    int32_t n_stock                 # cards in the stock, 0 .. 116
    int32_t n_discard               # cards in the discard pile, 0 .. 116 (>= 1 when one draws)
    int32_t num_players             # seats at the table, 2 .. 7
    int32_t opt_first_dealer        # option (KR-4): the seat dealing round 1, 0 .. num_players-1
    int32_t opt_rounds              # option (KR-16): rounds in the game, 1 .. 11
    int32_t opt_first_round         # option (KR-16): the round the game starts with, 1 .. 11
    int32_t opt_wild_points         # option (KR-14): points of a wild left in hand, 0 .. 1000
    int32_t opt_joker_points        # option (KR-14): points of a Joker left in hand, 0 .. 1000
    int32_t opt_max_turns           # option (KR-17): turns per round, 1 .. 100000
    int32_t round                   # the round being played, first_round .. final round (KR-2);
                                    # it deals round + 2 cards, and that rank is wild (KR-3)
    int32_t dealer                  # this round's dealer: (first_dealer + round - 1) % n (KR-4)
    int32_t cur                     # seat to act 0 .. n-1, KZ_TERMINAL (-4) when the game is over
    int32_t phase                   # PH_* of the seat to act
    int32_t out_player              # seat that went out this round (KR-10), -1 none
    int32_t last_left               # last turns still to play after someone went out (KR-11),
                                    # 0 .. n-1
    int32_t turns                   # turns begun this round, 0 .. opt_max_turns (KR-17)
    int32_t turn_limits             # rounds of this game ended by max_turns (KR-17)
    int32_t total_turns             # turns begun in the game
    int32_t score[MAXP]             # points: totals of the rounds scored so far (KR-15)
    int32_t round_points[MAXP]      # points: this round's, once the hand is laid down
                                    # (KR-10..KR-12), -1 before
    int32_t last_points[MAXP]       # points of the last round scored, -1 before any
    int32_t last_out                # seat that went out in the last round scored, -1 none
    int32_t last_round              # the last round scored, 1 .. 11; 0 before any

# ------------------------------------------------------------------ tables (filled at import of core)
cdef uint8_t KIND_CODE[NKIND]   # card kind -> card code
cdef int32_t CODE_KIND[128]     # card code -> card kind, -1 for codes not in this deck

# ------------------------------------------------------------------ small helpers (inline here)


cdef inline void hand_add(KRState *st, int p, uint8_t c) noexcept nogil:
    """Put card ``c`` into seat p's hand, keeping it ascending."""
    cdef int n = st.n_hand[p], i = n
    while i > 0 and st.hand[p][i - 1] > c:
        st.hand[p][i] = st.hand[p][i - 1]
        i -= 1
    st.hand[p][i] = c
    st.n_hand[p] = n + 1

cdef inline int hand_count(const KRState *st, int p, uint8_t c) noexcept nogil:
    """Cards of code ``c`` in seat p's hand."""
    cdef int i, k = 0
    for i in range(st.n_hand[p]):
        if st.hand[p][i] == c:
            k += 1
    return k

cdef inline int cards_this_round(const KRState *st) noexcept nogil:
    """Cards dealt this round, round + 2 (KR-2): also the wild rank (KR-3)."""
    return st.round + 2

cdef inline int final_round(const KRState *st) noexcept nogil:
    """The game's last round (KR-16)."""
    return st.opt_first_round + st.opt_rounds - 1


# ------------------------------------------------------------------ what state.pyx calls
cdef void set_rules(KRState *st) noexcept nogil                  # st.rules from round and options
cdef void kr_start(KRState *st, uint64_t seed) noexcept nogil    # a new game's counters, round 1
cdef void deal_round(KRState *st, kz_events *ev) noexcept nogil  # KR-1..KR-4, ev may be NULL
cdef int kr_legal_actions(const void *vst, int32_t *out) noexcept nogil   # ops.legal_actions
cdef void kr_observation_tensor(const void *vst, int player, float *v) noexcept nogil  # KR_TENSOR_SIZE floats
cdef const kz_ops *kr_ops() noexcept nogil                       # the GameOps table KR_OPS
