"""Our ISMCTSBot against OpenSpiel's own Python ``ISMCTSBot`` on our games, at the same
wall time per move (issue 14, item 3).

    pip install '.[openspiel]'
    python benches/openspiel_ismcts.py --seconds 0.1 --minutes 40 --out benches/openspiel_ismcts.jsonl
    python benches/openspiel_ismcts.py --summary benches/openspiel_ismcts.jsonl
    python benches/openspiel_ismcts.py --whole --seconds 0.2 --only kings-rummy --games 20 --minutes 60
    python benches/openspiel_ismcts.py --summary benches/openspiel_ismcts_whole.jsonl

OpenSpiel's bot plays through ``krazy_core.envs.openspiel`` (our games registered as pyspiel
Python games), with its ``RandomRolloutEvaluator`` (one random rollout per simulation),
UCT c = 0.7, ``allow_inconsistent_action_sets=True``, and a time budget: it runs
simulations until the root has a visit (two, the first expands it) and ``--seconds`` have passed, through its own
``sample_root_state`` / ``run_simulation`` / ``get_final_policy``.  Ours is
``krazy_core.bots.ISMCTSBot(time_limit=--seconds)`` with the game's default search options.
Each game: 2 players (KrassKariert: 3, its smallest table: ours in one seat, OpenSpiel's in
the others), seats rotating game by game; the games are played in turn (one Krazy Kings,
one Kings Rummy, ...) until ``--games`` each or ``--minutes`` run out, so a bounded run
covers every game.  The rummy games are one round (``rounds=1``) so a game takes minutes,
not hours; ``--whole`` plays whole games instead (every game's default options: all 11
rounds of Kings Rummy, all 7 of Crazy Rummy) and appends to
``benches/openspiel_ismcts_whole.jsonl`` unless ``--out`` says otherwise.  ``--only`` picks
the game ids (in that order).  Every finished game is appended to ``--out`` as one JSON line
(with its wall time, turns, rounds cut by ``max_turns``, the load average and the commit); a
rerun counts the games the file holds for the same game, seconds and options and goes on
from there.  ``--summary`` prints the table (mean return of our bot with a 95 % Wilson
interval on its win rate), one row per game, seconds and options.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

TABLES = {
    "krazy-kings": (2, {}),
    "kings-rummy": (2, {"rounds": 1}),
    "contract-rummy": (2, {"rounds": 1}),
    "krass-kariert": (3, {}),
}
WHOLE_OUT = "benches/openspiel_ismcts_whole.jsonl"


def table(game_id, whole):
    """(players, options) of a game id's table: one-round slices, or whole games."""
    n, opts = TABLES[game_id]
    return (n, {}) if whole else (n, opts)


def _commit():
    from _provenance import commit      # benches/_provenance.py, beside this script
    return commit()


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((c - h) / d, (c + h) / d)


