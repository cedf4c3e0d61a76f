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
  names), the loaders, ``SPEC`` and the meld helpers (over the shared solver, ``melds.pxd``);
- ``notation.py``: the action ids and action texts; ``view.py``: the terminal table;
  ``rules.md``: the rules text; ``core.pyi``/``state.pyi``: stubs.

Action ids (``NUM_ACTIONS = 3009``): ``DISCARD + k`` (0..52) discards card kind ``k =
suit*13 + rank-1`` (52 the Joker); ``TAKE``/``DECLINE`` (53, 54) the up-card; ``BUY``/``PASS``
(55, 56) out of turn (CR-8); ``GO_DOWN`` (57), ``LAY + k`` (58..110), ``START_RUN + suit*13 +
position-1`` (111..162), ``FINISH`` (163): the lay-down (CR-10); ``LAY_OFF + (k*18 + meld)*2 +
end`` (164..2071, CR-11); ``SWAP + k*18 + meld`` (2072..3007, CR-12); ``KEEP`` (3008, CR-13).
"""
from krazy_core.games.contract_rummy.core import CONTRACTS  # noqa: F401
from krazy_core.games.contract_rummy.notation import (  # noqa: F401
    KINDS, MELD_SLOTS, DISCARD, TAKE, DECLINE, BUY, PASS, GO_DOWN, LAY, START_RUN, FINISH, LAY_OFF,
    SWAP, KEEP, NUM_ACTIONS)
from krazy_core.games.contract_rummy.state import *  # noqa: F401,F403
from krazy_core.games.contract_rummy.state import (  # noqa: F401
    ContractRummyState, SPEC, new_state, state_from_dict, is_book, is_run, contract_options,
    best_arrangement, EVENT_NAMES, PHASE_NAMES, ROUND_END_REASONS, SUIT_LETTERS, TENSOR_LAYOUT)
from krazy_core.games.contract_rummy.notation import _action_text  # noqa: F401

__all__ = ["SPEC", "ContractRummyState", "new_state", "state_from_dict", "is_book", "is_run",
           "contract_options", "best_arrangement", "CONTRACTS", "EVENT_NAMES", "PHASE_NAMES",
           "ROUND_END_REASONS", "SUIT_LETTERS", "TENSOR_LAYOUT", "KINDS", "MELD_SLOTS", "DISCARD",
           "TAKE", "DECLINE", "BUY", "PASS", "GO_DOWN", "LAY", "START_RUN", "FINISH", "LAY_OFF",
           "SWAP", "KEEP", "NUM_ACTIONS"]
