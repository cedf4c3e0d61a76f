# cython: language_level=3
"""KrassKariert's rules (``krazy_core.games.krass_kariert.core``): fixed-order hands,
combinations of 1-3 adjacent cards, chips; rules KA-1 .. KA-15 (``rules.md`` beside this
file).  One C unit: the window tables, legal actions, apply, the deal, determinize, the
heuristic, the validator, the observation tensor writer and the GameOps table (``ka_ops()``),
``simulate_random``, and the combination helpers over the tables (``combination``,
``beats``, ...) that ``notation.py`` and ``state.pyx`` read.  The struct, the constants and
the event kinds are ``core.pxd`` (the layout contract); the Python face (the State class,
observation, JSON, event texts, action names, ``SPEC``) is ``state.pyx``.  Parts of the unit
live in files it includes: ``inference.pxi`` (determinize), ``faces.pxi`` (the combination
helpers, options, ``simulate_random``), ``validate.pxi`` (the validator), ``tensor.pxi``
(the observation tensor writer).

A hand can never be re-ordered: a *combination* (KA-5, KA-6) is 1-3 cards lying next to
each other in the hand right now.  Positions count from 0 (the first card dealt, KA-3).
Every combination has an index 0..56 ordered by strength, so ``beats`` is ``>`` (KA-7):

=========  ============  ==========================================
index      type          value
=========  ============  ==========================================
0 .. 11    solo          the number 1..12 (``index + 1``)
12 .. 22   2-straight    top card 2..12 (``index - 10``), option ``two_straight``
23 .. 34   pair          the number 1..12 (``index - 22``)
35 .. 44   3-straight    top card 3..12 (``index - 32``)
45 .. 56   triple        the number 1..12 (``index - 44``)
=========  ============  ==========================================

Action table (``num_distinct_actions = 1116``; a hand holds at most 18 cards: 10 dealt +
2 reserves + 6 drawn, since the deck has two Draw cards)

==============  ============================================================================
0 .. 1025       play the cards at positions ``start .. start+len-1`` as combination ``c``:
                ``start * 57 + c`` (``len`` is 1, 2 or 3 by the type of ``c``).  The X cards
                among them take the values that make ``c`` (KA-8): ``c`` *is* the choice
                of values (X cards are identical, so the multiset of values is all that
                counts; ``x_values`` gives them in position order).
1026 .. 1043    play the Stop card at position ``p`` (``1026 + p``, KA-11)
1044 .. 1061    play the Draw card at position ``p`` (``1044 + p``, KA-12)
1062 .. 1097    take reserve card ``i`` (0 or 1) into the hand at position ``p``
                (``1062 + i * 18 + p``; the card then sits at ``p``, KA-9)
1098 .. 1115    insert the drawn card at position ``p`` (``1098 + p``, KA-12)
==============  ============================================================================

Decisions the rules leave open, settled here (tested in tests/games/krass_kariert/test_krass_kariert.py):

- The dealer of the first hand is option ``dealer`` (default seat 0); the seat to its left
  leads (KA-4).  Hands are dealt one card at a time round the table from seat 0.
- A leader whose hand holds only Draw cards (which may not lead, KA-9) takes a reserve card
  and then leads; with no reserve left it loses the chip (KA-14(b)).
- KA-14(a) ("only one player still holds cards") is checked whenever the next player to act
  is sought and at the end of a trick; while Draw cards of the current trick are still to
  be drawn the trick is played out first, because its winner comes back in (KA-13).  If
  nobody holds cards (the pile was empty), the player who played the last card loses.
- KA-10: if the trick's winner has no cards left, the player of the second-best play
  leads (the combination the winner's play beat; for a Stop, the trick's best combination)
  if they hold cards; otherwise the next player clockwise from the winner who holds cards.
- Hand order is each owner's secret: which cards were played (and the chosen X values) is
  public, the positions they came from or went to are not.  A reserve card taken is known
  to be in that hand until a card of the same kind is played (``known`` in the struct).
- ``returns()``: the game's loser 0.0, everyone else 1.0 (KA-15); zeros while it runs.

The heuristic (``HeuristicBot``) scores each legal action from its own hand and public
facts: beat as cheaply as possible with what breaks its hand's combinations least, keep X
cards, strong combinations and Stop cards for when they matter (a Stop against a pair or
better, or to go out), play a Draw card when beating is expensive, take the reserve card
into the position where it joins a combination, insert drawn cards likewise.

Public faces for frontends (here, over the tables): ``combination(cards, x_values=()) ->
(type, value) | None``, ``beats(new, old) -> bool``, ``window_combinations(cards)`` (every way
1-3 adjacent cards, X cards included, can be played), ``combination_index`` /
``combination_of_index``; on a state (``state.pyx``), ``hand(p)`` (omniscient) and
``playable_windows(p)``.  ``simulate_random(game, n_games, seed, policy="random")`` plays
whole games in C without the GIL (benchmarks).

Event kinds (``raw_events()`` tuples ``(kind, player, a, b)``) are ``core.pxd``'s ``EV_*``,
named in ``state.EVENT_NAMES``; a play's event packs ``b = start | c0 << 8 | c1 << 16 | c2 << 24``
(the cards, 0 for none).
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

import time

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_rng_seed_state, kz_next, kz_bounded,
                              kz_chance_lowest,
                              kz_uniform, kz_shuffle_u8, kz_ev_push, KZ_TERMINAL)
from krazy_core._cards cimport SUIT_NUMBER, X_CARD, DRAW_CARD, STOP_CARD, NO_CARD
from krazy_core._state import check_seed, _games_in_slices
from krazy_core.cards import parse_card
from krazy_core.errors import ConfigError
from krazy_core._validate import c_int as _c_int, c_count as _c_count

COMBINATION_TYPES = ("solo", "2-straight", "pair", "3-straight", "triple")   # combo_type 0..4 (KA-6)


# ------------------------------------------------------------------ rules core: plain C over ka_state
# Every function here is ``noexcept nogil``; rule numbers are those of rules.md.  The event
# kinds (EV_*), card_kind and the combo_* helpers are core.pxd's.

# Window tables: the combinations (bit c of a uint64) that 1, 2, 3 adjacent cards of kinds
# k1, k1*15+k2, (k1*15+k2)*15+k3 can be played as (KA-5, KA-6, KA-8), built once at import
# from ka_window_combos.  Windows holding a Draw or Stop card have mask 0.
cdef uint64_t WIN1[15]
cdef uint64_t WIN2[225]
cdef uint64_t WIN3[3375]
cdef uint8_t KIND[256]                  # card code -> kind (0xFF for no card)
# The same windows as one combination index: -1 none, -2 an X card is among them (then
# the masks above hold the choices).  C2N: C2 with 2-straights off (KA-6 option).
cdef int8_t C1[15]
cdef int8_t C2[225]
cdef int8_t C2N[225]
cdef int8_t C3[3375]
# The type (KA-6) of the strongest combination a 2- or 3-card window makes, 0 for none
# (a 2-straight scores 1 .. a triple 4); the heuristic's measure of a hand's structure.
cdef uint8_t T2[225]
cdef uint8_t T2N[225]
cdef uint8_t T3[3375]
cdef uint64_t ALL_COMBOS = (1ULL << 57) - 1
cdef uint64_t NO_TWO_STRAIGHTS = ((1ULL << 57) - 1) & ~(((1ULL << 11) - 1) << 12)

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline uint64_t above_mask(int above) noexcept nogil:
    """Combinations with index > above."""
    if above < 0:
        return ALL_COMBOS
    return ALL_COMBOS & ~((1ULL << (above + 1)) - 1)


cdef inline int combo_fits(int c, const int *vals, int m) noexcept nogil:
    """Whether the numbers vals[0..m) are a sub-multiset of combination c (X cards fill the
    rest, KA-8)."""
    cdef int req[3]
    cdef int used[3]
    cdef int n = combo_required(c, req), i, j, ok
    used[0] = 0; used[1] = 0; used[2] = 0
    for i in range(m):
        ok = 0
        for j in range(n):
            if not used[j] and req[j] == vals[i]:
                used[j] = 1
                ok = 1
                break
        if not ok:
            return 0
    return 1


cdef int ka_window_combos(const uint8_t *cards, int n, int two_straight, int above,
                          int8_t *out) noexcept nogil:
    """The combinations (indices > above, ascending) that the n (1..3) adjacent cards can be
    played as (KA-5, KA-6, KA-8).  Returns -1 if a Draw or Stop card is among them (then no
    longer window through it is a combination either)."""
    cdef int vals[3]
    cdef int m = 0, k = 0, i, c, lo, hi, cnt = 0, a, b, t
    for i in range(n):
        if cards[i] == X_CARD:
            k += 1
        elif (cards[i] >> 4) == SUIT_NUMBER:
            vals[m] = cards[i] & 15
            m += 1
        else:
            return -1
    if k == 0:
        c = -1
        if n == 1:
            c = vals[0] - 1
        elif n == 2:
            a = vals[0]; b = vals[1]
            if a > b:
                a, b = b, a
            if a == b:
                c = 22 + a
            elif b == a + 1 and two_straight:
                c = 10 + b
        else:
            # sort three
            if vals[0] > vals[1]:
                t = vals[0]; vals[0] = vals[1]; vals[1] = t
            if vals[1] > vals[2]:
                t = vals[1]; vals[1] = vals[2]; vals[2] = t
            if vals[0] > vals[1]:
                t = vals[0]; vals[0] = vals[1]; vals[1] = t
            if vals[0] == vals[2]:
                c = 44 + vals[0]
            elif vals[1] == vals[0] + 1 and vals[2] == vals[1] + 1:
                c = 32 + vals[2]
        if c > above:
            out[0] = <int8_t>c
            return 1
        return 0
    if n == 1:
        lo = 0; hi = 11
    elif n == 2:
        lo = 12; hi = 34
    else:
        lo = 35; hi = 56
    if lo <= above:
        lo = above + 1
    for c in range(lo, hi + 1):
        if not two_straight and 12 <= c < 23:
            continue
        if combo_fits(c, vals, m):
            out[cnt] = <int8_t>c
            cnt += 1
    return cnt


cdef inline uint8_t kind_code(int k) noexcept nogil:
    return <uint8_t>(0x61 + k) if k < 12 else <uint8_t>(0x70 + k - 12)


cdef void _init_window_tables() noexcept nogil:
    cdef uint8_t w[3]
    cdef int8_t buf[24]
    cdef int a, b, c, i, k
    cdef uint64_t m
    for i in range(256):
        KIND[i] = 0xFF
    for i in range(1, 13):
        KIND[0x60 | i] = <uint8_t>(i - 1)
    KIND[X_CARD] = KA_K_X
    KIND[DRAW_CARD] = KA_K_DRAW
    KIND[STOP_CARD] = KA_K_STOP
    for a in range(15):
        w[0] = kind_code(a)
        m = 0
        k = ka_window_combos(w, 1, 1, -1, buf)
        for i in range(k):
            m |= 1ULL << buf[i]
        WIN1[a] = m
        for b in range(15):
            w[1] = kind_code(b)
            m = 0
            k = ka_window_combos(w, 2, 1, -1, buf)
            for i in range(k):
                m |= 1ULL << buf[i]
            WIN2[a * 15 + b] = m
            for c in range(15):
                w[2] = kind_code(c)
                m = 0
                k = ka_window_combos(w, 3, 1, -1, buf)
                for i in range(k):
                    m |= 1ULL << buf[i]
                WIN3[(a * 15 + b) * 15 + c] = m
    for a in range(15):
        C1[a] = _single(WIN1[a], a == KA_K_X)
        for b in range(15):
            C2[a * 15 + b] = _single(WIN2[a * 15 + b], a == KA_K_X or b == KA_K_X)
            C2N[a * 15 + b] = _single(WIN2[a * 15 + b] & NO_TWO_STRAIGHTS, a == KA_K_X or b == KA_K_X)
            for c in range(15):
                C3[(a * 15 + b) * 15 + c] = _single(WIN3[(a * 15 + b) * 15 + c],
                                                    a == KA_K_X or b == KA_K_X or c == KA_K_X)


    for a in range(225):
        T2[a] = _best_type(WIN2[a])
        T2N[a] = _best_type(WIN2[a] & NO_TWO_STRAIGHTS)
    for a in range(3375):
        T3[a] = _best_type(WIN3[a])


cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil


cdef uint8_t _best_type(uint64_t m) noexcept nogil:
    if m == 0:
        return 0
    return <uint8_t>combo_type(63 - __builtin_clzll(m))


cdef int8_t _single(uint64_t m, bint has_x) noexcept nogil:
    if has_x:
        return -2
    if m == 0:
        return -1
    return <int8_t>__builtin_ctzll(m)

_init_window_tables()


cdef inline Py_ssize_t emit_plays(int32_t *out, Py_ssize_t cnt, int base, uint64_t m) noexcept nogil:
    """Appends base + c for every bit c of m.  The first store is branch-free (a window
    makes 0 or 1 combination unless it holds an X card): out[cnt] may be written past the
    list's end, which every caller's buffer (KA_NUM_ACTIONS) allows."""
    out[cnt] = base + __builtin_ctzll(m | (1ULL << 63))
    cnt += m != 0
    m &= m - 1
    while m:
        out[cnt] = base + __builtin_ctzll(m)
        cnt += 1
        m &= m - 1
    return cnt


cdef int ka_legal(const ka_state *s, int32_t *out) noexcept nogil:
    """The legal actions of s.to_act, ascending, written to out (at most KA_NUM_ACTIONS);
    returns how many (KA-9, KA-11, KA-12, KA-14)."""
    cdef int p, hn, st, k1, k2, q, slot, leading, nsp = 0, base, above, c
    cdef Py_ssize_t cnt = 0                     # 64-bit: no sign extension per store
    cdef uint64_t allowed
    cdef const int8_t *c2
    cdef const uint8_t *h
    cdef uint8_t spec[KA_MAX_HAND]
    if s.phase == KA_PH_OVER:
        return 0
    p = s.to_act
    hn = s.hand_n[p]
    h = s.hand[p]
    if s.phase == KA_PH_INSERT:
        for q in range(hn + 1):
            if q >= KA_MAX_HAND:
                break
            out[cnt] = KA_A_INSERT + q
            cnt += 1
        return <int>cnt
    leading = s.best_player < 0
    above = -1 if leading else s.best_combo
    allowed = (ALL_COMBOS if s.two_straight else NO_TWO_STRAIGHTS) & above_mask(above)
    if s.two_straight:
        c2 = &C2[0]
    else:
        c2 = &C2N[0]
    for st in range(hn):
        k1 = KIND[h[st]]
        if k1 >= KA_K_DRAW:
            spec[nsp] = <uint8_t>st
            nsp += 1
            continue
        base = KA_A_PLAY + st * KA_NUM_COMBOS
        c = C1[k1]
        if c == -2:
            cnt = emit_plays(out, cnt, base, WIN1[k1] & allowed)
        else:
            out[cnt] = base + c                     # branch-free: kept only if it beats
            cnt += c > above
        if st + 1 >= hn or KIND[h[st + 1]] >= KA_K_DRAW:
            continue
        k2 = k1 * 15 + KIND[h[st + 1]]
        c = c2[k2]
        if c == -2:
            cnt = emit_plays(out, cnt, base, WIN2[k2] & allowed)
        else:
            out[cnt] = base + c
            cnt += c > above
        if st + 2 >= hn:
            continue
        k2 = k2 * 15 + KIND[h[st + 2]]
        c = C3[k2]
        if c == -2:
            cnt = emit_plays(out, cnt, base, WIN3[k2] & allowed)
        else:
            out[cnt] = base + c
            cnt += c > above
    for q in range(nsp):
        if h[spec[q]] == STOP_CARD:
            out[cnt] = KA_A_STOP + spec[q]
            cnt += 1
    if not leading:
        for q in range(nsp):
            if h[spec[q]] == DRAW_CARD:
                out[cnt] = KA_A_DRAW + spec[q]
                cnt += 1
    # KA-9: a follower may always take a reserve card; a leader only when it cannot lead
    if (not leading or cnt == 0) and hn < KA_MAX_HAND:
        for slot in range(2):
            if s.reserve[p][slot] != NO_CARD:
                for q in range(hn + 1):
                    out[cnt] = KA_A_RESERVE + slot * KA_MAX_HAND + q
                    cnt += 1
    return cnt


cdef int ka_any_action(const ka_state *s) noexcept nogil:
    """Whether s.to_act has a legal action (the same rules as ka_legal, answered cheaply)."""
    cdef int p, hn, st, k1, k2
    cdef uint64_t allowed
    cdef const uint8_t *h
    if s.phase == KA_PH_OVER:
        return 0
    p = s.to_act
    hn = s.hand_n[p]
    h = s.hand[p]
    if s.phase == KA_PH_INSERT:
        return hn < KA_MAX_HAND
    if hn < KA_MAX_HAND and (s.reserve[p][0] != NO_CARD or s.reserve[p][1] != NO_CARD):
        return 1
    if s.best_player < 0:                       # a leader: any card but a Draw card
        for st in range(hn):
            if h[st] != DRAW_CARD:
                return 1
        return 0
    # a follower: a Stop or Draw card, or a combination that beats (one pass, first hit)
    allowed = (ALL_COMBOS if s.two_straight else NO_TWO_STRAIGHTS) & above_mask(s.best_combo)
    for st in range(hn):
        k1 = KIND[h[st]]
        if k1 >= KA_K_DRAW:
            return 1
        if WIN1[k1] & allowed:
            return 1
        if st + 1 >= hn:
            return 0
        k2 = KIND[h[st + 1]]
        if k2 >= KA_K_DRAW:
            return 1
        k2 += k1 * 15
        if WIN2[k2] & allowed:
            return 1
        if st + 2 < hn and WIN3[k2 * 15 + KIND[h[st + 2]]] & allowed:
            return 1
    return 0


cdef inline int has_action(const ka_state *s) noexcept nogil:
    return ka_any_action(s)


cdef inline int holders(const ka_state *s) noexcept nogil:
    cdef int i, n = 0
    for i in range(s.num_players):
        if s.hand_n[i] > 0:
            n += 1
    return n


cdef void ka_deal(ka_state *s, int leader, kz_events *ev) noexcept nogil:
    """KA-3: shuffle all 54 cards; deal the hands one card at a time round the table
    (position 0 is the first card each player gets), then 2 face-up reserve cards each;
    the rest is the draw pile.  The hand is led by `leader` (KA-4)."""
    cdef uint8_t deck[54]
    cdef int i, j, k = 0, n = s.num_players, v
    for v in range(1, 13):
        for j in range(4):
            deck[k] = <uint8_t>(0x60 | v)
            k += 1
    for j in range(2):
        deck[k] = X_CARD; deck[k + 1] = DRAW_CARD; deck[k + 2] = STOP_CARD
        k += 3
    kz_shuffle_u8(&s.rng, deck, KA_DECK)
    if s.hand_no < 0xFFFF:     # the counters saturate: a loaded state at the top stays serializable
        s.hand_no += 1
    s.trick_no = 0
    s.played_n = 0
    s.last_out = -1
    memset(s.known, 0, sizeof(s.known))
    memset(s.hand, NO_CARD, sizeof(s.hand))
    memset(s.pile, NO_CARD, sizeof(s.pile))
    memset(s.played, NO_CARD, sizeof(s.played))
    kz_ev_push(ev, EV_HAND_START, leader, s.hand_no, s.dealer)
    k = 0
    for j in range(s.deal_size):
        for i in range(n):
            s.hand[i][j] = deck[k]
            kz_ev_push(ev, EV_DEAL, i, deck[k], j)
            k += 1
    for i in range(KA_MAX_PLAYERS):
        s.hand_n[i] = s.deal_size if i < n else 0
        s.reserve[i][0] = NO_CARD
        s.reserve[i][1] = NO_CARD
    for j in range(2):
        for i in range(n):
            s.reserve[i][j] = deck[k]
            kz_ev_push(ev, EV_RESERVE_DEALT, i, deck[k], j)
            k += 1
    s.pile_n = <uint8_t>(KA_DECK - k)
    for j in range(KA_DECK - k):
        s.pile[j] = deck[k + j]
    ka_start_trick(s, leader, ev)


cdef void ka_end_hand(ka_state *s, int loser, int reason, kz_events *ev) noexcept nogil:
    """KA-14/KA-15: `loser` gives up a chip, or loses the game if it has none."""
    kz_ev_push(ev, EV_HAND_END, loser, reason, s.hand_no)
    s.prev_loser = <int8_t>loser
    if s.chips[loser] == 0:
        s.phase = KA_PH_OVER
        s.loser = <int8_t>loser
        s.to_act = -1
        kz_ev_push(ev, EV_GAME_OVER, loser, 0, 0)
        return
    s.chips[loser] -= 1
    kz_ev_push(ev, EV_CHIP, loser, s.chips[loser], 0)
    ka_deal(s, loser, ev)


cdef void ka_start_trick(ka_state *s, int leader, kz_events *ev) noexcept nogil:
    s.trick_n = 0
    memset(s.trick_player, -1, sizeof(s.trick_player))
    memset(s.trick_kind, 0, sizeof(s.trick_kind))
    memset(s.trick_combo, -1, sizeof(s.trick_combo))
    memset(s.trick_cards, NO_CARD, sizeof(s.trick_cards))
    s.best_player = -1
    s.second_player = -1
    s.best_combo = -1
    s.stop_played = 0
    s.draws_in_trick = 0
    s.pending = 0
    s.phase = KA_PH_PLAY
    s.leader = <int8_t>leader
    s.to_act = <int8_t>leader
    if s.trick_no < 0xFFFF:
        s.trick_no += 1
    kz_ev_push(ev, EV_TRICK_START, leader, s.trick_no, s.hand_no)
    if not has_action(s):
        ka_end_hand(s, leader, 1, ev)


cdef void ka_after_trick(ka_state *s, kz_events *ev) noexcept nogil:
    """After a trick and its draws: KA-14(a), else the next leader by KA-10."""
    cdef int w = s.best_player, n = s.num_players, i, q, nh = holders(s)
    if nh <= 1:
        q = -1
        for i in range(n):
            if s.hand_n[i] > 0:
                q = i
        if q < 0:
            q = s.last_out if s.last_out >= 0 else w
        ka_end_hand(s, q, 0, ev)
        return
    if s.hand_n[w] > 0:
        q = w
    elif s.second_player >= 0 and s.hand_n[s.second_player] > 0:
        q = s.second_player
    else:
        q = (w + 1) % n
        while s.hand_n[q] == 0:
            q = (q + 1) % n
    ka_start_trick(s, q, ev)


cdef void ka_resolve_trick(ka_state *s, kz_events *ev) noexcept nogil:
    """KA-10/KA-12: the trick is over; its winner first draws 3 cards per Draw card."""
    cdef int w = s.best_player, total = 3 * s.draws_in_trick
    if total > s.pile_n:
        total = s.pile_n
    kz_ev_push(ev, EV_TRICK_END, w, total, -1 if s.stop_played else s.best_combo)
    if total > 0:
        s.phase = KA_PH_INSERT
        s.to_act = <int8_t>w
        s.pending = <uint8_t>total
        return
    ka_after_trick(s, ev)


cdef void ka_advance(ka_state *s, kz_events *ev) noexcept nogil:
    """After a play that did not end the trick: the next player clockwise who holds cards
    acts, until the lap is back at the leader (KA-9); KA-14(a) and (b) end the hand."""
    cdef int n = s.num_players, q = s.to_act + 1, i, h
    if q == n:
        q = 0
    while q != s.leader and s.hand_n[q] == 0:
        q += 1
        if q == n:
            q = 0
    if q == s.leader:
        ka_resolve_trick(s, ev)
        return
    if s.draws_in_trick == 0 and holders(s) <= 1:
        h = -1
        for i in range(n):
            if s.hand_n[i] > 0:
                h = i
        if h < 0:
            h = s.last_out if s.last_out >= 0 else s.to_act
        ka_end_hand(s, h, 0, ev)
        return
    s.to_act = <int8_t>q
    if not has_action(s):
        ka_end_hand(s, q, 1, ev)


# A hand row (18 bytes, NO_CARD past hand_n) is shifted as three 64-bit words, without a
# loop whose length depends on the position (the random playouts mispredict those).
# MLO[pos]: the words' bits of bytes 0..pos-1.
cdef uint64_t MLO[KA_MAX_HAND + 2][3]


cdef void _init_masks() noexcept nogil:
    cdef int pos, w, b
    for pos in range(KA_MAX_HAND + 2):
        for w in range(3):
            b = pos - 8 * w                 # bytes of word w below pos
            if b <= 0:
                MLO[pos][w] = 0
            elif b >= 8:
                MLO[pos][w] = ~(<uint64_t>0)
            else:
                MLO[pos][w] = ((<uint64_t>1) << (8 * b)) - 1

_init_masks()
cdef uint16_t _ONE = 1
if (<uint8_t *>&_ONE)[0] != 1:
    raise ImportError("krass_kariert's hand shifts assume a little-endian machine")


cdef inline void row_load(const uint8_t *row, uint64_t *w) noexcept nogil:
    """w[0..3) = the row's 18 bytes, then NO_CARD."""
    cdef uint16_t t
    memcpy(&w[0], row, 8)
    memcpy(&w[1], row + 8, 8)
    memcpy(&t, row + 16, 2)
    w[2] = <uint64_t>t | 0xFFFFFFFFFFFF0000ULL


