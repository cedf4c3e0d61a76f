"""KrassKariert's words for every frontend (pure Python; ``State.describe_action``,
``State.action_from``, ``State.narrate``, ``State.prompt`` and ``State.explain`` call these):
an action as data and back, the play by play, what a seat must decide now ("to beat"), and
why a card cannot be played.  The terminal (``view.py``) and the server read the same
functions.

Hand positions and seats in data are ints counted from 0 (KA-3: position 0 is the first card
dealt); in every text they count from 1, as the table numbers them.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from krazy_core.cards import format_card
from krazy_core.games.krass_kariert.core import combination_index, combination_of_index
from krazy_core.games.krass_kariert.notation import (
    DRAW_AT, INSERT_AT, MAX_HAND, NUM_COMBOS, RESERVE_AT, STOP_AT)

KINDS = ("play", "stop", "draw", "reserve", "insert")
"""The ``kind`` of each action (``describe_action``)."""
COMBO_LEN = {"solo": 1, "2-straight": 2, "pair": 2, "3-straight": 3, "triple": 3}


def combo_text(combo, x_values=()) -> str:
    """``pair 5``, ``2-straight 6 (X=5)``; ``-`` for no combination."""
    if combo is None:
        return "-"
    s = f"{combo['type']} {combo['value']}"
    if x_values:
        s += " (X=" + ",".join(str(v) for v in x_values) + ")"
    return s


def _combo(c: int) -> Dict[str, Any]:
    t, v = combination_of_index(c)
    return {"index": c, "type": t, "value": v}


def _obs(state):
    p = state.current_player()
    return state.observation(p) if p >= 0 else {}


# ------------------------------------------------------------------ actions as data
def describe_action(state, a: int, obs=None) -> Dict[str, Any]:
    """Action id ``a`` as data: ``{"id", "kind", "label", "text", ...}``.  ``play`` (KA-5,
    KA-6) adds ``positions`` (hand positions from 0), ``combination`` (``{index, type,
    value}``), ``cards`` when the hand has them there, and ``x_values`` (the values chosen for
    X cards, KA-8); ``stop`` and ``draw`` (KA-11, KA-12) ``position``/``positions`` and the
    card; ``reserve`` (KA-9) ``slot`` (0/1), ``position`` (where it goes) and the reserve
    card; ``insert`` (KA-12) ``position`` and the drawn card.  ``label`` is the engine's name
    (positions from 0), ``text`` the table's words (positions from 1)."""
    if obs is None:
        obs = _obs(state)
    hand = obs.get("hand") or []
    d: Dict[str, Any]
    if a < STOP_AT:
        pos, c = divmod(a, NUM_COMBOS)
        combo = _combo(c)
        positions = list(range(pos, pos + COMBO_LEN[combo["type"]]))
        d = {"id": a, "kind": "play", "positions": positions, "combination": combo}
        xs = []
        if positions[-1] < len(hand):
            cards = [hand[i] for i in positions]
            d["cards"] = cards
            d["cards_text"] = [format_card(x) for x in cards]
            if 0x70 in cards:
                xs = [int(v) for v in state._x_values_of(cards, c)]
        d["x_values"] = xs
    elif a < RESERVE_AT:
        kind = "stop" if a < DRAW_AT else "draw"
        i = a - (STOP_AT if kind == "stop" else DRAW_AT)
        d = {"id": a, "kind": kind, "position": i, "positions": [i]}
        if i < len(hand):
            d["cards"] = [hand[i]]
            d["cards_text"] = [format_card(hand[i])]
    elif a < INSERT_AT:
        slot, pos = divmod(a - RESERVE_AT, MAX_HAND)
        d = {"id": a, "kind": "reserve", "slot": slot, "position": pos}
        res = obs.get("reserves") or []
        me = obs.get("player")
        if me is not None and me < len(res) and res[me][slot] is not None:
            d["cards"] = [res[me][slot]]
            d["cards_text"] = [format_card(res[me][slot])]
    else:
        d = {"id": a, "kind": "insert", "position": a - INSERT_AT}
        if obs.get("drawn_card") is not None:
            d["cards"] = [obs["drawn_card"]]
            d["cards_text"] = [format_card(obs["drawn_card"])]
    d["label"] = state.action_to_string(a)
    d["text"] = action_text(state, a, d, obs)
    return d


