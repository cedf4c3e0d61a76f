"""Arena: play many seeded games between bots and collect the results.

    >>> from krazy_core.arena import run_arena
    >>> r = run_arena(krazy_core.make("krazy-kings"), ["heuristic", "random"], games=200, seed=1)
    >>> r.win_rate(0), r.interval(0)

Bots are given as words (``make_bot``: ``random``, ``heuristic``, ``ismcts:N``); a list shorter
than the table repeats.  With ``rotate`` (default) game ``g`` shifts every bot ``g`` seats, so
each bot plays every seat equally often.  ``workers > 1`` plays in that many processes.
"""

from __future__ import annotations

import math
import multiprocessing as mp
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError


def wilson_interval(wins: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """95% Wilson score interval of a win rate (a shared win counts fractionally)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


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


def play_game(game, bot_words: Sequence[str], seed: int, bot_seed: Optional[int] = None,
              on_decision: Optional[Callable[[object, int], None]] = None):
    """One game; seat ``s`` is played by ``bot_words[s]``.  Returns ``(returns, decisions,
    stats)``.  ``on_decision(state, decisions)``, if given, is called after every decision
    (for progress inside a long game)."""
    base = seed if bot_seed is None else bot_seed
    bots = [make_bot(w, seed=base * 31 + i) for i, w in enumerate(bot_words)]
    state = game.new_initial_state(seed=seed)
    decisions = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        decisions += 1
        if on_decision is not None:
            on_decision(state, decisions)
    stats = state.stats() if hasattr(state, "stats") else {}
    return state.returns(), decisions, stats


def _task(payload):
    game_id, n, options, words, seed = payload
    return play_game(krazy_core.make(game_id, num_players=n, **options), words, seed)


def run_arena(game, bots: Sequence[str], games: int, seed: int = 0, workers: int = 1,
              rotate: bool = True, progress: Optional[Callable[[int], None]] = None,
              on_decision: Optional[Callable[[object, int], None]] = None) -> ArenaResult:
    """Play ``games`` games (game ``g`` dealt from ``seed + g``).  ``progress(k)`` is called
    after each game; ``on_decision(state, decisions)`` after every decision of a game played
    in this process (``workers == 1``; worker processes report whole games only).  Raises ``ConfigError`` for ``games < 1``, ``workers < 1`` or an unknown bot."""
    import time
    if games < 1:
        raise ConfigError(f"games must be >= 1, got {games}")
    if workers < 1:
        raise ConfigError(f"workers must be >= 1, got {workers}")
    n = game.num_players
    words = list(bots) or ["random"]
    entries = [words[i % len(words)] for i in range(n)]
    for w in set(entries):
        make_bot(w, seed=0)              # unknown words fail here, before any game
    res = ArenaResult(game.game_id, n, entries, wins=[0.0] * n)
    tasks = []
    for g in range(games):
        shift = g % n if rotate else 0
        seat_words = [entries[(s - shift) % n] for s in range(n)]
        tasks.append(((game.game_id, n, game.options_dict(), seat_words, seed + g), shift))
    t0 = time.perf_counter()
    if workers > 1:
        with mp.get_context("spawn").Pool(workers) as pool:
            outs = pool.imap(_task, [t for t, _ in tasks], chunksize=4)
            for (_, shift), out in zip(tasks, outs):
                _tally(res, shift, *out)
                if progress:
                    progress(1)
    else:
        for (t, shift) in tasks:
            _tally(res, shift, *play_game(game, t[3], t[4], on_decision=on_decision))
            if progress:
                progress(1)
    res.seconds = time.perf_counter() - t0
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