cdef inline void row_store(uint8_t *row, const uint64_t *w) noexcept nogil:
    cdef uint16_t t = <uint16_t>w[2]
    memcpy(row, &w[0], 8)
    memcpy(row + 8, &w[1], 8)
    memcpy(row + 16, &t, 2)


cdef inline void take_out(ka_state *s, int p, int pos, int ln, uint8_t *cards) noexcept nogil:
    """Removes hand cards pos..pos+ln of p into cards (NO_CARD-padded to 3); they join the
    played cards."""
    cdef uint64_t w[3]
    cdef uint64_t r[3]
    cdef int i, k, sh = 8 * ln
    cdef uint8_t c
    row_load(s.hand[p], w)
    for i in range(3):                          # cards = bytes pos..pos+2, NO_CARD from ln
        c = <uint8_t>(w[(pos + i) >> 3] >> (8 * ((pos + i) & 7)))
        cards[i] = c if i < ln else NO_CARD
    for i in range(ln):
        k = KIND[cards[i]]
        s.known[p][k] -= s.known[p][k] > 0
        s.played[s.played_n] = cards[i]
        s.played_n += 1
    # bytes below pos stay, the others come from ln bytes further (1 <= ln <= 3)
    r[0] = (w[0] & MLO[pos][0]) | (((w[0] >> sh) | (w[1] << (64 - sh))) & ~MLO[pos][0])
    r[1] = (w[1] & MLO[pos][1]) | (((w[1] >> sh) | (w[2] << (64 - sh))) & ~MLO[pos][1])
    r[2] = (w[2] & MLO[pos][2]) | ((w[2] >> sh) & ~MLO[pos][2])
    row_store(s.hand[p], r)
    s.hand_n[p] -= ln


