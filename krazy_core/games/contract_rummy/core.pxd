# cython: language_level=3
"""Crazy Rummy's layout contract (``krazy_core.games.contract_rummy``, rules CR-1 .. CR-17):
the constants, the state struct with every field's meaning, unit and range, the tables and
the small inline helpers, and the cdef functions of ``core.pyx`` that ``state.pyx`` calls.
Card *kinds*: ``suit*13 + rank-1`` (suits S H D C, A=1 .. K=13), 52 the Joker.  The lay-down's
part (the Meld struct, its constants, the card tables, the inline card and meld helpers and
the CR-10 step check) is the meld package's ``melds/laydown.pxd``, cimported below: one copy
of those rules, shared with the exact contract optimizer."""
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

from krazy_core._ops cimport kz_ops, kz_events, kz_rng
from krazy_core.games.melds.laydown cimport (
    NK, JK, MLEN, NO_NAT, A_ADD, A_RUN, A_FINISH, MK_NONE, MK_BOOK, MK_RUN, Meld, kz_build,
    KIND_CODE, CODE_KIND, POINTS, CBOOKS, CRUNS,
    is_two, kind_rank, pos_rank, nat_kind, pos_hi, lo_max, nmelds, book_natural, book_wild,
    run_natural, wildcard, ld_meld_step, ld_view, run_mask, touches, ld_steps, ld_holds_contract)

# ------------------------------------------------------------------ constants
cdef enum:
    MAXP = 6             # most seats (CR-1)
    NCARDS = 108         # cards in the deck: two 52-card decks and up to 4 Jokers (CR-1)
    MAXM = 18            # meld slots: seat*3 + k
    # the action table (the module docstring of core.pyx): range starts
    A_TAKE = 53          # take the up-card
    A_DECLINE = 54       # decline it
    A_BUY = 55           # buy it (CR-8)
    A_PASS = 56          # do not buy
    A_GO_DOWN = 57       # start the lay-down (CR-10)
    # 58 A_ADD + kind, 111 A_RUN + suit*13 + first position - 1, 163 A_FINISH: the
    # lay-down's steps (melds/laydown.pxd)
    A_LAYOFF = 164       # 164 + (kind*18 + meld)*2 + end: lay off (CR-11)
    A_SWAP = 2072        # 2072 + kind*18 + meld: swap a natural for a run's wild (CR-12)
    A_KEEP = 3008        # end the turn keeping the last card (CR-13 option)
    NUM_ACTIONS = 3009   # distinct actions
    TENSOR = 1154        # float32s in an observation tensor (state.TENSOR_LAYOUT)


cdef enum:
    PH_OVER = 0
    PH_FIRST = 1         # the dealer's first up-card choice (CR-7)
    PH_TAKE = 2          # in-turn player: take the up-card or decline (CR-8)
    PH_BUY = 3           # another player: buy or pass (CR-8)
    PH_MAIN = 4          # after the draw: go down, lay off, swap, discard (CR-9..CR-13)
    PH_BUILD = 5         # laying down the contract, meld by meld (CR-10)

cdef enum:
    EV_ROUND_START = 1, EV_SHUFFLE, EV_DEAL, EV_UPCARD, EV_TURN, EV_TAKE, EV_DECLINE, EV_BUY,
    EV_PASS, EV_DRAW, EV_GO_DOWN, EV_RUN_START, EV_LAY, EV_MELD, EV_DOWN, EV_LAYOFF, EV_SWAP,
    EV_DISCARD, EV_KEEP, EV_GO_OUT, EV_REBUILD, EV_TURN_LIMIT, EV_ROUND_END, EV_SCORE,
    EV_GAME_OVER

