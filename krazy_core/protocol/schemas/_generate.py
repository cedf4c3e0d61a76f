"""Writes the JSON Schemas (draft 2020-12) of krazy_core's payloads into this folder.

Run ``python -m krazy_core.protocol.schemas._generate`` after changing a payload; a test checks the
shipped ``*.json`` files equal what this module builds, so the two never drift apart.

Files written:

- ``state.json``        ``State.to_json()``: the envelope and each game's full state
- ``observation.json``  ``State.observation(player)``, one definition per game
- ``event.json``        one element of ``State.events`` / ``events_for(player)``, per game
- ``action.json``       one element of ``krazy_core.protocol.describe_actions(state)``
- ``protocol.json``     the messages of ``krazy serve``'s WebSocket (server → client and back)
"""
import json
import os

from krazy_core.game import REGISTRY, get_spec
from krazy_core.protocol.schemas._parts import (  # noqa: F401  (the parts: re-exported for tests)
    BASE, BOOL, CARD, CARD_TEXT, CARDS, COMBINATION, COMMON_OBS, DICE, DIE, DRAFT, HIDDEN_CARD, INT,
    NAT, PER_SEAT_CARDS, PER_SEAT_INT, PLAYER, RNG, SEAT_OR_NONE, STR, arr, enum, ev, nullable, obj)

GAMES = tuple(REGISTRY)           # in the order the games were registered


def _schema_parts(game_id):
    """The game's own parts (``games/<game>/schema.py``, ``GameSpec.schema``)."""
    return get_spec(game_id).schema


# ------------------------------------------------------------------ observations
def observation_defs():
    out = {}
    for gid in GAMES:
        p = dict(COMMON_OBS)
        p["game"] = {"const": gid}
        p.update(_schema_parts(gid).observation())
        out[gid] = obj(p, optional=("legal_actions",))   # only in the observation of the seat to move
    return out


def by_game(defs, key="game"):
    """``allOf`` of if/then: the definition is picked by the ``game`` key."""
    return {"type": "object", "required": [key],
            "properties": {key: enum(*GAMES)},
            "allOf": [{"if": {"properties": {key: {"const": g}}},
                       "then": {"$ref": f"#/$defs/{g}"}} for g in defs]}


# ------------------------------------------------------------------ events
def event_defs():
    out = {}
    for gid in GAMES:
        alts = []
        for name, (props, optional) in _schema_parts(gid).events().items():
            p = {"event": {"const": name}, "player": SEAT_OR_NONE}   # -1: the table
            p.update(props)
            # text: the sentence the terminal prints for it (protocol.seat_view adds it; null
            # for a bookkeeping event another event's line says)
            p["text"] = nullable(STR)
            alts.append(obj(p, optional=optional + ("text",)))
        out[gid] = {"oneOf": alts}
    return out


# ------------------------------------------------------------------ full state
def state_defs():
    return {gid: _schema_parts(gid).state() for gid in GAMES}


def state_schema():
    defs = {}
    for g, body in state_defs().items():
        defs[g] = {"properties": {"state": body}}
    raw_event = arr(INT, 4, 4)
    top = obj({"format": {"const": 1}, "game": enum(*GAMES),
               "num_players": {"type": "integer", "minimum": 2, "maximum": 8},
               "options": {"type": "object"}, "state": {"type": "object"},
               "events": arr(raw_event), "history": arr(arr(INT, 2, 2))},
              optional=("events", "history"), extra=True)
    top["allOf"] = by_game(defs)["allOf"]
    top["$defs"] = defs
    return top


# ------------------------------------------------------------------ actions
def action_kinds():
    """Each game's action kinds, from the game's own words module (``words.KINDS``)."""
    return {g: tuple(get_spec(g).words.KINDS) for g in GAMES}


def action_schema():
    kinds = sorted({k for v in action_kinds().values() for k in v})
    return obj({
        "id": NAT, "kind": enum(*kinds), "label": {"type": "string", "minLength": 1},
        "text": {"type": "string", "minLength": 1},
        "cards": CARDS, "cards_text": arr(CARD_TEXT),
        "meld": NAT, "end": enum("low", "high"), "suit": enum("S", "H", "D", "C"),
        "positions": arr(NAT, 1, 3), "slot": NAT, "position": NAT,
        "combination": COMBINATION, "x_values": arr(INT), "direction": enum(1, -1),
        "announce": BOOL,
    }, optional=("cards", "cards_text", "meld", "end", "suit", "positions", "slot", "position",
                 "combination", "x_values", "direction", "announce"))


