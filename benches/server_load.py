"""Load bench of ``krazy serve`` over loopback (127.0.0.1 only; bounded; stops by itself).

One real server process (uvicorn, a fresh SQLite file in a temp folder) and one client
process of scripted WebSocket seats: TABLES tables of Krazy Kings, each with SEATS
connected human seats and one heuristic bot (think time ``--think``, 0.05 s). A seat to
move answers its update after a random "human" pause (``--pause LO,HI`` in ms: 0,40 is a
machine-speed flood that saturates the server, 500,3000 a quick human) with a random legal
action id and the version. Measured, bot think time not included (bots move on other
versions): the latency from sending an action to receiving the update of that version on
the same socket (``ack``), and to every connected seat of the table receiving it (``fanout``:
one sample per seat per action), p50/p99; actions sent / accepted / refused; lost (accepted
by the server's log but never seen, or sent-and-acknowledged but missing from the log) and
duplicated (a log row twice, or a version applied twice); the server's resident memory and
CPU time; the machine's load average before and after.

    python benches/server_load.py [--tables 250] [--seats 4] [--seconds 60] [--pause 0,40]
                                  [--profile FILE]   # cProfile of the server process
"""
import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

try:
    import orjson
    loads = orjson.loads
except ImportError:                # the client's own decoding is part of what is timed
    loads = json.loads

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


SENT_AT = {}          # (table, version answered) -> send time, for the fan-out latency
FANOUT = []
CONNECTED = [0, None]
QUERY_TOKEN = False    # --query-token: the token in the URL, as servers before issue 30 took it  # seats connected; the time the last one did (steady state from then)


class Seat:
    def __init__(self, tid, seat, token):
        self.tid, self.seat, self.token = tid, seat, token
        self.pending = {}          # version answered -> send time
        self.latencies = []
        self.sent = self.refused = self.acked = 0
        self.versions = set()
        self.dups = 0
        self.done = False


async def run_seat(s: Seat, wsbase, stop_at, rng, pause):
    url = f"{wsbase}/ws/{s.tid}" + (f"?token={s.token}" if QUERY_TOKEN else "")
    async with websockets.connect(url, max_size=2 ** 22, open_timeout=120, ping_interval=None) as ws:
        if not QUERY_TOKEN:
            await ws.send(json.dumps({"type": "join", "token": s.token}))      # the token: first message
        CONNECTED[0] += 1
        async def reader():
            async for raw in ws:
                m = loads(raw)
                now = time.perf_counter()
                if m["type"] == "update":
                    v = m["version"]
                    if v in s.versions:
                        s.dups += 1
                    s.versions.add(v)
                    t_sent = SENT_AT.get((s.tid, v - 1))
                    if t_sent is not None:
                        FANOUT.append((t_sent, now - t_sent))
                    t0 = s.pending.pop(v - 1, None)
                    if t0 is not None:
                        s.latencies.append((t0, now - t0))
                        s.acked += 1
                    if m["terminal"]:
                        s.done = True
                        return
                    if m["to_move"] == s.seat and m["actions"] and time.time() < stop_at:
                        await asyncio.sleep(rng.uniform(*pause))
                        a = rng.choice(m["actions"])["id"]
                        s.pending[v] = SENT_AT[(s.tid, v)] = time.perf_counter()
                        s.sent += 1
                        await ws.send(json.dumps({"type": "action", "action": a, "version": v}))
                elif m["type"] == "error":
                    s.refused += 1
        try:
            await asyncio.wait_for(reader(), timeout=max(1.0, stop_at - time.time() + 5))
        except (asyncio.TimeoutError, websockets.ConnectionClosed):
            pass


