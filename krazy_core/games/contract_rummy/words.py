"""Crazy Rummy's words for every frontend (pure Python; ``State.describe_action``,
``State.action_from``, ``State.narrate``, ``State.prompt``, ``State.explain`` and
``State.table_melds`` call these): an action as data and back, the play by play, what a seat
must decide now, the melds on the table with each wild and what it stands for, and why a card
cannot be played.  The terminal (``view.py``) and the server read the same functions.

In data, seats and meld ids count from 0 (a meld id is ``seat*3 + k``, CR-10); in every text,
seats and melds count from 1, as the table numbers them (seat 1's melds 1-3, seat 2's 4-6).
"""
from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence

from krazy_core.cards import JOKER, format_card
from krazy_core.errors import IllegalActionError
from krazy_core.games.contract_rummy.notation import (
    BUY, DECLINE, FINISH, GO_DOWN, KEEP, KINDS as NUM_KINDS, LAY, LAY_OFF, MELD_SLOTS, PASS, START_RUN,
    SUIT_LETTERS, SWAP, TAKE, _kind_code)

KINDS = ("take", "decline", "buy", "pass", "go_down", "lay", "start_run", "finish_meld", "lay_off",
         "swap", "discard", "keep")
"""The ``kind`` of each action (``describe_action``)."""
_FIXED = {TAKE: "take", DECLINE: "decline", BUY: "buy", PASS: "pass", GO_DOWN: "go_down",
          FINISH: "finish_meld", KEEP: "keep"}
_FIXED_ID = {v: k for k, v in _FIXED.items()}
RANK_WORDS = {1: "Aces", 11: "Jacks", 12: "Queens", 13: "Kings", 14: "Aces"}
RANK_SHORT = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}
SUIT_WORDS = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}
WILD_MARK = "✱"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _kind_of(code) -> Optional[int]:
    if type(code) is not int:
        return None
    if code == JOKER:
        return 52
    if 0 <= code < 0x40 and 1 <= (code & 15) <= 13:
        return (code >> 4) * 13 + (code & 15) - 1
    return None


def _obs(state):
    p = state.current_player()
    return state.observation(p) if p >= 0 else {}


def _cards(d: Dict[str, Any], codes: List[int]) -> Dict[str, Any]:
    d["cards"] = list(codes)
    d["cards_text"] = [format_card(c) for c in codes]
    return d


# ------------------------------------------------------------------ actions as data
def describe_action(state, a: int, obs=None) -> Dict[str, Any]:
    """Action id ``a`` as data: ``{"id", "kind", "label", "text", ...}``.  ``take``,
    ``decline``, ``buy``, ``pass`` (CR-7, CR-8) carry the up-card as ``cards``; ``discard``
    (CR-9), ``lay`` (CR-10, with ``meld``: the meld being built), ``start_run`` (with ``suit``,
    a letter S H D C, and the run's first card), ``lay_off`` (CR-11: ``meld`` and, on a run,
    ``end`` ``low``/``high``) and ``swap`` (CR-12: ``meld``) carry their card.  ``label`` is the
    engine's name (melds from 0), ``text`` the table's words (melds from 1)."""
    d: Dict[str, Any] = {"id": a}
    if a in _FIXED:
        d["kind"] = _FIXED[a]
        if a in (TAKE, DECLINE, BUY, PASS):
            obs = _obs(state) if obs is None else obs
            if obs.get("up_card") is not None:
                _cards(d, [obs["up_card"]])
    elif a < NUM_KINDS:
        _cards(d, [_kind_code(a)])
        d["kind"] = "discard"
    elif a < START_RUN:
        d["kind"] = "lay"
        _cards(d, [_kind_code(a - LAY)])
        obs = _obs(state) if obs is None else obs
        if obs.get("building_meld") is not None:
            d["meld"] = int(obs["building_meld"])
    elif a < FINISH:
        s, lo = divmod(a - START_RUN, 13)
        d.update(kind="start_run", suit=SUIT_LETTERS[s])
        _cards(d, [(s << 4) | (lo % 13 + 1)])
    elif a < SWAP:
        i = a - LAY_OFF
        k, m = divmod(i >> 1, MELD_SLOTS)
        d["kind"] = "lay_off"
        _cards(d, [_kind_code(k)])
        d["meld"] = m
        label = state.action_to_string(a)
        if label.endswith((" low", " high")):
            d["end"] = "high" if i & 1 else "low"
    else:
        k, m = divmod(a - SWAP, MELD_SLOTS)
        d["kind"] = "swap"
        _cards(d, [_kind_code(k)])
        d["meld"] = m
    d["label"] = state.action_to_string(a)
    d["text"] = action_text(state, a)
    return d