# ------------------------------------------------------------------ server protocol
def protocol_schema():
    seat_info = obj({"seat": PLAYER, "kind": enum("human", "bot"), "bot": nullable(STR),
                     "name": STR, "connected": BOOL})
    ref = lambda n: {"$ref": f"{n}.json"}   # noqa: E731
    server = {
        # practice: the table's seed was chosen by its creator; hotseat: its creator holds
        # every human seat's token (both shown to every seat)
        "hello": obj({"type": {"const": "hello"}, "table": STR, "game": enum(*GAMES), "name": STR,
                      "seat": nullable(PLAYER), "num_players": NAT, "seats": arr(seat_info),
                      "practice": BOOL, "hotseat": BOOL, "fixed_hand": BOOL}),
        "update": obj({
            "type": {"const": "update"}, "table": STR, "version": NAT, "seat": nullable(PLAYER),
            "observation": {"type": "object"},   # observation.json (by game)
            "events": arr({"type": "object"}),   # event.json, each as this seat may see it, with text
            "first_event": NAT, "actions": arr(ref("action")), "to_move": INT,
            "prompt": STR,                       # State.prompt: what the seat decides now, the rule
            "prompt_rules": arr(STR),            # the rule ids the prompt cites, in order
            "facts": {"type": "object"},         # State.facts: the game's table facts ({} for a spectator)
            # why each held card no legal move uses cannot be played (the seat to move; else {})
            "card_reasons": {"type": "object", "additionalProperties": STR},
            "terminal": BOOL, "returns": nullable(arr({"type": "number"})),
            "seats": arr(seat_info)}),
        "error": obj({"type": {"const": "error"}, "code": STR, "reason": STR,
                      "version": nullable(NAT)}, optional=("version",)),
        "hint": obj({"type": {"const": "hint"}, "version": NAT, "action": ref("action")}),
        "pong": obj({"type": {"const": "pong"}}),
        "seats": obj({"type": {"const": "seats"}, "seats": arr(seat_info)}),
    }
    client = {
        # the first message: a seat's token (none: a spectator), never in the URL
        "join": obj({"type": {"const": "join"}, "token": STR}, optional=("token",)),
        "action": obj({"type": {"const": "action"}, "action": NAT, "version": NAT}),
        "laydown": obj({"type": {"const": "laydown"}, "melds": arr(CARDS, 1, 3),
                        "version": NAT}),
        "hint": obj({"type": {"const": "hint"}, "version": NAT}),
        "sync": obj({"type": {"const": "sync"}, "since": NAT}, optional=("since",)),
        "ping": obj({"type": {"const": "ping"}}),
    }
    return {"$defs": {"server": {"oneOf": list(server.values())},
                      "client": {"oneOf": list(client.values())},
                      **{"server_" + k: v for k, v in server.items()},
                      **{"client_" + k: v for k, v in client.items()}},
            "anyOf": [{"$ref": "#/$defs/server"}, {"$ref": "#/$defs/client"}]}


def build():
    """``{file name: schema dict}`` for every shipped schema."""
    obs = by_game(observation_defs())
    obs["$defs"] = observation_defs()
    # an event carries no game key: event.json is picked per game by its $defs
    evs = {"$defs": event_defs(), "description":
           "one event dict; validate against #/$defs/<game id> (events carry no game key)"}
    out = {
        "state.json": (state_schema(), "State.to_json(): the full state, hidden cards and "
                       "PRNG included (never send it to a player)"),
        "observation.json": (obs, "State.observation(player): what one seat may see"),
        "event.json": (evs, "one element of State.events or State.events_for(player)"),
        "action.json": (action_schema(), "one legal action as described by "
                        "krazy_core.protocol.describe_actions"),
        "protocol.json": (protocol_schema(), "the WebSocket messages of krazy serve"),
    }
    files = {}
    for name, (schema, title) in out.items():
        s = {"$schema": DRAFT, "$id": BASE + name, "title": title}
        s.update(schema)
        files[name] = s
    return files


def dumps(schema) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, schema in build().items():
        with open(os.path.join(here, name), "w", encoding="utf-8") as f:
            f.write(dumps(schema))
        print("wrote", name)


if __name__ == "__main__":
    main()
