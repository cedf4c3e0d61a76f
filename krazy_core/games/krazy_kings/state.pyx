# cython: language_level=3
"""Krazy Kings' face (compiled as ``krazy_core.games.krazy_kings.state``): the State class
``KrazyKingsState`` (observation, observation tensor, JSON dump and load, event texts, action
names, the explanation of a refused action), ``new_state`` and the loader ``state_from_dict``,
the tensor layout and the names of events, phases and draw reasons.  It reads the struct
through ``core.pxd`` (cimport of ``.core``); the rules are all in ``core.pyx``; typed moves are
read by ``notation.py``."""

from libc.stdint cimport int32_t, uint8_t, uint64_t

import numpy as np

from krazy_core._ops cimport kz_popcount64, KZ_TERMINAL
from krazy_core._state cimport State
from krazy_core.games.krazy_kings.core cimport (
    KKState, MAXP, NIDX, A_JOKER, A_ANNOUNCE, A_ROLL, A_CW, A_CCW, NUM_ACTIONS, JOKER_CODE,
    KK_TENSOR_SIZE, PH_NONE, PH_R1, PH_R2, PH_R2_ROLLED, PH_CHALLENGED, PH_OPEN, PH_DIRECTION,
    EV_SHUFFLE, EV_DEAL_ROLL, EV_DEAL, EV_TURN, EV_ROLL, EV_PLAY, EV_DRAW, EV_CHALLENGE,
    EV_CHALLENGE_MET, EV_CHALLENGE_FAILED, EV_OPEN_ROLL, EV_REVERSE, EV_ROLLOFF_DIE,
    EV_ROLLOFF_WIN, EV_DIRECTION, EV_REBUILD, EV_ROUND_ONE, EV_CAUGHT, EV_TURN_LIMIT, EV_LAST,
    IDX_TO_CODE, CODE_TO_IDX, KINGS, JOKERS, KK_BEL_REC, BEL_CARD, BEL_PHASE, BEL_D1, BEL_D2,
    BEL_TOP, BEL_SIZE, BEL_NEXT, BEL_MINOPP,
    kk_ops, kk_new_game, kk_deal, kk_legal_actions, kk_legal_cards, kk_add_card,
    kk_observation_tensor)

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

from krazy_core._state import check_seed
from krazy_core.cards import format_card
from krazy_core.errors import InvalidStateError
import krazy_core.games.krazy_kings.notation as _notation
from krazy_core.spec import tensor_layout
from krazy_core._validate import c_int as _c_int, json_int as _int, action_int as _action_int

# observation_tensor, part by part (offsets in the code below follow it)
# the observation tensor (State.observation_tensor; core's kk_observation_tensor writes it), from
# the viewer's seat; a card index is suit*13 + rank-1 (suits S H D C, A=1 .. K=13), 52 and 53 the Jokers
TENSOR_LAYOUT = tensor_layout(
    ("hand", 54, "own hand: 1 per card held, by card index"),
    ("top_card", 54, "the discard pile's top card, one-hot by card index"),
    ("discard_pile", 54, "cards in the discard pile: 1 per card index (a second Joker at 53)"),
    ("seats", 5 * 3, "per seat from the viewer onward, 5 x 3: hand size / 54, Round Two flag (KK-7), "
                     "to act; zeros for absent seats"),
    ("direction", 1, "direction of play: 1 clockwise, -1 counter-clockwise (KK-14)"),
    ("roll", 12, "the decision's roll: the two dice, 2 x 6 one-hot (none: zeros)"),
    ("open_roll", 12, "the open roll (KK-12), 2 x 6 one-hot (none: zeros)"),
    ("phase", 7, "the decision, 7 one-hot (PHASE_NAMES; zeros when the game is over)"),
    ("challenge", 1, "a King's challenge is pending (KK-11)"),
    ("stock_size", 1, "cards in the stock / 54"),
    ("turn", 1, "turns begun / max_turns (KK-20)"),
    ("terminal", 1, "the game is over"),
    ("unused", 6, "always 0"))
