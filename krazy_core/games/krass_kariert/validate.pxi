# KrassKariert: the one validator of a loaded ka_state (GameOps validate; both loaders call it).
#
# Included by core.pyx (textually: one C unit with it).

# ------------------------------------------------------------------ the one validator
cdef const char *ka_validate(void *vst, const void *vref) noexcept nogil:
    """``ops.validate``: every field of a loaded ka_state (both loaders call it: the JSON
    loader after filling the struct, ``state_from_bytes`` after copying it in).  Returns
    NULL, or what is wrong.  Beyond the fields' ranges and the 54 cards (KA-1) it checks the
    trick against the seats that name it (a leader the trick does not start
    with was accepted and play then walked the lap wrongly): the trick's first entry is the
    leader's; best_player, second_player, best_combination, stop_played and draws_in_trick
    are those its entries give; in the play phase after the lead, the seat to act is the
    next seat holding cards after the last entry's."""
    cdef ka_state *s = <ka_state *>vst
    cdef const ka_state *ref = <const ka_state *>vref
    cdef int n = ref.num_players, p, i, t, k, c, ln, best, second, bc, stops, draws, q
    cdef int cnt[KA_KINDS]
    cdef int have[KA_KINDS]
    cdef int8_t combos[64]
    cdef int holders_n = 0, played_draws = 0, room, m
    if (s.num_players != ref.num_players or s.two_straight != ref.two_straight
            or s.chips_start != ref.chips_start or s.deal_size != ref.deal_size or s.dealer != ref.dealer):
        return "the state's options differ from this game's"
    if s.rng.s[0] == 0 and s.rng.s[1] == 0 and s.rng.s[2] == 0:   # (0, 0, 0, x): a tape (rng.h)
        return "'rng' must be four unsigned 64-bit ints, the first three not all zero"
    for k in range(KA_KINDS):
        cnt[k] = 0
    for p in range(KA_MAX_PLAYERS):
        if p >= n:
            if s.hand_n[p] or s.chips[p] or s.reserve[p][0] != NO_CARD or s.reserve[p][1] != NO_CARD:
                return "a seat beyond the table holds something"
            for k in range(KA_KINDS):
                if s.known[p][k]:
                    return "a seat beyond the table holds something"
        if s.hand_n[p] > KA_MAX_HAND:
            return "a hand holds more than 18 cards"
        for k in range(KA_KINDS):
            have[k] = 0
        for i in range(KA_MAX_HAND):
            c = s.hand[p][i]
            if i >= s.hand_n[p]:
                if c != NO_CARD:
                    return "a hand's slots past its cards are empty (0xFF)"
                continue
            if KIND[c] == 0xFF:
                return "a hand holds a code that is no KrassKariert card"
            cnt[KIND[c]] += 1
            have[KIND[c]] += 1
        for i in range(2):
            c = s.reserve[p][i]
            if c != NO_CARD:
                if KIND[c] == 0xFF:
                    return "a reserve holds a code that is no KrassKariert card"
                cnt[KIND[c]] += 1
        if p < n:
            if s.chips[p] > s.chips_start:
                return "'chips' exceed the chips a player starts with (KA-2)"
            for k in range(KA_KINDS):
                if s.known[p][k] > 4 or s.known[p][k] > have[k]:
                    return "'known' says a seat holds more cards of a kind than its hand has"
            if s.hand_n[p] > 0:
                holders_n += 1
    if s.pile_n > KA_DECK or s.played_n > KA_DECK:
        return "the draw pile and the played cards hold at most 54 cards"
    for i in range(KA_DECK):
        c = s.pile[i]
        if i >= s.pile_n:
            if c != NO_CARD:
                return "the draw pile's slots past its cards are empty (0xFF)"
        elif KIND[c] == 0xFF:
            return "the draw pile holds a code that is no KrassKariert card"
        else:
            cnt[KIND[c]] += 1
        c = s.played[i]
        if i >= s.played_n:
            if c != NO_CARD:
                return "the played cards' slots past them are empty (0xFF)"
        elif KIND[c] == 0xFF:
            return "the played cards hold a code that is no KrassKariert card"
        else:
            cnt[KIND[c]] += 1
            if c == DRAW_CARD:
                played_draws += 1
    for k in range(KA_KINDS):
        if cnt[k] != (4 if k < 12 else 2):
            return "the cards in hands, reserves, draw pile and played cards are not exactly the 54 cards (KA-1)"
    if s.phase > KA_PH_OVER:
        return "'phase' is not one of the phases"
    if s.hand_no < 1 or s.trick_no < 1:
        return "'hand_no' and 'trick_no' count from 1"
    if (not -1 <= s.loser < n or not 0 <= s.leader < n or not -1 <= s.best_player < n
            or not -1 <= s.second_player < n or not -1 <= s.last_out < n or not -1 <= s.prev_loser < n):
        return "a seat field is not a seat (or -1 where none is allowed)"
    if not -1 <= s.best_combo < KA_NUM_COMBOS or s.stop_played > 1 or s.draws_in_trick > 2 or s.pending > 6:
        return "'best_combination', 'stop_played', 'draws_in_trick' or 'pending' is out of range"
    # the trick
    if s.trick_n > KA_TRICK_MAX:
        return "the trick holds more than 8 entries"
    best = -1
    second = -1
    bc = -1
    stops = 0
    draws = 0
    for t in range(KA_TRICK_MAX):
        if t >= s.trick_n:
            if (s.trick_player[t] != -1 or s.trick_kind[t] != 0 or s.trick_combo[t] != -1
                    or s.trick_cards[t][0] != NO_CARD or s.trick_cards[t][1] != NO_CARD
                    or s.trick_cards[t][2] != NO_CARD):
                return "the trick's slots past its entries are empty"
            continue
        if not 0 <= s.trick_player[t] < n or s.trick_kind[t] > KA_T_RESERVE or not -1 <= s.trick_combo[t] < KA_NUM_COMBOS:
            return "a trick entry's player, kind or combination is out of range"
        ln = 0
        for i in range(3):
            c = s.trick_cards[t][i]
            if c == NO_CARD:
                continue
            if i != ln or KIND[c] == 0xFF:
                return "a trick entry's cards are card codes, then empty slots"
            ln += 1
        if (s.trick_kind[t] == KA_T_COMBO) != (s.trick_combo[t] >= 0) or ln != (combo_len(s.trick_combo[t]) if s.trick_combo[t] >= 0 else 1):
            return "a trick entry does not match its kind"
        if s.trick_combo[t] >= 0:
            m = ka_window_combos(s.trick_cards[t], ln, s.two_straight, -1, combos)
            for i in range(m if m > 0 else 0):
                if combos[i] == s.trick_combo[t]:
                    break
            else:
                return "a trick entry's cards are not its combination"
            second = best
            best = s.trick_player[t]
            bc = s.trick_combo[t]
        elif s.trick_kind[t] == KA_T_STOP:
            if s.trick_cards[t][0] != STOP_CARD:
                return "a Stop entry holds the Stop card"
            second = best
            best = s.trick_player[t]
            stops += 1
        elif s.trick_kind[t] == KA_T_DRAW:
            if s.trick_cards[t][0] != DRAW_CARD:
                return "a Draw entry holds the Draw card"
            draws += 1
    if s.trick_n > 0 and s.trick_player[0] != s.leader:
        return "the trick's first entry is the leader's"
    if (best != s.best_player or second != s.second_player or bc != s.best_combo
            or stops != s.stop_played or draws != s.draws_in_trick):
        return "best_player, second_player, best_combination, stop_played and draws_in_trick are what the trick's entries give"
    if s.phase == KA_PH_OVER:
        if s.to_act != -1 or s.loser < 0 or s.chips[s.loser] != 0:
            return "a finished game has current_player -4 and a loser with no chips (KA-15)"
        return NULL
    if s.loser != -1:
        return "a running game has no loser"
    if not 0 <= s.to_act < n:
        return "'current_player' must be a seat"
    if s.hand_n[s.to_act] == 0 and s.phase == KA_PH_PLAY:
        return "the player to act holds no cards (KA-13)"
    if s.best_combo >= 0 and not s.two_straight and combo_type(s.best_combo) == 1:
        return "a 2-straight with option two_straight off"
    if s.phase == KA_PH_PLAY:
        if s.pending or s.stop_played:
            return "in the play phase nothing is pending and no Stop was played"
        if s.best_player < 0:
            if s.to_act != s.leader or s.best_combo >= 0 or s.second_player >= 0 or s.draws_in_trick:
                return "before the lead, the leader acts and the trick is empty"
        else:
            if s.best_combo < 0 or s.to_act == s.leader or s.to_act == s.best_player:
                return "after the lead, a follower acts on a best combination"
            q = s.trick_player[s.trick_n - 1] + 1
            if q == n:
                q = 0
            while q != s.leader and s.hand_n[q] == 0:
                q += 1
                if q == n:
                    q = 0
            if q != s.to_act:
                return "after the lead, the next seat holding cards after the last play acts (KA-9)"
        if s.draws_in_trick == 0 and holders_n < 2:
            return "the hand should have ended: only one player holds cards (KA-14)"
    else:
        if (s.best_player != s.to_act or s.pending < 1 or s.pending > s.pile_n or s.draws_in_trick < 1
                or s.pending > 3 * s.draws_in_trick):
            return "inserting drawn cards needs the trick's winner to act, with 1..3 per Draw card pending from the pile (KA-12)"
        if s.best_combo < 0 and not s.stop_played:
            return "a finished trick has a best combination or a Stop"
    # capacity: cards that can still enter a hand never push it past 18
    for p in range(n):
        room = s.hand_n[p] + (s.reserve[p][0] != NO_CARD) + (s.reserve[p][1] != NO_CARD) \
            + 3 * (2 - played_draws + (s.draws_in_trick if s.phase == KA_PH_PLAY else 0))
        if s.phase == KA_PH_INSERT and p == s.to_act:
            room += s.pending
        if room > KA_MAX_HAND:
            return "a seat's hand could grow past 18 cards"
    if not ka_any_action(s):
        return "the player to act has no legal action"
    return NULL

KA_OPS.validate = ka_validate
KA_OPS.max_event_kind = EV_LAST      # the highest event kind (state.EVENT_NAMES)
