"""The protocol a frontend relies on: structured legal actions, per-seat views, and the JSON
Schemas (draft 2020-12) that describe every payload.

- :func:`describe_actions` gives each legal action as a dict (``id``, ``kind``, ``label``,
  and where they apply ``cards``, ``meld``, ``end``, ``suit``, ``positions``, ``slot``,
  ``position``, ``combination``, ``direction``, ``announce``), so a UI draws its moves
  without parsing strings (``schemas/action.json``).
- :func:`seat_view` is everything one seat may see: its observation, its view of the events
  and its described actions. The game server sends only what this builds.
- :func:`schema` / :func:`validator` load the shipped schemas (``krazy_core/schemas/*.json``;
  ``validator`` needs the ``jsonschema`` package).

Built only from what the games expose (``observation``, ``action_to_string``,
``events_for``) and, for KrassKariert's combination index, its module's action table.
"""
import json
import os
import re
from typing import Any, Dict, List, Optional

from krazy_core.cards import format_card, parse_card

__all__ = ["describe_actions", "describe_action", "seat_view", "schema", "validator",
           "SCHEMA_DIR", "SCHEMA_FILES"]

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")
SCHEMA_FILES = ("state.json", "observation.json", "event.json", "action.json", "protocol.json")

_CARD = r"(\S+)"


def _card(text: str) -> int:
    return parse_card(text)


def _text(code: int) -> str:
    return format_card(code)


def _with_cards(d: Dict[str, Any], cards: List[int]) -> Dict[str, Any]:
    d["cards"] = [int(c) for c in cards]
    d["cards_text"] = [_text(c) for c in cards]
    return d


# ------------------------------------------------------------ per game
def _kk(label: str, obs) -> Dict[str, Any]:
    if label in ("clockwise", "counter-clockwise"):     # KK-13: the doubler picks a direction
        return {"kind": "direction", "direction": 1 if label == "clockwise" else -1}
    m = re.fullmatch(r"play " + _CARD + r"( last card)?", label)
    if m:
        d = _with_cards({"kind": "play"}, [_card(m.group(1))])
        d["announce"] = bool(m.group(2))              # KK-19: the last-card call
        return d
    raise ValueError(f"unknown Krazy Kings action text {label!r}")


def _kr(label: str, obs) -> Dict[str, Any]:
    if label == "draw":                                 # KR-5: from the stock
        return {"kind": "draw"}
    m = re.fullmatch(r"take " + _CARD, label)
    if m:
        return _with_cards({"kind": "take_discard"}, [_card(m.group(1))])
    m = re.fullmatch(r"go out, discard " + _CARD, label)
    if m:
        return _with_cards({"kind": "go_out"}, [_card(m.group(1))])
    m = re.fullmatch(r"discard " + _CARD, label)
    if m:
        return _with_cards({"kind": "discard"}, [_card(m.group(1))])
    raise ValueError(f"unknown Kings Rummy action text {label!r}")


_CR_FIXED = {"take up-card": "take", "decline up-card": "decline", "buy": "buy", "pass": "pass",
             "go down": "go_down", "finish meld": "finish_meld", "keep last card": "keep"}


def _cr(label: str, obs) -> Dict[str, Any]:
    d: Dict[str, Any]
    kind = _CR_FIXED.get(label)
    if kind is not None:
        d = {"kind": kind}
        if kind in ("take", "decline", "buy", "pass") and obs.get("up_card") is not None:
            _with_cards(d, [obs["up_card"]])
        return d
    m = re.fullmatch(r"discard " + _CARD, label)
    if m:
        return _with_cards({"kind": "discard"}, [_card(m.group(1))])
    m = re.fullmatch(r"lay " + _CARD, label)
    if m:                                             # CR-10: onto the meld being built
        d = _with_cards({"kind": "lay"}, [_card(m.group(1))])
        if obs.get("building_meld") is not None:
            d["meld"] = int(obs["building_meld"])
        return d
    m = re.fullmatch(r"start run ([SHDC]) from " + _CARD, label)
    if m:
        return _with_cards({"kind": "start_run", "suit": m.group(1)}, [_card(m.group(2))])
    m = re.fullmatch(r"lay off " + _CARD + r" on meld (\d+)(?: (low|high))?", label)
    if m:                                             # CR-12
        d = _with_cards({"kind": "lay_off", "meld": int(m.group(2))}, [_card(m.group(1))])
        if m.group(3):
            d["end"] = m.group(3)
        return d
    m = re.fullmatch(r"swap " + _CARD + r" into meld (\d+)", label)
    if m:                                             # CR-13
        return _with_cards({"kind": "swap", "meld": int(m.group(2))}, [_card(m.group(1))])
    raise ValueError(f"unknown Crazy Rummy action text {label!r}")


def _ka(label: str, obs) -> Dict[str, Any]:
    d: Dict[str, Any]
    hand = obs.get("hand") or []
    m = re.fullmatch(r"play (\d+)(?:-(\d+))? (solo|2-straight|pair|3-straight|triple) (\d+)"
                     r"(?: \(X=([\d,]+)\))?", label)
    if m:                                             # KA-6: 1-3 adjacent cards
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        positions = list(range(lo, hi + 1))
        d = {"kind": "play", "positions": positions,
             "combination": {"type": m.group(3), "value": int(m.group(4))}}
        if hi < len(hand):
            _with_cards(d, [hand[i] for i in positions])
        d["x_values"] = [int(x) for x in m.group(5).split(",")] if m.group(5) else []
        return d
    m = re.fullmatch(r"(stop|draw) (\d+)", label)
    if m:
        i = int(m.group(2))
        d = {"kind": m.group(1), "position": i, "positions": [i]}
        if i < len(hand):
            _with_cards(d, [hand[i]])
        return d
    m = re.fullmatch(r"reserve slot (\d) at (\d+)", label)
    if m:                                             # KA-9: a face-up reserve card
        slot, pos = int(m.group(1)), int(m.group(2))
        d = {"kind": "reserve", "slot": slot, "position": pos}
        res = (obs.get("reserves") or [])
        me = obs.get("player")
        if me is not None and me < len(res) and res[me][slot] is not None:
            _with_cards(d, [res[me][slot]])
        return d
    m = re.fullmatch(r"insert at (\d+)", label)
    if m:                                             # KA-8: the drawn card goes in here
        d = {"kind": "insert", "position": int(m.group(1))}
        if obs.get("drawn_card") is not None:
            _with_cards(d, [obs["drawn_card"]])
        return d
    raise ValueError(f"unknown KrassKariert action text {label!r}")


