"""The protocol a frontend relies on: structured legal actions, per-seat views, and the JSON
Schemas (draft 2020-12) that describe every payload.

- :func:`describe_actions` gives each legal action as a dict (``id``, ``kind``, ``label``,
  and where they apply ``cards``, ``meld``, ``end``, ``suit``, ``positions``, ``slot``,
  ``position``, ``combination``, ``direction``, ``announce``), so a UI draws its moves
  without parsing strings (``schemas/action.json``).
- :func:`seat_view` is everything one seat may see: its observation, its view of the events
  and its described actions. The game server sends only what this builds.
- :func:`schema` / :func:`validator` load the shipped schemas (``krazy_core/protocol/schemas/*.json``;
  ``validator`` needs the ``jsonschema`` package).

Built only from what the games expose: ``describe_action`` (each game's words module),
``observation``, ``events_for``, ``narrate_event``, ``prompt`` and ``facts``.
"""
import json
import os
from typing import Any, Dict, List, Optional

from krazy_core import _words

__all__ = ["describe_actions", "describe_action", "seat_view", "schema", "validator",
           "SCHEMA_DIR", "SCHEMA_FILES"]

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")
SCHEMA_FILES = ("state.json", "observation.json", "event.json", "action.json", "protocol.json")


def describe_action(state, action: int, obs: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """One action of ``state`` as a dict: ``state.describe_action(action)`` (see
    :func:`describe_actions`).  ``obs``, the observation of the seat to move, saves reading it
    again when many actions are described."""
    if obs is None:
        return state.describe_action(action)
    return _words.describe_action(state, action, obs)


def describe_actions(state, player: Optional[int] = None) -> List[Dict[str, Any]]:
    """Every legal action of ``state`` as a structured dict, in ``legal_actions()`` order:
    each is ``state.describe_action(id)``, built by the game's own module from the action id
    (``games/<game>/words.py``), never parsed from a label.

    Each dict has ``id`` (int, the action to apply), ``kind`` (str; per game: Krazy Kings
    ``play``/``roll``/``direction``; Kings Rummy ``draw``/``take_discard``/``discard``/``go_out``;
    Crazy Rummy ``take``/``decline``/``buy``/``pass``/``go_down``/``lay``/``start_run``/
    ``finish_meld``/``lay_off``/``swap``/``discard``/``keep``; KrassKariert ``play``/``stop``/
    ``draw``/``reserve``/``insert``), ``label`` (the ``action_to_string`` text) and ``text``
    (the player's words, seats, melds and positions from 1); where they apply:
    ``cards``/``cards_text`` (card codes and texts involved), ``meld`` (a table meld id from
    0, CR-10/11/12), ``end`` (``low``/``high``, CR-11), ``suit`` (a run's suit letter),
    ``positions`` (KrassKariert hand positions from 0, KA-5), ``slot``/``position`` (reserve
    slot and insertion position, KA-9/12), ``combination`` (``{index, type, value}``),
    ``x_values`` (KA-8), ``direction`` (+1 clockwise / -1, KK-16) and ``announce`` (KK-19).
    ``state.action_from(d)`` gives the id back.

    ``player``: describe only if it is that seat's turn (an empty list otherwise); ``None``
    describes the actions of whoever is to move. Schema: ``schemas/action.json``.
    """
    return _words.describe_actions(state, player)


def seat_view(state, seat: Optional[int], first_event: int = 0,
              names: Optional[List[str]] = None) -> Dict[str, Any]:
    """What one seat may see: ``{"observation", "events", "first_event", "actions",
    "prompt", "prompt_rules", "facts", "card_reasons"}``.

    ``seat=None`` is a spectator: the observation of no seat (``observation`` is ``None``),
    the public events, no actions, no facts, the public prompt (whose turn it is, or the
    result: ``state.prompt`` of a seat not to move, never the mover's own words).  ``events`` are
    ``events_for(seat)`` from index ``first_event`` on (``events_for(None)``, the public log,
    for a spectator), each with ``text``: the sentence the terminal prints for it to this
    seat (``state.narrate_event``; ``None`` for a bookkeeping event another event's line
    says).  ``prompt``: ``state.prompt(seat)``; ``facts``: ``state.facts(seat)``;
    ``prompt_rules``: the rule ids the prompt cites, in order (``["KK-6"]``: a table opens
    its rules there without reading the sentence); ``card_reasons``: for the seat to move, ``{str(card code): state.explain_card(code)}`` of
    each held card no legal move uses (empty otherwise).  ``names``:
    one name per seat (default ``"seat 1"``..., this seat ``"seat N (you)"``)."""
    if seat is None:
        evs = events_since(state, None, first_event)
        obs = None
        acts = []
        facts: Dict[str, Any] = {}
    else:
        evs = events_since(state, int(seat), first_event)
        obs = state.observation(int(seat))
        acts = describe_actions(state, int(seat))
        facts = _words.facts(state, int(seat), names, obs)       # the observation read once
    reasons: Dict[str, str] = {}
    if seat is not None and acts and isinstance(obs, dict):
        # why each held card that no move uses cannot be played now (a table shows it when
        # the card is tapped; State.explain_card)
        used = {c for a in acts for c in a.get("cards", ())}
        for code in sorted(set(obs.get("hand") or ()) - used):
            why = _words.explain_card(state, code, int(seat))
            if why:
                reasons[str(code)] = why
    for e in evs:
        try:
            e["text"] = state.narrate_event(e, names, seat)
        except (KeyError, TypeError, ValueError, IndexError):   # an unreadable event (hostile JSON)
            e["text"] = None
    prompt = _words.prompt(state, seat, names, obs) if seat is not None else _words.public_prompt(state, names)
    return {"observation": obs, "events": evs, "first_event": first_event, "actions": acts,
            "prompt": prompt, "prompt_rules": _words.cited_rules(prompt), "facts": facts,
            "card_reasons": reasons}


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
