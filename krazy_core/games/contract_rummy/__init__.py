"""Crazy Rummy (``contract-rummy``), rules CR-1 .. CR-17 (``rules.md`` here): the package's
public face.  The rules and the Python face are in the compiled ``core`` for now."""
from krazy_core.games.contract_rummy.core import *  # noqa: F401,F403
from krazy_core.games.contract_rummy.core import _action_text  # noqa: F401