TENSOR = sum(seg.size for seg in TENSOR_LAYOUT)     # 219 = KK_TENSOR_SIZE (core.pxd)
if TENSOR != KK_TENSOR_SIZE:
    raise ImportError(f"krazy_kings: TENSOR_LAYOUT sums to {TENSOR}, the core writes {KK_TENSOR_SIZE}")

EVENT_NAMES = {1: "shuffle", 2: "deal_roll", 3: "deal", 4: "turn", 5: "roll", 6: "play",
               7: "draw", 8: "pass", 9: "challenge", 10: "challenge_met", 11: "challenge_failed",
               12: "open_roll", 13: "reverse", 14: "rolloff_die", 15: "rolloff_win",
               16: "direction", 17: "stock_rebuilt", 18: "round_one", 19: "last_card",
               20: "caught", 21: "win", 22: "turn_limit", 23: "king_only"}
PHASE_NAMES = {0: "over", 1: "round_one", 2: "round_two", 3: "round_two_rolled",
               4: "challenged", 5: "open_roll", 6: "direction"}
DOUBLES = ("all", "challenge_only", "never")
# draw reasons (b of a draw event)
DRAW_REASONS = {0: "failed roll", 1: "challenge met", 2: "challenge failed", 3: "open roll",
                4: "roll-off", 5: "caught", 6: "roll-off turn"}
if (_notation.DISCARD_JOKER, _notation.ANNOUNCE, _notation.ROLL, _notation.CLOCKWISE,
        _notation.COUNTER_CLOCKWISE, _notation.NUM_ACTIONS) != (A_JOKER, A_ANNOUNCE, A_ROLL, A_CW, A_CCW, NUM_ACTIONS):
    raise ImportError("krazy_kings: notation's action ids differ from core.pxd's")
if max(EVENT_NAMES) != EV_LAST:
    raise ImportError("krazy_kings: EVENT_NAMES does not end at the core's last event kind")


cdef inline int popcount(uint64_t x) noexcept nogil:
    return kz_popcount64(x)


cdef inline KKState *S(State s) except NULL:
    if s.data == NULL:                 # made without its factory: raise, never dereference
        s._not_ready()
    return <KKState *>s.data


def _cards_of(mask):
    """Card codes of a hand mask (bits 0..53), ascending.  Raises ``ValueError`` for a bit
    beyond the deck (2**54 and up, 2**64 and up too) or a negative mask; ``TypeError`` for
    a non-integer."""
    import operator
    m = operator.index(mask)
    if m < 0 or m >> NIDX:
        raise ValueError(f"mask {m:#x} is not a set of the {NIDX} cards of the deck")
    cdef uint64_t h = m
    out = []
    while h:
        i = __builtin_ctzll(h)
        out.append(IDX_TO_CODE[i])
        h &= h - 1
    return out


def _mask_cards(mask):
    """Card codes of an inference mask, ascending, the Joker once (its two bits go together).
    Raises ``ValueError`` as ``_cards_of`` does."""
    import operator
    return _cards_of(operator.index(mask) & ~((<object>1) << 53))


def _action_card(a):
    a = _c_int(a, "a")
    if a >= A_ANNOUNCE and a < A_ROLL:
        a -= A_ANNOUNCE
    return IDX_TO_CODE[a] if 0 <= a <= 52 else None


