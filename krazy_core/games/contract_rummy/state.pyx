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
from krazy_core.games.melds cimport (kz_meld_rules, kz_rules_crazy, kz_meld_kind,
                                     KZ_MELD_BOOK, KZ_MELD_RUN, KZ_MELD_MAX_HAND, kz_meld_contract)
from krazy_core.games.contract_rummy.core cimport *
from krazy_core.games.contract_rummy.core import CONTRACTS
from krazy_core.cards import format_card, parse_card
from krazy_core.games.melds import _card_items
from krazy_core.errors import InvalidStateError, ConfigError
from krazy_core.spec import tensor_layout
from krazy_core.games.contract_rummy.notation import (SUIT_LETTERS, _action_text, _canon_action_text,
                                                     _canon_table, _layoff_ends)

# observation_tensor, part by part (offsets in core.pyx's cr_observation_tensor follow it; TENSOR = 1154)
TENSOR_LAYOUT = tensor_layout(("hand", 53), ("up_card", 53), ("discard_pile", 53), ("melds", 18 * 53),
                              ("seats", 6 * 4), ("round", 7), ("phase", 6), ("stock_size", 1),
                              ("turn", 1), ("to_act", 1), ("building_meld", 1))

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

from krazy_core._validate import c_int as _c_int, action_int as _action_int, index_in as _index_in, is_bool as _is_bool

cdef inline CRState *S(State s) except NULL:
    if s.data == NULL:                 # made without its factory: raise, never dereference
        s._not_ready()
    return <CRState *>s.data



cdef list _codes(const uint8_t *cnt):
    cdef int k
    out = []
    for k in range(NK):
        out += [KIND_CODE[k]] * cnt[k]
    return sorted(out)


cdef dict _meld_dict(const CRState *st, int m):
    cdef const Meld *md = &st.melds[m]
    if md.kind == MK_NONE:
        return None
    cards = [KIND_CODE[md.cards[i]] for i in range(md.n)]
    if md.kind == MK_BOOK:
        return {"kind": "book", "rank": md.rank, "suit": None, "lo": None, "cards": cards}
    return {"kind": "run", "rank": None, "suit": md.suit, "lo": md.lo, "cards": cards}


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
            d = _meld_dict(st, m)
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
            "melds": [_meld_dict(st, m) for m in range(n * 3)],
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


def _flag(name, v):
    """A helper's rule option (``ace_wrap``, ``overlapping_runs``) as a bool: ``True`` or
    ``False`` (a numpy bool too), else ``ValueError`` -- a truthy string such as ``'no'``
    turned the rule on."""
    if _is_bool(v):                     # numpy's bool too
        return bool(v)
    raise ValueError(f"{name} must be True or False, got {v!r}")


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


cdef tuple _laydown_of(CRState *child):
    lay = []
    for k in range(nmelds(child.round)):
        d = _meld_dict(child, k)
        lay.append((d["kind"], d["suit"] if d["suit"] is not None else -1,
                    d["lo"] if d["lo"] is not None else 0, tuple(d["cards"])))
    return (tuple(lay), tuple(_codes(child.hand[0])))


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
            out.append(_laydown_of(&child))
            if 0 <= limit <= len(out):
                raise _Stop()
    return 0


cdef int _hand_value(const CRState *st, int *ncards) noexcept nogil:
    """CR-15 points of seat 0's hand; its cards into *ncards."""
    cdef int k, pts = 0, n = 0
    for k in range(NK):
        pts += st.hand[0][k] * POINTS[k]
        n += st.hand[0][k]
    ncards[0] = n
    return pts


cdef enum:
    BB_SOLVER_MAX = 24          # hands up to this many cards get the shared solver's bound
    BB_SOLVER_MIN = 17          # ... from this many (smaller hands: the plain search is faster)


cdef enum:
    RX_MIN = 14                 # hands from this many cards lay their runs by the exact DP
    RX_NEG = -1000000           # the runs DP's "no way"
    RX_W = 13                   # pool wilds the runs DP counts (4 Jokers + 8 twos < 13)
    RX_CARD = 64                # a value packs points * RX_CARD + cards (a hand holds < 64 cards)


cdef int _suit_runs(const uint8_t *h, int s, int lo_min, int R, int W, int out[4][RX_W],
                    int q0, int open_l, int open_cw, int open_lo1, int force) noexcept nogil:
    """The runs DP's one suit (no ace_wrap, no overlapping_runs): out[r][w] = the best value
    (points * RX_CARD + cards, CR-15 points) r fresh runs of suit ``s`` can lay from the
    counts ``h`` using exactly w of the pool's wilds, RX_NEG when none can.  Exact for
    CR-3/CR-5/CR-10 on positions 1..14: a fresh run starts at a position >= lo_min (the CR-10
    sequence lays runs in increasing (suit, first position)), covers 4..13 consecutive
    positions (never both Aces: a run from position 1 stops by 13), each by a natural of the
    hand (the Ace's one copy serves position 1 or 14, two copies both) or by a pool wild (at
    most 2 a run; the suit's own 2 in its place is natural, CR-2, but is one of the pool's
    wilds); two runs leave a position between them (no join, CR-10).  A pool count is exact:
    each suit's natural 2 is the specific card, every other wild any of the rest.
    open_l >= 0: a run being laid (open_l cards, open_cw wilds, open_lo1 if it began at
    position 1) goes on at position q0 (force: it holds no card yet and must take q0); it is
    not one of the r.  O(14 x 4 x 13 x 5 x 3 x 4) steps."""
    cdef int cur[4][RX_W][5][3][4]
    cdef int nxt[4][RX_W][5][3][4]
    cdef int q, j, w, l, c, f, v, k, nj, nl, nf, two, nat, vn, vw, ace1
    ace1 = h[s * 13] == 1           # one Ace: position 1 or 14, not both
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                for c in range(3):
                    for f in range(4):
                        cur[j][w][l][c][f] = RX_NEG
    if open_l >= 0:
        cur[0][0][open_l if open_l < 4 else 4][open_cw][1 if open_lo1 else 0] = 0
    else:
        cur[0][0][0][0][0] = 0
        q0 = 1
        force = 0
    vw = 20 * RX_CARD + 1
    for q in range(q0, 15):
        k = nat_kind(s, q)
        nat = h[k] > 0
        two = nat and is_two(k)
        vn = POINTS[k] * RX_CARD + 1
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(4):
                            nxt[j][w][l][c][f] = RX_NEG
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(4):
                            v = cur[j][w][l][c][f]
                            if v == RX_NEG:
                                continue
                            if (l == 0 or l >= 4) and not (force and q == q0) \
                                    and v > nxt[j][w][0][0][f & 2]:
                                nxt[j][w][0][0][f & 2] = v               # q uncovered
                            if l == 0:
                                if force and q == q0:
                                    nj = j                   # the open run's first card
                                else:
                                    if j == R or q < lo_min:
                                        continue
                                    nj = j + 1
                                nf = (f & 2) | (1 if q == 1 else 0)
                            else:
                                if q == 14 and (f & 1):
                                    continue                # a run from the low Ace stops at K
                                nj = j
                                nf = f
                            nl = l + 1 if l < 4 else 4
                            if nat and not two and not (q == 14 and ace1 and (f & 2)):
                                if v + vn > nxt[nj][w][nl][c][nf | (2 if q == 1 and ace1 else 0)]:
                                    nxt[nj][w][nl][c][nf | (2 if q == 1 and ace1 else 0)] = v + vn
                            if w < W:
                                if two and v + vw > nxt[nj][w + 1][nl][c][nf]:
                                    nxt[nj][w + 1][nl][c][nf] = v + vw
                                if c < 2 and v + vw > nxt[nj][w + 1][nl][c + 1][nf]:
                                    nxt[nj][w + 1][nl][c + 1][nf] = v + vw
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(4):
                            cur[j][w][l][c][f] = nxt[j][w][l][c][f]
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                if l == 0 or l >= 4:
                    for c in range(3):
                        for f in range(4):
                            if cur[j][w][l][c][f] > out[j][w]:
                                out[j][w] = cur[j][w][l][c][f]
    return 0


cdef int _win_runs(const uint8_t *h, int s, int qa, int qb, int start_lo, int start_hi, int last_first,
                   int R, int W, int out[4][RX_W], int open_l, int open_cw, int open_first, int force,
                   int fresh_first) noexcept nogil:
    """The ace_wrap runs DP's one window of suit ``s`` (no overlapping_runs): out[r][w] = the
    best value (points * RX_CARD + cards) r fresh runs of the suit can lay on the linear
    positions qa..qb (each rank at most once: the caller's window is at most 13 positions)
    using exactly w pool wilds, RX_NEG when none can.  A fresh run starts at a position in
    start_lo..start_hi (its first position, CR-10 order), or at qa when fresh_first (that
    run counts in r and is the window's first run); runs leave a position between them (no
    join, CR-10); last_first: position qb may be covered by the window's first run only (any
    other run there would touch it round the corner).  open_l >= 0: a run being laid
    (open_l cards, open_cw wilds; open_first: it is the window's first run; force: it holds
    no card yet and must take qa) goes on at qa; it is not one of the r.  Wilds as in
    :func:`_suit_runs`.  O(13 x 4 x 13 x 5 x 3 x 2) steps."""
    cdef int cur[4][RX_W][5][3][2]
    cdef int nxt[4][RX_W][5][3][2]
    cdef int q, j, w, l, c, f, v, k, nj, nl, nf, two, nat, vn, vw, first_q
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                for c in range(3):
                    for f in range(2):
                        cur[j][w][l][c][f] = RX_NEG
    if open_l >= 0:
        cur[0][0][open_l if open_l < 4 else 4][open_cw][open_first] = 0
    else:
        cur[0][0][0][0][0] = 0
        force = 0
    vw = 20 * RX_CARD + 1
    for q in range(qa, qb + 1):
        k = nat_kind(s, q)
        nat = h[k] > 0
        two = nat and is_two(k)
        vn = POINTS[k] * RX_CARD + 1
        first_q = q == qa and (force or fresh_first)
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(2):
                            nxt[j][w][l][c][f] = RX_NEG
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(2):
                            v = cur[j][w][l][c][f]
                            if v == RX_NEG:
                                continue
                            if (l == 0 or l >= 4) and not first_q and v > nxt[j][w][0][0][0]:
                                nxt[j][w][0][0][0] = v               # q uncovered
                            if l == 0:
                                if force and q == qa:
                                    nj = j                   # the open run's first card
                                    nf = open_first
                                elif fresh_first and q == qa:
                                    if j == R:
                                        continue
                                    nj = j + 1
                                    nf = 1
                                else:
                                    if j == R or q < start_lo or q > start_hi:
                                        continue
                                    nj = j + 1
                                    nf = 0
                            else:
                                nj = j
                                nf = f
                            if last_first and q == qb and not nf:
                                continue                    # it would touch the first run
                            nl = l + 1 if l < 4 else 4
                            if nat and not two and v + vn > nxt[nj][w][nl][c][nf]:
                                nxt[nj][w][nl][c][nf] = v + vn
                            if w < W:
                                if two and v + vw > nxt[nj][w + 1][nl][c][nf]:
                                    nxt[nj][w + 1][nl][c][nf] = v + vw
                                if c < 2 and v + vw > nxt[nj][w + 1][nl][c + 1][nf]:
                                    nxt[nj][w + 1][nl][c + 1][nf] = v + vw
        for j in range(R + 1):
            for w in range(W + 1):
                for l in range(5):
                    for c in range(3):
                        for f in range(2):
                            cur[j][w][l][c][f] = nxt[j][w][l][c][f]
    for j in range(R + 1):
        for w in range(W + 1):
            for l in range(5):
                if l == 0 or l >= 4:
                    for c in range(3):
                        for f in range(2):
                            if cur[j][w][l][c][f] > out[j][w]:
                                out[j][w] = cur[j][w][l][c][f]
    return 0


