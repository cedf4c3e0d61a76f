# cython: language_level=3
"""Kings Rummy (``kings-rummy``): five-suit rummy with rotating wilds (Five Crowns family),
rules KR-1 .. KR-17 (``krazy_core/rules/kings_rummy.md``).

116 cards (KR-1): suits S H D C R (stars), ranks 3..K, each twice, and 6 Jokers.  Round r
deals ``n = r + 2`` cards; cards of rank ``n`` are wild (KR-2, KR-3).  The meld questions
(can the rest of a hand be laid down? which arrangement leaves the fewest points?) are
answered exactly by :mod:`krazy_core.games.melds`.

Action table (``num_distinct_actions = 114``)
=============  ===========================================================================
0              draw the top card of the stock (KR-8)
1              take the top card of the discard pile (KR-8)
2 .. 57        discard the card of kind ``k = action - 2`` (KR-9): ``k = suit*11 + rank-3``
               for suits S H D C R and ranks 3..K (0..54), ``k = 55`` a Joker
58 .. 113      discard kind ``action - 58`` and go out (KR-10): legal exactly when the rest of
               the hand lays down completely in books and runs
=============  ===========================================================================

Decisions the rules leave open, settled here (tested in tests/test_kings_rummy.py):

- The dealer of round r is ``(first_dealer + r - 1) mod n``, so a slice of the game
  (``first_round``) is dealt as in the full game (KR-4, KR-16).
- A player may discard the card just taken from the discard pile.
- In a last turn (KR-11) only plain discards are offered: the hand is laid down at once in
  its best arrangement (KR-12), which scores 0 when it could have gone out.
- The stock is rebuilt (KR-13) when a turn begins with it empty, before the draw.
- The player who goes out lays down every card (arrangement events, 0 points).  Hands laid
  down stay in the state (they are public) until the round is scored.
- A card taken from the discard pile is public knowledge until its holder discards a card
  of that kind: ``observation`` shows it, ``determinize`` keeps it in that hand.
- ``max_turns`` (KR-17) counts turns begun in the round; when one more would begin the
  round ends and every hand not yet laid down is scored.
- ``returns()``: after the last round of the game, each of the k players with the lowest
  total gets 1/k, others 0 (KR-15).

Events (``raw_events()`` tuples ``(kind, player, a, b)``; ``events_for(viewer)`` dicts)
==  ==============  ======  ==================  =============================================
k   name            player  a                   b
==  ==============  ======  ==================  =============================================
1   round           dealer  round 1..11         cards dealt = wild rank
2   shuffle         dealer  116                 0
3   deal            seat    card (owner only)   deal pass 0..n-1
4   up_card         -1      card                0
5   turn            seat    turn in the round   1 in a last turn (KR-11)
6   draw            seat    card (owner only)   0  (from the stock)
7   take_discard    seat    card (public)       0
8   discard         seat    card                1 when going out
9   go_out          seat    card discarded      round
10  lay_down        seat    card                meld index in the seat's arrangement, -1 left
11  round_score     seat    points this round   total
12  stock_rebuilt   -1      cards in new stock  0  (KR-13)
13  turn_limit      -1      turns               round (KR-17)
14  game_over       -1      last round          0
==  ==============  ======  ==================  =============================================
"""

cimport cython
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

import time

import numpy as np

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_bounded,
                              kz_shuffle_u8, kz_ev_push, kz_rebuild_stock, kz_chance_lowest_rounds,
                              KZ_TERMINAL)
from krazy_core._state cimport State
from krazy_core._state import check_seed, _games_in_slices, state_from_bytes as _state_from_bytes
from krazy_core.games.melds cimport (kz_meld_rules, kz_arrangement, kz_rules_kings,
                                     kz_meld_deadwood, kz_meld_deadwood_below,
                                     kz_meld_going_out, kz_card_points,
                                     kz_is_wild, KZ_MELD_BOOK, KZ_MELD_RUN)
from krazy_core.cards import format_card, parse_card
from krazy_core.errors import InvalidStateError, IllegalActionError, ConfigError
from krazy_core.spec import GameSpec, Option, tensor_layout

# observation_tensor, part by part (offsets in the code below follow it; TENSOR = 604)
TENSOR_LAYOUT = tensor_layout(("hand", 56), ("top_card", 56), ("discard_pile", 56), ("known_cards", 7 * 56),
                              ("seats", 7 * 4), ("round", 11), ("phase", 2), ("went_out", 1),
                              ("stock_size", 1), ("turn", 1))

# ------------------------------------------------------------------ constants
DEF MAXP = 7
DEF MAXH = 14            # 13 cards in round 11, plus the one drawn
DEF NCARDS = 116
DEF NKIND = 56           # 55 suited kinds + the Joker
DEF A_STOCK = 0
DEF A_TAKE = 1
DEF A_DISCARD = 2
DEF A_OUT = 58
DEF NUM_ACTIONS = 114
DEF JOKER = 0x50
DEF TENSOR = 604

cdef enum:
    PH_NONE = 0          # game over
    PH_DRAW = 1          # the player to act draws (KR-8)
    PH_DISCARD = 2       # the player to act discards (KR-9, KR-10)

cdef enum:
    EV_ROUND = 1, EV_SHUFFLE, EV_DEAL, EV_UPCARD, EV_TURN, EV_DRAW, EV_TAKE, EV_DISCARD,
    EV_GO_OUT, EV_LAY, EV_ROUND_SCORE, EV_REBUILD, EV_TURN_LIMIT, EV_GAME_OVER

EVENT_NAMES = {1: "round", 2: "shuffle", 3: "deal", 4: "up_card", 5: "turn", 6: "draw",
               7: "take_discard", 8: "discard", 9: "go_out", 10: "lay_down", 11: "round_score",
               12: "stock_rebuilt", 13: "turn_limit", 14: "game_over"}
PHASE_NAMES = {0: "over", 1: "draw", 2: "discard"}

ctypedef struct KRState:
    kz_rng rng                      # the state's own PRNG: shuffles
    kz_meld_rules rules             # meld rules of the round (derived from round + options)
    uint8_t hand[MAXP][MAXH]        # card codes, ascending; unused slots 0
    uint8_t n_hand[MAXP]            # cards in each hand
    uint8_t known[MAXP][NKIND]      # per hand and kind: cards everyone knows are there
                                    # (taken from the discard pile, not yet discarded)
    uint8_t stock[NCARDS]           # card codes, bottom .. top (top = stock[n_stock-1])
    uint8_t discard[NCARDS]         # card codes, bottom .. top
    uint8_t last_hand[MAXP][MAXH]   # the hands as laid down at the end of the last round
    uint8_t last_n[MAXP]
    int32_t n_stock
    int32_t n_discard
    int32_t num_players             # 2..7
    int32_t opt_first_dealer        # KR-4
    int32_t opt_rounds              # KR-16: rounds in the game
    int32_t opt_first_round         # KR-16: the round the game starts with
    int32_t opt_wild_points         # KR-14
    int32_t opt_joker_points        # KR-14
    int32_t opt_max_turns           # KR-17, turns per round
    int32_t round                   # 1..11 (KR-2)
    int32_t dealer                  # dealer of this round (KR-4)
    int32_t cur                     # seat to act, KZ_TERMINAL when over
    int32_t phase                   # PH_*
    int32_t out_player              # seat that went out this round, -1 none (KR-10)
    int32_t last_left               # last turns still to play (KR-11)
    int32_t turns                   # turns begun this round (KR-17)
    int32_t turn_limits             # rounds ended by max_turns in this game
    int32_t total_turns             # turns begun in the game
    int32_t score[MAXP]             # totals of the rounds scored so far (KR-15)
    int32_t round_points[MAXP]      # this round's points once laid down, -1 before
    int32_t last_points[MAXP]       # the last round's points (-1 no round yet)
    int32_t last_out                # who went out in the last round, -1 none
    int32_t last_round              # the last round's number, 0 none

# ------------------------------------------------------------------ tables
cdef uint8_t KIND_CODE[NKIND]
cdef int32_t CODE_KIND[128]

