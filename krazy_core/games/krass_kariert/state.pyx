# cython: language_level=3
"""KrassKariert's Python face (``krazy_core.games.krass_kariert.state``): the State class
(observation, observation tensor, JSON load/dump, event texts, action names, the reading of
a typed move through ``notation.py``), the loaders, and the tables that name the
core's numbers (``EVENT_NAMES``, ``PHASE_NAMES``, ``TRICK_KINDS``, ``TENSOR_LAYOUT``, the
action ranges ``A_*``).  The rules are ``core.pyx`` (cimported through ``core.pxd``); this
module is compiled at -O2 (the search and the playouts never call it)."""
from libc.stdint cimport uint64_t
from libc.string cimport memset

import numpy as np

from krazy_core._ops cimport KZ_TERMINAL
from krazy_core._cards cimport X_CARD, DRAW_CARD, STOP_CARD, NO_CARD
from krazy_core._state cimport State
from krazy_core._state import check_seed
from krazy_core.games.krass_kariert.core cimport *
from krazy_core.games.krass_kariert.core import COMBINATION_TYPES, combination_of_index, window_combinations
from krazy_core.cards import format_card
from krazy_core.errors import ConfigError, InvalidStateError
from krazy_core.spec import tensor_layout
from krazy_core._validate import c_int as _c_int, action_int as _action_int
import krazy_core.games.krass_kariert.notation as _notation

EVENT_NAMES = {1: "hand_start", 2: "deal", 3: "reserve_dealt", 4: "play", 5: "stop",
               6: "draw_card", 7: "take_reserve", 8: "trick_end", 9: "drawn", 10: "out",
               11: "hand_end", 12: "chip", 13: "game_over", 14: "trick_start"}
PHASE_NAMES = {0: "play", 1: "insert", 2: "over"}
TRICK_KINDS = ("combination", "stop", "draw", "reserve")
NUM_ACTIONS = KA_NUM_ACTIONS
import re as _re
# the shape of every action_to_string text (lower case): only such a text is looked up among
# all 1116 names (a short form is not, which keeps reading one at a fraction of a millisecond)
_FULL_NAME = _re.compile(r"play \d+(?:-\d+)? (?:solo|2-straight|pair|3-straight|triple) \d+(?: \(x=[\d,]+\))?"
                         r"|stop \d+|draw \d+|reserve slot \d+ at \d+|insert at \d+")
NUM_COMBINATIONS = KA_NUM_COMBOS
MAX_HAND = KA_MAX_HAND
# observation_tensor, part by part (offsets in core.pyx's ka_observation_tensor follow it; KA_TENSOR = 623)
# the observation tensor (State.observation_tensor; core's ka_observation_tensor writes it), from
# the viewer's seat; a card kind is one of 15: the numbers 1..12, X, Draw, Stop
TENSOR_LAYOUT = tensor_layout(
    ("hand", 18 * 15, "own hand by position: 18 x 15, each card one-hot by kind"),
    ("seats", 5 * 51, "per seat from the viewer onward, 5 x 51: hand size / 18, reserves 2 x 15 one-hot, "
                      "chips / chips at the start, known cards per kind / 4 (15), to act, leader, "
                      "best play, holds cards; zeros for absent seats"),
    ("played", 15, "cards played this hand, per kind / 4"),
    ("trick_best", 57, "the trick's best combination, 57 one-hot (combination_index)"),
    ("stop_played", 1, "a Stop was played in the trick"),
    ("draws_in_trick", 2, "Draw cards in the trick"),
    ("insert", 2, "insert phase; pending draws / 6"),
    ("drawn_card", 15, "the drawn card, one-hot by kind, if the viewer draws it"),
    ("pile_size", 1, "cards in the pile / 54"),
    ("seat_present", 5, "seat present, per seat from the viewer onward"))
TENSOR_SIZE = sum(seg.size for seg in TENSOR_LAYOUT)     # 623
A_PLAY, A_STOP, A_DRAW, A_RESERVE, A_INSERT = KA_A_PLAY, KA_A_STOP, KA_A_DRAW, KA_A_RESERVE, KA_A_INSERT

