"""Tournaments: every bot against every other over duplicate deals, rated with openskill.

    >>> import krazy_core
    >>> from krazy_core.runs.tournament import run_tournament
    >>> t = run_tournament(krazy_core.make("krazy-kings"), ["random", "heuristic", "ismcts:50"],
    ...                    games=60, seed=1)
    >>> [bot for bot, mu, lo, hi in t.ratings()]     # [(bot, mu, lo, hi), ...] best first
    ['random', 'heuristic', 'ismcts:50']
    >>> t.pairwise()[0]        # [[row bot's score against the column bot]]
    [None, 0.5333..., 0.5916...]

**Tables.**  With ``K`` bots at an ``n``-seat game, the tables are every ``n`` of the bots
(``itertools.combinations``); with fewer bots than seats, one table repeats them in turn
(``A, B, A, B``).  **Duplicate deals**: deal ``d`` is played at every table in every distinct
rotation of its seats, so each bot sits in every seat with the same cards and the luck of
the deal cancels.  ``games`` is rounded up to whole deals.

**Ratings** come from the ``openskill`` library (``pip install 'krazy_core[tournament]'``), fed
game by game in the schedule's order (so every backend gives the same ratings): the
Bradley–Terry model (``BradleyTerryFull``) when two bots meet, Plackett–Luce for more.  A
bot's score in a game is the mean return of its seats; equal scores are ties.  The interval
is ``mu ± 1.96 sigma`` of openskill's rating (its posterior), on openskill's scale (a new
bot starts at 25 ± 8.3).  The **pairwise table** counts, over the games two bots shared, how
often the row bot scored above the column bot (a tie counts a half).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError
from krazy_core.runs.jobs import duplicate_block, make_job, run_job, seating, wilson_interval
from krazy_core.runs.runner import make_runner

__all__ = ["plan_tables", "tournament_job", "Tournament", "run_tournament", "plot_ratings",
           "text_plot"]

MAX_BOTS = 16


def plan_tables(n_bots: int, n_seats: int) -> List[List[int]]:
    """The tables (bot index per seat) of a tournament of ``n_bots`` at ``n_seats``."""
    if n_bots >= n_seats:
        return [list(c) for c in itertools.combinations(range(n_bots), n_seats)]
    return [[i % n_bots for i in range(n_seats)]]


def check_bots(words: Sequence[str], least: int = 2) -> List[str]:
    """The bot words, checked (``make_bot``): at least ``least``, distinct, at most 16.
    Raises ``ConfigError`` naming the bad one."""
    words = [w.strip() for w in words if w.strip()]
    if len(words) < least:
        raise ConfigError(f"--bots needs at least {least} bots, comma-separated "
                          f"(e.g. random,heuristic,ismcts:100), got {len(words)}")
    if len(words) > MAX_BOTS:
        raise ConfigError(f"--bots names {len(words)} bots; at most {MAX_BOTS}")
    if len(set(words)) != len(words):
        dup = next(w for w in words if words.count(w) > 1)
        raise ConfigError(f"--bots names {dup!r} twice; name each bot once")
    for w in words:
        make_bot(w, seed=0)
    return words


def tournament_job(game, bots: Sequence[str], games: int, seed: int = 0,
                   tables: Optional[Sequence[Sequence[int]]] = None) -> dict:
    """The job of a tournament: the tables (default :func:`plan_tables`; else a list of
    tables, each ``num_players`` bot indexes), ``games`` rounded up to whole deals.  Raises
    ``ConfigError`` for a table of the wrong size or naming a bot that is not there."""
    if tables is None:
        tables = plan_tables(len(bots), game.num_players)
    else:
        tables = [[int(b) for b in tab] for tab in tables]
        for tab in tables:
            if len(tab) != game.num_players or not all(0 <= b < len(bots) for b in tab):
                raise ConfigError(f"table {tab!r}: {game.num_players} indexes of the "
                                  f"{len(bots)} bots, one per seat")
        if not tables:
            raise ConfigError("a tournament needs at least one table")
    unit = len(duplicate_block(tables))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"--games must be a whole number >= 1, got {games!r}")
    rounded = -(-games // unit) * unit
    return make_job(game, {"schedule": "duplicate", "bots": list(bots), "tables": tables}, rounded, seed)


def _model(two: bool):
    try:
        from openskill.models import BradleyTerryFull, PlackettLuce
    except ImportError:
        raise ConfigError("ratings need openskill: pip install 'krazy_core[tournament]'") from None
    return BradleyTerryFull() if two else PlackettLuce()


def _ranks(scores: Sequence[float]) -> List[int]:
    """openskill ranks of the scores: 0 for the best, equal scores an equal rank (each the
    number of scores above it).  ``int`` ranks, not ``rate(scores=...)``: openskill 6.0.0 (the
    newest on Python 3.9) reads a rank that is not an ``int`` (and every float score) as the
    team's position in the list, so tied bots were rated in list order, the first above the
    last; 6.1 and later rate a tie as a tie either way, and give the same ratings for these."""
    return [sum(1 for x in scores if x > v) for v in scores]


@dataclass
class Tournament:
    """What a tournament counted: per bot its games and summed score; per pair the games
    they shared and the row bot's wins (ties a half); openskill ratings."""

    game_id: str
    num_players: int
    bots: List[str]
    job: dict
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    job_id: Optional[str] = None
    backend: str = ""
    score: List[float] = field(default_factory=list)
    played: List[int] = field(default_factory=list)
    pair_games: List[List[int]] = field(default_factory=list)
    pair_wins: List[List[float]] = field(default_factory=list)

    def __post_init__(self):
        k = len(self.bots)
        self.score = [0.0] * k
        self.played = [0] * k
        self.pair_games = [[0] * k for _ in range(k)]
        self.pair_wins = [[0.0] * k for _ in range(k)]
        self._models = {}
        self._r = None

    def add(self, record):
        """Count one game record ``(g, returns, decisions, turns, turn_limit)``."""
        g, ret, decisions, _, _ = record
        idx, _, _, _ = seating(self.job, g)
        per: Dict[int, List[float]] = {}
        for s, b in enumerate(idx):
            per.setdefault(b, []).append(ret[s])
        present = sorted(per)
        sc = {b: sum(v) / len(v) for b, v in per.items()}
        for b in present:
            self.played[b] += 1
            self.score[b] += sc[b]
        for a, b in itertools.permutations(present, 2):
            self.pair_games[a][b] += 1
            self.pair_wins[a][b] += 1.0 if sc[a] > sc[b] else 0.5 if sc[a] == sc[b] else 0.0
        self.games += 1
        self.decisions += decisions
        if len(present) >= 2:
            two = len(present) == 2
            model = self._models.get(two)
            if model is None:
                model = self._models[two] = _model(two)
            if self._r is None:
                self._r = [model.rating(name=w) for w in self.bots]
            teams = [[self._r[b]] for b in present]
            new = model.rate(teams, ranks=_ranks([sc[b] for b in present]))
            for b, team in zip(present, new):
                self._r[b] = team[0]

    def ratings(self) -> List[Tuple[str, float, float, float]]:
        """``(bot, mu, lo, hi)`` best first (by ``mu``), ``lo, hi = mu ∓ 1.96 sigma``."""
        if self._r is None:
            return []
        rows = [(w, r.mu, r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma) for w, r in zip(self.bots, self._r)]
        return sorted(rows, key=lambda x: -x[1])

    def mean_score(self, b: int) -> float:
        return self.score[b] / self.played[b] if self.played[b] else 0.0

    def score_interval(self, b: int) -> Tuple[float, float]:
        return wilson_interval(self.score[b], self.played[b])

    def pairwise(self) -> List[List[Optional[float]]]:
        """``[a][b]``: bot ``a``'s share of wins against ``b`` in the games both played
        (``None`` on the diagonal and for pairs that never met)."""
        k = len(self.bots)
        return [[self.pair_wins[a][b] / self.pair_games[a][b] if a != b and self.pair_games[a][b] else None
                 for b in range(k)] for a in range(k)]

    def to_dict(self) -> dict:
        """JSON-ready: game, bots, games, seconds, backend, job id; per bot its games, mean
        score and interval, rating ``[mu, lo, hi]`` (as :meth:`ratings`), in the order of ``bots``."""
        r = {name: (mu, lo, hi) for name, mu, lo, hi in self.ratings()}
        return {"game": self.game_id, "players": self.num_players, "bots": list(self.bots),
                "games": self.games, "decisions": self.decisions, "seconds": self.seconds,
                "backend": self.backend, "job_id": self.job_id,
                "played": list(self.played),
                "mean_scores": [self.mean_score(b) for b in range(len(self.bots))],
                "intervals": [list(self.score_interval(b)) for b in range(len(self.bots))],
                "ratings": [list(r[name]) if name in r else None for name in self.bots],
                "pairwise": self.pairwise()}

    def fingerprint(self) -> tuple:
        """Everything counted, for comparing two runs (backends) exactly."""
        return (self.games, self.decisions, self.score, self.pair_wins, self.ratings())