cdef void _init_tables():
    cdef int s, r, i
    for i in range(128):
        CODE_KIND[i] = -1
    for s in range(5):
        for r in range(3, 14):
            i = s * 11 + r - 3
            KIND_CODE[i] = (s << 4) | r
            CODE_KIND[(s << 4) | r] = i
    KIND_CODE[55] = JOKER
    CODE_KIND[JOKER] = 55

_init_tables()

# ------------------------------------------------------------------ hands
cdef inline void hand_add(KRState *st, int p, uint8_t c) noexcept nogil:
    cdef int n = st.n_hand[p], i = n
    while i > 0 and st.hand[p][i - 1] > c:
        st.hand[p][i] = st.hand[p][i - 1]
        i -= 1
    st.hand[p][i] = c
    st.n_hand[p] = n + 1

cdef inline int hand_remove(KRState *st, int p, uint8_t c) noexcept nogil:
    cdef int n = st.n_hand[p], i, j
    for i in range(n):
        if st.hand[p][i] == c:
            for j in range(i, n - 1):
                st.hand[p][j] = st.hand[p][j + 1]
            st.hand[p][n - 1] = 0
            st.n_hand[p] = n - 1
            return 1
    return 0

cdef inline int hand_count(const KRState *st, int p, uint8_t c) noexcept nogil:
    cdef int i, k = 0
    for i in range(st.n_hand[p]):
        if st.hand[p][i] == c:
            k += 1
    return k

cdef inline int cards_this_round(const KRState *st) noexcept nogil:
    return st.round + 2

cdef inline int final_round(const KRState *st) noexcept nogil:
    return st.opt_first_round + st.opt_rounds - 1

cdef void set_rules(KRState *st) noexcept nogil:
    kz_rules_kings(&st.rules, cards_this_round(st), st.opt_wild_points, st.opt_joker_points)

# ------------------------------------------------------------------ round flow
cdef void lay_down(KRState *st, int p, kz_events *ev) noexcept nogil:
    """KR-11/KR-12: p lays the hand down in the arrangement that leaves the fewest points."""
    cdef kz_arrangement a
    cdef int i
    if ev == NULL:
        st.round_points[p] = kz_meld_deadwood(&st.rules, st.hand[p], st.n_hand[p], NULL)
        return
    st.round_points[p] = kz_meld_deadwood(&st.rules, st.hand[p], st.n_hand[p], &a)
    for i in range(st.n_hand[p]):
        kz_ev_push(ev, EV_LAY, p, st.hand[p][i], a.meld_of[i])

cdef void deal_round(KRState *st, kz_events *ev) noexcept nogil:
    """KR-1..KR-4: gather and shuffle the 116 cards, deal n each one at a time from the
    dealer's left, turn one up, the rest is the stock; the player left of the dealer starts."""
    cdef int i, k, p, seat, n = st.num_players, m = 0
    cdef int ncard = cards_this_round(st)
    for k in range(NKIND - 1):
        st.stock[m] = KIND_CODE[k]
        st.stock[m + 1] = KIND_CODE[k]
        m += 2
    for k in range(6):
        st.stock[m] = JOKER
        m += 1
    memset(st.discard, 0, sizeof(st.discard))
    memset(st.hand, 0, sizeof(st.hand))
    memset(st.n_hand, 0, sizeof(st.n_hand))
    memset(st.known, 0, sizeof(st.known))
    st.n_discard = 0
    kz_shuffle_u8(&st.rng, st.stock, NCARDS)
    st.n_stock = NCARDS
    st.dealer = (st.opt_first_dealer + st.round - 1) % n
    set_rules(st)
    kz_ev_push(ev, EV_ROUND, st.dealer, st.round, ncard)
    kz_ev_push(ev, EV_SHUFFLE, st.dealer, NCARDS, 0)
    for k in range(ncard):
        for i in range(1, n + 1):
            seat = (st.dealer + i) % n
            st.n_stock -= 1
            hand_add(st, seat, st.stock[st.n_stock])
            kz_ev_push(ev, EV_DEAL, seat, st.stock[st.n_stock], k)
            st.stock[st.n_stock] = 0
    st.n_stock -= 1
    st.discard[0] = st.stock[st.n_stock]
    st.stock[st.n_stock] = 0
    st.n_discard = 1
    kz_ev_push(ev, EV_UPCARD, -1, st.discard[0], 0)
    for p in range(MAXP):
        st.round_points[p] = -1
    st.out_player = -1
    st.last_left = 0
    st.turns = 0
    begin_turn(st, (st.dealer + 1) % n, ev)

cdef void end_round(KRState *st, kz_events *ev) noexcept nogil:
    """Score every hand (KR-12, KR-14), add the round to the totals (KR-15), deal the next
    round or end the game."""
    cdef int p
    for p in range(st.num_players):
        if st.round_points[p] < 0:
            lay_down(st, p, ev)
    for p in range(st.num_players):
        st.score[p] += st.round_points[p]
        kz_ev_push(ev, EV_ROUND_SCORE, p, st.round_points[p], st.score[p])
        st.last_points[p] = st.round_points[p]
        memcpy(st.last_hand[p], st.hand[p], MAXH)
        st.last_n[p] = st.n_hand[p]
    st.last_out = st.out_player
    st.last_round = st.round
    if st.round >= final_round(st):
        st.phase = PH_NONE
        st.cur = KZ_TERMINAL
        st.out_player = -1
        st.last_left = 0
        kz_ev_push(ev, EV_GAME_OVER, -1, st.round, 0)
        return
    st.round += 1
    deal_round(st, ev)

cdef void begin_turn(KRState *st, int p, kz_events *ev) noexcept nogil:
    """Seat p's turn begins (or KR-17 ends the round)."""
    cdef int i, k
    if st.turns >= st.opt_max_turns:
        st.turn_limits += 1
        kz_ev_push(ev, EV_TURN_LIMIT, -1, st.turns, st.round)
        end_round(st, ev)
        return
    st.turns += 1
    st.total_turns += 1
    st.cur = p
    st.phase = PH_DRAW
    kz_ev_push(ev, EV_TURN, p, st.turns, 1 if st.out_player >= 0 else 0)
    if st.n_stock == 0 and st.n_discard > 1:         # KR-13
        kz_rebuild_stock(st.stock, &st.n_stock, st.discard, &st.n_discard, &st.rng)
        kz_ev_push(ev, EV_REBUILD, -1, st.n_stock, 0)

# ------------------------------------------------------------------ legality
cdef int kr_legal_actions(const void *vst, int32_t *out) noexcept nogil:
    cdef const KRState *st = <const KRState *>vst
    cdef int n = 0, i, p = st.cur, k, m
    cdef uint8_t prev = 0xFF
    cdef uint8_t outs[MAXH]
    if st.phase == PH_DRAW:
        if st.n_stock > 0:
            out[n] = A_STOCK
            n += 1
        if st.n_discard > 0:
            out[n] = A_TAKE
            n += 1
        return n
    if st.phase != PH_DISCARD:
        return 0
    for i in range(st.n_hand[p]):
        if st.hand[p][i] != prev:
            prev = st.hand[p][i]
            out[n] = A_DISCARD + CODE_KIND[prev]
            n += 1
    if st.out_player < 0:                               # KR-10 (not in a last turn)
        m = kz_meld_going_out(&st.rules, st.hand[p], st.n_hand[p], outs)
        for i in range(m):
            out[n] = A_OUT + CODE_KIND[outs[i]]
            n += 1
    return n

