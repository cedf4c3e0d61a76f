"""Games: the immutable ``Game`` (options, player count, action space) and the registry
behind ``krazy_core.make`` and ``krazy_core.available_games``.

Each game package (``krazy_core/games/<name>/``, its ``__init__.py``) exports a ``SPEC``: a :class:`GameSpec`
naming its options (each an :class:`Option` with its default, range and rule number) and
the functions that create its states.  Modules are imported only when their game is made.
"""

from __future__ import annotations

import copyreg
import importlib
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, overload

from krazy_core.errors import ConfigError
# the spec types live below the games (krazy_core.spec); re-exported here for old imports
from krazy_core.spec import Game, GameSpec, Option, TensorSegment, options_class, tensor_layout  # noqa: F401

if TYPE_CHECKING:                   # make()'s overloads only: each game id gives its State class
    from krazy_core._state import State
    from krazy_core.games.contract_rummy import ContractRummyState
    from krazy_core.games.kings_rummy import KingsRummyState
    from krazy_core.games.krass_kariert import KrassKariertState
    from krazy_core.games.krazy_kings import KrazyKingsState

# game id -> module that defines SPEC.  A new game adds one line.
REGISTRY: Dict[str, str] = {
    "krazy-kings": "krazy_core.games.krazy_kings",
    "kings-rummy": "krazy_core.games.kings_rummy",
    "contract-rummy": "krazy_core.games.contract_rummy",
    "krass-kariert": "krazy_core.games.krass_kariert",
}


_SPECS: Dict[str, GameSpec] = {}


def get_spec(game_id: str) -> GameSpec:
    """The spec of a registered game.  Raises ``ConfigError`` naming the known games."""
    if not isinstance(game_id, str) or game_id not in REGISTRY:
        raise ConfigError(f"unknown game {game_id!r}; available: {', '.join(available_games())}")
    if game_id not in _SPECS:
        module = importlib.import_module(REGISTRY[game_id])
        _SPECS[game_id] = module.SPEC
    return _SPECS[game_id]


def available_games() -> List[str]:
    """Ids of every registered game, sorted."""
    return sorted(REGISTRY)


def _remake(game_id, num_players, options):
    return make(game_id, num_players=num_players, **options)


def _reduce_game(game: Game):
    """A :class:`Game` pickles (and copies) as the registry call that makes it again; the
    spec types sit below the registry, so the registry registers this with ``copyreg``."""
    return _remake, (game.game_id, game.num_players, game.options_dict())


copyreg.pickle(Game, _reduce_game)


@overload
def make(game_id: Literal["krazy-kings"], num_players: Optional[int] = ..., **options: Any) -> Game[KrazyKingsState]: ...
@overload
def make(game_id: Literal["kings-rummy"], num_players: Optional[int] = ..., **options: Any) -> Game[KingsRummyState]: ...
@overload
def make(game_id: Literal["contract-rummy"], num_players: Optional[int] = ..., **options: Any) -> Game[ContractRummyState]: ...
@overload
def make(game_id: Literal["krass-kariert"], num_players: Optional[int] = ..., **options: Any) -> Game[KrassKariertState]: ...
@overload
def make(game_id: str, num_players: Optional[int] = ..., **options: Any) -> Game[State]: ...


def make(game_id: str, num_players: Optional[int] = None, **options: Any) -> Game[Any]:
    """A :class:`Game`.  ``num_players`` defaults to the game's usual table; ``options`` are
    the game's options (``krazy rules GAME`` lists them).  Raises ``ConfigError`` for an
    unknown game, an unknown option, or a value out of range, naming it and its range."""
    spec = get_spec(game_id)
    if num_players is None:
        num_players = spec.default_players
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
            spec.min_players <= num_players <= spec.max_players):
        raise ConfigError(f"{spec.name} is for {spec.min_players}..{spec.max_players} players, "
                          f"got num_players={num_players!r}")
    known = {o.name: o for o in spec.options}
    for k in options:
        if k not in known:
            raise ConfigError(f"unknown option {k!r} for {spec.game_id}; options: "
                              + "; ".join(o.describe() for o in spec.options))
    values = {k: known[k].check(v) for k, v in options.items()}
    opts = options_class(spec)(**values)
    if spec.check_options is not None:
        spec.check_options(num_players, opts)
    return Game(spec, num_players, opts)
