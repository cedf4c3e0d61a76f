# cython: language_level=3
"""Crazy Rummy's Python face (``krazy_core.games.contract_rummy.state``): the State class
(observation, observation tensor, JSON and bytes load/dump, event texts, action names), the
loaders, ``SPEC``, and the meld helpers (:func:`is_book`, :func:`is_run` through the shared
meld solver, ``melds.pxd``; :func:`contract_options`, :func:`best_arrangement`).  The rules
are ``core.pyx`` (cimported through ``core.pxd``)."""
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free

import numpy as np

from krazy_core._ops cimport kz_ops, kz_events, KZ_TERMINAL
from krazy_core._state cimport State
from krazy_core._state import check_seed
from krazy_core.games.melds.rules cimport (kz_meld_rules, kz_rules_crazy, kz_meld_kind,
                                           KZ_MELD_BOOK, KZ_MELD_RUN, KZ_MELD_MAX_HAND)
from krazy_core.games.melds.free cimport kz_meld_contract
from krazy_core.games.contract_rummy.core cimport *
# the card codes of a hand, a meld's dict, a finished lay-down: the meld package's one copy
from krazy_core.games.melds.laydown cimport (ld_codes as _codes, ld_meld_dict as _meld_dict,
                                            ld_laydown_of as _laydown_of)
from krazy_core.games.contract_rummy.core import CONTRACTS
from krazy_core.cards import format_card, parse_card
from krazy_core.games.melds import _card_items
from krazy_core.errors import InvalidStateError, ConfigError
from krazy_core.spec import tensor_layout
from krazy_core.games.contract_rummy.notation import (SUIT_LETTERS, _action_text, _canon_action_text,
                                                     _canon_table, _layoff_ends)

# observation_tensor, part by part (offsets in core.pyx's cr_observation_tensor follow it; TENSOR = 1154)
TENSOR_LAYOUT = tensor_layout(
    ("hand", 53, "own hand: count of each kind / 4"),
    ("up_card", 53, "the live up-card, one-hot by kind"),
    ("discard_pile", 53, "the discard pile: count of each kind / 4"),
    ("melds", 18 * 53, "the 18 meld slots in seat order from the viewer: 18 x 53, count of each kind / 4"),
    ("seats", 6 * 4, "per seat from the viewer onward, 6 x 4: hand size / 30, gone down, buys / 10, "
                     "total score / 1000"),
    ("round", 7, "the round, 7 one-hot"),
    ("phase", 6, "the decision, 6 one-hot (PHASE_NAMES)"),
    ("stock_size", 1, "cards in the stock / 108"),
    ("turn", 1, "turn / max_turns"),
    ("to_act", 1, "the viewer is to act"),
    ("building_meld", 1, "the meld being built in a lay-down / 3"))

EVENT_NAMES = {1: "round_start", 2: "shuffle", 3: "deal", 4: "up_card", 5: "turn", 6: "take",
               7: "decline", 8: "buy", 9: "pass", 10: "draw", 11: "go_down", 12: "run_start",
               13: "lay", 14: "meld", 15: "down", 16: "lay_off", 17: "swap", 18: "discard",
               19: "keep", 20: "go_out", 21: "stock_rebuilt", 22: "turn_limit",
               23: "round_end", 24: "score", 25: "game_over"}
PHASE_NAMES = {0: "over", 1: "first_up_card", 2: "take_or_decline", 3: "buy_or_pass",
               4: "play", 5: "going_down"}
ROUND_END_REASONS = {0: "went out", 1: "turn limit (CR-17)", 2: "no cards left (CR-14)"}

# the faces' tables agree with the core (checked once, at import)
import krazy_core.games.contract_rummy.notation as _notation
if (_notation.TAKE, _notation.DECLINE, _notation.BUY, _notation.PASS, _notation.GO_DOWN, _notation.LAY,
        _notation.START_RUN, _notation.FINISH, _notation.LAY_OFF, _notation.SWAP, _notation.KEEP,
        _notation.NUM_ACTIONS, _notation.KINDS, _notation.MELD_SLOTS) != (
        A_TAKE, A_DECLINE, A_BUY, A_PASS, A_GO_DOWN, A_ADD, A_RUN, A_FINISH, A_LAYOFF, A_SWAP, A_KEEP,
        NUM_ACTIONS, NK, MAXM):
    raise ImportError("contract_rummy: notation's action ids differ from core.pxd's")
if sum(seg.size for seg in TENSOR_LAYOUT) != TENSOR:
    raise ImportError("contract_rummy: TENSOR_LAYOUT does not sum to the core's TENSOR")
if max(EVENT_NAMES) != EV_GAME_OVER:
    raise ImportError("contract_rummy: EVENT_NAMES does not end at the core's last event kind")

from krazy_core._validate import (c_int as _c_int, action_int as _action_int, index_in as _index_in,
                                  is_bool as _is_bool, flag as _flag)

cdef inline CRState *S(State s) except NULL:
    if s.data == NULL:                 # made without its factory: raise, never dereference
        s._not_ready()
    return <CRState *>s.data



from krazy_core._validate import json_int as _int, json_bool as _bool

def _meld_text(d):
    return " ".join(format_card(c) for c in d["cards"])


def _safe_card(code):
    """format_card for event payloads (which a hostile JSON may fill with anything)."""
    try:
        return format_card(code)
    except (ValueError, KeyError, TypeError, IndexError):
        return "?"


