"""Kings Rummy's words for every frontend (pure Python; ``State.describe_action``,
``State.action_from``, ``State.narrate``, ``State.prompt``, ``State.explain`` and
``State.arrangement`` call these): an action as data and back, the play by play, what a seat
must decide now, the best arrangement of a hand (KR-12) and why a card cannot be played.  The
terminal (``view.py``) and the server read the same functions.

Seats and card codes in data are ints (seats from 0); every text counts seats from 1.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import krazy_core.games.melds as _melds
from krazy_core.cards import JOKER, format_card
from krazy_core.games.kings_rummy.notation import DISCARD, DRAW, GO_OUT, NUM_KINDS, TAKE, card_kind

RANK_TEXT = {11: "J", 12: "Q", 13: "K"}
KINDS = ("draw", "take_discard", "discard", "go_out")
"""The ``kind`` of each action (``describe_action``)."""


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def rank_text(r: int) -> str:
    return RANK_TEXT.get(r, str(r))


def kind_code(k: int) -> int:
    """The card code of card kind ``k`` (0..55; 55 the Joker)."""
    if k == NUM_KINDS - 1:
        return JOKER
    return ((k // 11) << 4) | (k % 11 + 3)


def _codes(arrangement) -> Tuple[List[List[int]], List[int], int]:
    """``best_arrangement(..., as_codes=True)``'s result with its card codes typed as ints."""
    groups, left, points = arrangement
    return [[int(c) for c in g] for g in groups], [int(c) for c in left], int(points)


def is_wild(code: int, wild_rank: int) -> bool:
    """A Joker or a card of the round's wild rank (KR-3)."""
    return code == JOKER or (code & 15) == wild_rank


# ------------------------------------------------------------------ actions as data
def describe_action(state, a: int, obs=None) -> Dict[str, Any]:
    """Action id ``a`` as data: ``{"id", "kind", "label", "text", ...}``; ``take_discard``
    (KR-8) adds the pile's top card as ``cards``/``cards_text`` when there is one;
    ``discard`` (KR-9) and ``go_out`` (KR-10) the card discarded."""
    d: Dict[str, Any] = {"id": a}
    if a == DRAW:
        d["kind"] = "draw"
    elif a == TAKE:
        d["kind"] = "take_discard"
        obs = state.observation(max(state.current_player(), 0)) if obs is None else obs
        top = obs["top_card"]
        if top is not None:
            d.update(cards=[top], cards_text=[format_card(top)])
    else:
        out = a >= GO_OUT
        c = kind_code(a - (GO_OUT if out else DISCARD))
        d.update(kind="go_out" if out else "discard", cards=[c], cards_text=[format_card(c)])
    d["label"] = d["text"] = state.action_to_string(a)
    return d


def encode(state, move: Dict[str, Any]) -> Optional[int]:
    """The action id ``move`` names, legal or not; ``None`` when it names none."""
    kind = move.get("kind")
    if kind == "draw":
        return DRAW
    if kind == "take_discard":
        return TAKE
    if kind in ("discard", "go_out"):
        cards = move.get("cards")
        if not isinstance(cards, list) or len(cards) != 1 or type(cards[0]) is not int:
            return None
        try:
            k = card_kind(cards[0])
        except ValueError:
            return None
        return (GO_OUT if kind == "go_out" else DISCARD) + k
    return None


def action_text(state, a: int) -> str:
    return state.action_to_string(a)


# ------------------------------------------------------------------ the best arrangement
def arrangement(state, seat: int, obs=None) -> Dict[str, Any]:
    """The best arrangement of ``seat``'s hand now (KR-12: books and runs leaving the fewest
    points): ``{"melds": [[codes]...], "melds_text", "deadwood": [codes], "deadwood_text",
    "points": int, "go_out": [codes], "wild_rank": int, "last_turn": bool}``.  ``go_out``:
    the cards whose discard goes out now (KR-10; empty outside the seat's discard phase or
    when none does); ``last_turn``: someone has gone out and this seat's next turn is its
    last (KR-11).  ``obs``: the seat's observation, when read already."""
    obs = state.observation(seat) if obs is None else obs
    w = obs["wild_rank"]
    hand = obs["hand"]
    groups, left, points = _codes(_melds.best_arrangement(hand, _melds.kings_rules(w), as_codes=True)) if hand else ([], [], 0)
    outs = []
    if state.current_player() == seat and not state.is_terminal():
        outs = sorted({kind_code(a - GO_OUT) for a in state.legal_actions() if a >= GO_OUT})
    return {"melds": [list(g) for g in groups], "melds_text": [[format_card(c) for c in g] for g in groups],
            "deadwood": list(left), "deadwood_text": [format_card(c) for c in left], "points": int(points),
            "go_out": outs, "wild_rank": w,
            "last_turn": obs["went_out"] is not None and obs["laid_down"][seat] is None and not obs["terminal"]}


def arrangement_words(arr: Dict[str, Any]) -> str:
    """``[3♥ 4♥ 5♥] [6♠ 6♥ 6♣]  left: 9♦ = 9`` (an :func:`arrangement`), with ``; discard 9♦
    to go out`` when a discard goes out."""
    parts = ["[" + " ".join(m) + "]" for m in arr["melds_text"]]
    text = " ".join(parts)
    if arr["deadwood_text"]:
        text += ("  " if text else "") + "left: " + " ".join(arr["deadwood_text"])
    text += f" = {arr['points']}"
    if arr["go_out"]:
        text += "; discard " + " or ".join(format_card(c) for c in arr["go_out"]) + " to go out (KR-10)"
    return text