def run_tournament(game, bots: Sequence[str], games: int, *, seed: int = 0, workers: int = 1,
                   runner=None, store=None, batch_size: Optional[int] = None, progress=None,
                   tables: Optional[Sequence[Sequence[int]]] = None, fault=None) -> Tournament:
    """Play a tournament (see the module docstring).  ``tables``: which bots meet (default
    every ``num_players`` of them, :func:`plan_tables`); ``runner``: a backend of
    :mod:`krazy_core.runs.runner` (default: ``workers`` local processes, or this process);
    ``store``: a :class:`krazy_core.runs.store.Store` (the tournament resumes from it);
    ``progress(k)`` after each batch of ``k`` games.  Raises ``ConfigError`` for unknown or
    repeated bots, fewer than two bots, or ``games < 1``."""
    bots = check_bots(bots)
    _model(True)                                   # openskill missing: say so before playing
    job = tournament_job(game, bots, games, seed, tables)
    t = Tournament(game.game_id, game.num_players, list(bots), job)
    own = runner is None
    if own:
        runner = make_runner(workers)
    t.backend = runner.describe()

    def on_batch(b, records):
        for r in records:
            t.add(r)
        if progress:
            progress(len(records))

    t0 = time.perf_counter()
    try:
        t.job_id = run_job(runner, job, on_batch, batch_size=batch_size, store=store,
                           kind="tournament", fault=fault)
    finally:
        if own:
            runner.close()
    t.seconds = time.perf_counter() - t0
    return t


