"""Attack bench of ``krazy serve`` over loopback (127.0.0.1 only; bounded; stops by itself).

Issue 30's attacks, each for ``--seconds`` (10) against one real server process (uvicorn,
a fresh SQLite file, its own session, default :class:`Limits`), while a *canary* seat at a
table of its own pings every 50 ms (round trip p50/p99/max) and an all-random-bot Kings
Rummy table elsewhere (think 0.05 s) counts its moves:

- ``laydown``: 3 connections of the seat to move send 20-card lay-downs, 5 a second each
- ``sync``: 60 spectators of a table with a long log send ``sync`` 10 times a second each
- ``slow``: a spectator socket with a 4 kB receive buffer that never reads, asking for the
  whole log 20 times a second; an innocent seat at its table plays on (its ack p99)
- ``creates``: 5,000 ``POST /api/tables`` from one address (how many are taken), then one
  from another address
- ``search``: 20 all-bot tables of ``ismcts:20000`` from one address, then a random-bot
  table elsewhere (its longest gap between moves)
- ``joins``: 1,000 spectators joining one table from 16 addresses
- ``utf8``: 200 text frames of invalid UTF-8 (tracebacks in the server's log)

One loopback machine plays many clients: the server is wrapped (here only) in an ASGI layer
that takes the client address from an ``x-test-address`` header.

    python benches/server_attacks.py [--seconds 10] [--only laydown,sync,...]
"""
import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

HERE = os.path.dirname(os.path.abspath(__file__))


