from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from krazy_core._state import State
from krazy_core.spec import Game, TensorSegment
from krazy_core.games.krass_kariert.core import COMBINATION_TYPES as COMBINATION_TYPES

EVENT_NAMES: Dict[int, str]
PHASE_NAMES: Dict[int, str]
TENSOR_LAYOUT: Tuple[TensorSegment, ...]
TRICK_KINDS: Tuple[str, ...]
NUM_ACTIONS: int
NUM_COMBINATIONS: int
MAX_HAND: int
TENSOR_SIZE: int
A_PLAY: int
A_STOP: int
A_DRAW: int
A_RESERVE: int
A_INSERT: int

class KrassKariertState(State):
    def observation(self, player: int) -> Dict[str, Any]: ...
    def stats(self) -> Dict[str, Any]: ...
    def hand(self, player: int) -> List[int]: ...
    def playable_windows(self, player: int) -> List[List[int]]: ...

def check_options(num_players: int, options: Any) -> None: ...
def new_state(game: Game, seed: Optional[int] = ...) -> KrassKariertState: ...
def state_from_dict(game: Game, body: Dict[str, Any], events: Any) -> KrassKariertState: ...

# private: the package re-exports it for its tests
def _action_text(a: int) -> str: ...
