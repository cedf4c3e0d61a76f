"""Bot levels rated per game: a seeded round robin of the levels, openskill ratings and the
head-to-head record of each level against the one below it (issue 29, item 6).

    python benches/levels.py [--games 200] [--seed 20261203] [--only krazy-kings,kings-rummy]
        [--pairs all|adjacent] [--workers 1] [--markdown] [--json out.json]

Per game, the levels of :mod:`krazy_core.bots.levels` (easy, normal, hard) meet in a
tournament of :func:`krazy_core.runs.tournament.run_tournament`: duplicate deals (deal d is played
at every table in each rotation of its seats, so each level holds the same cards in every
seat), 2-player tables (KrassKariert, 3-5 players: 3), ratings from openskill fed game by
game.  ``--pairs all`` is the full round robin (every 2 of the levels; at 3 seats every 3);
``--pairs adjacent`` only the tables of two levels next to each other (easy-normal,
normal-hard; at 3 seats each of the two in one seat and two seats: ``[a, a, b]``
and ``[a, b, b]``), which spends the budget on the comparisons the levels promise and, at
KrassKariert, makes every game decide between the two (one of them is the loser).  ``--games`` is per pair of adjacent levels (the games
they share), rounded up to whole deals.

The head-to-head row "B over A" counts, over the games A and B shared, how often B scored
above A (a tie a half; a level in two seats scores their mean; with ``--pairs all``, a
KrassKariert game where a third level lost is a tie), with a
95% Wilson interval; "met" when its lower bound is above 50%.  The Wilson interval treats
the games as independent; duplicate deals make the two seatings of a deal anti-correlated
(the luck of the cards cancels), so the interval is if anything wide.

The rummy games are played as slices of their rounds (KR-16, CR-16 options, as
``strength_table.py``) to fit a bounded run; the slice is printed with each game.
Budgets are iterations, so a loaded machine changes the time taken, not the result.
"""
import argparse
import json
import sys
import time

import krazy_core
from krazy_core.runs.jobs import wilson_interval
from krazy_core.bots.levels import LEVELS, LEVEL_NAMES
from krazy_core.game import get_spec
from krazy_core.runs.tournament import run_tournament

# Slices of the long rummy games (KR-16 / CR-16) so that a round robin with searched seats
# fits in minutes.  Middle rounds: Kings Rummy hands of 7-9 cards, Crazy Rummy contract 3.
GAME_OPTIONS = {
    "kings-rummy": {"first_round": 5, "rounds": 3},
    "contract-rummy": {"first_round": 3, "rounds": 1},
}


def tables_for(k: int, seats: int, pairs: str):
    """The tables of ``k`` levels at ``seats`` seats: every ``seats`` of them (``all``), or
    (``adjacent``) for each two neighbouring levels ``a, b`` the tables of only those two,
    ``a`` in 1 .. seats-1 of the seats and ``b`` in the rest (2 seats: ``[a, b]``; 3 seats:
    ``[a, a, b]`` and ``[a, b, b]``, so at KrassKariert one of the two is always the loser
    and equal levels would score 50% over the two tables)."""
    if pairs == "all":
        return None                          # run_tournament's default: plan_tables
    return [[i] * j + [i + 1] * (seats - j) for i in range(k - 1) for j in range(seats - 1, 0, -1)]


