"""Krazy Kings' parts of the JSON Schemas (``krazy_core.protocol.schemas`` builds the shipped files
from every game's): the observation's own keys, each event's keys, the full state."""

from krazy_core.protocol.schemas._parts import (
    BOOL, CARD, CARD_TEXT, CARDS, DICE, DIE, HIDDEN_CARD, INT, NAT, PER_SEAT_CARDS, PER_SEAT_INT,
    PLAYER, RNG, SEAT_OR_NONE, arr, enum, ev, nullable, obj)

PHASES = ("over", "round_one", "round_two", "round_two_rolled", "challenged", "open_roll",
          "direction")
DRAW_REASONS = ("failed roll", "challenge met", "challenge failed", "open roll", "roll-off",
                "caught", "roll-off turn")


def observation():
    return {
        "hand": CARDS, "hand_text": arr(CARD_TEXT), "hand_sizes": PER_SEAT_INT,
        "top_card": nullable(CARD), "top_card_text": nullable(CARD_TEXT), "discard_pile": CARDS,
        "stock_size": NAT, "phase": enum(*PHASES), "roll": nullable(DICE), "open_roll": nullable(DICE),
        "challenger": nullable(PLAYER), "round_two": arr(BOOL, 2, 8),
        "inference_cards": PER_SEAT_CARDS, "inference_count": PER_SEAT_INT, "stock_from": CARDS,
        "direction": enum(1, -1), "dealer": PLAYER, "turn": NAT, "max_turns": NAT,
        "winner": SEAT_OR_NONE,
    }


def events():
    return {
        "shuffle": ev(cards=NAT), "deal_roll": ev(dice=DICE),
        "deal": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT), "turn": ev(turn=NAT),
        "roll": ev(dice=DICE), "play": ev(card=CARD, card_text=CARD_TEXT, announced=BOOL),
        "draw": ev(card=HIDDEN_CARD, card_text_opt=CARD_TEXT, reason=enum(*DRAW_REASONS)),
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


def state():
    return obj({
        "rng": RNG, "hands": PER_SEAT_CARDS, "stock": CARDS, "discard": CARDS, "dealer": PLAYER,
        "current_player": INT, "phase": enum(*PHASES), "direction": enum(1, -1), "roll": DICE,
        "open_roll": DICE, "challenger": SEAT_OR_NONE, "challenge_roll": DICE,
        "rolloff_rolls": NAT, "pending_reverse": INT, "turns": NAT, "winner": SEAT_OR_NONE,
        "turn_limit": BOOL, "round_two": arr(BOOL, 2, 8), "inference_cards": PER_SEAT_CARDS,
        "inference_count": PER_SEAT_INT, "stock_from": CARDS,
        "belief_records": arr(arr({"oneOf": [BELIEF_RECORD, DRAW_RECORD]}, 0, 16), 2, 8)})


# one seat's discard with the decision's public context, or how many hidden cards it drew
# (the search's belief weighting reads these; KKState.bel_rec)
BELIEF_RECORD = obj({
    "card": CARD, "phase": enum("round_one", "round_two", "round_two_rolled", "challenged", "open_roll"),
    "roll": DICE, "top_card": nullable(CARD), "hand_size": NAT, "next_size": NAT, "min_other": NAT})
DRAW_RECORD = obj({"drew": {"type": "integer", "minimum": 1, "maximum": 63}})
