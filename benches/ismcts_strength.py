"""ISMCTS strength: seeded games of one ISMCTSBot against HeuristicBots or RandomBots.

    python benches/ismcts_strength.py --game krazy-kings --players 2 --opponent heuristic \
        --games 200 --iterations 2000 [--time-limit 0.2] [--rollout heuristic]

The ISMCTS seat rotates (game g: seat g mod players); game g is dealt from seed
``--seed + g``.  A game's score is the ISMCTS seat's return (1 for a win, a share for a
shared win at the turn limit).  Prints the win rate with a 95% Wilson interval, the fair
share (1/players) and the ratio to it.
"""
import argparse
import math
import random
import sys
import time

import krazy_core
from krazy_core.search.bot import ISMCTSBot


class _Heuristic:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def step(self, state):
        return state.heuristic_action(seed=self.rng.getrandbits(64))


class _Random:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def step(self, state):
        return self.rng.choice(state.legal_actions())


def opponent(kind, seed):
    try:        # the common bot protocol, once krazy_core.bots is on main
        from krazy_core import bots
        return (bots.HeuristicBot if kind == "heuristic" else bots.RandomBot)(seed=seed)
    except (ImportError, AttributeError):
        return (_Heuristic if kind == "heuristic" else _Random)(seed)


def wilson(wins, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def play(game, seed, seat, me, opponents):
    st = game.new_initial_state(seed=seed)
    moves = think = 0
    while not st.is_terminal():
        p = st.current_player()
        if p == seat:
            t = time.perf_counter()
            st.apply_action(me.step(st))
            think += time.perf_counter() - t
            moves += 1
        else:
            st.apply_action(opponents[p].step(st))
    stats = st.stats() if hasattr(st, "stats") else {}
    return st.returns()[seat], moves, think, stats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="krazy-kings")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="heuristic", choices=("heuristic", "random"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--rollout", default="heuristic", choices=("heuristic", "random"))
    ap.add_argument("--exploration", type=float, default=None)
    ap.add_argument("--max-rollout", type=int, default=None)
    ap.add_argument("--prior", type=float, default=None)
    ap.add_argument("--paired", action="store_true")
    ap.add_argument("--omniscient", action="store_true", help="diagnostic: a cheating search")
    ap.add_argument("--opponents", default=None, choices=("tree", "heuristic"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args(argv)
    game = krazy_core.make(args.game, num_players=args.players)
    opts = {"rollout": args.rollout, "iterations": args.iterations, "time_limit": args.time_limit}
    if args.exploration is not None:
        opts["exploration"] = args.exploration
    if args.max_rollout is not None:
        opts["max_rollout"] = args.max_rollout
    if args.prior is not None:
        opts["prior"] = args.prior
    if args.opponents:
        opts["opponents"] = args.opponents
    if args.omniscient:
        opts["omniscient"] = True
    if args.paired:
        opts["paired"] = True
    if args.threads != 1:
        opts["threads"] = args.threads
    score = 0.0
    moves = think = 0
    limits = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        seat = g % args.players
        me = ISMCTSBot(seed=args.seed + g, **opts)
        opps = {p: opponent(args.opponent, args.seed * 7919 + g * 31 + p) for p in range(args.players)}
        s, m, t, stats = play(game, args.seed + g, seat, me, opps)
        score += s
        moves += m
        think += t
        limits += bool(stats.get("turn_limit"))
        if (g + 1) % 25 == 0:
            print(f"  {g + 1} games: {score:.1f}", file=sys.stderr, flush=True)
    lo, hi = wilson(score, args.games)
    fair = 1 / args.players
    print(f"{args.game} {args.players}p ISMCTS({opts}) vs {args.opponent}: "
          f"{score:.1f}/{args.games} = {score / args.games:.3f} [95% {lo:.3f}, {hi:.3f}], "
          f"{score / args.games / fair:.2f}x fair share; {think / max(moves, 1) * 1000:.0f} ms/ISMCTS move "
          f"({moves} moves); turn-limit games {limits}; wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