async def clients(tables, wsbase, seconds, seed, pause):
    rng = random.Random(seed)
    seats = [Seat(t["table"], s["seat"], s["token"]) for t in tables for s in t["seats"]]
    stop_at = time.time() + seconds

    async def watch():
        while CONNECTED[0] < len(seats):
            await asyncio.sleep(0.01)
        CONNECTED[1] = time.perf_counter()
    asyncio.get_running_loop().create_task(watch())
    await asyncio.gather(*(run_seat(s, wsbase, stop_at, random.Random(rng.random()), pause)
                           for s in seats))
    return seats


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs, q):
    return round(1000 * xs[int(q * (len(xs) - 1))], 1) if xs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--seats", type=int, default=4, help="connected human seats per table (plus one bot)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pause", default="0,40", help="a seat's pause before it answers, LO,HI ms")
    ap.add_argument("--think", type=float, default=0.05, help="the bot's think time, s")
    ap.add_argument("--profile", default=None, help="write a cProfile of the server here")
    ap.add_argument("--query-token", action="store_true",
                    help="send the token in the URL (deprecated; to compare with servers before issue 30)")
    ap.add_argument("--same-session", dest="own_session", action="store_false",
                    help="run the server in this session (shares its autogroup CPU share)")
    args = ap.parse_args()
    lo, hi = (float(x) / 1000 for x in args.pause.split(","))
    global QUERY_TOKEN
    QUERY_TOKEN = args.query_token
    if not 1 <= args.tables <= 1000 or not 1 <= args.seats <= 4 or not 1 <= args.seconds <= 600:
        raise SystemExit("bounded: tables 1..1000, seats 1..4, seconds 1..600")
    if not 0 <= lo <= hi <= 30 or not 0 <= args.think <= 10:
        raise SystemExit("bounded: pause 0..30000 ms, think 0..10 s")
    load0 = os.getloadavg()[0]
    tmp = tempfile.mkdtemp(prefix="krazy-load-")
    db = os.path.join(tmp, "t.sqlite3")
    port = free_port()
    import krazy_core
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__))))
    prof = []
    # every scripted seat connects from 127.0.0.1: the per-address caps (made for one person
    # or household per address) are raised for this one address playing 1,000 people
    code = ("from krazy_core.server.launch import serve\nfrom krazy_core.server.guards import Limits\n"
            f"def run(): serve(port={port}, db={db!r}, limits=Limits(conns_per_address=5000, address_rate=1e6, "
            "address_burst=1e6, tables_per_address=5000, open_tables_per_address=5000, creates_rate=1e6, "
            "creates_burst=1e6))\n")
    if args.profile:      # the event loop's thread, written when the server stops (SIGTERM)
        # (uvicorn raises SIGTERM again after its graceful stop: a no-op handler lets the
        # profile be written)
        code += ("import cProfile, signal\nsignal.signal(signal.SIGTERM, lambda *a: None)\n"
                 "pr = cProfile.Profile()\npr.enable()\ntry:\n    run()\nfinally:\n"
                 f"    pr.disable()\n    pr.dump_stats({os.path.abspath(args.profile)!r})")
    else:
        code += "run()"
    launcher = os.path.join(tmp, "serve.py")
    with open(launcher, "w") as f:
        f.write(code + "\n")
    srv = subprocess.Popen([sys.executable, *prof, launcher],
                           cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                           # its own session, as a service runs: with the kernel's autogroup
                           # scheduling a session shares its CPU among its processes, and the
                           # server would otherwise share the client's (and the caller's) share
                           start_new_session=args.own_session)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        base = f"http://127.0.0.1:{port}"
        rss0 = rss_mb(srv.pid)
        tables = [post(base + "/api/tables", {
            "game": "krazy-kings", "think": args.think, "seed": args.seed * 100000 + i, "practice": True,
            "hotseat": True,
            "seats": [{"kind": "human"}] * args.seats + [{"kind": "bot", "bot": "heuristic"}]})
            for i in range(args.tables)]
        t0 = time.time()
        global T_START
        T_START = time.perf_counter()
        cpu0 = cpu_seconds(srv.pid)
        seats = asyncio.run(clients(tables, f"ws://127.0.0.1:{port}", args.seconds, args.seed, (lo, hi)))
        wall = time.time() - t0
        cpu1 = cpu_seconds(srv.pid)
        client_cpu = sum(os.times()[:2])
        rss1 = rss_mb(srv.pid)
    finally:
        srv.send_signal(signal.SIGTERM)
        try:
            srv.wait(20)
        except subprocess.TimeoutExpired:
            srv.kill()
    con = sqlite3.connect(db)
    rows = con.execute("SELECT table_id, n, seat FROM actions").fetchall()
    con.close()
    by = {}
    for tid, n, seat in rows:
        by.setdefault(tid, []).append(n)
    dup_rows = sum(len(v) - len(set(v)) for v in by.values())
    gaps = sum(1 for v in by.values() if sorted(v) != list(range(len(v))))
    human_rows = {}
    for tid, n, seat in rows:
        human_rows[(tid, seat)] = human_rows.get((tid, seat), 0) + 1
    lost = sum(max(0, s.acked - human_rows.get((s.tid, s.seat), 0)) for s in seats)
    unseen = sum(max(0, human_rows.get((s.tid, s.seat), 0) - s.acked) for s in seats)
    steady = CONNECTED[1] or float("inf")
    lat_all = sorted(x for s in seats for _, x in s.latencies)
    lat = sorted(x for s in seats for t, x in s.latencies if t >= steady)
    fan = sorted(x for t, x in FANOUT if t >= steady)
    sent = sum(s.sent for s in seats)
    out = {
        "tables": args.tables, "connected_seats": len(seats), "seconds": round(wall, 1),
        "actions_sent": sent, "actions_acked": sum(s.acked for s in seats),
        "refused": sum(s.refused for s in seats), "log_rows": len(rows),
        "human_rows": sum(v for (t, st), v in human_rows.items() if st < args.seats),
        "lost": lost, "accepted_not_seen": unseen, "duplicated_rows": dup_rows,
        "duplicated_updates": sum(s.dups for s in seats), "log_gaps": gaps,
        "games_finished": len({s.tid for s in seats if s.done}),
        "pause_ms": args.pause, "bot_think_s": args.think, "server_own_session": args.own_session,
        "all_connected_after_s": round(steady - T_START, 1) if CONNECTED[1] else None,
        "ack_ms_p50_with_connecting": pct(lat_all, 0.5), "ack_ms_p99_with_connecting": pct(lat_all, 0.99),
        "steady_samples": len(lat),
        "ack_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "ack_ms_p99": pct(lat, 0.99), "ack_ms_max": pct(lat, 1.0),
        "fanout_samples": len(fan),
        "fanout_ms_p50": pct(fan, 0.5), "fanout_ms_p99": pct(fan, 0.99), "fanout_ms_max": pct(fan, 1.0),
        "actions_per_s": round(len(rows) / wall, 1),
        "client_cpu_s": round(client_cpu, 1),
        "server_cpu_s": round(cpu1 - cpu0, 1), "server_cpu_per_action_ms": round(1000 * (cpu1 - cpu0) / max(1, len(rows)), 2),
        "server_rss_mb_idle": round(rss0, 1), "server_rss_mb_loaded": round(rss1, 1),
        "load_avg_1m_before": round(load0, 2), "load_avg_1m_after": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