class Addressed:
    """Bench only: the client address from the ``x-test-address`` header."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            for k, v in scope.get("headers", []):
                if k == b"x-test-address":
                    scope = dict(scope, client=(v.decode(), 1))
                    break
        await self.app(scope, receive, send)


def prepare_and_serve(db, port, info_path):
    """The server process: two prepared tables (a Crazy Rummy seat that may go down, a
    Kings Rummy game 1,500 events long), their secrets written to ``info_path``."""
    import uvicorn
    from krazy_core.server.app import create_app
    app = create_app(db)
    srv = app.state.server
    info = {}
    for seed in range(300):
        t = srv.create({"game": "contract-rummy", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed,
                        "practice": True, "hotseat": True})
        rng, rows, found = random.Random(seed), [], None
        for _ in range(300):
            s = t.state
            if s.is_terminal():
                break
            p = s.current_player()
            labels = {s.action_to_string(a): a for a in s.legal_actions()}
            if "go down" in labels:
                found = p
                break
            rows.append(t.apply(p, rng.choice([a for lab, a in labels.items() if lab != "go down"])))
        srv.store.add_actions(t.id, 0, rows)
        if found is not None:
            info["laydown"] = {"table": t.id, "token": t.fresh_secrets["tokens"][found],
                               "hand": t.state.observation(found)["hand"], "version": t.version}
            break
    t = srv.create({"game": "kings-rummy", "think": 0.05, "hotseat": True,
                    "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2})
    rng, rows = random.Random(2), []
    while not (t.state.num_events > 1500 and t.state.current_player() == 0) and not t.state.is_terminal():
        rows.append(t.apply(t.state.current_player(), rng.choice(t.state.legal_actions())))
    srv.store.add_actions(t.id, 0, rows)
    info["long"] = {"table": t.id, "token": t.fresh_secrets["tokens"][0], "events": t.state.num_events,
                    "full_update_bytes": len(t.update_text(None, 0)[0])}
    with open(info_path, "w") as f:
        json.dump(info, f)
    uvicorn.run(Addressed(app), host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(port, path, body=None, addr="10.0.0.1", headers=None):
    h = {"x-test-address": addr}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["content-type"] = "application/json"
    h.update(headers or {})
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


async def ahttp(*a, **kw):
    return await asyncio.get_running_loop().run_in_executor(None, lambda: http(*a, **kw))


async def join(port, tid, token=None, addr="10.9.9.9"):
    w = await websockets.connect(f"ws://127.0.0.1:{port}/ws/{tid}", additional_headers={"x-test-address": addr},
                                 max_size=2 ** 24, ping_interval=None, open_timeout=60)
    with contextlib.suppress(websockets.ConnectionClosed):
        await w.send(json.dumps({"type": "join", **({"token": token} if token else {})}))
    return w


def pct(xs, q):
    xs = sorted(xs)
    return round(1000 * xs[int(q * (len(xs) - 1))], 1) if xs else None


async def canary(port, seconds):
    st, r = await ahttp(port, "/api/tables", {"game": "krazy-kings", "seats": [{"kind": "human"},
                                              {"kind": "bot", "bot": "random"}]}, addr="10.250.0.1")
    w = await join(port, r["table"], r["seats"][0]["token"], addr="10.250.0.1")
    rtts, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        await w.send('{"type":"ping"}')
        while json.loads(await asyncio.wait_for(w.recv(), 60))["type"] != "pong":
            pass
        rtts.append(time.perf_counter() - t0)
        await asyncio.sleep(0.05)
    await w.close()
    return rtts


async def bots_elsewhere(port):
    st, r = await ahttp(port, "/api/tables", {"game": "kings-rummy", "think": 0.05,
                                              "seats": [{"kind": "bot", "bot": "random"}] * 3}, addr="10.251.0.1")
    return r["table"]


async def version(port, tid):
    return (await ahttp(port, f"/api/tables/{tid}"))[1].get("version", 0)


def frame(payload, opcode=1):
    n = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
    return head + b"\0\0\0\0" + payload


def raw_ws(port, path, addr, rcvbuf=None):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               f"x-test-address: {addr}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    return s


# ---------------------------------------------------------------- the attacks
async def a_laydown(port, info, seconds):
    L = info["laydown"]
    hand = L["hand"]
    variants = [[hand[:20]], [hand[:7], hand[7:14], hand[14:]], [list(range(1, 21))]]
    answers = [0]

    async def one(n):
        w = await join(port, L["table"], L["token"], addr=f"10.1.0.{n}")

        async def read():
            with contextlib.suppress(Exception):
                async for m in w:
                    answers[0] += json.loads(m)["type"] == "error"
        rd = asyncio.get_running_loop().create_task(read())
        for k in range(int(5 * seconds)):
            await w.send(json.dumps({"type": "laydown", "melds": variants[k % 3], "version": L["version"]}))
            await asyncio.sleep(0.2)
        await asyncio.sleep(1)
        rd.cancel()
        await w.close()
    await asyncio.gather(*(one(n) for n in range(3)))
    return {"laydowns_sent": int(15 * seconds), "answered": answers[0]}


async def a_sync(port, info, seconds):
    L = info["long"]
    got = [0, 0, 0]

    async def one(n):
        w = await join(port, L["table"], addr=f"10.2.0.{n}")     # 60 people

        async def read():
            with contextlib.suppress(Exception):
                async for m in w:              # not parsed: the client's CPU is not the server's
                    got[0] += len(m)
                    got[1] += m.startswith('{"type":"update"')
        rd = asyncio.get_running_loop().create_task(read())
        for _ in range(int(10 * seconds)):
            try:
                await w.send('{"type":"sync"}')
            except websockets.ConnectionClosed:
                got[2] += 1
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)
        rd.cancel()
        await w.close()
    await asyncio.gather(*(one(n) for n in range(60)))
    return {"spectators": 60, "syncs_sent": int(600 * seconds), "updates_received": got[1],
            "mb_received": round(got[0] / 1e6, 1), "full_update_kb": round(L["full_update_bytes"] / 1e3, 1),
            "closed_by_server": got[2]}


async def a_slow(port, info, seconds):
    L = info["long"]
    s = raw_ws(port, f"/ws/{L['table']}", "10.3.0.1", rcvbuf=4096)
    s.sendall(frame(b'{"type":"join"}'))
    s.setblocking(False)
    lat = []

    async def innocent():
        w = await join(port, L["table"], L["token"], addr="10.3.0.2")
        pending, end = None, time.perf_counter() + seconds
        while time.perf_counter() < end:
            try:
                m = json.loads(await asyncio.wait_for(w.recv(), 15))
            except asyncio.TimeoutError:
                break
            if m["type"] != "update":
                continue
            if pending is not None and m["version"] > pending[0]:
                lat.append(time.perf_counter() - pending[1])
                pending = None
            if m["terminal"]:
                break
            if m["to_move"] == 0 and m["actions"] and pending is None:
                await asyncio.sleep(0.2)
                pending = (m["version"], time.perf_counter())
                await w.send(json.dumps({"type": "action", "action": m["actions"][0]["id"], "version": m["version"]}))
        await w.close()

    async def flood():
        t0 = time.perf_counter()
        closed_after = None
        while time.perf_counter() - t0 < seconds:
            try:
                s.send(frame(b'{"type":"sync"}'))
            except BlockingIOError:
                pass
            except OSError:
                closed_after = closed_after or time.perf_counter() - t0
            await asyncio.sleep(0.05)
        return closed_after
    _, _ = await asyncio.gather(innocent(), flood())
    # was it dropped? the server resets or closes it: reading what is left ends in EOF
    s.setblocking(True)
    s.settimeout(20)
    dropped = False
    with contextlib.suppress(OSError):
        while True:
            if not s.recv(1 << 20):
                dropped = True
                break
    s.close()
    return {"innocent_moves": len(lat), "innocent_ack_ms_p99": pct(lat, 0.99), "slow_reader_dropped": dropped}


async def a_creates(port, info, seconds):
    t0 = time.perf_counter()
    codes = {}
    loop = asyncio.get_running_loop()

    def run():
        for _ in range(5000):
            st, _ = http(port, "/api/tables", {"game": "krazy-kings", "seats": [{"kind": "human"},
                                               {"kind": "bot", "bot": "random"}]}, addr="10.4.0.1")
            codes[st] = codes.get(st, 0) + 1
    await loop.run_in_executor(None, run)
    other = (await ahttp(port, "/api/tables", {"game": "krazy-kings", "seats": [{"kind": "human"},
                         {"kind": "bot", "bot": "random"}]}, addr="10.4.0.2"))[0]
    return {"creates": 5000, "taken": codes.get(200, 0), "refused_429": codes.get(429, 0),
            "seconds": round(time.perf_counter() - t0, 1), "another_address_creates": other,
            "lobby_total": (await ahttp(port, "/api/tables?limit=1"))[1]["total"]}


async def a_search(port, info, seconds):
    made = 0
    for k in range(20):
        st, _ = await ahttp(port, "/api/tables", {"game": "krazy-kings", "think": 0,
                            "seats": [{"kind": "bot", "bot": "ismcts:20000"}] * 4}, addr="10.6.0.1")
        made += st == 200
    st, r = await ahttp(port, "/api/tables", {"game": "kings-rummy", "think": 0,
                        "seats": [{"kind": "bot", "bot": "random"}] * 3}, addr="10.6.1.1")
    tid = r["table"]
    w = await join(port, tid, addr="10.6.1.1")
    stamps, end = [], time.perf_counter() + seconds
    with contextlib.suppress(asyncio.TimeoutError, websockets.ConnectionClosed):
        while time.perf_counter() < end:
            m = json.loads(await asyncio.wait_for(w.recv(), max(0.1, end - time.perf_counter())))
            if m["type"] == "update":
                stamps.append(time.perf_counter())
                if m["terminal"]:
                    break
    await w.close()
    gaps = [b - a for a, b in zip(stamps[1:], stamps[2:])]
    return {"search_tables_taken": made, "of": 20, "random_bot_moves": len(stamps) - 1,
            "random_move_gap_ms_p99": pct(gaps, 0.99), "random_move_gap_ms_max": pct(gaps, 1.0)}


async def a_joins(port, info, seconds):
    st, r = await ahttp(port, "/api/tables", {"game": "krazy-kings", "hotseat": True,
                        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]},
                        addr="10.8.9.9")
    seat = await join(port, r["table"], r["seats"][0]["token"], addr="10.8.9.9")
    ws, refused = [], 0
    t0 = time.perf_counter()
    for n in range(1000):
        ws.append(await join(port, r["table"], addr=f"10.8.0.{n % 16}"))
    for w in ws:
        with contextlib.suppress(Exception):
            m = json.loads(await asyncio.wait_for(w.recv(), 10))
            refused += m.get("code") == "too_many_connections"
    took = time.perf_counter() - t0
    await seat.send('{"type":"ping"}')
    kinds = []
    while True:
        k = json.loads(await asyncio.wait_for(seat.recv(), 10))["type"]
        kinds.append(k)
        if k == "pong":
            break
    for w in ws + [seat]:
        with contextlib.suppress(Exception):
            await w.close()
    return {"joins": 1000, "refused": refused, "seconds": round(took, 1),
            "messages_to_the_seat_before_its_pong": len(kinds) - 1}


async def a_utf8(port, info, seconds, log_path=None):
    for _ in range(200):
        with contextlib.suppress(OSError):
            s = raw_ws(port, f"/ws/{info['long']['table']}", "10.10.0.1")
            s.sendall(frame(b'{"type":"join"}') + frame(b"\xff\xfe not utf-8"))
            s.close()
        await asyncio.sleep(0.01)
    await asyncio.sleep(1)
    text = open(log_path).read() if log_path else ""
    return {"frames": 200, "tracebacks_in_log": text.count("Traceback"), "log_lines": len(text.splitlines())}


ATTACKS = {"laydown": a_laydown, "sync": a_sync, "slow": a_slow, "creates": a_creates, "search": a_search,
           "joins": a_joins, "utf8": a_utf8}


async def canary_process(port, seconds):
    """The canary in a process of its own (the attackers' client work is not in its times)."""
    p = await asyncio.create_subprocess_exec(sys.executable, os.path.abspath(__file__), "--canary", str(port),
                                             str(seconds), stdout=asyncio.subprocess.PIPE)
    out, _ = await p.communicate()
    return json.loads(out)


async def run_one(name, port, info, seconds, log_path):
    bots = await bots_elsewhere(port)
    v0 = await version(port, bots)
    fn = ATTACKS[name]
    kw = {"log_path": log_path} if name == "utf8" else {}
    res = await asyncio.gather(canary_process(port, seconds + 1), fn(port, info, seconds, **kw))
    rtts, out = res
    moved = await version(port, bots) - v0
    return {"attack": name, **out, "canary_pings": len(rtts), "canary_ms_p50": pct(rtts, 0.5),
            "canary_ms_p99": pct(rtts, 0.99), "canary_ms_max": pct(rtts, 1.0), "bots_elsewhere_moves": moved}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        prepare_and_serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--canary":
        print(json.dumps(asyncio.run(canary(int(sys.argv[2]), float(sys.argv[3])))))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--only", default=",".join(ATTACKS))
    args = ap.parse_args()
    if not 1 <= args.seconds <= 60:
        raise SystemExit("bounded: seconds 1..60")
    names = [n for n in args.only.split(",") if n]
    for n in names:
        if n not in ATTACKS:
            raise SystemExit(f"unknown attack {n!r}: {', '.join(ATTACKS)}")
    import krazy_core
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__))))
    print(json.dumps({"load_avg_1m_before": os.getloadavg()[0]}), flush=True)
    for name in names:                      # a fresh server per attack
        tmp = tempfile.mkdtemp(prefix="krazy-attack-")
        port, info_path, log_path = free_port(), os.path.join(tmp, "info.json"), os.path.join(tmp, "server.log")
        log = open(log_path, "w")
        srv = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve", os.path.join(tmp, "t.sqlite3"),
                                str(port), info_path], cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
        try:
            for _ in range(600):
                if os.path.exists(info_path):
                    with contextlib.suppress(OSError):
                        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                        break
                time.sleep(0.1)
            info = json.load(open(info_path))
            out = asyncio.run(run_one(name, port, info, args.seconds, log_path))
            print(json.dumps(out), flush=True)
        finally:
            srv.send_signal(signal.SIGTERM)
            try:
                srv.wait(20)
            except subprocess.TimeoutExpired:
                srv.kill()
            log.close()


if __name__ == "__main__":
    main()