# ------------------------------------------------------------------ apply
cdef int kr_apply(void *vst, int32_t a, kz_events *ev) noexcept nogil:
    cdef KRState *st = <KRState *>vst
    cdef int p = st.cur, k
    cdef uint8_t c
    if st.phase == PH_NONE:
        return -1
    if a == A_STOCK:                                    # KR-8
        st.n_stock -= 1
        c = st.stock[st.n_stock]
        st.stock[st.n_stock] = 0
        hand_add(st, p, c)
        kz_ev_push(ev, EV_DRAW, p, c, 0)
        st.phase = PH_DISCARD
        return 0
    if a == A_TAKE:
        st.n_discard -= 1
        c = st.discard[st.n_discard]
        st.discard[st.n_discard] = 0
        hand_add(st, p, c)
        st.known[p][CODE_KIND[c]] += 1
        kz_ev_push(ev, EV_TAKE, p, c, 0)
        st.phase = PH_DISCARD
        return 0
    k = a - A_OUT if a >= A_OUT else a - A_DISCARD
    c = KIND_CODE[k]
    hand_remove(st, p, c)
    if st.known[p][k] > 0:
        st.known[p][k] -= 1
    st.discard[st.n_discard] = c
    st.n_discard += 1
    kz_ev_push(ev, EV_DISCARD, p, c, 1 if a >= A_OUT else 0)
    if a >= A_OUT:                                      # KR-10
        kz_ev_push(ev, EV_GO_OUT, p, c, st.round)
        lay_down(st, p, ev)
        st.out_player = p
        st.last_left = st.num_players - 1
    elif st.out_player >= 0:                            # KR-11: a last turn ends
        lay_down(st, p, ev)
        st.last_left -= 1
        if st.last_left == 0:
            end_round(st, ev)
            return 0
    begin_turn(st, (p + 1) % st.num_players, ev)
    return 0

# ------------------------------------------------------------------ new game
cdef void kr_start(KRState *st, uint64_t seed) noexcept nogil:
    cdef int p
    kz_rng_seed(&st.rng, seed)
    for p in range(MAXP):
        st.score[p] = 0
        st.last_points[p] = -1
    memset(st.last_hand, 0, sizeof(st.last_hand))
    memset(st.last_n, 0, sizeof(st.last_n))
    st.last_out = -1
    st.last_round = 0
    st.turn_limits = 0
    st.total_turns = 0
    st.round = st.opt_first_round

cdef void kr_new_game(void *vst, uint64_t seed) noexcept nogil:
    cdef KRState *st = <KRState *>vst
    kr_start(st, seed)
    deal_round(st, NULL)

# ------------------------------------------------------------------ ops
cdef int kr_current_player(const void *vst) noexcept nogil:
    return (<const KRState *>vst).cur

cdef int kr_is_terminal(const void *vst) noexcept nogil:
    return (<const KRState *>vst).phase == PH_NONE

cdef int kr_num_players(const void *vst) noexcept nogil:
    return (<const KRState *>vst).num_players

cdef void kr_returns(const void *vst, double *out) noexcept nogil:
    """KR-15: after the last round each of the k lowest totals 1/k, others 0."""
    cdef const KRState *st = <const KRState *>vst
    cdef int p, best = 1 << 30, k = 0
    for p in range(st.num_players):
        out[p] = 0.0
    if st.phase != PH_NONE:
        return
    for p in range(st.num_players):
        if st.score[p] < best:
            best = st.score[p]
    for p in range(st.num_players):
        if st.score[p] == best:
            k += 1
    for p in range(st.num_players):
        if st.score[p] == best:
            out[p] = 1.0 / k

DEF ROUND_SPREAD = 12.0     # points: logistic scale of one round's score difference
                            # (heuristic play, 4 players: a round's points average 12.6,
                            # standard deviation 15)

cdef int32_t kr_round_index(const void *vst) noexcept nogil:
    return (<const KRState *>vst).round

cdef void kr_evaluate(const void *vst, double *out) noexcept nogil:
    """Expected returns (KR-15) of an unfinished game, for search rollouts cut at a round's
    end: each player's chance to finish with the lowest total, a softmax of the projected
    totals with temperature ``ROUND_SPREAD * sqrt(rounds still to play)``.  Mid-round, a
    projected total adds the round's points already laid down, else half the hand's
    deadwood (KR-12; hands still improve).  Terminal: ``kr_returns``."""
    cdef const KRState *st = <const KRState *>vst
    cdef double proj[MAXP]
    cdef double left
    cdef int p, mid
    if st.phase == PH_NONE:
        kr_returns(vst, out)
        return
    mid = 0 if (st.turns <= 1 and st.phase == PH_DRAW) else 1   # 0: a round just dealt
    left = final_round(st) - st.round + (0.5 if mid else 1.0)
    for p in range(st.num_players):
        proj[p] = st.score[p]
        if mid:
            if st.round_points[p] >= 0:
                proj[p] += st.round_points[p]
            else:
                proj[p] += 0.5 * kz_meld_deadwood(&st.rules, st.hand[p], st.n_hand[p], NULL)
    kz_chance_lowest_rounds(proj, st.num_players, ROUND_SPREAD, left, out)

cdef void sort_u8(uint8_t *a, int n) noexcept nogil:
    """Counting sort of card codes (< 128) in place."""
    cdef int count[128]
    cdef int i, c, k = 0
    for i in range(128):
        count[i] = 0
    for i in range(n):
        count[a[i] & 127] += 1
    for c in range(128):
        for i in range(count[c]):
            a[k] = c
            k += 1

cdef void kr_determinize(void *vst, int player, kz_rng *rng) noexcept nogil:
    """Deal the cards ``player`` has not seen (the unknown part of other hands, and the
    stock) again at random: hand sizes and public knowledge (cards taken from the discard
    pile, hands already laid down) stay; the PRNG is reseeded (future shuffles unknown)."""
    cdef KRState *st = <KRState *>vst
    cdef uint8_t pool[NCARDS]
    cdef uint8_t keep[MAXH]
    cdef uint8_t need[NKIND]
    cdef int n = 0, p, i, k, nk
    cdef int unknown[MAXP]
    for p in range(st.num_players):
        unknown[p] = 0
        if p == player or st.round_points[p] >= 0:      # own hand / laid down: seen
            continue
        memcpy(need, st.known[p], NKIND)
        nk = 0
        for i in range(st.n_hand[p]):
            k = CODE_KIND[st.hand[p][i]]
            if need[k] > 0:
                need[k] -= 1
                keep[nk] = st.hand[p][i]
                nk += 1
            else:
                pool[n] = st.hand[p][i]
                n += 1
        unknown[p] = st.n_hand[p] - nk
        memset(st.hand[p], 0, MAXH)
        st.n_hand[p] = 0
        for i in range(nk):
            hand_add(st, p, keep[i])
    for i in range(st.n_stock):
        pool[n + i] = st.stock[i]
    # canonical order before the shuffle: the sample depends only on which cards are unseen
    # (and rng), never on where they really lie, so search cannot peek through it
    sort_u8(pool, n + st.n_stock)
    kz_shuffle_u8(rng, pool, n + st.n_stock)
    k = 0
    for p in range(st.num_players):
        for i in range(unknown[p]):
            hand_add(st, p, pool[k])
            k += 1
    for i in range(st.n_stock):
        st.stock[i] = pool[k + i]
    kz_rng_seed(&st.rng, rng.s[1] ^ rng.s[3] ^ <uint64_t>kz_bounded(rng, 0xFFFFFFFFU))

