# cython: language_level=3
"""Crazy Rummy (``contract-rummy``): seven contracts, buying, laying off, wild swaps; rules
CR-1 .. CR-17 (``krazy_core/games/contract_rummy/rules.md``, seed 002, Italian).

A card *kind* is ``suit*13 + rank-1`` for the suited cards (suits S H D C, A=1 .. K=13)
and 52 for the Joker; the two copies of a card (and the four Jokers) are one kind, so
identical choices appear once.  Meld ids are ``seat*3 + k``: the k-th meld of that seat's
contract (books first, then runs, as CR-4 lists them).

Action table (``num_distinct_actions = 3009``)
=================  ========================================================================
0 .. 52            discard card kind ``a`` (ends the turn; the last card goes out, CR-13)
53                 take the up-card (the dealer's first up-card CR-7, or the in-turn
                   player's free draw CR-8)
54                 decline the up-card
55                 buy the up-card (+ ``penalty_cards`` from the stock, no discard; CR-8)
56                 pass (don't buy)
57                 go down: start laying down the contract (CR-10)
58 .. 110          lay down card kind ``a-58`` in the meld being built (see below)
111 .. 162         start the run being built: suit ``(a-111)//13`` from position
                   ``(a-111)%13 + 1``
163                finish the meld being built
164 .. 2071        lay off card kind ``k`` on meld ``m`` at end ``e`` (0 low / book, 1 high):
                   ``a = 164 + (k*18 + m)*2 + e`` (CR-11)
2072 .. 3007       swap natural card kind ``k`` for the wild in run ``m``:
                   ``a = 2072 + k*18 + m`` (CR-12)
3008               end the turn keeping the last card (``final_round_no_discard``, CR-13)
=================  ========================================================================

Run positions: 1 = Ace low, 2..13 = 2..K, 14 = Ace high (CR-3); with ``ace_wrap`` runs go
round the corner (positions 1..26, rank ``(q-1)%13+1``) and a run starts at 1..13.  A run
is at most 13 cards.

Going down (CR-10): a short sequence, one meld at a time, one card at a time, that can
never strand the player.  ``go down`` (57) opens the lay-down; the contract's melds are then
built in a fixed order (its books, then its runs).  A book is built by laying its naturals
(ascending card kind; the first fixes the rank; a 2 starts a book of 2s) and then at most one
wild; a run by choosing its suit and first position (111..162) and laying its cards low to
high, each the natural card of that position or a wild.  ``finish`` closes a meld of 3+
(book) / 4+ (run) cards.  Why a sequence and not one action per lay-down: the distinct
lay-downs of a 13-card hand ("each meld as long as they like", which wild stands where) run
into the thousands and have no fixed, small numbering; a sequence numbers them with 3009
actions, and every distinct lay-down is reachable (its melds in contract order, books'
cards in kind order, runs' cards in position order).  Nothing can strand the player: each
step is offered only if the whole contract can still be completed from the cards left in
hand (an exact existence check in C: partial meld completions, then the remaining runs by
window and natural/wild choice, then the remaining books by counts, with lazy wilds, a 2's
natural places, the caps and the same-suit rule), so ``finish`` is always eventually
reachable and the player never has to undo.  Book ranks never decrease and run
``(suit, first position)`` keys increase through the lay-down (symmetric duplicates cut).

Decisions the rules leave open, settled here (tests in tests/games/contract_rummy/test_contract_rummy.py):

- Two runs of one suit in one contract "join" when their positions touch or overlap
  (with ``ace_wrap``: their ranks, round the corner); such lay-downs are not offered.
  Option ``overlapping_runs`` lets them overlap (the two decks' duplicates) and forbids
  only runs that would continue each other.  Two
  books of one rank are allowed.  Lay-offs are not limited by the join rule.
- A book of 2s is natural (CR-2); its one wild can only be a Joker.
- A player who is down may still buy (CR-8 names no exception) and may lay off in the turn
  they go down; laying off or going down with the last card goes out at once (CR-13).
- ``buy_limit`` 0 means unlimited; a player at the limit is skipped.  Penalty cards come
  from the stock after the up-card; an empty stock is rebuilt (CR-14), and if that fails the
  round ends with no winner.
- With ``final_round_no_discard`` (round 7 only) a discard may not empty the hand; a player
  left with one card ends the turn keeping it (action 3008); the kept card is no up-card.
- An up-card nobody takes stays on the discard pile, dead; the next discard is the next
  up-card.  The dealer who declines the first up-card may not buy it back.
- ``rounds`` counts from ``first_round``; ``make()`` raises ``ConfigError`` when
  ``first_round + rounds - 1`` passes round 7 (``first_round=5`` needs ``rounds`` <= 3), as
  Kings Rummy does past round 11 (KR-16).
- The first dealer of the game is seat 0 and the deal moves one seat left each round
  played (``first_round`` counts as the first).  Turns (CR-17) count from each player's
  draw decision; the dealer's first up-card choice is not a turn.

Determinization (``determinize``): the other hands and the stock are dealt again from the
unseen cards, sorted first so a sample depends only on the information set; cards a player
was seen to take (up-cards taken or bought, wilds won by a swap) stay in their hand until
they play a card of that kind.

Public faces: :func:`is_book`, :func:`is_run` (through the shared meld solver,
``melds.pxd``), :func:`contract_options`, :func:`best_arrangement`.

Event kinds (``raw_events()`` tuples ``(kind, player, a, b)``) are in ``EVENT_NAMES``.
"""

cimport cython
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

import numpy as np

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_bounded,
                              kz_shuffle_u8, kz_ev_push, kz_rebuild_stock, kz_chance_lowest_rounds,
                              KZ_TERMINAL)
from krazy_core._state cimport State
from krazy_core._state import check_seed
from krazy_core.games.melds cimport (kz_meld_rules, kz_rules_crazy, kz_meld_kind,
                                     KZ_MELD_BOOK, KZ_MELD_RUN, KZ_MELD_MAX_HAND, kz_meld_contract)
from krazy_core.cards import format_card, parse_card
from krazy_core.errors import InvalidStateError, ConfigError
from krazy_core.spec import GameSpec, Option, tensor_layout

# observation_tensor, part by part (offsets in the code follow it; TENSOR = 1154)
TENSOR_LAYOUT = tensor_layout(("hand", 53), ("up_card", 53), ("discard_pile", 53), ("melds", 18 * 53),
                              ("seats", 6 * 4), ("round", 7), ("phase", 6), ("stock_size", 1),
                              ("turn", 1), ("to_act", 1), ("building_meld", 1))

# ------------------------------------------------------------------ constants
DEF MAXP = 6
DEF NK = 53              # card kinds: 0..51 suited, 52 Joker
DEF JK = 52
DEF NCARDS = 108
DEF MAXM = 18            # meld slots: seat*3 + k
DEF MLEN = 14            # cards one meld can hold (run 13; book 8 naturals + 1 wild)
DEF NO_NAT = 53          # gd_last after a book's wild: no more naturals

