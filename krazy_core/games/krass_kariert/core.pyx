# cython: language_level=3
"""KrassKariert (``krass-kariert``): fixed-order hands, combinations of 1-3 adjacent cards,
chips; rules KA-1 .. KA-15 (``krazy_core/games/krass_kariert/rules.md``).

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

Public faces for frontends: ``combination(cards, x_values=()) -> (type, value) | None``,
``beats(new, old) -> bool``, ``window_combinations(cards)`` (every way 1-3 adjacent cards,
X cards included, can be played), ``combination_index`` / ``combination_of_index``; on a
state, ``hand(p)`` (omniscient) and ``playable_windows(p)``.  ``simulate_random(game,
n_games, seed, policy="random")`` plays whole games in C without the GIL (benchmarks).

Event kinds (``raw_events()`` tuples ``(kind, player, a, b)``) are in ``EVENT_NAMES``; a
play's event packs ``b = start | c0 << 8 | c1 << 16 | c2 << 24`` (the cards, 0 for none).
"""

cimport cython
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

import time

import numpy as np

from krazy_core._ops cimport (kz_ops, kz_events, kz_rng, kz_rng_seed, kz_next, kz_bounded,
                              kz_chance_lowest,
                              kz_uniform, kz_shuffle_u8, kz_ev_push, KZ_TERMINAL)
from krazy_core._cards cimport SUIT_NUMBER, CARD_X, CARD_DRAW, CARD_STOP, NO_CARD
from krazy_core._state cimport State
from krazy_core._state import check_seed, _games_in_slices, state_from_bytes as _state_from_bytes
from krazy_core.cards import format_card, parse_card
from krazy_core.errors import ConfigError, IllegalActionError, InvalidStateError
from krazy_core.spec import GameSpec, Option, tensor_layout
from krazy_core._validate import c_int as _c_int, c_count as _c_count, action_int as _action_int

include "_ka_core.pxi"

EVENT_NAMES = {1: "hand_start", 2: "deal", 3: "reserve_dealt", 4: "play", 5: "stop",
               6: "draw_card", 7: "take_reserve", 8: "trick_end", 9: "drawn", 10: "out",
               11: "hand_end", 12: "chip", 13: "game_over", 14: "trick_start"}
PHASE_NAMES = {0: "play", 1: "insert", 2: "over"}
COMBINATION_TYPES = ("solo", "2-straight", "pair", "3-straight", "triple")
TRICK_KINDS = ("combination", "stop", "draw", "reserve")
NUM_ACTIONS = KA_NUM_ACTIONS
import re as _re
# the shape of every action_to_string text (lower case): only such a text is looked up among
# all 1116 names (a short form is not, which keeps reading one at a fraction of a millisecond)
_FULL_NAME = _re.compile(r"play \d+(?:-\d+)? (?:solo|2-straight|pair|3-straight|triple) \d+(?: \(x=[\d,]+\))?"
                         r"|stop \d+|draw \d+|reserve slot \d+ at \d+|insert at \d+")
NUM_COMBINATIONS = KA_NUM_COMBOS
MAX_HAND = KA_MAX_HAND
# observation_tensor, part by part (offsets in the code follow it)
TENSOR_LAYOUT = tensor_layout(("hand", 18 * 15), ("seats", 5 * 51), ("played", 15), ("trick_best", 57),
                              ("stop_played", 1), ("draws_in_trick", 2), ("insert", 2), ("drawn_card", 15),
                              ("pile_size", 1), ("seat_present", 5))
TENSOR_SIZE = sum(seg.size for seg in TENSOR_LAYOUT)     # 623
A_PLAY, A_STOP, A_DRAW, A_RESERVE, A_INSERT = KA_A_PLAY, KA_A_STOP, KA_A_DRAW, KA_A_RESERVE, KA_A_INSERT


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
                if h[pos + j] == CARD_X:
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

DEF CHIP_SPREAD = 0.8      # chips: logistic scale of the chip counts in ka_evaluate

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
def combination_index(str kind, value) -> int:
    """Index 0..56 of the combination ``(kind, value)`` (module table; ``kind`` one of
    ``COMBINATION_TYPES``, ``value`` the number or a straight's top card).  Raises
    ``ValueError`` for a combination that does not exist (e.g. a 3-straight topped by 2)."""
    value = _c_int(value, "value")
    if kind not in COMBINATION_TYPES:
        raise ValueError(f"combination type {kind!r} is not one of {COMBINATION_TYPES}")
    t = COMBINATION_TYPES.index(kind)
    lo = (1, 2, 1, 3, 1)[t]
    if not lo <= value <= 12:
        raise ValueError(f"a {kind} has a value in {lo}..12, got {value!r}")
    return (-1, 10, 22, 32, 44)[t] + value