cdef class ContractRummyState(State):
    """A Crazy Rummy state (see the module docstring for the action table)."""

    cdef State _blank(self):
        return <State>ContractRummyState.__new__(ContractRummyState)   # no type test: a State subclass

    def action_to_string(self, action) -> str:
        """``"discard 7♥"``, ``"take up-card"``, ``"buy"``, ``"go down"``, ``"lay 5♥"``,
        ``"start run H from 5♥"``, ``"finish meld"``, ``"lay off 9♣ on meld 4 high"``,
        ``"swap 7♥ into meld 3"``, ...  A lay off on a book names no end (a book has none,
        CR-11): ``"lay off 6♥ on meld 0"``; ``string_to_action`` still reads the ``low``
        form.  Raises ``ValueError`` outside ``[0, 3009)``."""
        cdef CRState *st = S(self)
        a = _action_int(action)              # ValueError, never OverflowError
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action {action!r} is outside [0, {NUM_ACTIONS})")
        text = _action_text(a)
        if A_LAYOFF <= a < A_SWAP and not (a - A_LAYOFF) & 1:
            m = ((a - A_LAYOFF) >> 1) % MAXM
            if m < st.num_players * 3 and st.melds[m].kind == MK_BOOK:
                return text[:-len(" low")]
        return text

    def _actions_named(self, str text):
        """What ``string_to_action`` reads beyond the exact names: an action text with its
        card in any form ``parse_card`` reads (``"discard 8S"``, ``"lay 10h"``, ``"lay off JK
        on meld 3 high"``), and a lay off named without its end, which stands for both ends
        (both legal: ``UnclearActionError``, say which)."""
        if self.data == NULL: self._not_ready()
        want = _canon_action_text(text)
        ends = _layoff_ends(want) or (want,)
        canon = _canon_table()
        hits = [a for a in self.legal_actions() if canon[a] in ends]
        if hits:
            return hits
        return [a for a in range(NUM_ACTIONS) if canon[a] in ends]

    def _explain_illegal(self, a):
        a = _c_int(a, "action")
        cdef CRState *st = S(self)
        p = st.cur
        if self.ops.is_terminal(self.data):         # no seat to act: nothing below may index by it
            return "the game is over"
        if not 0 <= a < NUM_ACTIONS:                 # a caller's number: never index a table with it
            return f"action {a} is out of range [0, {NUM_ACTIONS})"
        if st.phase == PH_FIRST:
            return "the dealer first takes or declines the up-card (CR-7)"
        if st.phase == PH_TAKE:
            return f"seat {p} first takes or declines the up-card (CR-8)"
        if st.phase == PH_BUY:
            return f"seat {p} buys the up-card or passes (CR-8)"
        if st.phase == PH_BUILD:
            return ("while going down only the contract's melds are laid, and only steps that "
                    "leave the contract completable (CR-10). The books go down first, one rank "
                    "after another in rank order, then the runs, each from its low end up; within "
                    "a book the naturals go in suit order ♠ ♥ ♦ ♣ and the wilds last, so a book "
                    "that has taken a ♥ can no longer take a ♠ of its rank")
        if a in (A_TAKE, A_DECLINE, A_BUY, A_PASS):
            return "the up-card is offered only at the start of a turn (CR-8)"
        if a < NK:
            if not st.hand[p][a]:
                return f"seat {p} holds no {format_card(KIND_CODE[a])}"
            return "in round 7 the last card may not be discarded (final_round_no_discard, CR-13)"
        if a == A_GO_DOWN:
            if st.down[p]:
                return "a player goes down once per round (CR-10)"
            return f"the hand does not hold the contract of round {st.round} (CR-4, CR-10)"
        if a < A_LAYOFF:
            if not st.down[p]:
                return ("cards are laid into melds only after 'go down' (CR-10), and going down "
                        f"needs the contract of round {st.round} in hand (CR-4)")
            return "cards are laid into melds only after 'go down' (CR-10)"
        if a < A_SWAP:
            k = ((a - A_LAYOFF) >> 1) // MAXM
            m = ((a - A_LAYOFF) >> 1) % MAXM
            if not st.down[p]:
                return "only a player who is down may lay off (CR-11)"
            if not st.hand[p][k]:
                return f"seat {p} holds no {format_card(KIND_CODE[k])}"
            if m >= st.num_players * 3 or st.melds[m].kind == MK_NONE:
                return f"there is no meld {m} on the table (meld ids: seat × 3 + 0..2)"
            if m // 3 == p and not st.opt_layoff_own:
                return "cards are laid off on other players' melds, not your own (CR-11, option layoff_on_own)"
            if st.melds[m].kind == MK_BOOK:
                return (f"{format_card(KIND_CODE[k])} does not fit the book of meld {m}: same rank, "
                        "at most one wild (CR-5, CR-11)")
            return (f"{format_card(KIND_CODE[k])} does not extend the run of meld {m} at its "
                    f"{'high' if (a - A_LAYOFF) & 1 else 'low'} end (the next card of the suit there, "
                    "wilds within the cap, CR-3, CR-5, CR-11)")
        if a < A_KEEP:
            k = (a - A_SWAP) // MAXM
            m = (a - A_SWAP) % MAXM
            if st.opt_swap_down and not st.down[p]:
                return "a wild is swapped only by a player who is down (option swap_requires_down, CR-12)"
            if not st.hand[p][k]:
                return f"seat {p} holds no {format_card(KIND_CODE[k])}"
            if m >= st.num_players * 3 or st.melds[m].kind == MK_NONE:
                return f"there is no meld {m} on the table (meld ids: seat × 3 + 0..2)"
            if st.melds[m].kind == MK_BOOK:
                return "a wild is never swapped out of a book (CR-12)"
            if m // 3 == p:
                return "a wild is swapped out of an opponent's run, not your own (CR-12)"
            return (f"meld {m} holds no wild standing for {format_card(KIND_CODE[k])}: a swap puts "
                    "the exact natural card in a wild's place (CR-12)")
        return "keeping the last card is only for round 7 with final_round_no_discard (CR-13)"

    # -------------------------------------------------------- views
    def hand(self, player) -> list:
        """Card codes in ``player``'s hand, sorted (omniscient; frontends use ``observation``)."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef CRState *st = S(self)
        return _codes(st.hand[player])

    def melds(self) -> list:
        """The melds on the table: dicts with ``id`` (seat*3 + k), ``owner``, ``kind``
        (``"book"``/``"run"``), ``rank`` (book), ``suit`` and ``lo`` (run: first position,
        1 = Ace low, 14 = Ace high), ``cards`` (codes; a run low to high)."""
        cdef CRState *st = S(self)
        out = []
        for m in range(st.num_players * 3):
            d = _meld_dict(&st.melds[m])
            if d is not None:
                d["id"] = m
                d["owner"] = m // 3
                out.append(d)
        return out

    def census(self) -> list:
        """Every card of the game wherever it is (hands, stock, discard pile, melds), sorted
        codes: 108 with the default 4 Jokers (CR-1)."""
        cdef CRState *st = S(self)
        out = []
        for p in range(st.num_players):
            out += _codes(st.hand[p])
        out += [KIND_CODE[st.stock[i]] for i in range(st.n_stock)]
        out += [KIND_CODE[st.discard[i]] for i in range(st.n_discard)]
        for d in self.melds():
            out += d["cards"]
        return sorted(out)

    def stats(self) -> dict:
        """``{"turns", "turn_limit" (bool: some round hit max_turns), "turn_limit_rounds",
        "rounds_won": per-seat count}`` for ``krazy simulate``."""
        cdef CRState *st = S(self)
        won = [0] * st.num_players
        for r in range(7):
            if st.round_result[r] >= 0:
                won[st.round_result[r]] += 1
        return {"turns": st.total_turns, "turn_limit": st.limit_rounds > 0,
                "turn_limit_rounds": st.limit_rounds, "rounds_won": won}

    def scores(self) -> list:
        """Per round played so far (``list`` of ``[round, [points per seat]]``, CR-15)."""
        cdef CRState *st = S(self)
        return [[r + 1, [st.scores[r][p] for p in range(st.num_players)]]
                for r in range(7) if st.round_result[r] != -2]

    def totals(self) -> list:
        """Each seat's total over the rounds played so far (CR-15), ``list[int]``."""
        cdef CRState *st = S(self)
        return [total_score(st, p) for p in range(st.num_players)]

    def observation(self, player) -> dict:
        """What ``player`` may see, JSON-ready: their own hand (sorted codes and text),
        every hand's size, the round and its contract (books, runs), the dealer, the melds
        on the table (ids, owners, cards), the up-card on offer (``None`` when none), the
        discard pile (bottom first), the stock size, whose turn and who acts, the phase,
        who is down, buys this round, scores per round and totals, round results.
        Raises ``ValueError`` for a bad seat."""
        player = self._player_index(player)     # an int seat, else ValueError (State)
        cdef CRState *st = S(self)
        hand = _codes(st.hand[player])
        nb, nr = CONTRACTS[st.round]
        up = KIND_CODE[st.discard[st.n_discard - 1]] if st.up_live and st.n_discard else None
        top = KIND_CODE[st.discard[st.n_discard - 1]] if st.n_discard else None
        obs = {
            "game": "contract-rummy",
            "player": player,
            "num_players": st.num_players,
            "round": st.round,
            "contract": {"books": nb, "runs": nr},
            "cards_dealt": st.round + 6,
            "dealer": st.dealer,
            "hand": hand,
            "hand_text": [format_card(c) for c in hand],
            "hand_sizes": [st.nhand[p] for p in range(st.num_players)],
            "melds": self.melds(),
            "up_card": up,
            "up_card_text": format_card(up) if up is not None else None,
            "top_card": top,
            "top_card_text": format_card(top) if top is not None else None,
            "discard_pile": [KIND_CODE[st.discard[i]] for i in range(st.n_discard)],
            "stock_size": st.n_stock,
            "current_player": st.cur,
            "turn_player": st.turn_player if st.phase != PH_OVER else None,
            "phase": PHASE_NAMES[st.phase],
            "building_meld": st.cur * 3 + st.gd_k if st.phase == PH_BUILD else None,
            "down": [bool(st.down[p]) for p in range(st.num_players)],
            "buys": [st.buys[p] for p in range(st.num_players)],
            "scores": self.scores(),
            "totals": self.totals(),
            "round_results": [st.round_result[r] for r in range(7)],
            "turn": st.turns,
            "max_turns": st.opt_max_turns,
            "terminal": st.phase == PH_OVER,
        }
        if st.cur == player:
            obs["legal_actions"] = self.legal_actions()
        return obs

    def __str__(self):
        cdef CRState *st = S(self)
        nb, nr = CONTRACTS[st.round]
        up = format_card(KIND_CODE[st.discard[st.n_discard - 1]]) if st.up_live and st.n_discard else "-"
        lines = [f"Crazy Rummy round {st.round} ({nb} books + {nr} runs), dealer {st.dealer}, "
                 f"turn {st.turns}, up-card {up}, stock {st.n_stock}, phase {PHASE_NAMES[st.phase]}"]
        for p in range(st.num_players):
            mark = ">" if p == st.cur else " "
            lines.append(f"{mark} seat {p}{' (down)' if st.down[p] else ''} [{total_score(st, p)}]: "
                         + " ".join(format_card(c) for c in _codes(st.hand[p])))
        for d in self.melds():
            lines.append(f"  meld {d['id']} (seat {d['owner']} {d['kind']}): {_meld_text(d)}")
        return "\n".join(lines)

    def _event_dict(self, kind, player, a, b, viewer):
        format_card = _safe_card
        name = EVENT_NAMES.get(kind, str(kind))
        d = {"event": name, "player": player}
        if kind in (EV_DEAL, EV_DRAW):
            seen = viewer == "all" or viewer == player
            d["card"] = a if seen else None
            if seen:
                d["card_text"] = format_card(a)
            if kind == EV_DRAW:
                d["reason"] = "penalty" if b == 1 else "draw"
        elif kind in (EV_UPCARD, EV_TAKE, EV_DECLINE, EV_BUY, EV_PASS, EV_DISCARD, EV_LAY):
            d["card"] = a
            d["card_text"] = format_card(a)
            if kind in (EV_TAKE, EV_DECLINE):
                d["first_up_card"] = bool(b)
            if kind == EV_LAY:
                d["meld"] = b
        elif kind == EV_LAYOFF:
            d["card"] = a
            d["card_text"] = format_card(a)
            d["meld"] = (b & 0xFF) >> 1
            d["meld_kind"] = "book" if b & 0x100 else "run"
            d["end"] = None if b & 0x100 else ("high" if b & 1 else "low")   # a book has no end
        elif kind == EV_SWAP:
            d["card"] = a
            d["card_text"] = format_card(a)
            d["meld"] = b & 0xFF
            d["wild"] = b >> 8
            d["wild_text"] = format_card(b >> 8)
        elif kind == EV_RUN_START:
            d["meld"] = a
            d["suit"] = b // 32
            d["lo"] = b % 32
        elif kind == EV_MELD:
            d["meld"] = a
            d["cards"] = b
        elif kind in (EV_ROUND_START,):
            d["round"] = a
            d["cards_dealt"] = b
        elif kind in (EV_GO_DOWN, EV_DOWN, EV_GO_OUT):
            d["round"] = a
        elif kind == EV_ROUND_END:
            d["round"] = a
            d["reason"] = ROUND_END_REASONS.get(b, b)
        elif kind == EV_SCORE:
            d["points"] = a
            d["total"] = b
        elif kind in (EV_SHUFFLE, EV_REBUILD):
            d["cards"] = a
        elif kind in (EV_TURN, EV_TURN_LIMIT):
            d["turn"] = a
        return d

    # -------------------------------------------------------- JSON
    def _to_dict(self):
        cdef CRState *st = S(self)
        n = st.num_players
        return {
            "rng": [st.rng.s[0], st.rng.s[1], st.rng.s[2], st.rng.s[3]],
            "round": st.round,
            "dealer": st.dealer,
            "phase": PHASE_NAMES[st.phase],
            "current_player": st.cur,
            "turn_player": st.turn_player,
            "up_live": bool(st.up_live),
            "discarder": st.discarder,
            "turns": st.turns,
            "total_turns": st.total_turns,
            "limit_rounds": st.limit_rounds,
            "building": [st.gd_k, bool(st.gd_open), st.gd_last],
            "hands": [_codes(st.hand[p]) for p in range(n)],
            "known": [_codes(st.known[p]) for p in range(n)],
            "stock": [KIND_CODE[st.stock[i]] for i in range(st.n_stock)],
            "discard": [KIND_CODE[st.discard[i]] for i in range(st.n_discard)],
            "melds": [_meld_dict(&st.melds[m]) for m in range(n * 3)],
            "down": [bool(st.down[p]) for p in range(n)],
            "buys": [st.buys[p] for p in range(n)],
            "scores": [[st.scores[r][p] for p in range(n)] for r in range(7)],
            "round_results": [st.round_result[r] for r in range(7)],
        }