cdef class KrazyKingsState(State):
    """A Krazy Kings state (see the module docstring for the action table)."""

    cdef State _blank(self):
        return <State>KrazyKingsState.__new__(KrazyKingsState)   # no type test: a State subclass

    def determinize(self, player, seed=None):
        """``State.determinize``: a full state sampled to agree with everything ``player``
        has seen, the public inferences included.  Unlike the search's scratch worlds, the
        State returned keeps tracking the inferences as play goes on (its ``to_json()``
        stays valid and it equals its JSON round trip).  Raises ``ValueError`` for a bad
        seat."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef KrazyKingsState c = State.determinize(self, player, seed)
        S(c).untracked = 0
        return c

    def _untracked_determinization(self, player, seed=None):
        """FOR TESTS ONLY: ``determinize`` as the search sees it, still untracked, so that
        apply_action leaves the inference fields alone (its JSON may be stale)."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        c = State.determinize(self, player, seed)
        return c

    def _tracks_inference(self) -> bool:
        """Whether apply_action updates the inference fields (True for every State but
        ``_untracked_determinization``'s)."""
        return not S(self).untracked

    def action_to_string(self, action) -> str:
        """``"play K♠"``, ``"play 7♥ last card"``, ``"roll"``, ``"clockwise"``,
        ``"counter-clockwise"``.  Raises ``ValueError`` outside ``[0, 109)``."""
        a = _action_int(action)              # ValueError, never OverflowError
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action {action!r} is outside [0, {NUM_ACTIONS})")
        if a == A_ROLL:
            return "roll"
        if a == A_CW:
            return "clockwise"
        if a == A_CCW:
            return "counter-clockwise"
        text = "play " + format_card(_action_card(a))
        if a >= A_ANNOUNCE:
            text += " last card"
        return text

    def _actions_named(self, str low):
        """What ``string_to_action`` reads beyond the exact names: a card alone (``"QS"``,
        ``"Q♠"``, ``"JK"``, ``"play qs"``; ``"!"`` or ``" last card"`` after it announces).
        A card alone whose play leaves one card announces last card when that is legal (KK-19:
        nobody means to be caught); only the exact name ``"play Q♠"`` or the action number
        plays it unannounced."""
        if self.data == NULL: self._not_ready()
        got = _notation.actions_named(self, low)          # the parsing: notation.py
        return State._actions_named(self, low) if got is None else got

    def _explain_illegal(self, a):
        a = _c_int(a, "a")
        cdef KKState *st = S(self)
        if self.ops.is_terminal(self.data):         # no seat to act: nothing below may index by it
            return "the game is over"
        if st.phase == PH_DIRECTION:
            return "the roll-off winner must choose a direction (clockwise or counter-clockwise)"
        if a == A_CW or a == A_CCW:
            return "a direction is chosen only after winning a roll-off (KK-16)"
        if a == A_ROLL:
            return "rolling by choice needs may_roll_when_able and a Round Two turn (KK-8)"
        i = a - A_ANNOUNCE if a >= A_ANNOUNCE else a
        if a >= A_ANNOUNCE and (popcount(st.hand[st.cur]) != 2 or not st.opt_last_card):
            return "'last card' is announced only by a play that leaves exactly one card (KK-19)"
        bit = (1 << i) | ((1 << 53) if i == 52 else 0)
        if not (st.hand[st.cur] & bit):
            return f"player {st.cur} does not hold {format_card(IDX_TO_CODE[i])}"
        if i < 52 and (KINGS >> i) & 1 and popcount(st.hand[st.cur]) == 1:
            return "a King can never be the last card (KK-13)"
        if st.phase == PH_CHALLENGED:
            return f"a challenge is answered only by a card matching {st.d1}+{st.d2} (KK-11)"
        if st.phase == PH_OPEN:
            return f"the open roll {st.d1}+{st.d2} must be matched (KK-12)"
        if st.phase == PH_R1:
            return f"in Round One a discard must match the roll {st.d1}+{st.d2}, or be a King or a Joker (KK-6)"
        if st.phase == PH_R2_ROLLED:
            return f"after rolling, only a card matching {st.d1}+{st.d2} may be discarded (KK-8)"
        return "in Round Two a play must match the top card's rank or suit, or be a King or a Joker (KK-7, KK-10, KK-15)"

    # -------------------------------------------------------- views
    def hand(self, player) -> list:
        """Card codes in ``player``'s hand, ascending (omniscient; frontends use ``observation``)."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef KKState *st = S(self)
        return _cards_of(st.hand[player])

    def census(self) -> list:
        """Every card of the game, wherever it is (hands, stock, discard pile), sorted: for
        conservation checks (KK-1)."""
        cdef KKState *st = S(self)
        out = []
        for p in range(st.num_players):
            out += _cards_of(st.hand[p])
        out += [st.stock[i] for i in range(st.n_stock)]
        out += [st.discard[i] for i in range(st.n_discard)]
        return sorted(out)

    def stats(self) -> dict:
        """``{"turns": int, "turn_limit": bool, "winner": int}`` for ``krazy simulate``."""
        cdef KKState *st = S(self)
        return {"turns": st.turns, "turn_limit": bool(st.turn_limit), "winner": st.winner}

    def observation(self, player) -> dict:
        """What ``player`` may see, JSON-ready: their own hand (card codes and text), every
        hand's size, the discard pile (bottom first, public), the stock size, the phase of
        play, the dice the decision is about, the open roll (KK-12), a pending challenge,
        each seat's Round One/Two rules, the direction (+1 clockwise), whose turn it is,
        the turn count, the winner (-1 none).  Raises ``ValueError`` for a bad seat."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef KKState *st = S(self)
        hand = _cards_of(st.hand[player])
        top = st.discard[st.n_discard - 1] if st.n_discard else None
        obs = {
            "game": "krazy-kings",
            "player": player,
            "num_players": st.num_players,
            "hand": hand,
            "hand_text": [format_card(c) for c in hand],
            "hand_sizes": [popcount(st.hand[p]) for p in range(st.num_players)],
            "top_card": top,
            "top_card_text": format_card(top) if top is not None else None,
            "discard_pile": [st.discard[i] for i in range(st.n_discard)],
            "stock_size": st.n_stock,
            "current_player": st.cur,
            "phase": PHASE_NAMES[st.phase],
            "roll": [st.d1, st.d2] if st.d1 else None,
            "open_roll": [st.open_d1, st.open_d2] if st.open_d1 else None,
            "challenger": st.challenger if st.challenger >= 0 else None,
            "round_two": [bool(st.round_two[p]) for p in range(st.num_players)],
            "inference_cards": [_mask_cards(st.inf_mask[p]) for p in range(st.num_players)],
            "inference_count": [st.inf_n[p] for p in range(st.num_players)],
            "stock_from": _mask_cards(st.stock_from),
            "direction": st.direction,
            "dealer": st.dealer,
            "turn": st.turns,
            "max_turns": st.opt_max_turns,
            "winner": st.winner,
            "terminal": st.phase == PH_NONE,
        }
        if st.cur == player:
            obs["legal_actions"] = self.legal_actions()
        return obs

    def __str__(self):
        cdef KKState *st = S(self)
        top = format_card(st.discard[st.n_discard - 1]) if st.n_discard else "-"
        lines = [f"Krazy Kings, turn {st.turns}, top {top}, stock {st.n_stock}, "
                 f"{'clockwise' if st.direction > 0 else 'counter-clockwise'}, phase {PHASE_NAMES[st.phase]}"
                 + (f", roll {st.d1}+{st.d2}" if st.d1 else "")
                 + (f", open roll {st.open_d1}+{st.open_d2}" if st.open_d1 else "")]
        for p in range(st.num_players):
            mark = ">" if p == st.cur else " "
            lines.append(f"{mark} seat {p} ({'R2' if st.round_two[p] else 'R1'}): "
                         + " ".join(format_card(c) for c in _cards_of(st.hand[p])))
        if st.phase == PH_NONE:
            lines.append(f"winner: {st.winner}" if st.winner >= 0 else "ended by max_turns")
        return "\n".join(lines)

    def _event_dict(self, kind, player, a, b, viewer):
        name = EVENT_NAMES.get(kind, str(kind))
        d = {"event": name, "player": player}
        if kind in (EV_DEAL, EV_DRAW):
            seen = viewer == "all" or viewer == player
            d["card"] = a if seen else None
            if seen:
                d["card_text"] = format_card(a)
            if kind == EV_DRAW:
                d["reason"] = DRAW_REASONS.get(b, b)
        elif kind in (EV_DEAL_ROLL, EV_ROLL, EV_CHALLENGE, EV_OPEN_ROLL, EV_CAUGHT):
            d["dice"] = [a, b]
        elif kind == EV_PLAY:
            d["card"] = a
            d["card_text"] = format_card(a)
            d["announced"] = bool(b)
        elif kind == EV_CHALLENGE_MET:
            d["card"] = a
            d["card_text"] = format_card(a)
            d["challenger"] = b
        elif kind == EV_CHALLENGE_FAILED:
            d["draws"] = a
            d["challenger"] = b
        elif kind in (EV_REVERSE, EV_DIRECTION):
            d["direction"] = a
        elif kind == EV_ROLLOFF_DIE:
            d["die"] = a
            d["round"] = b
        elif kind == EV_ROLLOFF_WIN:
            d["die"] = a
            d["joker_player"] = b
        elif kind == EV_SHUFFLE or kind == EV_REBUILD:
            d["cards"] = a
        elif kind == EV_TURN:
            d["turn"] = a
        elif kind == EV_TURN_LIMIT:
            d["turns"] = a
        elif kind == EV_ROUND_ONE:
            d["reason"] = "stock rebuilt (KK-18)" if a == 1 else "roll-off (KK-16)"
        return d

    # -------------------------------------------------------- JSON
    def _to_dict(self):
        cdef KKState *st = S(self)
        return {
            "rng": [st.rng.s[0], st.rng.s[1], st.rng.s[2], st.rng.s[3]],
            "hands": [_cards_of(st.hand[p]) for p in range(st.num_players)],
            "stock": [st.stock[i] for i in range(st.n_stock)],
            "discard": [st.discard[i] for i in range(st.n_discard)],
            "dealer": st.dealer,
            "current_player": st.cur,
            "phase": PHASE_NAMES[st.phase],
            "direction": st.direction,
            "roll": [st.d1, st.d2],
            "open_roll": [st.open_d1, st.open_d2],
            "challenger": st.challenger,
            "challenge_roll": [st.ch_d1, st.ch_d2],
            "rolloff_rolls": st.rolloff_rolls,
            "pending_reverse": st.pending_reverse,
            "turns": st.turns,
            "winner": st.winner,
            "turn_limit": bool(st.turn_limit),
            "round_two": [bool(st.round_two[p]) for p in range(st.num_players)],
            "inference_cards": [_mask_cards(st.inf_mask[p]) for p in range(st.num_players)],
            "inference_count": [st.inf_n[p] for p in range(st.num_players)],
            "stock_from": _mask_cards(st.stock_from),
            "belief_records": [[_record_json(st.bel_rec[p][j]) for j in range(st.bel_n[p])]
                               for p in range(st.num_players)],
        }