ctypedef struct CRState:
    kz_rng rng                  # the state's own PRNG: shuffles (xoshiro256**, never all zero)
    uint8_t hand[MAXP][NK]      # copies of each kind held, per seat: 0..2 (Joker 0..4)
    uint8_t known[MAXP][NK]     # of those, copies everyone saw them take (up-cards, swapped wilds)
    uint8_t stock[NCARDS]       # kinds, bottom .. top (top = stock[n_stock-1])
    uint8_t discard[NCARDS]     # kinds, bottom .. top (top = the up-card when up_live)
    Meld melds[MAXM]            # seat*3 + k: the k-th meld of that seat's contract (books first, CR-4)
    int32_t nhand[MAXP]         # cards in each hand (the sum of hand[p]), 0..NCARDS
    int32_t n_stock             # cards in the stock, 0..NCARDS
    int32_t n_discard           # cards on the discard pile, 0..NCARDS
    int32_t num_players         # seats at the table, 2..6
    int32_t opt_jokers          # CR-1: 0..4 Jokers in the deck
    int32_t opt_wrap            # CR-3 option ace_wrap, 0/1: runs go round K-A-2
    int32_t opt_overlap         # CR-10 option overlapping_runs, 0/1
    int32_t opt_buy_limit       # CR-8: buys per player per round, 0 = no limit
    int32_t opt_penalty         # CR-8 option penalty_cards: cards drawn with a buy
    int32_t opt_layoff_own      # CR-11 option layoff_on_own, 0/1
    int32_t opt_swap_down       # CR-12 option swap_requires_down, 0/1
    int32_t opt_final_nd        # CR-13 option final_round_no_discard, 0/1
    int32_t opt_rounds          # CR-16 option rounds: rounds played, 1..7
    int32_t opt_first_round     # CR-16 first round 1..7
    int32_t opt_max_turns       # CR-17 option max_turns: turns in a round before it ends
    int32_t round               # 1..7: the contract in play (CR-4)
    int32_t dealer              # seat that dealt this round, 0..num_players-1
    int32_t phase               # PH_OVER .. PH_BUILD: what the seat to act decides
    int32_t cur                 # seat to act, KZ_TERMINAL when over
    int32_t turn_player         # whose turn it is (the buyer acts out of turn)
    int32_t up_live             # 1: the discard pile's top is an up-card on offer
    int32_t discarder           # seat that may not buy the live up-card, -1 none
    int32_t turns               # turns begun this round (CR-17)
    int32_t total_turns         # turns begun in the game
    int32_t limit_rounds        # rounds ended by max_turns (CR-17), 0..7
    int32_t gd_k                # meld of the contract being built (PH_BUILD), 0..2
    int32_t gd_open             # 1 when that meld has been started, else 0
    int32_t gd_last             # a book's last natural kind laid, 0..51 (NO_NAT after its wild)
    uint8_t down[MAXP]          # 1 once the seat went down this round
    uint8_t buys[MAXP]          # buys this round per seat (CR-8), 0..buy_limit
    int32_t scores[7][MAXP]     # points scored in each round (CR-15), by round-1
    int32_t round_result[7]     # -2 not played, -1 ended with no winner, else the winner

# ------------------------------------------------------------------ tables (filled by core.pyx at import;
# KIND_CODE, CODE_KIND, POINTS, CBOOKS, CRUNS: melds/laydown.pxd)
cdef uint64_t RANKBITS[14]      # bit k set for the kinds of rank r (1..13)

# ------------------------------------------------------------------ small helpers (inline, here so both modules inline them;
# the card and meld ones: melds/laydown.pxd)
cdef inline void add_card(CRState *st, int p, int k) noexcept nogil:
    st.hand[p][k] += 1
    st.nhand[p] += 1

cdef inline void remove_card(CRState *st, int p, int k) noexcept nogil:
    st.hand[p][k] -= 1
    st.nhand[p] -= 1
    if st.known[p][k] > 0:          # a public play of that kind: the seen copy may be gone
        st.known[p][k] -= 1

# ------------------------------------------------------------------ core.pyx's functions that state.pyx calls
cdef int can_go_down(const CRState *st, int p) noexcept nogil
cdef int cr_legal_actions(const void *vst, int32_t *out) noexcept nogil
cdef int cr_apply(void *vst, int32_t a, kz_events *ev) noexcept nogil
cdef void cr_start(CRState *st, uint64_t seed, kz_events *ev) noexcept nogil
cdef int total_score(const CRState *st, int p) noexcept nogil
# the GameOps table of the game (filled at core's import; state.pyx's State points to it)
cdef kz_ops *cr_ops() noexcept nogil