def laid_down(obs) -> list:
    """Each seat's hand laid down this round (KR-11, KR-12) as melds, leftovers apart: per
    seat ``None`` (not laid down) or ``{"melds": [[codes]...], "melds_text", "deadwood",
    "deadwood_text", "points"}`` -- the arrangement its points were counted from."""
    out: List[Optional[Dict[str, Any]]] = []
    for cards in obs["laid_down"]:
        if cards is None:
            out.append(None)
            continue
        groups, left, points = _codes(_melds.best_arrangement(cards, _melds.kings_rules(obs["wild_rank"]), as_codes=True)) if cards \
            else ([], [], 0)
        out.append({"melds": [list(g) for g in groups], "melds_text": [[format_card(c) for c in g] for g in groups],
                    "deadwood": list(left), "deadwood_text": [format_card(c) for c in left], "points": int(points)})
    return out


def facts(state, seat: int, names: Sequence[str], obs=None) -> Dict[str, Any]:
    """What a table shows ``seat`` beside its observation: ``{"arrangement": ...}`` (see
    :func:`arrangement`; ``None`` once the seat's hand is laid down), ``"last_turn"`` and
    ``"laid_down"`` (see :func:`laid_down`)."""
    obs = state.observation(seat) if obs is None else obs
    arr = arrangement(state, seat, obs) if obs["laid_down"][seat] is None and not obs["terminal"] else None
    w = obs["went_out"]
    last = bool(arr and arr["last_turn"])
    return {"arrangement": arr, "arrangement_text": arrangement_words(arr) if arr else None,
            "last_turn": last, "laid_down": laid_down(obs),
            "last_turn_text": (f"{names[w]} went out: this is your last turn (KR-11)"
                               if last and isinstance(w, int) and 0 <= w < len(names) else None)}


# ------------------------------------------------------------------ narration
def narrate(e: Dict[str, Any], names: Sequence[str], state=None) -> Optional[str]:
    """One line of play by play for event ``e``, or ``None`` for a bookkeeping event (the
    deal's cards, a turn starting, a shuffle, the hand laid down: the round's score says it)."""
    k = e["event"]
    who = names[e["player"]] if isinstance(e.get("player"), int) and 0 <= e["player"] < len(names) else ""
    if k == "round":
        return f"— Round {e['round']}: {e['cards']} cards each, {rank_text(e['wild_rank'])}s are wild; {who} deals —"
    if k in ("deal", "turn", "shuffle"):
        return None
    if k == "up_card":
        return f"the up-card is {e['card_text']}"
    if k == "draw":
        return f"{who} draws {e['card_text']} from the stock" if e.get("card") is not None else f"{who} draws from the stock"
    if k == "take_discard":
        return f"{who} takes {e['card_text']} from the discard pile"
    if k == "discard":
        return None if e["going_out"] else f"{who} discards {e['card_text']}"
    if k == "go_out":
        return f"{who} GOES OUT, discarding {e['card_text']}!"
    if k == "lay_down":
        return None
    if k == "round_score":
        return f"{who} scores {e['points']} (total {e['total']})"
    if k == "stock_rebuilt":
        return f"the discard pile is shuffled into a new stock of {plural(e['cards'], 'card')}"
    if k == "turn_limit":
        return f"the turn limit ({e['turns']}) ends round {e['round']}: every hand is scored"
    if k == "game_over":
        return "the game is over"
    return f"{who} {k}"


# ------------------------------------------------------------------ prompts and reasons
def prompt(state, seat: int, names: Sequence[str], obs=None) -> str:
    """What ``seat`` must decide now, with the rule (``obs``: its observation, when read)."""
    obs = state.observation(seat) if obs is None else obs
    if state.is_terminal():
        low = min(obs["scores"])
        won = [names[p] for p, s in enumerate(obs["scores"]) if s == low]
        return f"The game is over: {' and '.join(won)} won with {low} points (KR-15)."
    cur = state.current_player()
    if cur != seat:
        return f"{names[cur]} is to play."
    last = " This is your last turn: your hand is laid down after it (KR-11)." if obs["went_out"] is not None else ""
    if obs["phase"] == "draw":
        top = obs.get("top_card_text")
        take = f" or take {top} from the discard pile" if top else ""
        return f"Draw from the stock{take} (KR-8).{last}"
    arr = arrangement(state, seat, obs)
    if arr["go_out"]:
        return (f"Discard a card (KR-9); discard {' or '.join(format_card(c) for c in arr['go_out'])} "
                f"to go out (KR-10).{last}")
    return f"Discard a card (KR-9).{last}"


def card_reason(state, seat: int, code: int, obs) -> Optional[str]:
    """Why the card ``code`` in ``seat``'s hand has no legal move now, or ``None``."""
    name = format_card(code)
    try:
        k = card_kind(code)
    except ValueError:
        return None
    if DISCARD + k in state.legal_actions():
        return None
    if obs["phase"] == "draw":
        return f"{name}: first draw a card, from the stock or the discard pile (KR-8)"
    return None
