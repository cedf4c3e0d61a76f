"""Adapters for AI authors: PettingZoo, Gymnasium and OpenSpiel drive every game.

- :mod:`krazy_core.envs.pettingzoo`: ``env(game_id, num_players=..., render_mode=...,
  **options)``, a PettingZoo AEC env (``pip install 'krazy_core[rl]'``);
- :mod:`krazy_core.envs.gymnasium`: ``KrazyEnv`` (one learner seat, bots at the others)
  and ``make_vec`` (the in-core :class:`krazy_core.vector.VectorEnv` as a Gymnasium
  ``VectorEnv``); ids ``krazy_core/KrazyKings-v0``, ``krazy_core/KingsRummy-v0``,
  ``krazy_core/ContractRummy-v0``, ``krazy_core/KrassKariert-v0`` are registered with
  Gymnasium when this package is imported (if Gymnasium is installed);
- :mod:`krazy_core.envs.openspiel`: ``register()`` makes every game a pyspiel Python game,
  ``pyspiel.load_game("python_krazy_kings(players=4)")`` (``pip install 'krazy_core[openspiel]'``).

The vectorized env itself (:mod:`krazy_core.vector`) is in the core and needs only numpy.

What an illegal action does (each env's ``illegal_action`` option):

- PettingZoo and Gymnasium envs, ``illegal_action="terminate"`` (default, PettingZoo
  classic's rule): the game ends at once, the mover's reward is -1, every other seat's 0,
  and ``info["illegal_action"]`` is True; the rules state is not changed.
  ``illegal_action="raise"``: ``IllegalActionError``, nothing changes (the core's rule).
- ``VectorEnv.step``: ``IllegalActionError`` naming the env index, before any env moves.
- OpenSpiel: ``apply_action`` raises ``IllegalActionError`` (a ``ValueError``), the state
  unchanged (pyspiel's own games abort on one).
"""

from krazy_core.envs._common import ENV_IDS, GAME_OF_ENV_ID

__all__ = ["ENV_IDS", "GAME_OF_ENV_ID"]

try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:                 # the core without the rl extra: nothing to register
    pass
else:
    from krazy_core.envs.gymnasium import register_envs as _register_envs
    _register_envs()