def combination_of_index(c) -> tuple:
    """``(type, value)`` of combination index ``c`` (0..56).  Raises ``ValueError``."""
    c = _c_int(c, "c")
    if not 0 <= c < KA_NUM_COMBOS:
        raise ValueError(f"combination index {c!r} is outside 0..56")
    return (COMBINATION_TYPES[combo_type(c)], combo_value(c))


def _as_card(x):
    """A KrassKariert card code from a code, a number 1..12, or text ("7", "X")."""
    if isinstance(x, str):
        c = parse_card(x)
    elif isinstance(x, int) and not isinstance(x, bool):
        c = 0x60 | x if 1 <= x <= 12 else x
    else:
        raise ValueError(f"{x!r} is not a KrassKariert card")
    if not (0x61 <= c <= 0x6C or c in (CARD_X, CARD_DRAW, CARD_STOP)):
        raise ValueError(f"{x!r} is not a KrassKariert card (numbers 1..12, X, DRAW, STOP)")
    return c


def window_combinations(cards, bint two_straight=True, above=-1) -> list:
    """Every combination ``(type, value)`` that these 1-3 adjacent cards can be played as
    (KA-5, KA-6, KA-8: each X card may take any value), strongest last; only those that beat
    combination index ``above`` (KA-7).  Cards are codes, numbers 1..12 or text.  Empty for
    a Stop or Draw card among them.  Raises ``ValueError`` for other than 1-3 cards."""
    above = _c_int(above, "above")
    cdef uint8_t buf[3]
    cdef int8_t out[24]
    cdef int k, i
    codes = [_as_card(c) for c in cards]
    if not 1 <= len(codes) <= 3:
        raise ValueError(f"a combination has 1..3 cards, got {len(codes)}")
    for i, c in enumerate(codes):
        buf[i] = c
    k = ka_window_combos(buf, len(codes), two_straight, above, out)
    return [combination_of_index(out[i]) for i in range(max(k, 0))]


def combination(cards, x_values=(), bint two_straight=True):
    """The combination ``(type, value)`` these cards make, or ``None`` (KA-5, KA-6, KA-8).

    ``cards``: 1-3 cards (codes, numbers 1..12 or text like ``"7"``, ``"X"``), in any order
    (``8 10 9`` is a 3-straight of value 10).  ``x_values``: the value 1..12 chosen for each
    X card, in the order the X cards appear.  ``type`` is one of ``COMBINATION_TYPES``;
    ``value`` is the number, or a straight's top card.  Raises ``ValueError`` for a bad
    card, a wrong number of cards or of X values."""
    codes = [_as_card(c) for c in cards]
    if not 1 <= len(codes) <= 3:
        raise ValueError(f"a combination has 1..3 cards, got {len(codes)}")
    xs = list(x_values)
    if sum(1 for c in codes if c == CARD_X) != len(xs):
        raise ValueError(f"give one value per X card: {len(xs)} values for "
                         f"{sum(1 for c in codes if c == CARD_X)} X cards")
    vals = []
    for c in codes:
        if c == CARD_X:
            v = xs.pop(0)
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12:
                raise ValueError(f"an X card takes a value 1..12, got {v!r}")
            vals.append(0x60 | v)
        else:
            vals.append(c)
    found = window_combinations(vals, two_straight)
    return found[0] if found else None


def beats(new, old) -> bool:
    """Whether combination ``new`` beats ``old`` (KA-7): a higher type, whatever the
    numbers, or the same type and a strictly higher value.  Both are ``(type, value)``
    pairs; ``old=None`` (nothing to beat yet) is beaten by any combination.  Raises
    ``ValueError`` for a malformed combination."""
    if new is None:
        raise ValueError("new must be a combination (type, value)")
    a = combination_index(*new)
    if old is None:
        return True
    return a > combination_index(*old)


# ------------------------------------------------------------------ Python face
cdef inline ka_state *S(State s) except NULL:
    if s.data == NULL:                 # made without its factory: raise, never dereference
        s._not_ready()
    return <ka_state *>s.data


