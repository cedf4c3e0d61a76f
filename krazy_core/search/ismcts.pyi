"""Type stubs of krazy_core.search.ismcts (SO-ISMCTS over the GameOps table)."""
from typing import Any, Dict, List, Optional, Tuple, Union

from krazy_core._state import State
from krazy_core.search.options import SearchOptions as SearchOptions

NODE_BYTES: int
DEFAULT_EXPLORATION: float
DEFAULT_PRIOR: float
DEFAULT_MAX_NODES: int
ROLLOUTS: Tuple[str, ...]
OPPONENTS: Tuple[str, ...]
HORIZONS: Tuple[str, ...]
VALUES: Tuple[str, ...]
PRIORS: Tuple[str, ...]
DEFAULT_MODEL_PRIOR: float
OPTIONS: Tuple[str, ...]

class SearchTree:
    workers: list
    root: State
    searcher: int
    game: Any
    opponents: str
    nodes: int
    def __init__(self, workers: list, root: State, searcher: int, game: Any, opponents: str) -> None: ...

class SearchResult:
    action: int
    policy: Dict[int, float]
    visits: Dict[int, int]
    values: Dict[int, float]
    iterations: int
    nodes: int
    elapsed: float
    threads: int
    bytes_per_iteration: float
    tree_bytes: int
    max_depth: int
    rollout_actions: float
    truncated: int
    reused: int
    tree: Optional[SearchTree]
    beliefs: Optional[Dict[str, Any]]
    def iterations_per_second(self) -> float: ...

def check_options(options: Dict[str, Any], *, defaults: Optional[Dict[str, Any]] = ...) -> Dict[str, Any]: ...

def search(state: State, *, previous: Union[SearchResult, SearchTree, None] = ...,
           options: Optional[SearchOptions] = ...,
           iterations: Optional[int] = ..., time_limit: Optional[float] = ...,
           seed: Optional[int] = ..., exploration: float = ..., prior: float = ...,
           paired: bool = ..., opponents: str = ..., omniscient: bool = ..., rollout: str = ...,
           max_rollout: Optional[int] = ..., horizon: str = ..., tree_depth: Optional[int] = ...,
           threads: int = ...,
           max_nodes: int = ..., reuse: bool = ..., value: str = ...,
           model: Optional[str] = ..., prior_from: str = ...,
           policy_model: Optional[str] = ..., chance_nodes: bool = ...,
           beliefs: int = ...) -> SearchResult: ...

def model_values(state: State, model: Optional[str] = ...) -> List[float]: ...

def policy_priors(state: State, model: Optional[str] = ...) -> Dict[int, float]: ...

def _tensor_game(state: State, what: str) -> str: ...

def _model_arrays(state: State, model: Optional[str]) -> Dict[str, Any]: ...

def _policy_arrays(state: State, model: Optional[str]) -> Dict[str, Any]: ...

def _observation_nonzeros(state: State, player: int, scan: bool = ...) -> Tuple[List[int], List[float]]: ...

def _first_layer_avx(flag: Optional[bool] = ...) -> bool: ...

def game_defaults(state: State) -> Dict[str, Any]: ...
def _belief_logweight(state: State, player: int) -> Optional[float]: ...
def _worker_from_tree(root: State, nodes: bytes, links: bytes, prior: Optional[bytes], n: int,
                      max_nodes: int, searcher: int, opp_heuristic: int) -> Any: ...