def encode(state, move: Dict[str, Any]) -> Optional[int]:
    """The action id ``move`` names, legal or not; ``None`` when it names none."""
    kind = move.get("kind")
    if kind in _FIXED_ID:
        return _FIXED_ID[kind]
    cards = move.get("cards")
    if not isinstance(cards, list) or len(cards) != 1:
        return None
    k = _kind_of(cards[0])
    if k is None:
        return None
    if kind == "discard":
        return k
    if kind == "lay":
        return LAY + k
    if kind == "start_run":
        c = cards[0]
        if c == JOKER:
            return None
        s = move.get("suit", SUIT_LETTERS[c >> 4])
        if s not in tuple(SUIT_LETTERS) or SUIT_LETTERS.index(s) != c >> 4:
            return None
        return START_RUN + (c >> 4) * 13 + (c & 15) - 1
    m = move.get("meld")
    if type(m) is not int or not 0 <= m < MELD_SLOTS:
        return None
    if kind == "lay_off":
        end = move.get("end", "low")
        if end not in ("low", "high"):
            return None
        return LAY_OFF + (k * MELD_SLOTS + m) * 2 + (end == "high")
    if kind == "swap":
        return SWAP + k * MELD_SLOTS + m
    return None


def action_text(state, a: int) -> str:
    """The words of a numbered choice: ``action_to_string`` with the meld numbered from 1, a
    lay off on a book (which names no end) marked ``"lay off 6♥ on meld 1 (book)"``."""
    text = engine_text(state, state.action_to_string(a))
    if text.startswith("lay off ") and not text.endswith((" low", " high")):
        return text + " (book)"
    return text


# ------------------------------------------------------------------ melds from 1 in text
_MELD_NO = re.compile(r"\b(meld\s+)(-?\d+)\b", re.I)     # -1 too: "not a meld number"


def meld_no(meld):
    """An engine meld id (from 0) as the table numbers it (from 1); anything else as it is
    (an event loaded from someone's JSON)."""
    return meld + 1 if type(meld) is int else meld


def meld_ranges(n) -> str:
    """The meld numbers of each seat at the table: ``"seat 1: 1-3; seat 2: 4-6; ..."``."""
    return "; ".join(f"seat {p + 1}: {3 * p + 1}-{3 * p + 3}" for p in range(n))


def engine_text(state, text: str) -> str:
    """A text of the engine naming melds (an action's name, an ``UnclearActionError``, an
    ``explain_illegal`` reason) with its melds numbered from 1, as the table numbers them:
    ``"there is no meld 4 on the table (meld ids: seat × 3 + 0..2)"`` -> ``"there is no meld 5
    on the table (meld numbers: seat 1: 1-3; ...)"``."""
    text = _MELD_NO.sub(lambda m: m.group(1) + str(int(m.group(2)) + 1), str(text))
    return text.replace("(meld ids: seat × 3 + 0..2)", f"(meld numbers: {meld_ranges(state.game.num_players)})")


