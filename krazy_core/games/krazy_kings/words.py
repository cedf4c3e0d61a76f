"""Krazy Kings' words for every frontend (pure Python; ``State.describe_action``,
``State.action_from``, ``State.narrate``, ``State.prompt`` and ``State.explain`` call these): an
action as data and back, the play by play, what a seat must decide now, and why a card cannot
be played.  The terminal (``view.py``) and the server read the same functions.

Seats and card codes in data are ints (seats from 0); every text counts seats from 1, as the
table does.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

from krazy_core.cards import JOKER, format_card
from krazy_core.games.krazy_kings.notation import (
    ANNOUNCE, CLOCKWISE, COUNTER_CLOCKWISE, DISCARD_JOKER, ROLL, card_index)

DIE = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
KINDS = ("play", "roll", "direction")
"""The ``kind`` of each action (``describe_action``)."""


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def dice_text(d) -> str:
    """``⚂ ⚃  (3+4=7)``: two dice as faces, their numbers and sum; ``-`` for none."""
    if not d:
        return "-"
    return f"{DIE[d[0]]} {DIE[d[1]]}  ({d[0]}+{d[1]}={d[0] + d[1]})"


def action_card(a: int) -> int:
    """The card code a play action discards (``0 <= a < ROLL``)."""
    i = a - ANNOUNCE if a >= ANNOUNCE else a
    if i == DISCARD_JOKER:
        return JOKER
    return ((i // 13) << 4) | (i % 13 + 1)


# ------------------------------------------------------------------ actions as data
def describe_action(state, a: int, obs=None) -> Dict[str, Any]:
    """Action id ``a`` as data: ``{"id", "kind", "label", "text", ...}``; ``play`` adds
    ``cards``/``cards_text`` (one card) and ``announce`` (the "last card" call, KK-19);
    ``direction`` adds ``direction`` (+1 clockwise, -1 counter-clockwise, KK-16); ``roll`` (a
    roll by choice, KK-8) nothing more."""
    d: Dict[str, Any] = {"id": a}
    if a == ROLL:
        d["kind"] = "roll"
    elif a in (CLOCKWISE, COUNTER_CLOCKWISE):
        d.update(kind="direction", direction=1 if a == CLOCKWISE else -1)
    else:
        c = action_card(a)
        d.update(kind="play", cards=[c], cards_text=[format_card(c)], announce=a >= ANNOUNCE)
    d["label"] = state.action_to_string(a)
    d["text"] = action_text(state, a)
    return d


def encode(state, move: Dict[str, Any]) -> Optional[int]:
    """The action id ``move`` (a dict as ``describe_action`` gives) names, legal or not;
    ``None`` when it names no action of this game."""
    kind = move.get("kind")
    if kind == "roll":
        return ROLL
    if kind == "direction":
        d = move.get("direction")
        return {1: CLOCKWISE, -1: COUNTER_CLOCKWISE}.get(d) if type(d) is int else None
    if kind == "play":
        cards = move.get("cards")
        if not isinstance(cards, list) or len(cards) != 1 or type(cards[0]) is not int:
            return None
        i = card_index(cards[0])
        if i is None:
            return None
        return i + (ANNOUNCE if move.get("announce") else 0)
    return None


def action_text(state, a: int) -> str:
    """The words of action ``a`` as the table lists it: its name, and for a play that leaves
    one card without the call the warning that the player will be caught (KK-19)."""
    text = state.action_to_string(a)
    if a < ANNOUNCE and any(ANNOUNCE <= x < ROLL for x in state.legal_actions()):
        return text + "  (without calling last card: you will be caught, KK-19)"
    return text


# ------------------------------------------------------------------ narration
def narrate(e: Dict[str, Any], names: Sequence[str], state=None) -> Optional[str]:
    """One line of play by play for event ``e`` (an ``events_for`` dict), or ``None`` for a
    bookkeeping event (the deal's cards one by one, a turn starting, a last-card call: the
    line of the event around it says it).  ``names``: each seat's name."""
    k = e["event"]
    who = names[e["player"]] if isinstance(e.get("player"), int) and 0 <= e["player"] < len(names) else ""
    if k == "deal":
        return None
    if k == "shuffle":
        return f"{who} shuffles {e['cards']} cards"
    if k == "deal_roll":
        d = e["dice"]
        return f"{who} rolls {d[0]}+{d[1]} and is dealt {d[0] + d[1]} cards"
    if k == "turn":
        return None
    if k in ("roll", "open_roll"):
        return f"{who} rolls {dice_text(e['dice'])}"
    if k == "play":
        return f"{who} plays {e['card_text']}" + (" — LAST CARD!" if e["announced"] else "")
    if k == "draw":
        if e.get("card") is not None:
            return f"{who} draws {e['card_text']}"
        return f"{who} draws a card"
    if k == "pass":
        return f"{who} can't match and passes"
    if k == "challenge":
        return f"{who} challenges with a King: {dice_text(e['dice'])}"
    if k == "challenge_met":
        # KK-11: the challenger draws the value matched, which is the card's dice value (KK-2)
        # (``announced``: the play by play's mark of a play that called "last card", KK-19,
        # whose line this is)
        value = e["card"] & 15
        last = " — LAST CARD!" if e.get("announced") else ""
        ch = e.get("challenger")
        them = names[ch] if isinstance(ch, int) and 0 <= ch < len(names) else "the challenger"
        return f"{who} meets the challenge with {e['card_text']}{last}; {them} draws {plural(value, 'card')}"
    if k == "challenge_failed":
        return f"{who} fails the challenge and draws {e['draws']}"
    if k == "reverse":
        # at the end of the turn of ``player`` (KK-14: a double reverses play once it resolves)
        whose = "your" if who.endswith("(you)") else f"{who}'s"
        return (f"doubles! after {whose} turn play reverses: " if who else "doubles! play reverses: ") + \
            ("clockwise" if e["direction"] > 0 else "counter-clockwise")
    if k == "rolloff_die":
        return f"roll-off: {who} rolls {DIE.get(e['die'], e['die'])} ({e['die']})"
    if k == "rolloff_win":
        return f"{who} wins the roll-off"
    if k == "direction":
        return f"{who} sets play " + ("clockwise" if e["direction"] > 0 else "counter-clockwise")
    if k == "stock_rebuilt":
        return f"the discard pile is shuffled into a new stock of {e['cards']}"
    if k == "round_one":
        return f"everyone is back to Round One: {e['reason']}"
    if k == "last_card":
        return None
    if k == "caught":
        return f"{who} forgot to call last card! rolls {dice_text(e['dice'])}"
    if k == "win":
        return f"{who} empties their hand and WINS"
    if k == "turn_limit":
        return f"the turn limit ({e['turns']}) ends the game"
    if k == "king_only":
        return f"{who} holds only a King and challenges with it (KK-13)"
    return f"{who} {k}"