# the faces' tables agree with the core (checked once, at import)
if (_notation.STOP_AT, _notation.DRAW_AT, _notation.RESERVE_AT, _notation.INSERT_AT, _notation.NUM_COMBOS,
        _notation.MAX_HAND, _notation.X, _notation.DRAW, _notation.STOP) != (
        KA_A_STOP, KA_A_DRAW, KA_A_RESERVE, KA_A_INSERT, KA_NUM_COMBOS, KA_MAX_HAND, X_CARD, DRAW_CARD, STOP_CARD):
    raise ImportError("krass_kariert: notation's action ids or card codes differ from core.pxd's")
if TENSOR_SIZE != KA_TENSOR:
    raise ImportError("krass_kariert: TENSOR_LAYOUT does not sum to the core's KA_TENSOR")
if max(EVENT_NAMES) != EV_LAST or len(EVENT_NAMES) != EV_LAST:
    raise ImportError("krass_kariert: EVENT_NAMES does not name the core's event kinds 1..EV_LAST")
if len(COMBINATION_TYPES) != 5 or len(PHASE_NAMES) != KA_PH_OVER + 1 or len(TRICK_KINDS) != KA_T_RESERVE + 1:
    raise ImportError("krass_kariert: the phase, trick-kind or combination-type names differ from core.pxd's")


# ------------------------------------------------------------------ the State class
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
        if x != X_CARD and (x & 15) in need:
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
        return <State>KrassKariertState.__new__(KrassKariertState)   # no type test: a State subclass

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
                if X_CARD in cards:
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
        a = _notation.read_short_form(self, want)
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
            want = STOP_CARD if a < KA_A_DRAW else DRAW_CARD
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
def check_options(num_players, options):
    """KA-4: the dealer is a seat of this table.  Raises ``ConfigError``."""
    if options.dealer >= num_players:
        raise ConfigError(f"option 'dealer' must be a seat 0..{num_players - 1} at a table of "
                          f"{num_players}, got {options.dealer} (KA-4)")


def new_state(game, seed=None):
    """A new game dealt from ``seed`` (KA-1 .. KA-4).  Raises ``ConfigError`` for a
    ``dealer`` option beyond the table."""
    cdef KrassKariertState st = KrassKariertState.__new__(KrassKariertState)
    st._init(ka_ops(), game)
    cdef ka_state *s = S(st)
    ka_set_options(s, game)
    ka_new_game(s, <uint64_t>check_seed(seed), st._writable_log())
    st.n_ev = st.log.ev.n
    return st


# ------------------------------------------------------------------ JSON: reading a state back
# Every field is checked so that no JSON can drive the unchecked C code out of its arrays.

_FIELDS = {"rng", "phase", "current_player", "loser", "dealer", "leader", "best_player",
           "second_player", "best_combination", "stop_played", "draws_in_trick", "pending",
           "last_out", "prev_loser", "hands", "reserves", "chips", "known", "pile", "played",
           "trick", "hand_no", "trick_no", "turn"}
_DECK = {**{0x60 | v: 4 for v in range(1, 13)}, X_CARD: 2, DRAW_CARD: 2, STOP_CARD: 2}
from krazy_core._validate import json_int as _int, json_bool as _bool


def _card(c, what):
    if type(c) is not int or c not in _DECK:
        raise InvalidStateError(f"{what} holds {c!r}, not a KrassKariert card code")
    return c


def _cards(v, what, limit):
    if not isinstance(v, list) or len(v) > limit:
        raise InvalidStateError(f"{what} must be a list of at most {limit} card codes")
    return [_card(c, what) for c in v]