# ------------------------------------------------------------------ construction
cdef void _set_options(CRState *st, game):
    o = game.options
    st.num_players = game.num_players
    st.opt_jokers = o.jokers
    st.opt_wrap = 1 if o.ace_wrap else 0
    st.opt_overlap = 1 if o.overlapping_runs else 0
    st.opt_buy_limit = o.buy_limit
    st.opt_penalty = o.penalty_cards
    st.opt_layoff_own = 1 if o.layoff_on_own else 0
    st.opt_swap_down = 1 if o.swap_requires_down else 0
    st.opt_final_nd = 1 if o.final_round_no_discard else 0
    st.opt_rounds = o.rounds
    st.opt_first_round = o.first_round
    st.opt_max_turns = o.max_turns


def new_state(game, seed=None):
    """A new game dealt from ``seed`` (CR-1, CR-4, CR-6); rounds ``first_round`` ..
    ``min(7, first_round + rounds - 1)`` (CR-16)."""
    cdef ContractRummyState s = ContractRummyState.__new__(ContractRummyState)
    s._init(cr_ops(), game)
    cdef CRState *st = S(s)
    _set_options(st, game)
    cr_start(st, <uint64_t>check_seed(seed), s._writable_log())
    s.n_ev = s.log.ev.n
    return s






