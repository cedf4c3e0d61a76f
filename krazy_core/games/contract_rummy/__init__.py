"""Crazy Rummy (``contract-rummy``), rules CR-1 .. CR-17 (``rules.md`` here): the package's
public face.  The rules are the compiled ``core`` (layout contract ``core.pxd``); the State
class, the loaders, ``SPEC`` and the meld helpers are the compiled ``state``."""
from krazy_core.games.contract_rummy.core import CONTRACTS  # noqa: F401
from krazy_core.games.contract_rummy.state import *  # noqa: F401,F403
from krazy_core.games.contract_rummy.state import _action_text  # noqa: F401
