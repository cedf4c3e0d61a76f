"""Stub of krazy_core.games.kings_rummy.state (the compiled face)."""
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from krazy_core._state import State
from krazy_core.spec import Game, TensorSegment

EVENT_NAMES: Dict[int, str]
PHASE_NAMES: Dict[int, str]
TENSOR_LAYOUT: Tuple[TensorSegment, ...]
TENSOR: int
# the full 116-card deck's census {code: copies}
FULL_DECK: Dict[int, int]

class KingsRummyState(State):
    round: int
    wild_rank: int
    def observation(self, player: int) -> Dict[str, Any]: ...
    def stats(self) -> Dict[str, Any]: ...
    def hand(self, player: int) -> List[int]: ...
    def scores(self) -> List[int]: ...
    def totals(self) -> List[int]: ...
    def last_round(self) -> Optional[Dict[str, Any]]: ...

def new_state(game: Game, seed: Optional[int] = ...) -> KingsRummyState: ...
def state_from_dict(game: Game, body: Dict[str, Any], events: Any) -> KingsRummyState: ...

# private: the option checks the package gives SPEC (check_options)
def _check_options(num_players: int, o: Any) -> None: ...