_PARSERS = {"krazy-kings": _kk, "kings-rummy": _kr, "contract-rummy": _cr, "krass-kariert": _ka}


def describe_action(state, action: int, obs: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """One action of ``state`` as a dict (see :func:`describe_actions`)."""
    game = state.game.game_id
    if obs is None:
        p = state.current_player()
        obs = state.observation(p) if p >= 0 else {}
    label = state.action_to_string(int(action))
    d = _PARSERS[game](label, obs)
    if game == "krass-kariert" and d["kind"] == "play":
        import krazy_core.games.krass_kariert as ka   # the game's own combination table
        d["combination"]["index"] = int(action) % ka.NUM_COMBINATIONS
        d["combination"] = {"index": d["combination"]["index"], "type": d["combination"]["type"],
                            "value": d["combination"]["value"]}
    out = {"id": int(action), "kind": d.pop("kind"), "label": label}
    out.update(d)
    return out


def describe_actions(state, player: Optional[int] = None) -> List[Dict[str, Any]]:
    """Every legal action of ``state`` as a structured dict, in ``legal_actions()`` order.

    Each dict has ``id`` (int, the action to apply), ``kind`` (str; per game: Krazy Kings
    ``play``/``direction``; Kings Rummy ``draw``/``take_discard``/``discard``/``go_out``;
    Crazy Rummy ``take``/``decline``/``buy``/``pass``/``go_down``/``lay``/``start_run``/
    ``finish_meld``/``lay_off``/``swap``/``discard``/``keep``; KrassKariert ``play``/``stop``/
    ``draw``/``reserve``/``insert``) and ``label`` (the ``action_to_string`` text); where they
    apply: ``cards``/``cards_text`` (card codes and texts involved), ``meld`` (a table meld id,
    CR-10/12/13), ``end`` (``low``/``high``, CR-12), ``suit`` (a run's suit letter),
    ``positions`` (KrassKariert hand positions played, KA-6), ``slot``/``position`` (reserve
    slot and insertion position, KA-8/9), ``combination`` (``{index, type, value}``),
    ``x_values``, ``direction`` (+1 clockwise / -1, KK-13) and ``announce`` (KK-19).

    ``player``: describe only if it is that seat's turn (an empty list otherwise); ``None``
    describes the actions of whoever is to move. Schema: ``schemas/action.json``.
    """
    cur = state.current_player()
    if cur < 0 or state.is_terminal():
        return []
    if player is not None and int(player) != cur:
        return []
    obs = state.observation(cur)
    return [describe_action(state, a, obs) for a in state.legal_actions()]


def seat_view(state, seat: Optional[int], first_event: int = 0) -> Dict[str, Any]:
    """What one seat may see: ``{"observation", "events", "first_event", "actions"}``.

    ``seat=None`` is a spectator: the observation of no seat (``observation`` is ``None``),
    the public events, no actions. ``events`` are ``events_for(seat)`` from index
    ``first_event`` on (``events_for(None)``, the public log, for a spectator)."""
    if seat is None:
        evs = events_since(state, None, first_event)
        obs = None
        acts = []
    else:
        evs = events_since(state, int(seat), first_event)
        obs = state.observation(int(seat))
        acts = describe_actions(state, int(seat))
    return {"observation": obs, "events": evs, "first_event": first_event, "actions": acts}


def events_since(state, viewer, first: int = 0) -> List[Dict[str, Any]]:
    """``state.events_for(viewer, since=first)``: only the new events' dicts are built (a
    server sends each seat the events since its last update)."""
    return state.events_for(viewer, since=max(0, int(first)))


_cache: Dict[str, Any] = {}


def schema(name: str) -> Dict[str, Any]:
    """A shipped schema as a dict: ``name`` is one of :data:`SCHEMA_FILES` (``"state.json"``…).
    Raises ``KeyError`` for another name."""
    if name not in SCHEMA_FILES:
        raise KeyError(f"no schema {name!r}; the schemas are {', '.join(SCHEMA_FILES)}")
    if name not in _cache:
        with open(os.path.join(SCHEMA_DIR, name), encoding="utf-8") as f:
            _cache[name] = json.load(f)
    return _cache[name]


def validator(name: str, definition: Optional[str] = None):
    """A ``jsonschema`` validator for a shipped schema, or for one of its ``$defs``
    (``validator("event.json", "krazy-kings")``). Needs the ``jsonschema`` package (in the
    ``server`` and ``test`` extras)."""
    import jsonschema
    from referencing import Registry, Resource

    resources = [(schema(n)["$id"], Resource.from_contents(schema(n))) for n in SCHEMA_FILES]
    registry = Registry().with_resources(resources)
    s = schema(name)
    if definition is not None:
        s = {"$schema": s["$schema"], "$ref": s["$id"] + "#/$defs/" + definition}
    cls = jsonschema.validators.validator_for(schema(name))
    return cls(s, registry=registry)
