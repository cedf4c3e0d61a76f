# Krazy Kings: the one validator of a loaded KKState (GameOps validate; both loaders call it).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ the one validator
cdef bint _record_ok(uint64_t r, bint jokers) noexcept nogil:
    """A belief record's fields in range (BEL_*; core.pxd)."""
    cdef int card = bel_field(r, BEL_CARD, 6), ph = bel_field(r, BEL_PHASE, 3)
    cdef int d1 = bel_field(r, BEL_D1, 3), d2 = bel_field(r, BEL_D2, 3), top1 = bel_field(r, BEL_TOP, 6)
    if ph == 0:                         # a draw record: the count alone
        return 1 <= card <= 63 and r >> BEL_PHASE == 0
    return (r >> BEL_BITS == 0 and card <= (52 if jokers else 51) and PH_R1 <= ph <= PH_OPEN
            and d1 <= 6 and d2 <= 6 and (d1 == 0) == (d2 == 0) and top1 <= (53 if jokers else 52)
            and 1 <= bel_field(r, BEL_SIZE, 6) <= NIDX and bel_field(r, BEL_NEXT, 6) <= NIDX
            and bel_field(r, BEL_MINOPP, 6) <= NIDX)

cdef const char *kk_validate(void *vst, const void *vref) noexcept nogil:
    """``ops.validate``: every field of a loaded KKState (both loaders call it: the JSON
    loader after filling the struct, ``state_from_bytes`` after copying it in).  Returns
    NULL, or what is wrong.  Recomputes ``playable`` (derived)."""
    cdef KKState *st = <KKState *>vst
    cdef const KKState *ref = <const KKState *>vref
    cdef int n = ref.num_players, p, i, c, ph
    cdef int32_t buf[NUM_ACTIONS]
    cdef int cnt[NIDX]
    cdef uint64_t deck = (1ULL << 52) - 1, allbits = 0
    if st.opt_jokers:
        deck |= JOKERS
    if (st.num_players != ref.num_players or st.dealer != ref.dealer
            or st.opt_free_reroll != ref.opt_free_reroll or st.opt_may_roll != ref.opt_may_roll
            or st.opt_doubles != ref.opt_doubles or st.opt_jokers != ref.opt_jokers
            or st.opt_last_card != ref.opt_last_card or st.opt_max_turns != ref.opt_max_turns):
        return "the state's options differ from this game's"
    if st.rng.s[0] == 0 and st.rng.s[1] == 0 and st.rng.s[2] == 0:   # (0, 0, 0, x): a tape (rng.h)
        return "'rng' must be four unsigned 64-bit ints, the first three not all zero"
    if not 0 <= st.n_stock <= NIDX or not 0 <= st.n_discard <= NIDX:
        return "stock and discard pile hold 0..54 cards"
    for i in range(NIDX):
        cnt[i] = 0
    for p in range(MAXP):
        if p >= n and (st.hand[p] or st.round_two[p] or st.inf_mask[p] or st.inf_n[p]):
            return "a seat beyond the table holds something"
        if st.hand[p] & ~deck:
            return "a hand holds a card that is not in this deck"
        if (st.hand[p] >> 53) & 1 and not (st.hand[p] >> 52) & 1:
            return "a hand's one Joker sits on bit 52"
        if allbits & st.hand[p] & ~JOKERS:          # a suited card in two hands
            return "the cards in hands, stock and discard pile are not exactly one deck (KK-1)"
        allbits |= st.hand[p]
        cnt[52] += <int>((st.hand[p] >> 52) & 1) + <int>((st.hand[p] >> 53) & 1)
    for i in range(52):
        cnt[i] = <int>((allbits >> i) & 1)
    for i in range(NIDX):
        if (i >= st.n_stock and st.stock[i]) or (i >= st.n_discard and st.discard[i]):
            return "the stock's and discard pile's slots past their cards are 0"
    for i in range(st.n_stock + st.n_discard):
        c = st.stock[i] if i < st.n_stock else st.discard[i - st.n_stock]
        if c >= 128 or CODE_TO_IDX[c] < 0 or (CODE_TO_IDX[c] == 52 and not st.opt_jokers):
            return "stock or discard pile holds a code that is no card of this deck"
        cnt[CODE_TO_IDX[c]] += 1
    for i in range(52):
        if cnt[i] != 1:
            return "the cards in hands, stock and discard pile are not exactly one deck (KK-1)"
    if cnt[52] != (2 if st.opt_jokers else 0):
        return "the cards in hands, stock and discard pile are not exactly one deck (KK-1)"
    ph = st.phase
    if not PH_NONE <= ph <= PH_DIRECTION:
        return "'phase' is not one of the phases"
    if st.direction != 1 and st.direction != -1:
        return "'direction' must be 1 or -1"
    if (not 0 <= st.d1 <= 6 or not 0 <= st.d2 <= 6 or (st.d1 == 0) != (st.d2 == 0)
            or not 0 <= st.open_d1 <= 6 or not 0 <= st.open_d2 <= 6 or (st.open_d1 == 0) != (st.open_d2 == 0)
            or not 0 <= st.ch_d1 <= 6 or not 0 <= st.ch_d2 <= 6 or (st.ch_d1 == 0) != (st.ch_d2 == 0)):
        return "a roll is two dice 1..6, or none"
    if not -1 <= st.challenger < n or not -1 <= st.winner < n:
        return "'challenger' and 'winner' are a seat or -1"
    if not 0 <= st.rolloff_rolls <= 3 or not 0 <= st.pending_reverse <= 1 or not 0 <= st.turn_limit <= 1:
        return "'rolloff_rolls' is 0..3, 'pending_reverse' and 'turn_limit' 0 or 1"
    if not 0 <= st.turns <= st.opt_max_turns:
        return "'turns' is 0..max_turns (KK-20)"
    for p in range(n):
        if st.round_two[p] > 1:
            return "'round_two' holds booleans"
    if st.untracked or st.pad[0] or st.pad[1] or st.inf_pad:
        return "a determinized search world or padding is set: not a State's struct"
    for p in range(n):
        if st.inf_mask[p] & ~deck or ((st.inf_mask[p] >> 52) & 1) != ((st.inf_mask[p] >> 53) & 1):
            return "'inference_cards' names a card not in this deck (or one Joker)"
        if not 0 <= st.inf_n[p] <= popcount(st.hand[p]):
            return "'inference_count' of a seat must be 0..its hand size"
    if st.stock_from & ~deck or ((st.stock_from >> 52) & 1) != ((st.stock_from >> 53) & 1):
        return "'stock_from' names a card not in this deck (or one Joker)"
    if st.bel_pad[0] or st.bel_pad[1] or st.bel_pad[2]:
        return "padding is set: not a State's struct"
    for p in range(MAXP):
        if st.bel_n[p] > (KK_BEL_REC if p < n else 0):
            return "'belief_records' holds at most 16 records a seat (none beyond the table)"
        for i in range(KK_BEL_REC):
            if i >= st.bel_n[p]:
                if st.bel_rec[p][i]:
                    return "a belief record past a seat's count is set: not a State's struct"
            elif not _record_ok(st.bel_rec[p][i], st.opt_jokers):
                return "a belief record is out of range (card, phase, roll, top card or hand sizes)"
    if ph == PH_NONE:
        st.playable = 0
        if st.cur != KZ_TERMINAL:
            return "a finished game has current_player -4"
        if (st.winner >= 0) == (st.turn_limit != 0):
            return "a finished game has either a winner or the turn limit"
        if st.winner >= 0 and st.hand[st.winner] != 0:
            return "the winner still holds cards"
        return NULL
    if not 0 <= st.cur < n:
        return "'current_player' must be a seat"
    if st.winner != -1 or st.turn_limit:
        return "a running game has no winner"
    for p in range(n):
        if st.hand[p] == 0:
            return "a seat holds no cards but the game is running"
    if (ph == PH_R1 or ph == PH_R2_ROLLED or ph == PH_CHALLENGED or ph == PH_OPEN) and st.d1 == 0:
        return "this phase needs a roll"
    if ph == PH_CHALLENGED and (st.challenger < 0 or st.ch_d1 == 0 or st.challenger == st.cur):
        return "a challenged player needs a challenger and a challenge roll"
    if ph == PH_OPEN and st.open_d1 == 0:
        return "phase 'open_roll' needs an open roll"
    if ph != PH_CHALLENGED and ph != PH_DIRECTION and st.challenger >= 0:
        return "a challenge is pending but the challenged player is not to act"
    st.playable = legal_cards(st)
    if kk_legal_actions(st, buf) == 0:
        return "the player to act has no legal action"
    return NULL

KK_OPS.validate = kk_validate
KK_OPS.max_event_kind = EV_LAST