def _kinds(v, what, limit=NCARDS):
    if not isinstance(v, list) or len(v) > limit:
        raise InvalidStateError(f"{what} must be a list of at most {limit} card codes")
    out = []
    for c in v:
        if type(c) is not int or not 0 <= c < 256 or CODE_KIND[c] < 0:
            raise InvalidStateError(f"{what} holds {c!r}, not a card of this deck")
        out.append(CODE_KIND[c])
    return out


def _check_meld(d, what, bint complete, int wrap):
    """A meld dict -> (kind, suit, rank, lo, kinds, wilds); raises InvalidStateError."""
    if not isinstance(d, dict) or set(d) != {"kind", "rank", "suit", "lo", "cards"}:
        raise InvalidStateError(f"{what} must be an object with kind, rank, suit, lo, cards")
    ks = _kinds(d["cards"], f"{what} cards", 13)
    if d["kind"] == "book":
        _int(d, "rank", 1, 13)
        if d["suit"] is not None or d["lo"] is not None:
            raise InvalidStateError(f"{what}: a book has no suit or lo")
        r = d["rank"]
        w = 0
        for k in ks:
            if book_natural(r, k):
                continue
            if book_wild(r, k):
                w += 1
                continue
            raise InvalidStateError(f"{what}: {format_card(KIND_CODE[k])} does not belong in a book of rank {r}")
        if w > 1:
            raise InvalidStateError(f"{what}: a book holds at most 1 wild (CR-5)")
        if len(ks) < (3 if complete else 1) or not book_natural(r, ks[0]):
            raise InvalidStateError(f"{what}: a book is 3+ cards led by a natural (CR-5)")
        return MK_BOOK, 0, r, 0, ks, w
    if d["kind"] == "run":
        _int(d, "suit", 0, 3)
        _int(d, "lo", 1, 13 if wrap else 14)
        if d["rank"] is not None:
            raise InvalidStateError(f"{what}: a run has no rank")
        s, lo = d["suit"], d["lo"]
        if lo + len(ks) - 1 > pos_hi(wrap) or (complete and len(ks) < 4) or (not complete and lo > lo_max(wrap)):
            raise InvalidStateError(f"{what}: a run of {len(ks)} cards cannot start at position {lo} (CR-3, CR-5)")
        w = 0
        for i, k in enumerate(ks):
            if run_natural(s, lo + i, k):
                continue
            if wildcard(k):
                w += 1
                continue
            raise InvalidStateError(f"{what}: {format_card(KIND_CODE[k])} cannot stand at position {lo + i} of a {SUIT_LETTERS[s]} run")
        if w > 2:
            raise InvalidStateError(f"{what}: a run holds at most 2 wilds (CR-5)")
        return MK_RUN, s, 0, lo, ks, w
    raise InvalidStateError(f"{what}: kind must be 'book' or 'run'")