def _card_text(c):
    """Text of a card code, ``None`` for no card or a code outside the encoding (event
    payloads read from JSON are only range-checked)."""
    try:
        return format_card(c) if c != NO_CARD else None
    except ValueError:
        return None


def _combo_dict(c):
    if not 0 <= c < KA_NUM_COMBOS:
        return None
    return {"index": int(c), "type": COMBINATION_TYPES[combo_type(c)], "value": combo_value(c)}


def _x_values(cards, c):
    """The values the X cards among ``cards`` take in combination ``c``, in card order."""
    cdef int req[3]
    if not 0 <= c < KA_NUM_COMBOS:
        return []
    n = combo_required(c, req)
    need = [req[i] for i in range(n)]
    for x in cards:
        if x != CARD_X and (x & 15) in need:
            need.remove(x & 15)
    return sorted(need)


def _action_text(a):
    a = _c_int(a, "a")
    if not 0 <= a < KA_NUM_ACTIONS:
        raise ValueError(f"action {a!r} is outside [0, {KA_NUM_ACTIONS})")
    if a < KA_A_STOP:
        pos = (a) // KA_NUM_COMBOS
        c = (a) % KA_NUM_COMBOS
        ln = combo_len(c)
        where = f"{pos}" if ln == 1 else f"{pos}-{pos + ln - 1}"
        return f"play {where} {COMBINATION_TYPES[combo_type(c)]} {combo_value(c)}"
    if a < KA_A_DRAW:
        return f"stop {a - KA_A_STOP}"
    if a < KA_A_RESERVE:
        return f"draw {a - KA_A_DRAW}"
    if a < KA_A_INSERT:
        slot = (a - KA_A_RESERVE) // KA_MAX_HAND
        pos = (a - KA_A_RESERVE) % KA_MAX_HAND
        return f"reserve slot {slot} at {pos}"
    return f"insert at {a - KA_A_INSERT}"