cdef inline void put_in(ka_state *s, int p, int pos, uint8_t card) noexcept nogil:
    """Inserts card at position pos of p's hand (the hand has at most 17 cards)."""
    cdef uint64_t w[3]
    cdef uint64_t r[3]
    row_load(s.hand[p], w)
    r[0] = (w[0] & MLO[pos][0]) | ((w[0] << 8) & ~MLO[pos][0])
    r[1] = (w[1] & MLO[pos][1]) | (((w[1] << 8) | (w[0] >> 56)) & ~MLO[pos][1])
    r[2] = (w[2] & MLO[pos][2]) | (((w[2] << 8) | (w[1] >> 56)) & ~MLO[pos][2])
    row_store(s.hand[p], r)
    s.hand[p][pos] = card
    s.hand_n[p] += 1


cdef inline void trick_entry(ka_state *s, int p, int kind, int combo, const uint8_t *cards,
                             int n) noexcept nogil:
    cdef int t = s.trick_n, i
    if t >= KA_TRICK_MAX:
        return
    s.trick_player[t] = <int8_t>p
    s.trick_kind[t] = <uint8_t>kind
    s.trick_combo[t] = <int8_t>combo
    for i in range(3):                          # cards is NO_CARD-padded to 3
        s.trick_cards[t][i] = cards[i]
    s.trick_n = <uint8_t>(t + 1)