# ------------------------------------------------------------------ melds as melds
def meld_wilds(m) -> list:
    """For each card of meld dict ``m`` (``state.melds()`` / the observation), whether it stands
    there as a wild: a Joker always; a 2 unless it is the natural card of its place (a book of
    2s, or the right suit and position in a run, CR-2); any other card never."""
    out = []
    for i, c in enumerate(m["cards"]):
        if c >> 4 == 5:
            out.append(True)
        elif (c & 15) != 2:
            out.append(False)
        elif m["kind"] == "book":
            out.append(m["rank"] != 2)
        else:
            r = m["lo"] + i                      # run position: 1 = Ace low .. 14 = Ace high
            if r > 14:                           # round the corner (CR-3 ace_wrap): 15 = the 2
                r -= 13
            out.append(c != (m["suit"] << 4 | (1 if r == 14 else r)))
    return out


def stands_for(m) -> list:
    """For each card of meld dict ``m``: ``None`` for a natural card; for a wild, what it
    stands for (CR-2): ``{"rank"}`` in a book, ``{"rank", "suit", "card", "card_text"}`` in a
    run (the natural card of its place)."""
    out: List[Optional[Dict[str, Any]]] = []
    for i, (c, wild) in enumerate(zip(m["cards"], meld_wilds(m))):
        if not wild:
            out.append(None)
        elif m["kind"] == "book":
            out.append({"rank": m["rank"]})
        else:
            r = m["lo"] + i
            if r > 14:
                r -= 13
            rank = 1 if r == 14 else r
            out.append({"rank": rank, "suit": m["suit"], "card": (m["suit"] << 4) | rank,
                        "card_text": format_card((m["suit"] << 4) | rank)})
    return out


def meld_words(m) -> str:
    """A meld in words, its cards in order with wilds marked (``state.melds()`` dict):
    ``a book of 9s: 9♠ 9♥ 2♣✱``, ``a run of hearts, A to 4: A♥ 2♦✱ 🃏✱ 4♥`` (CR-2); round the corner
    (CR-3 ``ace_wrap``) ``a run of spades, J to 2: J♠ Q♠ K♠ A♠ 2♠``."""
    cards = " ".join(format_card(c) + (WILD_MARK if w else "") for c, w in zip(m["cards"], meld_wilds(m)))
    if m["kind"] == "book":
        r = m.get("rank")
        return f"a book of {RANK_WORDS.get(r, f'{r}s')}: {cards}"
    lo = m.get("lo")
    span = ""
    if isinstance(lo, int):
        hi = lo + len(m["cards"]) - 1
        if hi > 14:                     # round the corner (CR-3 ace_wrap): K, A, 2, ...
            hi -= 13
        span = f", {RANK_SHORT.get(lo, lo)} to {RANK_SHORT.get(hi, hi)}"
    suit = m.get("suit")
    return f"a run of {SUIT_WORDS.get(suit, 'one suit') if isinstance(suit, int) else 'one suit'}{span}: {cards}"


def table_melds(state, obs=None) -> List[Dict[str, Any]]:
    """The melds on the table as melds (CR-2, CR-10): each observation meld dict (``id``,
    ``owner``, ``kind``, ``rank``/``suit``/``lo``, ``cards``) with ``number`` (the table's
    number, from 1), ``cards_text``, ``wilds`` (a bool per card: it stands as a wild),
    ``stands_for`` (per card: ``None``, or ``{"rank"}`` in a book, ``{"rank", "suit", "card",
    "card_text"}`` in a run) and ``words`` (``"a run of hearts, A to 4: A♥ 2♦✱ 🃏✱ 4♥"``)."""
    out = []
    if obs is None:                     # the melds are public: any seat's observation has them
        obs = _obs(state) if state.current_player() >= 0 else state.observation(0)
    for m in obs.get("melds", ()):
        d = dict(m)
        d.update(number=meld_no(m["id"]), cards_text=[format_card(c) for c in m["cards"]],
                 wilds=meld_wilds(m) if m["cards"] else [], stands_for=stands_for(m) if m["cards"] else [],
                 words=meld_words(m) if m["cards"] else "")
        out.append(d)
    return out


def facts(state, seat: int, names: Sequence[str], obs=None) -> Dict[str, Any]:
    """What a table shows ``seat`` beside its observation: ``{"melds": table_melds(state),
    "contract_text": "2 books + 1 run"}``."""
    obs = state.observation(seat) if obs is None else obs
    return {"melds": table_melds(state, obs), "contract_text": contract_words(obs["contract"])}