def make_openspiel_bot(game, seconds, seed):
    from open_spiel.python.algorithms import ismcts, mcts

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTSBot with a wall-time budget instead of a simulation count."""

        def run_search(self, state):
            self.reset()
            legal = state.legal_actions()
            self.sims = 0       # (a one-option move makes none: not the previous move's count)
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            deadline = time.perf_counter() + seconds
            self._root_node = self.create_new_node(state)
            self.sims = 0
            while self._root_node.total_visits <= 0 or time.perf_counter() < deadline:
                self.run_simulation(self.sample_root_state(state))
                self.sims += 1
            node = self.filter_illegals(self._root_node, legal)
            return self.get_final_policy(state, node)

    rs = np.random.RandomState(seed)
    ev = mcts.RandomRolloutEvaluator(1, rs)
    return TimedISMCTSBot(game, ev, 0.7, 1, random_state=rs, allow_inconsistent_action_sets=True)


def play_one(game_id, index, seconds, whole=False):
    import pyspiel
    from krazy_core.bots import ISMCTSBot
    from krazy_core.envs import openspiel as kos
    kos.register()
    n, opts = table(game_id, whole)
    params = ",".join([f"players={n}", f"seed={1000 + index}"] + [f"{k}={v}" for k, v in opts.items()])
    game = pyspiel.load_game(f"{kos.short_name(game_id)}({params})")
    ours_seat = index % n
    ours = ISMCTSBot(time_limit=seconds, seed=index)
    theirs = make_openspiel_bot(game, seconds, 7919 + index)
    state = game.new_initial_state()
    t_ours = t_theirs = 0.0
    m_ours = m_theirs = 0
    sims = 0
    searched = 0            # OpenSpiel's moves with more than one option (the ones it searches)
    over = 0.0              # OpenSpiel's longest move
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    while not state.is_terminal():
        p = state.current_player()
        t = time.perf_counter()
        if p == ours_seat:
            a = ours.step(state.kstate)
            t_ours += time.perf_counter() - t
            m_ours += 1
        else:
            a = theirs.step(state)
            dt = time.perf_counter() - t
            t_theirs += dt
            over = max(over, dt)
            m_theirs += 1
            sims += getattr(theirs, "sims", 0)
            searched += getattr(theirs, "sims", 0) > 0
        state.apply_action(int(a))
    wall = time.perf_counter() - t0
    r = state.returns()
    ks = state.kstate
    stats = ks.stats() if hasattr(ks, "stats") else {}
    return {"game": game_id, "index": index, "players": n, "options": opts, "seconds": seconds,
            "ours_seat": ours_seat, "ours_return": r[ours_seat],
            "theirs_return": sum(r[q] for q in range(n) if q != ours_seat) / (n - 1),
            "ours_win": r[ours_seat] > max(r[q] for q in range(n) if q != ours_seat),
            "theirs_win": max(r[q] for q in range(n) if q != ours_seat) > r[ours_seat],
            "ours_moves": m_ours, "theirs_moves": m_theirs,
            "ours_s_per_move": t_ours / max(1, m_ours), "theirs_s_per_move": t_theirs / max(1, m_theirs),
            "theirs_sims_per_move": sims / max(1, m_theirs), "theirs_searched_moves": searched,
            "theirs_sims_per_searched_move": sims / max(1, searched), "theirs_longest_move": round(over, 3),
            "turns": stats.get("turns"), "turn_limit": bool(stats.get("turn_limit")),
            "turn_limit_rounds": stats.get("turn_limit_rounds"), "wall_seconds": round(wall, 2),
            "load_start": [round(v, 2) for v in load0], "load_end": [round(v, 2) for v in os.getloadavg()],
            "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": _commit()}


def summary(path):
    rows = [json.loads(line) for line in open(path)]
    print("| game | players | games | our mean return | OpenSpiel ISMCTS mean return | our win rate (95 % CI) | "
          "s/move ours / theirs | OpenSpiel sims/move |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    groups = {}
    for x in rows:        # one row per game, seconds and options (old files: one-round slices)
        groups.setdefault((x["game"], x["seconds"], json.dumps(x["options"], sort_keys=True)), []).append(x)
    order = list(TABLES)
    extra = []
    for (g, sec, opts), rs in sorted(groups.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1], kv[0][2])):
        n = len(rs)
        name = g if not rs[0]["options"] else g + " (" + ", ".join(f"{k}={v}" for k, v in rs[0]["options"].items()) + ")"
        if len(groups) > len({k[0] for k in groups}) or sec != 0.1:
            name += f", {sec} s"
        if "wall_seconds" in rs[0]:
            ws = [x["wall_seconds"] for x in rs if "wall_seconds" in x]
            ld = [x["load_start"][0] for x in rs if "load_start" in x] + [x["load_end"][0] for x in rs if "load_end" in x]
            extra.append(f"{name}: {n} games, {sum(x['ours_win'] for x in rs)} won, "
                         f"{sum(x['theirs_win'] for x in rs)} lost, {np.mean(ws):.0f} s a game "
                         f"({min(ws):.0f}-{max(ws):.0f}), {np.mean([x['ours_moves'] + x['theirs_moves'] for x in rs]):.0f} moves a game, "
                         + (f"OpenSpiel sims per searched move {np.mean(ss):.1f} (over {len(ss)} games), "
                            if (ss := [x["theirs_sims_per_searched_move"] for x in rs
                                       if "theirs_sims_per_searched_move" in x]) else "")
                         + f"OpenSpiel's longest move {max(x.get('theirs_longest_move', 0) for x in rs):.2f} s, "
                         f"turn-capped games {sum(bool(x.get('turn_limit')) for x in rs)}, "
                         f"load 1-min {min(ld):.2f}/{np.mean(ld):.2f}/{max(ld):.2f}, "
                         f"{min(x['finished_utc'] for x in rs)} .. {max(x['finished_utc'] for x in rs)}, "
                         f"commits {', '.join(sorted({str(x.get('commit')) for x in rs}))}")
        if rs[0]["players"] == 2:
            wins = sum(x["ours_win"] for x in rs)
            lo, hi = wilson(wins, n)
            rate = f"{wins / n:.2f} ({lo:.2f}-{hi:.2f})"
        else:          # KrassKariert: a return of 1 is not losing (the one loser gets 0)
            wins = sum(x["ours_return"] >= 1.0 for x in rs)
            lo, hi = wilson(wins, n)
            rate = f"not losing {wins / n:.2f} ({lo:.2f}-{hi:.2f}); equal play 0.67"
        print(f"| {name} | {rs[0]['players']} | {n} | {np.mean([x['ours_return'] for x in rs]):.3f} | "
              f"{np.mean([x['theirs_return'] for x in rs]):.3f} | {rate} | "
              f"{np.mean([x['ours_s_per_move'] for x in rs]):.3f} / {np.mean([x['theirs_s_per_move'] for x in rs]):.3f} | "
              f"{np.mean([x['theirs_sims_per_move'] for x in rs]):.1f} |")
    for line in extra:
        print("\n" + line)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.1, help="wall time per move, each bot")
    ap.add_argument("--games", type=int, default=200, help="games per game id (at most)")
    ap.add_argument("--minutes", type=float, default=30.0, help="stop starting games after this")
    ap.add_argument("--only", default=",".join(TABLES), help="comma-separated game ids")
    ap.add_argument("--whole", action="store_true", help="whole games (every game's default options), "
                    f"not one-round slices; default --out {WHOLE_OUT}")
    ap.add_argument("--out", default=None, help="JSONL file (default benches/openspiel_ismcts.jsonl; "
                    f"with --whole {WHOLE_OUT})")
    ap.add_argument("--summary", metavar="JSONL", help="print the table of a finished run")
    args = ap.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return 0
    if args.out is None:
        args.out = WHOLE_OUT if args.whole else "benches/openspiel_ismcts.jsonl"
    games = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = [g for g in games if g not in TABLES]
    if unknown or not games:
        ap.error(f"--only: unknown game id(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(TABLES)}")
    done = {g: 0 for g in games}
    if os.path.exists(args.out):
        for line in open(args.out):
            x = json.loads(line)
            if (x["game"] in done and x["seconds"] == args.seconds
                    and x["options"] == table(x["game"], args.whole)[1]):
                done[x["game"]] += 1
    stop = time.monotonic() + 60 * args.minutes
    while time.monotonic() < stop and any(done[g] < args.games for g in games):
        for g in games:
            if done[g] >= args.games or time.monotonic() >= stop:
                continue
            row = play_one(g, done[g], args.seconds, args.whole)
            with open(args.out, "a") as f:
                f.write(json.dumps(row) + "\n")
            done[g] += 1
            print(f"{g} #{done[g]}: ours {row['ours_return']:.2f} theirs {row['theirs_return']:.2f} "
                  f"({row['ours_moves']}+{row['theirs_moves']} moves, {row['wall_seconds']:.0f} s, "
                  f"{row['ours_s_per_move']:.3f} / {row['theirs_s_per_move']:.3f} s/move, "
                  f"{row['theirs_sims_per_move']:.1f} sims, longest {row['theirs_longest_move']:.2f} s"
                  f"{', TURN LIMIT' if row['turn_limit'] else ''})", flush=True)
    summary(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
