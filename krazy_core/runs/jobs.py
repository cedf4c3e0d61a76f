"""Jobs: what a run of many games is, as data, and how one batch of it is played.

A job is a JSON-ready dict (see the comment above :func:`rotations`); a batch is a range of
its game indices.  Everything here is a pure function of the job and the game's index, so
every backend of :mod:`krazy_core.runs.runner` gives the same results.  :func:`run_job`
plays a job on a runner in batches, storing each batch in a :class:`~krazy_core.runs.store.Store`
when given one.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple, runtime_checkable

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError


@runtime_checkable
class RunResult(Protocol):
    """What every ``run_*`` function of :mod:`krazy_core.runs` returns: the game, who played,
    how many games, how long (wall seconds), on which backend (``Runner.describe()``), and
    ``to_dict()``: the same as a JSON-ready dict (the CLI's ``--json`` output)."""

    game_id: str
    num_players: int
    bots: List[str]
    games: int
    seconds: float
    backend: str

    def to_dict(self) -> Dict[str, Any]: ...


def wilson_interval(wins: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """95% Wilson score interval of a win rate (a shared win counts fractionally)."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


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


# ------------------------------------------------------------------- schedules and batches
# A job is a JSON-ready dict: game_id, players, options, games (how many), seed, and a
# schedule saying who sits where in game g:
#   {"schedule": "rotate", "entries": [word per seat], "rotate": bool}  (krazy simulate)
#       game g shifts every entry g seats (if rotate); dealt from seed + g; bots seeded as
#       play_game seeds them (base seed + g).
#   {"schedule": "duplicate", "bots": [word, ...], "tables": [[bot index per seat], ...]}
#       deal d is played at every table in each distinct rotation of its seats (a
#       duplicate set), so every bot meets the same cards from every seat; dealt from
#       seed + d; bots seeded from (seed, g, seat).
# The schedule is a pure function of the job and g: this is what makes every backend agree.

def rotations(table: Sequence[int]) -> List[int]:
    """The distinct seat shifts of a table (``[0, 1, 0, 1]`` has two: 0 and 1)."""
    n = len(table)
    seen, out = set(), []
    for r in range(n):
        key = tuple(table[(s - r) % n] for s in range(n))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def duplicate_block(tables: Sequence[Sequence[int]]) -> List[Tuple[int, int]]:
    """One deal's games: ``(table, shift)`` for every table and each of its rotations."""
    return [(t, r) for t, tab in enumerate(tables) for r in rotations(tab)]


def seating(job: dict, g: int, _cache={}) -> Tuple[List[int], List[str], int, int]:
    """Game ``g`` of ``job``: ``(entry per seat, bot word per seat, deal seed, bot seed
    base)``; an entry indexes ``job["entries"]`` (rotate) or ``job["bots"]`` (duplicate)."""
    n = job["players"]
    seed = job["seed"]
    if job["schedule"] == "rotate":
        entries = job["entries"]
        shift = g % n if job.get("rotate", True) else 0
        idx = [(s - shift) % n for s in range(n)]
        return idx, [entries[i] for i in idx], seed + g, seed + g
    key = json.dumps(job["tables"])
    block = _cache.get(key)
    if block is None:
        block = _cache[key] = duplicate_block(job["tables"])
    t, r = block[g % len(block)]
    tab = job["tables"][t]
    idx = [tab[(s - r) % n] for s in range(n)]
    return idx, [job["bots"][i] for i in idx], seed + g // len(block), seed * 1_000_003 + g


_GAMES: dict = {}


def job_game(job):
    """The :class:`~krazy_core.spec.Game` a job plays (one per process, cached)."""
    key = (job["game_id"], job["players"], json.dumps(job["options"], sort_keys=True))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = krazy_core.make(job["game_id"], num_players=job["players"], **job["options"])
    return game


def play_batch(payload: dict, hook=None) -> List[tuple]:
    """Play games ``payload["lo"] .. payload["hi"] - 1`` of ``payload["job"]``; one record
    per game: ``(g, returns per seat, decisions, turns or None, turn_limit)``.  ``hook(done,
    total)`` is called after every game (the fault test uses it)."""
    job = payload["job"]
    game = job_game(job)
    lo, hi = payload["lo"], payload["hi"]
    on_decision = payload.get("on_decision")
    out = []
    for g in range(lo, hi):
        _, words, deal, base = seating(job, g)
        ret, decisions, stats = play_game(game, words, deal, bot_seed=base, on_decision=on_decision)
        out.append((g, [float(x) for x in ret], decisions, stats.get("turns"), bool(stats.get("turn_limit"))))
        if hook is not None:
            hook(g - lo + 1, hi - lo)
    return out


def make_job(game, schedule: dict, games: int, seed: int) -> dict:
    """A job dict for ``game`` (see the comment above :func:`rotations`)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"--games must be a whole number >= 1, got {games!r}")
    if games > MAX_GAMES:
        raise ConfigError(f"--games {games:,} is more than {MAX_GAMES:,}; run several jobs")
    job = {"game_id": game.game_id, "players": game.num_players, "options": game.options_dict(),
           "games": games, "seed": int(seed)}
    job.update(schedule)
    return job


MAX_GAMES = 10 ** 12


def default_batch_size(job: dict, workers: int) -> int:
    """Games per batch: about a tenth of a worker's share, 1..256, a whole number of
    duplicate sets."""
    unit = len(duplicate_block(job["tables"])) if job["schedule"] == "duplicate" else 1
    per = max(1, min(256, job["games"] // (10 * max(1, workers))))
    return max(unit, per // unit * unit)


def run_job(runner, job: dict, on_batch: Callable[[int, List[tuple]], Optional[bool]],
            batch_size: Optional[int] = None, store=None, kind: str = "simulate",
            fault: Optional[Tuple[int, str]] = None, on_decision=None) -> Optional[str]:
    """Play ``job`` on ``runner`` in batches and call ``on_batch(batch, records)`` for every
    batch **in batch order** (stored batches of an earlier run included, read back from
    ``store``); ``on_batch`` returning true stops the run (the batches in flight are
    dropped).  With a ``store`` every batch is stored as it finishes, before ``on_batch``
    sees it, and a batch already stored is not played again.  ``fault=(batch, path)`` is
    the test hook of :func:`krazy_core.runs.runner.run_payload`.  Returns the job id (``None``
    without a store)."""
    total = job["games"]
    if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int)
                                   or not 1 <= batch_size <= 1_000_000):
        raise ConfigError(f"the batch size must be 1..1000000 games, got {batch_size!r}")
    size = batch_size or default_batch_size(job, runner.workers)
    jid = None
    done: set = set()
    if store is not None:
        jid, size = store.open_job(kind, job, size)
        done = store.done_batches(jid)
    nb = -(-total // size)

    def batches():
        for b in range(nb):
            if b in done:
                continue
            payload = {"play": play_batch, "job": job, "lo": b * size, "hi": min(total, (b + 1) * size)}
            if fault is not None and fault[0] == b:
                payload["fault"] = fault[1]
            if on_decision is not None:
                payload["on_decision"] = on_decision
            yield b, payload

    stored = iter(sorted(b for b in done if b < nb))
    nxt = next(stored, None)
    it = runner.run(batches())
    try:
        for b, records in it:
            while nxt is not None and nxt < b:
                if on_batch(nxt, store.batch_games(jid, nxt)):
                    return jid
                nxt = next(stored, None)
            if store is not None:
                store.add_batch(jid, b, records)
            if on_batch(b, records):
                return jid
        while nxt is not None:
            if on_batch(nxt, store.batch_games(jid, nxt)):
                return jid
            nxt = next(stored, None)
    finally:
        it.close()
    return jid
