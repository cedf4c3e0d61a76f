"""The ASGI app of ``krazy serve`` (Starlette): HTTP lobby routes, one WebSocket per seat.

Routes:
- ``GET /`` the browser table; ``GET /static/...`` its files
- ``GET /api/games`` games, player ranges, options, bot words
- ``POST /api/tables`` create a table (body: ``tables.build_table``'s request); answers the
  table id and, per human seat, its secret token and link (only ever to the creator)
- ``GET /api/tables`` / ``GET /api/tables/{id}`` public facts (no tokens)
- ``WS /ws/{id}?token=T`` a seat (its token) or, without a token, a spectator

WebSocket messages are JSON (``schemas/protocol.json``). Client: ``{"type": "action",
"action": ID, "version": V}``, ``{"type": "laydown", "melds": [[cards]...], "version": V}``,
``{"type": "hint", "version": V}``, ``{"type": "sync"}``, ``{"type": "ping"}``. Server:
``hello``, ``update`` (after every change, to every connection, each its own view),
``error`` (``code``: ``bad_json``, ``too_large``, ``bad_message``, ``rate_limited``,
``stale``, ``illegal``, ``not_your_seat``, ``spectator``), ``hint``, ``pong``. An error never
stops the table or the server; a connection that keeps flooding is closed (code 1008)."""
import asyncio
import contextlib
import json
import os
import time
from typing import Any, Dict, Optional

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import krazy_core
from krazy_core import protocol
from krazy_core.errors import ConfigError, IllegalActionError, KrazyError
from krazy_core.game import get_spec
from krazy_core.server.store import Store
from krazy_core.server.tables import BOT_POOL, Table, build_table, dumps

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_MESSAGE = 4096          # bytes of one client message
RATE = 20.0                 # messages per second a connection may send (sustained)
BURST = 40.0                # and in one burst
MAX_STRIKES = 50            # refused-for-rate messages before the connection is closed
MAX_BODY = 16384            # bytes of a POST body
MAX_TABLES = 5000


class Conn:
    """One WebSocket: its table, its seat (``None``: spectator), its rate bucket."""

    def __init__(self, ws: WebSocket, table: Table, seat: Optional[int]):
        self.ws = ws
        self.table = table
        self.seat = seat
        self.events_sent = 0
        self.tokens = BURST
        self.stamp = time.monotonic()
        self.strikes = 0
        self.sent = 0
        self.version_sent = -1          # the version of the last update sent here

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False

    async def send(self, msg: Dict[str, Any]) -> None:
        try:
            await self.ws.send_text(dumps(msg))
            self.sent += 1
        except Exception:   # a closed socket: its reader ends the connection
            pass

    async def send_update(self, force: bool = False) -> None:
        """This connection's ``update`` of the table as it is now. A broadcast that finds
        the connection already told of this version sends nothing (two actions committed in
        one transaction are one update); ``force`` sends it anyway (join, sync, stale)."""
        t = self.table
        if not force and self.version_sent == t.version:
            return
        self.version_sent = t.version
        msg = t.message_for(self.seat, self.events_sent)
        self.events_sent += len(msg["events"])
        await self.send(msg)