def state_from_dict(game, body, events):
    """Rebuild a state from ``to_json()``'s body, checking every field, the phase, the
    melds' validity (CR-5) and that the deck is exactly conserved (CR-1).  Raises
    ``InvalidStateError``."""
    cdef ContractRummyState s = ContractRummyState.__new__(ContractRummyState)
    s._init(cr_ops(), game)
    cdef CRState *st = S(s)
    cdef int32_t buf[NUM_ACTIONS]
    cdef Meld *md
    _set_options(st, game)
    n = game.num_players
    want = {"rng", "round", "dealer", "phase", "current_player", "turn_player", "up_live",
            "discarder", "turns", "total_turns", "limit_rounds", "building", "hands", "known",
            "stock", "discard", "melds", "down", "buys", "scores", "round_results"}
    if not isinstance(body, dict) or set(body) != want:
        got = set(body) if isinstance(body, dict) else set()
        raise InvalidStateError(f"state fields differ: missing {sorted(want - got)}, unknown {sorted(got - want)}")
    rng = body["rng"]
    if not isinstance(rng, list) or len(rng) != 4 or any(type(x) is not int or not 0 <= x < 2 ** 64 for x in rng) \
            or not any(rng):
        raise InvalidStateError("'rng' must be four unsigned 64-bit ints, not all zero")
    for i in range(4):
        st.rng.s[i] = rng[i]
    first, last = st.opt_first_round, min(7, st.opt_first_round + st.opt_rounds - 1)
    st.round = _int(body, "round", first, last)
    st.dealer = _int(body, "dealer", 0, n - 1)
    if st.dealer != (st.round - first) % n:
        raise InvalidStateError(f"round {st.round}'s dealer is seat {(st.round - first) % n} (CR-6)")
    inv = {v: k for k, v in PHASE_NAMES.items()}
    ph = body["phase"]
    if not isinstance(ph, str) or ph not in inv:
        raise InvalidStateError(f"'phase' must be one of {sorted(inv)}, got {ph!r}")
    st.phase = inv[ph]
    st.turn_player = _int(body, "turn_player", 0, n - 1)
    st.up_live = _bool(body, "up_live")
    st.discarder = _int(body, "discarder", -1, n - 1)
    st.turns = _int(body, "turns", 0, st.opt_max_turns)
    # counters bounded by the rounds behind this one (at a bound the loader took
    # regardless, the state would outgrow it in play and refuse its own JSON)
    done = st.round - first + (1 if st.phase == PH_OVER else 0)
    st.total_turns = _int(body, "total_turns", st.turns, done * st.opt_max_turns + st.turns)
    st.limit_rounds = _int(body, "limit_rounds", 0, done)
    b = body["building"]
    if not isinstance(b, list) or len(b) != 3 or type(b[0]) is not int or type(b[1]) is not bool \
            or type(b[2]) is not int or not 0 <= b[0] <= 2 or not 0 <= b[2] <= NO_NAT:
        raise InvalidStateError("'building' must be [meld 0..2, open true/false, last kind 0..53]")
    st.gd_k, st.gd_open, st.gd_last = b
    deck = {}
    hands = body["hands"]
    known = body["known"]
    if not isinstance(hands, list) or len(hands) != n or not isinstance(known, list) or len(known) != n:
        raise InvalidStateError(f"'hands' and 'known' must be {n} lists each")
    for p in range(n):
        for k in _kinds(hands[p], f"hand {p}"):
            if st.hand[p][k] >= 8:
                raise InvalidStateError(f"hand {p} holds too many of one card")
            add_card(st, p, k)
            deck[k] = deck.get(k, 0) + 1
        for k in _kinds(known[p], f"known {p}"):
            if st.known[p][k] >= st.hand[p][k]:
                raise InvalidStateError(f"known cards of seat {p} are not in their hand")
            st.known[p][k] += 1
    stock = _kinds(body["stock"], "'stock'")
    discard = _kinds(body["discard"], "'discard'")
    for k in stock + discard:
        deck[k] = deck.get(k, 0) + 1
    st.n_stock = len(stock)
    for i, k in enumerate(stock):
        st.stock[i] = k
    st.n_discard = len(discard)
    for i, k in enumerate(discard):
        st.discard[i] = k
    down = body["down"]
    if not isinstance(down, list) or len(down) != n or any(type(x) is not bool for x in down):
        raise InvalidStateError(f"'down' must be {n} booleans")
    buys = body["buys"]
    if not isinstance(buys, list) or len(buys) != n or any(type(x) is not int or not 0 <= x <= 255 for x in buys):
        raise InvalidStateError(f"'buys' must be {n} ints 0..255")
    for p in range(n):
        st.down[p] = down[p]
        st.buys[p] = buys[p]
        if st.opt_buy_limit and buys[p] > st.opt_buy_limit:
            raise InvalidStateError(f"seat {p} bought more than buy_limit (CR-8)")
    nm = nmelds(st.round)
    building = st.phase == PH_BUILD
    melds = body["melds"]
    if not isinstance(melds, list) or len(melds) != 3 * n:
        raise InvalidStateError(f"'melds' must be {3 * n} entries (seat*3 + k)")
    for m, d in enumerate(melds):
        p, k = divmod(m, 3)
        if building and p == st.turn_player:
            expect = k < st.gd_k or (k == st.gd_k and st.gd_open)
            complete = k < st.gd_k
        else:
            expect = bool(st.down[p]) and k < nm
            complete = True
        if d is None:
            if expect:
                raise InvalidStateError(f"meld {m} is missing")
            continue
        if not expect:
            raise InvalidStateError(f"meld {m} should not be on the table (CR-10)")
        kind, suit, rank, lo, ks, w = _check_meld(d, f"meld {m}", complete, st.opt_wrap)
        want_kind = MK_BOOK if k < CBOOKS[st.round] else MK_RUN
        if kind != want_kind:
            raise InvalidStateError(f"meld {m} must be a {'book' if want_kind == MK_BOOK else 'run'} (CR-4)")
        md = &st.melds[m]
        md.kind = kind
        md.suit = suit
        md.rank = rank
        md.lo = lo
        md.n = len(ks)
        md.wilds = w
        for i, x in enumerate(ks):
            md.cards[i] = x
            deck[x] = deck.get(x, 0) + 1
    full = {k: 2 for k in range(52)}
    if st.opt_jokers:
        full[JK] = st.opt_jokers
    if deck != full:
        raise InvalidStateError("hands, stock, discard pile and melds are not exactly the deck (CR-1)")
    scores = body["scores"]
    results = body["round_results"]
    if not isinstance(scores, list) or len(scores) != 7 or not isinstance(results, list) or len(results) != 7:
        raise InvalidStateError("'scores' and 'round_results' hold 7 rounds")
    for r in range(7):
        row = scores[r]
        if not isinstance(row, list) or len(row) != n or any(type(x) is not int or not 0 <= x <= 100000 for x in row):
            raise InvalidStateError(f"scores of round {r + 1} must be {n} ints 0..100000")
        res = results[r]
        if type(res) is not int or not -2 <= res < n:
            raise InvalidStateError(f"round_results[{r}] must be an int -2..{n - 1}")
        played = first <= r + 1 < st.round or (r + 1 == st.round and st.phase == PH_OVER)
        if played == (res == -2) or (not played and any(row)) or (res >= 0 and row[res] != 0):
            raise InvalidStateError(f"round {r + 1}'s result and scores do not fit the game's progress")
        st.round_result[r] = res
        for p in range(n):
            st.scores[r][p] = row[p]
    if st.phase == PH_OVER:
        st.cur = _int(body, "current_player", KZ_TERMINAL, KZ_TERMINAL)
        if st.round != last:
            raise InvalidStateError("the game ends after its last round")
    else:
        st.cur = _int(body, "current_player", 0, n - 1)
        for p in range(n):
            if st.nhand[p] == 0 and not (building and p == st.cur):
                raise InvalidStateError(f"seat {p} holds no cards but the round is running")
        if st.up_live and st.n_discard == 0:
            raise InvalidStateError("an up-card needs a discard pile")
        if (not building or not st.gd_open) and st.gd_last != 0:
            raise InvalidStateError("'building' last kind is set outside a book being built")
        if not building and (st.gd_k or st.gd_open):
            raise InvalidStateError("'building' is set outside going down")
        if st.phase == PH_FIRST:
            if st.cur != st.dealer or st.turn_player != st.dealer or not st.up_live or st.turns \
                    or st.discarder != -1 or any(down) or any(buys) or st.n_discard != 1:
                raise InvalidStateError("the first up-card decision is the dealer's, before any turn (CR-7)")
        elif st.phase == PH_BUY:
            if st.cur == st.turn_player or st.cur == st.discarder or not st.up_live:
                raise InvalidStateError("a buyer is another player than the turn player and the discarder (CR-8)")
            if st.opt_buy_limit and st.buys[st.cur] >= st.opt_buy_limit:
                raise InvalidStateError("the buyer reached buy_limit (CR-8)")
        else:
            if st.cur != st.turn_player:
                raise InvalidStateError("only the turn player acts in this phase")
            if st.phase == PH_TAKE and not st.up_live:
                raise InvalidStateError("take_or_decline needs an up-card")
            if st.phase in (PH_MAIN, PH_BUILD) and st.up_live:
                raise InvalidStateError("the up-card was dealt with before the turn's play")
            if st.turns == 0:
                raise InvalidStateError("a turn is under way but no turn was counted")
        if building:
            if st.down[st.cur] or st.gd_k >= nm:
                raise InvalidStateError("going down: the player is not down yet and builds one of the contract's melds")
            _check_laydown(st, st.cur)
        if cr_legal_actions(st, buf) == 0:
            raise InvalidStateError("the player to act has no legal action")
    s._load_events(events, max_kind=max(EVENT_NAMES))
    return s


