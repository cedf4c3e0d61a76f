#!/usr/bin/env python
"""Side-by-side speed of krazy_core and its peer, OpenSpiel, measured in one run.

    python benches/compare_peers.py                  # every row, ~3 minutes on 2 cores
    python benches/compare_peers.py --quick          # short run, ~40 s
    python benches/compare_peers.py --only api,clone --repeats 7 --json out.json
    KRAZY_TREE=/path/to/other/checkout python benches/compare_peers.py --ours-only   # its build

The peer needs the ``peers`` extra (``pip install 'krazy_core[peers]'``: open_spiel, rlcard).
Without it the script measures our side only, says what to install, and exits 0.  A row
whose game or module has not landed yet is skipped with a note.

Rows (``--only`` takes the keys, comma-separated; a, b, c are aliases of the first three):

  key             ours                                      peer                                    target
  api        (a)  4-player Krazy Kings, Python API loop      crazy_eights(players=4), same loop       >= 3x
  incore     (b)  Krazy Kings in-core random playouts        crazy_eights, pyspiel.evaluate_bots      >= 5x
  clone      (c)  State.clone() of a mid-game state          crazy_eights State.clone()               >= 2x
  kings-rummy     Kings Rummy (4p) in-core random playouts   gin_rummy, pyspiel.evaluate_bots         >= 10x
  contract-rummy  Contract Rummy (4p) in-core playouts       gin_rummy, pyspiel.evaluate_bots         >= 5x
  krass-kariert   KrassKariert (4p) in-core playouts         crazy_eights(players=4), evaluate_bots   >= 5x
  ismcts-hearts   ISMCTS iterations/s, Krazy Kings (4p)      pyspiel.ISMCTSBot on hearts (C++)        >= 2.5x
  ismcts-gin      ISMCTS iterations/s, Kings Rummy (4p)      pyspiel.ISMCTSBot on gin_rummy (C++)     >= 10x
  ismcts-pymcts   ISMCTS iterations/s, Krazy Kings (4p)      open_spiel.python MCTSBot, crazy_eights  (none)

Method
------
* Counting.  Rates count *player decisions* (one ``apply_action`` by a seat) on both sides.
  Our games have no chance nodes (dice and shuffles happen inside ``apply_action``);
  OpenSpiel's chance nodes (each dealt or drawn card) are applied but not counted.  Their
  number per game is reported in the notes.  "actions/s" of the rummy rows is this same count.
* (a) One function, ``api_playouts``, runs for both sides: a loop of ``is_terminal()``,
  ``is_chance_node()``, ``legal_actions()``, a pick with Python's ``random.Random.choice`` and
  ``apply_action()``; new initial states are made inside the timed loop on both sides.  A
  chance node is sampled with the same ``Random`` object: crazy_eights' chance outcomes are
  uniform (checked at set-up over a few games), so the pick is ``choice(outcomes)``, the same
  cost as a player's pick; a game with non-uniform chance would use an inverse-CDF draw.
  Krazy Kings asks a player only when they have a choice (turns with none are played inside
  ``apply_action``), while crazy_eights asks even for a forced draw or pass and those count:
  this favours the peer.
* (b) and the rummy/KrassKariert rows.  Ours: the game module's nogil playout loop
  (``krazy_core._state.simulate_random(game, n_games, seed)``, over GameOps), timed from outside by
  wall clock, so the Python call is included as it is for the peer.  Peer: for each game,
  ``state = game.new_initial_state(); pyspiel.evaluate_bots(state, bots, seed)`` with
  ``pyspiel.make_uniform_random_bot`` bots; both calls are timed.  ``evaluate_bots`` plays the
  game on the very state passed in, so after the clock stops we count the exact number of
  player decisions from ``state.full_history()`` (entries with ``player >= 0``) -- no
  estimate of decisions per game is needed.
* (c) A mid-game state (20 random decisions in, same loop as (a)); ``n`` calls of the bound
  method ``state.clone`` per measurement on both sides.
* ISMCTS.  Ours: ``krazy_core.bots.ISMCTSBot(iterations=n, seed=..., rollout random)``,
  ``step(state)`` timed on a mid-game state.  Peer: ``pyspiel.ISMCTSBot(seed,
  RandomRolloutEvaluator(1, seed), uct_c=2, max_simulations=n, max_world_samples=-1)``
  (a fresh determinization every iteration, as ours) on a mid-game state of hearts (20
  decisions in: the pass and two tricks) or gin_rummy (20 decisions in); and OpenSpiel's
  Python ``mcts.MCTSBot`` (uct_c=2, one random rollout) on crazy_eights.  A fresh bot per
  measurement; bot construction is not timed.  Rate = n / seconds of ``step``.
* Noise.  Each side's work size ``n`` is calibrated once (that run is also the warm-up) so
  one measurement lasts about ``--seconds``; then ``--repeats`` measurements of each side
  are *interleaved* (ours, peer, peer, ours, ...) so load from other processes hits both.
  The table shows the median rate of each side and their ratio; the JSON keeps every sample
  and the per-repeat (paired) ratios.  The machine's load average is printed before and
  after, because the numbers mean little on a busy machine.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# KRAZY_TREE=/path/to/checkout: measure that checkout's in-place build with this script (two
# builds compared by one script: ``compare_builds.py --one-script``).
TREE = os.path.abspath(os.environ["KRAZY_TREE"]) if os.environ.get("KRAZY_TREE") else ROOT


def _use_source_tree() -> None:
    """Prefer the in-place build of this checkout, or of ``$KRAZY_TREE`` when set (``setup.py
    build_ext --inplace``), over an installed krazy_core, but only if the tree really has
    compiled modules."""
    pkg = os.path.join(TREE, "krazy_core")
    if os.path.isdir(pkg) and any(f.startswith("_state.") and f.endswith((".so", ".pyd"))
                                  for f in os.listdir(pkg)):
        if TREE in sys.path:
            sys.path.remove(TREE)
        sys.path.insert(0, TREE)
    elif os.environ.get("KRAZY_TREE"):
        raise SystemExit(f"KRAZY_TREE={TREE} has no in-place build (krazy_core/_state.*.so)")


_use_source_tree()

try:
    import krazy_core
    from krazy_core.game import REGISTRY
    KRAZY_ERROR: Optional[str] = None
except Exception as e:  # not built / not installed
    krazy_core = None
    REGISTRY = {}
    KRAZY_ERROR = f"krazy_core does not import ({type(e).__name__}: {e})"

try:
    import pyspiel
    PEER_ERROR: Optional[str] = None
except Exception as e:
    pyspiel = None
    PEER_ERROR = f"open_spiel is not installed ({type(e).__name__})"

INSTALL_HINT = "pip install 'krazy_core[peers]'   (open_spiel, rlcard)"
MID_GAME_DECISIONS = 20


class Unavailable(Exception):
    """A side of a row cannot be measured here (game not landed, module missing, ...)."""


# --------------------------------------------------------------------------- sides

@dataclass
class Side:
    """One side of a row.  ``run(n, seed) -> (units, seconds)``: do ``n`` units of work
    (games, clones, iterations) and return how many counted units (decisions, clones,
    iterations) it made and the wall-clock seconds they took."""

    label: str
    unit: str
    run: Callable[[int, int], Tuple[float, float]]
    info: Dict[str, Any] = field(default_factory=dict)
    min_n: int = 1   # smallest work size (a search needs a few iterations to choose a move)


def api_playouts(new_state: Callable[[int], Any], n_games: int, seed: int,
                 chance_pick: Optional[Callable] = None) -> Tuple[int, float, int]:
    """The Python-API random playout loop of row (a), shared verbatim by both sides.

    Returns (player decisions, seconds, chance steps).  ``new_state(i)`` makes game i."""
    rng = random.Random(seed)
    choice = rng.choice
    pick = chance_pick(rng) if chance_pick is not None else (lambda outcomes: choice(outcomes)[0])
    decisions = chance = 0
    t0 = time.perf_counter()
    for i in range(n_games):
        s = new_state(i)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(pick(s.chance_outcomes()))
                chance += 1
            else:
                s.apply_action(choice(s.legal_actions()))
                decisions += 1
    return decisions, time.perf_counter() - t0, chance


def _inverse_cdf_pick(rng: random.Random) -> Callable:
    rand = rng.random

    def pick(outcomes):
        r = rand()
        for a, p in outcomes:
            r -= p
            if r < 0.0:
                return a
        return outcomes[-1][0]
    return pick


def mid_game(new_state: Callable[[], Any], seed: int, decisions: int = MID_GAME_DECISIONS):
    """A non-terminal state ``decisions`` random player decisions into a game (or the last
    non-terminal one before the end), at a player's decision, never a chance node."""
    rng = random.Random(seed)
    s = new_state()
    last = None
    d = 0
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(acts, probs)[0])
            continue
        if d >= decisions:
            return s
        last = s.clone()
        s.apply_action(rng.choice(s.legal_actions()))
        d += 1
    if last is None:
        raise Unavailable("game ends before any decision")
    return last