DEF A_TAKE = 53
DEF A_DECLINE = 54
DEF A_BUY = 55
DEF A_PASS = 56
DEF A_GO_DOWN = 57
DEF A_ADD = 58
DEF A_RUN = 111
DEF A_FINISH = 163
DEF A_LAYOFF = 164
DEF A_SWAP = 2072
DEF A_KEEP = 3008
DEF NUM_ACTIONS = 3009
DEF TENSOR = 1154

cdef enum:
    PH_OVER = 0
    PH_FIRST = 1         # the dealer's first up-card choice (CR-7)
    PH_TAKE = 2          # in-turn player: take the up-card or decline (CR-8)
    PH_BUY = 3           # another player: buy or pass (CR-8)
    PH_MAIN = 4          # after the draw: go down, lay off, swap, discard (CR-9..CR-13)
    PH_BUILD = 5         # laying down the contract, meld by meld (CR-10)

cdef enum:
    MK_NONE = 0
    MK_BOOK = 1
    MK_RUN = 2

cdef enum:
    EV_ROUND_START = 1, EV_SHUFFLE, EV_DEAL, EV_UPCARD, EV_TURN, EV_TAKE, EV_DECLINE, EV_BUY,
    EV_PASS, EV_DRAW, EV_GO_DOWN, EV_RUN_START, EV_LAY, EV_MELD, EV_DOWN, EV_LAYOFF, EV_SWAP,
    EV_DISCARD, EV_KEEP, EV_GO_OUT, EV_REBUILD, EV_TURN_LIMIT, EV_ROUND_END, EV_SCORE,
    EV_GAME_OVER

EVENT_NAMES = {1: "round_start", 2: "shuffle", 3: "deal", 4: "up_card", 5: "turn", 6: "take",
               7: "decline", 8: "buy", 9: "pass", 10: "draw", 11: "go_down", 12: "run_start",
               13: "lay", 14: "meld", 15: "down", 16: "lay_off", 17: "swap", 18: "discard",
               19: "keep", 20: "go_out", 21: "stock_rebuilt", 22: "turn_limit",
               23: "round_end", 24: "score", 25: "game_over"}
PHASE_NAMES = {0: "over", 1: "first_up_card", 2: "take_or_decline", 3: "buy_or_pass",
               4: "play", 5: "going_down"}
ROUND_END_REASONS = {0: "went out", 1: "turn limit (CR-17)", 2: "no cards left (CR-14)"}
CONTRACTS = {1: (2, 0), 2: (1, 1), 3: (0, 2), 4: (3, 0), 5: (2, 1), 6: (1, 2), 7: (0, 3)}

ctypedef struct Meld:
    uint8_t kind                # MK_NONE, MK_BOOK, MK_RUN
    uint8_t suit                # a run's suit 0..3
    uint8_t rank                # a book's rank 1..13
    uint8_t lo                  # a run's first position (1..14, wrap 1..13)
    uint8_t n                   # cards in the meld
    uint8_t wilds               # cards standing as wilds (not natural where they are)
    uint8_t cards[MLEN]         # kinds; a run's card at position lo+i; a book in laying order

ctypedef struct CRState:
    kz_rng rng                  # the state's own PRNG: shuffles
    uint8_t hand[MAXP][NK]      # copies of each kind held
    uint8_t known[MAXP][NK]     # of those, copies everyone saw them take (up-cards, swapped wilds)
    uint8_t stock[NCARDS]       # kinds, bottom .. top
    uint8_t discard[NCARDS]     # kinds, bottom .. top (top = the up-card when up_live)
    Meld melds[MAXM]            # seat*3 + k
    int32_t nhand[MAXP]         # cards in each hand
    int32_t n_stock
    int32_t n_discard
    int32_t num_players         # 2..6
    int32_t opt_jokers          # CR-1: 0..4 Jokers in the deck
    int32_t opt_wrap            # CR-3 ace_wrap
    int32_t opt_overlap         # CR-10 overlapping_runs
    int32_t opt_buy_limit       # CR-8: buys per player per round, 0 = no limit
    int32_t opt_penalty         # CR-8 penalty_cards
    int32_t opt_layoff_own      # CR-11 layoff_on_own
    int32_t opt_swap_down       # CR-12 swap_requires_down
    int32_t opt_final_nd        # CR-13 final_round_no_discard
    int32_t opt_rounds          # CR-16 rounds played
    int32_t opt_first_round     # CR-16 first round 1..7
    int32_t opt_max_turns       # CR-17
    int32_t round               # 1..7: the contract in play (CR-4)
    int32_t dealer
    int32_t phase               # PH_*
    int32_t cur                 # seat to act, KZ_TERMINAL when over
    int32_t turn_player         # whose turn it is (the buyer acts out of turn)
    int32_t up_live             # 1: the discard pile's top is an up-card on offer
    int32_t discarder           # seat that may not buy the live up-card, -1 none
    int32_t turns               # turns begun this round (CR-17)
    int32_t total_turns         # turns begun in the game
    int32_t limit_rounds        # rounds ended by max_turns
    int32_t gd_k                # meld of the contract being built (PH_BUILD)
    int32_t gd_open             # 1 when that meld has been started
    int32_t gd_last             # a book's last natural kind laid (NO_NAT after its wild)
    uint8_t down[MAXP]          # 1 once the seat went down this round
    uint8_t buys[MAXP]          # buys this round
    int32_t scores[7][MAXP]     # points scored in each round (CR-15), by round-1
    int32_t round_result[7]     # -2 not played, -1 ended with no winner, else the winner

# ------------------------------------------------------------------ tables
cdef uint8_t KIND_CODE[NK]
cdef int32_t CODE_KIND[256]
cdef int32_t POINTS[NK]
cdef int32_t CBOOKS[8]
cdef int32_t CRUNS[8]
cdef uint64_t TWOS = (1ULL << 1) | (1ULL << 14) | (1ULL << 27) | (1ULL << 40)
cdef uint64_t JBIT = 1ULL << 52
cdef uint64_t RANKBITS[14]

cdef void _init_tables():
    cdef int s, r, k
    for k in range(256):
        CODE_KIND[k] = -1
    for k in range(14):
        RANKBITS[k] = 0
    for s in range(4):
        for r in range(1, 14):
            k = s * 13 + r - 1
            KIND_CODE[k] = (s << 4) | r
            CODE_KIND[(s << 4) | r] = k
            RANKBITS[r] |= 1ULL << k
            if r == 1:
                POINTS[k] = 15
            elif r == 2:
                POINTS[k] = 20
            elif r <= 8:
                POINTS[k] = 5
            else:
                POINTS[k] = 10
    KIND_CODE[JK] = 0x50
    CODE_KIND[0x50] = JK
    POINTS[JK] = 20
    for k, (b, r) in CONTRACTS.items():
        CBOOKS[k] = b
        CRUNS[k] = r
    CBOOKS[0] = 0
    CRUNS[0] = 0

