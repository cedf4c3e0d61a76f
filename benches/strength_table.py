"""ISMCTS strength for every game: the table of issue 6, section 2.

    python benches/strength_table.py --games 200 --workers 2 [--only krazy-kings,kings-rummy]
        [--bot ismcts:2000] [--markdown] [--json out.json]
    python benches/strength_table.py --whole --bot ismcts:0.2s --matchups 0,2 --games 20 \
        --minutes 60 --only kings-rummy --out benches/strength_whole.jsonl
    python benches/strength_table.py --summary benches/strength_whole.jsonl

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

``--whole`` plays every game with its default options instead (all rounds: whole games).
``--out FILE.jsonl`` plays the games one by one in this process (the same seeded games as
the arena: game g dealt from seed + g, seats rotated, bots seeded as ``krazy simulate``
seeds them) and appends each finished game to FILE as one JSON line (returns, moves and
seconds per move of the ISMCTS seat and of the others, turns, rounds cut by ``max_turns``,
the load average, the commit), so an interrupted run keeps its games; a rerun skips the
games FILE already holds for the same row (game, players, opponent, bot, options, seed).
``--minutes`` stops starting games after that long (with ``--out``); ``--summary FILE``
prints the table of the rows in FILE.  ``--whole`` without ``--out`` writes to
``benches/strength_whole.jsonl``.  Time budgets (``--bot ismcts:0.2s``) make the games
depend on the machine's speed and load, so they do not reproduce bit for bit.
"""
import argparse
import json
import os
import sys
import time

import krazy_core
from krazy_core.bots import make_bot
from krazy_core.runs.arena import run_arena
from krazy_core.runs.jobs import make_job, seating, wilson_interval
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


def _commit():
    from _provenance import commit      # benches/_provenance.py, beside this script
    return commit()


def _row_key(x):
    return (x["game"], x["players"], x["opponent"], x["bot"],
            json.dumps(x["options"], sort_keys=True), x["seed"])


def play_logged(game_id, players, opponent, bot, games, seed, options, out, stop):
    """Play games 0 .. games-1 of a row one by one (the arena's seating and seeds, this
    process), appending each finished game to ``out``; skip those ``out`` holds already;
    stop starting games at ``time.monotonic() >= stop``.  Returns the row's games in ``out``."""
    game = krazy_core.make(game_id, num_players=players, **options)
    entries = [bot] + [opponent] * (players - 1)
    for w in set(entries):
        make_bot(w, seed=0).check_game(game)
    job = make_job(game, {"schedule": "rotate", "entries": entries, "rotate": True}, games, seed)
    key = (game_id, players, opponent, bot, json.dumps(options, sort_keys=True), seed)
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            for line in f:
                x = json.loads(line)
                if _row_key(x) == key:
                    done.add(x["index"])
    commit = _commit()
    for g in range(games):
        if g in done:
            continue
        if time.monotonic() >= stop:
            break
        idx, words, deal, base = seating(job, g)
        seat = idx.index(0)                     # the ISMCTS entry's seat in game g
        bots = [make_bot(w, seed=base * 31 + i) for i, w in enumerate(words)]   # as play_game
        state = game.new_initial_state(seed=deal)
        t_s = [0.0] * players
        m_s = [0] * players
        load0 = os.getloadavg()
        t0 = time.perf_counter()
        while not state.is_terminal():
            p = state.current_player()
            t = time.perf_counter()
            a = bots[p].step(state)
            t_s[p] += time.perf_counter() - t
            m_s[p] += 1
            state.apply_action(a)
        wall = time.perf_counter() - t0
        ret = [float(x) for x in state.returns()]
        stats = state.stats() if hasattr(state, "stats") else {}
        others = [q for q in range(players) if q != seat]
        row = {"game": game_id, "players": players, "opponent": opponent, "bot": bot,
               "options": options, "seed": seed, "index": g, "deal_seed": deal,
               "ours_seat": seat, "returns": ret, "ours_return": ret[seat],
               "ours_moves": m_s[seat], "others_moves": sum(m_s[q] for q in others),
               "ours_seconds": t_s[seat], "others_seconds": sum(t_s[q] for q in others),
               "ours_s_per_move": t_s[seat] / max(1, m_s[seat]),
               "others_s_per_move": sum(t_s[q] for q in others) / max(1, sum(m_s[q] for q in others)),
               "turns": stats.get("turns"), "turn_limit": bool(stats.get("turn_limit")),
               "turn_limit_rounds": stats.get("turn_limit_rounds"),
               "wall_seconds": round(wall, 2), "load_start": [round(v, 2) for v in load0],
               "load_end": [round(v, 2) for v in os.getloadavg()],
               "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit}
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"{game_id} {players}p vs {opponent} #{g}: ours {ret[seat]:.2f} (seat {seat}), "
              f"{sum(m_s)} moves, {wall:.0f} s, {row['ours_s_per_move']:.3f} / "
              f"{row['others_s_per_move']:.3f} s/move, load {load0[0]:.2f}"
              f"{', TURN LIMIT' if row['turn_limit'] else ''}", file=sys.stderr, flush=True)
    with open(out) as f:
        return [x for x in map(json.loads, f) if _row_key(x) == key]


