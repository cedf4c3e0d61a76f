#!/usr/bin/env python
"""Instructions per decision (or per clone, per iteration) of compare_peers.py's rows, old
build against new, counted by ``valgrind --tool=callgrind`` (repeatable where wall clock on a
shared machine is not).

    python benches/api_loop_callgrind.py OLD_TREE NEW_TREE                  # row api
    python benches/api_loop_callgrind.py OLD NEW --row krass-kariert --n 200,1200
    python benches/api_loop_callgrind.py OLD NEW --row api --top 25        # functions that moved

Each TREE is a checkout with its own in-place build.  For each tree and each of two work
sizes ``n1 < n2`` one fresh process runs, under callgrind, *this* checkout's
``compare_peers.py`` row (our side: the very ``Side.run(n, seed)`` that compare_peers times)
with ``KRAZY_TREE=TREE``, so both builds run the same script.  Instructions per unit =
(Ir(n2) - Ir(n1)) / (units(n2) - units(n1)): start-up, imports and the row's set-up cancel.
``--top K`` also prints, per tree, the K functions with the most self instructions per unit
(from ``callgrind_annotate`` of both runs, the same difference), and the biggest gains new
against old by function name.

Worker mode (what runs under valgrind): ``--worker ROW N`` prints the units done.
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1


def worker(row_key: str, n: int) -> None:
    sys.path.insert(0, HERE)
    import compare_peers  # noqa: E402  (imports krazy_core from $KRAZY_TREE)
    row = compare_peers.select_rows([row_key])[0]
    side = row.ours()
    units, _ = side.run(n, SEED)
    print(f"UNITS {units}")


def run_one(tree: str, row: str, n: int, outdir: str, tag: str, sim: bool = False):
    """Units done and the totals of every event (Ir; with ``sim`` also the simulated cache
    misses and branch mispredicts) of one callgrind run, and the output file."""
    out = os.path.join(outdir, f"callgrind.{tag}.{n}")
    # one BLAS thread: numpy's idle OpenBLAS workers spin and would count as instructions
    env = dict(os.environ, KRAZY_TREE=os.path.abspath(tree), PYTHONHASHSEED="0",
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    # no address-space randomisation where setarch can turn it off: the heap's layout (and so
    # what realloc copies) is then the same from run to run
    norand = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
    r = subprocess.run(norand + ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
                       + (["--cache-sim=yes", "--branch-sim=yes"] if sim else []) + [
                        sys.executable, os.path.abspath(__file__), "--worker", row, str(n)],
                       env=env, cwd=os.path.abspath(tree), capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{tree} {row} n={n} failed:\n{r.stderr[-3000:]}")
    units = float(re.search(r"^UNITS (\S+)", r.stdout, re.M).group(1))
    names, total = ["Ir"], None
    with open(out) as f:
        for line in f:
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith("summary:") or line.startswith("totals:"):
                total = dict(zip(names, (int(x) for x in line.split()[1:])))
    return units, total, out


FN_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*?)\s*$")


def self_costs(path: str) -> dict:
    """Self instructions per function of one callgrind output (callgrind_annotate)."""
    r = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", "--auto=no", path],
                       capture_output=True, text=True, check=True)
    costs = {}
    started = False
    for line in r.stdout.splitlines():
        if "file:function" in line:
            started = True
            continue
        if not started:
            continue
        m = FN_LINE.match(line)
        if m:
            name = m.group(2)
            name = re.sub(r"\s+\[[^\]]*\]$", "", name)     # the object file
            name = re.sub(r"\s+\([\d,]+x\)$", "", name)      # a call count
            name = name.split(":", 1)[-1] if ":" in name else name
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def short(name: str) -> str:
    """A Cython name without what differs between the two layouts of the same function: the
    module's mangled path (``_10krazy_core_5games_``), a package's ``core``/``state`` part
    (issue 12 moved ``games/x.pyx`` to ``games/x/core.pyx``) and a def's index number."""
    name = re.sub(r"__pyx_(pw|pf|f|pymod|tp|mp|sq|getprop|setprop|gb)_\d+krazy_core_(?:\d+\w+?_)*?\d+",
                  r"__pyx_\1_", name)
    name = re.sub(r"_\d+(core|state)_", "_", name)
    if name.startswith(("__pyx_pw_", "__pyx_pf_")):
        name = re.sub(r"^(.*)_\d+([A-Za-z][A-Za-z_]*(?:\.\w+)*)$", r"\1_\2", name)
    return name


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", nargs=2, metavar=("ROW", "N"), help=argparse.SUPPRESS)
    ap.add_argument("old", nargs="?")
    ap.add_argument("new", nargs="?")
    ap.add_argument("--row", default="api", help="a compare_peers.py row key (default api)")
    ap.add_argument("--n", default=None, help="the two work sizes n1,n2 (default per row)")
    ap.add_argument("--top", type=int, default=0, help="print the K costliest functions per unit")
    ap.add_argument("--keep", metavar="DIR", help="keep the callgrind outputs in DIR")
    ap.add_argument("--sim", action="store_true",
                    help="also simulate caches and branches (D1/LL misses, mispredicts per unit)")
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return 0
    if not (args.old and args.new):
        ap.error("OLD and NEW trees are needed")
    defaults = {"api": "20,120", "incore": "2000,12000", "clone": "20000,120000",
                "kings-rummy": "20,120", "contract-rummy": "5,30", "krass-kariert": "1000,6000",
                "ismcts-hearts": "200,1200", "ismcts-gin": "100,600", "ismcts-pymcts": "200,1200"}
    n1, n2 = (int(x) for x in (args.n or defaults.get(args.row, "20,120")).split(","))
    outdir = args.keep or tempfile.mkdtemp(prefix="cg_")
    os.makedirs(outdir, exist_ok=True)
    per_unit = {}
    events = {}
    fn_per_unit = {}
    for tag, tree in (("old", args.old), ("new", args.new)):
        u1, t1, p1 = run_one(tree, args.row, n1, outdir, f"{tag}.{args.row}", args.sim)
        u2, t2, p2 = run_one(tree, args.row, n2, outdir, f"{tag}.{args.row}", args.sim)
        i1, i2 = t1["Ir"], t2["Ir"]
        per_unit[tag] = (i2 - i1) / (u2 - u1)
        events[tag] = {k: (t2[k] - t1[k]) / (u2 - u1) for k in t1}
        print(f"{tag} ({tree}): n={n1}: {u1:.0f} units, {i1:,} Ir; n={n2}: {u2:.0f} units, {i2:,} Ir; "
              f"{per_unit[tag]:,.1f} Ir per unit", flush=True)
        if args.top:
            c1, c2 = self_costs(p1), self_costs(p2)
            fn = {}
            for k in set(c1) | set(c2):
                fn[short(k)] = fn.get(short(k), 0.0) + (c2.get(k, 0) - c1.get(k, 0)) / (u2 - u1)
            fn_per_unit[tag] = fn
    print(f"row {args.row}: new / old instructions per unit = {per_unit['new'] / per_unit['old']:.4f} "
          f"({per_unit['old']:,.1f} -> {per_unit['new']:,.1f})")
    if args.sim:
        print("per unit: " + "; ".join(
            f"{k} {events['old'][k]:,.2f} -> {events['new'][k]:,.2f}" for k in events["old"]))
    if args.top:
        for tag in ("old", "new"):
            print(f"\n{tag}: top {args.top} functions, self Ir per unit")
            for k, v in sorted(fn_per_unit[tag].items(), key=lambda kv: -kv[1])[:args.top]:
                print(f"  {v:10.1f}  {k}")
        o, n = fn_per_unit["old"], fn_per_unit["new"]
        diff = {k: n.get(k, 0.0) - o.get(k, 0.0) for k in set(o) | set(n)}
        print(f"\nlargest changes new - old, self Ir per unit (total {per_unit['new'] - per_unit['old']:+.1f})")
        for k, v in sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:args.top]:
            print(f"  {v:+10.1f}  (old {o.get(k, 0.0):8.1f}, new {n.get(k, 0.0):8.1f})  {k}")
    if args.keep:
        print(f"callgrind outputs in {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