_init_tables()

cdef inline int is_two(int k) noexcept nogil:
    return k < 52 and k % 13 == 1

cdef inline int kind_rank(int k) noexcept nogil:
    return k % 13 + 1

cdef inline int pos_rank(int q) noexcept nogil:
    return (q - 1) % 13 + 1

cdef inline int nat_kind(int suit, int q) noexcept nogil:
    return suit * 13 + pos_rank(q) - 1

cdef inline int pos_hi(int wrap) noexcept nogil:
    return 26 if wrap else 14

cdef inline int lo_max(int wrap) noexcept nogil:
    return 13 if wrap else 11

cdef inline int nmelds(int rnd) noexcept nogil:
    return CBOOKS[rnd] + CRUNS[rnd]

cdef inline int book_natural(int rank, int k) noexcept nogil:
    if k == JK:
        return 0
    if rank == 2:
        return is_two(k)
    return kind_rank(k) == rank

cdef inline int book_wild(int rank, int k) noexcept nogil:
    return k == JK or (rank != 2 and is_two(k))

cdef inline int run_natural(int suit, int q, int k) noexcept nogil:
    return k == nat_kind(suit, q)

cdef inline int wildcard(int k) noexcept nogil:
    return k == JK or is_two(k)

cdef uint32_t run_mask(int wrap, int lo, int hi) noexcept nogil:
    """Positions (non-wrap, bits 1..14) or ranks mod 13 (wrap, bits 0..12) a run covers."""
    cdef uint32_t m = 0
    cdef int q
    for q in range(lo, hi + 1):
        if wrap:
            m |= 1U << ((q - 1) % 13)
        else:
            m |= 1U << q
    return m

cdef int touches(int wrap, int overlap, uint32_t a, uint32_t b) noexcept nogil:
    """CR-10: two same-suit runs of one contract join when their positions touch or overlap
    (with ``overlapping_runs``: only when they touch without overlapping, i.e. would
    continue each other)."""
    cdef uint32_t e
    if overlap and (a & b):
        return 0
    if wrap:
        e = a | ((a << 1) | (a >> 12)) | ((a >> 1) | (a << 12))
        e &= 0x1FFF
    else:
        e = a | (a << 1) | (a >> 1)
    return (e & b) != 0

# ------------------------------------------------------------------ the existence check
ctypedef struct Ctx:
    uint8_t cnt[NK]             # cards left in hand
    int32_t wrap
    int32_t overlap             # CR-10 option overlapping_runs
    int32_t nb                  # fresh books still to lay (the partial meld excluded)
    int32_t nr                  # fresh runs still to lay
    int32_t book_lb             # a fresh book's rank >= book_lb
    int32_t run_lb              # a fresh run's key suit*32+lo > run_lb
    int32_t nfix                # runs fixed in this lay-down
    int32_t fix_suit[3]
    uint32_t fix_mask[3]
    int32_t wneed               # wilds promised (any 2 or Joker)
    int32_t jres                # Jokers promised (the wild of a book of 2s)
    int32_t pkind               # partial meld: MK_NONE, MK_BOOK, MK_RUN
    int32_t prank
    int32_t pn
    int32_t pw
    int32_t plast
    int32_t psuit
    int32_t plo

cdef inline int pool(const Ctx *c) noexcept nogil:
    return c.cnt[JK] + c.cnt[1] + c.cnt[14] + c.cnt[27] + c.cnt[40]

cdef inline int take_nat(Ctx *c, int k) noexcept nogil:
    if c.cnt[k] == 0:
        return 0
    c.cnt[k] -= 1
    if is_two(k) and pool(c) < c.wneed + c.jres:
        c.cnt[k] += 1
        return 0
    return 1

cdef inline int take_wild(Ctx *c) noexcept nogil:
    if pool(c) < c.wneed + c.jres + 1:
        return 0
    c.wneed += 1
    return 1

cdef inline int take_joker(Ctx *c) noexcept nogil:
    if c.cnt[JK] < c.jres + 1 or pool(c) < c.wneed + c.jres + 1:
        return 0
    c.jres += 1
    return 1

cdef int books_left(Ctx *c, int klo, int nb) noexcept nogil:
    """nb fresh books of ranks >= klo from the counts (suits no longer matter)."""
    cdef Ctx d
    cdef int k, s, nat, i, got
    if nb == 0:
        return 1
    for k in range(klo, 14):
        nat = 0
        for s in range(4):
            nat += c.cnt[s * 13 + k - 1]
        if nat < 2:
            continue
        # three naturals
        if nat >= 3:
            d = c[0]
            got = 0
            for s in range(4):
                while got < 3 and d.cnt[s * 13 + k - 1] > 0:
                    d.cnt[s * 13 + k - 1] -= 1
                    got += 1
            if k != 2 or pool(&d) >= d.wneed + d.jres:
                if books_left(&d, k, nb - 1):
                    return 1
        # two naturals and a wild
        d = c[0]
        got = 0
        for s in range(4):
            while got < 2 and d.cnt[s * 13 + k - 1] > 0:
                d.cnt[s * 13 + k - 1] -= 1
                got += 1
        if k != 2 or pool(&d) >= d.wneed + d.jres:
            if k == 2:
                i = take_joker(&d)
            else:
                i = take_wild(&d)
            if i and books_left(&d, k, nb - 1):
                return 1
    return 0

cdef int runs_left(Ctx *c) noexcept nogil:
    """c.nr fresh runs, keys above c.run_lb, then the books (exact)."""
    cdef Ctx d
    cdef int s, lo, j, q, i, k, r, miss, key, bad, mask, nw, ok
    cdef uint32_t m
    cdef int avail = pool(c) - c.wneed - c.jres
    for s in range(4):
        for lo in range(1, lo_max(c.wrap) + 1):
            key = s * 32 + lo
            if key < c.run_lb + 1 - c.overlap:
                continue
            miss = 0
            for q in range(lo, lo + 4):
                if c.cnt[nat_kind(s, q)] == 0:
                    miss += 1
            if miss > 2 or miss > avail:
                continue
            m = run_mask(c.wrap, lo, lo + 3)
            bad = 0
            for j in range(c.nfix):
                if c.fix_suit[j] == s and touches(c.wrap, c.overlap, c.fix_mask[j], m):
                    bad = 1
            if bad:
                continue
            # bit i of mask: a wild at position lo+i (at most 2 wilds)
            for mask in range(16):
                nw = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1)
                if nw > 2 or nw < miss:
                    continue
                d = c[0]
                ok = 1
                for i in range(4):
                    k = nat_kind(s, lo + i)
                    if (mask >> i) & 1:
                        if c.cnt[k] > 0:
                            # a wild instead of an available natural helps only if a later
                            # meld may need that natural
                            r = kind_rank(k)
                            if not ((c.nb > 0 and r >= c.book_lb) or (c.nr > 1 and (r == 1 or c.wrap or c.overlap))):
                                ok = 0
                                break
                        if not take_wild(&d):
                            ok = 0
                            break
                    elif not take_nat(&d, k):
                        ok = 0
                        break
                if not ok:
                    continue
                d.nr -= 1
                d.run_lb = key
                d.fix_suit[d.nfix] = s
                d.fix_mask[d.nfix] = m
                d.nfix += 1
                if d.nr > 0:
                    if runs_left(&d):
                        return 1
                elif books_left(&d, d.book_lb, d.nb):
                    return 1
    return 0

