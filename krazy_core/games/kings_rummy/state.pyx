# cython: language_level=3
"""Kings Rummy's face (compiled as ``krazy_core.games.kings_rummy.state``): the State class
``KingsRummyState`` (observation, observation tensor, JSON dump and load, event texts, action
names, the explanation of a refused action), ``new_state`` and the loader ``state_from_dict``,
the option checks, the tensor layout and the names of events and phases.  It reads the struct
through ``core.pxd`` (cimport of ``.core``); the rules are all in ``core.pyx``; typed moves are
read by ``notation.py``."""

from libc.stdint cimport int32_t, uint8_t, uint64_t

import numpy as np

from krazy_core._ops cimport KZ_TERMINAL
from krazy_core._state cimport State
from krazy_core._state import check_seed
from krazy_core._validate import json_int as _int, json_ints as _ints
from krazy_core._validate import c_int as _c_int, action_int as _action_int
from krazy_core.games.melds.free cimport kz_meld_deadwood
from krazy_core._cards cimport JOKER
from krazy_core.games.kings_rummy.core cimport (
    KRState, MAXP, MAXH, NCARDS, NKIND, A_STOCK, A_TAKE, A_DISCARD, A_OUT, NUM_ACTIONS,
    KR_TENSOR_SIZE, PH_NONE, PH_DRAW, PH_DISCARD, EV_ROUND, EV_SHUFFLE, EV_DEAL, EV_UPCARD, EV_TURN,
    EV_DRAW, EV_TAKE, EV_DISCARD, EV_GO_OUT, EV_LAY, EV_ROUND_SCORE, EV_REBUILD, EV_TURN_LIMIT,
    EV_GAME_OVER, EV_LAST, KIND_CODE, CODE_KIND, hand_add, hand_count, final_round, set_rules, kr_start,
    deal_round, kr_legal_actions, kr_observation_tensor, kr_ops)
from krazy_core.cards import format_card
from krazy_core.errors import InvalidStateError, ConfigError
import krazy_core.games.kings_rummy.notation as _notation
from krazy_core.spec import tensor_layout

# observation_tensor, part by part (core.pyx's kr_observation_tensor writes it)
# the observation tensor (State.observation_tensor; core's kr_observation_tensor writes it), from
# the viewer's seat; a card block has one entry per kind: the 55 suited kinds suit*11 + rank-3, then the Joker
TENSOR_LAYOUT = tensor_layout(
    ("hand", 56, "own hand: count of each kind / 2"),
    ("top_card", 56, "the discard pile's top card, one-hot by kind"),
    ("discard_pile", 56, "the discard pile: count of each kind / 2"),
    ("known_cards", 7 * 56, "cards known to be in each hand, seats from the viewer onward: 7 x 56, "
                            "count of each kind / 2"),
    ("seats", 7 * 4, "per seat from the viewer onward, 7 x 4: hand size / 14, total score / 500, "
                     "to act, laid down"),
    ("round", 11, "the round, 11 one-hot"),
    ("phase", 2, "the turn's step, one-hot: draw, discard"),
    ("went_out", 1, "someone went out this round"),
    ("stock_size", 1, "cards in the stock / 116"),
    ("turn", 1, "turn / max_turns"))
TENSOR = sum(seg.size for seg in TENSOR_LAYOUT)     # 604 = KR_TENSOR_SIZE (core.pxd)
if TENSOR != KR_TENSOR_SIZE:
    raise ImportError(f"kings_rummy: TENSOR_LAYOUT sums to {TENSOR}, the core writes {KR_TENSOR_SIZE}")

EVENT_NAMES = {1: "round", 2: "shuffle", 3: "deal", 4: "up_card", 5: "turn", 6: "draw",
               7: "take_discard", 8: "discard", 9: "go_out", 10: "lay_down", 11: "round_score",
               12: "stock_rebuilt", 13: "turn_limit", 14: "game_over"}
PHASE_NAMES = {0: "over", 1: "draw", 2: "discard"}
if max(EVENT_NAMES) != EV_LAST:
    raise ImportError("kings_rummy: EVENT_NAMES does not end at the core's last event kind")

# notation.py (pure Python) names the action ids and kinds: they must be the core's
if (_notation.DRAW, _notation.TAKE, _notation.DISCARD, _notation.GO_OUT, _notation.NUM_KINDS,
        _notation.NUM_ACTIONS) != (A_STOCK, A_TAKE, A_DISCARD, A_OUT, NKIND, NUM_ACTIONS):
    raise ImportError("kings_rummy: notation's action ids differ from core.pxd's")


cdef int _notation_kind(int c):
    try:
        return _notation.card_kind(c)
    except ValueError:
        return -1


if [_notation_kind(c) for c in range(128)] != [CODE_KIND[c] for c in range(128)]:
    raise ImportError("kings_rummy: notation.card_kind differs from the core's CODE_KIND")


cdef inline KRState *S(State s) except NULL:
    if s.data == NULL:                 # made without its factory: raise, never dereference
        s._not_ready()
    return <KRState *>s.data


def _txt(c):
    return format_card(c)


cdef list _hand_list(const KRState *st, int p):
    return [st.hand[p][i] for i in range(st.n_hand[p])]


cdef class KingsRummyState(State):
    """A Kings Rummy state (the action table: ``core.pyx``'s docstring, named in the
    package: ``krazy_core.games.kings_rummy.DRAW`` ...)."""

    cdef State _blank(self):
        return <State>KingsRummyState.__new__(KingsRummyState)   # no type test: a State subclass

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
        """What ``string_to_action`` reads beyond the exact names: the short forms of
        ``notation.py`` (``d``, ``t``, a card alone, ``out QR``), else the base reading."""
        if self.data == NULL: self._not_ready()
        named = _notation.actions_named(self, low)           # the parsing: notation.py
        return State._actions_named(self, low) if named is None else named

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
    s._init(kr_ops(), game)
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


# the full 116-card deck's census {code: copies} (KR-1); filled here, once: the package
# re-exports the name, so it must never be rebound
FULL_DECK = {KIND_CODE[k]: 2 for k in range(55)}
FULL_DECK[JOKER] = 6


def _full_deck():
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
    s._init(kr_ops(), game)
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
    # counters bounded by the rounds behind this one (at a bound the loader took
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