cdef int _suit_runs_wrap(const CRState *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The ace_wrap runs DP's one suit (no overlapping_runs; CR-3 option, CR-5, CR-10):
    out[r][w] as :func:`_suit_runs`, below the lay-down in progress of st.  The suit's runs
    in CR-10 order start at increasing first positions lo (1..13); the first of them, L1,
    fixes a window L1..L1+12 of 13 positions (each rank once: no run covers a rank twice)
    that all of them lie in, the others ending by L1+11 (L1+12 is the rank before L1: a run
    there would touch the first round the corner).  A fresh suit: the best over L1 (13
    windows); the suit being laid: one window after its runs so far.  O(13 x
    :func:`_win_runs`)."""
    cdef const uint8_t *h = st.hand[0]
    cdef int tmp[4][RX_W]
    cdef int j, w, L1, nb = CBOOKS[st.round], m, first_lo = -1, last = -1
    cdef const Meld *md
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k):
            md = &st.melds[m]
            if md.suit == s:
                if first_lo < 0:
                    first_lo = md.lo
                last = m
    if st.phase == PH_BUILD and st.gd_open and st.gd_k >= nb and st.melds[st.gd_k].suit == s:
        md = &st.melds[st.gd_k]
        if first_lo < 0:
            _win_runs(h, s, md.lo + md.n, md.lo + 12, md.lo + 1, 13, 1, R, W, out,
                      md.n, md.wilds, 1, md.n == 0, 0)
        else:
            _win_runs(h, s, md.lo + md.n, first_lo + 11, md.lo + 1, 13, 0, R, W, out,
                      md.n, md.wilds, 0, md.n == 0, 0)
        return 0
    if last >= 0:
        md = &st.melds[last]
        _win_runs(h, s, md.lo + md.n + 1, first_lo + 11, md.lo + md.n + 1, 13, 0, R, W, out,
                  -1, 0, 0, 0, 0)
        return 0
    out[0][0] = 0
    for L1 in range(1, 14):
        _win_runs(h, s, L1, L1 + 12, L1 + 1, 13, 1, R, W, tmp, -1, 0, 0, 0, 1)
        for j in range(R + 1):
            for w in range(W + 1):
                if tmp[j][w] > out[j][w]:
                    out[j][w] = tmp[j][w]
    return 0

# ---- the overlapping_runs runs DP: one suit's open runs as a multiset of up to 3 run codes
cdef enum:
    OV_CODES = 30               # a run code: (cards bucket 0..4 * 3 + wilds 0..2) * 2 + began at position 1
    OV_MS = 5456                # multisets of at most 3 codes (1 + 30 + 465 + 4960)
    OV_ST = 851136              # OV_MS x 4 runs begun x RX_W wilds used x 3 low Aces used
cdef int _OV_IDX[29791]     # sorted (descending, +1, 0 = none) code triple -> multiset index
cdef uint8_t _OV_RUN[OV_MS][3]
cdef uint8_t _OV_N[OV_MS]
cdef int _ov_val[2][OV_ST]  # the DP's two layers (RX_NEG = unreached), kept all RX_NEG between calls
cdef int _ov_act[2][OV_ST]  # the reached states of each layer
cdef int _ov_nact[2]
cdef int _ov_ready = 0        # the tables are built on the first call (13.6 MB touched then, not at import)


cdef inline int _ov_key(int x, int y, int z) noexcept nogil:
    """Codes (-1 = none) -> the multiset index."""
    cdef int t
    if y > x:
        t = x; x = y; y = t
    if z > y:
        t = y; y = z; z = t
        if y > x:
            t = x; x = y; y = t
    return _OV_IDX[(x + 1) * 961 + (y + 1) * 31 + (z + 1)]


cdef void _ov_init() noexcept nogil:
    global _ov_ready
    cdef int i, x, y, z, n = 0
    for i in range(29791):
        _OV_IDX[i] = -1
    for x in range(-1, OV_CODES):
        for y in range(-1, x + 1 if x >= 0 else 0):
            for z in range(-1, y + 1 if y >= 0 else 0):
                _OV_IDX[(x + 1) * 961 + (y + 1) * 31 + (z + 1)] = n
                _OV_N[n] = (x >= 0) + (y >= 0) + (z >= 0)
                _OV_RUN[n][0] = x if x >= 0 else 0
                _OV_RUN[n][1] = y if y >= 0 else 0
                _OV_RUN[n][2] = z if z >= 0 else 0
                n += 1
    for i in range(OV_ST):
        _ov_val[0][i] = RX_NEG
        _ov_val[1][i] = RX_NEG
    _ov_nact[0] = 0
    _ov_nact[1] = 0
    _ov_ready = 1


cdef inline void _ov_put(int layer, int ms, int j, int w, int a, int v) noexcept nogil:
    cdef int i = ((ms * 4 + j) * RX_W + w) * 3 + a
    if _ov_val[layer][i] == RX_NEG:
        _ov_act[layer][_ov_nact[layer]] = i
        _ov_nact[layer] += 1
        _ov_val[layer][i] = v
    elif v > _ov_val[layer][i]:
        _ov_val[layer][i] = v


cdef int _suit_runs_ov(const CRState *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The overlapping_runs runs DP's one suit (no ace_wrap; CR-3, CR-5, CR-10 option):
    out[r][w] as :func:`_suit_runs`, below the lay-down in progress of st.  Positions 1..14
    left to right; the state is the multiset of the suit's open runs (each: cards 0..4+,
    wilds 0..2, began at position 1), the fresh runs begun, the pool wilds used and the low
    Aces used (position 14 has the rest).  At a position each open run stops (4+ cards) or
    takes a natural or a wild (a natural 2 in its place: a pool card, no cap, CR-2); fresh
    runs begin (first positions at or after the CR-10 order's last, up to 11) only where
    no run stopped just before: two runs of one suit may overlap but never continue one
    another (CR-10, ``kz_runs_join``), nor continue a run laid before (its last position + 1
    is no first position).  The run being laid: its cards so far stand at its first
    positions, it joins the multiset where it goes on.  A run from position 1 stops by 13
    (CR-3).  Bound: 14 positions x the reached states (at most 5,456 multisets x 4 x 13 x 3)
    x at most 27 x 10 moves each."""
    cdef const uint8_t *h = st.hand[0]
    cdef int nb = CBOOKS[st.round], m, qb = 1, q0 = -1, ocode = -1, q, cur = 0, nx, i, idx, v
    cdef int ms, j, w, a, n, k, avail, two, vn, vw = 20 * RX_CARD + 1, lo_ok
    cdef int rc[3]
    cdef int nc[6]
    cdef int ch[3]
    cdef int combo, ncombo, bad, nn, nw, ended, t, tn, tmax, x, c, l, f, nv, nw2, na, nms, jj
    cdef uint8_t forbid[16]
    cdef const Meld *md
    if not _ov_ready:
        _ov_init()
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    memset(forbid, 0, sizeof(forbid))
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k):
            md = &st.melds[m]
            if md.suit == s:
                forbid[md.lo + md.n] = 1        # would continue that run (CR-10)
                qb = md.lo                      # CR-10 order: fresh runs begin here or later
        if st.gd_open and st.gd_k >= nb and st.melds[st.gd_k].suit == s:
            md = &st.melds[st.gd_k]
            qb = md.lo
            q0 = md.lo + md.n
            ocode = ((md.n if md.n < 4 else 4) * 3 + md.wilds) * 2 + (1 if md.lo == 1 else 0)
    _ov_nact[0] = 0
    _ov_put(0, 0, 0, 0, 0, 0)
    for q in range(qb, 16):
        if q == q0 or (q == 15 and q0 == 15):
            # the run being laid goes on here: into every state's multiset
            nx = 1 - cur
            _ov_nact[nx] = 0
            for i in range(_ov_nact[cur]):
                idx = _ov_act[cur][i]
                v = _ov_val[cur][idx]
                _ov_val[cur][idx] = RX_NEG
                a = idx % 3
                w = (idx // 3) % RX_W
                j = (idx // (3 * RX_W)) % 4
                ms = idx // (3 * RX_W * 4)
                n = _OV_N[ms]
                if n >= 3:
                    continue
                rc[0] = -1
                rc[1] = -1
                if n > 0:
                    rc[0] = _OV_RUN[ms][0]
                if n > 1:
                    rc[1] = _OV_RUN[ms][1]
                _ov_put(nx, _ov_key(rc[0], rc[1], ocode), j, w, a, v)
            cur = nx
        if q == 15:
            break
        k = nat_kind(s, q)
        two = is_two(k)
        vn = POINTS[k] * RX_CARD + 1
        lo_ok = q >= qb and q <= 11 and not forbid[q]
        nx = 1 - cur
        _ov_nact[nx] = 0
        for i in range(_ov_nact[cur]):
            idx = _ov_act[cur][i]
            v = _ov_val[cur][idx]
            _ov_val[cur][idx] = RX_NEG
            a = idx % 3
            w = (idx // 3) % RX_W
            j = (idx // (3 * RX_W)) % 4
            ms = idx // (3 * RX_W * 4)
            n = _OV_N[ms]
            avail = h[k] - (a if q == 14 else 0)
            ncombo = 1
            for x in range(n):
                rc[x] = _OV_RUN[ms][x]
                ncombo *= 3
            for combo in range(ncombo):
                t = combo
                bad = 0
                nn = 0
                nw = 0
                ended = 0
                for x in range(n):
                    ch[x] = t % 3
                    t //= 3
                    l = rc[x] // 6
                    c = (rc[x] // 2) % 3
                    f = rc[x] & 1
                    if ch[x] == 0:
                        if l < 4:
                            bad = 1
                        ended = 1
                    else:
                        if q == 14 and f:
                            bad = 1                 # a run from the low Ace stops at K (CR-3)
                        if ch[x] == 1:
                            nn += 1
                        elif c >= 2:
                            bad = 1
                        else:
                            nw += 1
                if bad or nn > avail:
                    continue
                tmax = 0
                if lo_ok and not ended:
                    tmax = R - j
                    if tmax > 3 - (nn + nw):
                        tmax = 3 - (nn + nw)
                for t in range(tmax + 1):
                    for tn in range(t + 1):             # fresh runs taking a natural
                        if nn + tn > avail:
                            break
                        na = nn + tn
                        nw2 = w + nw + (t - tn) + (na if two else 0)
                        if nw2 > W:
                            continue
                        nv = v + na * vn + (nw + t - tn) * vw
                        # the new multiset
                        jj = 0
                        for x in range(n):
                            if ch[x]:
                                l = rc[x] // 6
                                c = (rc[x] // 2) % 3 + (1 if ch[x] == 2 else 0)
                                nc[jj] = (((l + 1) if l < 4 else 4) * 3 + c) * 2 + (rc[x] & 1)
                                jj += 1
                        for x in range(t):
                            nc[jj] = (1 * 3 + (0 if x < tn else 1)) * 2 + (1 if q == 1 else 0)
                            jj += 1
                        nc[jj] = -1
                        nc[jj + 1] = -1
                        nc[jj + 2] = -1
                        nms = _ov_key(nc[0], nc[1], nc[2])
                        _ov_put(nx, nms, j + t, nw2, na if q == 1 else a, nv)
        cur = nx
    for i in range(_ov_nact[cur]):
        idx = _ov_act[cur][i]
        v = _ov_val[cur][idx]
        _ov_val[cur][idx] = RX_NEG
        w = (idx // 3) % RX_W
        j = (idx // (3 * RX_W)) % 4
        ms = idx // (3 * RX_W * 4)
        n = _OV_N[ms]
        bad = 0
        for x in range(n):
            if _OV_RUN[ms][x] // 6 < 4:
                bad = 1
        if not bad and v > out[j][w]:
            out[j][w] = v
    _ov_nact[cur] = 0
    return 0

# ---- the overlapping_runs runs DP with ace_wrap: one suit's ranks as a cycle cut between K and A
# An item (one open run piece, or a wrapping run's finished tail waiting for its head), a code 0..227:
cdef enum:
    OW_NORM = 0                 # a run inside A..K: ((first rank - 1) * 3 + wilds) * 4 + no-K * 2 + is-open-run
    OW_SUF = 156                # a wrapping run's tail, begun at A: + wilds * 2 + is-open-run
    OW_REC = 162                # a finished tail (its last rank hi) waiting for its head: + (hi - 1) * 3 + wilds
    OW_PRE = 198                # a wrapping run's head, open through K: + (cards bucket 0..4 * 3 + wilds) * 2 + is-open-run
# a free slot of the hash tables: 0xFFFFFFFFU (no state packs to it: item codes + 1 <= 228)

cdef struct _OwTab:
    uint32_t *keys          # open addressing, 0xFFFFFFFFU = free
    int *vals
    uint32_t *act           # the slots of the keys, in the order they came
    int nact, cap, bits

cdef _OwTab _ow_tab[2]
cdef int _ow_nomem = 0       # set when a table could not grow (best_arrangement raises MemoryError)


def _ow_raise():
    """MemoryError when the overlap-with-wrap DP's tables could not grow (its answers then
    are void)."""
    global _ow_nomem
    if _ow_nomem:
        _ow_nomem = 0
        raise MemoryError("best_arrangement: the runs DP's tables")


cdef int _ow_alloc(_OwTab *t, int bits) noexcept nogil:
    cdef int i, cap = 1 << bits
    t.keys = <uint32_t *>malloc(cap * sizeof(uint32_t))
    t.vals = <int *>malloc(cap * sizeof(int))
    t.act = <uint32_t *>malloc((cap // 2 + 1) * sizeof(uint32_t))
    if t.keys == NULL or t.vals == NULL or t.act == NULL:
        free(t.keys)
        free(t.vals)
        free(t.act)
        t.keys = NULL
        t.vals = NULL
        t.act = NULL
        t.cap = 0
        return -1
    for i in range(cap):
        t.keys[i] = 0xFFFFFFFFU
    t.cap = cap
    t.bits = bits
    t.nact = 0
    return 0


cdef inline int _ow_slot(const _OwTab *t, uint32_t key) noexcept nogil:
    cdef uint32_t i = (key * 2654435761U) >> (32 - t.bits)
    while t.keys[i] != 0xFFFFFFFFU and t.keys[i] != key:
        i = (i + 1) & (t.cap - 1)
    return i


cdef int _ow_put(_OwTab *t, uint32_t key, int v) noexcept nogil:
    """The best value of state ``key`` in table t: max(old, v)."""
    global _ow_nomem
    cdef _OwTab g
    cdef int i, n
    if t.nact * 2 >= t.cap:                 # grow (rehash) at half full
        if _ow_alloc(&g, t.bits + 1) < 0:
            _ow_nomem = 1
            return -1
        for n in range(t.nact):
            i = _ow_slot(&g, t.keys[t.act[n]])
            g.keys[i] = t.keys[t.act[n]]
            g.vals[i] = t.vals[t.act[n]]
            g.act[n] = i
        g.nact = t.nact
        free(t.keys)
        free(t.vals)
        free(t.act)
        t[0] = g
    i = _ow_slot(t, key)
    if t.keys[i] == 0xFFFFFFFFU:
        t.keys[i] = key
        t.vals[i] = v
        t.act[t.nact] = i
        t.nact += 1
    elif v > t.vals[i]:
        t.vals[i] = v
    return 0


cdef void _ow_clear(_OwTab *t) noexcept nogil:
    cdef int n
    for n in range(t.nact):             # by slot: no probing (a cleared slot would cut a chain)
        t.keys[t.act[n]] = 0xFFFFFFFFU
    t.nact = 0


cdef inline uint32_t _ow_wrapmask(int lo, int hi) noexcept nogil:
    """Ranks lo..13 and 1..hi (a wrapping run, hi < lo) as run_mask's wrap bits 0..12."""
    return ((0x1FFF >> (lo - 1)) << (lo - 1)) | ((1U << hi) - 1)


cdef inline uint32_t _ow_mask(int lo, int hi) noexcept nogil:
    """Ranks lo..hi (lo <= hi, inside A..K) as wrap bits."""
    return ((1U << hi) - 1) & ~((1U << (lo - 1)) - 1)


ctypedef struct _OwCtx:
    int q, avail, two, vn, vw, W, jcap, qb
    int olo, oend, ow, ocase     # the open run of this suit: first rank, last free position, its wilds;
                                 # ocase 1: not wrapped yet (it begins at olo), 2: wrapped, 0: none
    int nfix
    uint32_t fix[3]              # the suit's runs laid before, run_mask (wrap bits)
    int ac                       # the state's bit: a run inside A..K from A has stopped
    int nstop                    # runs inside A..K that stopped at q - 1 (their first ranks in stoplo)
    int stoplo[3]
    int ostart                   # 1 once the open run (ocase 1) has begun, when q == olo
    uint8_t fxok[14][14]         # [lo][hi]: a run of ranks lo..hi (inside A..K) joins no run laid before
    uint8_t fwok[14][14]         # [lo][hi]: a run of ranks lo..K, A..hi (wrapping) joins none
    _OwTab *nx


cdef inline int _ow_fixed_ok(const _OwCtx *c, uint32_t m) noexcept nogil:
    """A run of ranks m joins none of the suit's runs laid before (CR-10 with overlapping_runs:
    kz_runs_join)."""
    cdef int i
    for i in range(c.nfix):
        if touches(1, 1, m, c.fix[i]):
            return 0
    return 1


cdef void _ow_emit(_OwCtx *c, int *it, int n, int j, int nat, int wil, int val) noexcept nogil:
    """One successor state into c.nx: items it[0..n), j runs counted, nat naturals and wil wilds
    taken at q (the pool wilds: the wilds, and the naturals when q is the 2's place, CR-2)."""
    cdef int a, b, t, w2, lo, l2, hi, nr = 0, ok
    cdef int s[3]
    cdef int rh[3]
    cdef uint32_t key
    if nat > c.avail:
        return
    if c.ocase == 1 and c.q == c.olo and not c.ostart:
        return                                  # the open run goes on at its first rank
    w2 = (c.W >> 8) + wil + (nat if c.two else 0)
    if w2 > (c.W & 255):
        return
    for a in range(n):
        s[a] = it[a]
        if s[a] >= OW_REC and s[a] < OW_PRE:
            rh[nr] = (s[a] - OW_REC) // 3 + 1
            nr += 1
    # a run inside A..K with 4+ cards (not from A): its first rank matters only through the
    # records' last ranks (lo <= hi, lo == hi + 1) and the runs laid before (joined at each
    # later last rank): the latest first rank that agrees on all of them stands for it
    for a in range(n):
        if s[a] >= OW_SUF:
            continue
        lo = (s[a] >> 2) // 3 + 1
        if lo < 2 or lo > c.q - 3:
            continue
        for l2 in range(c.q - 3, lo, -1):
            ok = 1
            for b in range(nr):
                if (l2 <= rh[b]) != (lo <= rh[b]) or (l2 == rh[b] + 1) != (lo == rh[b] + 1):
                    ok = 0
                    break
            if ok and c.nfix:
                for hi in range(c.q, 14):
                    if c.fxok[l2][hi] != c.fxok[lo][hi]:
                        ok = 0
                        break
            if ok:
                s[a] += ((l2 - lo) * 3) * 4
                break
    # a record: its last rank matters only through the bucket of its cards (1, 2, 3+), the runs
    # inside A..K (their first ranks: lo <= hi, lo == hi + 1) and the runs laid before (joined
    # at each later first rank of its head): the latest last rank that agrees stands for it
    for a in range(n):
        if s[a] < OW_REC or s[a] >= OW_PRE:
            continue
        hi = (s[a] - OW_REC) // 3 + 1
        if hi < 3:
            continue
        for l2 in range(c.q - 1, hi, -1):
            ok = 1
            for b in range(n):
                if s[b] < OW_SUF:
                    lo = (s[b] >> 2) // 3 + 1
                    if (lo <= l2) != (lo <= hi) or (lo == l2 + 1) != (lo == hi + 1):
                        ok = 0
                        break
            if ok and c.nfix:
                for b in range(c.q + 1, 14):
                    if c.fwok[b][l2] != c.fwok[b][hi]:
                        ok = 0
                        break
            if ok:
                s[a] += (l2 - hi) * 3
                break
    for a in range(n):                          # sorted descending (n <= 3; a copy: the callers
        for b in range(a + 1, n):               # go on with it)
            if s[b] > s[a]:
                t = s[a]
                s[a] = s[b]
                s[b] = t
    key = 0
    for a in range(3):
        key = (key << 8) | (<uint32_t>(s[a] + 1) if a < n else 0)
    key |= (<uint32_t>j << 24) | (<uint32_t>c.ac << 27) | (<uint32_t>w2 << 28)
    _ow_put(c.nx, key, val + nat * c.vn + wil * c.vw)


cdef void _ow_starts(_OwCtx *c, int *it, int n, int j, int nat, int wil, int val, int opt) noexcept nogil:
    """The runs beginning at q (fresh ones from option opt on: 0/1 a tail at A by a natural/wild,
    2/3 a run inside A..K, 4 + 2i (+1) the head of record it[i]), then the successor."""
    cdef int i, code, hi, rw, x, y, cnt
    _ow_emit(c, it, n, j, nat, wil, val)
    for x in range(opt, 4 + 2 * n):
        if x < 4:
            if n >= 3 or j >= c.jcap:
                continue
            if x < 2:
                if c.q != 1:
                    continue
                it[n] = OW_SUF + (x & 1) * 2
            else:
                if c.q < c.qb or c.q > 10 or c.nstop:
                    continue                    # CR-10 order; 4 cards by K; a run stopped at q-1 (join)
                it[n] = OW_NORM + ((c.q - 1) * 3 + (x & 1)) * 4 + c.ac * 2
            _ow_starts(c, it, n + 1, j + 1, nat + 1 - (x & 1), wil + (x & 1), val, x)
        else:
            i = (x - 4) >> 1
            code = it[i]
            if code < OW_REC or code >= OW_PRE or c.q < c.qb:
                continue
            hi = (code - OW_REC) // 3 + 1
            rw = (code - OW_REC) % 3
            if (x & 1) and rw >= 2:
                continue
            cnt = 0
            for y in range(c.nstop):
                if c.stoplo[y] > hi:            # that run and this one would be apart and touch
                    cnt = 1
            if cnt or not _ow_fixed_ok(c, _ow_wrapmask(c.q, hi)):
                continue
            cnt = hi + 1
            it[i] = OW_PRE + (((cnt if cnt < 4 else 4) * 3 + rw + (x & 1)) * 2)
            _ow_starts(c, it, n, j, nat + 1 - (x & 1), wil + (x & 1), val, x + 2 - (x & 1))
            it[i] = code


cdef enum:
    OW_CACHE = 64
cdef uint64_t _ow_ckey[OW_CACHE]            # a fresh suit's answer by (suit, its counts, R, W) + 1, 0 = none
cdef int _ow_cval[OW_CACHE][4][RX_W]


cdef int _suit_runs_ovw(const CRState *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The overlapping_runs runs DP with ace_wrap: :func:`_suit_runs_ovw_dp`, its answers for a
    suit with no run laid yet (the same counts, runs and pool: the same answer) kept in a
    direct-mapped cache of 64 (the walk asks the other suits again at every step)."""
    cdef int nb = CBOOKS[st.round], m, r, w, i
    cdef uint64_t key = 0
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k + (1 if st.gd_open else 0)):
            if st.melds[m].kind == MK_RUN and st.melds[m].suit == s:
                return _suit_runs_ovw_dp(st, s, R, W, out)
    for i in range(13):
        key = key * 3 + st.hand[0][s * 13 + i]
    key = ((key * 4 + s) * 4 + R) * 16 + W + 1
    i = <int>(key % OW_CACHE)
    if _ow_ckey[i] != key:
        _suit_runs_ovw_dp(st, s, R, W, _ow_cval[i])
        _ow_ckey[i] = 0 if _ow_nomem else key
    for r in range(4):
        for w in range(RX_W):
            out[r][w] = _ow_cval[i][r][w]
    return 0


cdef int _suit_runs_ovw_dp(const CRState *st, int s, int R, int W, int out[4][RX_W]) noexcept nogil:
    """The overlapping_runs runs DP with ace_wrap (CR-3 option, CR-5, CR-10 option): out[r][w] as
    :func:`_suit_runs`, below the lay-down in progress of st.  The suit's ranks are a cycle;
    a run is an arc of 4..13 ranks (each rank once).  The cycle is cut between K and A and
    swept A..K once (each rank's naturals used once); a run is an item of the state's multiset
    (at most 3): a run inside A..K (its first rank and wilds; its cards follow from the
    position), a wrapping run's tail (begun at A, its wilds), the tail's record once it ends
    (its last rank hi and wilds), and the head that binds a record later (at or after the
    CR-10 order's first rank, cards bucket 0..4+ and wilds, open through K).  Two runs of the
    suit join (CR-10, ``kz_runs_join``: apart, touching round the cycle) only at a rank where
    one stops and the next begins, and the sweep checks each case where it happens: inside
    A..K (never), a run stopping just before a head (joined unless the head's tail reaches
    its first rank), a run beginning just after a tail (joined unless it is still open when
    the head begins), across K-A (a run from A that stopped at hi and a run open through K
    begun after hi: the bit ``ac`` and each run's no-K bit); runs laid before by their masks.
    The run being laid is the item flagged is-open-run: its laid cards stand free at its
    first ranks (wrapped already: a tail from A).  Bound: 13 positions x the reached states
    (at most 228^3 / 6 item multisets x 5 runs counted x 13 wilds x 2, far fewer reached) x at
    most 27 x 8 x 945 moves each."""
    global _ow_nomem
    cdef const uint8_t *h = st.hand[0]
    cdef int nb = CBOOKS[st.round], m, q, cur = 0, i, a, n, nn, j, w, v, combo, ncombo, t, x, y
    cdef int code, lo, iw, nk, iso, bad, nat, wil, hi, jj, kk, k
    cdef uint32_t key
    cdef int it[3]
    cdef int ni[6]
    cdef int recs_hi[3]
    cdef int nrec
    cdef _OwCtx c
    cdef _OwTab *T
    cdef const Meld *md
    for j in range(4):
        for w in range(RX_W):
            out[j][w] = RX_NEG
    if _ow_tab[0].cap == 0:
        if _ow_alloc(&_ow_tab[0], 12) < 0 or _ow_alloc(&_ow_tab[1], 12) < 0:
            _ow_nomem = 1
            return -1
    memset(&c, 0, sizeof(_OwCtx))
    c.qb = 1
    c.vw = 20 * RX_CARD + 1
    if st.phase == PH_BUILD:
        for m in range(nb, st.gd_k):
            md = &st.melds[m]
            if md.suit == s:
                c.fix[c.nfix] = run_mask(1, md.lo, md.lo + md.n - 1)
                c.nfix += 1
                c.qb = md.lo
        if st.gd_open and st.gd_k >= nb and st.melds[st.gd_k].suit == s:
            md = &st.melds[st.gd_k]
            c.qb = md.lo
            c.olo = md.lo
            c.ow = md.wilds
            if md.lo + md.n - 1 <= 13:
                c.ocase = 1
                c.oend = md.lo + md.n - 1
            else:
                c.ocase = 2
                c.oend = md.lo + md.n - 14
    c.jcap = R + (1 if c.ocase == 1 else 0)
    for lo in range(1, 14):
        for hi in range(lo, 14):
            c.fxok[lo][hi] = _ow_fixed_ok(&c, _ow_mask(lo, hi))
        for hi in range(1, lo):
            c.fwok[lo][hi] = _ow_fixed_ok(&c, _ow_wrapmask(lo, hi))
    T = _ow_tab
    _ow_clear(&T[0])
    _ow_clear(&T[1])
    _ow_put(&T[0], 0, 0)
    for q in range(1, 14):
        k = nat_kind(s, q)
        c.q = q
        c.two = is_two(k)
        c.avail = h[k]
        c.vn = POINTS[k] * RX_CARD + 1
        c.nx = &T[1 - cur]
        for i in range(T[cur].nact):
            key = T[cur].keys[T[cur].act[i]]
            v = T[cur].vals[T[cur].act[i]]
            n = 0
            for a in range(3):
                t = (key >> (16 - 8 * a)) & 255
                if t:
                    it[n] = t - 1
                    n += 1
            j = (key >> 24) & 7
            w = key >> 28
            c.W = (w << 8) | W
            if q == 1 and c.ocase == 2:
                if n < 3:
                    # the wrapped open run: its tail from A (laid so far: free), not one of the r
                    it[n] = OW_SUF + c.ow * 2 + 1
                    n += 1
                else:
                    continue
            # every open item stops, takes a natural or a wild (records wait)
            ncombo = 1
            for a in range(n):
                if it[a] < OW_REC or it[a] >= OW_PRE:
                    ncombo *= 3
            for combo in range(ncombo):
                t = combo
                bad = 0
                nat = 0
                wil = 0
                nn = 0
                nrec = 0
                c.nstop = 0
                c.ac = (key >> 27) & 1
                for a in range(n):
                    code = it[a]
                    if code >= OW_REC and code < OW_PRE:
                        ni[nn] = code
                        nn += 1
                        continue
                    x = t % 3
                    t //= 3
                    if code < OW_SUF:
                        lo = (code >> 2) // 3 + 1
                        iw = (code >> 2) % 3
                        nk = (code >> 1) & 1
                        iso = code & 1
                        if iso and q <= c.oend:
                            if x:
                                bad = 1             # a laid card: only the free move (x 0)
                            else:
                                ni[nn] = code
                                nn += 1
                            continue
                        if x == 0:
                            if q - lo < 4 or not c.fxok[lo][q - 1]:
                                bad = 1
                                continue
                            for y in range(n):      # a tail that ended just before it: its head
                                if it[y] >= OW_REC and it[y] < OW_PRE and \
                                        (it[y] - OW_REC) // 3 + 1 == lo - 1:
                                    bad = 1         # begins after this one stopped (joined)
                            c.stoplo[c.nstop] = lo
                            c.nstop += 1
                            if lo == 1:
                                c.ac = 1
                        elif x == 1:
                            nat += 1
                            ni[nn] = code
                            nn += 1
                        else:
                            if iw >= 2:
                                bad = 1
                                continue
                            wil += 1
                            ni[nn] = code + 4
                            nn += 1
                    elif code < OW_REC:
                        iw = ((code - OW_SUF) >> 1)
                        iso = code & 1
                        if iso and q <= c.oend:
                            if x:
                                bad = 1
                            else:
                                ni[nn] = code
                                nn += 1
                            continue
                        if x == 0:
                            if q == 1:
                                bad = 1
                                continue
                            if iso:
                                # the wrapped open run ends at q - 1 (its head is laid)
                                if (q - 1) + (14 - c.olo) < 4 or \
                                        not _ow_fixed_ok(&c, _ow_wrapmask(c.olo, q - 1)):
                                    bad = 1
                            else:
                                ni[nn] = OW_REC + (q - 2) * 3 + iw
                                nn += 1
                            continue
                        if (q > 12) or (iso and q >= c.olo):
                            bad = 1                 # a head must follow (each rank once)
                            continue
                        if x == 1:
                            nat += 1
                            ni[nn] = code
                        else:
                            if iw >= 2:
                                bad = 1
                                continue
                            wil += 1
                            ni[nn] = code + 2
                        nn += 1
                    else:
                        iso = code & 1
                        jj = ((code - OW_PRE) >> 1) // 3
                        iw = ((code - OW_PRE) >> 1) % 3
                        if iso and q <= c.oend:
                            if x:
                                bad = 1
                            else:               # a laid card: it counts, costs nothing
                                jj = jj + 1 if jj < 4 else 4
                                ni[nn] = OW_PRE + ((jj * 3 + iw) * 2) + iso
                                nn += 1
                            continue
                        if x == 0:
                            bad = 1                 # a head stays open through K
                            continue
                        jj = jj + 1 if jj < 4 else 4
                        if x == 1:
                            nat += 1
                        else:
                            if iw >= 2:
                                bad = 1
                                continue
                            wil += 1
                            iw += 1
                        ni[nn] = OW_PRE + ((jj * 3 + iw) * 2) + iso
                        nn += 1
                if bad or nat > c.avail:
                    continue
                # the open run (ocase 1) begins at its first rank: inside A..K, or as a head
                if c.ocase == 1 and q == c.olo:
                    c.ostart = 1
                    x = 1 if c.oend >= q else 0     # its first card laid already: free
                    # inside A..K
                    if nn < 3 and not c.nstop:
                        if x:
                            ni[nn] = OW_NORM + ((q - 1) * 3 + c.ow) * 4 + c.ac * 2 + 1
                            _ow_starts(&c, ni, nn + 1, j, nat, wil, v, 0)
                        else:
                            ni[nn] = OW_NORM + ((q - 1) * 3 + 0) * 4 + c.ac * 2 + 1
                            _ow_starts(&c, ni, nn + 1, j, nat + 1, wil, v, 0)
                            ni[nn] = OW_NORM + ((q - 1) * 3 + 1) * 4 + c.ac * 2 + 1
                            _ow_starts(&c, ni, nn + 1, j, nat, wil + 1, v, 0)
                    # the head of a record (its tail was counted as a fresh run: j - 1)
                    for a in range(nn):
                        code = ni[a]
                        if code < OW_REC or code >= OW_PRE:
                            continue
                        hi = (code - OW_REC) // 3 + 1
                        iw = (code - OW_REC) % 3 + c.ow
                        bad = 0
                        for y in range(c.nstop):
                            if c.stoplo[y] > hi:
                                bad = 1
                        if bad or iw > 2 or not _ow_fixed_ok(&c, _ow_wrapmask(q, hi)):
                            continue
                        kk = hi + 1 if hi + 1 < 4 else 4
                        if x:
                            ni[a] = OW_PRE + (kk * 3 + iw) * 2 + 1
                            _ow_starts(&c, ni, nn, j - 1, nat, wil, v, 0)
                        else:
                            ni[a] = OW_PRE + (kk * 3 + iw) * 2 + 1
                            _ow_starts(&c, ni, nn, j - 1, nat + 1, wil, v, 0)
                            if iw < 2:
                                ni[a] = OW_PRE + (kk * 3 + iw + 1) * 2 + 1
                                _ow_starts(&c, ni, nn, j - 1, nat, wil + 1, v, 0)
                        ni[a] = code
                    c.ostart = 0
                else:
                    _ow_starts(&c, ni, nn, j, nat, wil, v, 0)
        _ow_clear(&T[cur])
        cur = 1 - cur
        if _ow_nomem:
            _ow_clear(&T[cur])
            return -1
    # the end: every run open through K is whole, no record waits for its head
    for i in range(T[cur].nact):
        key = T[cur].keys[T[cur].act[i]]
        v = T[cur].vals[T[cur].act[i]]
        j = (key >> 24) & 7
        w = key >> 28
        if j > R:
            continue
        bad = 0
        for a in range(3):
            t = (key >> (16 - 8 * a)) & 255
            if not t:
                continue
            code = t - 1
            if code < OW_SUF:
                lo = (code >> 2) // 3 + 1
                if (code >> 1) & 1 or 14 - lo < 4 or not c.fxok[lo][13]:
                    bad = 1
            elif code < OW_PRE:
                bad = 1
            elif ((code - OW_PRE) >> 1) // 3 < 4:
                bad = 1
        if not bad and v > out[j][w]:
            out[j][w] = v
    _ow_clear(&T[cur])
    return 0


cdef int _books_value(const uint8_t *h, int nb) noexcept nogil:
    """Books only (rounds 1 and 4, CR-4): the best value (points * RX_CARD + cards, CR-15)
    ``nb`` books can lay from the counts ``h``, -1 when they cannot (CR-2, CR-5: 3+ cards
    of one rank, at most 1 wild; in a book of 2s the 2s are natural and only a Joker is
    wild).  A book's rank holds all its naturals in an optimal lay-down (one more natural
    is never worse), so it is a DP over the ranks other than 2: k = 0..3 books of rank r
    (2k <= its naturals n; they need max(0, 3k - n) wilds, and have k wild places),
    counting books and wilds needed; then k2 books of 2s (3k2 cards, at most k2 Jokers, all
    the 2s they can take) and the pool: every 2 lies when there is a book of 2s, the
    Jokers up to the wild places.  O(12 x 4 x 4 x 13 x 4) steps."""
    cdef int J = h[JK], T2 = h[1] + h[14] + h[27] + h[40], P, r, s, k, n, val, b, d, D, k2, v, laid
    cdef int best[4][14]
    cdef int nxt[4][14]
    cdef int res = -1
    P = J + T2
    for b in range(4):
        for D in range(14):
            best[b][D] = RX_NEG
    best[0][0] = 0
    for r in range(1, 14):
        if r == 2:
            continue
        n = 0
        val = 0
        for s in range(4):
            k = s * 13 + r - 1
            n += h[k]
            val += h[k] * (POINTS[k] * RX_CARD + 1)
        for b in range(4):
            for D in range(14):
                nxt[b][D] = best[b][D]
        for k in range(1, 4):
            if n < 2 * k:
                break
            d = 3 * k - n if 3 * k > n else 0
            for b in range(nb - k + 1):
                for D in range(P - d + 1):
                    if best[b][D] != RX_NEG and best[b][D] + val > nxt[b + k][D + d]:
                        nxt[b + k][D + d] = best[b][D] + val
        for b in range(4):
            for D in range(14):
                best[b][D] = nxt[b][D]
    for k2 in range(nb + 1):
        b = nb - k2
        if k2:
            if 3 * k2 - (k2 if k2 < J else J) > T2:
                continue
            laid = T2 + (J if J < b + k2 else b + k2)
            d = P - 3 * k2
        else:
            laid = P if P < b else b
            d = P
        for D in range(d + 1 if d < 13 else 14):
            v = best[b][D]
            if v != RX_NEG and v + laid * (20 * RX_CARD + 1) > res:
                res = v + laid * (20 * RX_CARD + 1)
    return res


cdef list _book_candidates(const uint8_t *h):
    """Every book the counts ``h`` can make, as its cards' codes in laying order (naturals by
    kind, then the wild), ascending: the order of best_arrangement's key."""
    cdef int r, s, a0, a1, a2, a3, k, w
    out = []
    for r in range(1, 14):
        ks = [s * 13 + r - 1 for s in range(4)]
        wilds = [JK] if r == 2 else [1, 14, 27, 40, JK]
        for a0 in range(h[ks[0]] + 1):
            for a1 in range(h[ks[1]] + 1):
                for a2 in range(h[ks[2]] + 1):
                    for a3 in range(h[ks[3]] + 1):
                        nat = ([KIND_CODE[ks[0]]] * a0 + [KIND_CODE[ks[1]]] * a1 +
                               [KIND_CODE[ks[2]]] * a2 + [KIND_CODE[ks[3]]] * a3)
                        if len(nat) >= 3:
                            out.append(tuple(nat))
                        if len(nat) >= 2:
                            for w in wilds:
                                if h[w]:
                                    out.append(tuple(nat) + (KIND_CODE[w],))
    out.sort()
    return out


cdef object _books_walk(uint8_t *h, int nb):
    """Books only: the least key (books sorted by their cards) of the lay-downs laying
    :func:`_books_value`: book by book, the least candidate (:func:`_book_candidates`) that
    some best lay-down holds (its value plus the best of the rest is the best).  None when
    the hand has no ``nb`` books.  At most nb x 13 x 3^4 x 6 candidates, each one DP."""
    cdef int target = _books_value(h, nb), i, v, val
    if target < 0:
        return None
    lay = []
    for i in range(nb):
        found = None
        for cand in _book_candidates(h):
            val = 0
            for c in cand:
                h[CODE_KIND[c]] -= 1
                val += POINTS[CODE_KIND[c]] * RX_CARD + 1
            v = _books_value(h, nb - i - 1)
            if v >= 0 and val + v == target:
                found = cand
                target = v
                break
            for c in cand:
                h[CODE_KIND[c]] += 1
        if found is None:
            raise AssertionError("best_arrangement: the books DP found no book")
        lay.append(("book", -1, 0, found))
    return lay

cdef int _runs_rest(const CRState *st) noexcept nogil:
    """The best value (points * RX_CARD + cards) seat 0 can still lay from st when only runs
    are left to lay (st.gd_k >= the contract's books): the run being laid and the fresh runs
    after it, exactly (:func:`_suit_runs`, with ace_wrap :func:`_suit_runs_wrap`, with
    overlapping_runs and 2+ runs :func:`_suit_runs_ov`, with both :func:`_suit_runs_ovw`;
    suits joined by the pool wilds each uses); -1 when the lay-down
    cannot be completed.  Polynomial: O(4 x 14 x 4 x 13 x 5 x 3 x 4 + 4 x 4^2 x 13^2) steps,
    with ace_wrap O(4 x 13 x 13 x 4 x 13 x 5 x 3 x 2 + 4 x 4^2 x 13^2)."""
    cdef const uint8_t *h = st.hand[0]
    cdef int W = h[JK] + h[1] + h[14] + h[27] + h[40]
    cdef int one[4][RX_W]
    cdef int acc[4][RX_W]
    cdef int tmp[4][RX_W]
    cdef int s, r, w, r2, w2, best, R, s_last = -1, lo_next = 1, k, nb = CBOOKS[st.round]
    cdef int open_l = -1, open_cw = 0, open_lo1 = 0, force = 0
    cdef const Meld *md
    if st.phase != PH_BUILD:
        return 0
    R = CRUNS[st.round] - (st.gd_k - nb)
    if st.gd_open:
        md = &st.melds[st.gd_k]
        R -= 1
        s_last = md.suit
        lo_next = md.lo + md.n
        open_l = md.n
        open_cw = md.wilds
        open_lo1 = md.lo == 1
        force = md.n == 0
    elif st.gd_k > nb:
        md = &st.melds[st.gd_k - 1]
        s_last = md.suit
        lo_next = md.lo + md.n + 1
    if W > RX_W - 1:
        W = RX_W - 1
    for r in range(4):
        for w in range(RX_W):
            acc[r][w] = RX_NEG
    acc[0][0] = 0
    for s in range(4):
        if s < s_last:
            continue                            # CR-10 order: no run of this suit any more
        if st.opt_overlap and CRUNS[st.round] >= 2 and st.opt_wrap:
            _suit_runs_ovw(st, s, R, W, one)
        elif st.opt_overlap and CRUNS[st.round] >= 2:
            _suit_runs_ov(st, s, R, W, one)
        elif st.opt_wrap:
            _suit_runs_wrap(st, s, R, W, one)
        elif s == s_last and open_l >= 0:
            _suit_runs(h, s, 1, R, W, one, lo_next, open_l, open_cw, open_lo1, force)
        else:
            _suit_runs(h, s, lo_next if s == s_last else 1, R, W, one, 1, -1, 0, 0, 0)
        for r in range(R + 1):
            for w in range(W + 1):
                tmp[r][w] = RX_NEG
        for r in range(R + 1):
            for w in range(W + 1):
                if acc[r][w] == RX_NEG:
                    continue
                for r2 in range(R + 1 - r):
                    for w2 in range(W + 1 - w):
                        if one[r2][w2] != RX_NEG and acc[r][w] + one[r2][w2] > tmp[r + r2][w + w2]:
                            tmp[r + r2][w + w2] = acc[r][w] + one[r2][w2]
        for r in range(R + 1):
            for w in range(W + 1):
                acc[r][w] = tmp[r][w]
    best = -1
    for w in range(W + 1):
        if acc[R][w] > best:
            best = acc[R][w]
    return best


cdef int _fresh_ub(const CRState *st, int first, const kz_meld_rules *rules, int use_solver) noexcept nogil:
    """An upper bound on the points the contract's melds ``first``.. (not yet begun) can lay
    from seat 0's hand: the shared solver's fewest points left for that many books and runs
    (``kz_meld_contract``, which knows no join rule: a relaxation); -1 when even that has
    none.  Hands over BB_SOLVER_MAX cards, or use_solver 0: every card's points (no bound)."""
    cdef int nb = CBOOKS[st.round], nr = CRUNS[st.round], books, runs, k, c, n = 0, pts
    cdef uint8_t buf[KZ_MELD_MAX_HAND]
    books = nb - first if nb > first else 0
    runs = nr - (first - nb if first > nb else 0)
    if runs < 0:
        runs = 0
    pts = _hand_value(st, &n)
    if books == 0 and runs == 0:
        return 0
    if n > BB_SOLVER_MAX or not use_solver:
        return pts
    n = 0
    for k in range(NK):
        for c in range(st.hand[0][k]):
            buf[n] = KIND_CODE[k]
            n += 1
    c = kz_meld_contract(rules, buf, n, books, runs, NULL)
    if c < 0:
        return -1
    return pts - c


cdef int _open_ub(const CRState *st, int *cards) noexcept nogil:
    """An upper bound on the points (and in *cards the cards) the open meld can still take:
    a book its rank's naturals from the last kind laid on and one wild; a run the positions
    up to its (free wilds + 1)-th gap, each natural's points, plus 20 per free wild."""
    cdef const Meld *md = &st.melds[st.gd_k]
    cdef int wilds = st.hand[0][JK] + st.hand[0][1] + st.hand[0][14] + st.hand[0][27] + st.hand[0][40]
    cdef int pts = 0, c = 0, s, k, b, room, i, miss = 0, walked = 0
    if md.kind == MK_BOOK:
        if st.gd_last < NO_NAT:
            for s in range(4):
                k = s * 13 + md.rank - 1
                if k >= st.gd_last:
                    pts += st.hand[0][k] * POINTS[k]
                    c += st.hand[0][k]
        if md.wilds == 0 and (st.hand[0][JK] > 0 if md.rank == 2 else wilds > 0):
            pts += 20
            c += 1
        cards[0] = c
        return pts
    b = 2 - md.wilds
    if b > wilds:
        b = wilds
    room = 13 - md.n
    if room > pos_hi(st.opt_wrap) - (md.lo + md.n) + 1:
        room = pos_hi(st.opt_wrap) - (md.lo + md.n) + 1
    for i in range(room):
        k = nat_kind(md.suit, md.lo + md.n + i)
        if st.hand[0][k] > 0:
            pts += POINTS[k]
        else:
            miss += 1
            if miss > b:
                break
        walked += 1
    cards[0] = walked
    return pts + 20 * b


cdef class _Best:
    cdef int pts0, n0, best_p, best_c, use_solver, exact
    cdef object key
    cdef kz_meld_rules rules


cdef int _record(CRState *leaf, _Best X) except -1:
    """A finished lay-down: keep it in X when it lays more (points, then cards) or as much
    with a lesser key (sorted melds, leftover)."""
    cdef int rem_n = 0, rem_p, lp, ln
    rem_p = _hand_value(leaf, &rem_n)
    lp = X.pts0 - rem_p
    ln = X.n0 - rem_n
    if lp > X.best_p or (lp == X.best_p and ln > X.best_c):
        X.best_p = lp
        X.best_c = ln
        lay, left = _laydown_of(leaf)
        X.key = (tuple(sorted(lay)), left)
    elif lp == X.best_p and ln == X.best_c:
        lay, left = _laydown_of(leaf)
        key = (tuple(sorted(lay)), left)
        if key < X.key:
            X.key = key
    return 0


cdef int _walk(const CRState *st, _Best X, int target) except -1:
    """Only runs left below st (any option :func:`_runs_rest` covers): the least-key lay-down
    laying ``target`` (:func:`_runs_rest`'s value, the best) from st, one step at a time.  The
    key orders runs by (suit, first position, cards), the order the CR-10 sequence lays them
    in, so the least key takes at each step the least step that keeps ``target`` reachable:
    finishing the run (a shorter run is less), else the least card code, else the least
    (suit, first position) to start.  O(41 steps x 50 actions) calls of :func:`_runs_rest`."""
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n, i, j, rest, n0 = 0, n1 = 0, p0, p1, found
    cdef CRState node
    cdef CRState child
    memcpy(&node, st, sizeof(CRState))
    while node.phase == PH_BUILD:
        n = cr_legal_actions(&node, acts)
        p0 = _hand_value(&node, &n0)
        found = 0
        for j in range(n):
            if n and acts[n - 1] == A_FINISH:
                i = n - 1 if j == 0 else j - 1        # finishing first: the shorter run
            else:
                i = j
            memcpy(&child, &node, sizeof(CRState))
            cr_apply(&child, acts[i], NULL)
            p1 = _hand_value(&child, &n1)
            rest = _runs_rest(&child)
            if rest >= 0 and (p0 - p1) * RX_CARD + (n0 - n1) + rest == target:
                memcpy(&node, &child, sizeof(CRState))
                target = rest
                found = 1
                break
        if not found:
            raise AssertionError("best_arrangement: the runs DP and the lay-down sequence disagree")
    return _record(&node, X)


cdef int _bb(CRState *st, _Best X, int fub) except -1:
    """Branch and bound over the lay-down sequence below st: the lay-downs laying the most
    points, then the most cards (X.best_p, X.best_c), and of those the least
    (sorted melds, leftover) in X.key.  fub: the bound of the melds after the open one
    (-2: not known yet).  Once only runs are left in a contract of 2 or 3 runs (X.exact):
    their exact value (:func:`_runs_rest`) and the least lay-down reaching it
    (:func:`_walk`), no branching.  (One run left, rounds 2 and 5: the search over one run's
    start, length and wilds is polynomial already, and faster.)"""
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n, i, rem_n = 0, rem_p, ub_p, ub_c, oc = 0, v
    cdef CRState child
    rem_p = _hand_value(st, &rem_n)
    if X.exact and st.gd_k >= CBOOKS[st.round] and CRUNS[st.round] >= 2:
        v = _runs_rest(st)
        if v < 0:
            return 0
        ub_p = X.pts0 - rem_p + v // RX_CARD
        ub_c = X.n0 - rem_n + v % RX_CARD
        if ub_p < X.best_p or (ub_p == X.best_p and ub_c < X.best_c):
            return 0
        if ub_p == X.best_p and ub_c == X.best_c and CBOOKS[st.round] and X.key is not None:
            # a tie: the key starts with the sorted books, so books not less than the best's
            # cannot give a lesser key (equal books: the same runs below)
            books = tuple(sorted(("book", -1, 0, tuple(_meld_dict(st, k)["cards"]))
                                 for k in range(CBOOKS[st.round])))
            if books >= X.key[0][:CBOOKS[st.round]]:
                return 0
        return _walk(st, X, v)
    if st.gd_open:
        if fub == -2:
            fub = _fresh_ub(st, st.gd_k + 1, &X.rules, X.use_solver)
            if fub < 0:
                return 0
        ub_p = X.pts0 - rem_p + _open_ub(st, &oc) + fub
        ub_c = X.n0
    else:
        fub = _fresh_ub(st, st.gd_k, &X.rules, X.use_solver)
        if fub < 0:
            return 0
        ub_p = X.pts0 - rem_p + fub
        ub_c = X.n0
    if ub_p < X.best_p or (ub_p == X.best_p and ub_c < X.best_c):
        return 0
    n = cr_legal_actions(st, acts)
    for i in range(n):
        memcpy(&child, st, sizeof(CRState))
        cr_apply(&child, acts[i], NULL)
        if child.phase == PH_BUILD:
            # a card into the open meld keeps fub; starting or finishing a meld changes it
            _bb(&child, X, fub if (st.gd_open and child.gd_open) else -2)
        else:
            _record(&child, X)
    return 0


cdef int _book_value(tuple cand):
    cdef int v = 0
    for c in cand:
        v += POINTS[CODE_KIND[c]] * RX_CARD + 1
    return v


cdef bint _book_full(const uint8_t *h, tuple books, int wrap, int overlap=0):
    """The mixed rounds' lemma (no overlapping_runs): in a lay-down laying the most
    (points, then cards) every natural of a book's rank lies in a book or a run, and the
    runs hold at most one card of each (suit, rank) (runs of one suit do not share a rank,
    CR-10), so the books leave at most 1 of each natural of their ranks.  Excepted: rank 2
    (a 2 is also a wild in a run, CR-2) and, without ace_wrap, Aces (CR-3: one run of a
    suit may take its Ace low, another high: ``AS AS AH AH AD 2S 3S 4S JS QS KS`` in round
    6 lays all 11 cards only with both AS in runs).  With ace_wrap a suit's runs lie in one
    window of 13 positions.  With overlapping_runs in round 6 (two runs of one suit may share
    a rank, CR-10 option; every card is held at most twice, CR-1) there is no such lemma:
    ``overlap`` 1 checks only that the hand holds the books.  Whether ``books`` (with counts
    ``h`` before them) keep it."""
    cdef int k, r
    cdef int take[NK]
    memset(take, 0, sizeof(take))
    ranks = set()
    for b in books:
        for c in b:
            take[CODE_KIND[c]] += 1
        ranks.add(kind_rank(CODE_KIND[b[0]]))
    for k in range(NK):
        if take[k] > h[k]:
            return 0
    if overlap:
        return 1
    for r in ranks:
        if r == 2 or (r == 1 and not wrap):
            continue
        for k in range(r - 1, 52, 13):
            if h[k] - take[k] > 1:
                return 0
    return 1


cdef int _after_books(const CRState *st0, CRState *node, tuple books) except -1:
    """node = st0 with ``books`` (each a tuple of codes in laying order) laid by the CR-10
    sequence (cr_apply: add the cards, finish), the books in rank order."""
    memcpy(node, st0, sizeof(CRState))
    for b in sorted(books, key=lambda b: kind_rank(CODE_KIND[b[0]])):
        for c in b:
            cr_apply(node, A_ADD + CODE_KIND[c], NULL)
        cr_apply(node, A_FINISH, NULL)
    return 0


cdef int _set_value(const CRState *st0, tuple books, int bv) except -2:
    """bv (the books' value) plus the runs DP after laying ``books``; -1 when no runs."""
    cdef CRState nd
    cdef int v
    _after_books(st0, &nd, books)
    v = _runs_rest(&nd)
    return v + bv if v >= 0 else -1


cdef object _mixed_best(const CRState *st0, _Best X):
    """Rounds 2, 5 and 6 (books and runs): exact (with overlapping_runs, round 6 every
    book).  Every set of the contract's books that keeps :func:`_book_full` (per book rank
    2^4 choices of the naturals, 6 of the wild; two books: pairs, taken best first by their
    value and cut once
    their value plus the runs DP of the whole hand (a bound: fewer cards lay no more) is
    below the best), each followed by the runs DP (:func:`_runs_rest`); of the best, the
    least sorted books, then the least runs by :func:`_walk`."""
    cdef const uint8_t *h = st0.hand[0]
    cdef int nb = CBOOKS[st0.round], full, best = -1, v, bv, i, j, k, wrap = st0.opt_wrap
    cdef int ov = 1 if st0.opt_overlap and CRUNS[st0.round] >= 2 else 0
    cdef CRState node
    import heapq
    cands = _book_candidates(h)
    memcpy(&node, st0, sizeof(CRState))
    node.gd_k = nb
    full = _runs_rest(&node)
    if full < 0:
        return None
    bestb = None
    if nb == 1:
        L = sorted(((_book_value(c), c) for c in cands if _book_full(h, (c,), wrap, ov)),
                   key=lambda x: (-x[0], x[1]))
        for bv, c in L:
            if bv + full < best:
                break
            if bv + full == best and (c,) >= bestb:
                continue
            v = _set_value(st0, (c,), bv)
            if v > best or (v == best and v >= 0 and (c,) < bestb):
                best = v
                bestb = (c,)
    else:
        # same-rank pairs: explicitly; distinct ranks: pairs of the single books, best first
        singles = sorted(((_book_value(c), c) for c in cands if _book_full(h, (c,), wrap, ov)),
                         key=lambda x: (-x[0], x[1]))
        byrank = {}
        for c in cands:
            byrank.setdefault(kind_rank(CODE_KIND[c[0]]), []).append(c)
        same = []
        for r, cs in byrank.items():
            for i in range(len(cs)):
                for j in range(i, len(cs)):
                    if _book_full(h, (cs[i], cs[j]), wrap, ov):
                        same.append((_book_value(cs[i]) + _book_value(cs[j]), (cs[i], cs[j])))
        same.sort(key=lambda x: (-x[0], x[1]))
        n1 = len(singles)
        heap = [(-2 * singles[0][0], 0, 0)] if n1 else []
        seen = {(0, 0)}
        si = 0
        while True:
            # the next best of the two streams
            top_d = -heap[0][0] if heap else -1
            top_s = same[si][0] if si < len(same) else -1
            if top_d < 0 and top_s < 0:
                break
            if top_s >= top_d:
                bv = top_s
                books = same[si][1]
                si += 1
            else:
                _, i, j = heapq.heappop(heap)
                for a, b in ((i + 1, j), (i, j + 1)):
                    if a <= b < n1 and (a, b) not in seen:
                        seen.add((a, b))
                        heapq.heappush(heap, (-(singles[a][0] + singles[b][0]), a, b))
                bv = singles[i][0] + singles[j][0]
                books = (singles[i][1], singles[j][1])
                if kind_rank(CODE_KIND[books[0][0]]) == kind_rank(CODE_KIND[books[1][0]]):
                    continue                    # same rank: the other stream
                if not _book_full(h, books, wrap, ov):
                    continue
            if bv + full < best:
                break
            if bv + full == best and tuple(sorted(books)) >= bestb:
                continue
            v = _set_value(st0, books, bv)
            key = tuple(sorted(books))
            if v > best or (v == best and v >= 0 and key < bestb):
                best = v
                bestb = key
    if bestb is None:
        return None
    _after_books(st0, &node, bestb)
    v = _runs_rest(&node)
    _walk(&node, X, v)
    return X.key


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

    Cost (the answer is exact; n = cards in hand, 41 at most in a real game without buys):

    * Books only (rounds 1 and 4, any option), n >= 14: no search.  A DP over the ranks
      (every natural of a book's rank lies in its books; books of 2s take the 2s, only
      Jokers as their wild, CR-2, CR-5) gives the best (points, cards) in O(12 x 4 x 4 x 13
      x 4) steps; the least key is then found book by book, the least candidate book some
      best lay-down holds: at most books x 13 x 3^4 x 6 candidates, one DP each.
    * Only runs left in a contract of 2 or 3 runs (rounds 3 and 7 from the start, round 6
      after its book), no overlapping_runs, n >= 14: no search.  A DP over each suit's 14
      positions (CR-3 Ace low or high, never both; CR-5 at most 2 wilds a run, a 2 in its
      place natural; CR-10 runs in (suit, first position) order that do not join), suits
      joined by the wilds each uses: O(4 x 14 x 4 x 13 x 5 x 3 x 4) steps.  With ace_wrap
      a suit's first run fixes a window of 13 positions that all its runs lie in (no run
      covers a rank twice; the others end a rank before the first, round the corner):
      O(4 x 13 windows x 13 x 4 x 13 x 5 x 3 x 2) steps.  The least lay-down reaching the
      best is walked one step at a time (at most 41 steps x 50 actions, each one DP).
    * Books and runs (rounds 2, 5, 6), no overlapping_runs, n >= 14: no search.  In a best
      lay-down every natural of a book's rank lies in a book or a run, and the runs hold at
      most one card of each (suit, rank) (CR-10; not the 2s, also wilds, nor without
      ace_wrap the Aces, low in one run and high in another), so a book of rank 3..K has
      at most 2^4 choices of its naturals and 6 of its wild (CR-2, CR-5), a book of 2s
      3^4 x 2, of Aces 3^4 x 6: B <= 11 x 16 x 6 + 162 + 486 = 1,704 single books, at
      most B^2 / 2 pairs (round 5; the pairs of one rank listed apart), each followed by
      the runs DP above: O(B^2 x 4 x 14 x 4 x 13 x 5 x 3 x 4) steps at worst (with
      ace_wrap its bound).  The sets are taken best first by the books' value and cut once
      that plus the runs DP of the whole hand (fewer cards lay no more) is below the best,
      so few are tried.  The least key: the least sorted books of the best, then the runs
      walk above.
    * overlapping_runs without ace_wrap, n >= 14 (CR-10 option: runs of one suit may
      overlap but never continue one another): rounds 3 and 7, and round 6 after its book,
      by a DP over each suit's 14 positions whose state is the multiset of the suit's open
      runs (at most 3, each: cards 0..4+, wilds 0..2, begun at the low Ace), the runs begun,
      the pool wilds and the low Aces used; at a position each open run stops (4+ cards) or
      takes a natural or a wild, fresh runs begin where no run stopped just before: at most
      14 x 5,456 x 4 x 13 x 3 states x 27 x 10 moves a suit (the states reached are far
      fewer).  Round 6 tries every book (no lemma: two runs may share a rank; at most 13 x
      3^4 x 6 = 6,318), best first with the cut above, each followed by that DP.  Rounds 2
      and 5 hold one run, where the option changes nothing: the mixed DP above (ace_wrap
      too).
    * overlapping_runs with ace_wrap, n >= 14 (CR-3 option: runs go round K-A-2, an arc of
      4..13 ranks, each rank once): rounds 3, 7 and round 6 as above, by a DP over each
      suit's 13 ranks as a cycle cut between K and A and swept A..K once (each rank's
      naturals once).  Its state is the multiset (at most 3) of the suit's run pieces: a
      run inside A..K (its first rank, wilds 0..2), a wrapping run's tail (begun at A), the
      tail's record once it ends (its last rank, wilds) and the head that binds a record
      later (open through K; cards 0..4+, wilds), with the runs counted, the pool wilds and
      one bit for the join across K-A.  Two runs join (apart and touching, CR-10,
      ``kz_runs_join``) only where one stops and the next begins, and each such place is
      checked where the sweep meets it: inside A..K always joined; a run stopping just
      before a head unless the head's tail reached the run's first rank; a run beginning
      just after a tail unless it is open when the head begins; a run from A against one
      open through K begun after it stopped.  A first rank or a record's last rank is kept
      only as far as those checks (and the runs laid before) tell it apart.  Bound: 13
      positions x at most C(231, 3) = 2,027,795 item multisets x 5 x 2 x 13 states (a
      constant, whatever n) x at most 27 moves of the pieces x 8 of the run being laid x
      945 of the runs beginning (35 fresh starts x 3^3 records bound);
      reached: at most 282,000 states over the 4 suits' 52 layers on the worst hand below.
      A suit with no run laid yet keeps its answer in a cache (the walk asks it again at
      every step).
    * Everything else is a branch and bound over the CR-10 lay-down sequence, not proven
      polynomial: hands under 14 cards (bounded by the lay-downs of 13 cards; the search is
      faster there, and the tests check both against the exhaustive enumeration).  It is
      bounded by the shared solver (``melds.pxd`` ``kz_meld_contract``) for 17..24 cards,
      except with overlapping_runs, where that solver (it keeps two runs of one suit apart)
      is no bound.

    Measured (benches/meld_worst_cases.py, the worst hands we could construct, and random
    hands of 14..41 cards): books only at most 0.002 s (0.24 s before); the runs DP at most
    0.03 s for 41 cards (round 7 with ace_wrap: 88 s before on a random 41-card hand); the
    mixed DP: round 5 at most 0.93 s (9.8 s before; the slowest of 120 hunted 40-card hands
    of 3-8 ranks twice and 8 wilds, ace_wrap), round 6 0.3 s; the overlap DP: at most
    0.04 s on the worst hands of 41 cards (rounds 3, 6, 7: the branch and bound 6..41 s
    and more), 0.16 s round 5; the overlap-with-wrap DP: at most 2.1 s (round 7 on 41
    cards, two suits twice and 4 wilds; round 6 1.1 s, round 3 0.2 s; the branch and bound
    took 14.6 s on 17 cards and over 30 s from 20), 0.09..0.12 s on 17..24 cards, at most
    0.15 s on 600 random hands of 14..20 cards and 1.1 s on 60 random 41-card hands (round
    6); a tester's hunt found worse for round 7 with both options: spades twice, 4 Jokers and
    2H 2H 2D 2D 2C 2C 3H 5H 7H 9H JH (41 cards) 3.3-3.5 s of CPU, 36 cards 2.9 s, 32 cards
    2.3 s (the DP's states are bounded whatever n; its three runs in one suit are the cost).
    A hand can pass 41 cards when players buy without limit (CR-8 buy_limit): the double deck,
    108 cards, round 7 with both options took 9.7 s wall on the loaded 2-core machine; see
    benches/README.md.
    """
    if not isinstance(hand, str):
        hand = _parse_cards(hand)       # once: an iterator is read once (ValueError when no cards)
    return _best_arrangement(hand, _round_no(rnd), _flag("ace_wrap", ace_wrap),
                             _flag("overlapping_runs", overlapping_runs), as_codes, RX_MIN, ascii)


def _best_arrangement(hand, rnd, ace_wrap, overlapping_runs, as_codes, int exact_min, ascii=False):
    """best_arrangement, the runs DP from hands of ``exact_min`` cards (tests: 0, every hand;
    99, never: the plain branch and bound)."""
    cdef ContractRummyState s
    cdef _Best X
    cdef int n = 0
    if not _can_go_down_hand(hand, rnd, ace_wrap, overlapping_runs):
        return None
    s = _laydown_state(hand, rnd, ace_wrap, overlapping_runs)
    X = _Best()
    X.n0 = 0
    X.pts0 = _hand_value(S(s), &X.n0)
    f = (lambda c: c) if as_codes else ((lambda c: format_card(c, True)) if ascii else format_card)
    if CRUNS[rnd] == 0 and X.n0 >= exact_min:
        lay = _books_walk(S(s).hand[0], CBOOKS[rnd])       # books only: exact, no search
        if lay is None:
            raise AssertionError("best_arrangement: the books DP and the going-down check disagree")
        left = _codes(S(s).hand[0])
        pts = _hand_value(S(s), &n)
        return ([[f(c) for c in m[3]] for m in lay], [f(c) for c in left], pts)
    # the shared solver's contract mode keeps two runs of one suit apart: a bound only
    # without overlapping_runs (with it, the solver's best can lay less than a lay-down can)
    X.use_solver = 1 if BB_SOLVER_MIN <= X.n0 <= BB_SOLVER_MAX and not overlapping_runs else 0
    # overlapping_runs: the overlap runs DP (with ace_wrap the overlap-with-wrap DP); with
    # one run (rounds 2, 5) the option changes nothing
    X.exact = 1 if X.n0 >= exact_min else 0
    X.best_p = -1
    X.best_c = -1
    X.key = None
    kz_rules_crazy(&X.rules, 1 if ace_wrap else 0)
    if X.exact and CBOOKS[rnd] and CRUNS[rnd]:
        _mixed_best(S(s), X)                    # books and runs: exact, no search
        if X.key is None:
            raise AssertionError("best_arrangement: the mixed DP and the going-down check disagree")
    else:
        _bb(S(s), X, -2)
    _ow_raise()
    if X.key is None:
        return None
    lay, left = X.key
    pts = X.pts0 - X.best_p
    return ([[f(c) for c in m[3]] for m in lay], [f(c) for c in left], pts)


cdef int _dp_check_rec(CRState *st, list bad, int depth) except -2:
    """Tests: _runs_rest(st) against the best child (laid + _runs_rest(child)) below st,
    every node of the runs phase; the inconsistent nodes into bad.  Returns _runs_rest(st)."""
    cdef int32_t acts[NUM_ACTIONS]
    cdef int n, i, best = -1, v, p0, p1, n0 = 0, n1 = 0, r
    cdef CRState child
    if st.phase != PH_BUILD:
        return 0
    v = _runs_rest(st) if st.gd_k >= CBOOKS[st.round] else -1
    n = cr_legal_actions(st, acts)
    p0 = _hand_value(st, &n0)
    for i in range(n):
        memcpy(&child, st, sizeof(CRState))
        cr_apply(&child, acts[i], NULL)
        p1 = _hand_value(&child, &n1)
        r = _dp_check_rec(&child, bad, depth + 1)
        if r >= 0 and (p0 - p1) * RX_CARD + (n0 - n1) + r > best:
            best = (p0 - p1) * RX_CARD + (n0 - n1) + r
        if len(bad) > 3:
            return v
    if st.gd_k >= CBOOKS[st.round] and best != v:
        bad.append(([_meld_dict(st, k) for k in range(st.gd_k + (1 if st.gd_open else 0))],
                    _codes(st.hand[0]), v, best))
    return v


def _dp_check(hand, rnd, ace_wrap, overlap=False, book_actions=()):
    """Tests: the runs DP's consistency below the lay-down of ``book_actions``."""
    cdef ContractRummyState s = _laydown_state(hand, rnd, ace_wrap, overlap)
    cdef CRState *st = S(s)
    for a in book_actions:
        cr_apply(st, a, NULL)
    bad = []
    _dp_check_rec(st, bad, 0)
    _ow_raise()
    return bad


def _runs_rest_after(hand, rnd, ace_wrap, overlap=False, actions=()):
    """Tests: :func:`_runs_rest` after the lay-down steps ``actions`` (action ids)."""
    cdef ContractRummyState s = _laydown_state(hand, rnd, ace_wrap, overlap)
    cdef CRState *st = S(s)
    for a in actions:
        cr_apply(st, a, NULL)
    v = _runs_rest(st)
    _ow_raise()
    return (v // RX_CARD, v % RX_CARD) if v >= 0 else None


_ROUND_OF = {v: k for k, v in CONTRACTS.items()}


def _contract_points(codes, books, runs, ace_wrap):
    """``melds.crazy_best_arrangement``'s contract mode oracle (registered by the package's
    ``__init__``): ``(points, arrangement)``, the fewest points ``codes`` leave laying
    ``books`` books and ``runs`` runs as CR-10 lays them (no overlapping_runs) and the lay-down
    :func:`best_arrangement` gives (``as_codes=True``: ``(melds, leftover, points)``), by its
    exact DPs; ``(-1, None)`` when they cannot be laid; None when the contract is no round's
    (CR-4) or the hand breaks CR-1 (more than 2 of a card or 4 Jokers), where only the search
    answers."""
    rnd = _ROUND_OF.get((books, runs))
    if rnd is None:
        return None
    cnt = [0] * NK
    for c in codes:
        k = CODE_KIND[c] if type(c) is int and 0 <= c < 256 else -1
        if k < 0:
            return None
        cnt[k] += 1
    if any(x > 2 for x in cnt[:52]) or cnt[JK] > 4:
        return None
    r = _best_arrangement(codes, rnd, bool(ace_wrap), False, True, RX_MIN)
    return (-1, None) if r is None else (r[2], r)
