"""Iterations per CPU second of the default ISMCTS on positions a game reaches (issue 18).

    python benches/ismcts_budget.py [--game krazy-kings] [--players 2] [--positions 24]
                                    [--iterations 4000] [--budget 0.2]

Positions: seeded heuristic-vs-heuristic games, every ``--every``-th decision with more than
one legal action (what a search bot is asked).  Each is searched once with the default options
and ``--iterations`` (1 thread); the time is CPU time (``time.process_time``), so the rate is a
quiet core's even on a loaded machine.  Prints iterations per CPU second (mean, quartiles) and
the iteration budget that ``--budget`` seconds a move buys on average.

``--variant prior_from=model[:prior=2...]`` (search options as in a bot word) searches every
position with the defaults and with the variant, interleaved, ``--repeats`` times each, and
prints both rates and their ratio (side by side in one run, so the machine's load falls on
both alike).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import krazy_core                                   # noqa: E402
from krazy_core.bots import make_bot                # noqa: E402
from krazy_core.search.ismcts import search         # noqa: E402


def positions(game, players, count, every, seed):
    out, g = [], 0
    while len(out) < count:
        bots = [make_bot("heuristic", seed=seed * 13 + g * 7 + k) for k in range(players)]
        s = game.new_initial_state(seed=seed + g)
        k = 0
        while not s.is_terminal() and len(out) < count:
            if len(s.legal_actions()) > 1:
                if k % every == 0:
                    out.append(s.clone())
                k += 1
            s.apply_action(bots[s.current_player()].step(s))
        g += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="krazy-kings")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=4000)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1801)
    ap.add_argument("--variant", help="search options NAME=VALUE[:NAME=VALUE...] to compare with the defaults")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    game = krazy_core.make(a.game, num_players=a.players)
    if a.variant:
        return compare(game, a)
    rates = []
    for i, st in enumerate(positions(game, a.players, a.positions, a.every, a.seed)):
        t = time.process_time()
        r = search(st, iterations=a.iterations, seed=i)
        dt = time.process_time() - t
        rates.append(r.iterations / dt)
    q = statistics.quantiles(rates, n=4)
    m = statistics.mean(rates)
    print(f"{a.game} {a.players}p, {len(rates)} positions, {a.iterations} iterations each: "
          f"{m:,.0f} it/CPU s (quartiles {q[0]:,.0f} / {q[1]:,.0f} / {q[2]:,.0f}, "
          f"min {min(rates):,.0f}, max {max(rates):,.0f}); {a.budget} s a move buys "
          f"{a.budget * m:,.0f} iterations on average (median position {a.budget * q[1]:,.0f}); "
          f"load average {os.getloadavg()[0]:.2f}")


def compare(game, a):
    from krazy_core.bots import _option_value
    opts = {k: _option_value(v) for k, _, v in (p.partition("=") for p in a.variant.split(":"))}
    pos = positions(game, a.players, a.positions, a.every, a.seed)
    secs = {"default": 0.0, "variant": 0.0}
    iters = {"default": 0, "variant": 0}
    for rep in range(a.repeats):
        for i, st in enumerate(pos):
            for name, o in (("default", {}), ("variant", opts)) if (rep + i) % 2 == 0 else \
                    (("variant", opts), ("default", {})):
                t = time.process_time()
                r = search(st, iterations=a.iterations, seed=i, **o)
                secs[name] += time.process_time() - t
                iters[name] += r.iterations
    rd, rv = iters["default"] / secs["default"], iters["variant"] / secs["variant"]
    print(f"{a.game} {a.players}p, {len(pos)} positions x {a.repeats}, {a.iterations} iterations each, "
          f"interleaved: defaults {rd:,.0f} it/CPU s, {a.variant} {rv:,.0f} it/CPU s, ratio "
          f"{rv / rd:.3f}; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