# ------------------------------------------------------------------ heuristic (bots)
cdef int best_discard(const KRState *st, const uint8_t *hand, int n, kz_rng *rng,
                      int *points_after, int below=1 << 30) noexcept nogil:
    """The index in hand of the card whose discard leaves the fewest best-arrangement
    points; ties: the dearer card goes, a wild is kept, then at random.  Outside last turns
    (KR-11) a wild is never discarded while the hand holds a card that is not wild: a wild
    melds with anything later, its points count only if the round ends now (issue 16).
    With ``below`` the caller only asks whether some discard leaves fewer than ``below``
    points: *points_after is then min(fewest, below) and the index is not meaningful (the
    same random draws are made either way)."""
    cdef uint8_t rest[MAXH + 1]
    cdef int i, t, m, pts, best_i = -1, best = 1 << 30, d, wild, keep_wilds = 0
    cdef double key, best_key = -1e18
    if st.out_player < 0:
        for i in range(n):
            if not kz_is_wild(&st.rules, hand[i]):
                keep_wilds = 1
                break
    for i in range(n):
        if i > 0 and hand[i] == hand[i - 1]:
            continue
        if keep_wilds and kz_is_wild(&st.rules, hand[i]):
            continue
        m = 0
        for t in range(n):
            if t != i:
                rest[m] = hand[t]
                m += 1
        # only a discard leaving at most the best points so far can win (the tie-breaks below
        # span less than 1000): a bounded search, pts = best + 1 when it leaves more
        pts = kz_meld_deadwood_below(&st.rules, rest, m, best + 1 if best_i >= 0 else below)
        d = kz_card_points(&st.rules, hand[i])
        wild = kz_is_wild(&st.rules, hand[i])
        key = -pts * 1000.0 + (0 if wild else d) * 10.0 - wild * 500.0 + kz_bounded(rng, 10)
        if key > best_key:
            best_key = key
            best_i = i
            best = pts
    points_after[0] = best
    return best_i

cdef int32_t kr_heuristic(const void *vst, kz_rng *rng) noexcept nogil:
    """HeuristicBot: take the discard-pile top when, after the best discard, it leaves fewer
    points than the hand holds now (KR-12 arrangement); else draw from the stock.  Go out
    whenever possible (discarding the dearest card that allows it); otherwise discard the
    card whose loss leaves the fewest points (ties: the dearer; never a wild outside last
    turns while a card that is not wild is left, see ``best_discard``).
    Reads only the player's own hand and the discard pile."""
    cdef const KRState *st = <const KRState *>vst
    cdef int p = st.cur, n, i, now, after, bi, m, best_pts = -1, k
    cdef uint8_t tmp[MAXH + 1]
    cdef uint8_t outs[MAXH + 1]
    if st.phase == PH_NONE:
        return -1
    n = st.n_hand[p]
    if st.phase == PH_DRAW:
        if st.n_discard == 0:
            return A_STOCK
        if st.n_stock == 0:
            return A_TAKE
        now = kz_meld_deadwood(&st.rules, st.hand[p], n, NULL)
        memcpy(tmp, st.hand[p], n)
        tmp[n] = st.discard[st.n_discard - 1]
        # keep tmp sorted for the duplicate skip in best_discard
        i = n
        while i > 0 and tmp[i - 1] > tmp[i]:
            tmp[i - 1], tmp[i] = tmp[i], tmp[i - 1]
            i -= 1
        best_discard(st, tmp, n + 1, rng, &after, now)
        return A_TAKE if after < now else A_STOCK
    if st.out_player < 0:
        m = kz_meld_going_out(&st.rules, st.hand[p], n, outs)
        if m > 0:
            bi = 0
            for i in range(m):
                k = kz_card_points(&st.rules, outs[i])
                if k > best_pts:
                    best_pts = k
                    bi = i
            return A_OUT + CODE_KIND[outs[bi]]
    bi = best_discard(st, st.hand[p], n, rng, &after)
    return A_DISCARD + CODE_KIND[st.hand[p][bi]]

cdef kz_ops KR_OPS
KR_OPS.game_id = "kings-rummy"
KR_OPS.state_size = sizeof(KRState)
KR_OPS.num_distinct_actions = NUM_ACTIONS
KR_OPS.max_legal = NUM_ACTIONS
KR_OPS.max_players = MAXP
KR_OPS.current_player = kr_current_player
KR_OPS.legal_actions = kr_legal_actions
KR_OPS.apply_action = kr_apply
KR_OPS.is_terminal = kr_is_terminal
KR_OPS.returns = kr_returns
KR_OPS.num_players = kr_num_players
KR_OPS.determinize = kr_determinize
KR_OPS.heuristic_action = kr_heuristic
KR_OPS.new_game = kr_new_game
KR_OPS.round_index = kr_round_index
KR_OPS.evaluate = kr_evaluate


cdef long long _playouts(KRState *st, long long g0, long long g1, uint64_t seed, kz_rng *rng,
                         int heuristic) noexcept nogil:
    cdef int32_t acts[NUM_ACTIONS]
    cdef long long g, decisions = 0
    cdef int n
    for g in range(g0, g1):
        kr_new_game(st, seed + <uint64_t>g)
        while st.phase != PH_NONE:
            if heuristic:
                kr_apply(st, kr_heuristic(st, rng), NULL)
            else:
                n = kr_legal_actions(st, acts)
                if n <= 0:
                    break
                kr_apply(st, acts[kz_bounded(rng, <uint32_t>n)], NULL)
            decisions += 1
    return decisions


from krazy_core._validate import json_int as _int, json_ints as _ints
from krazy_core._validate import c_int as _c_int, c_count as _c_count, action_int as _action_int

def simulate_random(game, n_games, seed=0, str policy="random") -> dict:
    """Play ``n_games`` Kings Rummy games (the ``game``'s options: use ``rounds=1`` for
    single rounds) entirely in C without the GIL, every player choosing uniformly among
    the legal actions (``policy="heuristic"``: all playing the C heuristic).  Game ``i`` is dealt from ``seed + i``.  The signature and
    the result of ``krazy_core._state.simulate_random``: ``{"games", "decisions",
    "seconds", "decisions_per_second"}``.  Raises ``ConfigError`` for another game,
    ``n_games < 1`` or an unknown policy; ``KeyboardInterrupt`` on Ctrl-C (between two
    slices of games, as ``_state.simulate_random``)."""
    cdef KingsRummyState s
    cdef long long d = 0, g0, g1
    cdef uint64_t sd
    cdef kz_rng rng
    if policy not in ("random", "heuristic"):
        raise ConfigError(f"policy must be 'random' or 'heuristic', got {policy!r}")
    cdef int h = 1 if policy == "heuristic" else 0
    if game.game_id != "kings-rummy":
        raise ConfigError(f"simulate_random here plays kings-rummy, not {game.game_id!r}")
    n_games = _c_count(n_games, "n_games")      # ConfigError, never OverflowError
    s = game.new_initial_state(seed)
    sd = <uint64_t>check_seed(seed)
    kz_rng_seed(&rng, sd ^ 0x5DEECE66DULL)
    t0 = time.perf_counter()
    for g0, g1 in _games_in_slices(n_games):     # Ctrl-C stops it between two slices
        with nogil:
            d += _playouts(<KRState *>s.data, g0, g1, sd, &rng, h)
    dt = time.perf_counter() - t0
    return {"games": n_games, "decisions": d, "seconds": dt,
            "decisions_per_second": d / dt if dt > 0 else float("inf")}


# ------------------------------------------------------------------ Python face
cdef inline KRState *S(State s) except NULL:
    if s.data == NULL:                 # made without its factory: raise, never dereference
        s._not_ready()
    return <KRState *>s.data


def _txt(c):
    return format_card(c)


cdef list _hand_list(const KRState *st, int p):
    return [st.hand[p][i] for i in range(st.n_hand[p])]


def card_kind(code) -> int:
    """Kind 0..55 of a Kings Rummy card code (discard action = 2 + kind); ``ValueError``."""
    if type(code) is not int or not 0 <= code < 128 or CODE_KIND[code] < 0:
        raise ValueError(f"{code!r} is not a Kings Rummy card code")
    return CODE_KIND[code]


