"""KrassKariert (``krass-kariert``), rules KA-1 .. KA-15 (``rules.md`` beside this file;
``krazy rules krass-kariert``): the package's public face.

Files of the package (the same in every game; README.md, "Adding a game"):

- ``__init__.py`` (this file): ``SPEC``, the State class, ``new_state`` and the loader, the
  combination helpers and the action ids as named constants;
- ``core.pxd``: the layout contract (the struct ``ka_state``, enums, event kinds, the inline
  helpers, the cdef functions ``state.pyx`` cimports); ``core.pyx``: the rules, the
  heuristic, the validator, the tensor writer and the GameOps table, one C unit, with the
  combination helpers (``combination``, ``beats``, ``window_combinations``, ...) and
  ``simulate_random``;
- ``state.pyx``: ``KrassKariertState`` (observation, tensor, JSON, event texts, action
  names), the loaders;
- ``notation.py``: the short forms a player types (and the action ranges they are read
  into); ``view.py``: the terminal table; ``rules.md``: the rules text;
  ``core.pyi``/``state.pyi``: stubs.

Action ids (``NUM_ACTIONS = 1116``, a hand holds at most ``MAX_HAND = 18`` cards):
``A_PLAY + start*57 + c`` (0..1025) plays the cards at ``start ..`` as combination ``c``
(0..56, ``NUM_COMBINATIONS``; KA-5..KA-8); ``A_STOP + p`` (1026..1043) the Stop card at
position ``p`` (KA-11); ``A_DRAW + p`` (1044..1061) the Draw card at ``p`` (KA-12);
``A_RESERVE + slot*18 + p`` (1062..1097) takes reserve card ``slot`` into position ``p``
(KA-9); ``A_INSERT + p`` (1098..1115) inserts a drawn card at ``p`` (KA-12).
"""
from krazy_core._state import state_from_bytes as _state_from_bytes
from krazy_core.games.krass_kariert.core import (  # noqa: F401
    COMBINATION_TYPES, beats, chips_for, combination, combination_index, combination_of_index,
    simulate_random, window_combinations, _probe_actions)
from krazy_core.games.krass_kariert.state import (  # noqa: F401
    A_DRAW, A_INSERT, A_PLAY, A_RESERVE, A_STOP, EVENT_NAMES, MAX_HAND, NUM_ACTIONS, NUM_COMBINATIONS,
    PHASE_NAMES, TENSOR_LAYOUT, TENSOR_SIZE, TRICK_KINDS, KrassKariertState, check_options, new_state,
    state_from_dict, _action_text)
from krazy_core.games.krass_kariert import words as _words
from krazy_core.games.krass_kariert import schema as _schema
from krazy_core.spec import GameSpec, Option, tensor_bounds

__all__ = ["SPEC", "KrassKariertState", "new_state", "state_from_dict", "check_options", "simulate_random",
           "chips_for", "combination", "combination_index", "combination_of_index", "window_combinations",
           "beats", "COMBINATION_TYPES", "EVENT_NAMES", "PHASE_NAMES", "TRICK_KINDS", "TENSOR_LAYOUT",
           "TENSOR_SIZE", "NUM_ACTIONS", "NUM_COMBINATIONS", "MAX_HAND", "A_PLAY", "A_STOP", "A_DRAW",
           "A_RESERVE", "A_INSERT"]



def _tensor_bounds(game):
    """Every entry is a flag, a one-hot or a fraction of at most 1 (chips only go down, KA-14;
    at most four copies of a kind, KA-1; at most 6 cards to insert, KA-12)."""
    return tensor_bounds(TENSOR_LAYOUT)


SPEC = GameSpec(
    game_id="krass-kariert",
    name="KrassKariert",
    min_players=3,
    max_players=5,
    default_players=4,
    options=(
        Option("two_straight", True, bool, "KA-6", "2-straights are combinations (between solo and pair)"),
        Option("chips", 0, int, "KA-2", "chips each player starts with; 0 = 3 (2 with 5 players)", lo=0, hi=9),
        Option("dealer", 0, int, "KA-4", "the seat that deals the first hand; the seat to its left leads",
               lo=0, hi=4, seat=True),
    ),
    num_distinct_actions=NUM_ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    state_from_bytes=_state_from_bytes,
    words=_words,
    schema=_schema,
    env_id="krazy_core/KrassKariert-v0",
    round_end_events=('hand_end',),
    fixed_hand=True,
    utility_sum=lambda n: float(n - 1),      # KA-15: one loser, everyone else wins
    max_game_length=lambda game: 20000,
    tensor_shape=lambda n: (TENSOR_SIZE,),
    tensor_layout=lambda n: TENSOR_LAYOUT,
    tensor_bounds=_tensor_bounds,
    rules_file="games/krass_kariert/rules.md",
    check_options=check_options,
    summary="Climbing game with fixed-order hands: beat with 1-3 adjacent cards, keep your chips.",
)