def buy_can_help(state, seat: int) -> bool:
    """Whether buying the up-card on offer (CR-8) can help ``seat``: always before the seat is
    down (it may build the contract); once down (CR-10: no new melds), only when the card is
    a wild, can be laid off on a meld on the table (a book of its rank, a run of its suit at
    an end; CR-11) or is the natural card a wild stands for in an opponent's run (a swap,
    CR-12).  Otherwise a buy only adds the card and a penalty card to the hand."""
    obs = state.observation(seat)
    c = obs.get("up_card")
    if c is None or not obs["down"][seat]:
        return True
    if c == JOKER or (c & 15) == 2:
        return True
    own = bool(getattr(state.game.options, "layoff_on_own", False))
    for m in table_melds(state):
        if m["owner"] == seat and not own:
            continue
        if m["kind"] == "book" and m["rank"] == (c & 15):
            return True
        if m["kind"] == "run" and m["suit"] == c >> 4:
            rank = c & 15
            hi = m["lo"] + len(m["cards"]) - 1
            if rank in (m["lo"] - 1, hi + 1) or (rank == 1 and hi + 1 == 14):
                return True
            if m["owner"] != seat and any(sf and sf.get("card") == c for sf in m["stands_for"]):
                return True
    return False


# ------------------------------------------------------------------ narration
def narrate(e: Dict[str, Any], names: Sequence[str], state=None) -> Optional[str]:
    """One line of play by play for event ``e``, or ``None`` for a bookkeeping event.  With
    ``state`` (the table's state, at or after the event) a completed meld is described by its
    cards and a round that ended by going out names who went out."""
    k = e["event"]
    who = names[e["player"]] if isinstance(e.get("player"), int) and 0 <= e["player"] < len(names) else ""
    if k in ("deal", "turn", "score", "run_start"):
        return None
    if k == "round_start":
        return f"round {e['round']}: {who} deals {e['cards_dealt']} cards each"
    if k == "shuffle":
        return f"{who} shuffles {e['cards']} cards"
    if k == "up_card":
        return f"the up-card is {e['card_text']}"
    if k == "take":
        return f"{who} takes the up-card {e['card_text']}" + (" without discarding" if e.get("first_up_card") else "")
    if k == "decline":
        return f"{who} declines {e['card_text']}"
    if k == "buy":
        return f"{who} BUYS {e['card_text']} (and a penalty card)"
    if k == "pass":
        return f"{who} passes (no buy)"
    if k == "draw":
        what = e["card_text"] if e.get("card") is not None else "a card"
        return f"{who} draws {what}" + (" (penalty)" if e.get("reason") == "penalty" else "")
    if k == "go_down":
        return f"{who} goes down"
    if k == "lay":
        return f"{who} lays {e['card_text']} in meld {meld_no(e['meld'])}"
    if k == "meld":
        m = None
        if state is not None:
            m = next((x for x in state.melds() if x["id"] == e["meld"]), None)
        if m is not None:
            return f"{who} completes meld {meld_no(e['meld'])}, {meld_words(m)}"
        return f"{who} completes meld {meld_no(e['meld'])} ({e['cards']} cards)"
    if k == "down":
        return f"{who} is down"
    if k == "lay_off":
        if e.get("end") is None:
            return f"{who} lays off {e['card_text']} on meld {meld_no(e['meld'])} (book)"
        return f"{who} lays off {e['card_text']} on meld {meld_no(e['meld'])} ({e['end']} end)"
    if k == "swap":
        return f"{who} swaps {e['card_text']} into meld {meld_no(e['meld'])} and takes {e['wild_text']}"
    if k == "discard":
        return f"{who} discards {e['card_text']}"
    if k == "keep":
        return f"{who} keeps the last card"
    if k == "go_out":
        return f"{who} GOES OUT"
    if k == "stock_rebuilt":
        return f"the discard pile is shuffled into a new stock of {e['cards']}"
    if k == "turn_limit":
        return f"the turn limit ({e['turn']}) ends the round"
    if k == "round_end":
        if e.get("reason") == "went out" and state is not None:
            outs = [x["player"] for x in state.events
                    if x["event"] == "go_out" and x.get("round") == e["round"]]
            if outs and isinstance(outs[-1], int) and 0 <= outs[-1] < len(names):
                return f"round {e['round']} ends: {names[outs[-1]]} went out"
        return f"round {e['round']} ends: {e['reason']}"
    if k == "game_over":
        return "the game is over"
    return f"{who} {k}"


