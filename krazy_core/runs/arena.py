"""Arena: play many seeded games between bots and collect the results.

    >>> import krazy_core
    >>> from krazy_core.runs.arena import run_arena
    >>> r = run_arena(krazy_core.make("krazy-kings"), ["heuristic", "random"], games=200, seed=1)
    >>> r.win_rate(0), r.interval(0)         # bot 0's win rate and its 95 % interval
    (0.355, (0.2919..., 0.4234...))

Bots are given as words (``make_bot``: ``random``, ``heuristic``, ``ismcts:N``); a list shorter
than the table repeats.  With ``rotate`` (default) game ``g`` shifts every bot ``g`` seats, so
each bot plays every seat equally often.  ``workers > 1`` plays in that many processes;
``runner=`` any backend of :mod:`krazy_core.runs.runner` (Ray included).  Games go in batches
(:func:`run_job`), and the same seed gives the same result on every backend.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError
from krazy_core.runs.jobs import make_job, run_job, wilson_interval
from krazy_core.runs.runner import make_runner


@dataclass
class ArenaResult:
    """Per bot entry: summed returns (``wins``); per game: decisions, turns, turn-limit ends."""

    game_id: str
    num_players: int
    bots: List[str]
    games: int = 0
    wins: List[float] = field(default_factory=list)
    decisions: List[int] = field(default_factory=list)
    turns: List[int] = field(default_factory=list)
    turn_limit_games: int = 0
    seconds: float = 0.0
    backend: str = ""

    def win_rate(self, entry: int) -> float:
        return self.wins[entry] / self.games if self.games else 0.0

    def interval(self, entry: int) -> Tuple[float, float]:
        return wilson_interval(self.wins[entry], self.games)

    @property
    def mean_decisions(self) -> float:
        return sum(self.decisions) / len(self.decisions) if self.decisions else 0.0

    @property
    def mean_turns(self) -> Optional[float]:
        return sum(self.turns) / len(self.turns) if self.turns else None

    def to_dict(self) -> dict:
        """JSON-ready: game, bots, games, seconds, backend, and per bot entry its summed
        returns, win rate and 95 % interval; mean decisions and turns, turn-limit ends."""
        return {"game": self.game_id, "players": self.num_players, "bots": list(self.bots),
                "games": self.games, "seconds": self.seconds, "backend": self.backend,
                "wins": list(self.wins),
                "win_rates": [self.win_rate(i) for i in range(len(self.bots))],
                "intervals": [list(self.interval(i)) for i in range(len(self.bots))],
                "mean_decisions": self.mean_decisions, "mean_turns": self.mean_turns,
                "turn_limit_games": self.turn_limit_games}


def run_arena(game, bots: Sequence[str], games: int, *, seed: int = 0, workers: int = 1,
              runner=None, store=None, batch_size: Optional[int] = None,
              progress: Optional[Callable[[int], None]] = None, rotate: bool = True,
              on_decision: Optional[Callable[[object, int], None]] = None) -> ArenaResult:
    """Play ``games`` games (game ``g`` dealt from ``seed + g``).  ``progress(k)`` is called
    after each batch of ``k`` games; ``on_decision(state, decisions)`` after every decision
    of a game played in this process (``workers == 1``; worker processes report whole
    batches only).  ``runner`` (:mod:`krazy_core.runs.runner`) picks the backend (default: this
    process for one worker, else ``workers`` local processes); ``store`` (a
    :class:`krazy_core.runs.store.Store`) keeps every batch so a rerun resumes.  The result is
    the same on every backend.  Raises ``ConfigError`` for ``games < 1``, ``workers < 1`` or
    an unknown bot."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"--games must be >= 1, got {games}")
    if workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {workers}")
    n = game.num_players
    words = list(bots) or ["random"]
    entries = [words[i % len(words)] for i in range(n)]
    for w in set(entries):
        make_bot(w, seed=0).check_game(game)    # unknown words or models fail here, before any game
    res = ArenaResult(game.game_id, n, entries, wins=[0.0] * n)
    job = make_job(game, {"schedule": "rotate", "entries": entries, "rotate": bool(rotate)}, games, seed)
    own = runner is None
    if own:
        runner = make_runner(min(workers, games))
    inline = runner.name == "in-process"

    def on_batch(b, records):
        for g, ret, decisions, turns, tl in records:
            shift = g % n if rotate else 0
            _tally(res, shift, ret, decisions, {"turns": turns, "turn_limit": tl} if turns is not None
                   else {"turn_limit": tl})
        if progress:
            progress(len(records))

    t0 = time.perf_counter()
    try:
        run_job(runner, job, on_batch, batch_size=batch_size, store=store, kind="simulate",
                on_decision=on_decision if inline else None)
    finally:
        if own:
            runner.close()
    res.seconds = time.perf_counter() - t0
    res.backend = runner.describe()
    return res


def _tally(res: ArenaResult, shift, ret, decisions, stats):
    n = res.num_players
    for s in range(n):
        res.wins[(s - shift) % n] += ret[s]
    res.games += 1
    res.decisions.append(decisions)
    if "turns" in stats:
        res.turns.append(stats["turns"])
    res.turn_limit_games += bool(stats.get("turn_limit"))
