# Crazy Rummy: the one validator of a loaded CRState (GameOps validate; both loaders call it).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ the one validator (both loaders)

cdef const char *_cr_meld_check(const CRState *st, const Meld *md, int complete, int *deck) noexcept nogil:
    """One meld on the table (CR-5): its fields in range, its cards fitting it; adds its
    cards to deck.  NULL or what is wrong."""
    cdef int i, w = 0, x, q
    if md.n > MLEN:
        return "a meld holds more than 14 cards"
    for i in range(md.n):
        if md.cards[i] >= NK:
            return "a meld holds a code that is no card kind"
        deck[md.cards[i]] += 1
    for i in range(md.n, MLEN):
        if md.cards[i]:
            return "a meld's slots past its cards are 0"
    if md.kind == MK_BOOK:
        if not 1 <= md.rank <= 13 or md.suit or md.lo:
            return "a book has a rank 1..13 and no suit or lo"
        for i in range(md.n):
            x = md.cards[i]
            if book_natural(md.rank, x):
                continue
            if book_wild(md.rank, x):
                w += 1
                continue
            return "a card does not belong in its book"
        if w > 1:
            return "a book holds at most 1 wild (CR-5)"
        if md.n < (3 if complete else 1) or not book_natural(md.rank, md.cards[0]):
            return "a book is 3+ cards led by a natural (CR-5)"
    elif md.kind == MK_RUN:
        if md.suit > 3 or md.rank or not 1 <= md.lo <= (13 if st.opt_wrap else 14):
            return "a run has a suit 0..3, a position lo and no rank"
        if md.lo + md.n - 1 > pos_hi(st.opt_wrap) or (complete and md.n < 4) or (not complete and md.lo > lo_max(st.opt_wrap)):
            return "a run's length does not fit its start (CR-3, CR-5)"
        for i in range(md.n):
            x = md.cards[i]
            if run_natural(md.suit, md.lo + i, x):
                continue
            if wildcard(x):
                w += 1
                continue
            return "a card cannot stand at its position in its run"
        if w > 2:
            return "a run holds at most 2 wilds (CR-5)"
    else:
        return "a meld's kind is book or run"
    if md.wilds != w:
        return "a meld's wild count differs from its cards"
    return NULL


