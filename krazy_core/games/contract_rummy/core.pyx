# cython: language_level=3
"""Crazy Rummy (``contract-rummy``): seven contracts, buying, laying off, wild swaps; rules
CR-1 .. CR-17 (``krazy_core/games/contract_rummy/rules.md``, seed 002, Italian).  The rules
core, one C unit with the files it includes: ``inference.pxi`` (determinize),
``validate.pxi`` (the validator), ``tensor.pxi`` (the observation tensor writer).

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

This module (``krazy_core.games.contract_rummy.core``) is the rules in one C unit: new game,
legal actions, apply, determinize, the heuristic policy, evaluate, the validator, the
observation tensor and the GameOps table; its layout contract is ``core.pxd``.  The Python
face (the State class, JSON, event texts, action names, the meld helpers :func:`is_book`,
:func:`is_run`, :func:`contract_options`, :func:`best_arrangement`) is ``state.pyx``;
``__init__.py`` exports both.

Event kinds (``raw_events()`` tuples ``(kind, player, a, b)``) are in ``EVENT_NAMES``
(``state.pyx``).
"""

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_rng_seed_state, kz_bounded,
                              kz_shuffle_u8, kz_ev_push, kz_rebuild_stock, kz_chance_lowest_rounds,
                              KZ_TERMINAL)
# the struct, constants, tables and inline helpers: core.pxd (cimported implicitly), the
# lay-down's through it from melds/laydown.pxd

from krazy_core.games.melds.laydown import CONTRACTS     # CR-4: round r's (books, runs)

# ------------------------------------------------------------------ tables (declared in core.pxd)
cdef uint64_t TWOS = (1ULL << 1) | (1ULL << 14) | (1ULL << 27) | (1ULL << 40)
cdef uint64_t JBIT = 1ULL << 52

cdef void _init_tables():
    cdef int s, r
    for r in range(14):
        RANKBITS[r] = 0
    for s in range(4):
        for r in range(1, 14):
            RANKBITS[r] |= 1ULL << (s * 13 + r - 1)

_init_tables()

# ------------------------------------------------------------------ the existence check
# melds/laydown.pyx (``ld_steps``, ``ld_holds_contract``) asks the shared solver, for the
# seat's lay-down seen through a kz_build.
cdef inline void build_view(const CRState *st, int p, kz_build *b) noexcept nogil:
    ld_view(b, st.hand[p], &st.melds[p * 3], st.round, st.opt_wrap, st.opt_overlap,
            st.phase == PH_BUILD, st.gd_k, st.gd_open, st.gd_last)

cdef int can_go_down(const CRState *st, int p) noexcept nogil:
    if st.down[p]:
        return 0
    return ld_holds_contract(st.hand[p], st.nhand[p], st.round, st.opt_wrap, st.opt_overlap)

# ------------------------------------------------------------------ card movement
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

cdef int cr_legal_actions(const void *vst, int32_t *out) noexcept nogil:
    cdef const CRState *st = <const CRState *>vst
    cdef int n = 0, p = st.cur, k, m, e, a
    cdef uint64_t held = 0, any_fit = 0, any_swap = 0
    cdef uint64_t fm[MAXM][2]
    cdef uint64_t sm[MAXM]
    cdef kz_build b
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
        build_view(st, p, &b)
        return ld_steps(&b, out)
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
        st.gd_last = ld_meld_step(md, a, st.gd_open, st.gd_last)
        st.gd_open = 1
        if a >= A_RUN:
            kz_ev_push(ev, EV_RUN_START, p, p * 3 + st.gd_k, md.suit * 32 + md.lo)
            return 0
        k = a - A_ADD
        remove_card(st, p, k)
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
    kz_rng_seed_state(&st.rng, seed)
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

cdef extern from *:
    """#define ROUND_SPREAD 27.0"""
    const double ROUND_SPREAD   # points: logistic scale of one round's score difference
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

# ------------------------------------------------------------------ determinize (inference.pxi)
include "inference.pxi"

# ------------------------------------------------------------------ the heuristic (HeuristicBot: GameOps heuristic_action)
# Reads only the acting player's hand and public facts.

cdef int card_value(const CRState *st, int p, int k) noexcept nogil:
    """How much seat p wants card kind k for the round's contract (higher = keep)."""
    cdef int v = 0, r, s, d, j, q, nb = CBOOKS[st.round], nr = CRUNS[st.round]
    if k == JK or is_two(k):
        return 100
    r = kind_rank(k)
    s = k // 13
    if nb > 0:
        for j in range(4):
            v += 12 * st.hand[p][j * 13 + r - 1]
        v -= 12 * (1 if st.hand[p][k] > 0 else 0)      # itself (one copy)
        v += 12 * (st.hand[p][k] - 1 if st.hand[p][k] > 1 else 0)
    if nr > 0:
        for d in range(-3, 4):
            if d == 0:
                continue
            q = r + d
            if q < 1 or q > 14:
                continue
            if st.hand[p][s * 13 + pos_rank(q) - 1]:
                v += 8 if (d == 1 or d == -1) else (5 if (d == 2 or d == -2) else 2)
    return v

