"""Stub of krazy_core.games.kings_rummy.core: the rules are C (core.pxd); its Python names are few."""
from typing import Dict, Optional

from krazy_core.spec import Game

def simulate_random(game: Game, n_games: int, seed: Optional[int] = ..., policy: str = ...) -> Dict[str, float]: ...
