from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from krazy_core._state import State
from krazy_core.spec import Game, GameSpec, TensorSegment

EVENT_NAMES: Dict[int, str]
PHASE_NAMES: Dict[int, str]
SPEC: GameSpec
TENSOR_LAYOUT: Tuple[TensorSegment, ...]
TENSOR: int
DOUBLES: Tuple[str, ...]
DRAW_REASONS: Dict[int, str]

class KrazyKingsState(State):
    def observation(self, player: int) -> Dict[str, Any]: ...
    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]: ...
    def stats(self) -> Dict[str, Any]: ...
    def hand(self, player: int) -> List[int]: ...
    def census(self) -> List[int]: ...

def new_state(game: Game, seed: Optional[int] = ...) -> KrazyKingsState: ...
def state_from_dict(game: Game, body: Dict[str, Any], events: Any) -> KrazyKingsState: ...