cdef int ka_apply(ka_state *s, int32_t a, kz_events *ev) noexcept nogil:
    """Applies a legal action of s.to_act (unchecked)."""
    cdef int p = s.to_act, pos, ln, c, slot
    cdef uint8_t cards[3]
    cdef uint8_t card
    if s.turn < 0xFFFFFFFFU:   # saturates, never wraps through 0
        s.turn += 1
    if a >= KA_A_INSERT:                                    # KA-12: insert a drawn card
        pos = a - KA_A_INSERT
        s.pile_n -= 1
        card = s.pile[s.pile_n]
        s.pile[s.pile_n] = NO_CARD
        put_in(s, p, pos, card)
        kz_ev_push(ev, EV_DRAWN, p, card, pos)
        s.pending -= 1
        if s.pending == 0:
            ka_after_trick(s, ev)
        return 0
    if a >= KA_A_RESERVE:                                   # KA-9: take a reserve card
        slot = (a - KA_A_RESERVE) // KA_MAX_HAND
        pos = (a - KA_A_RESERVE) % KA_MAX_HAND
        card = s.reserve[p][slot]
        s.reserve[p][slot] = NO_CARD
        put_in(s, p, pos, card)
        s.known[p][card_kind(card)] += 1
        kz_ev_push(ev, EV_TAKE_RESERVE, p, card, slot | (pos << 8))
        cards[0] = card
        cards[1] = NO_CARD
        cards[2] = NO_CARD
        trick_entry(s, p, KA_T_RESERVE, -1, cards, 1)
        if s.best_player < 0:                               # a leader with only Draw cards
            if not has_action(s):
                ka_end_hand(s, p, 1, ev)
            return 0
        ka_advance(s, ev)
        return 0
    if a >= KA_A_DRAW:                                      # KA-12: a Draw card
        pos = a - KA_A_DRAW
        take_out(s, p, pos, 1, cards)
        kz_ev_push(ev, EV_DRAW_CARD, p, DRAW_CARD, pos)
        trick_entry(s, p, KA_T_DRAW, -1, cards, 1)
        s.draws_in_trick += 1
        if s.hand_n[p] == 0:
            s.last_out = <int8_t>p
            kz_ev_push(ev, EV_OUT, p, s.hand_no, 0)
        ka_advance(s, ev)
        return 0
    if a >= KA_A_STOP:                                      # KA-11: a Stop card
        pos = a - KA_A_STOP
        take_out(s, p, pos, 1, cards)
        kz_ev_push(ev, EV_STOP, p, STOP_CARD, pos)
        trick_entry(s, p, KA_T_STOP, -1, cards, 1)
        s.stop_played = 1
        s.second_player = s.best_player
        s.best_player = <int8_t>p
        if s.hand_n[p] == 0:
            s.last_out = <int8_t>p
            kz_ev_push(ev, EV_OUT, p, s.hand_no, 0)
        ka_resolve_trick(s, ev)
        return 0
    pos = a // KA_NUM_COMBOS                                # KA-5..KA-8: a combination
    c = a % KA_NUM_COMBOS
    ln = combo_len(c)
    take_out(s, p, pos, ln, cards)
    kz_ev_push(ev, EV_PLAY, p, c, pos | (cards[0] << 8) | ((cards[1] if ln > 1 else 0) << 16)
               | ((cards[2] if ln > 2 else 0) << 24))
    trick_entry(s, p, KA_T_COMBO, c, cards, ln)
    s.second_player = s.best_player
    s.best_player = <int8_t>p
    s.best_combo = <int8_t>c
    if s.hand_n[p] == 0:
        s.last_out = <int8_t>p
        kz_ev_push(ev, EV_OUT, p, s.hand_no, 0)
    ka_advance(s, ev)
    return 0