# ------------------------------------------------------------------ prompts and reasons
def contract_words(c) -> str:
    parts = []
    if c["books"]:
        parts.append(f"{c['books']} book{'s' if c['books'] > 1 else ''}")
    if c["runs"]:
        parts.append(f"{c['runs']} run{'s' if c['runs'] > 1 else ''}")
    return " + ".join(parts)


def prompt(state, seat: int, names: Sequence[str], obs=None) -> str:
    """What ``seat`` must decide now, with the rule: a buy offer out of turn says whose turn it
    is (CR-8)."""
    obs = state.observation(seat) if obs is None else obs
    if state.is_terminal():
        low = min(obs["totals"])
        won = [names[p] for p, s in enumerate(obs["totals"]) if s == low]
        return f"The game is over: {' and '.join(won)} won with {low} points (CR-16)."
    cur = state.current_player()
    if cur != seat:
        return f"{names[cur]} is to play."
    ph = obs["phase"]
    up = obs.get("up_card_text")
    want = contract_words(obs["contract"])
    if ph == "first_up_card":
        return f"You deal: take the first up-card {up}, or leave it (CR-7)."
    if ph == "take_or_decline":
        return f"Take the up-card {up}, or decline it and draw from the stock (CR-8)."
    if ph == "buy_or_pass":
        tp = obs["turn_player"]
        return (f"Not your turn ({names[tp]} declined {up}): buy it with a penalty card from the stock, "
                f"or pass (CR-8).")
    if ph == "going_down":
        return (f"Going down: lay round {obs['round']}'s contract, {want}, meld by meld, then "
                "finish each meld (CR-10).")
    if ph == "play":
        if obs["down"][seat]:
            return "You are down: lay off on any meld, swap a natural for a run's wild, then discard (CR-11, CR-12, CR-9)."
        if GO_DOWN in state.legal_actions():
            return f"Go down with round {obs['round']}'s contract, {want} (CR-4, CR-10), or discard a card (CR-9)."
        return (f"Discard a card (CR-9); to go down you need round {obs['round']}'s contract, {want} "
                "(CR-4, CR-10).")
    return "Your turn."


def card_reason(state, seat: int, code: int, obs) -> Optional[str]:
    """Why the card ``code`` in ``seat``'s hand has no legal move now, or ``None``."""
    name = format_card(code)
    k = _kind_of(code)
    legal = state.legal_actions()
    if k is None or any(describe_action(state, a, obs).get("cards") == [code] for a in legal
                        if a < NUM_KINDS or a >= LAY):
        return None
    ph = obs["phase"]
    if ph in ("first_up_card", "take_or_decline"):
        return f"{name}: first take the up-card or decline it (CR-7, CR-8)"
    if ph == "buy_or_pass":
        return f"{name}: first buy the up-card or pass (CR-8)"
    if ph == "going_down":
        return f"{name}: it fits no meld of round {obs['round']}'s contract that is being laid now (CR-10)"
    return engine_text(state, state.explain_illegal(k)) if k in range(NUM_KINDS) else None


# ------------------------------------------------------------------ whole-meld lay-downs (CR-10)
# A frontend sends the melds as lists of card codes (the browser's "lay down these melds");
# the server calls laydown_check on its event loop and laydown_plan in a worker thread
# (GameSpec.words.laydown_check / laydown_plan: a game without them has no such move).

# ------------------------------------------------------------------ the shapes of melds (CR-5)