def summarize(rows_in):
    """One table row per (game, players, opponent, bot, options, seed) of logged games."""
    groups = {}
    for x in rows_in:
        groups.setdefault(_row_key(x), []).append(x)
    out = []
    for key, xs in groups.items():
        n = len(xs)
        players = xs[0]["players"]
        score = sum(x["ours_return"] for x in xs)
        fair = sum(sum(x["returns"]) for x in xs) / n / players
        lo, hi = wilson_interval(score, n)
        rate = score / n
        loads = [x["load_start"][0] for x in xs] + [x["load_end"][0] for x in xs]
        out.append({"game": xs[0]["game"], "players": players, "opponent": xs[0]["opponent"],
                    "bot": xs[0]["bot"], "options": xs[0]["options"], "seed": xs[0]["seed"],
                    "games": n, "score": score, "rate": rate, "lo": lo, "hi": hi, "fair": fair,
                    "share": rate / fair if fair else 0.0,
                    # outright wins (KrassKariert: games not lost); shared wins count in "score" only
                    "wins": sum(x["ours_return"] >= 1.0 - 1e-9 for x in xs),
                    "ours_s_per_move": sum(x["ours_seconds"] for x in xs) / max(1, sum(x["ours_moves"] for x in xs)),
                    "others_s_per_move": sum(x["others_seconds"] for x in xs) / max(1, sum(x["others_moves"] for x in xs)),
                    "seconds_per_game": sum(x["wall_seconds"] for x in xs) / n,
                    "seconds": round(sum(x["wall_seconds"] for x in xs), 1),
                    "moves_per_game": sum(x["ours_moves"] + x["others_moves"] for x in xs) / n,
                    "turn_limit_games": sum(x["turn_limit"] for x in xs),
                    "load": (min(loads), sum(loads) / len(loads), max(loads)),
                    "commits": sorted({str(x.get("commit")) for x in xs}),
                    "first_utc": min(x["finished_utc"] for x in xs),
                    "last_utc": max(x["finished_utc"] for x in xs)})
    return out


def print_summary(rows):
    print("| game | players | opponents | games | ISMCTS mean return | 95% interval | x fair share "
          "| s/move ours / theirs | s per game | turn-capped games | load 1-min (min/mean/max) |")
    print("|---|---:|---|---:|---:|---|---:|---|---:|---:|---|")
    for r in rows:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        name = r["game"] + (f" ({opts})" if opts else " (whole)")
        opp = r["opponent"] if r["players"] == 2 else f"{r['players'] - 1} x {r['opponent']}"
        lmin, lmean, lmax = r["load"]
        print(f"| {name} | {r['players']} | {opp} | {r['games']} | {r['rate']:.3f} | "
              f"{r['lo']:.1%}-{r['hi']:.1%} | {r['share']:.2f} | {r['ours_s_per_move']:.3f} / "
              f"{r['others_s_per_move']:.4f} | {r['seconds_per_game']:.0f} | {r['turn_limit_games']} | "
              f"{lmin:.2f} / {lmean:.2f} / {lmax:.2f} |")
    for r in rows:
        print(f"\n{r['game']} {r['players']}p vs {r['opponent']}: {r['bot']}, seed {r['seed']}, "
              f"{r['games']} games, {r['wins']} won outright, returns {r['score']:.2f}, fair share {r['fair']:.3f}, "
              f"{r['moves_per_game']:.0f} moves a game, {r['seconds']:.0f} s of play, "
              f"{r['first_utc']} .. {r['last_utc']}, commits {', '.join(r['commits'])}")


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
    ap.add_argument("--whole", action="store_true",
                    help="whole games: every game's default options (all rounds), not GAME_OPTIONS' slices")
    ap.add_argument("--out", default=None, help="play in this process, appending each finished game "
                    "to this JSONL file (default with --whole: benches/strength_whole.jsonl)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="with --out: stop starting games after this many minutes")
    ap.add_argument("--summary", metavar="JSONL", help="print the table of the games in a JSONL file")
    args = ap.parse_args(argv)
    if args.summary:
        with open(args.summary) as f:
            print_summary(summarize([json.loads(line) for line in f]))
        return
    if args.whole and args.out is None:
        args.out = "benches/strength_whole.jsonl"
    stop = time.monotonic() + (60 * args.minutes if args.minutes is not None else float("inf"))
    games = args.only.split(",") if args.only else krazy_core.available_games()
    for gid in games:
        get_spec(gid)                           # an unknown id fails here, before any game
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
            options = {} if args.whole else GAME_OPTIONS.get(gid, {})
            if args.out:
                if time.monotonic() >= stop:
                    break
                logged = play_logged(gid, players, opp, args.bot, args.games, args.seed, options,
                                     args.out, stop)
                if not logged:
                    continue
                r = summarize(logged)[0]
            else:
                r = measure(gid, players, opp, args.bot, args.games, args.seed, args.workers, options)
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
