"""Crazy Rummy (``contract-rummy``), rules CR-1 .. CR-17 (``rules.md`` here): the package's
public face.  The rules are the compiled ``core`` (layout contract ``core.pxd``); the State
class, the loaders, ``SPEC`` and the meld helpers are the compiled ``state``; the action ids
(named below), action texts and typed-text matching are ``notation``; the terminal view is
``view``."""
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