cdef int fresh(Ctx *c) noexcept nogil:
    if c.nr > 0:
        return runs_left(c)
    return books_left(c, c.book_lb, c.nb)

cdef int complete_book(Ctx *c, int need) noexcept nogil:
    cdef Ctx d
    cdef int k, s
    if need == 0:
        d = c[0]
        d.pkind = MK_NONE
        d.book_lb = d.prank
        return fresh(&d)
    if c.plast < NO_NAT:
        for s in range(4):
            k = s * 13 + c.prank - 1
            if k >= c.plast and c.cnt[k] > 0:
                d = c[0]
                if take_nat(&d, k):
                    d.plast = k
                    d.pn += 1
                    if complete_book(&d, need - 1):
                        return 1
    if c.pw == 0:
        d = c[0]
        if (take_joker(&d) if c.prank == 2 else take_wild(&d)):
            d.pw = 1
            d.pn += 1
            if complete_book(&d, need - 1):
                return 1
    return 0

cdef int complete_run(Ctx *c, int need) noexcept nogil:
    cdef Ctx d
    cdef int q, k, j
    cdef uint32_t m
    if need == 0:
        m = run_mask(c.wrap, c.plo, c.plo + c.pn - 1)
        for j in range(c.nfix):
            if c.fix_suit[j] == c.psuit and touches(c.wrap, c.overlap, c.fix_mask[j], m):
                return 0
        d = c[0]
        d.fix_suit[d.nfix] = c.psuit
        d.fix_mask[d.nfix] = m
        d.nfix += 1
        d.run_lb = c.psuit * 32 + c.plo
        d.pkind = MK_NONE
        return fresh(&d)
    q = c.plo + c.pn
    if q > pos_hi(c.wrap) or c.pn >= 13:
        return 0
    k = nat_kind(c.psuit, q)
    if c.cnt[k] > 0:
        d = c[0]
        if take_nat(&d, k):
            d.pn += 1
            if complete_run(&d, need - 1):
                return 1
    if c.pw < 2:
        d = c[0]
        if take_wild(&d):
            d.pn += 1
            d.pw += 1
            if complete_run(&d, need - 1):
                return 1
    return 0

cdef int feasible(Ctx *c) noexcept nogil:
    """1 if the lay-down described by c can still be completed (exact)."""
    cdef int tot = 0, k
    for k in range(NK):
        tot += c.cnt[k]
    if c.pkind == MK_BOOK:
        if tot < 3 * c.nb + 4 * c.nr + (3 - c.pn if c.pn < 3 else 0):
            return 0
        return complete_book(c, 3 - c.pn if c.pn < 3 else 0)
    if c.pkind == MK_RUN:
        if tot < 3 * c.nb + 4 * c.nr + (4 - c.pn if c.pn < 4 else 0):
            return 0
        return complete_run(c, 4 - c.pn if c.pn < 4 else 0)
    if tot < 3 * c.nb + 4 * c.nr:
        return 0
    return fresh(c)

cdef void ctx_from_state(const CRState *st, int p, Ctx *c) noexcept nogil:
    """The lay-down in progress of seat p (PH_BUILD), or a fresh one (PH_MAIN)."""
    cdef int k, nb = CBOOKS[st.round], nr = CRUNS[st.round], j
    cdef const Meld *m
    memset(c, 0, sizeof(Ctx))
    memcpy(c.cnt, st.hand[p], NK)
    c.wrap = st.opt_wrap
    c.overlap = st.opt_overlap
    c.book_lb = 1
    c.run_lb = -1
    c.pkind = MK_NONE
    if st.phase != PH_BUILD:
        c.nb = nb
        c.nr = nr
        return
    for j in range(st.gd_k):
        m = &st.melds[p * 3 + j]
        if m.kind == MK_BOOK:
            c.book_lb = m.rank
        else:
            c.run_lb = m.suit * 32 + m.lo
            c.fix_suit[c.nfix] = m.suit
            c.fix_mask[c.nfix] = run_mask(c.wrap, m.lo, m.lo + m.n - 1)
            c.nfix += 1
    k = st.gd_k + (1 if st.gd_open else 0)
    c.nb = nb - k if nb > k else 0
    c.nr = nr - (k - nb if k > nb else 0)
    if st.gd_open:
        m = &st.melds[p * 3 + st.gd_k]
        c.pkind = m.kind
        c.pn = m.n
        c.pw = m.wilds
        if m.kind == MK_BOOK:
            c.prank = m.rank
            c.plast = st.gd_last
        else:
            c.psuit = m.suit
            c.plo = m.lo

cdef int can_go_down(const CRState *st, int p) noexcept nogil:
    cdef Ctx c
    if st.down[p] or st.nhand[p] < 3 * CBOOKS[st.round] + 4 * CRUNS[st.round]:
        return 0
    ctx_from_state(st, p, &c)
    c.pkind = MK_NONE
    c.nb = CBOOKS[st.round]
    c.nr = CRUNS[st.round]
    return feasible(&c)

# ------------------------------------------------------------------ card movement
cdef inline void add_card(CRState *st, int p, int k) noexcept nogil:
    st.hand[p][k] += 1
    st.nhand[p] += 1

cdef inline void remove_card(CRState *st, int p, int k) noexcept nogil:
    st.hand[p][k] -= 1
    st.nhand[p] -= 1
    if st.known[p][k] > 0:          # a public play of that kind: the seen copy may be gone
        st.known[p][k] -= 1

cdef void rebuild(CRState *st, kz_events *ev) noexcept nogil:
    """CR-14: the discard pile but its top card becomes the shuffled stock."""
    if kz_rebuild_stock(st.stock, &st.n_stock, st.discard, &st.n_discard, &st.rng) <= 0:
        return
    kz_ev_push(ev, EV_REBUILD, -1, st.n_stock, 0)

cdef int draw_stock(CRState *st, int p, int reason, kz_events *ev) noexcept nogil:
    cdef int k
    if st.n_stock == 0:
        rebuild(st, ev)
        if st.n_stock == 0:
            return -1
    st.n_stock -= 1
    k = st.stock[st.n_stock]
    st.stock[st.n_stock] = 0
    add_card(st, p, k)
    kz_ev_push(ev, EV_DRAW, p, KIND_CODE[k], reason)
    return 0

cdef int take_up(CRState *st, int p) noexcept nogil:
    cdef int k
    st.n_discard -= 1
    k = st.discard[st.n_discard]
    st.discard[st.n_discard] = 0
    add_card(st, p, k)
    st.known[p][k] += 1
    st.up_live = 0
    return k

