"""krazy_core: a native-accelerated rules engine for four card games, with search bots.

    >>> import krazy_core
    >>> game = krazy_core.make("krazy-kings", num_players=4)
    >>> state = game.new_initial_state(seed=7)
    >>> while not state.is_terminal():
    ...     state.apply_action(state.legal_actions()[0])

Games: ``krazy_core.available_games()``.  Errors: :class:`KrazyError` and its subclasses
:class:`IllegalActionError`, :class:`InvalidStateError`, :class:`ConfigError` (each also a
``ValueError``).  Cards: ``krazy_core.cards`` (one int encoding, ``Card = int``).  Bots:
``krazy_core.bots``.

The package, bottom up (``tests/test_layers.py`` holds every import to it):

- the base, at the root: ``errors``, ``cards``, ``rng``, ``spec`` (options, specs,
  :class:`Game`), ``_words`` (the game-blind half of the words), ``_state`` (the generic
  :class:`State` over a game's C ops), ``vector`` (many states stepped in C), ``game``
  (the registry, :func:`make`);
- the games: ``games/<game>/`` (``core`` the rules in C, ``notation``, ``state``,
  ``words``, ``schema``, ``view``) and ``games/melds/``, every meld question;
- the search and the bots: ``search/`` (ISMCTS, its options, the learned models' faces),
  ``bots/``, ``learn/``;
- the faces for programs: ``protocol/`` (JSON views and their schemas), ``envs/``
  (Gymnasium, PettingZoo, OpenSpiel, Stable-Baselines3), ``ui/`` (the terminal views);
- running many games: ``runs/`` (backends, the results store, arena, tournament, SPRT,
  self-play);
- the front ends: ``cli/`` (the ``krazy`` command) and ``server/`` (``krazy serve`` and
  the browser table).
"""

from krazy_core.errors import ConfigError, IllegalActionError, InvalidStateError, KrazyError

try:
    from krazy_core.cards import Card, format_card, format_cards, parse_card, parse_cards
except ModuleNotFoundError as _e:          # the source tree without its compiled modules
    if _e.name != "krazy_core.cards":
        raise
    import os as _os
    raise ImportError(
        f"krazy_core was imported from {_os.path.dirname(_os.path.abspath(__file__))}, a source "
        "tree whose compiled modules are not built. Run Python from another directory to use "
        "the installed package, or build here: python setup.py build_ext --inplace") from None
from krazy_core.game import Game, Option, available_games, make
from krazy_core._state import State, TERMINAL_PLAYER
from krazy_core._version import __version__

__all__ = [
    "make", "available_games", "Game", "State", "Option", "TERMINAL_PLAYER",
    "KrazyError", "IllegalActionError", "InvalidStateError", "ConfigError",
    "Card", "parse_card", "parse_cards", "format_card", "format_cards",
]