def laydown_check(state, seat: int, melds: Any) -> List[List[int]]:
    """The cheap checks of a whole-meld lay-down (CR-10), run on the event loop before
    any search: the game, the turn, the shape (1 to 3 lists of card codes), that going
    down is legal now, that the seat holds every card (a card in one meld only), that
    each group is a meld (CR-5) and that there are as many melds as the round's contract
    has (CR-4), on ``state``. Returns the melds; raises ``IllegalActionError`` saying
    why."""
    s = state
    if s.game.game_id != "contract-rummy":
        raise IllegalActionError("whole-meld lay-downs are a Crazy Rummy move")
    if s.is_terminal() or s.current_player() != seat:
        raise IllegalActionError("it is not your turn")
    if not (isinstance(melds, list) and 1 <= len(melds) <= 3 and
            all(isinstance(m, list) and 1 <= len(m) <= 20 and
                all(type(c) is int and 0 <= c < 256 for c in m) for m in melds)):
        n = len(melds) if isinstance(melds, list) else 0
        raise IllegalActionError("a lay-down is 1 to 3 melds, the round's contract (CR-4)" if n > 3 else
                                 "melds must be 1 to 3 lists of card codes")
    if GO_DOWN not in s.legal_actions():
        raise IllegalActionError("you cannot go down now (CR-10: draw first; one contract per round)")
    why = _laydown_precheck(s, seat, melds)
    if why is not None:
        raise IllegalActionError(why)
    return melds


def laydown_plan(state, seat: int, melds: List[List[int]], budget: float = 0.5, nodes: int = 4000) -> List[int]:
    """Crazy Rummy (CR-10): the actions that go down with exactly these whole melds
    (each a list of card codes), found by a depth-first search over clones of ``state``
    (the server passes a copy and runs this off the event loop) of at most ``nodes``
    states and ``budget`` seconds. Raises ``IllegalActionError`` when no order of moves
    lays them, or the search ran out of its budget."""
    s = state
    laydown_check(s, seat, melds)
    targets = [sorted(m) for m in melds]
    start = s.clone()
    start.apply_action(GO_DOWN)
    left = [nodes]
    deadline = time.monotonic() + budget
    out_of_time = [False]

    def mine(st):
        return sorted(sorted(m["cards"]) for m in st.observation(seat)["melds"] if m["owner"] == seat)

    def ok_partial(st):
        # each meld laid so far is part of a different target: a matching, not the first
        # fit (a run started empty fitted the first target, the book, so a book then a
        # run was refused while a run then a book went down -- a fresh user's find)
        have = [m for m in mine(st) if m]
        if len(have) > len(targets):
            return False

        def match(i, used):
            if i == len(have):
                return True
            return any(j not in used and _submultiset(have[i], targets[j]) and match(i + 1, used | {j})
                       for j in range(len(targets)))
        return match(0, frozenset())

    def dfs(st, path):
        left[0] -= 1
        if left[0] < 0:
            return None
        if time.monotonic() > deadline:
            out_of_time[0] = True
            return None
        obs = st.observation(seat)
        if obs["phase"] != "going_down" or st.current_player() != seat:
            return path if mine(st) == sorted(targets) else None
        for a in st.legal_actions():
            c = st.clone()
            c.apply_action(a)
            if ok_partial(c):
                r = dfs(c, path + [a])
                if r is not None:
                    return r
        return None

    plan = dfs(start, [GO_DOWN])
    if plan is None:
        if out_of_time[0]:
            raise IllegalActionError(f"the server could not place these melds within {budget:g} s; "
                                     f"lay them one card at a time")
        raise IllegalActionError(_laydown_refusal(s, seat, melds))
    return plan


def _submultiset(a, b):
    b = list(b)
    for x in a:
        if x in b:
            b.remove(x)
        else:
            return False
    return True



