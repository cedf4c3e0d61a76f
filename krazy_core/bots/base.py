"""The bot protocol and the bots without search: :class:`Bot`, :class:`RandomBot`,
:class:`HeuristicBot` (re-exported by :mod:`krazy_core.bots`)."""

from __future__ import annotations

from typing import Optional

from krazy_core.errors import IllegalActionError
from krazy_core.rng import Rng

__all__ = ["Bot", "RandomBot", "HeuristicBot"]


class Bot:
    """Base class: ``step(state) -> int`` picks an action for ``state.current_player()``."""

    name = "bot"

    def __init__(self, *, seed: Optional[int] = None):
        self.seed = seed
        self._rng = Rng(seed)

    def step(self, state) -> int:
        raise NotImplementedError

    def check_game(self, game) -> None:
        """Raise ``ConfigError`` now if this bot cannot play ``game`` (a bot that needs a
        learned model the game does not ship); called before a deal so a game never stops
        after its first moves.  The bots without models can play every game."""

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
