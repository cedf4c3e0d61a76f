"""ISMCTS speed: iterations/s and tree memory per iteration on seeded positions.

    python benches/ismcts_speed.py [--game krazy-kings] [--players 4] [--seconds 1.0]
                                   [--rollout random] [--positions 4]

Positions are taken from seeded random playouts (after 0, 8, 16, ... actions).  Each is
searched for ``--seconds`` with 1 thread and with 2 threads (root parallelism); prints
iterations/s, the 2-thread speed-up, mean rollout length and tree bytes per iteration.
"""
import argparse
import random
import statistics

import krazy_core
from krazy_core.search.ismcts import search


def positions(game, count, seed=1):
    out = []
    for k in range(count):
        st = game.new_initial_state(seed=seed + k)
        rng = random.Random(seed + k)
        for _ in range(8 * k):
            if st.is_terminal():
                break
            st.apply_action(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            out.append(st)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="krazy-kings")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rollout", default="random", choices=("random", "heuristic"))
    ap.add_argument("--positions", type=int, default=4)
    args = ap.parse_args(argv)
    game = krazy_core.make(args.game, num_players=args.players)
    rates = {1: [], 2: []}
    for i, st in enumerate(positions(game, args.positions)):
        row = [f"position {i}: {len(st.legal_actions())} legal"]
        for threads in (1, 2):
            r = search(st, time_limit=args.seconds, seed=i, rollout=args.rollout, threads=threads)
            rates[threads].append(r.iterations_per_second())
            row.append(f"{threads} thr {r.iterations_per_second():9.0f} it/s "
                       f"({r.iterations} it, rollout {r.rollout_actions:.0f} actions, "
                       f"{r.bytes_per_iteration:.1f} B/it, depth {r.max_depth})")
        print("; ".join(row))
    m1, m2 = statistics.mean(rates[1]), statistics.mean(rates[2])
    print(f"{args.game} {args.players}p {args.rollout} rollouts: mean {m1:.0f} it/s (1 thread), "
          f"{m2:.0f} it/s (2 threads), speed-up x{m2 / m1:.2f}")


if __name__ == "__main__":
    main()