cdef void ka_new_game(ka_state *s, uint64_t seed, kz_events *ev) noexcept nogil:
    """A new game in s, keeping its options (num_players, two_straight, chips_start,
    deal_size, dealer): chips handed out (KA-2), the first hand dealt and led by the seat
    left of the dealer (KA-4)."""
    cdef uint8_t n = s.num_players, ts = s.two_straight, cs = s.chips_start, ds = s.deal_size
    cdef int8_t dealer = s.dealer
    cdef int i
    cdef kz_rng keep = s.rng            # a taped generator stays taped (kz_rng_seed_state)
    memset(s, 0, sizeof(ka_state))
    s.rng = keep
    s.num_players = n
    s.two_straight = ts
    s.chips_start = cs
    s.deal_size = ds
    s.dealer = dealer
    kz_rng_seed_state(&s.rng, seed)
    for i in range(KA_MAX_PLAYERS):
        s.chips[i] = cs if i < n else 0
    s.loser = -1
    s.prev_loser = -1
    ka_deal(s, (dealer + 1) % n, ev)


# ------------------------------------------------------------------ determinize (inference.pxi)
include "inference.pxi"


# ------------------------------------------------------------------ heuristic (bots)
cdef int structure(const uint8_t *h, int n, int ts) noexcept nogil:
    """How much combination a hand holds: per window of 2-3 adjacent cards, the type of the
    best combination it makes (2-straight 1 .. triple 4)."""
    cdef int score = 0, st, k1, k2, k3, key
    cdef const uint8_t *t2 = &T2[0] if ts else &T2N[0]
    for st in range(n - 1):
        k1 = KIND[h[st]]
        k2 = KIND[h[st + 1]]
        if k1 >= KA_K_DRAW or k2 >= KA_K_DRAW:
            continue
        key = k1 * 15 + k2
        score += t2[key]
        if st + 2 < n:
            k3 = KIND[h[st + 2]]
            if k3 < KA_K_DRAW:
                score += T3[key * 15 + k3]
    return score


