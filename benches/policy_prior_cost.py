"""What the learned policy prior costs Krazy Kings' default search: iterations/s of the
default search (``prior_from="model"``, the game's ``search_defaults``) against the same
search without it (``prior_from="heuristic"`` at the default weight 0: no prior at all),
for one or more builds, side by side in one run.

    python benches/policy_prior_cost.py [--builds DIR [DIR ...]] [--positions 12]
                                        [--iterations 3000] [--rounds 5] [--players 2 4] [--bare]

Each ``--builds`` directory (default: the krazy_core this script imports) is a tree with
krazy_core built in place, e.g. ``--builds /work/main .`` for old against new; each runs
in its own worker process (``PYTHONPATH`` = that directory).  Positions are seeded random
playouts (``--positions`` per player count, 0 to 40 random actions from a seeded deal).
Each round runs every position with every build and both searches, interleaved (the
order rotates each round), with a fixed iteration budget, 1 thread and a fixed seed: the
builds search the same trees.  A search's time is the least ``SearchResult.elapsed`` of
its rounds (the machine's other work only ever adds time); prints, per player count and
build, the iterations per second over the positions (their iterations over the sum of
those times) and the ratio prior/plain.
"""
import argparse
import json
import os
import random
import subprocess
import sys

# "prior": the game's default search; "plain": the same without the prior; with --bare also
# "bare": the search before the game's defaults (no prior, no belief weighting: beliefs=0,
# opponents="tree"), for a build that knows those options
MODES = {"plain": {"prior_from": "heuristic"}, "prior": {}}
BARE = {"prior_from": "heuristic", "beliefs": 0, "opponents": "tree"}


def positions(players, count, seed=17):
    """``count`` seeded non-terminal Krazy Kings positions of ``players`` seats."""
    import krazy_core
    game = krazy_core.make("krazy-kings", num_players=players)
    out = []
    k = 0
    while len(out) < count:
        st = game.new_initial_state(seed=seed + k)
        rng = random.Random(seed * 1000 + k)
        for _ in range(rng.randrange(0, 41)):
            if st.is_terminal():
                break
            st.apply_action(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            out.append(st)
        k += 1
    return out


def worker():
    """Serve searches: reads JSON ``[players, index, mode, iterations]`` lines, answers
    ``[iterations, elapsed seconds]``."""
    from krazy_core.search.ismcts import search
    cache = {}
    for line in sys.stdin:
        players, index, mode, iterations, count = json.loads(line)
        if players not in cache:
            cache[players] = positions(players, count)
            # load the policy (and numpy) before any timed search: the first search's
            # elapsed time would include it
            search(cache[players][0], iterations=10, seed=0)
        st = cache[players][index]
        r = search(st, iterations=iterations, seed=index, threads=1, **MODES[mode])
        print(json.dumps([r.iterations, r.elapsed]), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--builds", nargs="+", default=None)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--bare", action="store_true",
                    help="also the search without the game's defaults (prior, beliefs): prior/bare")
    args = ap.parse_args(argv)
    if args.bare:
        MODES["bare"] = BARE
    builds = args.builds or [os.path.dirname(os.path.dirname(os.path.abspath(
        __import__("krazy_core").__file__)))]
    procs = []
    for b in builds:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(b))
        # cwd "/" so that a source tree in the working directory is not imported instead
        procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"]
                                      + (["--bare"] if args.bare else []),
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                      env=env, cwd="/"))
    # best[(players, index, build, mode)] = (iterations, least seconds over the rounds)
    best = {}
    jobs = [(b, m) for b in range(len(builds)) for m in MODES]
    for rnd in range(args.rounds):
        for players in args.players:
            for index in range(args.positions):
                k = (rnd + index) % len(jobs)
                for b, m in jobs[k:] + jobs[:k]:
                    procs[b].stdin.write(json.dumps([players, index, m, args.iterations, args.positions]) + "\n")
                    procs[b].stdin.flush()
                    it, sec = json.loads(procs[b].stdout.readline())
                    key = (players, index, b, m)
                    best[key] = (it, min(sec, best.get(key, (0, sec))[1]))
    for p in procs:
        p.stdin.close()
        p.wait()
    print(f"{args.positions} positions x {args.rounds} rounds, {args.iterations} iterations each, 1 thread")
    print(f"{'players':>7}  {'build':<28} {'plain it/s':>11} {'prior it/s':>11} {'prior/plain':>11}")
    for players in args.players:
        for b, name in enumerate(builds):
            rate = {m: sum(best[(players, i, b, m)][0] for i in range(args.positions))
                    / sum(best[(players, i, b, m)][1] for i in range(args.positions)) for m in MODES}
            print(f"{players:>7}  {name:<28} {rate['plain']:11.0f} {rate['prior']:11.0f} "
                  f"{rate['prior'] / rate['plain']:11.3f}"
                  + (f"   bare {rate['bare']:9.0f}  prior/bare {rate['prior'] / rate['bare']:.3f}"
                     if "bare" in rate else ""))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        if sys.argv[2:] == ["--bare"]:
            MODES["bare"] = BARE
        worker()
    else:
        main()