cdef _check_laydown(CRState *st, int p):
    """The melds laid so far in this lay-down follow the canonical order (book ranks never
    decrease, run keys increase, same-suit runs never join) and a book being built lists
    its naturals in kind order before its wild."""
    cdef Meld *md
    cdef Meld *o
    last_rank = 0
    last_key = -1
    for k in range(st.gd_k + (1 if st.gd_open else 0)):
        md = &st.melds[p * 3 + k]
        if md.kind == MK_BOOK:
            if md.rank < last_rank:
                raise InvalidStateError("books of a lay-down are laid by rank")
            last_rank = md.rank
            prev = -1
            seen_wild = False
            for i in range(md.n):
                x = md.cards[i]
                if book_natural(md.rank, x):
                    if seen_wild or x < prev:
                        raise InvalidStateError("a book's naturals are laid in kind order, its wild last")
                    prev = x
                else:
                    seen_wild = True
            if k == st.gd_k and st.gd_open:
                if st.gd_last != (NO_NAT if seen_wild else prev):
                    raise InvalidStateError("'building' last kind does not match the book being built")
        else:
            key = md.suit * 32 + md.lo
            if key < last_key + 1 - st.opt_overlap or md.lo > lo_max(st.opt_wrap):
                raise InvalidStateError("runs of a lay-down are laid by suit and position")
            last_key = key
            if k == st.gd_k and st.gd_open and st.gd_last != 0:
                raise InvalidStateError("'building' last kind is for books")
            for j in range(k):
                o = &st.melds[p * 3 + j]
                if o.kind == MK_RUN and o.suit == md.suit and touches(
                        st.opt_wrap, st.opt_overlap, run_mask(st.opt_wrap, o.lo, o.lo + o.n - 1),
                        run_mask(st.opt_wrap, md.lo, md.lo + md.n - 1)):
                    raise InvalidStateError("two runs of one suit in a contract may not join (CR-10)")