# ------------------------------------------------------------------ construction
cdef void _set_options(KKState *st, game):
    o = game.options
    st.num_players = game.num_players
    st.dealer = o.dealer
    st.opt_free_reroll = o.free_reroll
    st.opt_may_roll = o.may_roll_when_able
    st.opt_doubles = DOUBLES.index(o.doubles_reverse)
    st.opt_jokers = 1 if o.jokers == "rolloff" else 0
    st.opt_last_card = o.last_card_call
    st.opt_max_turns = o.max_turns


def new_state(game, seed=None):
    """A new game dealt from ``seed`` (KK-1, KK-3, KK-4)."""
    cdef KrazyKingsState s = KrazyKingsState.__new__(KrazyKingsState)
    s._init(kk_ops(), game)
    cdef KKState *st = S(s)
    _set_options(st, game)
    kk_new_game(st, <uint64_t>check_seed(seed))
    kk_deal(st, s._writable_log())
    s.n_ev = s.log.ev.n
    return s




def _pair(body, key, lo, hi):
    v = body[key]
    if not isinstance(v, list) or len(v) != 2 or any(type(x) is not int or not lo <= x <= hi for x in v):
        raise InvalidStateError(f"{key!r} must be two ints in {lo}..{hi}, got {v!r}")
    if (v[0] == 0) != (v[1] == 0):
        raise InvalidStateError(f"{key!r} has one die and not the other: {v!r}")
    return v


