"""Krazy Kings (``krazy-kings``), rules KK-1 .. KK-20 (``rules.md`` beside this file; ``krazy
rules krazy-kings``): the package's public face.

Files of the package (the same in every game; docs/guide/contributors.md, "Adding a game"):

- ``__init__.py`` (this file): ``SPEC``, the State class, ``new_state`` and the loader, the
  public helpers and the action ids as named constants;
- ``core.pxd``: the layout contract (the struct ``KKState``, enums, constants, the cdef
  functions ``state.pyx`` cimports); ``core.pyx``: the rules and the GameOps table, one C unit;
- ``state.pyx``: ``KrazyKingsState`` (observation, tensor, JSON, event texts, action names);
- ``notation.py``: the action ids and the reading of a typed move; ``view.py``: the terminal
  table; ``rules.md``: the rules text; ``core.pyi``/``state.pyi``: stubs.

Action ids (``NUM_ACTIONS = 109``): ``DISCARD + i`` (0..51) discards the card of index
``i = suit*13 + rank-1``; ``DISCARD_JOKER`` (52) a Joker; ``ANNOUNCE + a`` (53..105) the
discard ``a`` calling "last card" (KK-19); ``ROLL`` (106) rolls by choice (KK-8);
``CLOCKWISE``/``COUNTER_CLOCKWISE`` (107, 108) the roll-off winner's direction (KK-16).
``discard_action(code, announce)`` gives the discard of a card code.
"""
from krazy_core._state import state_from_bytes as _state_from_bytes
from krazy_core.errors import ConfigError
from krazy_core.games.krazy_kings.core import _fast_playout  # noqa: F401  (tests)
from krazy_core.games.krazy_kings.notation import (
    ANNOUNCE, CLOCKWISE, COUNTER_CLOCKWISE, DISCARD, DISCARD_JOKER, NUM_ACTIONS, ROLL, card_index,
    discard_action)
from krazy_core.games.krazy_kings.state import (  # noqa: F401  (_cards_of ..: tests)
    DOUBLES, DRAW_REASONS, EVENT_NAMES, PHASE_NAMES, TENSOR, TENSOR_LAYOUT, KrazyKingsState,
    _action_card, _cards_of, _mask_cards, new_state, state_from_dict)
from krazy_core.games.krazy_kings import words as _words
from krazy_core.games.krazy_kings import schema as _schema
from krazy_core.spec import GameSpec, Option, tensor_bounds

__all__ = ["SPEC", "KrazyKingsState", "new_state", "state_from_dict", "EVENT_NAMES", "PHASE_NAMES",
           "DRAW_REASONS", "DOUBLES", "TENSOR", "TENSOR_LAYOUT", "DISCARD", "DISCARD_JOKER", "ANNOUNCE",
           "ROLL", "CLOCKWISE", "COUNTER_CLOCKWISE", "NUM_ACTIONS", "card_index", "discard_action"]


def _check_options(num_players, options):
    """KK-3: the dealer is a seat of this table."""
    if options.dealer >= num_players:
        raise ConfigError(f"option 'dealer' must be a seat 0..{num_players - 1} at a table of "
                          f"{num_players}, got {options.dealer} (KK-3)")



def _tensor_bounds(game):
    """Every entry is a flag, a one-hot or a fraction of at most 1; the direction is -1/+1."""
    return tensor_bounds(TENSOR_LAYOUT, direction=(-1.0, None))


SPEC = GameSpec(
    game_id="krazy-kings",
    name="Krazy Kings",
    min_players=2,
    max_players=5,
    default_players=4,
    options=(
        Option("free_reroll", True, bool, "KK-6", "roll once more when a roll matches nothing"),
        Option("may_roll_when_able", False, bool, "KK-8", "a Round Two player who can play may roll instead"),
        Option("doubles_reverse", "all", str, "KK-14", "which rolls' doubles reverse play", choices=DOUBLES),
        Option("jokers", "rolloff", str, "KK-16", "two Jokers starting roll-offs, or a deck without Jokers",
               choices=("rolloff", "none")),
        Option("last_card_call", True, bool, "KK-19", "a play leaving one card must announce it"),
        Option("max_turns", 500, int, "KK-20", "turns before the fewest cards share the win", lo=1, hi=100000),
        Option("dealer", 0, int, "KK-3", "the seat that deals; the seat to its left starts", lo=0, hi=4, seat=True),
    ),
    num_distinct_actions=NUM_ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    state_from_bytes=_state_from_bytes,
    words=_words,
    schema=_schema,
    env_id="krazy_core/KrazyKings-v0",
    max_game_length=lambda game: game.options.max_turns * 16,
    tensor_shape=lambda n: (TENSOR,),
    tensor_layout=lambda n: TENSOR_LAYOUT,
    tensor_bounds=_tensor_bounds,
    rules_file="games/krazy_kings/rules.md",
    summary="Shedding game with two dice: match the roll, challenge with Kings, roll off with Jokers.",
    check_options=_check_options,
    # the learned policy prior (krazy_core/models/krazy-kings.policy.npz): at
    # ismcts:2000 against the HeuristicBot on 2300 duplicate deals (4600 games) +2.4 points
    # [+0.7, +4.0] over the plain search (57.2% against 54.8%); against random +0.1 (1000
    # deals), in 4 players +2.5 (300 games); benches/README.md, "A learned policy prior".
    # prior_from="heuristic" is the search as it was.  Belief weighting (beliefs=1024 worlds,
    # opponents="belief": the opponents the pool finds heuristic-like play the heuristic in
    # the tree) at ismcts:2000 on 1000 duplicate deals against the HeuristicBot: +3.1
    # points [+0.6, +5.6]; 4 players +1.4 [-4.3, +7.0] (400 games); against random, see
    # benches/README.md, "Reading the opponents".
    search_defaults={"prior_from": "model", "beliefs": 1024, "opponents": "belief"},
)
