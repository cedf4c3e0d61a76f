#!/usr/bin/env python
"""Two builds of krazy_core side by side: rows of compare_peers.py (our side), interleaved.

    python benches/compare_builds.py OLD_TREE NEW_TREE                 # the Python-API row (a)
    python benches/compare_builds.py OLD NEW --only api,clone --rounds 6

Each TREE is a checkout with its own in-place build (``python setup.py build_ext --inplace``;
e.g. one normal, one ``KRAZY_LIMITED_API=0x030B0000``).  A round runs
``TREE/benches/compare_peers.py --only ROWS --repeats R`` once per tree in a fresh process,
in the order old, new, new, old, ... so load from other processes hits both; the report is
the median of every sample of each build and the ratio new / old, with the per-round ratios.
``--one-script``: both builds run *NEW_TREE's* ``compare_peers.py`` (it imports the build of
the tree named by ``KRAZY_TREE``), so a change to the script between the two trees is no
confound.  Used for the abi3 (limited API) measurement and issue 12's old-vs-new table in
benches/README.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run_tree(tree, only, repeats, seconds, script_tree=None):
    """One fresh process of ``compare_peers.py`` (``script_tree``'s, default ``tree``'s own)
    measuring ``tree``'s build: the samples of each row, our side."""
    script = os.path.join(os.path.abspath(script_tree or tree), "benches", "compare_peers.py")
    env = dict(os.environ, KRAZY_TREE=os.path.abspath(tree))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        subprocess.run([sys.executable, script, "--only", only] + (["--ours-only"] if script_tree else []) + [
                        "--repeats", str(repeats), "--seconds", str(seconds), "--json", out],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tree, env=env)
        with open(out) as f:
            rows = json.load(f)["rows"]
    return {r["key"]: r["ours"]["samples"] for r in rows if r.get("ours") and "samples" in r["ours"]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--only", default="api", help="compare_peers.py rows (default: api)")
    ap.add_argument("--rounds", type=int, default=4, help="runs of each build, interleaved (default 4)")
    ap.add_argument("--repeats", type=int, default=3, help="measurements per run (default 3)")
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one measurement (default 1 s)")
    ap.add_argument("--one-script", action="store_true",
                    help="run NEW's compare_peers.py against both builds (via KRAZY_TREE)")
    args = ap.parse_args(argv)
    script_tree = args.new if args.one_script else None
    samples = {"old": {}, "new": {}}
    per_round = []
    print(f"load average at start: {os.getloadavg()}")
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        got = {}
        for which in order:
            got[which] = run_tree(getattr(args, which), args.only, args.repeats, args.seconds, script_tree)
            for key, s in got[which].items():
                samples[which].setdefault(key, []).extend(s)
        per_round.append({k: statistics.median(got["new"][k]) / statistics.median(got["old"][k])
                          for k in got["old"] if k in got["new"]})
        print(f"round {r + 1}: " + ", ".join(f"{k} new/old {v:.3f}" for k, v in per_round[-1].items()), flush=True)
    print(f"load average at end: {os.getloadavg()}")
    print(f"\nscript: {'NEW tree compare_peers.py for both builds' if args.one_script else 'each tree its own compare_peers.py'}")
    print(f"\n| row | old ({args.old}) | new ({args.new}) | new / old | per round |")
    print("|---|---:|---:|---:|---|")
    for key in samples["old"]:
        o, n = statistics.median(samples["old"][key]), statistics.median(samples["new"][key])
        rounds = ", ".join(f"{pr[key]:.3f}" for pr in per_round if key in pr)
        print(f"| {key} | {o:,.0f}/s | {n:,.0f}/s | {n / o:.3f} | {rounds} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