cdef int lays_off_anywhere(const CRState *st, int p, int k) noexcept nogil:
    cdef int m
    for m in range(st.num_players * 3):
        if st.melds[m].kind == MK_NONE or (m // 3 == p and not st.opt_layoff_own):
            continue
        if ((fits(st, m, 0) | fits(st, m, 1)) >> k) & 1:
            return 1
    return 0

cdef int wants(const CRState *st, int p, int k, int buying) noexcept nogil:
    cdef int v
    if k == JK or is_two(k):
        return (not buying) or st.nhand[p] <= st.round + 10
    if st.down[p]:
        return lays_off_anywhere(st, p, k) and not buying
    v = card_value(st, p, k)
    if buying:
        return v >= 24 and st.nhand[p] <= st.round + 9
    return v >= 12

cdef int32_t cr_heuristic(const void *vst, kz_rng *rng) noexcept nogil:
    """HeuristicBot: take or buy the up-card when it is wild or builds toward the contract
    (buying only when it pairs up strongly and the hand is not swollen: the penalty card
    costs points); go down as soon as it can, laying every card it can into the contract;
    lay off everything it can (naturals first); swap naturals for wilds; discard the card
    least useful to it (pairs and run neighbours for the contract, points held) and to the
    next player (a card the next player could lay off is kept back)."""
    cdef const CRState *st = <const CRState *>vst
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n = cr_legal_actions(vst, acts), i, a, p = st.cur, k, best_a = -1, nxt
    cdef double sc, best = -1e18
    if n == 0:
        return -1
    if st.phase == PH_FIRST or st.phase == PH_TAKE or st.phase == PH_BUY:
        k = st.discard[st.n_discard - 1]
        if wants(st, p, k, st.phase == PH_BUY):
            return acts[0]
        return acts[1]
    if st.phase == PH_BUILD:
        for i in range(n):
            a = acts[i]
            if a < A_RUN:
                k = a - A_ADD
                if not st.gd_open:
                    sc = 50 + card_value(st, p, k)
                elif wildcard(k) and not (st.melds[p * 3 + st.gd_k].kind == MK_BOOK
                                          and book_natural(st.melds[p * 3 + st.gd_k].rank, k)) \
                        and not (st.melds[p * 3 + st.gd_k].kind == MK_RUN
                                 and run_natural(st.melds[p * 3 + st.gd_k].suit,
                                                 st.melds[p * 3 + st.gd_k].lo + st.melds[p * 3 + st.gd_k].n, k)):
                    sc = 40
                else:
                    sc = 60
            elif a < A_FINISH:
                k = 0
                for nxt in range(4):
                    if st.hand[p][nat_kind((a - A_RUN) // 13, (a - A_RUN) % 13 + 1 + nxt)]:
                        k += 1
                sc = 30 + k
            else:
                sc = 35
            if sc > best:
                best = sc
                best_a = a
        return best_a
    # PH_MAIN
    nxt = (p + 1) % st.num_players
    for i in range(n):
        a = acts[i]
        if a == A_GO_DOWN:
            return a
    for i in range(n):
        a = acts[i]
        if A_LAYOFF <= a < A_SWAP and not wildcard((a - A_LAYOFF) // 2 // MAXM):
            return a
    for i in range(n):
        a = acts[i]
        if A_SWAP <= a < A_KEEP:
            return a
    for i in range(n):
        a = acts[i]
        if A_LAYOFF <= a < A_SWAP:
            return a
    for i in range(n):
        a = acts[i]
        if a >= NK:
            continue
        sc = -card_value(st, p, a) + POINTS[a] * 0.5
        if st.hand[p][a] > 1 and CBOOKS[st.round] == 0:
            sc += 6                                          # a duplicate is useless in runs
        if st.down[nxt] and lays_off_anywhere(st, nxt, a):
            sc -= 30                                         # don't feed the next player
        sc += 0.001 * kz_bounded(rng, 100)
        if sc > best:
            best = sc
            best_a = a
    if best_a < 0:
        best_a = acts[n - 1]
    return best_a

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

# ------------------------------------------------------------------ the one validator (both loaders)
include "validate.pxi"


cdef kz_ops *cr_ops() noexcept nogil:
    """The game's GameOps table (state.pyx's states point to it)."""
    return &CR_OPS


# ------------------------------------------------------------------ GameOps: tensor
include "tensor.pxi"
