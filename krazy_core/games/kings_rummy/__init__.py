"""Kings Rummy (``kings-rummy``), rules KR-1 .. KR-17 (``rules.md`` beside this file; ``krazy
rules kings-rummy``): the package's public face.

Files of the package (the same in every game; docs/guide/contributors.md, "Adding a game"):

- ``__init__.py`` (this file): ``SPEC``, the State class, ``new_state`` and the loader, the
  public helpers and the action ids as named constants;
- ``core.pxd``: the layout contract (the struct ``KRState``, enums, constants, the tables, the
  cdef functions ``state.pyx`` cimports); ``core.pyx``: the rules, the heuristic, the
  GameOps table and ``simulate_random``, one C unit;
- ``state.pyx``: ``KingsRummyState`` (observation, tensor, JSON, event texts, action names);
- ``notation.py``: the action ids and the reading of a typed move; ``view.py``: the terminal
  table; ``rules.md``: the rules text; ``core.pyi``/``state.pyi``: stubs.

Action ids (``NUM_ACTIONS = 114``): ``DRAW`` (0) draws from the stock, ``TAKE`` (1) takes the
discard pile's top (KR-8); ``DISCARD + kind`` (2..57) discards a card of that kind (KR-9),
``GO_OUT + kind`` (58..113) discards it and goes out (KR-10).  A card's kind (``card_kind``)
is ``suit*11 + rank-3`` for suits S H D C R and ranks 3..K, 55 for the Joker
(``NUM_KINDS = 56``).
"""
from krazy_core._state import state_from_bytes as _state_from_bytes
from krazy_core.games.kings_rummy.core import simulate_random
from krazy_core.games.kings_rummy.notation import (
    DISCARD, DRAW, GO_OUT, NUM_ACTIONS, NUM_KINDS, TAKE, card_kind)
from krazy_core.games.kings_rummy.state import (
    EVENT_NAMES, FULL_DECK, PHASE_NAMES, TENSOR, TENSOR_LAYOUT, KingsRummyState, _check_options,
    new_state, state_from_dict)
from krazy_core.games.kings_rummy import words as _words
from krazy_core.games.kings_rummy import schema as _schema
import krazy_core.games.melds as _melds
from krazy_core.spec import GameSpec, Option, tensor_bounds

__all__ = ["SPEC", "KingsRummyState", "new_state", "state_from_dict", "simulate_random", "EVENT_NAMES",
           "PHASE_NAMES", "FULL_DECK", "TENSOR", "TENSOR_LAYOUT", "DRAW", "TAKE", "DISCARD", "GO_OUT",
           "NUM_KINDS", "NUM_ACTIONS", "card_kind", "meld_rules"]



def _tensor_bounds(game):
    """Half a card per copy of a kind: 1 for a suited kind (two copies), 3 for the Joker (six,
    KR-1); a seat's score over 500 is at most 13 cards a round at the highest card value
    (KR-14: K 13, ``wild_points``, ``joker_points``) over ``rounds`` rounds."""
    import numpy as np
    o = game.options
    kinds = np.ones(56, np.float32)
    kinds[55] = 3.0
    seats = np.tile(np.array([1.0, o.rounds * 13 * max(13, o.wild_points, o.joker_points) / 500.0, 1.0, 1.0],
                             np.float32), 7)
    return tensor_bounds(TENSOR_LAYOUT, hand=(None, kinds), discard_pile=(None, kinds),
                         known_cards=(None, np.tile(kinds, 7)), seats=(None, seats))


SPEC = GameSpec(
    game_id="kings-rummy",
    name="Kings Rummy",
    min_players=2,
    max_players=7,
    default_players=4,
    options=(
        Option("first_dealer", 0, int, "KR-4", "the seat that deals round 1; the deal passes left", lo=0, hi=6, seat=True),
        Option("rounds", 11, int, "KR-16", "rounds in the game", lo=1, hi=11),
        Option("first_round", 1, int, "KR-16", "the round the game starts with (3..13 cards)", lo=1, hi=11),
        Option("wild_points", 20, int, "KR-14", "points of a wild card left in hand", lo=0, hi=1000),
        Option("joker_points", 50, int, "KR-14", "points of a Joker left in hand", lo=0, hi=1000),
        Option("max_turns", 400, int, "KR-17", "turns in one round before every hand is scored", lo=1, hi=100000),
    ),
    num_distinct_actions=NUM_ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    state_from_bytes=_state_from_bytes,
    words=_words,
    schema=_schema,
    env_id="krazy_core/KingsRummy-v0",
    round_end_events=('round_score',),
    max_game_length=lambda game: game.options.rounds * game.options.max_turns * 4,
    tensor_shape=lambda n: (TENSOR,),
    tensor_layout=lambda n: TENSOR_LAYOUT,
    tensor_bounds=_tensor_bounds,
    check_options=_check_options,
    rules_file="games/kings_rummy/rules.md",
    summary="Five-suit rummy with rotating wilds: 11 rounds of 3..13 cards, lowest total wins.",
    # paired root worlds: 62.5% vs HeuristicBot against 53.3% unpaired (2 players, rounds
    # 5-7, 1000 iterations, 60 games each; benches/strength_table.py): a discard's worth is
    # small beside a round's luck, and common worlds cancel the luck out of the comparison.
    # Flat (tree_depth=1: the root's moves, then heuristic rollouts), on the same seeded
    # games: 2 players vs HeuristicBot 67.5% against 62.5% (100 / 60 games) and 59.3%
    # against 51.1% (140 other games); 4 players vs three 41.0% against 38.5% (100 games).
    # A deep tree spends most iterations in rarely visited nodes whose first moves are random.
    search_defaults={"paired": True, "tree_depth": 1},
)


def meld_rules(options, wild_rank: int) -> _melds.MeldRules:
    """Kings Rummy's meld rules (KR-5..KR-7, KR-14) for ``melds.best_arrangement``: a round
    whose wild rank is ``wild_rank`` (3..13, KR-3) under ``options`` (a game's options:
    ``wild_points``, ``joker_points``)."""
    return _melds.kings_rules(wild_rank, wild_points=options.wild_points, joker_points=options.joker_points)