cdef int structure_with(const uint8_t *h, int n, int pos, uint8_t card, int ts) noexcept nogil:
    cdef uint8_t tmp[KA_MAX_HAND + 1]
    cdef int i, j = 0
    for i in range(n + 1):
        if i == pos:
            tmp[i] = card
        else:
            tmp[i] = h[j]
            j += 1
    return structure(tmp, n + 1, ts)


cdef int structure_without(const uint8_t *h, int n, int pos, int ln, int ts) noexcept nogil:
    cdef uint8_t tmp[KA_MAX_HAND]
    cdef int i, j = 0
    for i in range(n):
        if i < pos or i >= pos + ln:
            tmp[j] = h[i]
            j += 1
    return structure(tmp, j, ts)


cdef int32_t ka_heuristic(const void *vst, kz_rng *rng) noexcept nogil:
    """HeuristicBot's move (module docstring); reads only the actor's hand and public facts."""
    cdef const ka_state *s = <const ka_state *>vst
    cdef int32_t acts[KA_NUM_ACTIONS]
    cdef int n = ka_legal(s, acts), i, a, p, hn, base, pos, ln, c, xs, j
    cdef int leading, above, slot
    cdef const uint8_t *h
    cdef double cost, best = 1e18
    cdef int32_t best_a = -1
    if n <= 0:
        return -1
    p = s.to_act
    h = s.hand[p]
    hn = s.hand_n[p]
    base = structure(h, hn, s.two_straight)
    leading = s.best_player < 0
    above = s.best_combo
    for i in range(n):
        a = acts[i]
        if a >= KA_A_INSERT:
            cost = -structure_with(h, hn, a - KA_A_INSERT, s.pile[s.pile_n - 1], s.two_straight)
        elif a >= KA_A_RESERVE:
            slot = (a - KA_A_RESERVE) // KA_MAX_HAND
            pos = (a - KA_A_RESERVE) % KA_MAX_HAND
            cost = 6.0 - 2.0 * (structure_with(h, hn, pos, s.reserve[p][slot], s.two_straight) - base)
        elif a >= KA_A_DRAW:
            cost = -5.0 if hn == 1 else 3.0
        elif a >= KA_A_STOP:
            if leading:
                cost = 20.0
            else:
                cost = 2.0 if above >= 23 else 9.0
            if hn <= 2:
                cost -= 4.0
        else:
            pos = a // KA_NUM_COMBOS
            c = a % KA_NUM_COMBOS
            ln = combo_len(c)
            xs = 0
            for j in range(ln):
                if h[pos + j] == X_CARD:
                    xs += 1
            cost = 1.5 * (base - structure_without(h, hn, pos, ln, s.two_straight)) + 3.0 * xs - ln
            if leading:
                cost += c / 20.0
            else:
                cost += (c - above) / 6.0
            if ln == hn:
                cost -= 10.0
        cost += 0.01 * kz_uniform(rng)
        if cost < best:
            best = cost
            best_a = a
    return best_a