def state_from_dict(game, body, events):
    """Rebuild a state from ``to_json()``'s body, checking every field, that the 54 cards
    are exactly conserved (KA-1), that the trick, phase and seats are consistent, and that
    no hand can outgrow 18 cards.  Raises ``InvalidStateError``."""
    cdef KrassKariertState st = KrassKariertState.__new__(KrassKariertState)
    st._init(ka_ops(), game)
    cdef ka_state *s = S(st)
    ka_set_options(s, game)
    n = game.num_players
    if not isinstance(body, dict) or set(body) != _FIELDS:
        got = set(body) if isinstance(body, dict) else set()
        raise InvalidStateError(f"state fields differ: missing {sorted(_FIELDS - got)}, "
                                f"unknown {sorted(got - _FIELDS)}")
    rng = body["rng"]
    if not isinstance(rng, list) or len(rng) != 4 or any(type(x) is not int or not 0 <= x < 2 ** 64
                                                          for x in rng) or not any(rng):
        raise InvalidStateError("'rng' must be four unsigned 64-bit ints, not all zero")
    for i in range(4):
        s.rng.s[i] = rng[i]
    # ---- cards
    hands = body["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise InvalidStateError(f"'hands' must be {n} lists")
    hands = [_cards(h, f"hand {p}", KA_MAX_HAND) for p, h in enumerate(hands)]
    reserves = body["reserves"]
    if not isinstance(reserves, list) or len(reserves) != n or any(
            not isinstance(r, list) or len(r) != 2 for r in reserves):
        raise InvalidStateError(f"'reserves' must be {n} lists of 2 (a card code or null)")
    reserves = [[None if c is None else _card(c, f"reserves of {p}") for c in r]
                for p, r in enumerate(reserves)]
    pile = _cards(body["pile"], "'pile'", KA_DECK)
    played = _cards(body["played"], "'played'", KA_DECK)
    count = {}
    for c in [c for h in hands for c in h] + [c for r in reserves for c in r if c is not None] + pile + played:
        count[c] = count.get(c, 0) + 1
    if count != _DECK:
        raise InvalidStateError("the cards in hands, reserves, draw pile and played cards are not "
                                "exactly the 54 cards (KA-1)")
    memset(s.hand, NO_CARD, sizeof(s.hand))
    memset(s.reserve, NO_CARD, sizeof(s.reserve))
    memset(s.pile, NO_CARD, sizeof(s.pile))
    memset(s.played, NO_CARD, sizeof(s.played))
    for p in range(n):
        s.hand_n[p] = len(hands[p])
        for i, c in enumerate(hands[p]):
            s.hand[p][i] = c
        for i in range(2):
            if reserves[p][i] is not None:
                s.reserve[p][i] = reserves[p][i]
    s.pile_n = len(pile)
    for i, c in enumerate(pile):
        s.pile[i] = c
    s.played_n = len(played)
    for i, c in enumerate(played):
        s.played[i] = c
    chips = body["chips"]
    if not isinstance(chips, list) or len(chips) != n or any(
            type(c) is not int or not 0 <= c <= s.chips_start for c in chips):
        raise InvalidStateError(f"'chips' must be {n} ints in 0..{s.chips_start} (KA-2)")
    for p in range(n):
        s.chips[p] = chips[p]
    known = body["known"]
    if not isinstance(known, list) or len(known) != n or any(
            not isinstance(k, list) or len(k) != KA_KINDS or any(type(x) is not int or not 0 <= x <= 4 for x in k)
            for k in known):
        raise InvalidStateError(f"'known' must be {n} lists of {KA_KINDS} counts 0..4")
    for p in range(n):
        have = [0] * KA_KINDS
        for c in hands[p]:
            have[card_kind(c)] += 1
        for k in range(KA_KINDS):
            if known[p][k] > have[k]:
                raise InvalidStateError(f"'known' says seat {p} holds more cards of a kind than its hand has")
            s.known[p][k] = known[p][k]
    # ---- game and trick
    phases = {v: k for k, v in PHASE_NAMES.items()}
    phase = body["phase"]
    if not isinstance(phase, str) or phase not in phases:
        raise InvalidStateError(f"'phase' must be one of {sorted(phases)}, got {phase!r}")
    s.phase = phases[phase]
    if _int(body, "dealer", 0, n - 1) != s.dealer:
        raise InvalidStateError("'dealer' differs from the game's option")
    s.hand_no = _int(body, "hand_no", 1, 0xFFFF)      # the engine saturates them there
    s.trick_no = _int(body, "trick_no", 1, 0xFFFF)
    s.turn = _int(body, "turn", 0, 2 ** 32 - 1)
    s.loser = _int(body, "loser", -1, n - 1)
    s.leader = _int(body, "leader", 0, n - 1)
    s.best_player = _int(body, "best_player", -1, n - 1)
    s.second_player = _int(body, "second_player", -1, n - 1)
    s.best_combo = _int(body, "best_combination", -1, KA_NUM_COMBOS - 1)
    s.stop_played = _bool(body, "stop_played")
    s.draws_in_trick = _int(body, "draws_in_trick", 0, 2)
    s.pending = _int(body, "pending", 0, 6)
    s.last_out = _int(body, "last_out", -1, n - 1)
    s.prev_loser = _int(body, "prev_loser", -1, n - 1)
    cur = body["current_player"]
    trick = body["trick"]
    if not isinstance(trick, list) or len(trick) > KA_TRICK_MAX:
        raise InvalidStateError(f"'trick' must be a list of at most {KA_TRICK_MAX} entries")
    memset(s.trick_player, -1, sizeof(s.trick_player))
    memset(s.trick_combo, -1, sizeof(s.trick_combo))
    memset(s.trick_cards, NO_CARD, sizeof(s.trick_cards))
    memset(s.trick_kind, 0, sizeof(s.trick_kind))
    for t, e in enumerate(trick):
        if not isinstance(e, dict) or set(e) != {"player", "kind", "combination", "cards"}:
            raise InvalidStateError(f"trick entry {t} must have player, kind, combination, cards")
        if e["kind"] not in TRICK_KINDS:
            raise InvalidStateError(f"trick entry {t} has kind {e['kind']!r}, not one of {TRICK_KINDS}")
        kind = TRICK_KINDS.index(e["kind"])
        pl = _int(e, "player", 0, n - 1)
        combo = _int(e, "combination", -1, KA_NUM_COMBOS - 1)
        cards = _cards(e["cards"], f"trick entry {t}", 3)
        if (kind == KA_T_COMBO) != (combo >= 0) or len(cards) != (combo_len(combo) if combo >= 0 else 1):
            raise InvalidStateError(f"trick entry {t} does not match its kind")
        if combo >= 0 and combination_of_index(combo) not in window_combinations(cards, s.two_straight):
            raise InvalidStateError(f"trick entry {t}: its cards are not its combination")
        s.trick_player[t] = pl
        s.trick_kind[t] = kind
        s.trick_combo[t] = combo
        for i, c in enumerate(cards):
            s.trick_cards[t][i] = c
    s.trick_n = len(trick)
    holders = sum(1 for p in range(n) if s.hand_n[p] > 0)
    if s.phase == KA_PH_OVER:
        if type(cur) is not int or cur != KZ_TERMINAL or s.loser < 0 or s.chips[s.loser] != 0:
            raise InvalidStateError("a finished game has current_player -4 and a loser with no chips (KA-15)")
        s.to_act = -1
    else:
        if s.loser != -1:
            raise InvalidStateError("a running game has no loser")
        s.to_act = _int(body, "current_player", 0, n - 1)
        if s.hand_n[s.to_act] == 0 and s.phase == KA_PH_PLAY:
            raise InvalidStateError("the player to act holds no cards (KA-13)")
        if s.best_combo >= 0 and not s.two_straight and combo_type(s.best_combo) == 1:
            raise InvalidStateError("a 2-straight with option two_straight off")
        if s.phase == KA_PH_PLAY:
            if s.pending or s.stop_played:
                raise InvalidStateError("in the play phase nothing is pending and no Stop was played")
            if s.best_player < 0:
                if s.to_act != s.leader or s.best_combo >= 0 or s.second_player >= 0 or s.draws_in_trick:
                    raise InvalidStateError("before the lead, the leader acts and the trick is empty")
            else:
                if s.best_combo < 0 or s.to_act == s.leader or s.to_act == s.best_player:
                    raise InvalidStateError("after the lead, a follower acts on a best combination")
            if s.draws_in_trick == 0 and holders < 2:
                raise InvalidStateError("the hand should have ended: only one player holds cards (KA-14)")
        else:
            if s.best_player != s.to_act or s.pending < 1 or s.pending > s.pile_n or s.draws_in_trick < 1 \
                    or s.pending > 3 * s.draws_in_trick:
                raise InvalidStateError("inserting drawn cards needs the trick's winner to act, "
                                        "with 1..3 per Draw card pending from the pile (KA-12)")
            if s.best_combo < 0 and not s.stop_played:
                raise InvalidStateError("a finished trick has a best combination or a Stop")
        # capacity: cards that can still enter a hand never push it past 18
        unplayed_draws = count.get(DRAW_CARD, 0) - sum(1 for c in played if c == DRAW_CARD)
        if s.phase == KA_PH_PLAY:
            unplayed_draws += s.draws_in_trick
        for p in range(n):
            room = s.hand_n[p] + sum(1 for c in reserves[p] if c is not None) + 3 * unplayed_draws
            if s.phase == KA_PH_INSERT and p == s.to_act:
                room += s.pending
            if room > KA_MAX_HAND:
                raise InvalidStateError(f"seat {p}'s hand could grow past {KA_MAX_HAND} cards")
        if not ka_any_action(s):
            raise InvalidStateError("the player to act has no legal action")
    st._load_events(events, max_kind=max(EVENT_NAMES))
    return st
