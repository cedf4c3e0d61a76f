# cython: language_level=3
"""KrassKariert's layout contract (``krazy_core.games.krass_kariert``, rules KA-1 .. KA-15):
the constants, the event kinds, the state struct with every field's meaning, unit and range,
the small inline helpers both modules use, and the cdef functions of ``core.pyx`` that
``state.pyx`` calls.

Card codes are those of ``krazy_core/_cards.pxd``: numbers 1..12 are ``0x61..0x6C``, X is
``0x70``, Draw ``0x71``, Stop ``0x72``, an empty slot ``0xFF``.  A card *kind* (used for
counts) is 0..11 for the numbers 1..12, 12 for X, 13 for Draw, 14 for Stop.
"""
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from krazy_core._ops cimport kz_ops, kz_rng, kz_events

cdef enum:
    KA_MAX_PLAYERS = 5
    KA_MAX_HAND = 18        # cards: 10 dealt + 2 reserves + 6 drawn (two Draw cards, KA-12)
    KA_DECK = 54            # KA-1
    KA_KINDS = 15           # card kinds (numbers 1..12, X, Draw, Stop)
    KA_K_X = 12
    KA_K_DRAW = 13
    KA_K_STOP = 14
    KA_NUM_COMBOS = 57      # combination index 0..56, ordered by strength (KA-6, KA-7)
    KA_TRICK_MAX = 8        # entries of one trick: one lap (<= 5) + a leader's reserve takes
    # the flat action table (module docstring)
    KA_A_PLAY = 0           # + start * 57 + combination          (0 .. 1025)
    KA_A_STOP = 1026        # + position of the Stop card          (1026 .. 1043)
    KA_A_DRAW = 1044        # + position of the Draw card          (1044 .. 1061)
    KA_A_RESERVE = 1062     # + slot * 18 + insert position        (1062 .. 1097)
    KA_A_INSERT = 1098      # + insert position of a drawn card    (1098 .. 1115)
    KA_NUM_ACTIONS = 1116
    KA_TENSOR = 623         # float32s in an observation tensor (state.TENSOR_LAYOUT)
    # phases
    KA_PH_PLAY = 0          # to_act plays (lead or follow) in the current trick
    KA_PH_INSERT = 1        # to_act (the trick's winner) inserts drawn cards (KA-12)
    KA_PH_OVER = 2          # the game is over (KA-15)
    # kinds of a trick entry
    KA_T_COMBO = 0
    KA_T_STOP = 1
    KA_T_DRAW = 2
    KA_T_RESERVE = 3

# event kinds: raw_events() tuples (kind, player, a, b); state.EVENT_NAMES names them
cdef enum:
    EV_HAND_START = 1       # (leader, hand_no, dealer of the first hand)
    EV_DEAL = 2             # (player, card, position)          card private to player
    EV_RESERVE_DEALT = 3    # (player, card, slot)              public (KA-3)
    EV_PLAY = 4             # (player, combination, start | c0<<8 | c1<<16 | c2<<24); start private
    EV_STOP = 5             # (player, card STOP, position)     position private (KA-11)
    EV_DRAW_CARD = 6        # (player, card DRAW, position)     position private (KA-12)
    EV_TAKE_RESERVE = 7     # (player, card, slot | position<<8)  position private (KA-9)
    EV_TRICK_END = 8        # (winner, cards the winner must draw, best combination or -1 for Stop)
    EV_DRAWN = 9            # (player, card, position)          private (KA-12)
    EV_OUT = 10             # (player, hand_no, 0): played their last card (KA-13)
    EV_HAND_END = 11        # (loser, reason 0 = only holder of cards / 1 = could not act, hand_no)
    EV_CHIP = 12            # (player, chips left, 0) (KA-14)
    EV_GAME_OVER = 13       # (loser, 0, 0) (KA-15)
    EV_TRICK_START = 14     # (leader, trick_no, hand_no) (KA-4, KA-10)
    EV_LAST = 14            # the highest event kind

