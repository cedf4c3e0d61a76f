"""The shared building blocks of krazy_core's JSON Schemas (draft 2020-12): the types every
game's schema parts (``games/<game>/schema.py``) and ``_generate`` compose."""

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://krazy-core.invalid/schemas/"   # ids only: nothing is fetched

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

COMMON_OBS = {
    "game": None, "player": PLAYER, "num_players": {"type": "integer", "minimum": 2, "maximum": 8},
    "legal_actions": arr(NAT), "terminal": BOOL, "current_player": INT,
}

# a combination of cards (KrassKariert's tricks; an action's "combination" field)
COMBINATION = obj({"index": NAT, "type": enum("solo", "2-straight", "pair", "3-straight", "triple"),
                   "value": INT})

HIDDEN_CARD = nullable(CARD)   # null when the viewer may not see it


def ev(**props):
    """One event's keys: ``(props, optional)``; a key ending in ``_opt`` may be missing."""
    optional = tuple(k for k in props if k.endswith("_opt"))
    clean = {k[:-4] if k.endswith("_opt") else k: v for k, v in props.items()}
    return clean, tuple(k[:-4] for k in optional)

