"""The game's words for every frontend, game-blind (``State.describe_action``,
``action_from``, ``explain``, ``prompt``, ``narrate``, ``facts`` call these): each game's
``games/<game>/words.py`` (``GameSpec.words``) knows its actions, events and phases; this
module holds what is the same for every game: matching a described move back to its id, the
seat names, and folding the play by play into the lines the terminal prints.

Imports nothing of the engine but the errors and cards (``_state.pyx`` imports it).
"""
from __future__ import annotations

import operator
import re
from typing import Any, Callable, Dict, List, Optional, Sequence

from krazy_core.cards import format_card, parse_card
from krazy_core.errors import IllegalActionError, UnclearActionError

__all__ = ["default_names", "describe_action", "action_from", "explain", "prompt", "narrate_event",
           "log_lines", "facts", "explain_card", "describe_actions", "IDENTIFYING"]

IDENTIFYING = ("kind", "cards", "meld", "end", "suit", "positions", "slot", "position", "combination",
               "x_values", "direction", "announce")
"""The keys of a described move that say which move it is (``action_from`` compares these;
``id``, ``label``, ``text`` and ``cards_text`` are not compared)."""


def _words(state):
    w = state.game.spec.words
    if w is None:
        raise NotImplementedError(f"{state.game.name} has no words module (GameSpec.words)")
    return w


def default_names(n: int, viewer: Optional[int] = None) -> List[str]:
    """``["seat 1", "seat 2 (you)", ...]``: seats from 1, the viewer marked as the terminal
    marks a lone human."""
    return [f"seat {p + 1} (you)" if p == viewer else f"seat {p + 1}" for p in range(n)]


def _names(state, names, viewer=None) -> List[str]:
    n = state.game.num_players
    if names is None:
        return default_names(n, viewer)
    names = [str(x) for x in names]
    if len(names) != n:
        raise ValueError(f"names: one name per seat ({n}), got {len(names)}")
    return names


def _action_id(state, action) -> int:
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise ValueError(f"action {action!r} is not an int id")
    a = operator.index(action)
    if not 0 <= a < state.game.num_distinct_actions:
        raise ValueError(f"action {a} is outside [0, {state.game.num_distinct_actions})")
    return a


def describe_action(state, action, obs=None) -> Dict[str, Any]:
    """See ``State.describe_action``; ``obs``: the seat to move's observation, when read already."""
    return _ordered(_words(state).describe_action(state, _action_id(state, action), obs))


def _ordered(d: Dict[str, Any]) -> Dict[str, Any]:
    """``id``, ``kind``, ``label``, ``text`` first, then the kind's fields."""
    out = {"id": d["id"], "kind": d["kind"], "label": d["label"], "text": d["text"]}
    out.update(d)
    return out


def describe_actions(state, player=None) -> List[Dict[str, Any]]:
    """Every legal action of ``state`` described, in ``legal_actions()`` order (the seat to
    move's observation read once); ``[]`` when ``player`` is given and not to move."""
    cur = state.current_player()
    if cur < 0 or state.is_terminal() or (player is not None and int(player) != cur):
        return []
    w = _words(state)
    obs = state.observation(cur)
    return [_ordered(w.describe_action(state, a, obs)) for a in state.legal_actions()]


def _matches(d: Dict[str, Any], move: Dict[str, Any]) -> bool:
    for k in IDENTIFYING:
        if k not in move:
            continue
        want, have = move[k], d.get(k)
        if k == "combination" and isinstance(want, dict) and isinstance(have, dict):
            if any(x in want and want[x] != have.get(x) for x in ("index", "type", "value")):
                return False
        elif want != have or type(want) is not type(have):
            return False
    return True


