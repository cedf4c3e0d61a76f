"""Crazy Rummy's parts of the JSON Schemas (``krazy_core.protocol.schemas`` builds the shipped files
from every game's): the observation's own keys, each event's keys, the full state."""

from krazy_core.protocol.schemas._parts import (
    BOOL, CARD, CARD_TEXT, CARDS, HIDDEN_CARD, INT, NAT, PER_SEAT_CARDS, PER_SEAT_INT, PLAYER, RNG,
    arr, enum, ev, nullable, obj)

PHASES = ("over", "first_up_card", "take_or_decline", "buy_or_pass", "play", "going_down")
MELD = obj({"kind": enum("book", "run"), "rank": nullable(INT), "suit": nullable(INT),
            "lo": nullable(INT), "cards": CARDS, "id": NAT, "owner": PLAYER})


def observation():
    return {
        "round": NAT, "contract": obj({"books": NAT, "runs": NAT}), "cards_dealt": NAT,
        "dealer": PLAYER, "hand": CARDS, "hand_text": arr(CARD_TEXT), "hand_sizes": PER_SEAT_INT,
        "melds": arr(MELD), "up_card": nullable(CARD), "up_card_text": nullable(CARD_TEXT),
        "top_card": nullable(CARD), "top_card_text": nullable(CARD_TEXT),   # the pile's top, live or not
        "discard_pile": CARDS, "stock_size": NAT, "turn_player": nullable(PLAYER),
        "phase": enum(*PHASES), "building_meld": nullable(NAT), "down": arr(BOOL, 2, 8),
        "buys": PER_SEAT_INT,
        "scores": arr({"type": "array", "prefixItems": [NAT, PER_SEAT_INT], "items": False,
                       "minItems": 2}),
        "totals": PER_SEAT_INT, "round_results": arr(INT), "turn": NAT, "max_turns": NAT,
    }


def events():
    card = dict(card=CARD, card_text=CARD_TEXT)
    return {
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


def state():
    meld = nullable(obj({"kind": enum("book", "run"), "rank": nullable(INT),
                         "suit": nullable(INT), "lo": nullable(INT), "cards": CARDS}))
    return obj({
        "rng": RNG, "round": NAT, "dealer": PLAYER, "phase": enum(*PHASES),
        "current_player": INT, "turn_player": INT, "up_live": BOOL, "discarder": INT,
        "turns": NAT, "total_turns": NAT, "limit_rounds": NAT,
        "building": {"type": "array", "prefixItems": [INT, BOOL, INT], "items": False,
                     "minItems": 3},
        "hands": PER_SEAT_CARDS, "known": PER_SEAT_CARDS, "stock": CARDS, "discard": CARDS,
        "melds": arr(meld), "down": arr(BOOL, 2, 8), "buys": PER_SEAT_INT,
        "scores": arr(PER_SEAT_INT), "round_results": arr(INT)})
