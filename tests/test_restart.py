"""A real ``krazy serve`` (uvicorn) process killed with SIGKILL in the middle of games and
started again on the same SQLite file: every table continues from where it was (replayed
from seed and actions, each state fingerprint checked), bots included. Loopback only."""
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

import krazy_core  # noqa: E402

PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(krazy_core.__file__)))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(db, port, cwd):
    env = dict(os.environ, PYTHONPATH=PKG_PARENT)
    p = subprocess.Popen([sys.executable, "-m", "krazy_core", "serve", "--port", str(port), "--db", db],
                         cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return p
        except OSError:
            if p.poll() is not None:
                raise AssertionError("server died: " + p.stdout.read())
            time.sleep(0.1)
    p.kill()
    raise AssertionError("server did not start")


def _get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _view(base_ws, tid, token):
    with ws_client.connect(f"{base_ws}/ws/{tid}", open_timeout=10) as w:
        w.send(json.dumps({"type": "join", "token": token}))
        for _ in range(100):
            m = json.loads(w.recv(timeout=10))
            if m["type"] == "update":
                return m
    raise AssertionError("no update")


def _logged(db, tid):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM actions WHERE table_id=?", (tid,)).fetchone()[0]
    finally:
        con.close()


def test_sigkill_mid_game_and_restart_resumes_every_table(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    wsb = f"ws://127.0.0.1:{port}"
    p = _start(db, port, str(tmp_path))
    try:
        bots = [_post(base + "/api/tables", {"game": g, "think": 0.02, "seed": 11 + k, "practice": True,
                                              "seats": [{"kind": "bot", "bot": "random"}] * n})
                for k, (g, n) in enumerate([("krazy-kings", 4), ("krass-kariert", 3), ("contract-rummy", 2),
                                           ("kings-rummy", 3)])]
        human = _post(base + "/api/tables", {"game": "contract-rummy", "think": 0.02, "seed": 5, "practice": True,
                                             "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "human"}]})
        deadline = time.time() + 60
        while time.time() < deadline and min(_get(f"{base}/api/tables/{t['table']}")["version"] for t in bots) < 8:
            time.sleep(0.1)
        htok = human["seats"][0]["token"]
        before = _view(wsb, human["table"], htok)
        seen = {t["table"]: _get(f"{base}/api/tables/{t['table']}")["version"] for t in bots}
        os.kill(p.pid, signal.SIGKILL)        # in the middle of the bots' games
        p.wait(10)
        assert all(v >= 8 for v in seen.values())
        logged = {tid: _logged(db, tid) for tid in seen}
        for tid, v in seen.items():
            assert logged[tid] >= v            # nothing a client saw was lost
        p = _start(db, port, str(tmp_path))
        for tid in seen:
            now = _get(f"{base}/api/tables/{tid}")
            assert now["version"] >= logged[tid]
        # the human's table is exactly where it was, the same hand and the same moves
        after = _view(wsb, human["table"], htok)
        assert after["version"] == before["version"] and after["observation"] == before["observation"]
        assert after["actions"] == before["actions"]
        # and the bots' games go on past the kill (to their ends, or at least further)
        deadline = time.time() + 60
        while time.time() < deadline:
            now = {tid: _get(f"{base}/api/tables/{tid}") for tid in seen}
            if all(n["version"] > logged[tid] + 3 or n["terminal"] for tid, n in now.items()):
                break
            time.sleep(0.2)
        for tid, n in now.items():
            assert n["version"] > logged[tid] + 3 or n["terminal"], (tid, n["version"], logged[tid])
        assert all(_logged(db, tid) == now[tid]["version"] or now[tid]["version"] > logged[tid] for tid in seen)
    finally:
        p.kill()
        p.wait(10)