# ------------------------------------------------------------------ rounds
cdef int last_round(const CRState *st) noexcept nogil:
    """CR-16: rounds first_round .. first_round+rounds-1, never past round 7."""
    cdef int r = st.opt_first_round + st.opt_rounds - 1
    return r if r < 7 else 7

cdef void start_round(CRState *st, kz_events *ev) noexcept nogil:
    """CR-1, CR-4, CR-6: shuffle, deal round+6 cards one at a time from the dealer's left,
    turn up the up-card; the dealer decides first (CR-7)."""
    cdef int n = 0, i, p, k, c, deal
    memset(st.hand, 0, sizeof(st.hand))
    memset(st.known, 0, sizeof(st.known))
    memset(st.stock, 0, sizeof(st.stock))
    memset(st.discard, 0, sizeof(st.discard))
    memset(st.melds, 0, sizeof(st.melds))
    for p in range(MAXP):
        st.nhand[p] = 0
        st.down[p] = 0
        st.buys[p] = 0
    for c in range(2):
        for k in range(52):
            st.stock[n] = k
            n += 1
    for k in range(st.opt_jokers):
        st.stock[n] = JK
        n += 1
    st.n_stock = n
    st.n_discard = 0
    kz_shuffle_u8(&st.rng, st.stock, n)
    st.dealer = (st.round - st.opt_first_round) % st.num_players
    deal = st.round + 6
    kz_ev_push(ev, EV_ROUND_START, st.dealer, st.round, deal)
    kz_ev_push(ev, EV_SHUFFLE, st.dealer, n, 0)
    for i in range(deal):
        for c in range(st.num_players):
            p = (st.dealer + 1 + c) % st.num_players
            st.n_stock -= 1
            k = st.stock[st.n_stock]
            st.stock[st.n_stock] = 0
            add_card(st, p, k)
            kz_ev_push(ev, EV_DEAL, p, KIND_CODE[k], 0)
    st.n_stock -= 1
    st.discard[0] = st.stock[st.n_stock]
    st.stock[st.n_stock] = 0
    st.n_discard = 1
    kz_ev_push(ev, EV_UPCARD, -1, KIND_CODE[st.discard[0]], 0)
    st.up_live = 1
    st.discarder = -1
    st.turns = 0
    st.gd_k = 0
    st.gd_open = 0
    st.gd_last = 0
    st.phase = PH_FIRST
    st.cur = st.dealer
    st.turn_player = st.dealer

cdef void end_round(CRState *st, int winner, int reason, kz_events *ev) noexcept nogil:
    """CR-15: everyone scores the cards left in hand; then the next round or the end."""
    cdef int p, k, pts, r = st.round - 1, tot, q
    st.round_result[r] = winner
    kz_ev_push(ev, EV_ROUND_END, winner, st.round, reason)
    for p in range(st.num_players):
        pts = 0
        for k in range(NK):
            pts += st.hand[p][k] * POINTS[k]
        st.scores[r][p] = pts
        tot = 0
        for q in range(7):
            tot += st.scores[q][p]
        kz_ev_push(ev, EV_SCORE, p, pts, tot)
    if st.round >= last_round(st):
        st.phase = PH_OVER
        st.cur = KZ_TERMINAL
        kz_ev_push(ev, EV_GAME_OVER, -1, 0, 0)
        return
    st.round += 1
    start_round(st, ev)

cdef void begin_turn(CRState *st, int p, kz_events *ev) noexcept nogil:
    if st.turns >= st.opt_max_turns:                         # CR-17
        st.limit_rounds += 1
        kz_ev_push(ev, EV_TURN_LIMIT, -1, st.turns, 0)
        end_round(st, -1, 1, ev)
        return
    st.turns += 1
    st.total_turns += 1
    st.turn_player = p
    kz_ev_push(ev, EV_TURN, p, st.turns, 0)
    if st.up_live:                                           # CR-8
        st.phase = PH_TAKE
        st.cur = p
        return
    draw_then_play(st, p, ev)

cdef void draw_then_play(CRState *st, int p, kz_events *ev) noexcept nogil:
    st.up_live = 0
    if draw_stock(st, p, 0, ev) < 0:                         # CR-14
        end_round(st, -1, 2, ev)
        return
    st.phase = PH_MAIN
    st.cur = p

cdef int find_buyer(const CRState *st, int off) noexcept nogil:
    """The next seat (clockwise after the turn player, from offset off) that may buy."""
    cdef int q, p = st.turn_player
    while off < st.num_players:
        q = (p + off) % st.num_players
        off += 1
        if q == st.discarder or q == p:
            continue
        if st.opt_buy_limit and st.buys[q] >= st.opt_buy_limit:
            continue
        return q
    return -1

cdef void go_out(CRState *st, int p, kz_events *ev) noexcept nogil:
    kz_ev_push(ev, EV_GO_OUT, p, st.round, 0)
    end_round(st, p, 0, ev)

# ------------------------------------------------------------------ melds on the table
cdef uint64_t fits(const CRState *st, int m, int e) noexcept nogil:
    """Kinds that can be laid off on meld m at end e (CR-11, caps of CR-5)."""
    cdef const Meld *md = &st.melds[m]
    cdef uint64_t out = 0
    cdef int q
    if md.kind == MK_BOOK:
        if e:
            return 0
        if md.rank == 2:
            out = TWOS
            if md.wilds < 1:
                out |= JBIT
        else:
            out = RANKBITS[md.rank]
            if md.wilds < 1:
                out |= JBIT | TWOS
        return out
    if md.kind != MK_RUN or md.n >= 13:
        return 0
    if e == 0:
        if md.lo > 1:
            q = md.lo - 1
        elif st.opt_wrap:
            q = 13
        else:
            return 0
    else:
        q = md.lo + md.n
        if q > pos_hi(st.opt_wrap):
            return 0
    out = 1ULL << nat_kind(md.suit, q)
    if md.wilds < 2:
        out |= JBIT | TWOS
    return out

cdef int wild_in_run(const Meld *md, int i) noexcept nogil:
    """1 if the card at offset i of run md stands as a wild (CR-2: not a natural 2)."""
    cdef int k = md.cards[i]
    return wildcard(k) and not run_natural(md.suit, md.lo + i, k)

cdef uint64_t swaps_into(const CRState *st, int m) noexcept nogil:
    """Natural kinds that can replace a wild of run m (CR-12)."""
    cdef const Meld *md = &st.melds[m]
    cdef uint64_t out = 0
    cdef int i
    if md.kind != MK_RUN or md.wilds == 0:
        return 0
    for i in range(md.n):
        if wild_in_run(md, i):
            out |= 1ULL << nat_kind(md.suit, md.lo + i)
    return out