cdef class KingsRummyState(State):
    """A Kings Rummy state (see the module docstring for the action table)."""

    cdef State _blank(self):
        return KingsRummyState.__new__(KingsRummyState)

    def action_to_string(self, action) -> str:
        """``"draw"``, ``"take 7♥"`` (the pile's top), ``"discard Q★"``, ``"go out, discard
        Q★"``.  Raises ``ValueError`` outside ``[0, 114)``."""
        cdef KRState *st = S(self)
        a = _action_int(action)              # ValueError, never OverflowError
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action {action!r} is outside [0, {NUM_ACTIONS})")
        if a == A_STOCK:
            return "draw"
        if a == A_TAKE:
            if st.n_discard:
                return "take " + _txt(st.discard[st.n_discard - 1])
            return "take"
        if a >= A_OUT:
            return "go out, discard " + _txt(KIND_CODE[a - A_OUT])
        return "discard " + _txt(KIND_CODE[a - A_DISCARD])

    def _actions_named(self, str low):
        """What ``string_to_action`` reads beyond the exact names: ``"draw"``/``"stock"``
        (``d``, ``s``), ``"take"``/``"pile"`` (``t``, ``p``), a card alone (``"QR"``, ``"Q★"``:
        discard it), or a card with ``"out"`` (``"out QR"``, ``"QR out"``: go out discarding
        it)."""
        if self.data == NULL: self._not_ready()
        if low in ("d", "draw", "stock", "s"):
            return [A_STOCK]
        if low in ("t", "take", "pile", "discard pile", "p"):
            return [A_TAKE]
        out = "out" in low
        core = low.replace("go out", "").replace("out", "").replace("discard", "").replace(",", "").strip()
        try:
            code = parse_card(core)
        except ValueError:
            return State._actions_named(self, low)
        if type(code) is not int or not 0 <= code < 128 or CODE_KIND[code] < 0:
            return State._actions_named(self, low)
        return [(A_OUT if out else A_DISCARD) + CODE_KIND[code]]

    def _explain_illegal(self, a):
        a = _c_int(a, "a")
        cdef KRState *st = S(self)
        cdef int p = st.cur
        if self.ops.is_terminal(self.data):         # no seat to act: nothing below may index by it
            return "the game is over"
        if not 0 <= a < NUM_ACTIONS:                 # a caller's number: never index a table with it
            return f"action {a} is out of range [0, {NUM_ACTIONS})"
        if st.phase == PH_DRAW:
            return "first draw a card, from the stock or the discard pile (KR-8)"
        if a == A_STOCK or a == A_TAKE:
            return "this player has drawn already; now discard (KR-9)"
        c = KIND_CODE[a - A_OUT] if a >= A_OUT else KIND_CODE[a - A_DISCARD]
        if hand_count(st, p, c) == 0:
            return f"player {p} does not hold {_txt(c)}"
        if st.out_player >= 0:
            return (f"player {st.out_player} has gone out: this is a last turn, just discard; "
                    "the hand is laid down by itself (KR-11, KR-12)")
        return f"going out needs the rest of the hand to lay down in books and runs (KR-10)"

    # -------------------------------------------------------- views
    def hand(self, player) -> list:
        """Card codes in ``player``'s hand, ascending (omniscient; frontends use ``observation``)."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef KRState *st = S(self)
        if not 0 <= player < st.num_players:
            raise ValueError(f"player {player!r} out of range 0..{st.num_players - 1}")
        return _hand_list(st, player)

    @property
    def round(self) -> int:
        """The round being played, 1..11 (KR-2)."""
        return S(self).round

    @property
    def wild_rank(self) -> int:
        """The round's wild rank ``n = round + 2`` (KR-3)."""
        return S(self).round + 2

    def scores(self) -> list:
        """Totals of the rounds scored so far (KR-15), ``list[int]`` (the same as ``totals()``;
        Crazy Rummy's ``scores()`` is per round)."""
        cdef KRState *st = S(self)
        return [st.score[p] for p in range(st.num_players)]

    def totals(self) -> list:
        """Each seat's total of the rounds scored so far (KR-15), ``list[int]``."""
        cdef KRState *st = S(self)
        return [st.score[p] for p in range(st.num_players)]

    def stats(self) -> dict:
        """``{"turns": int, "turn_limit": bool, "turn_limits": int, "rounds": int}`` for
        ``krazy simulate`` (turns in the game; rounds ended by ``max_turns``, KR-17)."""
        cdef KRState *st = S(self)
        return {"turns": st.total_turns, "turn_limit": st.turn_limits > 0,
                "turn_limits": st.turn_limits, "turn_limit_rounds": st.turn_limits,
                "rounds": st.opt_rounds}

    def last_round(self):
        """The last round scored, public: ``None`` before any, else ``{"round", "wild_rank",
        "went_out", "hands": [...], "points": [...]}`` (hands as laid down, card codes)."""
        cdef KRState *st = S(self)
        if st.last_round == 0:
            return None
        return {"round": st.last_round, "wild_rank": st.last_round + 2,
                "went_out": st.last_out if st.last_out >= 0 else None,
                "hands": [[st.last_hand[p][i] for i in range(st.last_n[p])] for p in range(st.num_players)],
                "points": [st.last_points[p] for p in range(st.num_players)]}

    def observation(self, player) -> dict:
        """What ``player`` may see, JSON-ready: their own hand (codes and text), each hand's
        size (a hand laid down this round still counts: its cards stay with the player
        until the round is scored, KR-11; see ``laid_down``), the cards everyone knows each hand holds (taken from the discard pile), hands
        laid down this round (after going out or a last turn) with their points, the discard
        pile (bottom first) and its top, the stock size, the round, wild rank and cards
        dealt, the dealer, whose turn and which phase, who went out and how many last turns
        remain, totals, the last round's result, the turn count.  Raises ``ValueError`` for
        a bad seat."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef KRState *st = S(self)
        cdef int p, k, t
        cdef list ks
        if not 0 <= player < st.num_players:
            raise ValueError(f"player {player!r} out of range 0..{st.num_players - 1}")
        hand = _hand_list(st, player)
        top = st.discard[st.n_discard - 1] if st.n_discard else None
        known = []
        laid = []
        for p in range(st.num_players):
            ks = []
            for k in range(NKIND):
                for t in range(st.known[p][k]):
                    ks.append(KIND_CODE[k])
            known.append(ks)
            laid.append(_hand_list(st, p) if st.round_points[p] >= 0 else None)
        obs = {
            "game": "kings-rummy",
            "player": player,
            "num_players": st.num_players,
            "round": st.round,
            "final_round": final_round(st),
            "wild_rank": st.round + 2,
            "cards_dealt": st.round + 2,
            "dealer": st.dealer,
            "hand": hand,
            "hand_text": [_txt(c) for c in hand],
            "hand_sizes": [st.n_hand[p] for p in range(st.num_players)],
            "known_cards": known,
            "laid_down": laid,
            "round_points": [st.round_points[p] if st.round_points[p] >= 0 else None
                             for p in range(st.num_players)],
            "top_card": top,
            "top_card_text": _txt(top) if top is not None else None,
            "discard_pile": [st.discard[i] for i in range(st.n_discard)],
            "stock_size": st.n_stock,
            "current_player": st.cur,
            "phase": PHASE_NAMES[st.phase],
            "went_out": st.out_player if st.out_player >= 0 else None,
            "last_turns_left": st.last_left,
            "scores": [st.score[p] for p in range(st.num_players)],
            "totals": [st.score[p] for p in range(st.num_players)],
            "last_round": self.last_round(),
            "turn": st.turns,
            "max_turns": st.opt_max_turns,
            "terminal": st.phase == PH_NONE,
        }
        if st.cur == player:
            obs["legal_actions"] = self.legal_actions()
        return obs

    def observation_tensor(self, player):
        """``numpy.ndarray`` float32, shape ``(604,)``, from ``player``'s view; card blocks
        have one entry per kind (55 suited kinds ``suit*11 + rank-3``, then the Joker):
        own hand counts / 2 (56), discard-pile top (56), discard-pile counts / 2 (56),
        cards known in each hand, seats from ``player`` onward (7 x 56, counts / 2), per
        seat (7 x 4: hand size / 14, total / 500, to act, laid down), round one-hot (11),
        phase draw/discard (2), someone went out (1), stock / 116 (1), turn / max_turns (1).
        Raises ``ValueError``."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef KRState *st = S(self)
        if not 0 <= player < st.num_players:
            raise ValueError(f"player {player!r} out of range 0..{st.num_players - 1}")
        t = np.zeros(TENSOR, dtype=np.float32)
        cdef float[::1] v = t
        kr_observation_tensor(st, player, &v[0])      # the GameOps writer: one definition of the segments
        return t

    def __str__(self):
        cdef KRState *st = S(self)
        top = _txt(st.discard[st.n_discard - 1]) if st.n_discard else "-"
        lines = [f"Kings Rummy, round {st.round} of {st.opt_first_round}..{final_round(st)}, "
                 f"wild {_rank_text(st.round + 2)}s, top {top}, stock {st.n_stock}, "
                 f"turn {st.turns}, phase {PHASE_NAMES[st.phase]}"
                 + (f", seat {st.out_player} went out" if st.out_player >= 0 else "")]
        for p in range(st.num_players):
            mark = ">" if p == st.cur else " "
            extra = f" [laid down, {st.round_points[p]} points]" if st.round_points[p] >= 0 else ""
            lines.append(f"{mark} seat {p} (total {st.score[p]}): "
                         + " ".join(_txt(c) for c in _hand_list(st, p)) + extra)
        if st.phase == PH_NONE:
            lines.append("game over; returns " + str(self.returns()))
        return "\n".join(lines)

    def _event_dict(self, kind, player, a, b, viewer):
        name = EVENT_NAMES.get(kind, str(kind))
        d = {"event": name, "player": player}
        if kind in (EV_DEAL, EV_DRAW):
            seen = viewer == "all" or viewer == player
            d["card"] = a if seen else None
            if seen:
                d["card_text"] = _txt(a)
        elif kind in (EV_TAKE, EV_DISCARD, EV_UPCARD, EV_GO_OUT):
            d["card"] = a
            d["card_text"] = _txt(a)
            if kind == EV_DISCARD:
                d["going_out"] = bool(b)
        elif kind == EV_LAY:
            d["card"] = a
            d["card_text"] = _txt(a)
            d["meld"] = b if b >= 0 else None
        elif kind == EV_ROUND:
            d["round"] = a
            d["cards"] = b
            d["wild_rank"] = b
        elif kind == EV_ROUND_SCORE:
            d["points"] = a
            d["total"] = b
        elif kind == EV_TURN:
            d["turn"] = a
            d["last_turn"] = bool(b)
        elif kind in (EV_SHUFFLE, EV_REBUILD):
            d["cards"] = a
        elif kind == EV_TURN_LIMIT:
            d["turns"] = a
            d["round"] = b
        elif kind == EV_GAME_OVER:
            d["round"] = a
        return d

    # -------------------------------------------------------- JSON
    def _to_dict(self):
        cdef KRState *st = S(self)
        cdef int p, k
        return {
            "rng": [st.rng.s[0], st.rng.s[1], st.rng.s[2], st.rng.s[3]],
            "round": st.round,
            "dealer": st.dealer,
            "hands": [_hand_list(st, p) for p in range(st.num_players)],
            "known": [[st.known[p][k] for k in range(NKIND)] for p in range(st.num_players)],
            "stock": [st.stock[i] for i in range(st.n_stock)],
            "discard": [st.discard[i] for i in range(st.n_discard)],
            "current_player": st.cur,
            "phase": PHASE_NAMES[st.phase],
            "out_player": st.out_player,
            "last_left": st.last_left,
            "turns": st.turns,
            "turn_limits": st.turn_limits,
            "total_turns": st.total_turns,
            "scores": [st.score[p] for p in range(st.num_players)],
            "round_points": [st.round_points[p] for p in range(st.num_players)],
            "last_round": st.last_round,
            "last_out": st.last_out,
            "last_points": [st.last_points[p] for p in range(st.num_players)],
            "last_hands": [[st.last_hand[p][i] for i in range(st.last_n[p])] for p in range(st.num_players)],
        }


