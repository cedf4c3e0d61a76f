"""Memory of many diverging clones of a late game (issue 19 item 11).

A 2-player Crazy Rummy game (``contract-rummy``, seed 1) is played at random to its last
state before the end (about 9,100 events); then N clones (default 2,000) each apply one legal
action and are all kept.  Printed: the events of the late state, the RSS the clones added
(MiB, ``/proc/self/status`` VmRSS, measured in a fresh interpreter per run so nothing else
is counted), per clone (KiB), and the seconds to make them.  Before the log's prefix was
shared, each diverging clone copied the whole event log and history (~190 KiB).

    python benches/clone_log_memory.py [--clones 2000] [--json out.json]

Not a test: it measures, it asserts nothing about speed or size.
"""
import argparse
import json
import subprocess
import sys

CHILD = r"""
import gc, json, random, sys, time
import krazy_core

def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])

n_clones = int(sys.argv[1])
g = krazy_core.make("contract-rummy", num_players=2)
s = g.new_initial_state(1)
r = random.Random(1)
moves = []
while not s.is_terminal():
    a = r.choice(s.legal_actions())
    moves.append(a)
    s.apply_action(a)
late = g.new_initial_state(1)
for a in moves[:-1]:
    late.apply_action(a)
assert not late.is_terminal()
pick = random.Random(2)
gc.collect()
before = rss_kib()
t = time.perf_counter()
clones = []
for _ in range(n_clones):
    c = late.clone()
    c.apply_action(pick.choice(c.legal_actions()))
    clones.append(c)
dt = time.perf_counter() - t
gc.collect()
after = rss_kib()
print(json.dumps({"events": late.num_events, "history": len(late.history()),
                  "clones": n_clones, "rss_added_mib": (after - before) / 1024,
                  "per_clone_kib": (after - before) / n_clones, "seconds": dt}))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", help="write the runs here")
    args = ap.parse_args(argv)
    runs = []
    for _ in range(args.repeats):
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.clones)], capture_output=True,
                             text=True, check=True).stdout
        runs.append(json.loads(out))
    runs.sort(key=lambda r: r["rss_added_mib"])
    med = runs[len(runs) // 2]
    print(f"late Crazy Rummy state: {med['events']} events, {med['history']} actions; "
          f"{med['clones']} clones applying one action each")
    print(f"RSS added: {med['rss_added_mib']:.1f} MiB (median of {len(runs)}; "
          f"{med['per_clone_kib']:.1f} KiB a clone), {med['seconds'] * 1000:.0f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(runs, f, indent=1)


if __name__ == "__main__":
    main()