cdef void lay_off(CRState *st, int p, int k, int m, int e) noexcept nogil:
    cdef Meld *md = &st.melds[m]
    cdef int i
    remove_card(st, p, k)
    if md.kind == MK_BOOK:
        md.cards[md.n] = k
        md.n += 1
        if not book_natural(md.rank, k):
            md.wilds += 1
        return
    if e == 1:
        md.cards[md.n] = k
        md.n += 1
        if not run_natural(md.suit, md.lo + md.n - 1, k):
            md.wilds += 1
        return
    for i in range(md.n, 0, -1):
        md.cards[i] = md.cards[i - 1]
    md.cards[0] = k
    md.n += 1
    if md.lo > 1:
        md.lo -= 1
    else:
        md.lo = 13                                          # wrap: K-A-2..., renumbered
    if not run_natural(md.suit, md.lo, k):
        md.wilds += 1

cdef int swap_wild(CRState *st, int p, int k, int m) noexcept nogil:
    cdef Meld *md = &st.melds[m]
    cdef int i, w = -1
    for i in range(md.n):
        if wild_in_run(md, i) and nat_kind(md.suit, md.lo + i) == k:
            w = md.cards[i]
            md.cards[i] = k
            md.wilds -= 1
            remove_card(st, p, k)
            add_card(st, p, w)
            st.known[p][w] += 1
            return w
    return -1

# ------------------------------------------------------------------ legal actions
cdef inline int final_nd(const CRState *st) noexcept nogil:
    return st.opt_final_nd and st.round == 7

cdef int build_step_ok(const CRState *st, int p, int a) noexcept nogil:
    """Whether the lay-down step a keeps the contract completable (never strands)."""
    cdef Ctx c
    cdef int k, s, lo
    cdef int kind = MK_BOOK if st.gd_k < CBOOKS[st.round] else MK_RUN
    ctx_from_state(st, p, &c)
    if a == A_FINISH:
        if not st.gd_open:
            return 0
        if c.pkind == MK_BOOK and c.pn < 3:
            return 0
        if c.pkind == MK_RUN and c.pn < 4:
            return 0
        return feasible(&c)
    if a >= A_RUN:
        if st.gd_open or kind != MK_RUN:
            return 0
        s = (a - A_RUN) // 13
        lo = (a - A_RUN) % 13 + 1
        if lo > lo_max(st.opt_wrap) or s * 32 + lo < c.run_lb + 1 - c.overlap:
            return 0
        c.nr -= 1
        c.pkind = MK_RUN
        c.psuit = s
        c.plo = lo
        c.pn = 0
        c.pw = 0
        return feasible(&c)
    k = a - A_ADD
    if c.cnt[k] == 0:
        return 0
    if not st.gd_open:
        if kind != MK_BOOK or k == JK or kind_rank(k) < c.book_lb:
            return 0
        c.nb -= 1
        c.pkind = MK_BOOK
        c.prank = kind_rank(k)
        c.pn = 1
        c.pw = 0
        c.plast = k
        c.cnt[k] -= 1
        return feasible(&c)
    if c.pkind == MK_BOOK:
        if book_natural(c.prank, k) and k >= c.plast and c.plast < NO_NAT:
            c.cnt[k] -= 1
            c.pn += 1
            c.plast = k
            return feasible(&c)
        if book_wild(c.prank, k) and c.pw == 0:
            c.cnt[k] -= 1
            c.pn += 1
            c.pw = 1
            c.plast = NO_NAT
            return feasible(&c)
        return 0
    # run: the card at the next position
    if c.pn >= 13 or c.plo + c.pn > pos_hi(st.opt_wrap):
        return 0
    if run_natural(c.psuit, c.plo + c.pn, k):
        c.cnt[k] -= 1
        c.pn += 1
        return feasible(&c)
    if wildcard(k) and c.pw < 2:
        c.cnt[k] -= 1
        c.pn += 1
        c.pw += 1
        return feasible(&c)
    return 0