def _laydown_precheck(state, seat: int, melds: List[List[int]]) -> Optional[str]:
    """The refusals that need no search: a card not held, a group that is no meld (CR-5),
    a number of melds that is not the contract's (CR-4); ``None`` when none applies."""
    obs = state.observation(seat)
    short = Counter(c for m in melds for c in m) - Counter(obs["hand"])
    if short:
        def text(c):
            try:
                return format_card(c)
            except ValueError:
                return f"{c} (no card's code)"
        return ("you do not hold " + " ".join(text(c) for c in sorted(short.elements()))
                + " (a card can be in one meld only)")
    for m in melds:
        why = meld_problem(m, bool(state.game.options.ace_wrap))
        if why is not None:
            return why
    c = obs["contract"]
    if len(melds) != c["books"] + c["runs"]:
        return _laydown_refusal(state, seat, melds)
    return None


def _laydown_refusal(state, seat: int, melds: List[List[int]]) -> str:
    """Why these whole melds cannot go down, as the terminal says it: a card not in the hand,
    a group that is no meld (CR-5), or melds that are not the round's contract (CR-4) -- the
    browser showed one sentence for all of them."""
    obs = state.observation(seat)
    short = Counter(c for m in melds for c in m) - Counter(obs["hand"])
    if short:
        return ("you do not hold " + " ".join(format_card(c) for c in sorted(short.elements()))
                + " (a card can be in one meld only)")
    for m in melds:
        why = meld_problem(m, bool(state.game.options.ace_wrap))
        if why is not None:
            return why
    want = contract_words(obs["contract"])
    return (f"those melds are not round {obs['round']}'s contract, {want}, each a separate meld "
            f"(CR-4; you chose {len(melds)} meld{'s' if len(melds) != 1 else ''})")


def _is_wild(c, rank=None):
    """CR-2: every Joker and every 2 is wild (a 2 in a book of 2s is natural there)."""
    return c == 0x50 or ((c & 15) == 2 and rank != 2)


def _book_reason(cards):
    """Why ``cards`` is not a book (CR-5: 3 or more cards of one rank, at most 1 wild; CR-2: a
    2 in a book of 2s is natural), or ``None`` when it is one."""
    ranks = {c & 15 for c in cards if not _is_wild(c)}
    if len(ranks) > 1:
        return "the ranks differ"
    if ranks:
        rank = ranks.pop()
    elif any(c != 0x50 for c in cards):
        rank = 2                            # 2s (and Jokers) only: a book of 2s
    else:
        return "it has no natural card"
    why = []
    if len(cards) < 3:
        why.append(f"it has {plural(len(cards), 'card')}")
    wilds = sum(_is_wild(c, rank) for c in cards)
    if wilds > 1:
        why.append(f"it holds {wilds} wilds")
    return ", and ".join(why) or None


def _gaps(ranks, ace_wrap=False):
    """The fewest places missing between the ranks ``ranks`` (distinct) in one sequence: an Ace
    low or high (CR-3), round the corner with ``ace_wrap``."""
    best = None
    for k in range(13 if ace_wrap else 2):
        if ace_wrap:
            pos = [(r - 1 - k) % 13 for r in ranks]
        else:
            pos = [14 if (r == 1 and k) else r for r in ranks]
        g = max(pos) - min(pos) + 1 - len(pos)
        best = g if best is None else min(best, g)
    return best or 0


