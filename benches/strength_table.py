"""ISMCTS strength for every game: the table of issue 6, section 2.

    python benches/strength_table.py --games 200 --workers 2 [--only krazy-kings,kings-rummy]
        [--bot ismcts:2000] [--markdown] [--json out.json]

For each game: ISMCTS against one HeuristicBot (2 players), against one RandomBot (2
players), and against three HeuristicBots (4 players).  The same seeded games as
``krazy simulate GAME --players N --bots ISMCTS,heuristic --games G --seed S`` (the arena
of ``krazy_core.runs.arena``: game g dealt from seed + g, seats rotated).  A game's score is the
ISMCTS seat's return (1 a win, 1/k a k-way shared win; KrassKariert: 1 unless it loses).
Win rates with 95% Wilson intervals, the fair share and the ratio to it, beside the targets
(2 players: >= 65% vs heuristic, >= 90% vs random; 4 players: >= 1.6x the fair share).
KrassKariert (3..5 players, a loser game: everyone but the loser scores 1) plays its
3-player table for the 2-player rows; its "wins" are games not lost (fair share (n-1)/n),
shown without a target (a 4-player "1.6x the fair share" would be above 100%).

Budgets are iterations, so a loaded machine changes the time taken, not the result.  The
rummy games are long (11 and 7 rounds of many turns): ``GAME_OPTIONS`` plays a slice of
them (KR-16, CR-16) to keep the run affordable; the slice is printed with each row.
"""
import argparse
import json
import sys
import time

import krazy_core
from krazy_core.runs.arena import run_arena
from krazy_core.game import get_spec

# Slices of the long rummy games (KR-16 / CR-16 options) so that hundreds of searched games
# fit in minutes.  Middle rounds: hands of 7-9 cards (Kings Rummy), contracts 3-4 (Crazy Rummy).
GAME_OPTIONS = {
    "kings-rummy": {"first_round": 5, "rounds": 3},
    "contract-rummy": {"first_round": 3, "rounds": 2},
}
MATCHUPS = (  # (players, opponent, target kind, target)
    (2, "heuristic", "rate", 0.65),
    (2, "random", "rate", 0.90),
    (4, "heuristic", "share", 1.6),
)


def measure(game_id, players, opponent, bot, games, seed, workers, options):
    game = krazy_core.make(game_id, num_players=players, **options)
    res = run_arena(game, [bot] + [opponent] * (players - 1), games=games, seed=seed,
                    workers=workers)
    lo, hi = res.interval(0)
    # equal bots would share the returns evenly: 1/n of a win (KrassKariert: (n-1)/n, as
    # everyone but the loser scores 1)
    fair = sum(res.wins) / res.games / players
    return {"game": game_id, "players": players, "opponent": opponent, "bot": bot,
            "options": options, "games": games, "score": res.wins[0],
            "rate": res.win_rate(0), "lo": lo, "hi": hi, "fair": fair,
            "share": res.win_rate(0) / fair, "seconds": round(res.seconds, 1),
            "turn_limit_games": res.turn_limit_games}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--bot", default="ismcts:2000", help="the ISMCTS bot word (krazy --bots syntax)")
    ap.add_argument("--only", default=None, help="comma-separated game ids")
    ap.add_argument("--matchups", default="0,1,2", help="which rows: 0 = 2p vs heuristic, "
                    "1 = 2p vs random, 2 = 4p vs 3 heuristics")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    games = args.only.split(",") if args.only else krazy_core.available_games()
    picks = [MATCHUPS[int(i)] for i in args.matchups.split(",")]
    rows = []
    t0 = time.perf_counter()
    for gid in games:
        spec = get_spec(gid)
        for players, opp, kind, target in picks:
            if players < spec.min_players:
                # KrassKariert is for 3..5: its smallest table instead, and no target (a
                # loser game's returns are not comparable with a 2-player win rate)
                players, kind, target = spec.min_players, None, None
            r = measure(gid, players, opp, args.bot, args.games, args.seed, args.workers,
                        GAME_OPTIONS.get(gid, {}))
            if gid == "krass-kariert":
                kind = target = None    # see the docstring: games not lost, no target
            r["target_kind"], r["target"] = kind, target
            if kind is None:
                r["met"] = None
            else:
                r["met"] = (r["rate"] >= target) if kind == "rate" else (r["share"] >= target)
            rows.append(r)
            print(f"{gid} {players}p vs {opp}: {r['score']:.1f}/{r['games']} = {r['rate']:.1%} "
                  f"[{r['lo']:.1%}, {r['hi']:.1%}] {r['share']:.2f}x fair; "
                  f"{'-' if r['met'] is None else 'met' if r['met'] else 'MISSED'}; {r['seconds']} s",
                  file=sys.stderr, flush=True)
    if args.markdown:
        print(f"{args.bot}, {args.games} seeded games per row (seed {args.seed}), seats rotated; "
              f"{time.perf_counter() - t0:.0f} s\n")
        print("| game | players | opponents | ISMCTS wins | 95% interval | x fair share | target | met |")
        print("|---|---:|---|---:|---|---:|---|---|")
        for r in rows:
            opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
            name = r["game"] + (f" ({opts})" if opts else "")
            tgt = ("-" if r["target_kind"] is None else f">= {r['target']:.0%}"
                   if r["target_kind"] == "rate" else f">= {r['target']}x")
            met = "-" if r["met"] is None else "yes" if r["met"] else "NO"
            opp = r["opponent"] if r["players"] == 2 else f"{r['players'] - 1} x {r['opponent']}"
            print(f"| {name} | {r['players']} | {opp} | {r['rate']:.1%} | {r['lo']:.1%}-{r['hi']:.1%} "
                  f"| {r['share']:.2f} | {tgt} | {met} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