cdef struct ka_state:
    kz_rng rng                          # the state's own PRNG (shuffles), 32 bytes
    uint8_t num_players                 # 3..5
    uint8_t two_straight                # option two_straight (KA-6): 2-straights exist
    uint8_t chips_start                 # chips each player starts the game with (KA-2)
    uint8_t deal_size                   # hand cards dealt: 10, or 7 with 5 players (KA-3)
    uint8_t phase                       # KA_PH_*
    int8_t loser                        # the seat that lost the game, -1 while running (KA-15)
    int8_t dealer                       # dealer of the game's first hand (seat n-1)
    int8_t leader                       # seat that leads the current trick
    int8_t to_act                       # seat to act (the drawer in KA_PH_INSERT)
    int8_t best_player                  # seat of the trick's best play so far (combo or Stop), -1
    int8_t second_player                # seat of the play the best one beat (KA-10), -1
    int8_t best_combo                   # combination index of the best combination, -1
    uint8_t stop_played                 # 1 once a Stop card ended the trick (KA-11)
    uint8_t draws_in_trick              # Draw cards played in the current trick (KA-12)
    uint8_t pending                     # drawn cards still to insert by to_act (KA_PH_INSERT)
    int8_t last_out                     # seat that most recently played its last card, -1
    int8_t prev_loser                   # seat that lost a chip in the previous hand, -1
    uint8_t hand_n[5]                   # cards in each hand
    uint8_t hand[5][18]                 # hand cards in their fixed order; position 0 first
    uint8_t reserve[5][2]               # face-up reserve cards, 0xFF once taken (KA-3)
    uint8_t chips[5]                    # chips left (KA-2, KA-15)
    uint8_t known[5][15]                # per seat and kind: cards everyone knows are in that
                                        #   hand (reserves taken and not played since)
    uint8_t pile_n                      # cards in the face-down draw pile
    uint8_t pile[54]                    # draw pile; the top card is pile[pile_n - 1]
    uint8_t played_n                    # cards played in this hand (public)
    uint8_t played[54]                  # in order of play; the current trick's are the last
    uint8_t trick_n                     # entries of the current trick
    int8_t trick_player[8]              # seat of each entry
    uint8_t trick_kind[8]               # KA_T_* of each entry
    int8_t trick_combo[8]               # combination index (KA_T_COMBO), else -1
    uint8_t trick_cards[8][3]           # cards of the entry (0xFF-padded); the taken reserve
    uint16_t hand_no                    # hands dealt so far (1 during the first hand)
    uint16_t trick_no                   # tricks started in this hand (1 during the first)
    uint32_t turn                       # actions applied in the whole game

# ------------------------------------------------------------------ small helpers (inline, here so both modules inline them)
cdef inline int card_kind(uint8_t c) noexcept nogil:
    """0..11 for numbers 1..12, 12 X, 13 Draw, 14 Stop."""
    if (c >> 4) == 6:
        return (c & 15) - 1
    return 12 + (c & 15)


cdef inline int combo_len(int c) noexcept nogil:
    """Cards in combination c: 1 (solo), 2 (2-straight, pair) or 3 (3-straight, triple)."""
    if c < 12:
        return 1
    if c < 35:
        return 2
    return 3


cdef inline int combo_type(int c) noexcept nogil:
    """0 solo, 1 2-straight, 2 pair, 3 3-straight, 4 triple (KA-6)."""
    if c < 12:
        return 0
    if c < 23:
        return 1
    if c < 35:
        return 2
    if c < 45:
        return 3
    return 4


cdef inline int combo_value(int c) noexcept nogil:
    """The number of a solo/pair/triple; the top card of a straight."""
    if c < 12:
        return c + 1
    if c < 23:
        return c - 10
    if c < 35:
        return c - 22
    if c < 45:
        return c - 32
    return c - 44


cdef inline int combo_required(int c, int *req) noexcept nogil:
    """The numbers combination c is made of (writes combo_len(c) values)."""
    cdef int t = combo_type(c), v = combo_value(c)
    if t == 0:
        req[0] = v
        return 1
    if t == 1:
        req[0] = v - 1; req[1] = v
        return 2
    if t == 2:
        req[0] = v; req[1] = v
        return 2
    if t == 3:
        req[0] = v - 2; req[1] = v - 1; req[2] = v
        return 3
    req[0] = v; req[1] = v; req[2] = v
    return 3


# ------------------------------------------------------------------ core.pyx's functions that state.pyx calls
cdef int ka_legal(const ka_state *s, int32_t *out) noexcept nogil      # legal actions, ascending (KA-9..KA-14)
cdef int ka_any_action(const ka_state *s) noexcept nogil               # 1 when to_act has a legal action
cdef int ka_apply(ka_state *s, int32_t action, kz_events *ev) noexcept nogil   # unchecked; ev may be NULL
cdef void ka_new_game(ka_state *s, uint64_t seed, kz_events *ev) noexcept nogil  # KA-1..KA-4 from the options set
cdef int ka_window_combos(const uint8_t *cards, int n, int two_straight, int above,
                          int8_t *out) noexcept nogil                   # combinations > above of 1..3 cards
cdef int ka_current_player(const void *vst) noexcept nogil             # ops.current_player
cdef void ka_observation_tensor(const void *vst, int player, float *v) noexcept nogil  # KA_TENSOR floats
cdef int ka_set_options(ka_state *s, game) except -1                   # the game's options into a zeroed struct
# the GameOps table of the game (filled at core's import; state.pyx's states point to it)
cdef kz_ops *ka_ops() noexcept nogil