def _card_list(v, what, limit):
    if not isinstance(v, list) or len(v) > limit:
        raise InvalidStateError(f"{what} must be a list of at most {limit} card codes")
    for c in v:
        if type(c) is not int or not 0 <= c < 128 or CODE_TO_IDX[c] < 0:
            raise InvalidStateError(f"{what} holds {c!r}, not a card of this deck")
    return v


cdef _load_inference(KKState *st, cards, counts, int n):
    """The public inference fields: per seat a list of distinct card codes of this deck (the
    Joker at most once: it stands for both) and a count 0 .. hand size."""
    cdef uint64_t m
    cdef int i
    if not isinstance(cards, list) or len(cards) != n:
        raise InvalidStateError(f"'inference_cards' must be {n} lists of card codes")
    if not isinstance(counts, list) or len(counts) != n or any(type(x) is not int for x in counts):
        raise InvalidStateError(f"'inference_count' must be {n} ints")
    for p in range(n):
        m = _load_mask(st, cards[p], f"'inference_cards' of seat {p}")
        if not 0 <= counts[p] <= popcount(st.hand[p]):
            raise InvalidStateError(f"'inference_count' of seat {p} must be 0..{popcount(st.hand[p])} "
                                    f"(the hand size), got {counts[p]!r}")
        st.inf_mask[p] = m
        st.inf_n[p] = counts[p]


