"""The types a game module declares itself with, below the games in the import order:
:class:`Option`, :class:`GameSpec`, :class:`TensorSegment` (``tensor_layout``), the immutable
:class:`Game` and ``options_class``.  ``krazy_core.game`` (the registry and ``make``) sits above
the games and re-exports these names; a game module imports them from here, never from there.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Generic, NamedTuple, Optional, Tuple, TypeVar

from krazy_core.errors import ConfigError, InvalidStateError

if TYPE_CHECKING:                       # for the annotations only (the state sits above)
    from krazy_core._state import State

# the State class a Game's new_initial_state() / state_from_json() return (Game[KrazyKingsState]...);
# krazy_core.make("krazy-kings") is typed Game[KrazyKingsState] by its overloads
S = TypeVar("S", bound="State", covariant=True)

__all__ = ["Option", "GameSpec", "TensorSegment", "tensor_layout", "tensor_bounds", "Game", "options_class"]


@dataclass(frozen=True)
class Option:
    """One game option: ``kind`` is ``bool``, ``int`` or ``str``; an ``int`` has an
    inclusive range ``lo..hi``; a ``str`` has ``choices``.  ``rule`` names the rule
    (``"KK-6"``) that defines it.  ``seat``: the value is a seat (from 0 in the engine, typed
    from 1 at the table)."""

    name: str
    default: Any
    kind: type
    rule: str
    doc: str
    lo: Optional[int] = None
    hi: Optional[int] = None
    choices: Tuple[str, ...] = ()
    seat: bool = False

    def check(self, value: Any) -> Any:
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"option {self.name!r} must be true or false, got {value!r} ({self.rule})")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"option {self.name!r} must be an int in {self.lo}..{self.hi}, got {value!r} ({self.rule})")
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise ConfigError(f"option {self.name!r} must be in {self.lo}..{self.hi}, got {value!r} ({self.rule})")
            return value
        if not isinstance(value, str) or value not in self.choices:
            raise ConfigError(f"option {self.name!r} must be one of {', '.join(map(repr, self.choices))}, "
                              f"got {value!r} ({self.rule})")
        return value

    def summary(self) -> str:
        """The option's name, default, range and rule: ``"rounds=7 (1..7; CR-16)"``."""
        if self.kind is int:
            rng = f"{self.lo}..{self.hi}"
        elif self.kind is bool:
            rng = "true/false"
        else:
            rng = "/".join(self.choices)
        return f"{self.name}={self.default!r} ({rng}; {self.rule})"

    def describe(self) -> str:
        """:meth:`summary` and what the option does."""
        return f"{self.summary()} {self.doc}"


class TensorSegment(NamedTuple):
    """One named part of ``observation_tensor``: entries ``offset .. offset + size - 1``;
    ``doc`` says what they hold (shape, scale, one-hot or count) from the viewer's seat."""

    name: str
    offset: int
    size: int
    doc: str = ""


def tensor_bounds(layout: Tuple[TensorSegment, ...], default_high: float = 1.0, **segments: Any):
    """``(low, high)`` float32 arrays over ``layout``: low 0, high ``default_high``; a keyword
    names a segment and gives its ``(low, high)``: two floats, or a low and an array of
    highs the segment's size, or ``None`` to leave one side as it is."""
    import numpy as np
    size = sum(seg.size for seg in layout)
    lo = np.zeros(size, np.float32)
    hi = np.full(size, default_high, np.float32)
    by_name = {seg.name: seg for seg in layout}
    for name, (a, b) in segments.items():
        seg = by_name[name]
        if a is not None:
            lo[seg.offset:seg.offset + seg.size] = a
        if b is not None:
            hi[seg.offset:seg.offset + seg.size] = b
    return lo, hi


def tensor_layout(*parts: Tuple[Any, ...]) -> Tuple[TensorSegment, ...]:
    """Segments from ``(name, size)`` or ``(name, size, doc)`` tuples laid end to end from
    offset 0."""
    out, o = [], 0
    for name, size, *doc in parts:
        out.append(TensorSegment(name, o, size, *doc))
        o += size
    return tuple(out)