cdef class KrassKariertState(State):
    """A KrassKariert state (see the module docstring for the action table)."""

    cdef State _blank(self):
        return KrassKariertState.__new__(KrassKariertState)

    def action_to_string(self, action) -> str:
        """``"play 3-4 pair 5"``, ``"play 0 solo 7"``, ``"stop 2"``, ``"draw 5"``,
        ``"reserve slot 1 at 0"`` (slot 0 or 1: which face-up reserve card; the short form
        ``"reserve 8 at 0"`` names the card instead), ``"insert at 4"``; a play holding X cards adds their values
        (``"play 2-3 pair 5 (X=5)"``) when the state's hand has them there.  Raises
        ``ValueError`` outside ``[0, 1116)``."""
        cdef ka_state *s = S(self)
        a = _action_int(action)              # ValueError, never OverflowError
        if not 0 <= a < KA_NUM_ACTIONS:
            raise ValueError(f"action {action!r} is outside [0, {KA_NUM_ACTIONS})")
        text = _action_text(a)
        if a < KA_A_STOP and s.phase == KA_PH_PLAY:
            pos = (a) // KA_NUM_COMBOS
            c = (a) % KA_NUM_COMBOS
            p = s.to_act
            ln = combo_len(c)
            if pos + ln <= s.hand_n[p]:
                cards = [s.hand[p][pos + i] for i in range(ln)]
                if CARD_X in cards:
                    text += " (X=" + ",".join(str(v) for v in self._x_values_of(cards, c)) + ")"
        return text

    def _x_values_of(self, cards, c):
        return _x_values(cards, c)

    def _actions_named(self, str want):
        """What ``string_to_action`` reads beyond the exact names: an ``action_to_string``
        text without its ``(X=..)`` part, or a short form (``"p3"``, ``"3-4"``, ``"3-4 pair"``,
        ``"pair 5"``, ``"stop"``, ``"draw"``, ``"reserve 8 at 2"``, ``"insert 4"``: see
        ``krazy_core.games.krass_kariert.notation``; ``UnclearActionError`` for one that fits
        several legal actions or no cards)."""
        if self.data == NULL: self._not_ready()
        hits = [a for a in self.legal_actions() if self.action_to_string(a).lower().split(" (x=")[0] == want]
        if hits:
            return hits
        if _FULL_NAME.fullmatch(want):              # the exact name of a move not legal now
            hits = State._actions_named(self, want)
            if hits:
                return hits
        from krazy_core.games.krass_kariert.notation import read_short_form
        a = read_short_form(self, want)
        if a is not None:
            return [a]
        return []

    def _explain_illegal(self, a):
        a = _c_int(a, "a")
        cdef ka_state *s = S(self)
        cdef int p = s.to_act, hn = 0
        if self.ops.is_terminal(self.data):         # no seat to act: nothing below may index by it
            return "the game is over"
        hn = s.hand_n[p]
        if not 0 <= a < KA_NUM_ACTIONS:                 # a caller's number: never index a table with it
            return f"action {a} is out of range [0, {KA_NUM_ACTIONS})"
        if s.phase == KA_PH_INSERT:
            return (f"player {p} must insert the drawn card at a position 0..{hn} first "
                    f"({s.pending} to insert, KA-12)")
        if a >= KA_A_INSERT:
            return "a drawn card is inserted only by a trick's winner after Draw cards (KA-12)"
        if a >= KA_A_RESERVE:
            slot = (a - KA_A_RESERVE) // KA_MAX_HAND
            pos = (a - KA_A_RESERVE) % KA_MAX_HAND
            if s.reserve[p][slot] == NO_CARD:
                return f"player {p} has no reserve card {slot} left"
            if pos > hn:
                return f"position {pos} is past the end of a hand of {hn} cards"
            return "the leader takes a reserve card only when it cannot lead (KA-9)"
        if a >= KA_A_STOP:
            pos = (a - KA_A_STOP) if a < KA_A_DRAW else (a - KA_A_DRAW)
            want = CARD_STOP if a < KA_A_DRAW else CARD_DRAW
            if pos >= hn or s.hand[p][pos] != want:
                return f"player {p} holds no {format_card(want)} card at position {pos}"
            return "a Draw card never leads a trick (KA-9)"
        pos = (a) // KA_NUM_COMBOS
        c = (a) % KA_NUM_COMBOS
        ln = combo_len(c)
        if pos + ln > hn:
            return f"positions {pos}..{pos + ln - 1} are past the end of a hand of {hn} cards"
        cards = [s.hand[p][pos + i] for i in range(ln)]
        kind = f"{COMBINATION_TYPES[combo_type(c)]} {combo_value(c)}"
        if not window_combinations(cards, s.two_straight):
            return f"the adjacent cards {' '.join(format_card(x) for x in cards)} are no combination (KA-5, KA-6)"
        if (kind, ) and combination_of_index(c) not in window_combinations(cards, s.two_straight):
            return f"the adjacent cards {' '.join(format_card(x) for x in cards)} are no {kind} (KA-6, KA-8)"
        if s.best_player >= 0:
            return (f"{kind} does not beat the trick's {COMBINATION_TYPES[combo_type(s.best_combo)]} "
                    f"{combo_value(s.best_combo)} (KA-7)")
        return "it is not among the legal actions"

    # -------------------------------------------------------- views
    def hand(self, player) -> list:
        """Card codes of ``player``'s hand in its fixed order (omniscient; frontends use
        ``observation``).  Raises ``ValueError`` for a bad seat."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef ka_state *s = S(self)
        self._seat(player)
        return [s.hand[player][i] for i in range(s.hand_n[player])]

    def _seat(self, player):
        cdef ka_state *s = S(self)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < s.num_players:
            raise ValueError(f"player {player!r} out of range 0..{s.num_players - 1}")

    def stats(self) -> dict:
        """``{"turns": int, "hands": int, "loser": int, "turn_limit": False}`` for ``krazy simulate``."""
        cdef ka_state *s = S(self)
        return {"turns": s.turn, "hands": s.hand_no, "loser": s.loser, "turn_limit": False}

    def playable_windows(self, player) -> list:
        """``[start, length]`` of every run of 1-3 adjacent cards in ``player``'s hand that
        could be played now (lead or beat), for marking them in a hand view; empty when
        ``player`` is not to act in the play phase.  Raises ``ValueError``."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef ka_state *s = S(self)
        self._seat(player)
        if s.phase != KA_PH_PLAY or s.to_act != player:
            return []
        out = set()
        for a in self.legal_actions():
            if a < KA_A_STOP:
                pos = (a) // KA_NUM_COMBOS
                c = (a) % KA_NUM_COMBOS
                out.add((pos, combo_len(c)))
        return [list(w) for w in sorted(out)]

    def _trick(self):
        cdef ka_state *s = S(self)
        out = []
        for t in range(s.trick_n):
            cards = [s.trick_cards[t][i] for i in range(3) if s.trick_cards[t][i] != NO_CARD]
            e = {"player": s.trick_player[t], "kind": TRICK_KINDS[s.trick_kind[t]],
                 "cards": cards, "cards_text": [format_card(c) for c in cards],
                 "combination": _combo_dict(s.trick_combo[t])}
            if s.trick_kind[t] == KA_T_COMBO:
                e["x_values"] = _x_values(cards, s.trick_combo[t])
            out.append(e)
        return out

    def _known(self, q):
        cdef ka_state *s = S(self)
        self._seat(q)                        # a seat of this table, or ValueError
        out = []
        for k in range(KA_KINDS):
            out.extend([0x61 + k if k < 12 else 0x70 + k - 12] * s.known[q][k])
        return out

    def observation(self, player) -> dict:
        """What ``player`` may see, JSON-ready: their own hand in its order (codes and
        text), the windows they can play now, every hand's size, everyone's face-up reserve
        cards (``None`` once taken) and chips, cards known to be in each hand (reserves taken),
        the current trick (who played what; no positions), its best combination, Draw cards
        in it, the cards played this hand, the draw pile's size, the drawn card to insert
        (only to its drawer), whose turn it is, hand and trick numbers, the loser.  Raises
        ``ValueError`` for a bad seat."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef ka_state *s = S(self)
        self._seat(player)
        n = s.num_players
        hand = [s.hand[player][i] for i in range(s.hand_n[player])]
        obs = {
            "game": "krass-kariert",
            "player": player,
            "num_players": n,
            "phase": PHASE_NAMES[s.phase],
            "current_player": ka_current_player(s),
            "hand": hand,
            "hand_text": [format_card(c) for c in hand],
            "playable": self.playable_windows(player),
            "hand_sizes": [s.hand_n[q] for q in range(n)],
            "reserves": [[None if s.reserve[q][i] == NO_CARD else s.reserve[q][i] for i in range(2)]
                         for q in range(n)],
            "chips": [s.chips[q] for q in range(n)],
            "known_cards": [self._known(q) for q in range(n)],
            "leader": s.leader,
            "trick": self._trick(),
            "best": None if s.best_player < 0 else {
                "player": s.best_player, "stop": bool(s.stop_played),
                "combination": _combo_dict(s.best_combo)},
            "draws_in_trick": s.draws_in_trick,
            "pending_draws": s.pending if s.phase == KA_PH_INSERT else 0,
            "drawn_card": (s.pile[s.pile_n - 1] if s.phase == KA_PH_INSERT and s.to_act == player
                           and s.pending > 0 else None),
            "played": [s.played[i] for i in range(s.played_n)],
            "pile_size": s.pile_n,
            "hand_no": s.hand_no,
            "trick_no": s.trick_no,
            "dealer": s.dealer,
            "chips_start": s.chips_start,
            "loser": s.loser,
            "terminal": s.phase == KA_PH_OVER,
        }
        if ka_current_player(s) == player:
            obs["legal_actions"] = self.legal_actions()
        return obs

    def observation_tensor(self, player):
        """``numpy.ndarray`` float32, shape ``(623,)``: own hand by position (18 x 15
        one-hot card kinds: numbers 1..12, X, Draw, Stop); per seat from ``player`` onward,
        5 x 51 (hand size / 18, reserves 2 x 15 one-hot, chips / chips_start, known cards
        per kind / 4, to act, leader, best play, holds cards; zeros for absent seats);
        cards played this hand per kind / 4 (15); the trick's best combination (57 one-hot),
        Stop played, Draw cards in it (2); insert phase, pending draws / 6, the drawn card if
        ``player`` draws it (15); pile size / 54; seat present (5).  Raises ``ValueError``."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef ka_state *s = S(self)
        self._seat(player)
        t = np.zeros(TENSOR_SIZE, dtype=np.float32)
        cdef float[::1] v = t
        ka_observation_tensor(s, player, &v[0])      # the GameOps writer: one definition of the segments
        return t

    def __str__(self):
        cdef ka_state *s = S(self)
        best = "-"
        if s.best_player >= 0:
            best = ("Stop" if s.stop_played else
                    f"{COMBINATION_TYPES[combo_type(s.best_combo)]} {combo_value(s.best_combo)}") + \
                   f" by {s.best_player}"
        lines = [f"KrassKariert hand {s.hand_no} trick {s.trick_no}, phase {PHASE_NAMES[s.phase]}, "
                 f"leader {s.leader}, best {best}, draws {s.draws_in_trick}, pile {s.pile_n}"]
        for p in range(s.num_players):
            mark = ">" if (p == s.to_act and s.phase != KA_PH_OVER) else " "
            res = " ".join(_card_text(s.reserve[p][i]) or "." for i in range(2))
            lines.append(f"{mark} seat {p} chips {s.chips[p]} reserve [{res}]: "
                         + " ".join(format_card(s.hand[p][i]) for i in range(s.hand_n[p])))
        if s.phase == KA_PH_OVER:
            lines.append(f"loser: {s.loser}")
        return "\n".join(lines)

    def _event_dict(self, kind, player, a, b, viewer):
        """One event as a dict; cards dealt or drawn are shown only to their owner, and the
        hand positions of plays and insertions only to their owner (the order is secret)."""
        name = EVENT_NAMES.get(kind, str(kind))
        d = {"event": name, "player": player}
        own = viewer == "all" or viewer == player
        if kind in (EV_DEAL, EV_DRAWN):
            d["card"] = a if own else None
            if own:
                d["card_text"] = _card_text(a)
            d["position"] = b if own else None
        elif kind == EV_RESERVE_DEALT:
            d["card"] = a
            d["card_text"] = _card_text(a)
            d["slot"] = b
        elif kind == EV_PLAY:
            cards = [(b >> 8) & 0xFF, (b >> 16) & 0xFF, (b >> 24) & 0xFF][:combo_len(a) if 0 <= a < KA_NUM_COMBOS else 0]
            d["combination"] = _combo_dict(a)
            d["cards"] = cards
            d["cards_text"] = [_card_text(c) for c in cards]
            d["x_values"] = _x_values(cards, a)
            d["position"] = (b & 0xFF) if own else None
        elif kind in (EV_STOP, EV_DRAW_CARD):
            d["card"] = a
            d["position"] = b if own else None
        elif kind == EV_TAKE_RESERVE:
            d["card"] = a
            d["card_text"] = _card_text(a)
            d["slot"] = b & 0xFF
            d["position"] = (b >> 8) if own else None
        elif kind == EV_TRICK_END:
            d["draws"] = a
            d["combination"] = _combo_dict(b)
            d["stop"] = b < 0
        elif kind == EV_HAND_START:
            d["hand"] = a
            d["dealer"] = b
        elif kind == EV_TRICK_START:
            d["trick"] = a
            d["hand"] = b
        elif kind == EV_OUT:
            d["hand"] = a
        elif kind == EV_HAND_END:
            d["reason"] = "only holder of cards (KA-14a)" if a == 0 else "could not act (KA-14b)"
            d["hand"] = b
        elif kind == EV_CHIP:
            d["chips"] = a
        return d

    # -------------------------------------------------------- JSON
    def _to_dict(self):
        cdef ka_state *s = S(self)
        n = s.num_players
        trick = []
        for t in range(s.trick_n):
            trick.append({"player": s.trick_player[t], "kind": TRICK_KINDS[s.trick_kind[t]],
                          "combination": s.trick_combo[t],
                          "cards": [s.trick_cards[t][i] for i in range(3) if s.trick_cards[t][i] != NO_CARD]})
        return {
            "rng": [s.rng.s[0], s.rng.s[1], s.rng.s[2], s.rng.s[3]],
            "phase": PHASE_NAMES[s.phase],
            "current_player": ka_current_player(s),
            "loser": s.loser,
            "dealer": s.dealer,
            "leader": s.leader,
            "best_player": s.best_player,
            "second_player": s.second_player,
            "best_combination": s.best_combo,
            "stop_played": bool(s.stop_played),
            "draws_in_trick": s.draws_in_trick,
            "pending": s.pending,
            "last_out": s.last_out,
            "prev_loser": s.prev_loser,
            "hands": [[s.hand[p][i] for i in range(s.hand_n[p])] for p in range(n)],
            "reserves": [[None if s.reserve[p][i] == NO_CARD else s.reserve[p][i] for i in range(2)]
                         for p in range(n)],
            "chips": [s.chips[p] for p in range(n)],
            "known": [[s.known[p][k] for k in range(KA_KINDS)] for p in range(n)],
            "pile": [s.pile[i] for i in range(s.pile_n)],
            "played": [s.played[i] for i in range(s.played_n)],
            "trick": trick,
            "hand_no": s.hand_no,
            "trick_no": s.trick_no,
            "turn": s.turn,
        }


