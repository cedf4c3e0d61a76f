"""Writes the JSON Schemas (draft 2020-12) of krazy_core's payloads into this folder.

Run ``python -m krazy_core.schemas._generate`` after changing a payload; a test checks the
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

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://krazy-core.invalid/schemas/"   # ids only: nothing is fetched
GAMES = ("krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert")

INT = {"type": "integer"}
NAT = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}
STR = {"type": "string"}
CARD = {"type": "integer", "minimum": 0, "maximum": 255}
PLAYER = {"type": "integer", "minimum": 0, "maximum": 7}
SEAT_OR_NONE = {"type": "integer", "minimum": -1, "maximum": 7}   # -1: nobody
DIE = {"type": "integer", "minimum": 0, "maximum": 6}              # 0: not rolled


def nullable(s):
    return {"anyOf": [s, {"type": "null"}]}


def arr(items, lo=None, hi=None):
    d = {"type": "array", "items": items}
    if lo is not None:
        d["minItems"] = lo
    if hi is not None:
        d["maxItems"] = hi
    return d


def enum(*values):
    return {"enum": list(values)}


def obj(props, optional=(), extra=False):
    """An object with exactly these keys (``optional`` ones may be missing)."""
    d = {"type": "object", "properties": props,
         "required": [k for k in props if k not in optional]}
    if not extra:
        d["additionalProperties"] = False
    return d


CARDS = arr(CARD)
CARD_TEXT = {"type": "string", "minLength": 1, "maxLength": 8}
PER_SEAT_INT = arr(INT, 2, 8)
PER_SEAT_CARDS = arr(CARDS, 2, 8)
DICE = arr(DIE, 2, 2)
RNG = arr({"type": "integer", "minimum": 0, "maximum": 2 ** 64 - 1}, 4, 4)

# ------------------------------------------------------------------ observations
KK_PHASES = ("over", "round_one", "round_two", "round_two_rolled", "challenged", "open_roll",
             "direction")
KR_PHASES = ("over", "draw", "discard")
CR_PHASES = ("over", "first_up_card", "take_or_decline", "buy_or_pass", "play", "going_down")
KA_PHASES = ("play", "insert", "over")

COMMON_OBS = {
    "game": None, "player": PLAYER, "num_players": {"type": "integer", "minimum": 2, "maximum": 8},
    "legal_actions": arr(NAT), "terminal": BOOL, "current_player": INT,
}

KA_COMBO = obj({"index": NAT, "type": enum("solo", "2-straight", "pair", "3-straight", "triple"),
                "value": INT})
CR_MELD = obj({"kind": enum("book", "run"), "rank": nullable(INT), "suit": nullable(INT),
               "lo": nullable(INT), "cards": CARDS, "id": NAT, "owner": PLAYER})


def observation_defs():
    kk = {
        "hand": CARDS, "hand_text": arr(CARD_TEXT), "hand_sizes": PER_SEAT_INT,
        "top_card": nullable(CARD), "top_card_text": nullable(CARD_TEXT), "discard_pile": CARDS,
        "stock_size": NAT, "phase": enum(*KK_PHASES), "roll": nullable(DICE), "open_roll": nullable(DICE),
        "challenger": nullable(PLAYER), "round_two": arr(BOOL, 2, 8),
        "inference_cards": PER_SEAT_CARDS, "inference_count": PER_SEAT_INT, "stock_from": CARDS,
        "direction": enum(1, -1), "dealer": PLAYER, "turn": NAT, "max_turns": NAT,
        "winner": SEAT_OR_NONE,
    }
    kr = {
        "round": NAT, "final_round": NAT, "wild_rank": INT, "cards_dealt": NAT, "dealer": PLAYER,
        "hand": CARDS, "hand_text": arr(CARD_TEXT), "hand_sizes": PER_SEAT_INT,
        "known_cards": PER_SEAT_CARDS, "laid_down": arr(nullable(CARDS), 2, 8),
        "round_points": arr(nullable(INT), 2, 8), "top_card": nullable(CARD),
        "top_card_text": nullable(CARD_TEXT), "discard_pile": CARDS, "stock_size": NAT,
        "phase": enum(*KR_PHASES), "went_out": nullable(PLAYER), "last_turns_left": NAT,
        "scores": PER_SEAT_INT, "totals": PER_SEAT_INT,   # totals: the same list as scores
        "last_round": nullable(obj({"round": NAT, "wild_rank": INT, "went_out": nullable(PLAYER),
                                    "hands": PER_SEAT_CARDS, "points": PER_SEAT_INT})),
        "turn": NAT, "max_turns": NAT,
    }
    cr = {
        "round": NAT, "contract": obj({"books": NAT, "runs": NAT}), "cards_dealt": NAT,
        "dealer": PLAYER, "hand": CARDS, "hand_text": arr(CARD_TEXT), "hand_sizes": PER_SEAT_INT,
        "melds": arr(CR_MELD), "up_card": nullable(CARD), "up_card_text": nullable(CARD_TEXT),
        "top_card": nullable(CARD), "top_card_text": nullable(CARD_TEXT),   # the pile's top, live or not
        "discard_pile": CARDS, "stock_size": NAT, "turn_player": nullable(PLAYER),
        "phase": enum(*CR_PHASES), "building_meld": nullable(NAT), "down": arr(BOOL, 2, 8),
        "buys": PER_SEAT_INT,
        "scores": arr({"type": "array", "prefixItems": [NAT, PER_SEAT_INT], "items": False,
                       "minItems": 2}),
        "totals": PER_SEAT_INT, "round_results": arr(INT), "turn": NAT, "max_turns": NAT,
    }
    ka_trick = obj({"player": PLAYER, "kind": enum("combination", "stop", "draw", "reserve"),
                    "cards": CARDS, "cards_text": arr(CARD_TEXT),
                    "combination": nullable(KA_COMBO), "x_values": arr(INT)},
                   optional=("x_values",))
    ka = {
        "phase": enum(*KA_PHASES), "hand": CARDS, "hand_text": arr(CARD_TEXT),
        "playable": arr(arr(NAT, 2, 2)), "hand_sizes": PER_SEAT_INT,
        "reserves": arr(arr(nullable(CARD), 2, 2), 3, 5), "chips": PER_SEAT_INT,
        "known_cards": PER_SEAT_CARDS, "leader": PLAYER, "trick": arr(ka_trick),
        "best": nullable(obj({"player": PLAYER, "stop": BOOL, "combination": nullable(KA_COMBO)})),
        "draws_in_trick": NAT, "pending_draws": NAT, "drawn_card": nullable(CARD),
        "played": CARDS, "pile_size": NAT, "hand_no": NAT, "trick_no": NAT, "dealer": PLAYER,
        "chips_start": NAT, "loser": SEAT_OR_NONE,
    }
    out = {}
    for gid, props in (("krazy-kings", kk), ("kings-rummy", kr), ("contract-rummy", cr),
                       ("krass-kariert", ka)):
        p = dict(COMMON_OBS)
        p["game"] = {"const": gid}
        p.update(props)
        out[gid] = obj(p, optional=("legal_actions",))   # only in the observation of the seat to move
    return out


def by_game(defs, key="game"):
    """``allOf`` of if/then: the definition is picked by the ``game`` key."""
    return {"type": "object", "required": [key],
            "properties": {key: enum(*GAMES)},
            "allOf": [{"if": {"properties": {key: {"const": g}}},
                       "then": {"$ref": f"#/$defs/{g}"}} for g in defs]}


# ------------------------------------------------------------------ events
HIDDEN_CARD = nullable(CARD)   # null when the viewer may not see it


def ev(**props):
    optional = tuple(k for k in props if k.endswith("_opt"))
    clean = {k[:-4] if k.endswith("_opt") else k: v for k, v in props.items()}
    return clean, tuple(k[:-4] for k in optional)


def event_defs():
    kk_draw_reasons = ("failed roll", "challenge met", "challenge failed", "open roll",
                       "roll-off", "caught", "roll-off turn")
    kk = {
        "shuffle": ev(cards=NAT), "deal_roll": ev(dice=DICE),
        "deal": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT), "turn": ev(turn=NAT),
        "roll": ev(dice=DICE), "play": ev(card=CARD, card_text=CARD_TEXT, announced=BOOL),
        "draw": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, reason=enum(*kk_draw_reasons)),
        "pass": ev(), "challenge": ev(dice=DICE),
        "challenge_met": ev(card=CARD, card_text=CARD_TEXT, challenger=PLAYER),
        "challenge_failed": ev(draws=NAT, challenger=PLAYER), "open_roll": ev(dice=DICE),
        "reverse": ev(direction=enum(1, -1)), "rolloff_die": ev(die=DIE, round=NAT),
        "rolloff_win": ev(die=DIE, joker_player=PLAYER), "direction": ev(direction=enum(1, -1)),
        "stock_rebuilt": ev(cards=NAT),
        "round_one": ev(reason=enum("stock rebuilt (KK-18)", "roll-off (KK-16)")),
        "last_card": ev(), "caught": ev(dice=DICE), "win": ev(), "turn_limit": ev(turns=NAT),
        "king_only": ev(),
    }
    kr = {
        "round": ev(round=NAT, cards=NAT, wild_rank=INT), "shuffle": ev(cards=NAT),
        "deal": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT),
        "up_card": ev(card=CARD, card_text=CARD_TEXT), "turn": ev(turn=NAT, last_turn=BOOL),
        "draw": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT),
        "take_discard": ev(card=CARD, card_text=CARD_TEXT),
        "discard": ev(card=CARD, card_text=CARD_TEXT, going_out=BOOL),
        "go_out": ev(card=CARD, card_text=CARD_TEXT),
        "lay_down": ev(card=CARD, card_text=CARD_TEXT, meld=nullable(NAT)),
        "round_score": ev(points=INT, total=INT), "stock_rebuilt": ev(cards=NAT),
        "turn_limit": ev(turns=NAT, round=NAT), "game_over": ev(round=NAT),
    }
    card = dict(card=CARD, card_text=CARD_TEXT)
    cr = {
        "round_start": ev(round=NAT, cards_dealt=NAT), "shuffle": ev(cards=NAT),
        "deal": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT), "up_card": ev(**card),
        "turn": ev(turn=NAT), "take": ev(first_up_card=BOOL, **card),
        "decline": ev(first_up_card=BOOL, **card), "buy": ev(**card), "pass": ev(**card),
        "draw": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, reason=enum("draw", "penalty")),
        "go_down": ev(round=NAT), "run_start": ev(meld=NAT, suit=NAT, lo=NAT),
        "lay": ev(meld=NAT, **card), "meld": ev(meld=NAT, cards=NAT), "down": ev(round=NAT),
        "lay_off": ev(meld=NAT, meld_kind=enum("book", "run"), end=enum(None, "low", "high"),
                      **card),
        "swap": ev(meld=NAT, wild=CARD, wild_text=CARD_TEXT, **card), "discard": ev(**card),
        "keep": ev(), "go_out": ev(round=NAT), "stock_rebuilt": ev(cards=NAT),
        "turn_limit": ev(turn=NAT),
        "round_end": ev(round=NAT, reason={"anyOf": [
            enum("went out", "turn limit (CR-17)", "no cards left (CR-14)"), INT]}),
        "score": ev(points=INT, total=INT), "game_over": ev(),
    }
    pos = nullable(NAT)   # a hand position: null to everyone but the owner (KA-2)
    ka = {
        "hand_start": ev(hand=NAT, dealer=PLAYER),
        "deal": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, position=pos),
        "reserve_dealt": ev(card=CARD, card_text=CARD_TEXT, slot=NAT),
        "play": ev(combination=nullable(KA_COMBO), cards=CARDS, cards_text=arr(CARD_TEXT),
                   x_values=arr(INT), position=pos),
        "stop": ev(card=CARD, position=pos), "draw_card": ev(card=CARD, position=pos),
        "take_reserve": ev(card=CARD, card_text=CARD_TEXT, slot=NAT, position=pos),
        "trick_end": ev(draws=NAT, combination=nullable(KA_COMBO), stop=BOOL),
        "drawn": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, position=pos),
        "out": ev(hand=NAT),
        "hand_end": ev(reason=enum("only holder of cards (KA-14a)", "could not act (KA-14b)"),
                       hand=NAT),
        "chip": ev(chips=NAT), "game_over": ev(), "trick_start": ev(trick=NAT, hand=NAT),
    }
    out = {}
    for gid, table in (("krazy-kings", kk), ("kings-rummy", kr), ("contract-rummy", cr),
                       ("krass-kariert", ka)):
        alts = []
        for name, (props, optional) in table.items():
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
    kk = obj({
        "rng": RNG, "hands": PER_SEAT_CARDS, "stock": CARDS, "discard": CARDS, "dealer": PLAYER,
        "current_player": INT, "phase": enum(*KK_PHASES), "direction": enum(1, -1), "roll": DICE,
        "open_roll": DICE, "challenger": SEAT_OR_NONE, "challenge_roll": DICE,
        "rolloff_rolls": NAT, "pending_reverse": INT, "turns": NAT, "winner": SEAT_OR_NONE,
        "turn_limit": BOOL, "round_two": arr(BOOL, 2, 8), "inference_cards": PER_SEAT_CARDS,
        "inference_count": PER_SEAT_INT, "stock_from": CARDS})
    kr = obj({
        "rng": RNG, "round": NAT, "dealer": PLAYER, "hands": PER_SEAT_CARDS,
        "known": arr(arr(NAT), 2, 8), "stock": CARDS, "discard": CARDS, "current_player": INT,
        "phase": enum(*KR_PHASES), "out_player": SEAT_OR_NONE, "last_left": NAT, "turns": NAT,
        "turn_limits": NAT, "total_turns": NAT, "scores": PER_SEAT_INT, "round_points": PER_SEAT_INT,
        "last_round": INT, "last_out": SEAT_OR_NONE, "last_points": PER_SEAT_INT,
        "last_hands": PER_SEAT_CARDS})
    cr_meld = nullable(obj({"kind": enum("book", "run"), "rank": nullable(INT),
                            "suit": nullable(INT), "lo": nullable(INT), "cards": CARDS}))
    cr = obj({
        "rng": RNG, "round": NAT, "dealer": PLAYER, "phase": enum(*CR_PHASES),
        "current_player": INT, "turn_player": INT, "up_live": BOOL, "discarder": INT,
        "turns": NAT, "total_turns": NAT, "limit_rounds": NAT,
        "building": {"type": "array", "prefixItems": [INT, BOOL, INT], "items": False,
                     "minItems": 3},
        "hands": PER_SEAT_CARDS, "known": PER_SEAT_CARDS, "stock": CARDS, "discard": CARDS,
        "melds": arr(cr_meld), "down": arr(BOOL, 2, 8), "buys": PER_SEAT_INT,
        "scores": arr(PER_SEAT_INT), "round_results": arr(INT)})
    ka_trick = obj({"player": PLAYER, "kind": enum("combination", "stop", "draw", "reserve"),
                    "combination": INT, "cards": CARDS})
    ka = obj({
        "rng": RNG, "phase": enum(*KA_PHASES), "current_player": INT, "loser": SEAT_OR_NONE,
        "dealer": PLAYER, "leader": PLAYER, "best_player": SEAT_OR_NONE,
        "second_player": SEAT_OR_NONE, "best_combination": INT, "stop_played": BOOL,
        "draws_in_trick": NAT, "pending": NAT, "last_out": SEAT_OR_NONE,
        "prev_loser": SEAT_OR_NONE, "hands": PER_SEAT_CARDS,
        "reserves": arr(arr(nullable(CARD), 2, 2), 3, 5), "chips": PER_SEAT_INT,
        "known": arr(arr(NAT), 2, 8), "pile": CARDS, "played": CARDS, "trick": arr(ka_trick),
        "hand_no": NAT, "trick_no": NAT, "turn": NAT})
    return {"krazy-kings": kk, "kings-rummy": kr, "contract-rummy": cr, "krass-kariert": ka}


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
    import krazy_core
    from krazy_core.game import get_spec
    return {g: tuple(get_spec(g).words.KINDS) for g in krazy_core.available_games()}


def action_schema():
    kinds = sorted({k for v in action_kinds().values() for k in v})
    return obj({
        "id": NAT, "kind": enum(*kinds), "label": {"type": "string", "minLength": 1},
        "text": {"type": "string", "minLength": 1},
        "cards": CARDS, "cards_text": arr(CARD_TEXT),
        "meld": NAT, "end": enum("low", "high"), "suit": enum("S", "H", "D", "C"),
        "positions": arr(NAT, 1, 3), "slot": NAT, "position": NAT,
        "combination": KA_COMBO, "x_values": arr(INT), "direction": enum(1, -1),
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
                      "practice": BOOL, "hotseat": BOOL}),
        "update": obj({
            "type": {"const": "update"}, "table": STR, "version": NAT, "seat": nullable(PLAYER),
            "observation": {"type": "object"},   # observation.json (by game)
            "events": arr({"type": "object"}),   # event.json, each as this seat may see it, with text
            "first_event": NAT, "actions": arr(ref("action")), "to_move": INT,
            "prompt": STR,                       # State.prompt: what the seat decides now, the rule
            "facts": {"type": "object"},         # State.facts: the game's table facts ({} for a spectator)
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
