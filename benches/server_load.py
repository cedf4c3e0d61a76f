"""Load bench of ``krazy serve`` over loopback (127.0.0.1 only; bounded; stops by itself).

One real server process (uvicorn, a fresh SQLite file in a temp folder) and one client
process of scripted WebSocket seats: TABLES tables of Krazy Kings, each with SEATS
connected human seats and one heuristic bot (think time 0.05 s). A seat to move answers
its update after a random 0-40 ms "human" pause with a random legal action id and the
version. Measured: latency from sending an action to receiving the update of that version
on the same socket (bot think time is not in it: bots move on other versions), p50/p99;
actions sent / accepted / refused; lost (accepted by the server's log but never seen, or
sent-and-acknowledged but missing from the log) and duplicated (a log row twice, or a
version applied twice); the server's resident memory.

    python benches/server_load.py [--tables 250] [--seats 4] [--seconds 60]
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


class Seat:
    def __init__(self, tid, seat, token):
        self.tid, self.seat, self.token = tid, seat, token
        self.pending = {}          # version answered -> send time
        self.latencies = []
        self.sent = self.refused = self.acked = 0
        self.versions = set()
        self.dups = 0
        self.done = False


async def run_seat(s: Seat, wsbase, stop_at, rng):
    async with websockets.connect(f"{wsbase}/ws/{s.tid}?token={s.token}", max_size=2 ** 22,
                                  open_timeout=60, ping_interval=None) as ws:
        async def reader():
            async for raw in ws:
                m = json.loads(raw)
                now = time.perf_counter()
                if m["type"] == "update":
                    v = m["version"]
                    if v in s.versions:
                        s.dups += 1
                    s.versions.add(v)
                    t0 = s.pending.pop(v - 1, None)
                    if t0 is not None:
                        s.latencies.append(now - t0)
                        s.acked += 1
                    if m["terminal"]:
                        s.done = True
                        return
                    if m["to_move"] == s.seat and m["actions"] and time.time() < stop_at:
                        await asyncio.sleep(rng.uniform(0, 0.04))
                        a = rng.choice(m["actions"])["id"]
                        s.pending[v] = time.perf_counter()
                        s.sent += 1
                        await ws.send(json.dumps({"type": "action", "action": a, "version": v}))
                elif m["type"] == "error":
                    s.refused += 1
        try:
            await asyncio.wait_for(reader(), timeout=max(1.0, stop_at - time.time() + 5))
        except (asyncio.TimeoutError, websockets.ConnectionClosed):
            pass


async def clients(tables, wsbase, seconds, seed):
    rng = random.Random(seed)
    seats = [Seat(t["table"], s["seat"], s["token"]) for t in tables for s in t["seats"]]
    stop_at = time.time() + seconds
    await asyncio.gather(*(run_seat(s, wsbase, stop_at, random.Random(rng.random())) for s in seats))
    return seats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--seats", type=int, default=4, help="connected human seats per table (plus one bot)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 1 <= args.seats <= 4 or not 1 <= args.seconds <= 600:
        raise SystemExit("bounded: tables 1..1000, seats 1..4, seconds 1..600")
    tmp = tempfile.mkdtemp(prefix="krazy-load-")
    db = os.path.join(tmp, "t.sqlite3")
    port = free_port()
    import krazy_core
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__))))
    srv = subprocess.Popen([sys.executable, "-m", "krazy_core", "serve", "--port", str(port), "--db", db],
                           cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
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
            "game": "krazy-kings", "think": 0.05, "seed": args.seed * 100000 + i,
            "seats": [{"kind": "human"}] * args.seats + [{"kind": "bot", "bot": "heuristic"}]})
            for i in range(args.tables)]
        t0 = time.time()
        seats = asyncio.run(clients(tables, f"ws://127.0.0.1:{port}", args.seconds, args.seed))
        wall = time.time() - t0
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
    lat = sorted(x for s in seats for x in s.latencies)
    sent = sum(s.sent for s in seats)
    out = {
        "tables": args.tables, "connected_seats": len(seats), "seconds": round(wall, 1),
        "actions_sent": sent, "actions_acked": sum(s.acked for s in seats),
        "refused": sum(s.refused for s in seats), "log_rows": len(rows),
        "human_rows": sum(v for (t, st), v in human_rows.items() if st < args.seats),
        "lost": lost, "accepted_not_seen": unseen, "duplicated_rows": dup_rows,
        "duplicated_updates": sum(s.dups for s in seats), "log_gaps": gaps,
        "games_finished": len({s.tid for s in seats if s.done}),
        "latency_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 1) if lat else None,
        "latency_ms_max": round(1000 * lat[-1], 1) if lat else None,
        "actions_per_s": round(len(rows) / wall, 1),
        "server_rss_mb_idle": round(rss0, 1), "server_rss_mb_loaded": round(rss1, 1),
        "load_avg_1m": os.getloadavg()[0],
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
