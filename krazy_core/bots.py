"""Bots.  Every bot has the same protocol: keyword-only options (``seed`` among them), its
own PRNG, and ``step(state) -> action`` for the player to act.  A bot reads only what that
player may see (``state.observation(player)``); the C heuristic behind ``HeuristicBot`` is
written against the same view.

- :class:`RandomBot`: a uniformly random legal action.
- :class:`HeuristicBot`: the game's hand-written policy (each game documents its own).
- :class:`ISMCTSBot`: information-set Monte Carlo tree search (``krazy_core.search``).

``make_bot("heuristic")``, ``make_bot("random")``, ``make_bot("ismcts:2000")``
(iterations) or ``make_bot("ismcts:0.5s")`` (seconds per move) build one from a CLI word.
"""

from __future__ import annotations

from typing import Optional

from krazy_core.errors import ConfigError, IllegalActionError
from krazy_core.rng import Rng

__all__ = ["Bot", "RandomBot", "HeuristicBot", "ISMCTSBot", "make_bot", "BOT_KINDS"]


class Bot:
    """Base class: ``step(state) -> int`` picks an action for ``state.current_player()``."""

    name = "bot"

    def __init__(self, *, seed: Optional[int] = None):
        self.seed = seed
        self._rng = Rng(seed)

    def step(self, state) -> int:
        raise NotImplementedError

    def _check(self, state):
        if state.is_terminal():
            raise IllegalActionError(f"{self.name}: the game is over; there is no move to choose")

    def __repr__(self):
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """Uniformly random among ``state.legal_actions()``."""

    name = "random"

    def step(self, state) -> int:
        self._check(state)
        return self._rng.choice(state.legal_actions())


class HeuristicBot(Bot):
    """The game's heuristic policy (the C ``heuristic_action`` of its GameOps table; see the
    game module's docstring for what it does).  Ties are broken by the bot's own PRNG."""

    name = "heuristic"

    def step(self, state) -> int:
        self._check(state)
        return state.heuristic_action(self._rng.next_u64())


def ISMCTSBot(**kwargs):
    """Information-set MCTS bot; see ``krazy_core.search.bot.ISMCTSBot``.  Raises
    ``ConfigError`` when this build has no search module."""
    try:
        from krazy_core.search.bot import ISMCTSBot as _ISMCTSBot
    except ImportError:
        raise ConfigError("ISMCTS is not built in this install of krazy_core; use random or heuristic") from None
    return _ISMCTSBot(**kwargs)


BOT_KINDS = ("random", "heuristic", "ismcts")


def make_bot(spec: str, *, seed: Optional[int] = None) -> Bot:
    """A bot from a word: ``random``, ``heuristic``, ``ismcts``, ``ismcts:ITERATIONS`` or
    ``ismcts:SECONDSs`` (e.g. ``ismcts:0.5s``).  Raises ``ConfigError`` naming the choices."""
    word = spec.strip().lower()
    if word == "random":
        return RandomBot(seed=seed)
    if word == "heuristic":
        return HeuristicBot(seed=seed)
    if word.startswith("ismcts"):
        budget = word[6:]
        if budget in ("", ":"):
            return ISMCTSBot(seed=seed)
        if not budget.startswith(":"):
            raise ConfigError(f"bad bot {spec!r}: write ismcts, ismcts:ITERATIONS or ismcts:SECONDSs")
        budget = budget[1:]
        try:
            kw = {"time_limit": float(budget[:-1])} if budget.endswith("s") else {"iterations": int(budget)}
        except ValueError:
            raise ConfigError(f"bad ISMCTS budget {budget!r}: an int of iterations or seconds like 0.5s") from None
        return ISMCTSBot(seed=seed, **kw)
    raise ConfigError(f"unknown bot {spec!r}; choose from random, heuristic, ismcts[:ITERATIONS|:SECONDSs]")