# ---- our side

def _our_game(game_id: str, players: int):
    if krazy_core is None:
        raise Unavailable(KRAZY_ERROR)
    if game_id not in REGISTRY:
        raise Unavailable(f"{game_id} not registered yet")
    try:
        return krazy_core.make(game_id, num_players=players)
    except ImportError as e:
        raise Unavailable(f"{game_id} module not there yet ({e})")


SIMULATE_NAMES = ("simulate_random", "simulate", "random_playouts")
# where an in-core playout loop may live: the game's module first, then a generic one over GameOps
SIMULATE_MODULES = ("{game_module}", "krazy_core", "krazy_core._state", "krazy_core.simulate", "krazy_core._simulate", "krazy_core._playout")


def _simulate_fn(game_id: str):
    """The in-core random playout loop ``fn(game, n_games, seed)`` serving ``game_id``."""
    for mod_name in SIMULATE_MODULES:
        mod_name = mod_name.format(game_module=REGISTRY[game_id])
        if importlib.util.find_spec(mod_name) is None:
            continue
        module = importlib.import_module(mod_name)
        for name in SIMULATE_NAMES:
            fn = getattr(module, name, None)
            if callable(fn):
                return name, fn
    raise Unavailable(f"no in-core playout loop (simulate_random) for {game_id} yet")