# ------------------------------------------------------------------ construction
def chips_for(game) -> int:
    """Chips each player starts with (KA-2): option ``chips``, or 3 (2 with 5 players)."""
    c = game.options.chips
    if c:
        return c
    return 2 if game.num_players == 5 else 3


cdef int _set_options(ka_state *s, game) except -1:
    o = game.options
    if o.dealer >= game.num_players:
        raise ConfigError(f"option 'dealer' must be a seat 0..{game.num_players - 1}, got {o.dealer}")
    s.num_players = game.num_players
    s.two_straight = 1 if o.two_straight else 0
    s.chips_start = chips_for(game)
    s.deal_size = 7 if game.num_players == 5 else 10
    s.dealer = o.dealer
    return 0


def check_options(num_players, options):
    """KA-4: the dealer is a seat of this table.  Raises ``ConfigError``."""
    if options.dealer >= num_players:
        raise ConfigError(f"option 'dealer' must be a seat 0..{num_players - 1} at a table of "
                          f"{num_players}, got {options.dealer} (KA-4)")


def new_state(game, seed=None):
    """A new game dealt from ``seed`` (KA-1 .. KA-4).  Raises ``ConfigError`` for a
    ``dealer`` option beyond the table."""
    cdef KrassKariertState st = KrassKariertState.__new__(KrassKariertState)
    st._init(&KA_OPS, game)
    cdef ka_state *s = S(st)
    _set_options(s, game)
    ka_new_game(s, <uint64_t>check_seed(seed), st._writable_log())
    st.n_ev = st.log.ev.n
    return st