cdef dict _record_json(uint64_t r):
    """One belief record (KKState.bel_rec, BEL_* in core.pxd) as JSON: a discard with its
    decision's public context, or ``{"drew": k}``."""
    if (r >> BEL_PHASE) & 7 == 0:
        return {"drew": <int>(r & 63)}
    top1 = (r >> BEL_TOP) & 63
    return {"card": IDX_TO_CODE[(r >> BEL_CARD) & 63], "phase": PHASE_NAMES[(r >> BEL_PHASE) & 7],
            "roll": [(r >> BEL_D1) & 7, (r >> BEL_D2) & 7],
            "top_card": IDX_TO_CODE[top1 - 1] if top1 else None,
            "hand_size": (r >> BEL_SIZE) & 63, "next_size": (r >> BEL_NEXT) & 63,
            "min_other": (r >> BEL_MINOPP) & 63}


cdef int _load_records(KKState *st, v, int n) except -1:
    """``belief_records``: per seat at most KK_BEL_REC records (``_record_json``'s forms);
    kk_validate checks their ranges."""
    cdef int p, j
    cdef uint64_t r
    inv = {name: k for k, name in PHASE_NAMES.items()}
    keys = {"card", "phase", "roll", "top_card", "hand_size", "next_size", "min_other"}
    if not isinstance(v, list) or len(v) != n or any(not isinstance(x, list) for x in v):
        raise InvalidStateError(f"'belief_records' must be {n} lists")
    for p in range(n):
        if len(v[p]) > KK_BEL_REC:
            raise InvalidStateError(f"'belief_records' of seat {p} holds at most {KK_BEL_REC} records")
        for j, rec in enumerate(v[p]):
            what = f"belief record {j} of seat {p}"
            if isinstance(rec, dict) and set(rec) == {"drew"}:
                st.bel_rec[p][j] = <uint64_t>_int(rec, "drew", 1, 63)
                continue
            if not isinstance(rec, dict) or set(rec) != keys:
                raise InvalidStateError(f"{what} must be {{'drew': count}} or an object with keys {sorted(keys)}")
            try:
                card = _card_list([rec["card"]], "'card'", 1)[0]
                if card == JOKER_CODE and not st.opt_jokers:
                    raise InvalidStateError("'card' is a Joker; this deck has none")
                top = rec["top_card"]
                top1 = 0 if top is None else CODE_TO_IDX[_card_list([top], "'top_card'", 1)[0]] + 1
                if top == JOKER_CODE and not st.opt_jokers:
                    raise InvalidStateError("'top_card' is a Joker; this deck has none")
                ph = rec["phase"]
                if not isinstance(ph, str) or inv.get(ph, 0) not in (PH_R1, PH_R2, PH_R2_ROLLED, PH_CHALLENGED, PH_OPEN):
                    raise InvalidStateError(f"'phase' must be a decision's phase, got {ph!r}")
                d1, d2 = _pair(rec, "roll", 0, 6)
                sizes = [_int(rec, "hand_size", 1, NIDX), _int(rec, "next_size", 0, NIDX),
                         _int(rec, "min_other", 0, NIDX)]
            except InvalidStateError as e:
                raise InvalidStateError(f"{what}: {e}") from None
            r = (<uint64_t>CODE_TO_IDX[card] << BEL_CARD | <uint64_t>inv[ph] << BEL_PHASE
                 | <uint64_t>d1 << BEL_D1 | <uint64_t>d2 << BEL_D2 | <uint64_t>top1 << BEL_TOP
                 | <uint64_t>sizes[0] << BEL_SIZE | <uint64_t>sizes[1] << BEL_NEXT
                 | <uint64_t>sizes[2] << BEL_MINOPP)
            st.bel_rec[p][j] = r
        st.bel_n[p] = len(v[p])
    return 0


