"""A sequential probability ratio test between two bots over paired duplicate games.

As chess engines are tested (fishtest's GSPRT): each **pair** is one deal played in every
distinct rotation of the table (``A, B`` then ``B, A`` at two seats; ``A, B, A, B`` and
``B, A, B, A`` at four), so both bots meet the same cards from the same seats.  B's score in
a game is 1 when its seats' mean return beats A's, ½ for equal, 0 below; a pair's score
``x`` is B's mean over the pair's games.  The hypotheses are in Elo, on the expected score
``s(elo) = 1 / (1 + 10^(-elo/400))``: H0 "B is ``elo0`` better" (default 0: not better) and
H1 "B is ``elo1`` better".  After every pair, with the pairs' mean and variance,

    LLR = (s1 - s0) / var * Σ (x - (s0 + s1) / 2)

(the normal approximation of the generalized SPRT, M. Van den Bergh, "A practical
introduction to the GSPRT", 2016: the variance of whole pairs is what makes duplicate
deals count).  The test stops when ``LLR >= log((1 - beta) / alpha)`` (H1: B is at least
``elo1`` better) or ``LLR <= log(beta / (1 - alpha))`` (H0), with ``alpha`` and ``beta`` the
error rates.  ``var`` holds one pseudo-pair of variance 1/4, so a few perfect pairs at the
start do not decide at once.  The pairs are taken in the schedule's order, so the stopping
point (and the games it took) is the same on every backend and any batch size.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import List, Optional, Sequence

from krazy_core.bots import make_bot
from krazy_core.errors import ConfigError
from krazy_core.runs.jobs import duplicate_block, make_job, run_job, seating
from krazy_core.runs.runner import make_runner

__all__ = ["SPRT", "elo_to_score", "score_to_elo", "sprt_job", "run_sprt", "SprtResult"]


def elo_to_score(elo: float) -> float:
    """Expected score of the side ``elo`` points better: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The inverse of :func:`elo_to_score` (±inf at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


class SPRT:
    """The test's state: ``add(x)`` one pair's score in [0, 1]; ``status()`` is ``"H1"``,
    ``"H0"`` or ``None`` (go on).  Raises ``ConfigError`` unless ``0 < alpha, beta < 0.5``
    and ``elo0 < elo1``."""

    def __init__(self, elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05, beta: float = 0.05):
        for name, v in (("alpha", alpha), ("beta", beta)):
            if not (isinstance(v, (int, float)) and 0 < v < 0.5):
                raise ConfigError(f"--{name} is an error rate between 0 and 0.5 (e.g. 0.05), got {v!r}")
        if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1 and abs(elo1) < 2000 and abs(elo0) < 2000):
            raise ConfigError(f"--elo0 must be below --elo1 (Elo points, |x| < 2000), got {elo0!r} and {elo1!r}")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.s0, self.s1 = elo_to_score(elo0), elo_to_score(elo1)
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.n = 0
        self.sum = 0.0
        self.sumsq = 0.0

    def add(self, x: float):
        self.n += 1
        self.sum += x
        self.sumsq += x * x

    @property
    def mean(self) -> float:
        return self.sum / self.n if self.n else 0.5

    def variance(self) -> float:
        """The pairs' variance with one pseudo-pair of variance 1/4."""
        ss = max(0.0, self.sumsq - self.n * self.mean ** 2)
        return (ss + 0.25) / (self.n + 1)

    def llr(self) -> float:
        if self.n == 0:
            return 0.0
        mid = (self.s0 + self.s1) / 2
        return (self.s1 - self.s0) / self.variance() * (self.sum - self.n * mid)

    def status(self) -> Optional[str]:
        v = self.llr()
        if v >= self.upper:
            return "H1"
        if v <= self.lower:
            return "H0"
        return None

    def elo_interval(self):
        """B's Elo over A from the pairs' mean score, with a 95% interval."""
        if self.n < 2:
            return score_to_elo(self.mean), -math.inf, math.inf
        h = 1.96 * math.sqrt(self.variance() / self.n)
        m = self.mean
        return score_to_elo(m), score_to_elo(m - h), score_to_elo(m + h)