@dataclass(frozen=True)
class GameSpec:
    """What a game module tells the registry.

    ``new_state(game, seed) -> State``; ``state_from_dict(game, body, events) -> State``
    (raises ``InvalidStateError``); ``tensor_shape(num_players) -> tuple``;
    ``max_utility``/``min_utility`` bound ``returns()``.
    """

    game_id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    options: Tuple[Option, ...]
    num_distinct_actions: int
    new_state: Callable[..., Any]
    state_from_dict: Callable[..., Any]
    tensor_shape: Callable[[int], Tuple[int, ...]]
    rules_file: str                 # under krazy_core: "games/<game>/rules.md"
    min_utility: float = 0.0
    max_utility: float = 1.0
    summary: str = ""
    # check_options(num_players, options) raises ConfigError for combinations the ranges
    # of single options cannot express (a dealer seat beyond the table, ...)
    check_options: Optional[Callable[[int, Any], None]] = None
    # search options this game's ISMCTS plays best with (measured: benches/strength_table.py);
    # search() uses them for every option the caller leaves unset
    search_defaults: Optional[Dict[str, Any]] = None
    # tensor_layout(num_players) -> the observation tensor's named segments, end to end
    # (TensorSegment: name, offset, size, doc); tensor_shape is their total size
    tensor_layout: Optional[Callable[[int], Tuple[TensorSegment, ...]]] = None
    # state_from_bytes(game, data) -> State (krazy_core._state.state_from_bytes for every
    # game with a C validator, ops.validate); raises InvalidStateError
    state_from_bytes: Optional[Callable[..., Any]] = None
    # the game's words for frontends (games/<game>/words.py): describe_action, encode,
    # action_text, narrate, prompt, card_reason, facts and KINDS (State.describe_action ...)
    words: Any = None
    # the game's parts of the JSON Schemas (games/<game>/schema.py: observation(), events(),
    # state()); krazy_core.protocol.schemas builds the shipped files from every game's
    schema: Any = None
    # tensor_bounds(game) -> (low, high): float32 arrays of tensor_shape, bounds no entry of
    # observation_tensor ever leaves for that game's options (the envs' observation Box)
    tensor_bounds: Optional[Callable[[Any], Tuple[Any, Any]]] = None
    # what frontends and adapters switch on, said by the game (nothing outside games/ names
    # a game): the Gymnasium id; the events that end a round (a table pauses after them);
    # returns() summed over the seats (OpenSpiel's utility_sum) for a table of n; a bound on
    # the actions of one game (OpenSpiel's max_game_length)
    env_id: str = ""
    round_end_events: Tuple[str, ...] = ()
    # a hand whose order is part of the moves (KrassKariert, KA-3): a table shows each
    # card's position (from 1) and never sorts it
    fixed_hand: bool = False
    utility_sum: Callable[[int], float] = lambda n: 1.0
    max_game_length: Optional[Callable[[Any], int]] = None

    def rules_text(self) -> str:
        """The numbered rules (``rules_file``, Markdown) as a str."""
        from importlib import resources      # read on demand: nothing at import time
        return resources.files("krazy_core").joinpath(*self.rules_file.split("/")).read_text(encoding="utf-8")

    def rule(self, rule_id: str) -> Optional[str]:
        """The text of one numbered rule (``"KK-6"``: its bullet of ``rules_text()``, its
        continuation lines joined, Markdown emphasis kept), or ``None`` for no such rule."""
        lines = self.rules_text().splitlines()
        head = f"- **{rule_id}"
        for i, line in enumerate(lines):
            if line.startswith(head) and not line[len(head)].isdigit():
                out = [line[2:]]
                for more in lines[i + 1:]:
                    if not more.startswith("  ") or more.lstrip().startswith("- "):
                        break
                    out.append(more.strip())
                return " ".join(out)
        return None

    @property
    def seat_options(self) -> Tuple[str, ...]:
        """The names of the options whose value is a seat (``Option.seat``)."""
        return tuple(o.name for o in self.options if o.seat)


_OPTION_CLASSES: Dict[str, type] = {}


def options_class(spec: GameSpec) -> type:
    """The frozen dataclass of a game's options (one field per :class:`Option`)."""
    cls = _OPTION_CLASSES.get(spec.game_id)
    if cls is None:
        name = "".join(w.capitalize() for w in spec.game_id.split("-")) + "Options"
        cls = dataclasses.make_dataclass(
            name, [(o.name, o.kind, field(default=o.default)) for o in spec.options], frozen=True)
        cls.__doc__ = f"Options of {spec.name}:\n" + "\n".join("  " + o.describe() for o in spec.options)
        _OPTION_CLASSES[spec.game_id] = cls
    return cls


