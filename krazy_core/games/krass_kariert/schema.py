"""KrassKariert's parts of the JSON Schemas (``krazy_core.protocol.schemas`` builds the shipped files
from every game's): the observation's own keys, each event's keys, the full state."""

from krazy_core.protocol.schemas._parts import (
    BOOL, CARD, CARD_TEXT, CARDS, COMBINATION, HIDDEN_CARD, INT, NAT, PER_SEAT_CARDS, PER_SEAT_INT,
    PLAYER, RNG, SEAT_OR_NONE, arr, enum, ev, nullable, obj)

PHASES = ("play", "insert", "over")


def observation():
    trick = obj({"player": PLAYER, "kind": enum("combination", "stop", "draw", "reserve"),
                 "cards": CARDS, "cards_text": arr(CARD_TEXT),
                 "combination": nullable(COMBINATION), "x_values": arr(INT)},
                optional=("x_values",))
    return {
        "phase": enum(*PHASES), "hand": CARDS, "hand_text": arr(CARD_TEXT),
        "playable": arr(arr(NAT, 2, 2)), "hand_sizes": PER_SEAT_INT,
        "reserves": arr(arr(nullable(CARD), 2, 2), 3, 5), "chips": PER_SEAT_INT,
        "known_cards": PER_SEAT_CARDS, "leader": PLAYER, "trick": arr(trick),
        "best": nullable(obj({"player": PLAYER, "stop": BOOL, "combination": nullable(COMBINATION)})),
        "draws_in_trick": NAT, "pending_draws": NAT, "drawn_card": nullable(CARD),
        "played": CARDS, "pile_size": NAT, "hand_no": NAT, "trick_no": NAT, "dealer": PLAYER,
        "chips_start": NAT, "loser": SEAT_OR_NONE,
    }


def events():
    pos = nullable(NAT)   # a hand position: null to everyone but the owner (KA-2)
    return {
        "hand_start": ev(hand=NAT, dealer=PLAYER),
        "deal": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, position=pos),
        "reserve_dealt": ev(card=CARD, card_text=CARD_TEXT, slot=NAT),
        "play": ev(combination=nullable(COMBINATION), cards=CARDS, cards_text=arr(CARD_TEXT),
                   x_values=arr(INT), position=pos),
        "stop": ev(card=CARD, position=pos), "draw_card": ev(card=CARD, position=pos),
        "take_reserve": ev(card=CARD, card_text=CARD_TEXT, slot=NAT, position=pos),
        "trick_end": ev(draws=NAT, combination=nullable(COMBINATION), stop=BOOL),
        "drawn": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, position=pos),
        "out": ev(hand=NAT),
        "hand_end": ev(reason=enum("only holder of cards (KA-14a)", "could not act (KA-14b)"),
                       hand=NAT),
        "chip": ev(chips=NAT), "game_over": ev(), "trick_start": ev(trick=NAT, hand=NAT),
    }


def state():
    trick = obj({"player": PLAYER, "kind": enum("combination", "stop", "draw", "reserve"),
                 "combination": INT, "cards": CARDS})
    return obj({
        "rng": RNG, "phase": enum(*PHASES), "current_player": INT, "loser": SEAT_OR_NONE,
        "dealer": PLAYER, "leader": PLAYER, "best_player": SEAT_OR_NONE,
        "second_player": SEAT_OR_NONE, "best_combination": INT, "stop_played": BOOL,
        "draws_in_trick": NAT, "pending": NAT, "last_out": SEAT_OR_NONE,
        "prev_loser": SEAT_OR_NONE, "hands": PER_SEAT_CARDS,
        "reserves": arr(arr(nullable(CARD), 2, 2), 3, 5), "chips": PER_SEAT_INT,
        "known": arr(arr(NAT), 2, 8), "pile": CARDS, "played": CARDS, "trick": arr(trick),
        "hand_no": NAT, "trick_no": NAT, "turn": NAT})