def _count(result) -> float:
    """Decisions out of whatever the in-core loop returns: (decisions, seconds, ...) or a dict."""
    if isinstance(result, dict):
        for key in ("decisions", "actions", "moves"):
            if key in result:
                return float(result[key])
        raise Unavailable(f"in-core loop returned a dict without decisions: {sorted(result)}")
    if isinstance(result, (tuple, list)):
        return float(result[0])
    return float(result)


def ours_api(game_id: str = "krazy-kings", players: int = 4) -> Side:
    game = _our_game(game_id, players)
    info: Dict[str, Any] = {}

    def run(n, seed):
        d, sec, _ = api_playouts(lambda i: game.new_initial_state(seed=seed * 1_000_003 + i), n, seed)
        info["decisions_per_game"] = round(d / n, 1)
        return d, sec
    return Side(f"{game_id} ({players}p) Python API", "dec/s", run, info)


def ours_incore(game_id: str, players: int = 4) -> Side:
    game = _our_game(game_id, players)
    name, fn = _simulate_fn(game_id)

    def run(n, seed):
        t0 = time.perf_counter()
        result = fn(game, n, seed)
        sec = time.perf_counter() - t0
        return _count(result), sec
    return Side(f"{game_id} ({players}p) in-core {name}", "dec/s", run)


def ours_clone(game_id: str = "krazy-kings", players: int = 4) -> Side:
    game = _our_game(game_id, players)
    state = mid_game(lambda: game.new_initial_state(seed=12345), seed=1)
    return Side(f"{game_id} ({players}p) clone()", "clones/s", _clone_loop(state))


def _clone_loop(state):
    def run(n, seed):
        clone = state.clone
        t0 = time.perf_counter()
        for _ in range(n):
            clone()
        return n, time.perf_counter() - t0
    return run


# Kings Rummy is searched from round 8, whose 10-card hands are gin rummy's: round 1's
# 3-card hands would make rollouts (to the round's end, the default horizon) far shorter
# than a gin hand and flatter the ratio.
ISMCTS_ROUND = {"kings-rummy": 8}


