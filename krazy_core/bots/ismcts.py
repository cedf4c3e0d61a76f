"""``ISMCTSBot``: the information-set MCTS of :mod:`krazy_core.search.ismcts` in the common
bot protocol (``step(state) -> action``, keyword-only options, its own PRNG).

The bot sees only what ``state.observation(player)`` would show its player: every search
iteration starts by determinizing the root from that player's view, so the hidden cards
of the state it is given never reach the tree.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from krazy_core.bots.base import Bot
from krazy_core.errors import ConfigError
from krazy_core.rng import Rng
from krazy_core.search.ismcts import DEFAULT_EXPLORATION, check_options, search
from krazy_core.search.ismcts import _model_arrays, _policy_arrays, game_defaults

__all__ = ["ISMCTSBot", "DEFAULT_TIME_LIMIT"]

DEFAULT_TIME_LIMIT = 0.2    # seconds per move when neither iterations nor time_limit is given


class ISMCTSBot(Bot):
    """A bot that picks each move with SO-ISMCTS.

    ``ISMCTSBot(*, iterations=None, time_limit=None, seed=None, exploration=0.7,
    rollout="heuristic", threads=1, max_rollout=None, reuse=False)``.  The budget is ``iterations``
    (int > 0) and/or ``time_limit`` (seconds > 0) per move; with neither it thinks
    ``DEFAULT_TIME_LIMIT`` = 0.2 s.  ``seed`` (int or ``None``) seeds the bot's own PRNG,
    which seeds each search: with an iteration budget, the same seed and the same states
    give the same moves.  The other options are those of
    :func:`krazy_core.search.ismcts.search`; with ``reuse=True`` each search continues the
    subtree of the bot's previous search where the game went (tree reuse between moves, the
    ``previous`` argument of ``search``).  Raises ``ConfigError`` for an unknown option or
    a bad value; ``step`` raises ``IllegalActionError`` when the game is over.
    """

    name = "ismcts"

    def __init__(self, **options):
        if "seed" in options and options["seed"] is not None:
            seed = options["seed"]
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise ConfigError(f"seed must be an int, got {seed!r}")
        opts = dict(options)
        if opts.get("iterations") is None and opts.get("time_limit") is None:
            opts["time_limit"] = DEFAULT_TIME_LIMIT
        self._options = check_options(opts)         # raises ConfigError
        # only what the caller chose goes to search(): the game's defaults fill the rest
        self._given = {k: v for k, v in opts.items() if k != "seed"}
        self.seed: Optional[int] = options.get("seed")
        self._rng = Rng(self._options["seed"])
        self.last_result = None
        self._tree = None                   # the last search's trees, with reuse=True

    @property
    def options(self) -> Dict:
        """The validated search options (budget, exploration, rollout, threads, ...), with
        the generic defaults for those not given; a game's own defaults
        (``krazy_core.search.ismcts.game_defaults``) replace those when it searches."""
        return {k: v for k, v in self._options.items() if k != "seed"}

    def check_game(self, game) -> None:
        """``ConfigError`` unless the learned models these options name (``value="model"``,
        ``prior_from="model"``, with the game's own search defaults) load and fit ``game``."""
        state = game.new_initial_state(seed=0)
        o = check_options(dict(self._given, iterations=1, time_limit=None), defaults=game_defaults(state))
        if o["value"] == "model":
            _model_arrays(state, o["model"])
        if o["prior_from"] == "model" and o["prior"] > 0:
            _policy_arrays(state, o["policy_model"])

    def step_with_policy(self, state) -> Tuple[int, Dict[int, float]]:
        """``(action, {action: visit fraction})`` for the player to act in ``state``; the
        fractions cover every legal action and sum to 1.  The full result (values,
        iterations, timing) is kept in ``last_result`` (``None`` after a forced move: with
        one legal action the bot answers at once without searching)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            self._rng.next_u64()       # same PRNG stream whether or not we searched
            self.last_result = None
            return legal[0], {legal[0]: 1.0}
        opts = dict(self._given)
        opts["seed"] = self._rng.next_u64()
        result = search(state, previous=self._tree, **opts)
        self._tree = result.tree            # None unless reuse=True
        self.last_result = result
        return result.action, result.policy

    def step(self, state) -> int:
        """The chosen action (an int) for the player to act in ``state``."""
        return self.step_with_policy(state)[0]

    def __repr__(self):
        o = self._options
        budget = ", ".join(f"{k}={o[k]!r}" for k in ("iterations", "time_limit") if o[k] is not None)
        return (f"ISMCTSBot({budget}, seed={self.seed!r}, exploration={o['exploration']!r}, "
                f"rollout={o['rollout']!r}, threads={o['threads']!r})")
