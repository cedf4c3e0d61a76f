"""Stub of krazy_core.games.krazy_kings.core: the rules are C (core.pxd); its Python names are few."""
from typing import Optional

def _fast_playout(enable: Optional[bool] = ...) -> bool: ...