def ours_ismcts(game_id: str, players: int = 4) -> Side:
    """Iterations/s of krazy_core.search.ismcts.search (random rollouts, one thread, default
    horizon) from a seeded mid-game state where the player to act has at least two legal
    actions (the bot answers a forced move without searching, so it is timed through
    search() itself).  Kings Rummy: MID_GAME_DECISIONS decisions into round 8."""
    game = _our_game(game_id, players)
    if importlib.util.find_spec("krazy_core.search.ismcts") is None:
        raise Unavailable("krazy_core.search.ismcts not landed yet")
    search = importlib.import_module("krazy_core.search.ismcts").search
    seed = 12345
    want_round = ISMCTS_ROUND.get(game_id)
    while True:
        if want_round:
            rng = random.Random(seed)
            st = game.new_initial_state(seed=seed)
            while not st.is_terminal() and st._to_dict()["round"] < want_round:
                st.apply_action(rng.choice(st.legal_actions()))
            state = mid_game(lambda: st, seed=1)
        else:
            state = mid_game(lambda: game.new_initial_state(seed=seed), seed=1)
        if not state.is_terminal() and len(state.legal_actions()) >= 2:
            break
        seed += 1
    info: Dict[str, Any] = {}
    if want_round:
        info["round"] = want_round

    def run(n, s):
        r = search(state, iterations=n, seed=s, rollout="random", threads=1)
        info["rollout_actions"] = round(r.rollout_actions, 1)
        info["bytes_per_iteration"] = round(r.bytes_per_iteration, 1)
        return r.iterations, r.elapsed
    return Side(f"{game_id} ({players}p) ISMCTS search()", "it/s", run, info, min_n=64)


# ---- peer side

def _peer_game(name: str, **params):
    if pyspiel is None:
        raise Unavailable(PEER_ERROR)
    return pyspiel.load_game(name, params)