cdef int cr_legal_actions(const void *vst, int32_t *out) noexcept nogil:
    cdef const CRState *st = <const CRState *>vst
    cdef int n = 0, p = st.cur, k, m, e, a
    cdef uint64_t held = 0, any_fit = 0, any_swap = 0
    cdef uint64_t fm[MAXM][2]
    cdef uint64_t sm[MAXM]
    if st.phase == PH_OVER:
        return 0
    if st.phase == PH_FIRST or st.phase == PH_TAKE:
        out[0] = A_TAKE
        out[1] = A_DECLINE
        return 2
    if st.phase == PH_BUY:
        out[0] = A_BUY
        out[1] = A_PASS
        return 2
    if st.phase == PH_BUILD:
        for a in range(A_ADD, A_FINISH + 1):
            if a < A_RUN:
                if st.hand[p][a - A_ADD] == 0:
                    continue
            elif a < A_FINISH:
                if st.gd_open or st.gd_k < CBOOKS[st.round]:
                    continue
            if build_step_ok(st, p, a):
                out[n] = a
                n += 1
        return n
    # PH_MAIN
    for k in range(NK):
        if st.hand[p][k]:
            held |= 1ULL << k
    if not (final_nd(st) and st.nhand[p] == 1):
        for k in range(NK):
            if st.hand[p][k]:
                out[n] = k
                n += 1
    if not st.down[p] and can_go_down(st, p):
        out[n] = A_GO_DOWN
        n += 1
    for m in range(MAXM):
        fm[m][0] = 0
        fm[m][1] = 0
        sm[m] = 0
    if st.down[p]:
        for m in range(st.num_players * 3):
            if st.melds[m].kind == MK_NONE or (m // 3 == p and not st.opt_layoff_own):
                continue
            fm[m][0] = fits(st, m, 0) & held
            fm[m][1] = fits(st, m, 1) & held
            any_fit |= fm[m][0] | fm[m][1]
    if st.down[p] or not st.opt_swap_down:
        for m in range(st.num_players * 3):
            if m // 3 == p:
                continue
            sm[m] = swaps_into(st, m) & held
            any_swap |= sm[m]
    if any_fit:
        for k in range(NK):
            if (any_fit >> k) & 1:
                for m in range(MAXM):
                    for e in range(2):
                        if (fm[m][e] >> k) & 1:
                            out[n] = A_LAYOFF + (k * MAXM + m) * 2 + e
                            n += 1
    if any_swap:
        for k in range(52):
            if (any_swap >> k) & 1:
                for m in range(MAXM):
                    if (sm[m] >> k) & 1:
                        out[n] = A_SWAP + k * MAXM + m
                        n += 1
    if final_nd(st) and st.nhand[p] == 1:
        out[n] = A_KEEP
        n += 1
    return n

# ------------------------------------------------------------------ apply
cdef int cr_apply(void *vst, int32_t a, kz_events *ev) noexcept nogil:
    cdef CRState *st = <CRState *>vst
    cdef int p = st.cur, k, m, e, q, i, w
    cdef Meld *md
    if st.phase == PH_OVER:
        return -1
    if st.phase == PH_FIRST:                                 # CR-7
        if a == A_TAKE:
            k = take_up(st, p)
            kz_ev_push(ev, EV_TAKE, p, KIND_CODE[k], 1)
        else:
            kz_ev_push(ev, EV_DECLINE, p, KIND_CODE[st.discard[st.n_discard - 1]], 1)
            st.discarder = p
        begin_turn(st, (st.dealer + 1) % st.num_players, ev)
        return 0
    if st.phase == PH_TAKE:                                  # CR-8
        if a == A_TAKE:
            k = take_up(st, p)
            kz_ev_push(ev, EV_TAKE, p, KIND_CODE[k], 0)
            st.phase = PH_MAIN
            return 0
        kz_ev_push(ev, EV_DECLINE, p, KIND_CODE[st.discard[st.n_discard - 1]], 0)
        q = find_buyer(st, 1)
        if q >= 0:
            st.phase = PH_BUY
            st.cur = q
        else:
            draw_then_play(st, p, ev)
        return 0
    if st.phase == PH_BUY:
        if a == A_BUY:
            k = take_up(st, p)
            if st.buys[p] < 255:        # saturates (uint8): never wraps, stays loadable
                st.buys[p] += 1
            kz_ev_push(ev, EV_BUY, p, KIND_CODE[k], 0)
            for i in range(st.opt_penalty):
                if draw_stock(st, p, 1, ev) < 0:
                    end_round(st, -1, 2, ev)
                    return 0
            draw_then_play(st, st.turn_player, ev)
            return 0
        kz_ev_push(ev, EV_PASS, p, KIND_CODE[st.discard[st.n_discard - 1]], 0)
        q = find_buyer(st, (p - st.turn_player + st.num_players) % st.num_players + 1)
        if q >= 0:
            st.cur = q
        else:
            draw_then_play(st, st.turn_player, ev)
        return 0
    if st.phase == PH_BUILD:                                 # CR-10
        md = &st.melds[p * 3 + st.gd_k]
        if a == A_FINISH:
            kz_ev_push(ev, EV_MELD, p, p * 3 + st.gd_k, md.n)
            st.gd_k += 1
            st.gd_open = 0
            st.gd_last = 0
            if st.gd_k == nmelds(st.round):
                st.gd_k = 0
                st.down[p] = 1
                st.phase = PH_MAIN
                kz_ev_push(ev, EV_DOWN, p, st.round, 0)
                if st.nhand[p] == 0:
                    go_out(st, p, ev)
            return 0
        if a >= A_RUN:
            memset(md, 0, sizeof(Meld))
            md.kind = MK_RUN
            md.suit = (a - A_RUN) // 13
            md.lo = (a - A_RUN) % 13 + 1
            st.gd_open = 1
            kz_ev_push(ev, EV_RUN_START, p, p * 3 + st.gd_k, md.suit * 32 + md.lo)
            return 0
        k = a - A_ADD
        if not st.gd_open:
            memset(md, 0, sizeof(Meld))
            md.kind = MK_BOOK
            md.rank = kind_rank(k)
            st.gd_open = 1
        remove_card(st, p, k)
        md.cards[md.n] = k
        md.n += 1
        if md.kind == MK_BOOK:
            if book_natural(md.rank, k):
                st.gd_last = k
            else:
                md.wilds += 1
                st.gd_last = NO_NAT
        elif not run_natural(md.suit, md.lo + md.n - 1, k):
            md.wilds += 1
        kz_ev_push(ev, EV_LAY, p, KIND_CODE[k], p * 3 + st.gd_k)
        return 0
    # PH_MAIN
    if a < NK:                                               # discard (CR-9, CR-13)
        remove_card(st, p, a)
        st.discard[st.n_discard] = a
        st.n_discard += 1
        kz_ev_push(ev, EV_DISCARD, p, KIND_CODE[a], 0)
        if st.nhand[p] == 0:
            go_out(st, p, ev)
            return 0
        st.up_live = 1
        st.discarder = p
        begin_turn(st, (p + 1) % st.num_players, ev)
        return 0
    if a == A_GO_DOWN:
        st.phase = PH_BUILD
        st.gd_k = 0
        st.gd_open = 0
        st.gd_last = 0
        kz_ev_push(ev, EV_GO_DOWN, p, st.round, 0)
        return 0
    if a == A_KEEP:
        kz_ev_push(ev, EV_KEEP, p, 0, 0)
        st.up_live = 0
        begin_turn(st, (p + 1) % st.num_players, ev)
        return 0
    if a >= A_SWAP:                                          # CR-12
        k = (a - A_SWAP) // MAXM
        m = (a - A_SWAP) % MAXM
        w = swap_wild(st, p, k, m)
        kz_ev_push(ev, EV_SWAP, p, KIND_CODE[k], m | (KIND_CODE[w] << 8))
        return 0
    i = a - A_LAYOFF                                         # CR-11
    e = i & 1
    m = (i >> 1) % MAXM
    k = (i >> 1) // MAXM
    lay_off(st, p, k, m, e)
    # b: meld * 2 + end, + 256 when the meld is a book (a book has no low/high end)
    kz_ev_push(ev, EV_LAYOFF, p, KIND_CODE[k], m * 2 + e + (256 if st.melds[m].kind == MK_BOOK else 0))
    if st.nhand[p] == 0:
        go_out(st, p, ev)
    return 0

# ------------------------------------------------------------------ new game, ops
cdef void cr_start(CRState *st, uint64_t seed, kz_events *ev) noexcept nogil:
    """A new game from seed: the first round (CR-16) dealt (CR-6)."""
    cdef int r, p
    kz_rng_seed(&st.rng, seed)
    for r in range(7):
        st.round_result[r] = -2
        for p in range(MAXP):
            st.scores[r][p] = 0
    st.round = st.opt_first_round
    st.total_turns = 0
    st.limit_rounds = 0
    start_round(st, ev)

cdef void cr_new_game(void *vst, uint64_t seed) noexcept nogil:
    cr_start(<CRState *>vst, seed, NULL)

cdef int cr_current_player(const void *vst) noexcept nogil:
    return (<const CRState *>vst).cur

cdef int cr_is_terminal(const void *vst) noexcept nogil:
    return (<const CRState *>vst).phase == PH_OVER

cdef int cr_num_players(const void *vst) noexcept nogil:
    return (<const CRState *>vst).num_players

cdef int total_score(const CRState *st, int p) noexcept nogil:
    cdef int r, t = 0
    for r in range(7):
        t += st.scores[r][p]
    return t

cdef void cr_returns(const void *vst, double *out) noexcept nogil:
    """CR-15: the lowest total wins; k tied winners get 1/k each; zeros while running."""
    cdef const CRState *st = <const CRState *>vst
    cdef int p, best = 1 << 30, k = 0, t
    for p in range(st.num_players):
        out[p] = 0.0
    if st.phase != PH_OVER:
        return
    for p in range(st.num_players):
        t = total_score(st, p)
        if t < best:
            best = t
    for p in range(st.num_players):
        if total_score(st, p) == best:
            k += 1
    for p in range(st.num_players):
        if total_score(st, p) == best:
            out[p] = 1.0 / k

DEF ROUND_SPREAD = 27.0     # points: logistic scale of one round's score difference
                            # (heuristic play, 4 players: a round's points average 40,
                            # standard deviation 48, and a logistic of scale s has standard
                            # deviation s*pi/sqrt(3): s = 48*sqrt(3)/pi = 26.5.  The
                            # likelihood of the winners of 3000 heuristic 4-player games
                            # (rounds 3-4) given the totals after round 3 peaks at 25-30;
                            # 2 players peak lower.  It was 40: the deviation taken for s)

cdef int32_t cr_round_index(const void *vst) noexcept nogil:
    return (<const CRState *>vst).round

cdef void cr_evaluate(const void *vst, double *out) noexcept nogil:
    """Expected returns (CR-15) of an unfinished game, for search rollouts cut at a round's
    end: each player's chance to finish with the lowest total, a softmax of the projected
    totals with temperature ``ROUND_SPREAD * sqrt(rounds still to play)``.  Mid-round, a
    projected total adds half the CR-15 points of the cards in hand.  Terminal:
    ``cr_returns``."""
    cdef const CRState *st = <const CRState *>vst
    cdef double proj[MAXP]
    cdef double left
    cdef int p, k, mid, last = st.opt_first_round + st.opt_rounds - 1
    if st.phase == PH_OVER:
        cr_returns(vst, out)
        return
    mid = 0 if (st.turns <= 1 and (st.phase == PH_FIRST or st.phase == PH_TAKE)) else 1
    left = last - st.round + (0.5 if mid else 1.0)
    for p in range(st.num_players):
        proj[p] = total_score(st, p)
        if mid:
            for k in range(NK):
                proj[p] += 0.5 * st.hand[p][k] * POINTS[k]
    kz_chance_lowest_rounds(proj, st.num_players, ROUND_SPREAD, left, out)

cdef void cr_determinize(void *vst, int player, kz_rng *rng) noexcept nogil:
    """Deal again, at random, the cards `player` has not seen: the stock and the unknown
    part of every other hand (cards seen taken stay where they are); hand sizes kept.
    The state's PRNG is reseeded (future shuffles are unknown too)."""
    cdef CRState *st = <CRState *>vst
    cdef uint8_t pool_[NCARDS]
    cdef int n = 0, p, k, j, need[MAXP]
    cdef int tally[NK]
    for p in range(st.num_players):
        need[p] = 0
        if p == player:
            continue
        for k in range(NK):
            j = st.hand[p][k] - st.known[p][k]
            while j > 0:
                pool_[n] = k
                n += 1
                j -= 1
                need[p] += 1
            st.hand[p][k] = st.known[p][k]
        st.nhand[p] -= need[p]
    for j in range(st.n_stock):
        pool_[n + j] = st.stock[j]
    # sort the unseen cards first (counting sort by kind): a sample then depends only on
    # what `player` knows, never on the hidden order of the stock
    n += st.n_stock
    memset(tally, 0, sizeof(tally))
    for j in range(n):
        tally[pool_[j]] += 1
    j = 0
    for k in range(NK):
        while tally[k] > 0:
            pool_[j] = k
            j += 1
            tally[k] -= 1
    n -= st.n_stock
    kz_shuffle_u8(rng, pool_, n + st.n_stock)
    j = 0
    for p in range(st.num_players):
        if p == player:
            continue
        for k in range(need[p]):
            add_card(st, p, pool_[j])
            j += 1
    for k in range(st.n_stock):
        st.stock[k] = pool_[j + k]
    kz_rng_seed(&st.rng, rng.s[1] ^ rng.s[3] ^ <uint64_t>kz_bounded(rng, 0xFFFFFFFFU))

include "contract_rummy_bot.pxi"

cdef void cr_determinize_playable(void *vst, int player, kz_rng *rng) noexcept nogil:
    """A determinization in which the player to act can act: a pending decision (a lay-down
    under way, CR-10) is public evidence that their hidden cards complete it, so samples
    that leave them stuck are drawn again (rejection sampling, at most 1024 draws)."""
    cdef CRState saved
    cdef int32_t acts[NUM_ACTIONS]
    cdef int t
    memcpy(&saved, vst, sizeof(CRState))
    for t in range(1024):
        cr_determinize(vst, player, rng)
        if cr_is_terminal(vst) or cr_legal_actions(vst, acts) > 0:
            return
        memcpy(vst, &saved, sizeof(CRState))
    cr_determinize(vst, player, rng)


cdef kz_ops CR_OPS
CR_OPS.game_id = "contract-rummy"
CR_OPS.state_size = sizeof(CRState)
CR_OPS.num_distinct_actions = NUM_ACTIONS
CR_OPS.max_legal = NUM_ACTIONS
CR_OPS.max_players = MAXP
CR_OPS.current_player = cr_current_player
CR_OPS.legal_actions = cr_legal_actions
CR_OPS.apply_action = cr_apply
CR_OPS.is_terminal = cr_is_terminal
CR_OPS.returns = cr_returns
CR_OPS.num_players = cr_num_players
CR_OPS.determinize = cr_determinize_playable
CR_OPS.heuristic_action = cr_heuristic
CR_OPS.new_game = cr_new_game
CR_OPS.round_index = cr_round_index
CR_OPS.evaluate = cr_evaluate

include "contract_rummy_py.pxi"


# ------------------------------------------------------------------ GameOps: tensor
cdef void cr_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (1154 float32) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py).
    CR-17's max_turns ends a round, not the game: no truncation op."""
    cdef const CRState *st = <const CRState *>vst
    cdef int p, q, i, k, m, o, n = st.num_players
    memset(v, 0, TENSOR * sizeof(float))
    for k in range(NK):
        v[k] = st.hand[player][k] / 4.0
    if st.up_live and st.n_discard:
        v[53 + st.discard[st.n_discard - 1]] = 1
    for i in range(st.n_discard):
        v[106 + st.discard[i]] += 0.25
    for q in range(n):
        p = (player + q) % n
        for k in range(3):
            m = p * 3 + k
            for i in range(st.melds[m].n):
                v[159 + (q * 3 + k) * 53 + st.melds[m].cards[i]] += 0.25
        o = 1113 + 4 * q
        v[o] = st.nhand[p] / 30.0
        v[o + 1] = st.down[p]
        v[o + 2] = st.buys[p] / 10.0
        v[o + 3] = total_score(st, p) / 1000.0
    v[1137 + st.round - 1] = 1
    v[1144 + st.phase] = 1
    v[1150] = st.n_stock / 108.0
    v[1151] = st.turns / <float>st.opt_max_turns
    v[1152] = 1 if st.cur == player else 0
    v[1153] = st.gd_k / 3.0 if st.phase == PH_BUILD else 0

CR_OPS.tensor_size = TENSOR
CR_OPS.observation_tensor = cr_observation_tensor