def action_from(state, move) -> int:
    w = _words(state)
    if not isinstance(move, dict):
        raise UnclearActionError(f"a move is a dict as describe_action gives (kind and its fields, or id), "
                                 f"got {type(move).__name__}", matches=(), state=state.clone())
    legal = state.legal_actions()
    if "id" in move:
        a = move["id"]
        if isinstance(a, bool) or type(a) is not int or not 0 <= a < state.game.num_distinct_actions:
            raise UnclearActionError(f"id must be an action id, an int in [0, {state.game.num_distinct_actions})"
                                     f", got {a!r}", matches=(), state=state.clone())
        if a not in legal:
            raise IllegalActionError(f"{w.action_text(state, a)} is not allowed now: {explain(state, a)}",
                                     action=a, state=state.clone())
        if not _matches(describe_action(state, a), move):
            raise UnclearActionError(f"id {a} is {w.action_text(state, a)!r}, which the other fields do not "
                                     "describe", matches=(a,), state=state.clone())
        return a
    kind = move.get("kind")
    if kind not in w.KINDS:
        raise UnclearActionError(f"kind must be one of {', '.join(w.KINDS)}, got {str(kind)[:40]!r}",
                                 matches=(), state=state.clone())
    hits = [d["id"] for d in describe_actions(state) if _matches(d, move)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UnclearActionError(f"that {kind} fits {len(hits)} moves: "
                                 + "; ".join(w.action_text(state, a) for a in hits[:8])
                                 + ("; ..." if len(hits) > 8 else "") + "; say which", matches=hits,
                                 state=state.clone())
    try:
        a = w.encode(state, move)
    except (TypeError, ValueError, KeyError):
        a = None
    if a is not None and 0 <= a < state.game.num_distinct_actions:
        raise IllegalActionError(f"{w.action_text(state, a)} is not allowed now: {explain(state, a)}",
                                 action=a, state=state.clone())
    raise UnclearActionError(f"no {kind} move fits {({k: move[k] for k in IDENTIFYING if k in move})!r}",
                             matches=(), state=state.clone())


def explain(state, action, seat=None) -> Optional[str]:
    """See ``State.explain``."""
    w = _words(state)
    if isinstance(action, dict):
        try:
            action_from(state, action)
            return None
        except UnclearActionError as e:
            return str(e)
        except IllegalActionError as e:
            action = e.action
    why = state.explain_illegal(action)
    if why is None:
        return None
    player_words = getattr(w, "engine_text", None)
    why = _seats_from_one(why)
    return player_words(state, why) if player_words is not None else why


def _seats_from_one(text: str) -> str:
    """The engine's reasons name the seat to move from 0 (``"player 0 does not hold 3♠"``,
    ``"seat 2 first takes ..."``); the player's words say "you" for the mover's own cards and
    count other seats from 1."""
    text = _HOLDS.sub("you do not hold ", text)
    return _SEAT.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + 1}", text)


_HOLDS = re.compile(r"\b(?:player|seat) \d+ (?:does not hold|holds no) ")
_SEAT = re.compile(r"\b(player|seat) (\d+)\b")


def explain_card(state, code, seat=None) -> Optional[str]:
    """See ``State.explain_card``."""
    try:
        code = parse_card(code)
    except (ValueError, TypeError):
        return f"{str(code)[:20]!r} is not a card"
    p = state.current_player() if seat is None else seat       # checked by State.explain_card
    if p < 0:
        return "the game is over"
    # what every game says alike; the game's card_reason(state, seat, code, obs) says the rest
    # for a card of the seat to move, the game running
    obs = state.observation(p)
    name = format_card(code)
    if code not in obs["hand"]:
        return f"you do not hold {name}"
    if state.is_terminal():
        return f"{name}: the game is over"
    if state.current_player() != p:
        return f"{name}: it is not your turn"
    return _words(state).card_reason(state, p, code, obs)


def prompt(state, seat=None, names=None, obs=None) -> str:
    """See ``State.prompt``; ``obs``: the seat's observation, when read already."""
    p = state.current_player() if seat is None else seat
    if p < 0:
        p = 0
    return _words(state).prompt(state, p, _names(state, names, p), obs)


_RULE_ID = re.compile(r"\b[A-Z]{2}-\d+\b")


def cited_rules(text: str) -> List[str]:
    """The rule ids (``"KK-6"``) a sentence of these words cites, in order, each once."""
    out: List[str] = []
    for r in _RULE_ID.findall(text or ""):
        if r not in out:
            out.append(r)
    return out


def public_prompt(state, names=None) -> str:
    """The prompt anyone may read (a spectator's): the words of a seat that is not to move,
    so whose turn it is or the result, never what the mover's hidden hand allows."""
    n = state.game.num_players
    cur = state.current_player()
    p = (cur + 1) % n if 0 <= cur < n else 0
    return _words(state).prompt(state, p, _names(state, names, None), None)


def narrate_event(state, event: Dict[str, Any], names=None, viewer=None) -> Optional[str]:
    return _words(state).narrate(event, _names(state, names, viewer), state)


