# cython: language_level=3
"""Krazy Kings' layout contract (``krazy_core.games.krazy_kings.core``): the state struct, the
enums and constants, and the cdef functions of ``core.pyx`` that ``state.pyx`` calls (cross-
module cimport).  Cards: a hand is a 64-bit set of card *indices* ``suit*13 + rank-1`` (suits
S H D C, A=1 .. K=13; 52 and 53 the two Jokers, always filled 52 first); piles hold card
*codes* (``krazy_core.cards``: ``suit << 4 | rank``, the Joker ``0x50``)."""
from libc.stdint cimport int32_t, uint8_t, uint64_t
from krazy_core._ops cimport kz_ops, kz_events, kz_rng

# ------------------------------------------------------------------ constants
cdef enum:
    MAXP = 5             # most seats at a table (KK-3: 2..5 players)
    NIDX = 54            # hand bit positions: 0..51 suited cards, 52 and 53 the Jokers
    # the action table (krazy_core.games.krazy_kings: DISCARD, JOKER, ANNOUNCE, ROLL, CLOCKWISE ..)
    A_JOKER = 52         # discard a Joker (the two are one choice)
    A_ANNOUNCE = 53      # 53 .. 105: the discard ``a - 53`` announcing "last card" (KK-19)
    A_ROLL = 106         # roll instead of playing (option may_roll_when_able, KK-8)
    A_CW = 107           # the roll-off winner sets play clockwise (KK-16)
    A_CCW = 108          # ... or counter-clockwise
    NUM_ACTIONS = 109    # actions are 0 .. 108
    JOKER_CODE = 0x50    # the Joker's card code
    KK_TENSOR_SIZE = 219 # floats in one observation tensor (state.TENSOR_LAYOUT's segments)
    KK_BEL_REC = 16      # belief records kept per seat (KKState.bel_rec): its latest discards and draws

cdef enum:              # KKState.phase: the decision pending
    PH_NONE = 0          # game over
    PH_R1 = 1            # Round One turn after the roll (or the roll-off winner's turn)
    PH_R2 = 2            # Round Two turn, before any roll
    PH_R2_ROLLED = 3     # Round Two after a forced roll (KK-8)
    PH_CHALLENGED = 4    # answering a King's challenge (KK-11)
    PH_OPEN = 5          # facing an open roll (KK-12)
    PH_DIRECTION = 6     # roll-off winner chooses the direction (KK-16)

cdef enum:              # event kinds (kind, player, a, b); their names: state.EVENT_NAMES
    EV_SHUFFLE = 1, EV_DEAL_ROLL, EV_DEAL, EV_TURN, EV_ROLL, EV_PLAY, EV_DRAW, EV_PASS,
    EV_CHALLENGE, EV_CHALLENGE_MET, EV_CHALLENGE_FAILED, EV_OPEN_ROLL, EV_REVERSE,
    EV_ROLLOFF_DIE, EV_ROLLOFF_WIN, EV_DIRECTION, EV_REBUILD, EV_ROUND_ONE, EV_ANNOUNCE,
    EV_CAUGHT, EV_WIN, EV_TURN_LIMIT, EV_KING_ONLY
    EV_LAST = EV_KING_ONLY   # kinds are 1 .. EV_LAST (ops.max_event_kind)

# A belief record (KKState.bel_rec) packs a discard's public context in 39 bits: BEL_* are
# the fields' shifts, each field 6 bits (card, top, sizes) or 3 bits (phase, dice).  A draw
# record has phase 0 and the cards drawn (1..63) in the card field, every other field 0.
cdef enum:
    BEL_CARD = 0         # card index discarded, 0..52 (a Joker is 52)
    BEL_PHASE = 6        # the decision's phase, PH_R1 .. PH_OPEN (1..5)
    BEL_D1 = 9           # its roll (st.d1, st.d2), 0..6
    BEL_D2 = 12
    BEL_TOP = 15         # the top card's index + 1 before the discard, 0 (none) .. 53
    BEL_SIZE = 21        # the seat's hand size before the discard, 1..54
    BEL_NEXT = 27        # the next seat's hand size, 0..54
    BEL_MINOPP = 33      # the smallest other hand, 0..54
    BEL_BITS = 39        # bits above these are 0

