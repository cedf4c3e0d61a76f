"""Throughput of the backends of krazy tournament / simulate / selfplay (issue 17).

    pip install '.[ray,tournament,selfplay]' && python benches/runs_throughput.py [--json out.json]

Measured side by side in one run: for each Ray cluster size the local-process runs and the
Ray runs of the same job alternate (``--repeats`` times), so machine noise hits both, and
the table gives medians and the ratio Ray / local.  The clusters: ``ray.init(num_cpus=1)``,
``num_cpus=2`` and ``num_cpus=8`` (more workers than the machine's cores: the scheduling
path), where a run with one worker killed mid-batch (the fault path) is timed too.

Workloads (krazy-kings, 4 players, tournaments over duplicate deals):
  search  — bots heuristic, ismcts:20, ismcts:20:rollout=random, random; 96 games, batches of 8
  cheap   — bots heuristic, random; 4000 games, batches of 250 (per-batch overhead shows)
  selfplay — ismcts:20 at every seat, 24 games, shards of 4 games: decisions written per second
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import krazy_core  # noqa: E402
from krazy_core.runs.runner import InlineRunner, LocalRunner, RayRunner, ray_init  # noqa: E402
from krazy_core.runs.tournament import run_tournament  # noqa: E402

GAME = krazy_core.make("krazy-kings")
WORK = {
    "search": (["heuristic", "ismcts:20", "ismcts:20:rollout=random", "random"], 96, 8),
    "cheap": (["heuristic", "random"], 4000, 250),
}


def games_per_s(runner, work, fault=None):
    bots, games, batch = WORK[work]
    t0 = time.perf_counter()
    t = run_tournament(GAME, bots, games, seed=7, runner=runner, batch_size=batch, fault=fault)
    dt = time.perf_counter() - t0
    return t.games / dt, t.fingerprint()


def selfplay_rate(runner):
    from krazy_core.runs.selfplay import run_selfplay
    with tempfile.TemporaryDirectory() as d:
        s = run_selfplay(GAME, "ismcts:20", 24, out=os.path.join(d, "sp"), seed=3, batch_size=4, runner=runner)
    return s.decisions_per_second


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import ray
    rows = []
    finger = {}

    def record(name, work, samples):
        rows.append({"config": name, "work": work, "median": statistics.median(samples), "samples": samples})

    # in this process, for scale
    for work in WORK:
        s = []
        for _ in range(args.repeats):
            v, fp = games_per_s(InlineRunner(), work)
            s.append(v)
            finger.setdefault(work, fp)
        record("in-process", work, s)

    for cpus in (1, 2, 8):
        t0 = time.perf_counter()
        ray_init(num_cpus=cpus)
        start = time.perf_counter() - t0
        ray_r = RayRunner()
        rows.append({"config": f"ray cluster start (num_cpus={cpus})", "work": "-", "median": start, "samples": [start]})
        for work in WORK:
            loc, ry = [], []
            for _ in range(args.repeats):
                with LocalRunner(min(cpus, 8)) as lr:
                    v, fp = games_per_s(lr, work)
                assert fp == finger[work], "local result differs"
                loc.append(v)
                v, fp = games_per_s(ray_r, work)
                assert fp == finger[work], "Ray result differs"
                ry.append(v)
            record(f"local {cpus} workers", work, loc)
            record(f"ray {cpus} workers", work, ry)
        if cpus == 8:
            ok, hit = [], []
            for i in range(args.repeats):
                v, _ = games_per_s(ray_r, "search")
                ok.append(v)
                with tempfile.TemporaryDirectory() as d:
                    v, fp = games_per_s(ray_r, "search", fault=(3, os.path.join(d, "killed")))
                assert fp == finger["search"], "result after a kill differs"
                hit.append(v)
            record("ray 8 workers, no fault", "search", ok)
            record("ray 8 workers, one worker killed", "search", hit)
        if cpus == 2:
            sl, sr, s1 = [], [], []
            for _ in range(args.repeats):
                s1.append(selfplay_rate(InlineRunner()))
                with LocalRunner(2) as lr:
                    sl.append(selfplay_rate(lr))
                sr.append(selfplay_rate(ray_r))
            record("in-process", "selfplay", s1)
            record("local 2 workers", "selfplay", sl)
            record("ray 2 workers", "selfplay", sr)
        ray_r.close()
        ray.shutdown()

    base = {(r["config"].replace("ray", "local"), r["work"]): r["median"] for r in rows if r["config"].startswith("local")}
    print(f"krazy-kings 4p, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; medians of {args.repeats}")
    print("| backend | workload | games/s (selfplay: decisions/s) | ray / local |")
    print("|---|---|---:|---:|")
    for r in rows:
        if r["work"] == "-":
            print(f"| {r['config']} | — | {r['median']:.1f} s | |")
            continue
        ratio = ""
        if r["config"].startswith("ray") and (r["config"].replace("ray", "local"), r["work"]) in base:
            ratio = f"{r['median'] / base[(r['config'].replace('ray', 'local'), r['work'])]:.2f}"
        print(f"| {r['config']} | {r['work']} | {r['median']:,.1f} | {ratio} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