def _chance_is_uniform(game, games: int = 3) -> bool:
    rng = random.Random(0)
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                p0 = outs[0][1]
                if any(abs(p - p0) > 1e-12 for _, p in outs):
                    return False
                s.apply_action(rng.choice(outs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    return True


def _game_label(name: str, params: Dict[str, Any]) -> str:
    return name + (f"({','.join(f'{k}={v}' for k, v in params.items())})" if params else "")


def peer_api(name: str = "crazy_eights", **params) -> Side:
    game = _peer_game(name, **params)
    uniform = _chance_is_uniform(game)
    pick = None if uniform else _inverse_cdf_pick
    info: Dict[str, Any] = {"chance_sampling": "uniform choice" if uniform else "inverse CDF"}

    def run(n, seed):
        d, sec, chance = api_playouts(lambda i: game.new_initial_state(), n, seed, pick)
        info["decisions_per_game"] = round(d / n, 1)
        info["chance_steps_per_game"] = round(chance / n, 1)
        return d, sec
    return Side(f"{_game_label(name, params)} pyspiel loop", "dec/s", run, info)


def peer_evaluate_bots(name: str, **params) -> Side:
    game = _peer_game(name, **params)
    players = game.num_players()
    info: Dict[str, Any] = {}

    def run(n, seed):
        bots = [pyspiel.make_uniform_random_bot(p, seed * 31 + p) for p in range(players)]
        evaluate, new_state = pyspiel.evaluate_bots, game.new_initial_state
        decisions = chance = 0
        sec = 0.0
        for i in range(n):
            t0 = time.perf_counter()
            s = new_state()
            evaluate(s, bots, seed * 1_000_003 + i)
            sec += time.perf_counter() - t0
            for pa in s.full_history():  # exact count, off the clock
                if pa.player >= 0:
                    decisions += 1
                else:
                    chance += 1
        info["decisions_per_game"] = round(decisions / n, 1)
        info["chance_steps_per_game"] = round(chance / n, 1)
        return decisions, sec
    return Side(f"{_game_label(name, params)} evaluate_bots (C++)", "dec/s", run, info)


def peer_clone(name: str = "crazy_eights", **params) -> Side:
    game = _peer_game(name, **params)
    state = mid_game(game.new_initial_state, seed=1)
    return Side(f"{_game_label(name, params)} clone()", "clones/s", _clone_loop(state))


def peer_ismcts(name: str, **params) -> Side:
    game = _peer_game(name, **params)
    state = mid_game(game.new_initial_state, seed=1)

    def run(n, seed):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        bot = pyspiel.ISMCTSBot(seed, evaluator, 2.0, n, -1,
                                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
        t0 = time.perf_counter()
        bot.step(state)
        return n, time.perf_counter() - t0
    return Side(f"{_game_label(name, params)} ISMCTSBot (C++)", "it/s", run, min_n=64)


def peer_python_mcts(name: str, **params) -> Side:
    game = _peer_game(name, **params)
    try:
        import numpy as np
        from open_spiel.python.algorithms import mcts
    except ImportError as e:
        raise Unavailable(f"open_spiel.python.algorithms.mcts does not import ({e})")
    state = mid_game(game.new_initial_state, seed=1)

    def run(n, seed):
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        bot = mcts.MCTSBot(game, 2.0, n, evaluator, random_state=np.random.RandomState(seed + 1))
        t0 = time.perf_counter()
        bot.step(state)
        return n, time.perf_counter() - t0
    return Side(f"{_game_label(name, params)} Python MCTSBot", "it/s", run, min_n=64)


# --------------------------------------------------------------------------- rows

@dataclass
class Row:
    key: str
    title: str
    target: Optional[float]
    ours: Callable[[], Side]
    peer: Callable[[], Side]
    aliases: Tuple[str, ...] = ()


ROWS: List[Row] = [
    Row("api", "(a) Python-API random playouts", 3.0,
        lambda: ours_api("krazy-kings", 4), lambda: peer_api("crazy_eights", players=4), ("a",)),
    Row("incore", "(b) in-core random playouts", 5.0,
        lambda: ours_incore("krazy-kings", 4), lambda: peer_evaluate_bots("crazy_eights", players=4), ("b",)),
    Row("clone", "(c) clone() of a mid-game state", 2.0,
        lambda: ours_clone("krazy-kings", 4), lambda: peer_clone("crazy_eights", players=4), ("c",)),
    Row("kings-rummy", "Kings Rummy in-core playouts", 10.0,
        lambda: ours_incore("kings-rummy", 4), lambda: peer_evaluate_bots("gin_rummy")),
    Row("contract-rummy", "Contract Rummy in-core playouts", 5.0,
        lambda: ours_incore("contract-rummy", 4), lambda: peer_evaluate_bots("gin_rummy")),
    Row("krass-kariert", "KrassKariert in-core playouts", 5.0,
        lambda: ours_incore("krass-kariert", 4), lambda: peer_evaluate_bots("crazy_eights", players=4)),
    Row("ismcts-hearts", "ISMCTS: Krazy Kings vs C++ ISMCTS hearts", 2.5,
        lambda: ours_ismcts("krazy-kings", 4), lambda: peer_ismcts("hearts")),
    Row("ismcts-gin", "ISMCTS: Kings Rummy vs C++ ISMCTS gin_rummy", 10.0,
        lambda: ours_ismcts("kings-rummy", 4), lambda: peer_ismcts("gin_rummy")),
    Row("ismcts-pymcts", "ISMCTS: Krazy Kings vs Python MCTS crazy_eights", None,
        lambda: ours_ismcts("krazy-kings", 4), lambda: peer_python_mcts("crazy_eights", players=4)),
]


def select_rows(only: Optional[List[str]]) -> List[Row]:
    if not only:
        return list(ROWS)
    wanted = {w.strip().lower() for item in only for w in item.split(",") if w.strip()}
    known = {name: row for row in ROWS for name in (row.key,) + row.aliases}
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SystemExit(f"unknown row(s) {', '.join(unknown)}; rows: {', '.join(r.key for r in ROWS)}")
    return [row for row in ROWS if row.key in wanted or wanted & set(row.aliases)]


# --------------------------------------------------------------------------- measuring

def calibrate(side: Side, seconds: float) -> int:
    """Work size n so that one ``side.run(n)`` lasts about ``seconds`` (doubles as warm-up)."""
    n = side.min_n
    while True:
        _, sec = side.run(n, 0)
        if sec >= seconds / 5 or n >= 1 << 30:
            break
        grow = (seconds / 5) / sec if sec > 0 else 100.0
        n = int(n * min(100.0, max(2.0, grow * 1.2)))
    return max(side.min_n, int(round(n * seconds / sec)))


def measure_row(row: Row, repeats: int, seconds: float, log: Callable[[str], None],
                ours_only: bool = False) -> Dict[str, Any]:
    result: Dict[str, Any] = {"key": row.key, "title": row.title, "target": row.target,
                              "load_before": _load()}
    sides: Dict[str, Optional[Side]] = {}
    notes: List[str] = []
    for which, factory in (("ours", row.ours), ("peer", row.peer)):
        if which == "peer" and ours_only:
            sides[which] = None
            notes.append("peer: not measured (--ours-only)")
            continue
        try:
            sides[which] = factory()
        except Unavailable as e:
            sides[which] = None
            notes.append(f"{which}: {e}")
    live = {k: v for k, v in sides.items() if v is not None}
    for which, side in sides.items():
        result[which] = {"label": side.label, "unit": side.unit} if side else None
    if not live:
        result["notes"] = notes
        result["skipped"] = True
        return result
    sizes = {}
    for which, side in list(live.items()):
        log(f"  calibrating {which}: {side.label}")
        try:
            sizes[which] = calibrate(side, seconds)
        except Exception as e:  # a side that breaks must not take the other rows with it
            notes.append(f"{which}: failed ({type(e).__name__}: {e})")
            result[which]["error"] = f"{type(e).__name__}: {e}"
            del live[which]
    if not live:
        result["notes"] = notes
        result["skipped"] = True
        return result
    samples: Dict[str, List[float]] = {k: [] for k in live}
    order = list(live)
    for r in range(repeats):
        for which in (order if r % 2 == 0 else order[::-1]):
            gc.collect()
            units, sec = live[which].run(sizes[which], 1 + r)
            samples[which].append(units / sec if sec > 0 else float("nan"))
    for which, side in live.items():
        result[which].update({
            "n": sizes[which], "samples": samples[which],
            "median": statistics.median(samples[which]),
            "min": min(samples[which]), "max": max(samples[which]), "info": side.info})
        if side.info:
            notes.append(f"{which}: " + ", ".join(f"{k}={v}" for k, v in side.info.items()))
    if len(live) == 2:
        o, p = result["ours"]["median"], result["peer"]["median"]
        result["ratio"] = o / p
        paired = [a / b for a, b in zip(samples["ours"], samples["peer"])]
        result["paired_ratios"] = paired
        result["met"] = None if row.target is None else result["ratio"] >= row.target
    result["notes"] = notes
    result["load_after"] = _load()
    return result


def _load() -> Optional[List[float]]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _git_head() -> Optional[str]:
    try:
        return subprocess.run(["git", "-C", TREE, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=5).stdout.strip() or None
    except Exception:
        return None


# --------------------------------------------------------------------------- output

def fmt_rate(x: Optional[float]) -> str:
    if x is None:
        return "-"
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suffix}"
    return f"{x:.3g}"


def table_rows(results: List[Dict[str, Any]]) -> List[List[str]]:
    out = []
    for res in results:
        def side(s):
            if not s:
                return "-", "-"
            if "median" not in s:
                return s["label"], "-"
            return s["label"], f"{fmt_rate(s['median'])} {s['unit']}"
        ol, om = side(res.get("ours"))
        pl, pm = side(res.get("peer"))
        ratio = f"{res['ratio']:.2f}x" if "ratio" in res else "-"
        spread = (f"{min(res['paired_ratios']):.2f}-{max(res['paired_ratios']):.2f}"
                  if "paired_ratios" in res else "-")
        target = f">={res['target']:g}x" if res["target"] is not None else "-"
        met = {True: "yes", False: "NO", None: "-"}[res.get("met")]
        out.append([res["key"], ol, om, pl, pm, ratio, spread, target, met])
    return out


HEADERS = ["row", "ours", "ours median", "peer", "peer median", "ratio", "paired range", "target", "met"]


def print_report(results: List[Dict[str, Any]], header: List[str], markdown: bool = False) -> None:
    """The table (rich if installed, plain text otherwise, or GitHub markdown for a README),
    then one line of notes per row."""
    rows = table_rows(results)
    notes = [f"  {res['key']}: " + "; ".join(res["notes"]) for res in results if res.get("notes")]
    if markdown:
        print("\n".join(line + "  " for line in header) + "\n")
        print("| " + " | ".join(HEADERS) + " |")
        print("|" + "|".join("---:" if h in ("ours median", "peer median", "ratio", "target") else "---"
                             for h in HEADERS) + "|")
        for r in rows:
            print("| " + " | ".join(c.replace("|", "/") for c in r) + " |")
        if notes:
            print("\nNotes:\n\n" + "\n".join("- " + n.strip() for n in notes))
        return
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print("\n".join(header))
        widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(HEADERS)]
        print("  ".join(h.ljust(w) for h, w in zip(HEADERS, widths)).rstrip())
        print("  ".join("-" * w for w in widths))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if notes:
            print("notes:\n" + "\n".join(notes))
        return
    console = Console() if sys.stdout.isatty() else Console(width=160)
    for line in header:
        console.print(line, highlight=False)
    table = Table()
    for h in HEADERS:
        table.add_column(h, justify="right" if h in ("ours median", "peer median", "ratio", "target") else "left")
    for r in rows:
        style = {"yes": "green", "NO": "red"}.get(r[8])
        if style:
            r[5] = f"[{style}]{r[5]}[/{style}]"
        table.add_row(*r)
    console.print(table)
    if notes:
        console.print("notes:\n" + "\n".join(notes), highlight=False, markup=False)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__[__doc__.index("Rows ("):__doc__.index("Method\n")].rstrip()
                                 + "\n\nThe method is in this script's docstring.")
    ap.add_argument("--quick", action="store_true", help="short run: 3 repeats of ~0.2 s per side")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="rows to run (keys, comma-separated; repeatable)")
    ap.add_argument("--repeats", type=int, default=None, help="interleaved measurements per side (default 5, quick 3)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="target length of one measurement in seconds (default 1.0, quick 0.2)")
    ap.add_argument("--json", metavar="OUT", help="also write every sample to this JSON file")
    ap.add_argument("--ours-only", action="store_true", help="measure our side only, even with open_spiel installed")
    ap.add_argument("--markdown", action="store_true", help="print the table as GitHub markdown (for the README)")
    ap.add_argument("--from-json", metavar="IN", help="print the report of a run saved with --json (no measuring)")
    args = ap.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        print_report(saved["rows"], _header(saved["meta"]), markdown=args.markdown)
        return 0
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 5)
    seconds = args.seconds if args.seconds is not None else (0.2 if args.quick else 1.0)
    if repeats < 1 or seconds <= 0:
        ap.error("--repeats must be >= 1 and --seconds > 0")
    rows = select_rows(args.only)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    if PEER_ERROR:
        log(f"peer side unavailable: {PEER_ERROR}.  Install it with: {INSTALL_HINT}")
        log("measuring our side only.")
    if KRAZY_ERROR:
        log(f"our side unavailable: {KRAZY_ERROR}")
    meta = {
        "command": " ".join([os.path.basename(sys.argv[0])] + (argv if argv is not None else sys.argv[1:])),
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "krazy_core": getattr(krazy_core, "__version__", None), "git": _git_head(),
        "open_spiel": None if PEER_ERROR else _version("open_spiel"), "repeats": repeats, "seconds": seconds,
        "load_start": _load(),
    }
    results = []
    for row in rows:
        log(f"{row.key}: {row.title}")
        results.append(measure_row(row, repeats, seconds, log, args.ours_only))
    meta["load_end"] = _load()
    print_report(results, _header(meta), markdown=args.markdown)
    if PEER_ERROR:
        print(f"\nThe peer side needs the peers extra: {INSTALL_HINT}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "rows": results}, f, indent=1)
        log(f"wrote {args.json}")
    return 0


def _header(meta: Dict[str, Any]) -> List[str]:
    return [
        f"krazy_core {meta['krazy_core']} ({meta['git']}) vs OpenSpiel {meta['open_spiel'] or '(not installed)'}: "
        f"medians of {meta['repeats']} interleaved runs of ~{meta['seconds']:g} s per side; ratio = ours / peer",
        f"{meta['date_utc']} UTC, Python {meta['python']}, {meta['machine']}, {meta['cpus']} CPUs, "
        f"load average (1/5/15 min) {meta['load_start']} at start, {meta['load_end']} at end",
        f"command: {meta['command']}",
    ]


def _version(dist: str) -> Optional[str]:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return None


if __name__ == "__main__":
    sys.exit(main())