def simulate_random(game, n_games, seed=0, str policy="random") -> dict:
    """Plays ``n_games`` whole games of ``game`` (a ``krass-kariert`` Game) with uniformly
    random legal actions, in C without the GIL and through this module's own functions (no
    GameOps indirection); game ``i`` is dealt from ``seed + i``.  Returns ``{"games",
    "decisions", "seconds", "decisions_per_second"}`` like ``krazy_core._state.
    simulate_random``.  ``policy="heuristic"`` plays every seat with the C heuristic instead
    (what ISMCTS rollouts cost).  Raises ``ConfigError`` for another game, ``n_games < 1``
    or an unknown policy; ``KeyboardInterrupt`` on Ctrl-C (between two slices of games, as
    ``krazy_core._state.simulate_random``)."""
    cdef ka_state s
    cdef kz_rng rng
    cdef int32_t acts[KA_NUM_ACTIONS]
    cdef long long decisions = 0, g, g0, g1
    cdef int k
    cdef uint64_t base
    if getattr(game, "game_id", None) != "krass-kariert":
        raise ConfigError(f"simulate_random needs a krass-kariert game, got {game!r}")
    n_games = _c_count(n_games, "n_games")      # ConfigError, never OverflowError
    if policy not in ("random", "heuristic"):
        raise ConfigError(f"policy must be 'random' or 'heuristic', got {policy!r}")
    cdef bint heur = policy == "heuristic"
    memset(&s, 0, sizeof(ka_state))
    _set_options(&s, game)
    base = <uint64_t>check_seed(seed)
    kz_rng_seed(&rng, base ^ 0xA5A5A5A5DEADBEEFULL)
    t0 = time.perf_counter()
    for g0, g1 in _games_in_slices(n_games):     # Ctrl-C stops it between two slices
        with nogil:
            for g in range(g0, g1):
                ka_new_game(&s, base + <uint64_t>g, NULL)
                while s.phase != KA_PH_OVER:
                    if heur:
                        ka_apply(&s, ka_heuristic(&s, &rng), NULL)
                    else:
                        k = ka_legal(&s, acts)
                        ka_apply(&s, acts[kz_bounded(&rng, <uint32_t>k)], NULL)
                    decisions += 1
    dt = time.perf_counter() - t0
    return {"games": n_games, "decisions": decisions, "seconds": dt,
            "decisions_per_second": decisions / dt if dt > 0 else float("inf")}