# ------------------------------------------------------------------ the one validator


def _check_options(num_players, o):
    """GameSpec.check_options: ``make()`` raises ``ConfigError`` when ``first_round`` and
    ``rounds`` would run past round 7 (CR-16, as KR-16 does past round 11)."""
    if o.first_round + o.rounds - 1 > 7:
        raise ConfigError(f"options first_round={o.first_round} and rounds={o.rounds} would play rounds "
                          f"{o.first_round}..{o.first_round + o.rounds - 1}, past round 7; "
                          f"use rounds <= {8 - o.first_round} (CR-16)")



_SPEC = None        # the package's SPEC (``__init__.py`` binds it: this module imports no face)


def _bind_spec(spec):
    """Called once by the package's ``__init__.py`` with its ``SPEC``: the lay-down helpers
    below build their two-seat game from it."""
    global _SPEC
    _SPEC = spec


# ------------------------------------------------------------------ public faces
def _parse_cards(cards):
    items = _card_items(cards, "cards")
    out = []
    for c in items:
        try:
            code = c if type(c) is int else parse_card(c)
        except ValueError:
            code = -1                   # parse_card's examples name other games' cards ('3R')
        if not 0 <= code < 256 or CODE_KIND[code] < 0:
            raise ValueError(f"{c!r} is not a Crazy Rummy card (try 'QS', '10H', 'TH', 'AC', 'JK': "
                             f"suits S H D C, ranks A..K, the Joker; CR-1)")
        out.append(code)
    return out


def _meld_kind(cards, ace_wrap):
    cdef kz_meld_rules r
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    codes = _parse_cards(cards)
    if len(codes) > KZ_MELD_MAX_HAND:
        return 0
    for i, c in enumerate(codes):
        buf[i] = c
    kz_rules_crazy(&r, 1 if ace_wrap else 0)
    return kz_meld_kind(&r, buf, len(codes))


def is_book(cards, *, ace_wrap=False) -> bool:
    """Whether ``cards`` (strings like ``"4C"``, ``"JK"`` or codes) form a book: 3+ cards of
    one rank, at most 1 wild (CR-2, CR-5).  ``is_book("4C 4D 2S JK")`` is False (two wilds).
    Uses the shared meld solver (``melds.pxd``).  Raises ``ValueError`` for a bad card or a
    non-bool ``ace_wrap``."""
    return _meld_kind(cards, _flag("ace_wrap", ace_wrap)) == KZ_MELD_BOOK


def is_run(cards, *, ace_wrap=False) -> bool:
    """Whether ``cards`` form a run in some order: 4+ of one suit in sequence, at most 2
    wilds, a 2 in its natural place natural, Ace low or high, no wrap unless ``ace_wrap``
    (CR-2, CR-3, CR-5).  ``is_run("5H JK 2C 8H")`` is True.  Raises ``ValueError``."""
    return _meld_kind(cards, _flag("ace_wrap", ace_wrap)) == KZ_MELD_RUN




def _round_no(rnd):
    """The round argument of the lay-down helpers as an int 1..7: any integer (a numpy one
    too), never a bool.  Raises ``ValueError``."""
    v = _index_in(rnd, 1, 7)
    if v is None:
        raise ValueError(f"round must be 1..7, got {rnd!r}")
    return v


def _laydown_state(hand, rnd, ace_wrap, overlap=False):
    from krazy_core.spec import Game, options_class     # below the games (not krazy_core.make)
    SPEC = _SPEC
    rnd = _round_no(rnd)
    codes = _parse_cards(hand)
    cnt = [0] * NK
    for c in codes:
        cnt[CODE_KIND[c]] += 1
    if any(x > 2 for x in cnt[:52]) or cnt[JK] > 4:
        raise ValueError("a hand holds at most 2 of each card and 4 Jokers (CR-1)")
    opts = options_class(SPEC)(first_round=rnd, rounds=1, ace_wrap=bool(ace_wrap),
                               overlapping_runs=bool(overlap))
    if SPEC.check_options is not None:
        SPEC.check_options(2, opts)
    game = Game(SPEC, 2, opts)
    cdef ContractRummyState s = new_state(game, 0)
    cdef CRState *st = S(s)
    memset(st.hand, 0, sizeof(st.hand))
    memset(st.melds, 0, sizeof(st.melds))
    for k in range(NK):
        st.hand[0][k] = cnt[k]
    st.nhand[0] = len(codes)
    st.phase = PH_BUILD
    st.cur = 0
    st.turn_player = 0
    st.up_live = 0
    st.gd_k = 0
    st.gd_open = 0
    st.gd_last = 0
    return s


class _Stop(Exception):
    pass


cdef int _enum(CRState *st, list out, int depth, Py_ssize_t limit) except -1:
    """Every lay-down below st (the CR-10 sequence, one leaf per lay-down), into out; stops
    (raises _Stop) once out holds ``limit`` (>= 0) of them."""
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n = cr_legal_actions(st, acts), i
    cdef CRState child
    for i in range(n):
        memcpy(&child, st, sizeof(CRState))
        cr_apply(&child, acts[i], NULL)
        if child.phase == PH_BUILD:
            _enum(&child, out, depth + 1, limit)
        else:
            out.append(_laydown_of(child.melds, nmelds(child.round), child.hand[0]))
            if 0 <= limit <= len(out):
                raise _Stop()
    return 0



from krazy_core.games.melds import optimizer as _opt
from krazy_core.games.melds.optimizer import best_laydown as _best_laydown

_RX_MIN = 14        # the contract optimizer's DPs answer from this many cards (melds.laydown RX_MIN)



def _all_laydowns(hand, rnd, ace_wrap, overlap=False, limit=None):
    cdef ContractRummyState s
    if not _can_go_down_hand(hand, rnd, ace_wrap, overlap):
        return []
    s = _laydown_state(hand, rnd, ace_wrap, overlap)
    out = []
    try:
        _enum(S(s), out, 0, -1 if limit is None else limit)
    except _Stop:
        pass
    return sorted(set((tuple(sorted(lay)), left) for lay, left in out))