def encode(state, move: Dict[str, Any]) -> Optional[int]:
    """The action id ``move`` names, legal or not; ``None`` when it names none.  A play is
    named by its ``positions`` and ``combination`` (its ``index``, or ``type`` and ``value``)."""
    kind = move.get("kind")
    if kind == "play":
        pos = move.get("positions")
        combo = move.get("combination")
        if not (isinstance(pos, list) and pos and all(type(p) is int for p in pos) and isinstance(combo, dict)):
            return None
        c = combo.get("index")
        if type(c) is not int:
            kind, value = combo.get("type"), combo.get("value")
            if not isinstance(kind, str) or type(value) is not int:
                return None
            try:
                c = combination_index(kind, value)
            except (ValueError, TypeError):
                return None
        if not 0 <= c < NUM_COMBOS or not 0 <= pos[0] < MAX_HAND:
            return None
        if _combo(c)["type"] not in COMBO_LEN or len(pos) != COMBO_LEN[_combo(c)["type"]]:
            return None
        return pos[0] * NUM_COMBOS + c
    p = move.get("position")
    if type(p) is not int or not 0 <= p < MAX_HAND:
        return None
    if kind == "stop":
        return STOP_AT + p
    if kind == "draw":
        return DRAW_AT + p
    if kind == "insert":
        return INSERT_AT + p
    if kind == "reserve":
        slot = move.get("slot")
        if slot not in (0, 1) or type(slot) is not int:
            return None
        return RESERVE_AT + slot * MAX_HAND + p
    return None


def action_text(state, a: int, d: Optional[Dict[str, Any]] = None, obs=None) -> str:
    """The words of a numbered choice, positions from 1, with the cards it moves (``play 2-3
    pair 5: 5 X``, ``take reserve 8 into position 2``, ``insert the drawn 4 at position 1``,
    ``play the STOP card (position 5): win the trick now``)."""
    if state.current_player() < 0:
        return state.action_to_string(a)
    if d is None:
        return describe_action(state, a)["text"]
    obs = obs if obs is not None else _obs(state)
    k = d["kind"]
    if k == "play":
        lo, hi = d["positions"][0], d["positions"][-1]
        span = f"{lo + 1}" if lo == hi else f"{lo + 1}-{hi + 1}"
        text = f"play {span} {combo_text(d['combination'], d['x_values'])}"
        return text + ": " + " ".join(format_card(c) for c in obs["hand"][lo:hi + 1])
    if k == "reserve":
        res = obs["reserves"][obs["player"]]
        label = f"take reserve {format_card(res[d['slot']])}" if res[d["slot"]] is not None else \
            f"take reserve slot {d['slot']}"
        if len(res) == 2 and res[0] is not None and res[0] == res[1]:
            label += " (left)" if d["slot"] == 0 else " (right)"   # equal cards: name the slot
        return f"{label} into position {d['position'] + 1}"
    if k == "insert" and obs["drawn_card"] is not None:
        return f"insert the drawn {format_card(obs['drawn_card'])} at position {d['position'] + 1}"
    if k == "stop":
        return f"play the STOP card (position {d['position'] + 1}): win the trick now"
    if k == "draw":
        return f"play the DRAW card (position {d['position'] + 1}): the trick's winner draws 3"
    return state.action_to_string(a)


# ------------------------------------------------------------------ narration
def narrate(e: Dict[str, Any], names: Sequence[str], state=None) -> Optional[str]:
    """One line of play by play for event ``e``, or ``None`` for a bookkeeping event (a card
    dealt, the first trick of a hand starting)."""
    k = e["event"]
    who = names[e["player"]] if isinstance(e.get("player"), int) and 0 <= e["player"] < len(names) else ""
    if k == "hand_start":
        return f"— hand {e['hand']}: cards dealt; {who} leads"
    if k == "deal":
        return None
    if k == "reserve_dealt":
        return f"{who} gets reserve {e['card_text']} (face up)"
    if k == "trick_start":
        return None if e["trick"] == 1 else f"{who} leads trick {e['trick']}"
    if k == "play":
        cards = " ".join(e["cards_text"])
        return f"{who} plays {cards} as {combo_text(e['combination'], e['x_values'])}"
    if k == "stop":
        return f"{who} plays STOP and takes the trick"
    if k == "draw_card":
        return f"{who} plays a DRAW card"
    if k == "take_reserve":
        where = f" at position {e['position'] + 1}" if e.get("position") is not None else ""
        return f"{who} takes reserve {e['card_text']} into their hand{where}"
    if k == "trick_end":
        won = "with STOP" if e["stop"] else f"with {combo_text(e['combination'])}"
        return f"{who} wins the trick {won}" + (f" and must draw {e['draws']}" if e["draws"] else "")
    if k == "drawn":
        if e.get("card") is not None:
            return f"{who} draws {e['card_text']} and inserts it at position {e['position'] + 1}"
        return f"{who} draws a card"
    if k == "out":
        return f"{who} has played their last card"
    if k == "hand_end":
        why = {"could not act (KA-14b)": "could not beat the trick, had no special card to play "
                                         "and no reserve card left (KA-14b)",
               "only holder of cards (KA-14a)": "the only one still holding cards (KA-14a)"}
        return f"{who} loses the hand: {why.get(e['reason'], e['reason'])}"
    if k == "chip":
        return f"{who} gives up a chip ({e['chips']} left)"
    if k == "game_over":
        return f"{who} must give a chip and has none: {who} LOSES the game"
    return f"{who} {k}"


