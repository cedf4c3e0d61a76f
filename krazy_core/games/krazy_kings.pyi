from typing import Any, Dict, List, Optional

from krazy_core._state import State
from krazy_core.game import Game, GameSpec

EVENT_NAMES: Dict[int, str]
PHASE_NAMES: Dict[int, str]
SPEC: GameSpec

class KrazyKingsState(State):
    def hand(self, player: int) -> List[int]: ...
    def census(self) -> List[int]: ...

def new_state(game: Game, seed: Optional[int] = ...) -> KrazyKingsState: ...
def state_from_dict(game: Game, body: Dict[str, Any], events: Any) -> KrazyKingsState: ...