def _can_go_down_hand(hand, rnd, ace_wrap=False, overlapping_runs=False) -> bool:
    """Whether ``hand`` holds round ``rnd``'s contract (CR-4, CR-10)."""
    cdef ContractRummyState s = _laydown_state(hand, rnd, ace_wrap, overlapping_runs)
    cdef CRState *st = S(s)
    st.phase = PH_MAIN
    return can_go_down(st, 0) == 1


def contract_options(hand, rnd, *, ace_wrap=False, overlapping_runs=False, limit=None) -> list:
    """The distinct ways ``hand`` can go down in round ``rnd`` (any integer 1..7, CR-4, CR-10): a sorted
    list of lay-downs, each a tuple of melds (books then runs), each meld a tuple of card
    strings (a run low to high).  Every meld as long as the player likes; two copies of a
    card are the same card.  Raises ``ValueError`` for bad cards, round, limit (any integer
    >= 0, a numpy one too) or a rule option that is not ``True``/``False``.

    The list is exhaustive, and its length can be exponential in the hand (a 20-card hand
    has 84,480 lay-downs): no algorithm lists them in polynomial time.  ``limit`` (an int
    >= 0) bounds the work: the enumeration stops after ``limit`` lay-downs of the CR-10
    sequence, so it costs O(limit x 13 x 3) steps of the lay-down sequence (every step
    leads to at least one lay-down), and the list holds those (distinct, sorted; at most
    ``limit``), not every lay-down -- a frontend asking "what can I lay down?" passes a
    limit; :func:`best_arrangement` finds the best one without listing them."""
    ace_wrap = _flag("ace_wrap", ace_wrap)
    overlapping_runs = _flag("overlapping_runs", overlapping_runs)
    if limit is not None:
        if _is_bool(limit) or not hasattr(type(limit), "__index__") or limit.__index__() < 0:
            raise ValueError(f"limit must be None or an int >= 0, got {limit!r}")
        limit = limit.__index__()       # numpy.int64(2) too, as the round
    if limit is not None and limit > 2 ** 62:
        limit = 2 ** 62                 # more than any hand has: no limit (a C ssize_t below)
    if not isinstance(hand, str):
        hand = _parse_cards(hand)       # once: an iterator is read once (ValueError when no cards)
    rnd = _round_no(rnd)                # numpy.int64(3) too
    lays = _all_laydowns(hand, rnd, ace_wrap, overlapping_runs, limit) if limit != 0 else []
    if limit == 0:
        _laydown_state(hand, rnd, ace_wrap, overlapping_runs)       # the same checks of the input
    out = set()
    for lay, left in lays:
        out.add(tuple(tuple(format_card(c) for c in m[3]) for m in lay))
    return sorted(out)


def best_arrangement(hand, rnd, *, ace_wrap=False, overlapping_runs=False, as_codes=False, ascii=False):
    """The lay-down of round ``rnd``'s contract that leaves the fewest points in hand (CR-15
    values): ``(melds, leftover, points)`` -- melds a list of lists of cards (a run low to
    high, each wild at its place), leftover ascending by code, points an int -- or ``None``
    when the hand cannot go down.  Cards are strings with suit symbols (``"A♠"``, ``"🃏"``),
    ASCII with ``ascii=True`` (``"AS"``, ``"JK"``, as ``melds.crazy_best_arrangement`` gives
    by default), or int codes with ``as_codes=True``: the one ``best_arrangement`` shape
    (the hand, the game's positional context, rule keywords, the card
    form).  ``melds.crazy_best_arrangement(hand, contract=CONTRACTS[rnd])`` gives the same
    points (it has no ``overlapping_runs``).  Ties: the fewest cards left, then the least
    melds (sorted: books, then runs by suit and first position, each by its cards' codes),
    the same answer as the exhaustive enumeration of :func:`contract_options`.  ``rnd`` is
    any integer 1..7 (a numpy one too; not a bool).  Raises ``ValueError``.

    The answer is exact, whatever the hand: ``krazy_core.games.melds.optimizer.best_laydown``,
    the meld package's contract optimizer (its method and bounds: the docstring of
    :mod:`krazy_core.games.melds`; measured times: benches/README.md).
    """
    if not isinstance(hand, str):
        hand = _parse_cards(hand)       # once: an iterator is read once (ValueError when no cards)
    return _best_arrangement(hand, _round_no(rnd), _flag("ace_wrap", ace_wrap),
                             _flag("overlapping_runs", overlapping_runs), as_codes, _RX_MIN, ascii)


def _best_arrangement(hand, rnd, ace_wrap, overlapping_runs, as_codes, int exact_min, ascii=False):
    """best_arrangement, the runs DP from hands of ``exact_min`` cards (tests: 0, every hand;
    99, never: the plain branch and bound)."""
    if not _can_go_down_hand(hand, rnd, ace_wrap, overlapping_runs):
        return None
    _laydown_state(hand, rnd, ace_wrap, overlapping_runs)       # the checks of the input
    return _best_laydown(_parse_cards(hand), _round_no(rnd), ace_wrap, overlapping_runs, as_codes, ascii,
                         exact_min)


def _dp_check(hand, rnd, ace_wrap, overlap=False, book_actions=()):
    """Tests: the runs DP's consistency below the lay-down of ``book_actions`` (action ids)."""
    _laydown_state(hand, rnd, ace_wrap, overlap)
    return _opt._dp_check(_parse_cards(hand), _round_no(rnd), ace_wrap, overlap, book_actions)


def _runs_rest_after(hand, rnd, ace_wrap, overlap=False, actions=()):
    """Tests: the runs DP (``melds.runs``) after the lay-down steps ``actions`` (action ids)."""
    _laydown_state(hand, rnd, ace_wrap, overlap)
    return _opt._runs_rest_after(_parse_cards(hand), _round_no(rnd), ace_wrap, overlap, actions)