cdef uint64_t _load_mask(KKState *st, v, what) except? 0:
    """A card set as distinct card codes of this deck, the Joker at most once (both bits)."""
    cdef uint64_t m = 0
    cdef int i
    for c in _card_list(v, what, 53):
        i = CODE_TO_IDX[c]
        if i == 52 and not st.opt_jokers:
            raise InvalidStateError(f"{what} names a Joker; this deck has none")
        if (m >> i) & 1:
            raise InvalidStateError(f"{what} names {c!r} twice")
        m |= (JOKERS if i == 52 else (1ULL << i))
    return m


def state_from_dict(game, body, events):
    """Rebuild a state from ``to_json()``'s body, checking every field and that the deck
    is exactly conserved.  Raises ``InvalidStateError``."""
    cdef KrazyKingsState s = KrazyKingsState.__new__(KrazyKingsState)
    s._init(kk_ops(), game)
    cdef KKState *st = S(s)
    cdef int32_t buf[NUM_ACTIONS]
    _set_options(st, game)
    n = game.num_players
    expected = set(body)
    want = {"rng", "hands", "stock", "discard", "dealer", "current_player", "phase", "direction",
            "roll", "open_roll", "challenger", "challenge_roll", "rolloff_rolls",
            "pending_reverse", "turns", "winner", "turn_limit", "round_two"}
    optional = {"inference_cards", "inference_count", "stock_from"}   # absent in older saves
    if expected & optional and not optional <= expected:
        raise InvalidStateError("'inference_cards', 'inference_count' and 'stock_from' come together")
    expected -= optional | {"belief_records"}                           # absent in older saves
    if expected != want:
        raise InvalidStateError(f"state fields differ: missing {sorted(want - expected)}, unknown {sorted(expected - want)}")
    rng = body["rng"]
    if not isinstance(rng, list) or len(rng) != 4 or any(type(x) is not int or not 0 <= x < 2 ** 64 for x in rng) \
            or not any(rng):
        raise InvalidStateError("'rng' must be four unsigned 64-bit ints, not all zero")
    for i in range(4):
        st.rng.s[i] = rng[i]
    hands = body["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise InvalidStateError(f"'hands' must be {n} lists")
    deck = {}
    for p in range(n):
        for c in _card_list(hands[p], f"hand {p}", 54):
            kk_add_card(st, p, c)
            deck[c] = deck.get(c, 0) + 1
    stock = _card_list(body["stock"], "'stock'", 54)
    discard = _card_list(body["discard"], "'discard'", 54)
    for c in stock + discard:
        deck[c] = deck.get(c, 0) + 1
    full = {IDX_TO_CODE[i]: 1 for i in range(52)}
    if st.opt_jokers:
        full[JOKER_CODE] = 2
    if deck != full:
        raise InvalidStateError("the cards in hands, stock and discard pile are not exactly one deck (KK-1)")
    for p in range(n):
        if popcount(st.hand[p]) != len(hands[p]):
            raise InvalidStateError(f"hand {p} holds a card twice")
    st.n_stock = len(stock)
    for i, c in enumerate(stock):
        st.stock[i] = c
    st.n_discard = len(discard)
    for i, c in enumerate(discard):
        st.discard[i] = c
    st.dealer = _int(body, "dealer", 0, n - 1)
    if st.dealer != game.options.dealer:
        raise InvalidStateError("'dealer' differs from the game's option")
    phase = body["phase"]
    inv = {v: k for k, v in PHASE_NAMES.items()}
    if not isinstance(phase, str) or phase not in inv:
        raise InvalidStateError(f"'phase' must be one of {sorted(inv)}, got {phase!r}")
    st.phase = inv[phase]
    st.direction = body["direction"]
    if type(body["direction"]) is not int or st.direction not in (1, -1):
        raise InvalidStateError("'direction' must be 1 or -1")
    st.d1, st.d2 = _pair(body, "roll", 0, 6)
    st.open_d1, st.open_d2 = _pair(body, "open_roll", 0, 6)
    st.ch_d1, st.ch_d2 = _pair(body, "challenge_roll", 0, 6)
    st.challenger = _int(body, "challenger", -1, n - 1)
    st.rolloff_rolls = _int(body, "rolloff_rolls", 0, 3)
    st.pending_reverse = _int(body, "pending_reverse", 0, 1)
    st.turns = _int(body, "turns", 0, st.opt_max_turns)
    st.winner = _int(body, "winner", -1, n - 1)
    tl = body["turn_limit"]
    if type(tl) is not bool:
        raise InvalidStateError("'turn_limit' must be true or false")
    st.turn_limit = tl
    r2 = body["round_two"]
    if not isinstance(r2, list) or len(r2) != n or any(type(x) is not bool for x in r2):
        raise InvalidStateError(f"'round_two' must be {n} booleans")
    for p in range(n):
        st.round_two[p] = r2[p]
    if "inference_cards" in body:
        _load_inference(st, body["inference_cards"], body["inference_count"], n)
        st.stock_from = _load_mask(st, body["stock_from"], "'stock_from'")
    if "belief_records" in body:
        _load_records(st, body["belief_records"], n)
    if st.phase == PH_NONE:
        st.cur = _int(body, "current_player", KZ_TERMINAL, KZ_TERMINAL)
        if (st.winner >= 0) == bool(st.turn_limit):
            raise InvalidStateError("a finished game has either a winner or the turn limit")
        if st.winner >= 0 and st.hand[st.winner] != 0:
            raise InvalidStateError("the winner still holds cards")
    else:
        st.cur = _int(body, "current_player", 0, n - 1)
        if st.winner != -1 or st.turn_limit:
            raise InvalidStateError("a running game has no winner")
        for p in range(n):
            if st.hand[p] == 0:
                raise InvalidStateError(f"seat {p} holds no cards but the game is running")
        if st.phase in (PH_R1, PH_R2_ROLLED, PH_CHALLENGED, PH_OPEN) and st.d1 == 0:
            raise InvalidStateError(f"phase {phase!r} needs a roll")
        if st.phase == PH_CHALLENGED and (st.challenger < 0 or st.ch_d1 == 0 or st.challenger == st.cur):
            raise InvalidStateError("a challenged player needs a challenger and a challenge roll")
        if st.phase == PH_OPEN and st.open_d1 == 0:
            raise InvalidStateError("phase 'open_roll' needs an open roll")
        if st.phase not in (PH_CHALLENGED, PH_DIRECTION) and st.challenger >= 0:
            raise InvalidStateError("a challenge is pending but the challenged player is not to act")
        st.playable = kk_legal_cards(st)
        if kk_legal_actions(st, buf) == 0:
            raise InvalidStateError("the player to act has no legal action")
    s._load_events(events, max_kind=max(EVENT_NAMES))
    return s
