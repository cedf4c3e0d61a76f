# cython: language_level=3
"""Kings Rummy (``kings-rummy``): five-suit rummy with rotating wilds (Five Crowns family),
rules KR-1 .. KR-17 (``krazy_core/games/kings_rummy/rules.md``).

116 cards (KR-1): suits S H D C R (stars), ranks 3..K, each twice, and 6 Jokers.  Round r
deals ``n = r + 2`` cards; cards of rank ``n`` are wild (KR-2, KR-3).  The meld questions
(can the rest of a hand be laid down? which arrangement leaves the fewest points?) are
answered exactly by :mod:`krazy_core.games.melds`.

This module is the rules, one C unit: deal, legal actions, apply, determinize, the heuristic,
evaluate, the validator, the observation tensor's writer, the random playouts and the GameOps
table (``kr_ops()``).  Its layout contract (constants, the ``KRState`` struct, the tables) is
``core.pxd``; the Python face (``KingsRummyState``, JSON, texts) is ``state.pyx``, the short
forms ``notation.py``, and the package ``__init__`` names the action ids.

Action table (``num_distinct_actions = 114``)
=============  ===========================================================================
0              draw the top card of the stock (KR-8)
1              take the top card of the discard pile (KR-8)
2 .. 57        discard the card of kind ``k = action - 2`` (KR-9): ``k = suit*11 + rank-3``
               for suits S H D C R and ranks 3..K (0..54), ``k = 55`` a Joker
58 .. 113      discard kind ``action - 58`` and go out (KR-10): legal exactly when the rest of
               the hand lays down completely in books and runs
=============  ===========================================================================

Decisions the rules leave open, settled here (tested in tests/games/kings_rummy/test_kings_rummy.py):

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

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_rng_seed_state, kz_bounded,
                              kz_shuffle_u8, kz_ev_push, kz_rebuild_stock, kz_chance_lowest_rounds,
                              KZ_TERMINAL)
from krazy_core._state cimport State
from krazy_core._cards cimport JOKER
from krazy_core._state import check_seed, _games_in_slices
from krazy_core.games.melds.rules cimport (kz_meld_rules, kz_arrangement, kz_rules_kings,
                                           kz_card_points, kz_is_wild, KZ_MELD_BOOK, KZ_MELD_RUN)
from krazy_core.games.melds.free cimport kz_meld_deadwood, kz_meld_deadwood_below, kz_meld_going_out
from krazy_core.errors import ConfigError
from krazy_core._validate import c_count as _c_count

# the constants, the KRState struct, the tables' declarations and the small inline helpers
# (hand_add, hand_count, cards_this_round, final_round) are in core.pxd


# ------------------------------------------------------------------ tables

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
    kz_rng_seed_state(&st.rng, seed)
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

cdef extern from *:
    """#define ROUND_SPREAD 12.0"""
    const double ROUND_SPREAD   # points: logistic scale of one round's score difference
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
    melds with anything later, its points count only if the round ends now.
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


def simulate_random(game, n_games, seed=0, str policy="random") -> dict:
    """Play ``n_games`` Kings Rummy games (the ``game``'s options: use ``rounds=1`` for
    single rounds) entirely in C without the GIL, every player choosing uniformly among
    the legal actions (``policy="heuristic"``: all playing the C heuristic).  Game ``i`` is dealt from ``seed + i``.  The signature and
    the result of ``krazy_core._state.simulate_random``: ``{"games", "decisions",
    "seconds", "decisions_per_second"}``.  Raises ``ConfigError`` for another game,
    ``n_games < 1`` or an unknown policy; ``KeyboardInterrupt`` on Ctrl-C (between two
    slices of games, as ``_state.simulate_random``)."""
    cdef State s
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
    if st.rng.s[0] == 0 and st.rng.s[1] == 0 and st.rng.s[2] == 0:   # (0, 0, 0, x): a tape (rng.h)
        return "'rng' must be four unsigned 64-bit ints, the first three not all zero"
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
    # counters bounded by the rounds behind this one
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
KR_OPS.max_event_kind = EV_LAST


# ------------------------------------------------------------------ GameOps: tensor
cdef void kr_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (KR_TENSOR_SIZE = 604 float32,
    the segments of state.TENSOR_LAYOUT) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py).
    KR-17's max_turns ends a round, not the game: no truncation op."""
    cdef const KRState *st = <const KRState *>vst
    cdef int p, q, i, o, k
    memset(v, 0, KR_TENSOR_SIZE * sizeof(float))
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

KR_OPS.tensor_size = KR_TENSOR_SIZE
KR_OPS.observation_tensor = kr_observation_tensor



cdef const kz_ops *kr_ops() noexcept nogil:
    """The GameOps table of Kings Rummy (state.pyx gives it to a new state's ``_init``)."""
    return &KR_OPS
