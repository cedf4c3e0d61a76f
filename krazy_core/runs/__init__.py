"""Running many games: seeded bot-against-bot runs on one process, local processes or Ray.

The layer above the engine and the bots; nothing below imports it.  Bottom up:

- :mod:`~krazy_core.runs.runner`: the backends (``InlineRunner``, ``LocalRunner``,
  ``RayRunner``) that play batches of a job and deliver them in order; a batch's payload
  carries the module-level function that plays it.
- :mod:`~krazy_core.runs.store`: an SQLite store of finished batches, so a rerun resumes.
- :mod:`~krazy_core.runs.jobs`: a job as data (who sits where in game ``g``, its deal
  seed), playing one batch of games, :func:`~krazy_core.runs.jobs.run_job`, and
  :class:`RunResult`, the protocol every ``run_*`` result follows.
- the runs, each ``run_X(game, bots, games, *, seed=0, workers=1, runner=None, ...)``:
  :func:`run_arena` (:mod:`.arena`), :func:`run_tournament` (:mod:`.tournament`),
  :func:`run_sprt` (:mod:`.sprt`), :func:`run_selfplay` (:mod:`.selfplay`).

    >>> import krazy_core
    >>> from krazy_core.runs import run_arena
    >>> r = run_arena(krazy_core.make("krazy-kings"), ["heuristic", "random"], 200, seed=1)
    >>> r.games, r.to_dict()["win_rates"][0]
    (200, 0.355)
"""
from krazy_core.runs.arena import ArenaResult, run_arena
from krazy_core.runs.jobs import RunResult
from krazy_core.runs.runner import make_runner
from krazy_core.runs.selfplay import SelfplayResult, run_selfplay
from krazy_core.runs.sprt import SprtResult, run_sprt
from krazy_core.runs.store import open_store
from krazy_core.runs.tournament import Tournament, run_tournament

__all__ = ["ArenaResult", "RunResult", "SelfplayResult", "SprtResult", "Tournament", "make_runner",
           "open_store", "run_arena", "run_selfplay", "run_sprt", "run_tournament"]