# ------------------------------------------------------------------ the state (one memcpy clones it)
ctypedef struct KKState:
    kz_rng rng                  # the state's own PRNG (xoshiro256**): dice, shuffles
    uint64_t hand[MAXP]         # per seat, bit i = card index i held (52: one Joker, 53: the second)
    uint8_t stock[NIDX]         # card codes, bottom .. top (top = stock[n_stock-1]); unused slots 0
    uint8_t discard[NIDX]       # card codes, bottom .. top (top = discard[n_discard-1]); unused slots 0
    int32_t n_stock             # cards in the stock, 0..54
    int32_t n_discard           # cards in the discard pile, 0..54
    int32_t num_players         # seats at the table, 2..5
    int32_t dealer              # seat that dealt, 0..num_players-1 (option dealer, KK-3)
    int32_t opt_free_reroll     # option free_reroll (KK-6/KK-8), 0/1
    int32_t opt_may_roll        # option may_roll_when_able (KK-8), 0/1
    int32_t opt_doubles         # option doubles_reverse (KK-14): 0 all, 1 challenge_only, 2 never
    int32_t opt_jokers          # option jokers (KK-16): 1 rolloff (2 Jokers in the deck), 0 none
    int32_t opt_last_card       # option last_card_call (KK-19), 0/1
    int32_t opt_max_turns       # option max_turns (KK-20), turns, 1..100000
    int32_t cur                 # seat to act 0..num_players-1, KZ_TERMINAL (-4) when over
    int32_t phase               # PH_*: the decision pending
    int32_t direction           # +1 clockwise, -1 counter-clockwise (KK-4, KK-14)
    int32_t d1                  # the roll the pending decision is about: die 1, 1..6 (0 = none)
    int32_t d2                  # ... die 2, 1..6 (0 exactly when d1 is 0)
    int32_t open_d1             # KK-12's open roll: die 1, 1..6 (0 = none)
    int32_t open_d2             # ... die 2
    int32_t challenger          # seat whose King challenge is pending (KK-11), -1 none
    int32_t ch_d1               # the pending challenge roll: die 1, 1..6 (0 = none)
    int32_t ch_d2               # ... die 2
    int32_t rolloff_rolls       # rolls used in the roll-off winner's turn, 1..3; 0 = not that turn (KK-16)
    int32_t pending_reverse     # 1 when a double will reverse play as this play resolves (KK-14), 0/1
    int32_t turns               # turns begun, 0..opt_max_turns (KK-20)
    int32_t winner              # seat that emptied their hand, -1 none
    int32_t turn_limit          # 1 when max_turns ended the game (KK-20), 0/1
    uint8_t round_two[MAXP]     # per seat 1 while it plays under Round Two rules (KK-5), 0/1
    uint8_t untracked           # 1 only in a search's determinized world (kk_determinize):
                                # the inference fields below are left as they were, never
                                # updated (nothing reads them there); 0 in every State
    uint8_t pad[2]              # always 0
    # public negative inference (see core.pyx's docstring): at least inf_n[p] of seat p's
    # cards lie outside the card set inf_mask[p] (the two Joker bits are set together)
    uint64_t inf_mask[MAXP]     # per seat a card set (bits as in hand)
    int32_t inf_n[MAXP]         # per seat a count, 0..that seat's hand size
    int32_t inf_pad             # always 0
    uint64_t stock_from          # KK-17: the public cards the stock was rebuilt from, 0 = unknown
    # legal_cards() of the pending decision, kept so that legal_actions and random_action
    # need not compute it again: set where a decision becomes pending (pending_cards), 0 once
    # the game is over or a direction is to be chosen, recomputed by determinize and the
    # JSON loader.  Derived, so not in the JSON.
    uint64_t playable
    # belief records (ops.belief_logweight, inference.pxi): per seat, its discards and its
    # draws of hidden cards, oldest first, the latest KK_BEL_REC of them; each packs the
    # decision's public context (card index, phase, roll, top card, hand sizes: BEL_* above).  Updated like the inference fields (never in an untracked world).
    uint64_t bel_rec[MAXP][KK_BEL_REC]
    uint8_t bel_n[MAXP]         # per seat, records in use, 0..KK_BEL_REC
    uint8_t bel_pad[3]          # always 0

# ------------------------------------------------------------------ tables (filled at import of core)
cdef uint8_t IDX_TO_CODE[NIDX]  # card index -> card code (52, 53 -> JOKER_CODE)
cdef int32_t CODE_TO_IDX[128]   # card code -> card index, -1 for codes not in this deck; the Joker -> 52
cdef uint64_t KINGS             # the four Kings' bits
cdef uint64_t JOKERS            # bits 52 and 53

# ------------------------------------------------------------------ what state.pyx calls
cdef const kz_ops *kk_ops() noexcept nogil                        # the GameOps table KK_OPS
cdef void kk_new_game(void *vst, uint64_t seed) noexcept nogil    # options set: shuffle, no deal yet
cdef void kk_deal(KKState *st, kz_events *ev) noexcept nogil      # deal (KK-3) and run to a decision
cdef int kk_legal_actions(const void *vst, int32_t *out) noexcept nogil   # ops.legal_actions
cdef uint64_t kk_legal_cards(const KKState *st) noexcept nogil    # hand bits the player to act may discard
cdef void kk_add_card(KKState *st, int p, uint8_t code) noexcept nogil    # a card code into seat p's hand
cdef void kk_observation_tensor(const void *vst, int player, float *v) noexcept nogil  # KK_TENSOR_SIZE floats