class Game(Generic[S]):
    """An immutable game: which game, how many players, which options.

    Make one with ``krazy_core.make(game_id, num_players=..., **options)``.  Attributes:
    ``game_id``, ``name``, ``num_players``, ``options`` (frozen dataclass),
    ``num_distinct_actions``, ``observation_tensor_shape``, ``min_utility``,
    ``max_utility``.  For type checkers a ``Game[S]``: its states are ``S`` (the game's State
    class, e.g. ``KrazyKingsState``).
    """

    __slots__ = ("spec", "num_players", "options", "_hash")
    spec: GameSpec
    num_players: int
    options: Any
    _hash: int

    def __init__(self, spec: GameSpec, num_players: int, options: Any):
        object.__setattr__(self, "spec", spec)
        object.__setattr__(self, "num_players", num_players)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "_hash", hash((spec.game_id, num_players, options)))

    def __setattr__(self, name, value):
        raise AttributeError("Game is immutable; make a new one with krazy_core.make()")

    @property
    def game_id(self) -> str:
        return self.spec.game_id

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def num_distinct_actions(self) -> int:
        return self.spec.num_distinct_actions

    @property
    def observation_tensor_shape(self) -> Tuple[int, ...]:
        return tuple(self.spec.tensor_shape(self.num_players))

    def observation_tensor_bounds(self) -> Tuple[Any, Any]:
        """``(low, high)``: two float32 arrays of ``observation_tensor_shape``, the least and
        the greatest value each entry of ``observation_tensor`` can take with this game's
        options and players (the Gymnasium and PettingZoo observation ``Box``).  Bounds, not
        observed extremes: a score fraction's bound assumes every card left in hand in
        every round at the highest card value."""
        import numpy as np
        if self.spec.tensor_bounds is not None:
            lo, hi = self.spec.tensor_bounds(self)
            return np.asarray(lo, dtype=np.float32), np.asarray(hi, dtype=np.float32)
        shape = self.observation_tensor_shape
        return np.full(shape, -1.0, np.float32), np.full(shape, 1e4, np.float32)

    @property
    def observation_tensor_layout(self) -> Tuple[TensorSegment, ...]:
        """The observation tensor's named segments, ``(name, offset, size, doc)``, in order
        and end to end, covering ``observation_tensor_shape``; ``doc`` says what each holds.
        Names shared across games mean the same thing
        (``hand``, ``top_card``, ``discard_pile``, ``seats``, ``round``, ``phase``,
        ``stock_size``, ``turn``)."""
        return tuple(self.spec.tensor_layout(self.num_players)) if self.spec.tensor_layout else ()

    @property
    def min_utility(self) -> float:
        return self.spec.min_utility

    @property
    def max_utility(self) -> float:
        return self.spec.max_utility

    def options_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self.options)

    def new_initial_state(self, seed: Optional[int] = None) -> S:
        """A new game, shuffled and dealt from ``seed`` (an int; ``None`` draws one from the
        OS).  Same seed and same actions give the same states, bit for bit."""
        return self.spec.new_state(self, seed)

    def state_from_json(self, text: Any) -> S:
        """A state read back from ``State.to_json()``.  Raises ``InvalidStateError`` for
        anything malformed, truncated, inconsistent or hostile, or made for another game,
        player count or options."""
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                raise InvalidStateError(f"state JSON is not UTF-8: {e}") from None
        if not isinstance(text, str):
            raise InvalidStateError(f"state JSON must be a str, got {type(text).__name__}")
        if len(text) > 50_000_000:
            raise InvalidStateError("state JSON is larger than 50 MB")
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise InvalidStateError(f"state JSON does not parse: {e}") from None
        if not isinstance(doc, dict):
            raise InvalidStateError("state JSON must be an object")
        for key in ("format", "game", "num_players", "options", "state", "events"):
            if key not in doc:
                raise InvalidStateError(f"state JSON lacks {key!r}")
        if doc["format"] != 1:
            raise InvalidStateError(f"unknown state JSON format {doc['format']!r} (this version reads 1)")
        if doc["game"] != self.game_id:
            raise InvalidStateError(f"state JSON is for game {doc['game']!r}, not {self.game_id!r}")
        if doc["num_players"] != self.num_players or isinstance(doc["num_players"], bool):
            raise InvalidStateError(f"state JSON is for {doc['num_players']!r} players, this game has {self.num_players}")
        mine = self.options_dict()
        if doc["options"] != mine:
            theirs = doc["options"] if isinstance(doc["options"], dict) else {}
            diff = sorted(set(mine) ^ set(theirs) | {k for k in mine if k in theirs and theirs[k] != mine[k]})
            raise InvalidStateError("state JSON options differ from this game's: "
                                    + ", ".join(f"{k}={theirs.get(k, '<missing>')!r} (game has {mine.get(k, '<none>')!r})"
                                                for k in diff[:8]))
        if not isinstance(doc["state"], dict):
            raise InvalidStateError("'state' must be an object")
        try:
            state = self.spec.state_from_dict(self, doc["state"], doc["events"])
            state._validate()               # the game's one C validator, as state_from_bytes calls it
            if "history" in doc:            # optional: JSON written before it was saved lacks it
                state._load_history(doc["history"])
            return state
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, OverflowError, IndexError, AttributeError, RecursionError) as e:
            raise InvalidStateError(f"state JSON is inconsistent: {type(e).__name__}: {e}") from None

    def state_from_bytes(self, data: Any) -> "State":
        """A state read back from ``State.to_bytes()`` (``bytes``, ``bytearray`` or a
        contiguous buffer; the layout is in ``State.to_bytes``'s docstring).  Raises
        ``InvalidStateError`` for bytes that are truncated, corrupted, for another game or
        format version or build, or hostile: the struct goes through the same C validator
        as ``state_from_json``'s, so the two loaders accept the same states."""
        if self.spec.state_from_bytes is None:
            raise InvalidStateError(f"{self.name} states cannot be read from bytes")
        return self.spec.state_from_bytes(self, data)

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return (self.spec.game_id == other.spec.game_id and self.num_players == other.num_players
                and self.options == other.options)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        opts = "".join(f", {k}={v!r}" for k, v in self.options_dict().items())
        return f"krazy_core.make({self.game_id!r}, num_players={self.num_players}{opts})"