# ------------------------------------------------------------------ prompts and reasons
def _match_words(d1: int, d2: int) -> str:
    """The cards that match a roll (KK-2): ``"a 3, a 2 or a 5"``, ``"an Ace or an 8"``."""
    words = {1: "an Ace", 8: "an 8", 11: "a Jack", 12: "a Queen"}
    shown = [words.get(v, f"a {v}") for v in sorted({d1, d2, d1 + d2})]
    return ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0]


def prompt(state, seat: int, names: Sequence[str], obs=None) -> str:
    """What ``seat`` must decide now, in the player's words with the rule; for a seat whose
    turn it is not, whose turn it is (``obs``: the seat's observation, when read already)."""
    obs = state.observation(seat) if obs is None else obs
    if state.is_terminal():
        w = obs["winner"]
        return "The game is over" + (f": {names[w]} won (KK-20)." if 0 <= w < len(names) else " (KK-20).")
    cur = state.current_player()
    if cur != seat:
        return f"{names[cur]} is to play."
    ph = obs["phase"]
    d = obs.get("roll") or obs.get("open_roll")
    top = obs.get("top_card_text")
    if ph == "direction":
        return "You won the roll-off: choose the direction of play (KK-16)."
    if ph == "challenged" and d:
        ch = obs.get("challenger")
        by = names[ch] if isinstance(ch, int) and 0 <= ch < len(names) else "a King"
        return (f"{by} challenges you with {dice_text(d)}: play {_match_words(*d)} to meet it, "
                f"or you draw {d[0] + d[1]} (KK-11).")
    if ph == "open_roll" and d:
        return f"The open roll is {dice_text(d)}: play a card that matches it ({_match_words(*d)}) (KK-12)."
    if ph == "round_two_rolled" and d:
        return f"You rolled {dice_text(d)}: play a card that matches it ({_match_words(*d)}) (KK-8)."
    if ph == "round_one" and d:
        return (f"Round One: you rolled {dice_text(d)}: play a card that matches it ({_match_words(*d)}), "
                "a King or a Joker (KK-6).")
    if ph == "round_two":
        on = f" on {top}" if top else ""
        return f"Round Two: play a card of the same rank or suit{on}, a King or a Joker (KK-7)."
    return "Your turn: play a card (KK-6, KK-7)."


