"""Crazy Rummy (``contract-rummy``), rules CR-1 .. CR-17 (``rules.md`` beside this file;
``krazy rules contract-rummy``): the package's public face.

Files of the package (the same in every game; docs/guide/contributors.md, "Adding a game"):

- ``__init__.py`` (this file): ``SPEC``, the State class, ``new_state`` and the loader, the
  public helpers (``is_book``, ``is_run``, ``contract_options``, ``best_arrangement``) and the
  action ids as named constants;
- ``core.pxd``: the layout contract (the struct ``CRState``, enums, constants, tables, the
  cdef functions ``state.pyx`` cimports); ``core.pyx``: the rules, the heuristic, the
  validator and the GameOps table, one C unit;
- ``state.pyx``: ``ContractRummyState`` (observation, tensor, JSON, event texts, action
  names), the loaders and the meld helpers (over the shared solver, ``melds.pxd``);
- ``notation.py``: the action ids and action texts; ``view.py``: the terminal table;
  ``rules.md``: the rules text; ``core.pyi``/``state.pyi``: stubs.

Action ids (``NUM_ACTIONS = 3009``): ``DISCARD + k`` (0..52) discards card kind ``k =
suit*13 + rank-1`` (52 the Joker); ``TAKE``/``DECLINE`` (53, 54) the up-card; ``BUY``/``PASS``
(55, 56) out of turn (CR-8); ``GO_DOWN`` (57), ``LAY + k`` (58..110), ``START_RUN + suit*13 +
position-1`` (111..162), ``FINISH`` (163): the lay-down (CR-10); ``LAY_OFF + (k*18 + meld)*2 +
end`` (164..2071, CR-11); ``SWAP + k*18 + meld`` (2072..3007, CR-12); ``KEEP`` (3008, CR-13).
"""
from krazy_core._state import state_from_bytes as _state_from_bytes
from krazy_core.games.contract_rummy.core import CONTRACTS  # noqa: F401
from krazy_core.games.contract_rummy.notation import (  # noqa: F401
    KINDS, MELD_SLOTS, DISCARD, TAKE, DECLINE, BUY, PASS, GO_DOWN, LAY, START_RUN, FINISH, LAY_OFF,
    SWAP, KEEP, NUM_ACTIONS)
from krazy_core.games.contract_rummy.state import *  # noqa: F401,F403
from krazy_core.games.contract_rummy.state import (  # noqa: F401
    ContractRummyState, _bind_spec, _check_options, new_state, state_from_dict, is_book, is_run, contract_options,
    best_arrangement, EVENT_NAMES, PHASE_NAMES, ROUND_END_REASONS, SUIT_LETTERS, TENSOR_LAYOUT)
from krazy_core.games.contract_rummy.notation import _action_text  # noqa: F401
import krazy_core.games.melds as _melds
from krazy_core.games.contract_rummy import words as _words
from krazy_core.games.contract_rummy import schema as _schema
from krazy_core.spec import GameSpec, Option, tensor_bounds

__all__ = ["SPEC", "ContractRummyState", "new_state", "state_from_dict", "is_book", "is_run",
           "contract_options", "best_arrangement", "CONTRACTS", "EVENT_NAMES", "PHASE_NAMES",
           "ROUND_END_REASONS", "SUIT_LETTERS", "TENSOR_LAYOUT", "KINDS", "MELD_SLOTS", "DISCARD",
           "TAKE", "DECLINE", "BUY", "PASS", "GO_DOWN", "LAY", "START_RUN", "FINISH", "LAY_OFF",
           "SWAP", "KEEP", "NUM_ACTIONS", "meld_rules"]


_TENSOR = sum(seg.size for seg in TENSOR_LAYOUT)     # 1154 = TENSOR (core.pxd)


def _tensor_bounds(game):
    """Cards are quarters of at most four copies of a kind (CR-1); a seat's hand over 30 is at
    most all 108 cards, its buys over 10 at most ``buy_limit`` (255 when unlimited: the
    count saturates), its total over 1000 at most 108 cards of 20 points (CR-15) a round over
    ``rounds`` rounds."""
    import numpy as np
    o = game.options
    seats = np.tile(np.array([108 / 30.0, 1.0, (o.buy_limit or 255) / 10.0, o.rounds * 108 * 20 / 1000.0],
                             np.float32), 6)
    return tensor_bounds(TENSOR_LAYOUT, seats=(None, seats))


SPEC = GameSpec(
    game_id="contract-rummy",
    name="Crazy Rummy",
    min_players=2,
    max_players=6,                              # CR-1 (core.pxd MAXP)
    default_players=4,
    options=(
        Option("jokers", 4, int, "CR-1", "Jokers shuffled in with the two decks", lo=0, hi=4),
        Option("ace_wrap", False, bool, "CR-3",
               "runs may go round the corner (K-A-2). Beware: two runs of a suit that then meet "
               "round the corner (10-K and A-4) join into one sequence, which a contract may not "
               "lay (CR-10), so without overlapping_runs (and at times even with it) a hand can be "
               "unable to lay down a contract it could make without ace_wrap"),
        Option("overlapping_runs", False, bool, "CR-10",
               "two same-suit runs of a contract may overlap; only continuing runs join"),
        Option("buy_limit", 0, int, "CR-8", "buys per player per round (0: no limit)", lo=0, hi=100),
        Option("penalty_cards", 1, int, "CR-8", "stock cards a buyer takes with the up-card", lo=0, hi=5),
        Option("layoff_on_own", False, bool, "CR-11", "a player may lay off on their own melds"),
        Option("swap_requires_down", False, bool, "CR-12", "only a player who is down may swap for a wild"),
        Option("final_round_no_discard", False, bool, "CR-13", "round 7 must be gone out without a discard"),
        Option("rounds", 7, int, "CR-16", "rounds played", lo=1, hi=7),
        Option("first_round", 1, int, "CR-16", "the contract of the first round played", lo=1, hi=7),
        Option("max_turns", 400, int, "CR-17", "turns in one round before it ends with no winner",
               lo=1, hi=100000),
    ),
    num_distinct_actions=NUM_ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    state_from_bytes=_state_from_bytes,
    words=_words,
    schema=_schema,
    env_id="krazy_core/ContractRummy-v0",
    round_end_events=('round_end',),
    max_game_length=lambda game: game.options.rounds * game.options.max_turns * 40,
    tensor_shape=lambda n: (_TENSOR,),
    tensor_layout=lambda n: TENSOR_LAYOUT,
    tensor_bounds=_tensor_bounds,
    check_options=_check_options,
    # flat Monte Carlo at the root: with 4 players a deeper tree spends its 1000 iterations
    # on nodes whose first visits play uniformly random moves (random buys, discards and
    # lay-downs for all four seats) and loses to the heuristic it rolls out with
    # (benches/README.md, Crazy Rummy notes)
    search_defaults={"tree_depth": 1},
    rules_file="games/contract_rummy/rules.md",
    summary="Contract rummy: seven contracts of books and runs, buying the up-card, laying off, wild swaps.",
)
_bind_spec(SPEC)


def meld_rules(options) -> _melds.MeldRules:
    """Crazy Rummy's meld rules (CR-2, CR-3, CR-5, CR-15) for ``melds.best_arrangement``
    under ``options`` (a game's options: ``ace_wrap`` CR-3, ``overlapping_runs`` CR-10)."""
    return _melds.crazy_rules(ace_wrap=options.ace_wrap, overlapping_runs=options.overlapping_runs)
