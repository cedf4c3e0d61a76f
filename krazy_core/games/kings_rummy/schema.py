"""Kings Rummy's parts of the JSON Schemas (``krazy_core.protocol.schemas`` builds the shipped files
from every game's): the observation's own keys, each event's keys, the full state."""

from krazy_core.protocol.schemas._parts import (
    BOOL, CARD, CARD_TEXT, CARDS, HIDDEN_CARD, INT, NAT, PER_SEAT_CARDS, PER_SEAT_INT, PLAYER, RNG,
    SEAT_OR_NONE, arr, enum, ev, nullable, obj)

PHASES = ("over", "draw", "discard")


def observation():
    return {
        "round": NAT, "final_round": NAT, "wild_rank": INT, "cards_dealt": NAT, "dealer": PLAYER,
        "hand": CARDS, "hand_text": arr(CARD_TEXT), "hand_sizes": PER_SEAT_INT,
        "known_cards": PER_SEAT_CARDS, "laid_down": arr(nullable(CARDS), 2, 8),
        "round_points": arr(nullable(INT), 2, 8), "top_card": nullable(CARD),
        "top_card_text": nullable(CARD_TEXT), "discard_pile": CARDS, "stock_size": NAT,
        "phase": enum(*PHASES), "went_out": nullable(PLAYER), "last_turns_left": NAT,
        "scores": PER_SEAT_INT, "totals": PER_SEAT_INT,   # totals: the same list as scores
        "last_round": nullable(obj({"round": NAT, "wild_rank": INT, "went_out": nullable(PLAYER),
                                    "hands": PER_SEAT_CARDS, "points": PER_SEAT_INT})),
        "turn": NAT, "max_turns": NAT,
    }


def events():
    return {
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


def state():
    return obj({
        "rng": RNG, "round": NAT, "dealer": PLAYER, "hands": PER_SEAT_CARDS,
        "known": arr(arr(NAT), 2, 8), "stock": CARDS, "discard": CARDS, "current_player": INT,
        "phase": enum(*PHASES), "out_player": SEAT_OR_NONE, "last_left": NAT, "turns": NAT,
        "turn_limits": NAT, "total_turns": NAT, "scores": PER_SEAT_INT, "round_points": PER_SEAT_INT,
        "last_round": INT, "last_out": SEAT_OR_NONE, "last_points": PER_SEAT_INT,
        "last_hands": PER_SEAT_CARDS})