def _run_places(cards, ace_wrap=False):
    """The ways ``cards`` forms a run (CR-5: 4 or more cards of one suit in sequence, at most
    2 wilds; CR-2: a 2 of the suit in its own place is natural there; CR-3: an Ace low or
    high, never both, no wrap unless ``ace_wrap``): ``([(wilds used, lo, cards low to
    high)], reason)``, ``lo`` the first position (1 an Ace low, 11 J-Q-K-A), fewest wilds
    first, then lowest ``lo``; ``reason`` says why there is no way (``""`` when there are)."""
    n = len(cards)
    suits = {c >> 4 for c in cards if not _is_wild(c)}
    if not suits:                           # 2s (and Jokers) only: a 2 may stand in its place
        suits = {c >> 4 for c in cards if c != 0x50}
    if len(suits) > 1:
        return [], "the suits differ"
    if not suits:
        return [], "it has no natural card"
    suit = suits.pop()
    if n < 4:
        more = _sequence_reason(cards, suit, ace_wrap)
        return [], f"it has {plural(n, 'card')}" + (f", and {more}" if more else "")
    out = []
    for lo in range(1, (13 if ace_wrap else 15 - n) + 1):
        if n > 13:
            break
        place = {(p - 1) % 13 + 1: p - lo for p in range(lo, lo + n)}     # rank -> index
        slot = [None] * n
        wild = []
        ok = True
        for c in sorted(cards, key=lambda c: _is_wild(c)):      # the naturals first
            r = c & 15
            if c != 0x50 and c >> 4 == suit and r in place and slot[place[r]] is None:
                slot[place[r]] = c              # a natural (a 2 of the suit in its place too)
            elif _is_wild(c):
                wild.append(c)
            else:
                ok = False
                break
        if not ok or len(wild) > 2:
            continue
        gaps = [i for i, x in enumerate(slot) if x is None]
        for i, c in zip(gaps, wild):           # the wilds in the order typed
            slot[i] = c
        out.append((len(wild), lo, slot))
    if out:
        out.sort(key=lambda x: (x[0], x[1]))
        return out, ""
    nat = [c for c in cards if not _is_wild(c)]
    why = []
    for c in nat:
        if sum((d & 15) == (c & 15) for d in nat) > 1:
            why.append(f"it holds {format_card(c)} twice")
            break
    wilds = sum(_is_wild(c) for c in cards)
    own_two = any(c == (suit << 4 | 2) for c in cards)     # may be natural in its place (CR-2)
    if wilds - own_two > 2:
        why.append(f"it holds {wilds} wilds")
    if not why:
        why.append(_sequence_reason(cards, suit, ace_wrap))
    return [], ", and ".join(why) or "its cards do not make one sequence"


def _sequence_reason(cards, suit, ace_wrap=False):
    """Why the naturals of ``cards`` (one suit) are not in sequence with its wilds filling
    the gaps, or ``""`` when they are."""
    nat = [c for c in cards if not _is_wild(c)]
    if not nat:
        return ""
    ranks = {c & 15 for c in nat}
    if len(ranks) < len(nat):
        return ""
    wilds = len(cards) - len(nat)
    if (suit << 4 | 2) in cards and 2 not in ranks:
        ranks.add(2)                        # the 2 of the suit in its own place (CR-2)
        wilds -= 1
    gaps = _gaps(ranks, ace_wrap)
    if gaps <= max(0, wilds):
        return ""
    shown = " ".join(format_card(c) for c in sorted(nat, key=lambda c: c & 15))
    if not ace_wrap and _gaps(ranks, True) <= max(0, wilds) and 1 in ranks:
        shown = " ".join(format_card(suit << 4 | r) for r in sorted(ranks))
    if not ace_wrap and _gaps(ranks, True) <= max(0, wilds):
        return f"{shown} go round the corner (K-A-2), which a run never does (CR-3)"
    if len(cards) - len(nat) == 0:
        return f"{shown} are not consecutive"
    return (f"{shown} are not consecutive: {plural(gaps, 'card')} missing, "
            f"{plural(len(cards) - len(nat), 'wild')} to fill them")


def meld_problem(cards, ace_wrap=False):
    """Why the cards ``cards`` (codes) are not a meld, in the terms of CR-5, or ``None``
    when they are a book or a run: ``"4♦ 9♦ K♦ is not a meld (CR-5): neither a book (3 or
    more cards of one rank, at most 1 wild: the ranks differ) nor a run (4 or more cards of
    one suit in sequence, at most 2 wilds: it has 3 cards)"``."""
    book = _book_reason(cards)
    if book is None:
        return None
    ways, run = _run_places(cards, ace_wrap)
    if ways:
        return None
    shown = " ".join(format_card(c) for c in cards)
    return (f"{shown} is not a meld (CR-5): neither a book (3 or more cards of one rank, at most "
            f"1 wild: {book}) nor a run (4 or more cards of one suit in sequence, at most 2 "
            f"wilds: {run})")