def _probe_actions(hand, best_combo=-1, reserves=0, bint two_straight=True, bint insert=False):
    """For tests: ``(ka_any_action, ka_legal)`` of seat 0 holding ``hand`` (card codes) in a
    bare struct: leading when ``best_combo`` is -1, else following it; ``reserves`` (0..2)
    reserve cards; ``insert``: the insert phase.  Raises ``ValueError`` for a bad hand."""
    cdef ka_state s
    cdef int32_t acts[KA_NUM_ACTIONS]
    cdef int n, i
    best_combo, reserves = _c_int(best_combo, "best_combo"), _c_int(reserves, "reserves")
    if len(hand) > KA_MAX_HAND or not -1 <= best_combo < KA_NUM_COMBOS or not 0 <= reserves <= 2:
        raise ValueError("hand of at most 18 cards, best_combo -1..56, reserves 0..2")
    memset(&s, 0, sizeof(ka_state))
    memset(s.reserve, NO_CARD, sizeof(s.reserve))
    s.num_players = 3
    s.two_straight = two_straight
    s.phase = KA_PH_INSERT if insert else KA_PH_PLAY
    s.leader = 0 if best_combo < 0 else 1
    s.best_player = -1 if best_combo < 0 else 1
    s.best_combo = best_combo
    s.hand_n[0] = len(hand)
    for i, c in enumerate(hand):
        s.hand[0][i] = _as_card(c)
    for i in range(reserves):
        s.reserve[0][i] = 0x61
    n = ka_legal(&s, acts)
    return bool(ka_any_action(&s)), [acts[i] for i in range(n)]