# ------------------------------------------------------------------ ops
cdef int ka_current_player(const void *vst) noexcept nogil:
    cdef const ka_state *s = <const ka_state *>vst
    return KZ_TERMINAL if s.phase == KA_PH_OVER else s.to_act

cdef int ka_legal_actions(const void *vst, int32_t *out) noexcept nogil:
    return ka_legal(<const ka_state *>vst, out)

cdef int ka_apply_action(void *vst, int32_t a, kz_events *ev) noexcept nogil:
    return ka_apply(<ka_state *>vst, a, ev)

cdef int ka_is_terminal(const void *vst) noexcept nogil:
    return (<const ka_state *>vst).phase == KA_PH_OVER

cdef int ka_num_players(const void *vst) noexcept nogil:
    return (<const ka_state *>vst).num_players

cdef void ka_returns(const void *vst, double *out) noexcept nogil:
    """KA-15: the loser 0.0, every other player 1.0; zeros while the game runs."""
    cdef const ka_state *s = <const ka_state *>vst
    cdef int p
    for p in range(s.num_players):
        out[p] = 0.0
    if s.phase == KA_PH_OVER:
        for p in range(s.num_players):
            out[p] = 0.0 if p == s.loser else 1.0

cdef extern from *:
    """#define CHIP_SPREAD 0.8"""
    const double CHIP_SPREAD    # chips: logistic scale of the chip counts in ka_evaluate