def text_plot(rows, width: int = 40) -> List[str]:
    """One line per rating: the interval drawn with ``─`` between ``├`` and ``┤`` and the
    rating as ``●``, all on one scale from the lowest ``lo`` to the highest ``hi``."""
    if not rows:
        return []
    lo = min(r[2] for r in rows)
    hi = max(r[3] for r in rows)
    span = (hi - lo) or 1.0

    def col(x):
        return min(width - 1, max(0, int(round((x - lo) / span * (width - 1)))))

    out = []
    for _, mu, a, b in rows:
        line = [" "] * width
        ca, cb, cm = col(a), col(b), col(mu)
        for c in range(ca, cb + 1):
            line[c] = "─"
        line[ca], line[cb] = "├", "┤"
        line[cm] = "●"
        out.append("".join(line))
    return out


def plot_ratings(t: Tournament, path: str, title: Optional[str] = None) -> str:
    """Draw the ratings with their intervals (matplotlib, ``pip install
    'krazy_core[tournament]'``) to ``path`` (``.png`` or ``.svg``).  Returns ``path``.
    Raises ``ConfigError`` for another suffix or a missing matplotlib, ``OSError`` when the
    file cannot be written."""
    low = str(path).lower()
    if not (low.endswith(".png") or low.endswith(".svg")):
        raise ConfigError(f"--plot {path!r}: the file name must end in .png or .svg")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError("--plot needs matplotlib: pip install 'krazy_core[tournament]'") from None
    rows = t.ratings()[::-1]                     # best at the top
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(rows)))
    try:
        ys = list(range(len(rows)))
        mus = [r[1] for r in rows]
        ax.errorbar(mus, ys, xerr=[[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]],
                    fmt="o", capsize=4)
        ax.set_yticks(ys)
        ax.set_yticklabels([r[0] for r in rows])
        ax.set_xlabel("openskill rating (mu ± 1.96 sigma)")
        ax.set_title(title or f"{t.game_id}, {t.num_players} players, {t.games} games")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
    return path