# ------------------------------------------------------------------ prompts and reasons
def to_beat(obs, names: Sequence[str]) -> Optional[Dict[str, Any]]:
    """What the trick's next play must beat (KA-7), from an observation: ``None`` when the
    seat to act leads; else ``{"player", "stop", "combination", "text"}`` (``text``: ``"pair
    7 (seat 2)"``, or ``"STOP (seat 2)"``)."""
    best = obs.get("best")
    if best is None:
        return None
    p = best["player"]
    who = names[p] if isinstance(p, int) and 0 <= p < len(names) else f"seat {p + 1}"
    what = "STOP" if best["stop"] else combo_text(best["combination"])
    return {"player": p, "stop": bool(best["stop"]), "combination": best.get("combination"),
            "text": f"{what} ({who})"}


def last_trick(state, seat: int) -> Optional[Dict[str, Any]]:
    """The last trick that ended (KA-10): ``{"winner", "trick", "hand", "stop",
    "combination", "draws"}`` from its ``trick_end`` event, or ``None`` before the first."""
    n = state.num_events
    back = 24
    while True:                         # the newest events first: a trick is a few dozen events
        first = max(0, n - back)
        evs = state.events_for(seat, since=first)
        ends = [i for i, e in enumerate(evs) if e.get("event") == "trick_end"]
        starts = [i for i, e in enumerate(evs) if e.get("event") == "trick_start" and (not ends or i < ends[-1])]
        if ends and (starts or first == 0):
            e = evs[ends[-1]]
            st = evs[starts[-1]] if starts else {}
            return {"winner": e["player"], "trick": st.get("trick"), "hand": st.get("hand"),
                    "stop": bool(e["stop"]), "combination": e.get("combination"), "draws": e.get("draws", 0)}
        if first == 0:
            return None
        back *= 4


def facts(state, seat: int, names: Sequence[str], obs=None) -> Dict[str, Any]:
    """What a table shows ``seat`` beside its observation: ``{"to_beat": ...}`` (see
    :func:`to_beat`; ``None`` when the seat to act leads) and ``"last_trick"`` (see
    :func:`last_trick`), with ``"last_trick_text"``: ``"seat 2 won trick 3 with pair 7"``."""
    obs = state.observation(seat) if obs is None else obs
    lt = last_trick(state, seat)
    text = None
    if lt is not None:
        w = lt["winner"]
        who = names[w] if isinstance(w, int) and 0 <= w < len(names) else "?"
        what = "STOP" if lt["stop"] else combo_text(lt["combination"])
        text = f"{who} won trick {lt['trick']} with {what}" + (f" and drew {lt['draws']}" if lt["draws"] else "")
    return {"to_beat": None if obs["terminal"] else to_beat(obs, names), "last_trick": lt, "last_trick_text": text}


def prompt(state, seat: int, names: Sequence[str], obs=None) -> str:
    """What ``seat`` must decide now, with the rule: what there is to beat and the ways to
    answer it (KA-6 .. KA-12)."""
    obs = state.observation(seat) if obs is None else obs
    if state.is_terminal():
        lo = obs["loser"]
        return f"The game is over: {names[lo]} had to give a chip and had none (KA-15)." if 0 <= lo < len(names) \
            else "The game is over (KA-15)."
    cur = state.current_player()
    if cur != seat:
        return f"{names[cur]} is to play."
    if obs["phase"] == "insert":
        c = obs.get("drawn_card")
        card = f" {format_card(c)}" if c is not None else ""
        return (f"Insert the drawn card{card}: choose its position in your hand; "
                f"{obs['pending_draws']} to insert (KA-12).")
    reserve = any(x is not None for x in obs["reserves"][seat])
    tb = to_beat(obs, names)
    also = ", play a STOP or DRAW card" + (", or take a reserve card" if reserve else "")
    if tb is None:
        return f"You lead trick {obs['trick_no']}: play 1-3 adjacent cards as a combination, or a STOP card (KA-5, KA-9)."
    return f"To beat: {tb['text']}. Play 1-3 adjacent cards that beat it{also} (KA-6, KA-7, KA-9)."


def card_reason(state, seat: int, code: int, obs) -> Optional[str]:
    """Why no card ``code`` in ``seat``'s hand can be played now, or ``None`` when one can
    (positions count: the first such card of the hand is named)."""
    name = format_card(code)
    at = [i for i, c in enumerate(obs["hand"]) if c == code]
    for a in state.legal_actions():
        d = describe_action(state, a, obs)
        if set(d.get("positions", ())) & set(at) and d["kind"] in ("play", "stop", "draw"):
            return None
    if obs["phase"] == "insert":
        return f"{name}: first insert the drawn card (KA-12)"
    if code == 0x71 and obs.get("best") is None:
        return f"{name}: a DRAW card is never led (KA-9)"
    tb = to_beat(obs, [f"seat {p + 1}" for p in range(obs["num_players"])])
    if tb is not None:
        return (f"{name} (position {at[0] + 1}): no combination of adjacent cards with it beats "
                f"{tb['text']} (KA-5, KA-7)")
    return None


def unseen_draw(e) -> bool:
    """A card drawn after a trick that this viewer does not see (KA-12): a run is one line of
    the play by play (``krazy_core._words.log_lines``)."""
    return e.get("event") == "drawn" and e.get("card") is None