cdef int32_t ka_round_index(const void *vst) noexcept nogil:
    return (<const ka_state *>vst).hand_no

cdef void ka_evaluate(const void *vst, double *out) noexcept nogil:
    """Expected returns (KA-15) of an unfinished game, for search rollouts cut at the end of
    a hand: 1 - each player's chance to be the one who runs out of chips, taken as a softmax
    of the chip counts (KA-2, KA-14) with temperature ``CHIP_SPREAD`` (fewest chips: most
    likely to lose).  Terminal: ``ka_returns``."""
    cdef const ka_state *s = <const ka_state *>vst
    cdef double chips[KA_MAX_PLAYERS]
    cdef double lose[KA_MAX_PLAYERS]
    cdef int p
    if s.phase == KA_PH_OVER:
        ka_returns(vst, out)
        return
    for p in range(s.num_players):
        chips[p] = s.chips[p]
    kz_chance_lowest(chips, s.num_players, CHIP_SPREAD, lose)
    for p in range(s.num_players):
        out[p] = 1.0 - lose[p]

cdef void ka_determinize_op(void *vst, int player, kz_rng *rng) noexcept nogil:
    """A determinization in which the player to act can act: that they are asked to act
    is public (KA-14: a player who can't is out of the hand at once), so samples that leave
    them stuck are drawn again (rejection sampling, at most 64 draws)."""
    cdef ka_state saved
    cdef int32_t acts[KA_NUM_ACTIONS]
    cdef int t
    memcpy(&saved, vst, sizeof(ka_state))
    for t in range(64):
        ka_determinize(<ka_state *>vst, player, rng)
        if ka_is_terminal(vst) or ka_legal_actions(vst, acts) > 0:
            return
        memcpy(vst, &saved, sizeof(ka_state))
    ka_determinize(<ka_state *>vst, player, rng)

cdef void ka_new_game_op(void *vst, uint64_t seed) noexcept nogil:
    ka_new_game(<ka_state *>vst, seed, NULL)

cdef kz_ops KA_OPS
KA_OPS.game_id = "krass-kariert"
KA_OPS.state_size = sizeof(ka_state)
KA_OPS.num_distinct_actions = KA_NUM_ACTIONS
KA_OPS.max_legal = KA_NUM_ACTIONS
KA_OPS.max_players = KA_MAX_PLAYERS
KA_OPS.current_player = ka_current_player
KA_OPS.legal_actions = ka_legal_actions
KA_OPS.apply_action = ka_apply_action
KA_OPS.is_terminal = ka_is_terminal
KA_OPS.returns = ka_returns
KA_OPS.num_players = ka_num_players
KA_OPS.determinize = ka_determinize_op
KA_OPS.heuristic_action = ka_heuristic
KA_OPS.new_game = ka_new_game_op
KA_OPS.round_index = ka_round_index
KA_OPS.evaluate = ka_evaluate


# ------------------------------------------------------------------ public faces (frontends)
include "faces.pxi"


# ------------------------------------------------------------------ the one validator
include "validate.pxi"


cdef kz_ops *ka_ops() noexcept nogil:
    """The game's GameOps table (state.pyx's states point to it)."""
    return &KA_OPS


# ------------------------------------------------------------------ GameOps: tensor
include "tensor.pxi"