cdef const char *cr_validate(void *vst, const void *vref) noexcept nogil:
    """``ops.validate``: every field of a loaded CRState (both loaders call it: the JSON
    loader after filling the struct, ``state_from_bytes`` after copying it in).  Returns
    NULL, or what is wrong: options, counters (bounded by the rounds behind the state),
    seats, the phase, the melds (CR-4, CR-5, CR-10) and the deck (CR-1)."""
    cdef CRState *st = <CRState *>vst
    cdef const CRState *ref = <const CRState *>vref
    cdef int n = ref.num_players, p, i, k, m, r, first, last, done, nm, building, expect, complete, want, played
    cdef int32_t buf[NUM_ACTIONS]
    cdef int deck[NK]
    cdef const char *msg
    cdef const Meld *md
    cdef const Meld *o
    cdef int last_rank, last_key, prev, seen_wild, key, j, x, tot
    if (st.num_players != ref.num_players or st.opt_jokers != ref.opt_jokers or st.opt_wrap != ref.opt_wrap
            or st.opt_overlap != ref.opt_overlap or st.opt_buy_limit != ref.opt_buy_limit
            or st.opt_penalty != ref.opt_penalty or st.opt_layoff_own != ref.opt_layoff_own
            or st.opt_swap_down != ref.opt_swap_down or st.opt_final_nd != ref.opt_final_nd
            or st.opt_rounds != ref.opt_rounds or st.opt_first_round != ref.opt_first_round
            or st.opt_max_turns != ref.opt_max_turns):
        return "the state's options differ from this game's"
    if st.rng.s[0] == 0 and st.rng.s[1] == 0 and st.rng.s[2] == 0:   # (0, 0, 0, x): a tape (rng.h)
        return "'rng' must be four unsigned 64-bit ints, the first three not all zero"
    first = st.opt_first_round
    last = st.opt_first_round + st.opt_rounds - 1
    if last > 7:
        last = 7
    if not first <= st.round <= last:
        return "'round' is not a round of this game (CR-16)"
    if st.dealer != (st.round - first) % n:
        return "'dealer' is not this round's dealer (CR-6)"
    if not PH_OVER <= st.phase <= PH_BUILD:
        return "'phase' is not one of the phases"
    if not 0 <= st.turn_player < n or not 0 <= st.up_live <= 1 or not -1 <= st.discarder < n:
        return "'turn_player', 'up_live' or 'discarder' is out of range"
    if not 0 <= st.turns <= st.opt_max_turns:
        return "'turns' is 0..max_turns (CR-17)"
    done = st.round - first + (1 if st.phase == PH_OVER else 0)
    if not st.turns <= st.total_turns <= done * st.opt_max_turns + st.turns:
        return "'total_turns' does not fit the rounds played"
    if not 0 <= st.limit_rounds <= done:
        return "'limit_rounds' exceeds the rounds played"
    if not 0 <= st.gd_k <= 2 or not 0 <= st.gd_open <= 1 or not 0 <= st.gd_last <= NO_NAT:
        return "'building' must be [meld 0..2, open, last kind 0..53]"
    if not 0 <= st.n_stock <= NCARDS or not 0 <= st.n_discard <= NCARDS:
        return "stock and discard pile hold 0..108 cards"
    for k in range(NK):
        deck[k] = 0
    for p in range(MAXP):
        tot = 0
        for k in range(NK):
            if p >= n and (st.hand[p][k] or st.known[p][k]):
                return "a seat beyond the table holds something"
            if st.hand[p][k] > 8:
                return "a hand holds too many of one card"
            if st.known[p][k] > st.hand[p][k]:
                return "known cards of a seat are not in their hand"
            tot += st.hand[p][k]
            deck[k] += st.hand[p][k]
        if st.nhand[p] != tot:
            return "a hand's size differs from its cards"
        if p >= n and (st.down[p] or st.buys[p]):
            return "a seat beyond the table holds something"
        if p < n and (st.down[p] > 1 or (st.opt_buy_limit and st.buys[p] > st.opt_buy_limit)):
            return "'down' holds booleans; no seat bought more than buy_limit (CR-8)"
    for i in range(st.n_stock + st.n_discard):
        k = st.stock[i] if i < st.n_stock else st.discard[i - st.n_stock]
        if k >= NK:
            return "stock or discard pile holds a code that is no card kind"
        deck[k] += 1
    nm = nmelds(st.round)
    building = st.phase == PH_BUILD
    for m in range(MAXM):
        md = &st.melds[m]
        p = m // 3
        k = m % 3
        if p >= n:
            expect = 0
            complete = 1
        elif building and p == st.turn_player:
            expect = k < st.gd_k or (k == st.gd_k and st.gd_open)
            complete = k < st.gd_k
        else:
            expect = st.down[p] and k < nm
            complete = 1
        if md.kind == MK_NONE:
            if expect:
                return "a meld is missing"
            if md.suit or md.rank or md.lo or md.n or md.wilds:
                return "an empty meld slot is all 0"
            for i in range(MLEN):
                if md.cards[i]:
                    return "an empty meld slot is all 0"
            continue
        if not expect:
            return "a meld should not be on the table (CR-10)"
        msg = _cr_meld_check(st, md, complete, deck)
        if msg != NULL:
            return msg
        want = MK_BOOK if k < CBOOKS[st.round] else MK_RUN
        if md.kind != want:
            return "a meld is not the kind the contract names (CR-4)"
    for k in range(52):
        if deck[k] != 2:
            return "hands, stock, discard pile and melds are not exactly the deck (CR-1)"
    if deck[JK] != st.opt_jokers:
        return "hands, stock, discard pile and melds are not exactly the deck (CR-1)"
    for r in range(7):
        if not -2 <= st.round_result[r] < n:
            return "a round's result is -2..n-1"
        played = (first <= r + 1 < st.round) or (r + 1 == st.round and st.phase == PH_OVER)
        if played == (st.round_result[r] == -2):
            return "a round's result and scores do not fit the game's progress"
        for p in range(MAXP):
            if p >= n:
                if st.scores[r][p]:
                    return "a seat beyond the table holds something"
                continue
            if not 0 <= st.scores[r][p] <= 100000:
                return "a round's scores are 0..100000"
            if not played and st.scores[r][p]:
                return "a round's result and scores do not fit the game's progress"
        if st.round_result[r] >= 0 and st.scores[r][st.round_result[r]] != 0:
            return "a round's result and scores do not fit the game's progress"
    if st.phase == PH_OVER:
        if st.cur != KZ_TERMINAL:
            return "a finished game has current_player -4"
        if st.round != last:
            return "the game ends after its last round"
        return NULL
    if not 0 <= st.cur < n:
        return "'current_player' must be a seat"
    for p in range(n):
        if st.nhand[p] == 0 and not (building and p == st.cur):
            return "a seat holds no cards but the round is running"
    if st.up_live and st.n_discard == 0:
        return "an up-card needs a discard pile"
    if (not building or not st.gd_open) and st.gd_last != 0:
        return "'building' last kind is set outside a book being built"
    if not building and (st.gd_k or st.gd_open):
        return "'building' is set outside going down"
    if st.phase == PH_FIRST:
        if st.cur != st.dealer or st.turn_player != st.dealer or not st.up_live or st.turns \
                or st.discarder != -1 or st.n_discard != 1:
            return "the first up-card decision is the dealer's, before any turn (CR-7)"
        for p in range(n):
            if st.down[p] or st.buys[p]:
                return "the first up-card decision is the dealer's, before any turn (CR-7)"
    elif st.phase == PH_BUY:
        if st.cur == st.turn_player or st.cur == st.discarder or not st.up_live:
            return "a buyer is another player than the turn player and the discarder (CR-8)"
        if st.opt_buy_limit and st.buys[st.cur] >= st.opt_buy_limit:
            return "the buyer reached buy_limit (CR-8)"
    else:
        if st.cur != st.turn_player:
            return "only the turn player acts in this phase"
        if st.phase == PH_TAKE and not st.up_live:
            return "take_or_decline needs an up-card"
        if (st.phase == PH_MAIN or st.phase == PH_BUILD) and st.up_live:
            return "the up-card was dealt with before the turn's play"
        if st.turns == 0:
            return "a turn is under way but no turn was counted"
    if building:
        if st.down[st.cur] or st.gd_k >= nm:
            return "going down: the player is not down yet and builds one of the contract's melds"
        # the melds laid so far follow the canonical order (as _check_laydown)
        last_rank = 0
        last_key = -1
        p = st.cur
        for k in range(st.gd_k + (1 if st.gd_open else 0)):
            md = &st.melds[p * 3 + k]
            if md.kind == MK_BOOK:
                if md.rank < last_rank:
                    return "books of a lay-down are laid by rank"
                last_rank = md.rank
                prev = -1
                seen_wild = 0
                for i in range(md.n):
                    x = md.cards[i]
                    if book_natural(md.rank, x):
                        if seen_wild or x < prev:
                            return "a book's naturals are laid in kind order, its wild last"
                        prev = x
                    else:
                        seen_wild = 1
                if k == st.gd_k and st.gd_open:
                    if st.gd_last != (NO_NAT if seen_wild else prev):
                        return "'building' last kind does not match the book being built"
            else:
                key = md.suit * 32 + md.lo
                if key < last_key + 1 - st.opt_overlap or md.lo > lo_max(st.opt_wrap):
                    return "runs of a lay-down are laid by suit and position"
                last_key = key
                if k == st.gd_k and st.gd_open and st.gd_last != 0:
                    return "'building' last kind is for books"
                for j in range(k):
                    o = &st.melds[p * 3 + j]
                    if o.kind == MK_RUN and o.suit == md.suit and touches(
                            st.opt_wrap, st.opt_overlap, run_mask(st.opt_wrap, o.lo, o.lo + o.n - 1),
                            run_mask(st.opt_wrap, md.lo, md.lo + md.n - 1)):
                        return "two runs of one suit in a contract may not join (CR-10)"
    if cr_legal_actions(st, buf) == 0:
        return "the player to act has no legal action"
    return NULL

CR_OPS.validate = cr_validate
CR_OPS.max_event_kind = EV_GAME_OVER      # the highest event kind (state.EVENT_NAMES)