include "_ka_json.pxi"


SPEC = GameSpec(
    game_id="krass-kariert",
    name="KrassKariert",
    min_players=3,
    max_players=5,
    default_players=4,
    options=(
        Option("two_straight", True, bool, "KA-6", "2-straights are combinations (between solo and pair)"),
        Option("chips", 0, int, "KA-2", "chips each player starts with; 0 = 3 (2 with 5 players)", lo=0, hi=9),
        Option("dealer", 0, int, "KA-4", "the seat that deals the first hand; the seat to its left leads",
               lo=0, hi=4),
    ),
    num_distinct_actions=KA_NUM_ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    state_from_bytes=_state_from_bytes,
    tensor_shape=lambda n: (TENSOR_SIZE,),
    tensor_layout=lambda n: TENSOR_LAYOUT,
    rules_file="games/krass_kariert/rules.md",
    check_options=check_options,
    summary="Climbing game with fixed-order hands: beat with 1-3 adjacent cards, keep your chips.",
)


# ------------------------------------------------------------------ GameOps: tensor
cdef void ka_observation_tensor(const void *vst, int player, float *v) noexcept nogil:
    """``State.observation_tensor(player)`` written to ``v`` (623 float32) without the GIL,
    for the vectorized env; the same segments, the same values (tests/test_envs_ops.py).
    KrassKariert has no turn cap: no truncation op."""
    cdef const ka_state *s = <const ka_state *>vst
    cdef int q, p, i, o, k, n
    n = s.num_players
    memset(v, 0, 623 * sizeof(float))
    for i in range(s.hand_n[player]):
        v[i * 15 + card_kind(s.hand[player][i])] = 1
    for q in range(n):
        p = (player + q) % n
        o = 270 + 51 * q
        v[o] = s.hand_n[p] / 18.0
        for i in range(2):
            if s.reserve[p][i] != NO_CARD:
                v[o + 1 + 15 * i + card_kind(s.reserve[p][i])] = 1
        v[o + 31] = s.chips[p] / <float>(s.chips_start if s.chips_start > 1 else 1)
        for k in range(KA_KINDS):
            v[o + 32 + k] = s.known[p][k] / 4.0
        v[o + 47] = 1 if (s.phase != KA_PH_OVER and s.to_act == p) else 0
        v[o + 48] = 1 if s.leader == p else 0
        v[o + 49] = 1 if s.best_player == p else 0
        v[o + 50] = 1 if s.hand_n[p] > 0 else 0
    o = 525
    for i in range(s.played_n):
        v[o + card_kind(s.played[i])] += 0.25
    o = 540
    if s.best_combo >= 0:
        v[o + s.best_combo] = 1
    v[o + 57] = s.stop_played
    if s.draws_in_trick >= 1:
        v[o + 58] = 1
    if s.draws_in_trick >= 2:
        v[o + 59] = 1
    o = 600
    if s.phase == KA_PH_INSERT:
        v[o] = 1
        v[o + 1] = s.pending / 6.0
        if s.to_act == player and s.pending > 0:
            v[o + 2 + card_kind(s.pile[s.pile_n - 1])] = 1
    v[617] = s.pile_n / 54.0
    for q in range(n):
        v[618 + q] = 1

KA_OPS.tensor_size = TENSOR_SIZE
KA_OPS.observation_tensor = ka_observation_tensor