def sprt_job(game, a: str, b: str, max_games: int, seed: int = 0) -> dict:
    """The job: one table of A and B in turn, ``max_games`` rounded up to whole pairs."""
    if a.strip() == b.strip():
        raise ConfigError(f"krazy sprt compares two different bots; both are {a!r}")
    tables = [[i % 2 for i in range(game.num_players)]]
    unit = len(duplicate_block(tables))
    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < unit:
        raise ConfigError(f"--max-games must be a whole number >= {unit} (one pair), got {max_games!r}")
    return make_job(game, {"schedule": "duplicate", "bots": [a.strip(), b.strip()], "tables": tables},
                    -(-max_games // unit) * unit, seed)


@dataclass
class SprtResult:
    """The test's outcome: ``decision`` "H1" (B is at least ``elo1`` better), "H0", or
    ``None`` (the most games were played undecided); the test itself (its LLR, Elo
    estimate); whole pairs and games played, wall seconds, job id and backend."""

    game_id: str
    num_players: int
    bots: List[str]                # [A, B]
    decision: Optional[str]
    test: SPRT
    pairs: int
    games: int
    pair_size: int
    seconds: float
    job_id: Optional[str]
    backend: str

    def to_dict(self) -> dict:
        """JSON-ready: game, bots, decision, LLR and its bounds, pairs, games, the Elo
        estimate of B over A with its 95 % interval, seconds, backend, job id."""
        elo = [x if math.isfinite(x) else None for x in self.test.elo_interval()]
        return {"game": self.game_id, "players": self.num_players, "bots": list(self.bots),
                "decision": self.decision, "llr": self.test.llr(),
                "bounds": [self.test.lower, self.test.upper],
                "pairs": self.pairs, "games": self.games, "pair_size": self.pair_size,
                "elo": elo, "seconds": self.seconds,
                "backend": self.backend, "job_id": self.job_id}


def game_score(job, record) -> float:
    """B's score in one game (1 above A, ½ equal, 0 below; mean return over its seats)."""
    g, ret = record[0], record[1]
    idx, _, _, _ = seating(job, g)
    sa = [ret[s] for s, x in enumerate(idx) if x == 0]
    sb = [ret[s] for s, x in enumerate(idx) if x == 1]
    a, b = sum(sa) / len(sa), sum(sb) / len(sb)
    return 1.0 if b > a else 0.5 if b == a else 0.0


def run_sprt(game, bots: Sequence[str], games: int = 20000, *, seed: int = 0, workers: int = 1,
             runner=None, store=None, batch_size: Optional[int] = None, progress=None,
             elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05,
             beta: float = 0.05) -> SprtResult:
    """Run the test of B against A, ``bots = (A, B)`` (see the module docstring), until it
    decides or ``games`` (the most it may take, rounded up to whole pairs) are played.
    Raises ``ConfigError`` for bad bots (not two, or the same twice), error rates or
    bounds."""
    if isinstance(bots, str) or len(bots) != 2:
        raise ConfigError(f"krazy sprt compares two bots, A and B; got {bots!r}")
    a, b = bots
    for w in (a, b):
        make_bot(w, seed=0)
    test = SPRT(elo0, elo1, alpha, beta)
    job = sprt_job(game, a, b, games, seed)
    unit = len(duplicate_block(job["tables"]))
    if batch_size is not None and (batch_size < 1 or batch_size % unit):
        raise ConfigError(f"the batch size must be a multiple of the pair size {unit}, got {batch_size}")
    own = runner is None
    if own:
        runner = make_runner(workers)
    state: dict = {"decision": None, "pairs": 0, "buf": []}

    def on_batch(_, records):
        for k, r in enumerate(records, 1):
            state["buf"].append(game_score(job, r))
            if len(state["buf"]) == unit:
                test.add(sum(state["buf"]) / unit)
                state["buf"] = []
                state["pairs"] += 1
                d = test.status()
                if d:
                    state["decision"] = d
                    if progress:
                        progress(k)
                    return True
        if progress:
            progress(len(records))
        return False

    t0 = time.perf_counter()
    try:
        jid = run_job(runner, job, on_batch, batch_size=batch_size or _sprt_batch(unit, runner.workers),
                      store=store, kind="sprt")
    finally:
        if own:
            runner.close()
    return SprtResult(game.game_id, game.num_players, [a.strip(), b.strip()],
                      state["decision"], test, state["pairs"], state["pairs"] * unit, unit,
                      time.perf_counter() - t0, jid, runner.describe())


def _sprt_batch(unit: int, workers: int) -> int:
    """Small batches (8 pairs): a test that decides early wastes little of what is in
    flight."""
    return 8 * unit