def facts(state, seat, names=None, obs=None) -> Dict[str, Any]:
    """See ``State.facts``; ``obs``: the seat's observation, when read already."""
    f = getattr(_words(state), "facts", None)
    return {} if f is None else f(state, seat, _names(state, names, seat), obs)


def narrate(state, viewer=None, since=0, names=None) -> List[str]:
    names = _names(state, names, viewer if isinstance(viewer, int) else None)
    w = _words(state)
    return log_lines(state.events_for(viewer, since=since), names, lambda e: w.narrate(e, names, state), w)


# ------------------------------------------------------------------ the play by play folded
def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class _NoFolds:
    """A game's words may say how its play by play folds (all optional): ``unseen_draw(e)``,
    an event that is a draw nobody else sees the card of (one line for a run); ``announced_draw
    (prev) -> (seat, cards) | None``, an event whose line already says that ``seat`` draws
    ``cards``; ``RESTOCK_EVENTS``, events between the draws of one announced count;
    ``merged_with(events, i) -> j | None``, an event ``j`` whose line says event ``i`` too."""

    RESTOCK_EVENTS: tuple = ()

    @staticmethod
    def unseen_draw(e) -> bool:
        return False

    @staticmethod
    def announced_draw(prev):
        return None

    @staticmethod
    def merged_with(events, i):
        return None


def log_lines(events: Sequence[Dict[str, Any]], names: Sequence[str],
              describe: Callable[[Dict[str, Any]], Optional[str]], folds: Any = None) -> List[str]:
    """The play by play of ``events`` as the terminal prints it: ``describe(event)`` per event
    (``None``: not shown), with a run of draws by one seat as one line (``draws 6 cards``;
    after a line that says the count (``folds.announced_draw``: "fails the challenge and
    draws 6"), only the cards, when seen; when the stock is rebuilt in the middle, the rest is
    "draws the other 3 cards"), and a run of passes as one line.  ``folds``: the game's words
    module (``_NoFolds`` says what it may define)."""
    unseen = getattr(folds, "unseen_draw", _NoFolds.unseen_draw)
    announced = getattr(folds, "announced_draw", _NoFolds.announced_draw)
    restock = tuple(getattr(folds, "RESTOCK_EVENTS", ()))
    merged_with = getattr(folds, "merged_with", _NoFolds.merged_with)
    events = list(events)
    out: List[str] = []
    i = 0
    prev = None
    owed: Any = None                    # [seat, cards still due] of a draw a line announced
    while i < len(events):
        e = events[i]
        k = e.get("event")
        j = i + 1
        if k in ("draw", "pass") or unseen(e):
            while j < len(events) and events[j].get("event") == k and \
                    (k == "pass" or events[j].get("player") == e.get("player")) and \
                    events[j].get("reason") == e.get("reason") and \
                    (k in ("draw", "pass") or unseen(events[j])):
                j += 1
        who = names[e["player"]] if isinstance(e.get("player"), int) and 0 <= e["player"] < len(names) else ""
        seen = [x["card_text"] for x in events[i:j] if x.get("card") is not None and x.get("card_text")]
        said = announced(prev) if k == "draw" and out and prev is not None else None
        if said is not None and e.get("player") == said[0]:
            # the line before says the draws already: only the cards
            due = said[1]
            owed = [e.get("player"), due - (j - i)] if due > j - i else None
            if seen:
                out[-1] += ": " + " ".join(seen)
        elif k == "draw" and owed is not None and owed[0] == e.get("player") and \
                prev is not None and prev.get("event") in restock:
            # the rest of an announced draw after the stock was rebuilt
            n = min(owed[1], j - i)
            out.append(f"{who} draws the other {_plural(n, 'card')}" + (": " + " ".join(seen) if seen else ""))
            owed = None
        elif j - i > 1 and (k == "draw" or unseen(e)):
            out.append(f"{who} draws {j - i} cards" + (": " + " ".join(seen) if seen else ""))
        elif merged_with(events, i) is not None:
            # a later event's line says this one too; what this one announced, it says
            if e.get("announced"):
                m = merged_with(events, i)
                events = events[:m] + [dict(events[m], announced=True)] + events[m + 1:]
        elif j - i > 1 and k == "pass":
            lines = [t for t in (describe(x) for x in events[i:j]) if t]
            if lines:
                out.append(" · ".join(lines))
        else:
            line = describe(e)
            if line:
                out.append(line)
        if k != "draw" and k not in restock:
            owed = None
        prev = events[j - 1]
        i = j
    return out