def facts(state, seat: int, names: Sequence[str], obs=None) -> Dict[str, Any]:
    """What a table shows ``seat`` beside its observation: ``{"to_match": {"dice": [d1, d2],
    "values": [...], "text"} or None}`` (the roll the seat's play must match now, when it is
    to move: KK-2, KK-6, KK-8, KK-11, KK-12) and ``"round_two"`` (whether the seat plays by
    Round Two rules, KK-5)."""
    obs = state.observation(seat) if obs is None else obs
    d = obs.get("roll") or obs.get("open_roll")
    match = None
    if d and obs["phase"] in ("round_one", "round_two_rolled", "challenged", "open_roll") and \
            state.current_player() == seat:
        match = {"dice": list(d), "values": sorted({d[0], d[1], d[0] + d[1]}),
                 "text": f"{dice_text(d)}: {_match_words(*d)}"}
    return {"to_match": match, "round_two": bool(obs["round_two"][seat])}


def card_reason(state, seat: int, code: int, obs) -> Optional[str]:
    """Why the card ``code`` in ``seat``'s hand has no legal move now (``None`` when one of its
    plays is legal, or the card is not held): the phase's rule and what may be played."""
    if any(a < ROLL and action_card(a) == code for a in state.legal_actions()):
        return None
    name = format_card(code)
    ph = obs["phase"]
    d = obs.get("roll") or obs.get("open_roll")
    if (code & 15) == 13 and len(obs["hand"]) == 1:
        return f"{name}: a King can never be the last card (KK-13)"
    if ph == "direction":
        return f"{name}: first choose the direction of play (KK-16)"
    if ph == "challenged" and d:
        return f"{name}: a challenge of {d[0]}+{d[1]} is met only by {_match_words(*d)}, never a King or a Joker (KK-11)"
    if ph == "open_roll" and d:
        return f"{name}: the open roll {d[0]}+{d[1]} is matched only by {_match_words(*d)} (KK-12)"
    if ph == "round_two_rolled" and d:
        return f"{name}: you rolled {d[0]}+{d[1]}; only {_match_words(*d)} may be played (KK-8)"
    if ph == "round_one" and d:
        return f"{name}: you rolled {d[0]}+{d[1]}; only {_match_words(*d)}, a King or a Joker may be played (KK-6)"
    top = obs.get("top_card")
    if top is not None and (top == JOKER or (top & 15) == 13) and ((code & 15) == 13 or code == JOKER):
        return f"{name}: nothing is played on a King with a King, and a King never on a Joker (KK-10, KK-15)"
    return (f"{name}: in Round Two a play matches the top card {obs.get('top_card_text')}'s rank or suit, "
            "or is a King or a Joker (KK-7)")




# ------------------------------------------------------------------ the play by play folded
# (krazy_core._words.log_lines reads these)
RESTOCK_EVENTS = ("stock_rebuilt", "round_one")     # between the draws one line announced (KK-17)


def announced_draw(prev) -> Optional[Tuple[int, int]]:
    """``(seat, cards)`` when the line of ``prev`` says a seat's draws (KK-11): "meets the
    challenge with 6♦; seat 2 draws 6 cards" (the challenger draws the card's rank), "fails
    the challenge and draws 3"."""
    k = prev.get("event")
    if k == "challenge_met":
        return prev.get("challenger"), (prev.get("card") or 0) & 15
    if k == "challenge_failed":
        return prev.get("player"), prev.get("draws") or 0
    return None


def merged_with(events, i) -> Optional[int]:
    """The index of the ``challenge_met`` event whose line says the play ``events[i]`` too
    (KK-11: the same seat and card, after its ``last_card`` call, KK-19), else ``None``."""
    e = events[i]
    if e.get("event") != "play":
        return None
    j = i + 1
    while j < len(events) and events[j].get("event") == "last_card" and events[j].get("player") == e.get("player"):
        j += 1
    if j < len(events) and events[j].get("event") == "challenge_met" and \
            events[j].get("player") == e.get("player") and events[j].get("card") == e.get("card"):
        return j
    return None