class Server:
    def __init__(self, db_path: str = ":memory:", bot_think_scale: float = 1.0):
        self.store = Store(db_path)
        self.tables: Dict[str, Table] = {}
        self.think_scale = bot_think_scale
        self.loaded = 0
        self._pending: list = []               # (table id, first n, rows) not yet committed
        self._flushed: Optional[asyncio.Future] = None
        self.broken: Dict[str, str] = {}     # table id -> why its log does not replay
        for rec in self.store.load_all():
            try:
                t = Table(rec["id"], rec["game"], rec["num_players"], rec["options"], rec["seed"],
                          rec["seats"], rec["think"])
                t.replay(rec["log"])
            except KrazyError as e:
                # a log that does not replay (edited, or written by an engine whose rules
                # have changed) is left in the file untouched and not served; the other
                # tables are
                self.broken[rec["id"]] = str(e)[:300]
                continue
            self.tables[t.id] = t
            self.loaded += 1

    # ------------------------------------------------------------------ tables
    def create(self, req: Dict[str, Any]) -> Table:
        if len(self.tables) >= MAX_TABLES:
            raise ConfigError("this server has as many tables as it takes")
        t = build_table(req)
        self.store.add_table(t.record())
        self.tables[t.id] = t
        return t

    async def broadcast(self, t: Table) -> None:
        for c in list(t.conns):
            await c.send_update()

    async def persist(self, t: Table, rows) -> None:
        """Commit ``rows`` (the table's newest actions) to SQLite before anyone is told of
        them (a ``kill -9`` never loses an action a client saw). Every action of one turn of
        the event loop goes in one transaction: the commit is scheduled with ``call_soon``
        and the callers wait for it."""
        self._pending.append((t.id, t.version - len(rows), rows))
        if self._flushed is None:
            loop = asyncio.get_running_loop()
            self._flushed = loop.create_future()
            loop.call_soon(self._flush)
        await asyncio.shield(self._flushed)

    def _flush(self) -> None:
        batches, fut = self._pending, self._flushed
        self._pending, self._flushed = [], None
        assert fut is not None              # commit() made it before scheduling this call
        try:
            self.store.add_batches(batches)
        except BaseException as e:          # the disk failed: every waiting action hears it
            fut.set_exception(e)
            fut.exception()                 # retrieved here: no "never retrieved" warning
            return
        fut.set_result(None)

    async def commit(self, t: Table, rows) -> None:
        await self.persist(t, rows)
        await self.broadcast(t)
        self.kick_bots(t)

    def kick_bots(self, t: Table) -> None:
        if t.bot_seat() is not None and (t.bot_task is None or t.bot_task.done()):
            t.bot_task = asyncio.get_running_loop().create_task(self._bots(t))

    async def _bots(self, t: Table) -> None:
        loop = asyncio.get_running_loop()
        while True:
            seat = t.bot_seat()
            if seat is None:
                return
            version = t.version
            await asyncio.sleep(t.think * self.think_scale)
            try:
                action = await loop.run_in_executor(BOT_POOL, t.bot_move, seat, t.state.clone())
            except Exception:   # a bot that fails plays a random legal move (never stops the table)
                action = t.state.random_action()
            if t.version != version or t.bot_seat() != seat:
                continue
            row = t.apply(seat, action)
            await self.persist(t, [row])
            await self.broadcast(t)

    def start_all_bots(self) -> None:
        for t in self.tables.values():
            self.kick_bots(t)

    # ------------------------------------------------------------------ a socket
    async def handle(self, c: Conn, raw: Any) -> Optional[Dict[str, Any]]:
        """One client message; returns an error message to send back, or ``None``."""
        t = c.table
        if not isinstance(raw, str):
            return {"type": "error", "code": "bad_message", "reason": "messages are JSON text"}
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
            return {"type": "error", "code": "too_large", "reason": f"a message is at most {MAX_MESSAGE} bytes"}
        if not c.allow():
            return {"type": "error", "code": "rate_limited", "reason": f"at most {RATE:.0f} messages a second"}
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):
            return {"type": "error", "code": "bad_json", "reason": "not valid JSON"}
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return {"type": "error", "code": "bad_message", "reason": "a message is an object with a type"}
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "sync":
            c.events_sent = 0
            await c.send(t.hello_for(c.seat))
            await c.send_update(force=True)
            return None
        if kind not in ("action", "laydown", "hint"):
            return {"type": "error", "code": "bad_message", "reason": f"unknown message type {kind[:40]!r}"}
        if c.seat is None:
            return {"type": "error", "code": "spectator", "reason": "a spectator cannot act; join a seat with its token"}
        version = msg.get("version")
        if type(version) is not int:
            return {"type": "error", "code": "bad_message", "reason": "version must be an int"}
        if version != t.version:
            await c.send_update(force=True)
            return {"type": "error", "code": "stale", "version": t.version,
                    "reason": f"the table is at version {t.version}, your message answers {version}"}
        if kind == "hint":
            return await self.hint(c)
        if t.state.current_player() != c.seat or t.state.is_terminal():
            return {"type": "error", "code": "illegal", "version": t.version,
                    "reason": "the game is over" if t.state.is_terminal() else
                    f"it is {t.seats[t.state.current_player()]['name']}'s turn (seat "
                    f"{t.state.current_player() + 1})"}     # seats from 1, as the lobby and the table
        try:
            if kind == "action":
                a = msg.get("action")
                if type(a) is not int:
                    return {"type": "error", "code": "bad_message", "reason": "action must be an int id"}
                rows = [t.apply(c.seat, a)]
            else:
                plan = t.laydown_plan(c.seat, msg.get("melds"))  # type: ignore[arg-type]  # checked inside
                rows = [t.apply(c.seat, a) for a in plan]
        except (IllegalActionError, ValueError, TypeError) as e:
            return {"type": "error", "code": "illegal", "version": t.version, "reason": str(e)[:300]}
        await self.commit(t, rows)
        return None

    async def hint(self, c: Conn) -> Dict[str, Any]:
        t = c.table
        if t.state.current_player() != c.seat or t.state.is_terminal():
            return {"type": "error", "code": "illegal", "reason": "a hint is for the seat to move"}
        version = t.version
        view = t.state.clone()

        def think():
            try:
                from krazy_core.search.bot import ISMCTSBot
                return ISMCTSBot(iterations=300, seed=version).step(view)
            except Exception:
                return view.heuristic_action(seed=version)
        a = await asyncio.get_running_loop().run_in_executor(BOT_POOL, think)
        if t.version != version:
            return {"type": "error", "code": "stale", "version": t.version, "reason": "the table moved on"}
        return {"type": "hint", "version": version, "action": protocol.describe_action(t.state, a)}