def rate_game(gid, games, seed, pairs, workers, levels):
    spec = get_spec(gid)
    seats = max(2, spec.min_players)
    opts = GAME_OPTIONS.get(gid, {})
    game = krazy_core.make(gid, num_players=seats, **opts)
    tables = tables_for(len(levels), seats, pairs)
    # games per adjacent pair -> games in all: one deal gives a pair `per_deal` shared games
    from krazy_core.runs.jobs import duplicate_block
    from krazy_core.runs.tournament import plan_tables
    tabs = tables if tables is not None else plan_tables(len(levels), seats)
    block = duplicate_block(tabs)
    per_deal = sum(1 for t, _ in block if 0 in tabs[t] and 1 in tabs[t])
    deals = -(-games // per_deal)
    total = deals * len(block)
    done = [0]
    t0 = time.perf_counter()
    last = [0.0]

    def progress(k):
        done[0] += k
        now = time.perf_counter() - t0
        if now - last[0] >= 10 or done[0] >= total:
            last[0] = now
            eta = now / done[0] * (total - done[0]) if done[0] else 0
            print(f"  {gid}: {done[0]}/{total} games, {now:.0f} s, about {eta:.0f} s to go",
                  file=sys.stderr, flush=True)

    t = run_tournament(game, list(levels), total, seed=seed, workers=workers, tables=tables,
                       progress=progress)
    rows = []
    mus = {w: (mu, (hi - lo) / 3.92) for w, mu, lo, hi in t.ratings()}
    for i, lv in enumerate(levels):
        mu, sigma = mus[lv]
        rows.append({"level": lv, "bot": LEVELS.get(lv, lv), "mu": mu, "sigma": sigma,
                     "ordinal": mu - 3 * sigma, "games": t.played[i],
                     "mean_score": t.mean_score(i)})
    heads = []
    for i in range(len(levels) - 1):
        lo_i, hi_i = i, i + 1
        n = t.pair_games[hi_i][lo_i]
        w = t.pair_wins[hi_i][lo_i]
        a, b = wilson_interval(w, n)
        heads.append({"upper": levels[hi_i], "lower": levels[lo_i], "games": n, "wins": w,
                      "rate": w / n if n else 0.0, "lo": a, "hi": b, "met": a > 0.5})
    return {"game": gid, "players": seats, "options": opts, "pairs": pairs, "seed": seed,
            "games": t.games, "deals": deals, "seconds": round(t.seconds, 1),
            "ratings": rows, "head_to_head": heads}


def print_game(r, out=sys.stdout):
    """One game's table (Markdown): each level's rating and its record against the level
    below."""
    opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
    print(f"\n{r['game']}{f' ({opts})' if opts else ''}, {r['players']} players: {r['games']} games "
          f"({r['deals']} duplicate deals, {r['pairs']} pairs, seed {r['seed']}, {r['seconds']:.0f} s)\n",
          file=out)
    print("| level | bot | rating mu ± sigma | ordinal | wins over the level below | 95% interval | games | above 50% |",
          file=out)
    print("|---|---|---:|---:|---:|---|---:|---|", file=out)
    below = {h["upper"]: h for h in r["head_to_head"]}
    for x in r["ratings"]:
        h = below.get(x["level"])
        rec = (f"{h['rate']:.1%} | {h['lo']:.1%}-{h['hi']:.1%} | {h['games']} | "
               f"{'yes' if h['met'] else 'NO'}") if h else "- | - | - | -"
        print(f"| {x['level']} | `{x['bot']}` | {x['mu']:.1f} ± {x['sigma']:.1f} | "
              f"{x['ordinal']:.1f} | {rec} |", file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per pair of adjacent levels")
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--only", default=None, help="comma-separated game ids (default: all)")
    ap.add_argument("--pairs", choices=("all", "adjacent"), default="all")
    ap.add_argument("--levels", default=",".join(LEVEL_NAMES),
                    help="comma-separated levels, weakest first (a bot word stands for itself: "
                         "trying a configuration)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the results here (JSON lines, appended)")
    ap.add_argument("--report", default=None, metavar="FILE.jsonl",
                    help="print the tables of results written by --json, play nothing")
    args = ap.parse_args(argv)
    if args.report:
        with open(args.report) as f:
            for line in f:
                if line.strip():
                    print_game(json.loads(line))
        return
    games = args.only.split(",") if args.only else krazy_core.available_games()
    levels = [w.strip() for w in args.levels.split(",")]
    for gid in games:
        r = rate_game(gid, args.games, args.seed, args.pairs, args.workers, levels)
        r["levels"] = {lv: LEVELS.get(lv, lv) for lv in levels}
        print_game(r)
        sys.stdout.flush()
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
