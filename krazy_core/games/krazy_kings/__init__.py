"""Krazy Kings (``krazy-kings``), rules KK-1 .. KK-20 (``rules.md`` here): the package's
public face.  The rules and the Python face are in the compiled ``core`` for now."""
from krazy_core.games.krazy_kings.core import *  # noqa: F401,F403
from krazy_core.games.krazy_kings.core import (  # noqa: F401
    _action_card, _cards_of, _fast_playout, _mask_cards)