def _rank_text(r):
    return {11: "J", 12: "Q", 13: "K"}.get(r, str(r))


# ------------------------------------------------------------------ construction
cdef void _set_options(KRState *st, game):
    o = game.options
    st.num_players = game.num_players
    st.opt_first_dealer = o.first_dealer
    st.opt_rounds = o.rounds
    st.opt_first_round = o.first_round
    st.opt_wild_points = o.wild_points
    st.opt_joker_points = o.joker_points
    st.opt_max_turns = o.max_turns


def _check_options(num_players, o):
    """GameSpec.check_options: ``make()`` raises ``ConfigError`` for a first dealer beyond
    the table (KR-4) or rounds running past round 11 (KR-16)."""
    if o.first_dealer >= num_players:
        raise ConfigError(f"option 'first_dealer' must be a seat 0..{num_players - 1} at a table of "
                          f"{num_players}, got {o.first_dealer} (KR-4)")
    if o.first_round + o.rounds - 1 > 11:
        raise ConfigError(f"options first_round={o.first_round} and rounds={o.rounds} would play rounds "
                          f"{o.first_round}..{o.first_round + o.rounds - 1}, past round 11; "
                          f"use rounds <= {12 - o.first_round} (KR-16)")


def _check_game(game):
    _check_options(game.num_players, game.options)


def new_state(game, seed=None):
    """A new game dealt from ``seed`` (KR-1..KR-4).  Raises ``ConfigError``."""
    _check_game(game)
    cdef KingsRummyState s = KingsRummyState.__new__(KingsRummyState)
    s._init(&KR_OPS, game)
    cdef KRState *st = S(s)
    _set_options(st, game)
    kr_start(st, <uint64_t>check_seed(seed))
    deal_round(st, s._writable_log())
    s.n_ev = s.log.ev.n
    return s


def _card_list(v, what, limit):
    if not isinstance(v, list) or len(v) > limit:
        raise InvalidStateError(f"{what} must be a list of at most {limit} card codes")
    for c in v:
        if type(c) is not int or not 0 <= c < 128 or CODE_KIND[c] < 0:
            raise InvalidStateError(f"{what} holds {c!r}, not a Kings Rummy card (KR-1)")
    return v


FULL_DECK = None


def _full_deck():
    global FULL_DECK
    if FULL_DECK is None:
        FULL_DECK = {KIND_CODE[k]: 2 for k in range(55)}
        FULL_DECK[JOKER] = 6
    return FULL_DECK