def _games() -> Dict[str, Any]:
    out = []
    for gid in krazy_core.available_games():
        spec = get_spec(gid)
        out.append({"id": gid, "name": spec.name, "min_players": spec.min_players,
                    "max_players": spec.max_players, "default_players": krazy_core.make(gid).num_players,
                    "options": [{"name": o.name, "default": o.default, "doc": o.doc, "rule": o.rule}
                                for o in spec.options]})
    return {"games": out, "bots": ["random", "heuristic", "ismcts:200", "ismcts:1000", "ismcts:5000"]}


def create_app(db_path: str = ":memory:", bot_think_scale: float = 1.0) -> Starlette:
    """The app over one SQLite file; tables in it are loaded (replayed and checked) now and
    their bots restart with the app. A table whose log does not replay (an action refused or
    a fingerprint that differs) is not served: it stays in the file as it is, and
    ``app.state.server.broken`` maps its id to the reason. ``bot_think_scale`` multiplies every table's think time
    (tests use 0)."""
    server = Server(db_path, bot_think_scale)

    async def index(request):
        return FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-cache"})

    async def games(request):
        return JSONResponse(_games())

    async def read_body(request):
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return None
        return body

    async def create(request):
        body = await read_body(request)
        if body is None:
            return JSONResponse({"error": f"the body is at most {MAX_BODY} bytes"}, 413)
        try:
            req = json.loads(body)
            t = server.create(req)
        except (ValueError, RecursionError) as e:
            code = 400
            return JSONResponse({"error": str(e)[:300] if isinstance(e, KrazyError) else "not valid JSON"}, code)
        base = str(request.base_url).rstrip("/")
        seats = [{"seat": i, "name": s["name"], "token": s["token"],
                  "url": f"{base}/#table={t.id}&token={s['token']}"}
                 for i, s in enumerate(t.seats) if s["kind"] == "human"]
        server.kick_bots(t)
        return JSONResponse({**t.public(), "table": t.id, "seats": seats,
                             "spectate": f"{base}/#table={t.id}"})

    async def list_tables(request):
        return JSONResponse({"tables": [t.public() for t in list(server.tables.values())[-200:]]})

    async def one_table(request):
        t = server.tables.get(request.path_params["tid"])
        if t is None:
            return JSONResponse({"error": "no such table"}, 404)
        return JSONResponse(t.public())

    async def ws_route(ws: WebSocket):
        t = server.tables.get(ws.path_params["tid"])
        await ws.accept()
        if t is None:
            await ws.send_text(json.dumps({"type": "error", "code": "no_table", "reason": "no such table"}))
            await ws.close(4404)
            return
        token = ws.query_params.get("token")
        seat = t.seat_of_token(token) if token else None
        if token and seat is None:
            await ws.send_text(json.dumps({"type": "error", "code": "not_your_seat", "reason": "that token is no seat's here"}))
            await ws.close(4403)
            return
        c = Conn(ws, t, seat)
        t.join(c)
        try:
            await c.send(t.hello_for(seat))
            await c.send_update(force=True)
            for other in list(t.conns):
                if other is not c:
                    await other.send({"type": "seats", "seats": t.seat_info()})
            server.kick_bots(t)
            while True:
                m = await ws.receive()
                if m["type"] == "websocket.disconnect":
                    break
                raw = m.get("text") if m.get("text") is not None else m.get("bytes")
                try:
                    err = await server.handle(c, raw)
                except Exception as e:   # never let one message stop the table or the server
                    err = {"type": "error", "code": "server", "reason": type(e).__name__}
                if err is not None:
                    await c.send(err)
                if c.strikes > MAX_STRIKES:
                    await ws.close(1008)
                    break
        except WebSocketDisconnect:
            pass
        finally:
            t.leave(c)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.start_all_bots()
        yield
        for t in server.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/games", games),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{tid}", one_table),
        WebSocketRoute("/ws/{tid}", ws_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.state.server = server
    return app


def _check_port(host: str, port: int) -> None:
    """Exit 3 with the reason when ``host:port`` cannot be listened on (a busy port): uvicorn
    said so too, but after the "open http://..." line had sent the user to a dead link."""
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        print(f"krazy serve: cannot listen on {host}:{port}: {e}", flush=True)
        raise SystemExit(3) from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)      # as uvicorn binds
        try:
            s.bind(addr)
        except OSError as e:
            print(f"krazy serve: cannot listen on {host}:{port}: {e.strerror or e} "
                  f"(another server there? try --port {port + 1})", flush=True)
            raise SystemExit(3) from None


def serve(host: str = "127.0.0.1", port: int = 8765, db: Optional[str] = None) -> None:
    """Run the server (``krazy serve``) until interrupted; prints the URL to open."""
    import uvicorn
    from krazy_core.server.store import default_path
    path = db or default_path()
    app = create_app(path)
    server = app.state.server
    print(f"krazy serve: tables in {path} ({server.loaded} loaded)")
    for tid, why in server.broken.items():
        print(f"krazy serve: table {tid} not loaded: {why}")
    _check_port(host, port)             # before the link: a busy port printed it, then failed
    print(f"open http://{host}:{port}/ in a browser", flush=True)
    # permessage-deflate off: compressing every update cost more CPU than building it (a
    # quarter of the event loop's time at 250 tables, benches/README.md); updates are a few kB
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False)
