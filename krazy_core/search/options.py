"""The options of :func:`krazy_core.search.ismcts.search`: one frozen, validated dataclass.

:class:`SearchOptions` holds every option with its type, default, unit and meaning;
:func:`check_options` turns a caller's keyword options (and a game's own defaults,
``GameSpec.search_defaults``, see :func:`game_defaults`) into the complete dict the search
runs with.  Measurements behind the defaults are in ``benches/README.md``.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Dict, Optional

from krazy_core._state import check_seed
from krazy_core.errors import ConfigError

__all__ = ["SearchOptions", "check_options", "game_defaults", "DEFAULT_EXPLORATION", "DEFAULT_PRIOR",
           "DEFAULT_MAX_NODES", "DEFAULT_MODEL_PRIOR", "ROLLOUTS", "OPPONENTS", "HORIZONS", "VALUES",
           "PRIORS", "OPTIONS"]

DEFAULT_EXPLORATION = 0.7      # Cowling et al. use 0.7 for win/loss returns in [0, 1]
DEFAULT_PRIOR = 0.0           # progressive bias toward the heuristic's move (0: off)
DEFAULT_MAX_NODES = 1 << 24    # 640 MB of nodes: more than any sane budget makes
DEFAULT_MODEL_PRIOR = 1.0      # the PUCT weight of the policy model's prior (prior_from="model")
ROLLOUTS = ("heuristic", "random")
OPPONENTS = ("tree", "heuristic", "belief")
HORIZONS = ("round", "game")
VALUES = ("rollout", "model")
PRIORS = ("heuristic", "model")
OPTIONS = ("iterations", "time_limit", "seed", "exploration", "prior", "paired", "opponents",
           "omniscient", "rollout", "max_rollout", "horizon", "tree_depth", "threads", "max_nodes",
           "reuse", "value", "model", "prior_from", "policy_model", "chance_nodes", "beliefs")


def _finite(x):
    """Whether the number ``x`` is a finite C double (an int such as ``10**400`` is not: it
    would raise ``OverflowError`` where the search converts it)."""
    try:
        return float(x) != float("inf")
    except OverflowError:
        return False


@dataclass(frozen=True)
class SearchOptions:
    """The options of one :func:`~krazy_core.search.ismcts.search` (SO-ISMCTS), validated
    when made: a bad value raises ``ConfigError`` naming the option and its range.

    A budget is required: ``iterations`` and/or ``time_limit`` (the search stops at whichever
    comes first).  ``SearchOptions(...)`` given as ``search(state, options=...)`` is used as
    it is; keyword options to ``search`` take the game's defaults
    (``GameSpec.search_defaults``) for those left out.

    Fields (type and range, default, unit: meaning):

    ``iterations``: ``int`` in ``1 .. 2**62 - 1`` or ``None`` (default)
        Iterations in all.  With ``threads=k`` the first ``iterations % k`` trees do one
        more than ``iterations // k``.
    ``time_limit``: ``float`` seconds ``> 0`` (finite) or ``None`` (default)
        Each tree gets the whole limit.
    ``seed``: ``int`` in ``0 .. 2**64 - 1`` or ``None`` (default: drawn from the OS per search)
        With an iteration budget the result is a function of the searcher's information
        set and the seed.
    ``exploration``: ``float >= 0`` (finite), default ``DEFAULT_EXPLORATION`` = 0.7
        The UCT constant ``c`` in ``mean + c * sqrt(ln(avail) / visits)``.
    ``prior``: ``float >= 0`` (finite) or ``None`` (default: 0, off; ``DEFAULT_MODEL_PRIOR`` = 1.0 with ``prior_from="model"``)
        The weight of the move prior.  With ``prior_from="heuristic"`` the heuristic's move
        is expanded first and its UCT score gets ``prior / (visits + 1)``; with
        ``"model"`` each child's score gets ``prior * P * sqrt(avail) / (visits + 1)``
        (PUCT), P its policy probability.  Ignored by a game without a heuristic.
    ``paired``: ``bool``, default ``False``
        Common random numbers at the root: each determinization (its dice and rollout
        draws included) is played once after every root action, UCT below the root; the
        move is the best mean return and ``policy`` how often each action did best in a
        world (ties shared).
    ``opponents``: ``"tree"`` (default), ``"heuristic"`` or ``"belief"``
        ``"tree"``: opponents' moves are tree nodes chosen by UCT for their own return;
        ``"heuristic"``: opponents play the game's heuristic, the tree branches on the
        searcher's moves only; ``"belief"``: each opponent whom the belief pool finds
        heuristic-like (posterior >= 0.9 over its recorded choices) plays the heuristic,
        the others are tree nodes (all of them without a pool: ``beliefs=0``, or a game
        without a belief model).  Not with ``reuse=True`` or ``previous=``.
    ``omniscient``: ``bool``, default ``False``
        Diagnostic only, never for play: no determinization, the search sees the hidden
        cards and the future dice ("cheating UCT", Cowling et al. 2012).
    ``rollout``: ``"heuristic"`` (default) or ``"random"``
        The rollout policy: the game's ``heuristic_action`` (random for a game without
        one), or uniform over the legal actions.
    ``max_rollout``: ``int`` actions in ``0 .. 2**31 - 1`` or ``None`` (default: no cap; 0 with ``value="model"``)
        A cut rollout backs up ``ops.evaluate`` (``ops.returns`` for a game without it).
    ``horizon``: ``"round"`` (default) or ``"game"``
        ``"round"``: in a game of many rounds (``ops.round_index``) a rollout stops when its
        round ends and backs up ``ops.evaluate``; ``"game"`` plays every later round out.
    ``tree_depth``: ``int`` moves in ``1 .. 2**31 - 1`` or ``None`` (default: no limit)
        How deep below the root the tree grows; ``1`` is flat Monte Carlo over the root's
        moves.  Moves of ``opponents="heuristic"`` take no depth.
    ``threads``: ``int`` in ``1 .. 256``, default 1
        Root parallelism: independent trees (seeds ``seed + k * 0x9E3779B97F4A7C15``)
        merged by summing their root visits.
    ``max_nodes``: ``int`` nodes in ``1 .. 2**31 - 1``, default ``DEFAULT_MAX_NODES`` = ``2**24``
        Nodes per tree (40 bytes each) before it stops growing.
    ``reuse``: ``bool``, default ``False``
        Keep the trees in ``result.tree`` for the next search's ``previous=``.
    ``value``: ``"rollout"`` (default) or ``"model"``
        ``"rollout"`` backs up what the rollout reached; ``"model"`` the game's learned
        value model (``krazy_core.search.value_model``: each seat's chance to win,
        normalized to the game's sum of returns) after ``max_rollout`` actions.
    ``model``: ``None`` (default: the game's file in ``krazy_core/models/``) or a ``.npz`` path
        The value model's weights; only with ``value="model"``.
    ``prior_from``: ``"heuristic"`` (default) or ``"model"``
        Where the move prior comes from: the game's heuristic move, or its policy model
        (``krazy_core.search.policy_model``: an MLP over the acting seat's observation
        tensor, softmax over the legal actions).
    ``policy_model``: ``None`` (default: the game's file in ``krazy_core/models/``), a ``.npz`` path or an ``os.PathLike``
        The policy model's weights; only with ``prior_from="model"``.
    ``chance_nodes``: ``bool``, default ``False`` (an experiment)
        Below each action node, one child per observation of the searcher after it (a hash
        of its observation tensor).  Needs an observation tensor; not with ``reuse=True``.
    ``beliefs``: ``int`` worlds in ``0 .. 65536``, default 0 (off; Krazy Kings: 1024)
        Belief weighting: each tree draws this many determinizations once (at most its
        iteration budget: ``ismcts:50`` draws 50; one state
        struct each: about 1 KB a world in Krazy Kings, per tree; drawing stops at the
        deadline) and plays them in proportion to the likelihood of the opponents'
        observed choices in each (``ops.belief_logweight``: Krazy Kings reads each seat's
        discards and draws under a heuristic-like or random opponent model), with new
        future dice each time.  The weights are tempered to an effective sample size of at
        least 64 worlds (a quarter of the pool under 256); no pool while every world weighs
        the same.  Ignored by a game without a belief model and with ``omniscient=True``.

    Raises ``ConfigError`` for a missing budget, a value of the wrong type or out of range,
    ``model`` without ``value="model"``, ``policy_model`` without ``prior_from="model"``,
    ``chance_nodes`` with ``reuse`` (and, when the search loads it, for a game without the
    model an option names).
    """

    iterations: Optional[int] = None
    time_limit: Optional[float] = None
    seed: Optional[int] = None
    exploration: float = DEFAULT_EXPLORATION
    prior: Optional[float] = None
    paired: bool = False
    opponents: str = "tree"
    omniscient: bool = False
    rollout: str = "heuristic"
    max_rollout: Optional[int] = None
    horizon: str = "round"
    tree_depth: Optional[int] = None
    threads: int = 1
    max_nodes: int = DEFAULT_MAX_NODES
    reuse: bool = False
    value: str = "rollout"
    model: Optional[str] = None
    prior_from: str = "heuristic"
    policy_model: Optional[str] = None
    chance_nodes: bool = False
    beliefs: int = 0

    def __post_init__(self):
        it, tl = self.iterations, self.time_limit
        if it is None and tl is None:
            raise ConfigError("give a budget: iterations=N and/or time_limit=SECONDS")
        if it is not None and (isinstance(it, bool) or not isinstance(it, int) or not 0 < it < 2**62):
            raise ConfigError(f"iterations must be a positive int below 2**62, got {it!r}")
        if tl is not None:
            if isinstance(tl, bool) or not isinstance(tl, (int, float)) or not (tl > 0) or tl != tl \
                    or not _finite(tl):
                raise ConfigError(f"time_limit must be a positive number of seconds, got {tl!r}")
        ex = self.exploration
        if isinstance(ex, bool) or not isinstance(ex, (int, float)) or not (0 <= ex < float("inf")) \
                or not _finite(ex):
            raise ConfigError(f"exploration must be a finite number >= 0, got {ex!r}")
        if self.rollout not in ROLLOUTS:
            raise ConfigError(f"rollout must be one of {', '.join(map(repr, ROLLOUTS))}, got {self.rollout!r}")
        if not isinstance(self.paired, bool):
            raise ConfigError(f"paired must be True or False, got {self.paired!r}")
        if not isinstance(self.reuse, bool):
            raise ConfigError(f"reuse must be True or False, got {self.reuse!r}")
        if not isinstance(self.omniscient, bool):
            raise ConfigError(f"omniscient must be True or False, got {self.omniscient!r}")
        if self.opponents not in OPPONENTS:
            raise ConfigError(f"opponents must be one of {', '.join(map(repr, OPPONENTS))}, "
                              f"got {self.opponents!r}")
        pr = self.prior
        if pr is not None and (isinstance(pr, bool) or not isinstance(pr, (int, float))
                               or not (0 <= pr < float("inf")) or not _finite(pr)):
            raise ConfigError(f"prior must be a finite number >= 0, got {pr!r}")
        mr = self.max_rollout
        if mr is not None and (isinstance(mr, bool) or not isinstance(mr, int) or not 0 <= mr < 2**31):
            raise ConfigError(f"max_rollout must be None or an int >= 0, got {mr!r}")
        if self.horizon not in HORIZONS:
            raise ConfigError(f"horizon must be one of {', '.join(map(repr, HORIZONS))}, got {self.horizon!r}")
        td = self.tree_depth
        if td is not None and (isinstance(td, bool) or not isinstance(td, int) or not 1 <= td < 2**31):
            raise ConfigError(f"tree_depth must be None or an int >= 1, got {td!r}")
        th = self.threads
        if isinstance(th, bool) or not isinstance(th, int) or not 1 <= th <= 256:
            raise ConfigError(f"threads must be an int in 1..256, got {th!r}")
        mn = self.max_nodes
        if isinstance(mn, bool) or not isinstance(mn, int) or not 1 <= mn < 2**31:
            raise ConfigError(f"max_nodes must be an int in 1..2**31-1, got {mn!r}")
        if self.value not in VALUES:
            raise ConfigError(f"value must be one of {', '.join(map(repr, VALUES))}, got {self.value!r}")
        if self.model is not None:
            if not isinstance(self.model, str) or not self.model.endswith(".npz"):
                raise ConfigError(f"model must be None (the game's shipped model) or a path to a .npz file, "
                                  f"got {self.model!r}")
            if self.value != "model":
                raise ConfigError("model= is only read with value='model'")
        b = self.beliefs
        if isinstance(b, bool) or not isinstance(b, int) or not 0 <= b <= 2**16:
            raise ConfigError(f"beliefs must be an int in 0..65536 (worlds; 0: off), got {b!r}")
        if not isinstance(self.chance_nodes, bool):
            raise ConfigError(f"chance_nodes must be True or False, got {self.chance_nodes!r}")
        if self.opponents == "belief" and self.reuse:
            raise ConfigError("opponents='belief' keeps no tree between moves: drop reuse=True")
        if self.chance_nodes and self.reuse:
            raise ConfigError("chance_nodes=True keeps no tree between moves: drop reuse=True")
        if self.prior_from not in PRIORS:
            raise ConfigError(f"prior_from must be one of {', '.join(map(repr, PRIORS))}, "
                              f"got {self.prior_from!r}")
        if isinstance(self.policy_model, os.PathLike):
            object.__setattr__(self, "policy_model", os.fspath(self.policy_model))
        if self.policy_model is not None:
            if not isinstance(self.policy_model, str) or not self.policy_model.endswith(".npz"):
                raise ConfigError(f"policy_model must be None (the game's shipped policy) or a path to a .npz "
                                  f"file, got {self.policy_model!r}")
            if self.prior_from != "model":
                raise ConfigError("policy_model= is only read with prior_from='model'")

    @classmethod
    def from_options(cls, options: Dict[str, Any], *, defaults: Optional[Dict[str, Any]] = None) -> "SearchOptions":
        """The options ``options`` (a dict of keyword options) names, ``defaults`` (a game's
        ``search_defaults``) for those it leaves out, the fields' defaults for the rest; a
        default ``opponents="belief"`` becomes ``"tree"`` when the caller asks ``reuse=True``.
        Raises ``ConfigError`` for an unknown name or a bad value."""
        given = dict(defaults or {})
        for k, v in options.items():
            if k not in OPTIONS:
                raise ConfigError(f"unknown search option {k!r}; options: {', '.join(OPTIONS)}")
            given[k] = v
        if "prior" in given and given["prior"] is None:
            raise ConfigError("prior must be a finite number >= 0, got None")
        if given.get("opponents") == "belief" and "opponents" not in options and given.get("reuse"):
            # a game's default opponents="belief" yields to a caller's reuse=True (it needs
            # a fresh tree): plain tree opponents then
            given["opponents"] = "tree"
        return cls(**given)

    def resolved(self) -> Dict[str, Any]:
        """The dict the search runs with: every option by name, ``prior`` and
        ``max_rollout`` resolved from their ``None`` defaults, ``seed`` checked (``None``
        draws one from the OS: a new one each call)."""
        opts = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if opts["prior"] is None:
            # the model's prior weighs in unless prior=0 is given
            opts["prior"] = DEFAULT_MODEL_PRIOR if opts["prior_from"] == "model" else DEFAULT_PRIOR
        if opts["value"] == "model" and opts["max_rollout"] is None:
            opts["max_rollout"] = 0         # the model values the leaf itself (AlphaZero-style)
        opts["seed"] = check_seed(opts["seed"])
        return opts


def check_options(options: Dict[str, Any], *, defaults: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Validate keyword search options (:class:`SearchOptions`); returns the complete dict
    the search runs with (:meth:`SearchOptions.resolved`).  Raises ``ConfigError`` for an
    unknown option or a bad value."""
    return SearchOptions.from_options(options, defaults=defaults).resolved()


def game_defaults(state) -> Dict[str, Any]:
    """The search options the state's game plays best with (``GameSpec.search_defaults``,
    e.g. ``{"paired": True}``): the defaults of :func:`~krazy_core.search.ismcts.search`
    for that game."""
    spec = getattr(getattr(state, "game", None), "spec", None)
    return dict(getattr(spec, "search_defaults", None) or {})