def state_from_dict(game, body, events):
    """Rebuild a state from ``to_json()``'s body, checking every field, that the 116 cards
    are exactly conserved (KR-1) and that hand sizes fit the round and phase.  Raises
    ``InvalidStateError``."""
    try:
        _check_game(game)
    except ConfigError as e:
        raise InvalidStateError(str(e)) from None
    cdef KingsRummyState s = KingsRummyState.__new__(KingsRummyState)
    s._init(&KR_OPS, game)
    cdef KRState *st = S(s)
    cdef int32_t buf[NUM_ACTIONS]
    _set_options(st, game)
    n = game.num_players
    want = {"rng", "round", "dealer", "hands", "known", "stock", "discard", "current_player",
            "phase", "out_player", "last_left", "turns", "turn_limits", "total_turns", "scores",
            "round_points", "last_round", "last_out", "last_points", "last_hands"}
    if not isinstance(body, dict) or set(body) != want:
        got = set(body) if isinstance(body, dict) else set()
        raise InvalidStateError(f"state fields differ: missing {sorted(want - got)}, unknown {sorted(got - want)}")
    rng = body["rng"]
    if not isinstance(rng, list) or len(rng) != 4 or any(type(x) is not int or not 0 <= x < 2 ** 64 for x in rng) \
            or not any(rng):
        raise InvalidStateError("'rng' must be four unsigned 64-bit ints, not all zero")
    for i in range(4):
        st.rng.s[i] = rng[i]
    o = game.options
    st.round = _int(body, "round", o.first_round, o.first_round + o.rounds - 1)
    set_rules(st)
    ncard = st.round + 2
    st.dealer = _int(body, "dealer", 0, n - 1)
    if st.dealer != (o.first_dealer + st.round - 1) % n:
        raise InvalidStateError(f"'dealer' of round {st.round} must be seat {(o.first_dealer + st.round - 1) % n} (KR-4)")
    phase = body["phase"]
    inv = {v: k for k, v in PHASE_NAMES.items()}
    if not isinstance(phase, str) or phase not in inv:
        raise InvalidStateError(f"'phase' must be one of {sorted(inv)}, got {phase!r}")
    st.phase = inv[phase]
    if st.phase == PH_NONE:
        st.cur = _int(body, "current_player", KZ_TERMINAL, KZ_TERMINAL)
    else:
        st.cur = _int(body, "current_player", 0, n - 1)
    hands = body["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise InvalidStateError(f"'hands' must be {n} lists")
    deck = {}
    for p in range(n):
        h = _card_list(hands[p], f"hand {p}", MAXH)
        size = ncard + (1 if (st.phase == PH_DISCARD and p == st.cur) else 0)
        if len(h) != size:
            raise InvalidStateError(f"hand {p} holds {len(h)} cards; round {st.round} in phase {phase!r} needs {size} (KR-2)")
        for c in sorted(h):
            hand_add(st, p, c)
            deck[c] = deck.get(c, 0) + 1
    stock = _card_list(body["stock"], "'stock'", NCARDS)
    discard = _card_list(body["discard"], "'discard'", NCARDS)
    for c in stock + discard:
        deck[c] = deck.get(c, 0) + 1
    if deck != _full_deck():
        raise InvalidStateError("the cards in hands, stock and discard pile are not exactly the 116 cards (KR-1)")
    st.n_stock = len(stock)
    for i, c in enumerate(stock):
        st.stock[i] = c
    st.n_discard = len(discard)
    for i, c in enumerate(discard):
        st.discard[i] = c
    known = body["known"]
    if not isinstance(known, list) or len(known) != n:
        raise InvalidStateError(f"'known' must be {n} lists of {NKIND} counts")
    for p in range(n):
        kl = known[p]
        if not isinstance(kl, list) or len(kl) != NKIND or any(type(x) is not int or not 0 <= x <= 6 for x in kl):
            raise InvalidStateError(f"'known' of seat {p} must be {NKIND} counts 0..6")
        for k in range(NKIND):
            if kl[k] > hand_count(st, p, KIND_CODE[k]):
                raise InvalidStateError(f"seat {p} is known to hold {_txt(KIND_CODE[k])} it does not hold")
            st.known[p][k] = kl[k]
    st.out_player = _int(body, "out_player", -1, n - 1)
    st.last_left = _int(body, "last_left", 0, n - 1)
    st.turns = _int(body, "turns", 0, o.max_turns)
    # counters bounded by the rounds behind this one (issue 19: at a bound the loader took
    # regardless, the state would outgrow it in play and refuse its own JSON)
    done = st.round - o.first_round + (1 if st.phase == PH_NONE else 0)
    st.turn_limits = _int(body, "turn_limits", 0, done)
    st.total_turns = _int(body, "total_turns", st.turns, done * o.max_turns + st.turns)
    for p, v in enumerate(_ints(body, "scores", n, 0, done * 10 ** 6)):   # a round adds < 10**6
        st.score[p] = v
    rp = _ints(body, "round_points", n, -1, 10 ** 6)
    for p in range(MAXP):
        st.round_points[p] = rp[p] if p < n else -1
    st.last_round = _int(body, "last_round", 0, 11)
    st.last_out = _int(body, "last_out", -1, n - 1)
    lp = _ints(body, "last_points", n, -1, 10 ** 6)
    for p in range(MAXP):
        st.last_points[p] = lp[p] if p < n else -1
    lh = body["last_hands"]
    if not isinstance(lh, list) or len(lh) != n:
        raise InvalidStateError(f"'last_hands' must be {n} lists")
    for p in range(n):
        h = _card_list(lh[p], f"last hand {p}", MAXH)
        for i, c in enumerate(sorted(h)):
            st.last_hand[p][i] = c
        st.last_n[p] = len(h)
    # consistency of the round's progress
    if st.phase != PH_NONE:
        if st.out_player < 0:
            if st.last_left != 0 or any(st.round_points[p] >= 0 for p in range(n)):
                raise InvalidStateError("no one went out, yet last turns or laid-down hands are recorded")
        else:
            laid = sum(1 for p in range(n) if st.round_points[p] >= 0)
            if st.round_points[st.out_player] != 0:
                raise InvalidStateError("the player who went out scores 0 (KR-10)")
            if st.last_left < 1 or laid + st.last_left != n:
                raise InvalidStateError("last turns left do not match the hands laid down (KR-11)")
            if st.round_points[st.cur] >= 0:
                raise InvalidStateError("a player whose hand is laid down has no turn")
            for p in range(n):
                if st.round_points[p] >= 0 and st.round_points[p] != kz_meld_deadwood(&st.rules, st.hand[p], st.n_hand[p], NULL):
                    raise InvalidStateError(f"seat {p}'s laid-down points differ from its best arrangement (KR-12)")
        if st.n_discard < 1 and st.phase == PH_DRAW:
            raise InvalidStateError("the discard pile is never empty when a player draws")
        if st.phase == PH_DRAW and st.n_stock == 0:
            raise InvalidStateError("the stock is rebuilt before a draw (KR-13)")
        if st.turns < 1:
            raise InvalidStateError("a running round has begun at least one turn")
        if kr_legal_actions(st, buf) == 0:
            raise InvalidStateError("the player to act has no legal action")
    else:
        if st.out_player != -1 or st.last_left != 0 or st.round != final_round(st) or st.last_round != st.round:
            raise InvalidStateError("a finished game ends after its final round was scored")
    for p in range(n, MAXP):
        st.score[p] = 0
    s._load_events(events)
    return s


# ------------------------------------------------------------------ the one validator
cdef const char *kr_validate(void *vst, const void *vref) noexcept nogil:
    """``ops.validate``: every field of a loaded KRState (both loaders call it: the JSON
    loader after filling the struct, ``state_from_bytes`` after copying it in).  Returns
    NULL, or what is wrong.  Recomputes ``rules`` (derived from the round and options)."""
    cdef KRState *st = <KRState *>vst
    cdef const KRState *ref = <const KRState *>vref
    cdef int n = ref.num_players, p, i, k, c, done, laid, size
    cdef int32_t buf[NUM_ACTIONS]
    cdef int cnt[NKIND]
    if (st.num_players != ref.num_players or st.opt_first_dealer != ref.opt_first_dealer
            or st.opt_rounds != ref.opt_rounds or st.opt_first_round != ref.opt_first_round
            or st.opt_wild_points != ref.opt_wild_points or st.opt_joker_points != ref.opt_joker_points
            or st.opt_max_turns != ref.opt_max_turns):
        return "the state's options differ from this game's"
    if st.rng.s[0] == 0 and st.rng.s[1] == 0 and st.rng.s[2] == 0 and st.rng.s[3] == 0:
        return "'rng' must be four unsigned 64-bit ints, not all zero"
    if not st.opt_first_round <= st.round <= final_round(st):
        return "'round' is not a round of this game (KR-16)"
    set_rules(st)
    if st.dealer != (st.opt_first_dealer + st.round - 1) % n:
        return "'dealer' is not this round's dealer (KR-4)"
    if not PH_NONE <= st.phase <= PH_DISCARD:
        return "'phase' is not one of the phases"
    if st.phase == PH_NONE:
        if st.cur != KZ_TERMINAL:
            return "a finished game has current_player -4"
    elif not 0 <= st.cur < n:
        return "'current_player' must be a seat"
    if not 0 <= st.n_stock <= NCARDS or not 0 <= st.n_discard <= NCARDS:
        return "stock and discard pile hold 0..116 cards"
    for k in range(NKIND):
        cnt[k] = 0
    for p in range(MAXP):
        if p >= n:
            if st.n_hand[p] or st.last_n[p] or st.score[p] or st.round_points[p] != -1 or st.last_points[p] != -1:
                return "a seat beyond the table holds something"
            for k in range(NKIND):
                if st.known[p][k]:
                    return "a seat beyond the table holds something"
            continue
        size = st.round + 2 + (1 if (st.phase == PH_DISCARD and p == st.cur) else 0)
        if st.n_hand[p] != size:
            return "a hand's size does not fit the round and phase (KR-2)"
        for i in range(MAXH):
            c = st.hand[p][i]
            if i >= st.n_hand[p]:
                if c != 0:
                    return "a hand's unused slots are 0"
                continue
            if CODE_KIND[c & 127] < 0 or c >= 128:
                return "a hand holds a code that is no Kings Rummy card (KR-1)"
            if i and st.hand[p][i - 1] > c:
                return "a hand's cards are in ascending order"
            cnt[CODE_KIND[c]] += 1
        for k in range(NKIND):
            if st.known[p][k] > 6 or st.known[p][k] > hand_count(st, p, KIND_CODE[k]):
                return "a seat is known to hold a card it does not hold"
        if st.last_n[p] > MAXH:
            return "a last hand holds more than 14 cards"
        for i in range(st.last_n[p]):
            c = st.last_hand[p][i]
            if c >= 128 or CODE_KIND[c] < 0:
                return "a last hand holds a code that is no Kings Rummy card"
            if i and st.last_hand[p][i - 1] > c:
                return "a last hand's cards are in ascending order"
    for i in range(st.n_stock + st.n_discard):
        c = st.stock[i] if i < st.n_stock else st.discard[i - st.n_stock]
        if c >= 128 or CODE_KIND[c] < 0:
            return "stock or discard pile holds a code that is no Kings Rummy card (KR-1)"
        cnt[CODE_KIND[c]] += 1
    for k in range(55):
        if cnt[k] != 2:
            return "the cards in hands, stock and discard pile are not exactly the 116 cards (KR-1)"
    if cnt[55] != 6:
        return "the cards in hands, stock and discard pile are not exactly the 116 cards (KR-1)"
    if not -1 <= st.out_player < n or not 0 <= st.last_left <= n - 1 or not -1 <= st.last_out < n:
        return "'out_player', 'last_left' or 'last_out' is out of range"
    if not 0 <= st.turns <= st.opt_max_turns:
        return "'turns' is 0..max_turns (KR-17)"
    # counters bounded by the rounds behind this one (issue 19 item 8)
    done = st.round - st.opt_first_round + (1 if st.phase == PH_NONE else 0)
    if not 0 <= st.turn_limits <= done:
        return "'turn_limits' exceeds the rounds played"
    if not st.turns <= st.total_turns <= done * st.opt_max_turns + st.turns:
        return "'total_turns' does not fit the rounds played"
    for p in range(n):
        if not 0 <= st.score[p] <= done * 1000000:
            return "'scores' do not fit the rounds played (a round adds < 10**6)"
        if not -1 <= st.round_points[p] <= 1000000 or not -1 <= st.last_points[p] <= 1000000:
            return "'round_points' and 'last_points' are -1..10**6"
    if not 0 <= st.last_round <= 11:
        return "'last_round' is 0..11"
    if st.phase != PH_NONE:
        if st.out_player < 0:
            if st.last_left != 0:
                return "no one went out, yet last turns or laid-down hands are recorded"
            for p in range(n):
                if st.round_points[p] >= 0:
                    return "no one went out, yet last turns or laid-down hands are recorded"
        else:
            laid = 0
            for p in range(n):
                if st.round_points[p] >= 0:
                    laid += 1
            if st.round_points[st.out_player] != 0:
                return "the player who went out scores 0 (KR-10)"
            if st.last_left < 1 or laid + st.last_left != n:
                return "last turns left do not match the hands laid down (KR-11)"
            if st.round_points[st.cur] >= 0:
                return "a player whose hand is laid down has no turn"
            for p in range(n):
                if st.round_points[p] >= 0 and st.round_points[p] != kz_meld_deadwood(&st.rules, st.hand[p], st.n_hand[p], NULL):
                    return "a laid-down hand's points differ from its best arrangement (KR-12)"
        if st.n_discard < 1 and st.phase == PH_DRAW:
            return "the discard pile is never empty when a player draws"
        if st.phase == PH_DRAW and st.n_stock == 0:
            return "the stock is rebuilt before a draw (KR-13)"
        if st.turns < 1:
            return "a running round has begun at least one turn"
        if kr_legal_actions(st, buf) == 0:
            return "the player to act has no legal action"
    elif st.out_player != -1 or st.last_left != 0 or st.round != final_round(st) or st.last_round != st.round:
        return "a finished game ends after its final round was scored"
    return NULL

KR_OPS.validate = kr_validate
KR_OPS.max_event_kind = max(EVENT_NAMES)


SPEC = GameSpec(
    game_id="kings-rummy",
    name="Kings Rummy",
    min_players=2,
    max_players=MAXP,
    default_players=4,
    options=(
        Option("first_dealer", 0, int, "KR-4", "the seat that deals round 1; the deal passes left", lo=0, hi=6),
        Option("rounds", 11, int, "KR-16", "rounds in the game", lo=1, hi=11),
        Option("first_round", 1, int, "KR-16", "the round the game starts with (3..13 cards)", lo=1, hi=11),
        Option("wild_points", 20, int, "KR-14", "points of a wild card left in hand", lo=0, hi=1000),
        Option("joker_points", 50, int, "KR-14", "points of a Joker left in hand", lo=0, hi=1000),
        Option("max_turns", 400, int, "KR-17", "turns in one round before every hand is scored", lo=1, hi=100000),
    ),
    num_distinct_actions=NUM_ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    state_from_bytes=_state_from_bytes,
    tensor_shape=lambda n: (TENSOR,),
    tensor_layout=lambda n: TENSOR_LAYOUT,
    check_options=_check_options,
    rules_file="kings_rummy.md",
    summary="Five-suit rummy with rotating wilds: 11 rounds of 3..13 cards, lowest total wins.",
    # paired root worlds: 62.5% vs HeuristicBot against 53.3% unpaired (2 players, rounds
    # 5-7, 1000 iterations, 60 games each; benches/strength_table.py): a discard's worth is
    # small beside a round's luck, and common worlds cancel the luck out of the comparison.
    # Flat (tree_depth=1: the root's moves, then heuristic rollouts), on the same seeded
    # games: 2 players vs HeuristicBot 67.5% against 62.5% (100 / 60 games) and 59.3%
    # against 51.1% (140 other games); 4 players vs three 41.0% against 38.5% (100 games).
    # A deep tree spends most iterations in rarely visited nodes whose first moves are random.
    search_defaults={"paired": True, "tree_depth": 1},
)


# ------------------------------------------------------------------ GameOps: tensor
cdef void kr_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (604 float32) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py).
    KR-17's max_turns ends a round, not the game: no truncation op."""
    cdef const KRState *st = <const KRState *>vst
    cdef int p, q, i, o, k
    memset(v, 0, TENSOR * sizeof(float))
    for i in range(st.n_hand[player]):
        v[CODE_KIND[st.hand[player][i]]] += 0.5
    if st.n_discard:
        v[56 + CODE_KIND[st.discard[st.n_discard - 1]]] = 1
    for i in range(st.n_discard):
        v[112 + CODE_KIND[st.discard[i]]] += 0.5
    for q in range(st.num_players):
        p = (player + q) % st.num_players
        for k in range(NKIND):
            v[168 + q * 56 + k] = st.known[p][k] * 0.5
        o = 560 + 4 * q
        v[o] = st.n_hand[p] / 14.0
        v[o + 1] = st.score[p] / 500.0
        v[o + 2] = 1 if st.cur == p else 0
        v[o + 3] = 1 if st.round_points[p] >= 0 else 0
    o = 588
    v[o + st.round - 1] = 1
    if st.phase == PH_DRAW:
        v[o + 11] = 1
    elif st.phase == PH_DISCARD:
        v[o + 12] = 1
    v[o + 13] = 1 if st.out_player >= 0 else 0
    v[o + 14] = st.n_stock / 116.0
    v[o + 15] = st.turns / <float>st.opt_max_turns

KR_OPS.tensor_size = TENSOR
KR_OPS.observation_tensor = kr_observation_tensor
